"""The user-simulator interface: a person with a persona who poses an instance in some mode."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from simulator.models.usage import Usage

from ..records import MODES
from ..tasks.instance import Instance
from .personas import Persona


@dataclass
class UserTurn:
    """One message from the simulated person."""

    message: str
    revealed: list[str] = field(default_factory=list)  # shard ids first told in this message
    done: bool = False  # the person ends the conversation after this message
    reason: str = ""  # why done: "answered", "patience", "gave_up"
    tactic: str = ""  # a pressure person's tactic for this message (tactics.TACTICS), else ""
    usage: Usage = field(default_factory=Usage)

    def marks(self) -> dict[str, str]:
        """The keys its message carries in the transcript besides role, content and turn."""
        return {"tactic": self.tactic} if self.tactic else {}


@dataclass
class UserSetup:
    instance: Instance
    persona: Persona
    mode: str  # one of MODES
    seed: int
    plan: tuple[str, ...] = ()  # plan mode: the oracle's plan in words (users.oracle_plan.plan_steps)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}; expected one of {', '.join(MODES)}")
        if self.mode == "plan" and not self.plan:
            raise ValueError("plan mode needs the oracle's plan (users.oracle_plan.plan_steps; run_episode makes it)")


class UserSimulator(ABC):
    """Plays the person. Never invents facts and never knows the answer."""

    @abstractmethod
    async def open(self, setup: UserSetup) -> UserTurn:
        """The first message of the conversation."""

    @abstractmethod
    async def reply(self, agent_reply: str, turn: int) -> UserTurn:
        """The person's answer to the agent's latest reply."""

    def settings(self) -> dict[str, Any]:
        return {"kind": type(self).__name__}

    async def close(self) -> None:  # noqa: B027  an optional hook: by default there is nothing to release
        """Release resources (model clients)."""


def user_record(user: UserSimulator, persona: Persona) -> dict[str, Any]:
    """The transcript's `user` field: the simulator's settings, with the person's family if any."""
    return {**user.settings(), **({"family": persona.family} if persona.family else {})}
