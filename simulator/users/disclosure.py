"""Reveal bookkeeping shared by the user simulators: the shards of an instance and which are told.

Shard 0 is the intent. In the `ONE_MESSAGE` modes the opening message is built here (the query
verbatim; every shard text joined; the query and the oracle's plan in words) and tells everything
at once; in the multi-turn modes (sharded, recap, snowball) the opening tells the intent and the
simulator releases the rest, never a shard twice. `Restating` adds the rules of recap (the turn
that would end the conversation becomes a message restating every fact, told or not; the agent's
next reply ends it) and snowball (each message that does not end the conversation starts by
restating the facts told before it), as in Lost in Conversation. A conversation cut off by the
turn cap before the person would end it has no recap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..tasks.instance import Instance
from .base import UserTurn

ONE_MESSAGE = ("full", "concat", "plan")  # modes whose code-built opening tells everything


def opening_text(instance: Instance, mode: str, plan: tuple[str, ...] = ()) -> str:
    """The code-built first message of the `ONE_MESSAGE` modes."""
    if mode == "full":
        return instance.query
    if mode == "concat":
        return " ".join(shard["text"] for shard in instance.shards)
    if mode == "plan":
        steps = " ".join(f"{n}. {step}" for n, step in enumerate(plan, 1))
        return f"{instance.query} Here is how to go about it: {steps} (A ? stands for a value found on the way.)"
    raise ValueError(f"mode {mode!r} has no code-built opening (only {', '.join(ONE_MESSAGE)} do)")


@dataclass
class Screened:
    """A proposed list of reveals, checked against the ledger and a per-turn limit."""

    accepted: list[str] = field(default_factory=list)  # new, known ids, within the limit, in order
    unknown: list[str] = field(default_factory=list)  # ids no shard has
    excess: list[str] = field(default_factory=list)  # new, known ids beyond the limit


class Ledger:
    """Which shards of one instance the person has told so far."""

    def __init__(self, instance: Instance):
        self.texts = {shard["id"]: shard["text"] for shard in instance.shards}
        if not self.texts:
            raise ValueError(f"instance {instance.id} has no shards")
        if len(self.texts) != len(instance.shards):
            raise ValueError(f"instance {instance.id} has duplicate shard ids")
        self.revealed: list[str] = []

    @property
    def intent(self) -> str:
        return next(iter(self.texts))

    @property
    def remaining(self) -> list[str]:
        """The untold shard ids, in shard order."""
        return [sid for sid in self.texts if sid not in self.revealed]

    def screen(self, ids: list[str], limit: int) -> Screened:
        """Check proposed reveals: unknown ids and ids beyond `limit` are flagged; ids already
        told (or repeated in `ids`) are dropped silently."""
        result = Screened()
        for sid in dict.fromkeys(ids):
            if sid not in self.texts:
                result.unknown.append(sid)
            elif sid not in self.revealed:
                (result.accepted if len(result.accepted) < limit else result.excess).append(sid)
        return result

    def reveal(self, ids: list[str]) -> list[str]:
        """Mark `ids` as told (they must be known and untold); returns them."""
        for sid in ids:
            if sid not in self.texts or sid in self.revealed:
                raise ValueError(f"shard {sid!r} is unknown or already told")
            self.revealed.append(sid)
        return list(ids)

    def reveal_all(self) -> list[str]:
        return self.reveal(self.remaining)


class Restating:
    """The recap and snowball rules over a multi-turn person's turns (module docstring); in other
    modes turns pass unchanged. `phrase(kind)`: the person's words for "recap" (leads the recap),
    "as_said" (leads a snowball restatement) and "thanks" (the last message after a recap)."""

    def __init__(self, mode: str, ledger: Ledger, phrase: Callable[[str], str]):
        self.mode, self.ledger, self.phrase = mode, ledger, phrase
        self.recapped = False  # recap: the recap message was sent; the next reply ends the conversation

    def shape(self, turn: UserTurn, before: list[str]) -> UserTurn:
        """`turn` under the mode's rules; `before`: the shard ids told before it."""
        if self.mode == "recap" and turn.done and not self.recapped:
            self.recapped = True
            told = self.ledger.reveal_all()
            return UserTurn(
                self.restate(list(self.ledger.texts), "recap"), revealed=told, tactic=turn.tactic, usage=turn.usage
            )
        if self.mode == "snowball" and not turn.done and before:
            turn.message = f"{self.restate(before, 'as_said')} {turn.message}"
        return turn

    def closing(self, answered: bool) -> UserTurn | None:
        """recap: the person's last message, after the agent's reply to the recap (`answered`: that
        reply is an answer attempt); else None."""
        if not self.recapped:
            return None
        return UserTurn(self.phrase("thanks"), done=True, reason="answered" if answered else "gave_up")

    def restate(self, ids: list[str], lead: str) -> str:
        return " ".join([self.phrase(lead), *(self.ledger.texts[sid] for sid in ids)])


PLAIN_WORDS = {"recap": "To recap, here is everything:", "as_said": "As I said:", "thanks": "Thank you."}
