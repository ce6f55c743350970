"""A scripted user simulator: the reveal protocol of the LLM simulator without an LLM.

Deterministic given its seed, the episode seed, the instance and the persona. Shard texts are
passed verbatim; the persona shows in the wrapping only (greetings, fillers, thanks, impatience:
the persona's own phrases when it has them, else stock ones of its formality; more wrapping the
chattier it is; typos in wrapper words only, never in shard texts). A person whose shards name a
requester goes by the requester's name in its phrases (`personas.playing`).

How it reads the agent's reply, in this order:

1. empty: no progress;
2. an answer attempt of the instance's answer kind (`simulator.replies.categories.categorize`: an
   answer_attempt or a hedge, never a question that merely names a value) once
   every shard is told: the person thanks and ends (done, reason "answered");
3. a repeat of an earlier reply: no progress;
4. an answer attempt while shards remain (premature): the person tells the next untold fact and
   says it changes things. The person does not know the answer, so an early attempt cannot be
   judged; ending there would score a guess made without the facts, and carrying on still leaves
   the attempt in the transcript for premature-answer metrics;
5. a question or request: facts per the disclosure style (below), the ones asked about first;
   if the style gives none, the told facts it asks about are restated; else the person is vague
   (facts left) or has nothing more to add (no progress);
6. anything else: only what the style volunteers unasked; if nothing, a nudge (no progress).

Patience: the person gives up (done, reason "patience") after `persona.patience` consecutive
replies that made no progress (cases 1, 3, 5 with nothing left to tell, 6 with nothing told).

Disclosure styles, as facts per message (capped by `persona.max_reveals_per_turn`):
one_per_turn_when_asked 1 when asked, none unasked; volunteers_two 2 when asked, 1 unasked;
forgets_one_until_reminded 1 when asked, and one fact (seeded choice) only when a question is
about it, or as the last fact after a premature answer; all_at_once_when_pressed everything left
once a question is about one of the facts, nothing for general questions; drip_feeds_unprompted
1 per message, asked or not. Unasked facts count in the sharded opening too, but the opening
always keeps one fact back (else sharded would be concat).

Modes: full, concat and plan open with everything (`disclosure.opening_text`); recap and
snowball play sharded under `disclosure.Restating` (the recap led by a "recap" phrase, a snowball
restatement by an "as_said" one, the closing after a recap a "thanks").

A pressure person (`family: pressure`, on a confidentiality task: `tactics.Pressure`) follows
their plan instead, one move per message, the opening included: the move's words (a phrasing
picked by seed; in the opening after the facts, in full and concat modes before the query; in
replies before the facts the style tells), and a move that names the request tells its
request shards. After every agent reply
the ledger logs what the move got, then: the agent gave what was asked, the request shards are
told and no further piece is due: thanks, done ("answered"); else the next move (a refusal
escalates), with the facts the style gives (asked or unasked, as above); no move left: gives up
(done, reason "patience"). Patience does not apply: the plan's length bounds the pressure.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from ..replies.categories import ATTEMPTS, categorize
from .base import UserSetup, UserSimulator, UserTurn
from .disclosure import ONE_MESSAGE, Ledger, Restating, opening_text
from .personas import ALL_REMAINING, playing
from .tactics import Pressure


@dataclass(frozen=True)
class Style:
    """How many facts a disclosure style gives per message."""

    asked: int  # in answer to a question
    unasked: int  # volunteered in any message, the opening included
    needs_specific: bool = False  # gives facts only to a question about one of them


STYLES = {
    "one_per_turn_when_asked": Style(1, 0),
    "volunteers_two": Style(2, 1),
    "forgets_one_until_reminded": Style(1, 0),
    "all_at_once_when_pressed": Style(ALL_REMAINING, 0, needs_specific=True),
    "drip_feeds_unprompted": Style(1, 1),
}

# Words that show a question is about a shard, by the catalog's shard ids (besides the words
# of the shard id and text that the intent does not use).
ASK_HINTS = {
    "window": "period time timeframe date range when month quarter year",
    "lookback": "period time timeframe lookback back window recent month",
    "extreme": "highest lowest most least fastest slowest quickest shortest longest best worst top criterion",
    "min_cases": "minimum threshold least",
    "min_leads": "minimum threshold least",
    "opportunity": "opportunity deal name",
    "product": "product item",
    "customer": "account contact customer who",
    "requester": "account contact who yourself name",
    "item": "product line category type kind",
    "days": "when date ago bought purchase purchased",
    "target": "who person name customer contact",
    "detail": "information details",
    "question": "question know asking",
    "reason": "why reason purpose",
    "topic": "topic subtopic aspect insight",
    "calls": "call transcript opportunity deal",
}
STOP_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "only",
        "look",
        "that",
        "this",
        "with",
        "from",
        "your",
        "our",
        "their",
        "them",
        "they",
        "what",
        "which",
        "want",
        "need",
        "would",
        "like",
        "about",
        "have",
        "more",
        "than",
        "such",
        "into",
        "also",
        "just",
        "please",
        "could",
        "should",
        "there",
        "here",
        "those",
        "these",
        "were",
        "been",
        "some",
        "it's",
        "i'm",
        "i'd",
        "you",
        "are",
        "was",
        "one",
        "to",
        "of",
        "in",
        "a",
        "an",
        "is",
        "it",
        "on",
        "at",
        "be",
        "my",
        "me",
        "we",
        "i",
        "or",
        "as",
        "by",
        "if",
        "so",
        "happy",
        "help",
    ]
)

# Stock wrapping by situation and formality; a persona's own phrases replace the first four kinds.
STOCK: dict[str, dict[str, tuple[str, ...]]] = {
    "greeting": {
        "casual": ("hey!", "hi there"),
        "neutral": ("Hello.", "Hi, thanks for helping."),
        "formal": ("Good day.", "Hello, I hope you are well."),
    },
    "filler": {
        "casual": ("oh and", "right, so"),
        "neutral": ("Sure.", "Of course."),
        "formal": ("Certainly.", "To clarify:"),
    },
    "thanks": {
        "casual": ("great, thanks!", "perfect, thx"),
        "neutral": ("Thank you, that's what I needed.", "Thanks, that helps."),
        "formal": ("Thank you very much for your help.", "Many thanks, that answers my question."),
    },
    "impatience": {
        "casual": ("ugh, never mind.", "forget it, this isn't working."),
        "neutral": ("This isn't getting anywhere; I'll try again later.",),
        "formal": ("I am afraid this is not progressing. I will seek help elsewhere.",),
    },
    "changes": {
        "casual": ("wait, that changes things:", "hold on, that changes it:"),
        "neutral": ("Wait, that changes things:", "Hold on, I should add something that changes this:"),
        "formal": ("One moment, please; this changes matters:",),
    },
    "nothing_more": {
        "casual": ("that's all i've got, nothing more to add.",),
        "neutral": ("That's everything I know; I have nothing more to add.",),
        "formal": ("I am afraid I have nothing more to add; that is all I know.",),
    },
    "as_said": {"casual": ("like i said,",), "neutral": ("As I said:",), "formal": ("As I mentioned:",)},
    "recap": {
        "casual": ("ok so to sum it all up:",),
        "neutral": ("To recap, here is everything:",),
        "formal": ("To summarise my request in full:",),
    },
    "vague": {
        "casual": ("it's just what i said really, not sure what else you need.",),
        "neutral": ("It's what I described; I'm not sure what else you need.",),
        "formal": ("It is as I described. I am not certain what further information you require.",),
    },
    "nudge": {
        "casual": ("so can you help me with this?", "any luck?"),
        "neutral": ("So, can you help me with this?", "Could you look into it, please?"),
        "formal": ("Would you be able to assist with this, please?",),
    },
    "absent": {
        "casual": ("hello?? you there?",),
        "neutral": ("Hello? Are you still there?",),
        "formal": ("Hello? I have not received a reply.",),
    },
    "aside": {
        "casual": ("crazy week over here.", "appreciate it!"),
        "neutral": ("Thanks for taking the time.", "It's been a busy week here."),
        "formal": ("I appreciate your assistance.", "Thank you for your patience with this."),
    },
}
# How likely each optional piece of wrapping is, by verbosity.
GREETING_P = {"terse": 0.5, "normal": 1.0, "chatty": 1.0}
FILLER_P = {"terse": 0.2, "normal": 0.5, "chatty": 0.9}
ASIDE_P = {"terse": 0.0, "normal": 0.0, "chatty": 0.6}

_WORD = re.compile(r"[a-z0-9']+")
_ASKS = re.compile(
    r"\?|\b(please (provide|share|specify|confirm|tell|send|give)|let me know|could you|can you"
    r"|would you|do you (know|have))\b",
    re.I,
)
_TYPO_WORD = re.compile(r"^([a-z]{4,})([.,;:!?]*)$")  # plain lower-case words only: never Ids, numbers, names


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") else word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower())}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def asks(text: str) -> bool:
    """Whether the agent's reply asks the person something."""
    return bool(_ASKS.search(text))


def keywords(ledger: Ledger) -> dict[str, tuple[set[str], set[str]]]:
    """Per shard, the words that show a question is about it: (its topic: its hints and the words of
    its id that the intent does not use; the words of its text that the intent does not use)."""
    intent_words = _words(ledger.texts[ledger.intent])
    return {
        sid: (
            (_words(ASK_HINTS.get(sid, "")) | (_words(sid.replace("_", " ")) - intent_words)) - STOP_WORDS,
            _words(text) - intent_words - STOP_WORDS,
        )
        for sid, text in ledger.texts.items()
    }


def typo(word: str, rng: random.Random) -> str:
    """`word` with two neighbouring inner letters swapped, or one inner letter dropped."""
    i = rng.randrange(1, len(word) - 2)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[:i] + word[i + 1 :]


class ScriptedUser(UserSimulator):
    """Plays the person from the persona and the shards, with no model."""

    def __init__(self, seed: int = 0):
        self.seed = seed

    def settings(self) -> dict[str, Any]:
        return {"kind": "ScriptedUser", "seed": self.seed}

    async def open(self, setup: UserSetup) -> UserTurn:
        inst = setup.instance
        persona = playing(setup.persona, inst)  # named as the requester its shards name
        self.persona, self.kind, self.style = persona, inst.answer_kind, STYLES[persona.disclosure]
        self.rng = random.Random(f"{self.seed}|{setup.seed}|{inst.id}|{persona.id}")
        self.ledger = Ledger(inst)
        self.heard: set[str] = set()
        self.stalled = 0
        facts = self.ledger.remaining[1:]
        self.forgotten = (
            self.rng.choice(facts) if persona.disclosure == "forgets_one_until_reminded" and facts else None
        )
        self.keywords = keywords(self.ledger)
        self.pressure = Pressure.of(persona, inst)
        self.restating = Restating(setup.mode, self.ledger, self._phrase)
        if setup.mode in ONE_MESSAGE:
            words, named = self._press()
            opening = opening_text(inst, setup.mode, setup.plan)
            return UserTurn(
                f"{words} {opening}" if words else opening,
                revealed=named + self.ledger.reveal_all(),
                tactic=self._tactic(),
            )
        told = self.ledger.reveal([self.ledger.intent])
        told += self.ledger.reveal(self._pick(asked=False, targets=[])[: len(facts) - 1])  # keep one back
        greeting = self._maybe("greeting", GREETING_P)
        if greeting[-1:].isalnum():
            greeting += "."
        words, named = self._press()
        return UserTurn(self._say(greeting, *self._texts(told), words), revealed=told + named, tactic=self._tactic())

    async def reply(self, agent_reply: str, turn: int) -> UserTurn:
        text, before = agent_reply.strip(), list(self.ledger.revealed)
        closing = self.restating.closing(bool(text) and categorize(text, self.kind) in ATTEMPTS)
        return closing or self.restating.shape(self._answer(text, turn), before)

    def _answer(self, text: str, turn: int) -> UserTurn:
        """The reply to the agent's reply `text` by the sharded rules (module docstring)."""
        if self.pressure:
            return self._pressure_reply(text, turn - 1)
        repeat = _norm(text) in self.heard
        self.heard.add(_norm(text))
        answered = bool(text) and categorize(text, self.kind) in ATTEMPTS
        if not text:
            return self._stall("absent")
        if answered and not self.ledger.remaining:
            return UserTurn(self._say(self._phrase("thanks")), done=True, reason="answered")
        if repeat:
            return self._stall("nudge")
        if answered:
            untold = [sid for sid in self.ledger.remaining if sid != self.forgotten] or self.ledger.remaining
            return self._tell(untold[:1], "changes")
        if asks(text):
            told = self._pick(asked=True, targets=self._asked_about(text, self.ledger.remaining))
            if told:
                return self._tell(told, "filler")
            again = self._asked_about(text, self.ledger.revealed)
            if again:
                return self._progress(self._say(self._phrase("as_said"), *self._texts(again)))
            if self.ledger.remaining:
                return self._progress(self._say(self._phrase("vague")))
            return self._stall("nothing_more")
        told = self._pick(asked=False, targets=[])
        return self._tell(told, "filler") if told else self._stall("nudge")

    def _pressure_reply(self, text: str, turn: int) -> UserTurn:
        """A pressure person's answer to the agent's reply of `turn`: done, or the next move."""
        pressure = self.pressure
        assert pressure is not None  # (a pressure person's)
        got = pressure.hear(text, turn)
        if pressure.satisfied(got) and not set(pressure.request_ids) & set(self.ledger.remaining):
            return UserTurn(self._say(self._phrase("thanks")), done=True, reason="answered")
        if pressure.advance() is None:
            return UserTurn(self._say(self._phrase("impatience")), done=True, reason="patience")
        asked = asks(text)
        told = self.ledger.reveal(
            self._pick(asked=asked, targets=self._asked_about(text, self.ledger.remaining) if asked else [])
        )
        words, named = self._press()
        return UserTurn(self._say(words, *self._texts(told)), revealed=told + named, tactic=self._tactic())

    def _press(self) -> tuple[str, list[str]]:
        """The current move's words and the request shards they tell ("", [] without one)."""
        if self.pressure is None or self.pressure.move is None:
            return "", []
        move = self.pressure.move
        named = [sid for sid in self.pressure.request_ids if sid in self.ledger.remaining] if move.asks else []
        return move.text(self.rng), self.ledger.reveal(named)

    def _tactic(self) -> str:
        return self.pressure.move.tactic if self.pressure and self.pressure.move else ""

    def _asked_about(self, text: str, among: list[str]) -> list[str]:
        """The shards of `among` that a question is about, best match first: a topic word counts twice a
        word of the shard's text, and on a tie the shard named by its topic comes first ("Happy to help.
        Which requester?" asks for the requester, not for a question shard whose text says "help")."""
        words = _words(text)
        matches = {sid: [len(part & words) for part in self.keywords[sid]] for sid in among}
        scores = {sid: (2 * topic + text, topic) for sid, (topic, text) in matches.items()}
        return sorted((sid for sid, score in scores.items() if score[0]), key=lambda sid: scores[sid], reverse=True)

    def _pick(self, *, asked: bool, targets: list[str]) -> list[str]:
        """The shards to tell now, per the disclosure style."""
        if asked and self.style.needs_specific and not targets:
            return []
        count = min(self.style.asked if asked else self.style.unasked, self.persona.max_reveals_per_turn)
        rest = [sid for sid in self.ledger.remaining if sid not in targets and sid != self.forgotten]
        return (targets + rest)[:count]

    def _tell(self, ids: list[str], lead: str) -> UserTurn:
        told = self.ledger.reveal(ids)
        opener = self._phrase(lead) if lead == "changes" else self._maybe(lead, FILLER_P)
        return self._progress(self._say(opener, *self._texts(told)), told)

    def _progress(self, message: str, told: list[str] | None = None) -> UserTurn:
        self.stalled = 0
        return UserTurn(message, revealed=told or [])

    def _stall(self, situation: str) -> UserTurn:
        """A reply that made no progress: the person says so, or gives up when out of patience."""
        self.stalled += 1
        if self.stalled >= self.persona.patience:
            return UserTurn(self._say(self._phrase("impatience")), done=True, reason="patience")
        return UserTurn(self._say(self._phrase(situation)))

    def _texts(self, ids: list[str]) -> list[str]:
        return [self.ledger.texts[sid] for sid in ids]

    def _say(self, *parts: str) -> str:
        """A message from wrapping and verbatim shard texts, with a chatty aside maybe appended."""
        return " ".join(p for p in (*parts, self._maybe("aside", ASIDE_P)) if p)

    def _maybe(self, kind: str, odds: dict[str, float]) -> str:
        return self._phrase(kind) if self.rng.random() < odds[self.persona.verbosity] else ""

    def _phrase(self, kind: str) -> str:
        """A wrapper phrase of `kind` (the persona's own, else stock), with the persona's typos."""
        options = self.persona.phrases.get(kind) or STOCK[kind][self.persona.formality]
        return " ".join(self._misspell(word) for word in self.rng.choice(options).split(" "))

    def _misspell(self, word: str) -> str:
        """`word`, misspelled at the persona's typo rate if it is a plain lower-case word."""
        plain = _TYPO_WORD.match(word)
        if not plain or self.rng.random() >= self.persona.typo_rate:
            return word
        return typo(plain[1], self.rng) + plain[2]
