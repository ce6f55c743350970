"""A person in the user's seat (`crmarena play --seat user`): they type the person's messages.

Before the first message they are shown what a simulated person is given (`brief`): the persona
card, the request and its facts (the shards, numbered, with their ids) and the disclosure plan:
in sharded modes which facts to tell when (the persona's disclosure style and its `schedule`;
the opening states the request and keeps a fact back), in full, concat and plan modes the
whole request in one opening message (Enter sends it as the simulators would, verbatim). Each
agent reply is printed as it comes.

What they told is read from what they type, and the ledger (`disclosure.Ledger`) records it as
reveal events, as for a simulated person: the opening tells the request (shard 0) and a verbatim
one-message opening tells everything; `{id}` or `{n}` in a message is that fact's text, verbatim;
any other fact counts as told once the message holds every value of it (ids, numbers, emails)
or, for a fact without values, at least half of its own words (`stated`). After each message
the person is shown what was counted and what is left. Their words stay their own: a fact beyond
the style's per-message limit is still told (the record's reveal events show it and `crmarena
audit` flags it, too_many), and recap and snowball restating are added by code as for the
simulators (`disclosure.Restating`).

A pressure persona (on a confidentiality task: `tactics.Pressure`) also gets its plan of moves,
one per message, the opening included, each with its words as the scripted person's first
phrasing, and how the simulated person goes through them (`moves_plan`); after each agent reply
the next move is shown. A message that holds one of a move's phrasings as written (`/move`
sends the next move's words) is counted as that move: the transcript marks its `tactic`, as a
simulated pressure person's message, and a move that names the request tells the request facts.
A message in the person's own words is counted as no move: the ledger cannot tell a tactic from
free words (no model reads them).

Commands at the prompt: /done [words] ends the conversation satisfied (reason "answered"); /quit,
Ctrl-D or Ctrl-C leave it (reason "quit": termination user_done, recorded and scored); /move
[words] sends the next move's words (then yours); /facts shows the brief again; /help lists these.
"""

from __future__ import annotations

import re
from typing import Any

from ..infra.console import Console
from ..replies.categories import ATTEMPTS, categorize
from .base import UserSetup, UserSimulator, UserTurn
from .disclosure import ONE_MESSAGE, PLAIN_WORDS, Ledger, Restating, opening_text
from .personas import ALL_REMAINING, DISCLOSURES, playing
from .scripted import STYLES, Style, keywords
from .scripted import _words as words
from .tactics import Move, Pressure

HELP = """Type your message and press Enter. {id} or {n} stands for that fact's text, verbatim.
  /done [words]  end the conversation: you got what you needed (your last words optional)
  /quit          leave the conversation (Ctrl-D and Ctrl-C too); the episode is recorded as it stands
  /move [words]  a pressure persona: send your next move's words (then your words)
  /facts         show your persona, request, facts and disclosure plan again
  /help          this list"""

NO_MOVES = "this persona has no plan of moves (a pressure persona on a confidentiality task has one)"
_VALUE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w.])(?=[\w]*\d)\w+")  # emails; words with a digit
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")


def values(text: str) -> set[str]:
    """The emails and the words holding a digit (ids, numbers, dates) of `text`, lower case."""
    return {v.lower() for v in _VALUE.findall(_THOUSANDS.sub("", text))}


def stated(message: str, ledger: Ledger) -> list[str]:
    """The untold fact shards (not the intent) that `message` states, in shard order: every value
    of the fact is in it, or (a fact without values) at least half of the fact's own words."""
    said_values, said_words = values(message), words(message)
    own = keywords(ledger)
    found = []
    for sid in ledger.remaining:
        if sid == ledger.intent:
            continue
        needed = values(ledger.texts[sid])
        if needed:
            if needed <= said_values:
                found.append(sid)
        elif own[sid][1] and 2 * len(own[sid][1] & said_words) >= len(own[sid][1]):
            found.append(sid)
    return found


def disclosure_plan(setup: UserSetup) -> str:
    """What the person is told of how to pose the request in this mode, with this persona."""
    if setup.mode in ONE_MESSAGE:
        return (
            f"{setup.mode} mode: your first message tells everything at once. Press Enter to send it as "
            f"shown, or type it in your own words:\n  {opening_text(setup.instance, setup.mode, setup.plan)}"
        )
    name = setup.persona.disclosure
    lines = [
        f"{setup.mode} mode: your first message states your request (fact 0) and keeps at least one fact back.",
        f"Then, your disclosure style ({name}): {DISCLOSURES[name].instruction}",
        schedule(setup.instance.shards, STYLES[name]),
    ]
    if setup.mode == "recap":
        lines.append("When you end (/done), a recap of every fact is sent for you; the agent's next reply ends it.")
    if setup.mode == "snowball":
        lines.append("Each of your later messages is sent with the facts you told before restated first.")
    return "\n".join(lines)


def schedule(shards: list[dict[str, str]], style: Style) -> str:
    """Which facts to tell when, by a disclosure style (as the scripted person tells them)."""
    ids = [f"{{{s['id']}}}" for s in shards]
    volunteered = ids[1:][: min(style.unasked, len(ids) - 2)]
    asked = "every fact left" if style.asked >= ALL_REMAINING else f"{style.asked} fact(s)"
    about = " about one of them" if style.needs_specific else ""
    return (
        f"Your plan: message 1 tells {', '.join([ids[0], *volunteered])}; after it, each message tells {asked} "
        f"when the agent asks{about} (the ones asked about first) and {style.unasked or 'none'} unasked, "
        f"otherwise in this order: {', '.join(ids[1 + len(volunteered) :]) or 'nothing left'}."
    )


def moves_plan(moves: list[Move]) -> str:
    """A pressure persona's moves, which when, as the simulated person makes them."""
    listed = "\n".join(f"  {n}. {move.tactic}: {move.example}" for n, move in enumerate(moves, 1))
    return (
        f"Your plan of moves (a pressure persona: one move per message, your first message included):\n{listed}\n"
        "The simulated person makes the next move after every agent reply (a refusal escalates), "
        "says thanks and ends once the agent hands over what was asked and no further piece is due, "
        "and gives up when the moves run out. /move sends your next move's words; a message holding "
        "a move's words as written counts as that move, one in your own words as none."
    )


def brief(setup: UserSetup, moves: list[Move] | None = None) -> str:
    """Everything the person sees before the first message (the module docstring)."""
    inst = setup.instance
    facts = "\n".join(f"  {n}. {{{s['id']}}} {s['text']}" for n, s in enumerate(inst.shards))
    parts = [
        "=== You are the person (the user's seat) ===",
        playing(setup.persona, inst).render().strip(),
        f"Your request: {inst.query}",
        f"Its facts, by number and {{id}}:\n{facts}",
        disclosure_plan(setup),
    ]
    return "\n\n".join([*parts, *([moves_plan(moves)] if moves else []), HELP])


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


class HumanUser(UserSimulator):
    """The person's messages come from a terminal (`Console`)."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console()

    def settings(self) -> dict[str, Any]:
        return {"kind": "human"}

    async def open(self, setup: UserSetup) -> UserTurn:
        self.setup, self.ledger = setup, Ledger(setup.instance)
        self.restating = Restating(setup.mode, self.ledger, PLAIN_WORDS.__getitem__)
        self.pressure = Pressure.of(playing(setup.persona, setup.instance), setup.instance)
        self.console.say(self._brief())
        return self._typed(opening=True)

    def _brief(self) -> str:
        return brief(self.setup, self.pressure.moves if self.pressure else None)

    async def reply(self, agent_reply: str, turn: int) -> UserTurn:
        text, before = agent_reply.strip(), list(self.ledger.revealed)
        self.console.say(f"\nagent: {text or '(no reply)'}")
        attempt = bool(text) and categorize(text, self.setup.instance.answer_kind) in ATTEMPTS
        closing = self.restating.closing(attempt)
        if closing:
            self.console.say(f"(sent for you, {self.setup.mode} mode) {closing.message}")
            return closing
        if self.pressure:
            self.console.say(self._next_move())
        typed = self._typed(opening=False)
        shaped = self.restating.shape(typed, before)
        if shaped.message != typed.message:
            self.console.say(f"(sent for you, {self.setup.mode} mode) {shaped.message}")
        return shaped

    def _typed(self, opening: bool) -> UserTurn:
        """The person's next message, read until it is one (commands answered on the way)."""
        while True:
            line = self.console.ask("you> ")
            text = "/quit" if line is None else line.strip()
            command = text.split()[0] if text.startswith("/") else ""
            if command == "/quit":
                return UserTurn("", done=True, reason="quit")
            if command in ("/help", "/facts"):
                self.console.say(HELP if command == "/help" else self._brief())
            elif command == "/move" and not (self.pressure and self.pressure.move):
                self.console.say("your plan of moves is used up" if self.pressure else NO_MOVES)
            elif command == "/move":
                turn = self._message(self._move_text(text.removeprefix("/move").strip(), opening), opening)
                if turn is not None:
                    return turn
            elif command not in ("", "/done"):
                self.console.say(f"unknown command {command}; /help lists them")
            elif command and opening:
                self.console.say("there is no conversation to end yet: type your request (/quit leaves)")
            elif not text and opening and self.setup.mode in ONE_MESSAGE:
                opened = opening_text(self.setup.instance, self.setup.mode, self.setup.plan)
                return self._told(opened, self.ledger.remaining)
            elif text:
                turn = self._message(text.removeprefix("/done").strip(), opening)
                if turn is not None:
                    turn.done, turn.reason = bool(command), "answered" if command else ""
                    return turn

    def _message(self, text: str, opening: bool) -> UserTurn | None:
        """`text` with its placeholders filled in, and the facts it tells; None (and why) for an
        unknown placeholder."""
        ids = list(self.ledger.texts)
        named: list[str] = []

        def fill(match: re.Match[str]) -> str:
            key = match.group(1)
            sid = ids[int(key)] if key.isdigit() and int(key) < len(ids) else key
            named.append(sid)
            return self.ledger.texts.get(sid, match.group(0))

        message = _PLACEHOLDER.sub(fill, text)
        unknown = [sid for sid in named if sid not in self.ledger.texts]
        if unknown:
            self.console.say(f"no fact {{{unknown[0]}}}: use a number 0-{len(ids) - 1} or an id of /facts")
            return None
        told = [self.ledger.intent] if opening else []
        move = self._made(message)
        if move and move.asks and self.pressure:  # (as a simulated pressure person's move tells them)
            told += self.pressure.request_ids
        told += [sid for sid in named if sid not in told] + stated(message, self.ledger)
        turn = self._told(message, [sid for sid in ids if sid in told and sid in self.ledger.remaining])
        turn.tactic = move.tactic if move else ""
        return turn

    def _move_text(self, words: str, opening: bool) -> str:
        """The next move's words (a one-message opening: before the request, as the simulators send
        it), then the person's `words`."""
        assert self.pressure and self.pressure.move
        rest = words or (
            opening_text(self.setup.instance, self.setup.mode, self.setup.plan)
            if opening and self.setup.mode in ONE_MESSAGE
            else ""
        )
        return f"{self.pressure.move.example} {rest}".strip()

    def _made(self, message: str) -> Move | None:
        """The move whose phrasing (filled) `message` holds as written, the next ones first, and the
        plan's place after it; None (and the place kept) for a message in the person's own words."""
        if self.pressure is None:
            return None
        plain, at = _plain(message), self.pressure.at
        order = [*range(at, len(self.pressure.moves)), *range(at)]
        for i in order:
            move = self.pressure.moves[i]
            if any(_plain(phrasing.format(**move.values)) in plain for phrasing in move.phrasings):
                self.pressure.at = i + 1
                return move
        return None

    def _next_move(self) -> str:
        """The plan's next move, as the person is shown it after each agent reply."""
        assert self.pressure is not None
        move, total = self.pressure.move, len(self.pressure.moves)
        if move is None:
            return "  (your plan of moves is used up: the simulated person would give up now)"
        return f'  (your next move, {self.pressure.at + 1} of {total}, {move.tactic}: "{move.example}"; /move sends it)'

    def _told(self, message: str, ids: list[str]) -> UserTurn:
        """The turn telling `ids` (marked told in the ledger), after saying what was counted."""
        told = self.ledger.reveal(ids)
        left = self.ledger.remaining
        self.console.say(
            f"  (counted as told: {', '.join(told) or 'nothing new'}; "
            f"{'still untold: ' + ', '.join(left) if left else 'every fact told'})"
        )
        return UserTurn(message, revealed=told)
