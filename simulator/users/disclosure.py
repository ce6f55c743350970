"""Reveal bookkeeping shared by the user simulators: the shards of an instance and which are told.

Shard 0 is the intent. In `full` and `concat` modes the opening message is built here (the
query verbatim, or every shard text joined) and tells everything at once; in `sharded` mode the
opening tells the intent and the simulator releases the rest, never a shard twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..tasks.instance import Instance


def opening_text(instance: Instance, mode: str) -> str:
    """The code-built first message of the `full` and `concat` modes."""
    if mode == "full":
        return instance.query
    if mode == "concat":
        return " ".join(shard["text"] for shard in instance.shards)
    raise ValueError(f"mode {mode!r} has no code-built opening (only full and concat do)")


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
