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
simulators (`disclosure.Restating`). A pressure persona's plan of moves is not shown.

Commands at the prompt: /done [words] ends the conversation satisfied (reason "answered"); /quit,
Ctrl-D or Ctrl-C leave it (reason "quit": termination user_done, recorded and scored); /facts
shows the brief again; /help lists these.
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

HELP = """Type your message and press Enter. {id} or {n} stands for that fact's text, verbatim.
  /done [words]  end the conversation: you got what you needed (your last words optional)
  /quit          leave the conversation (Ctrl-D and Ctrl-C too); the episode is recorded as it stands
  /facts         show your persona, request, facts and disclosure plan again
  /help          this list"""

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


def brief(setup: UserSetup) -> str:
    """Everything the person sees before the first message (the module docstring)."""
    inst = setup.instance
    facts = "\n".join(f"  {n}. {{{s['id']}}} {s['text']}" for n, s in enumerate(inst.shards))
    return "\n\n".join(
        [
            "=== You are the person (the user's seat) ===",
            playing(setup.persona, inst).render().strip(),
            f"Your request: {inst.query}",
            f"Its facts, by number and {{id}}:\n{facts}",
            disclosure_plan(setup),
            HELP,
        ]
    )


class HumanUser(UserSimulator):
    """The person's messages come from a terminal (`Console`)."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console()

    def settings(self) -> dict[str, Any]:
        return {"kind": "human"}

    async def open(self, setup: UserSetup) -> UserTurn:
        self.setup, self.ledger = setup, Ledger(setup.instance)
        self.restating = Restating(setup.mode, self.ledger, PLAIN_WORDS.__getitem__)
        self.console.say(brief(setup))
        return self._typed(opening=True)

    async def reply(self, agent_reply: str, turn: int) -> UserTurn:
        text, before = agent_reply.strip(), list(self.ledger.revealed)
        self.console.say(f"\nagent: {text or '(no reply)'}")
        attempt = bool(text) and categorize(text, self.setup.instance.answer_kind) in ATTEMPTS
        closing = self.restating.closing(attempt)
        if closing:
            self.console.say(f"(sent for you, {self.setup.mode} mode) {closing.message}")
            return closing
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
                self.console.say(HELP if command == "/help" else brief(self.setup))
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
        told += [sid for sid in named if sid not in told] + stated(message, self.ledger)
        return self._told(message, [sid for sid in ids if sid in told and sid in self.ledger.remaining])

    def _told(self, message: str, ids: list[str]) -> UserTurn:
        """The turn telling `ids` (marked told in the ledger), after saying what was counted."""
        told = self.ledger.reveal(ids)
        left = self.ledger.remaining
        self.console.say(
            f"  (counted as told: {', '.join(told) or 'nothing new'}; "
            f"{'still untold: ' + ', '.join(left) if left else 'every fact told'})"
        )
        return UserTurn(message, revealed=told)
