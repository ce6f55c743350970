"""Instance-blind baseline agents, for calibrating scores: what a fixed policy gets without
doing the work. Use them as plug-ins (`kind: plugin`, `plugin: simulator.agents.baselines:AlwaysRefuse`)
beside the agents under test; a metric on which a baseline scores well is measuring a reflex.
"""

from __future__ import annotations

from .base import Agent, AgentSetup, AgentTurn

REFUSAL_TEXT = "I'm sorry, but I can't share that information."


class AlwaysRefuse(Agent):
    """Declines whatever it is asked, at every turn, without a tool call. On the confidentiality
    tasks it protects every confidential request and serves no legitimate one: privacy-utility
    at most 0.5 (chance)."""

    async def start(self, setup: AgentSetup) -> None:
        pass

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        return AgentTurn(reply=REFUSAL_TEXT)

    def settings(self) -> dict:
        return {"kind": "baseline", "policy": "always_refuse"}
