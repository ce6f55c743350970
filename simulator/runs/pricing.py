"""How many model calls an autogen agent or team makes per person message, for the dry run's price
(simulator.runs.run.estimate): read from the component file, never by playing it.

An AssistantAgent with tools (the CRM tools, its own, or handoffs) makes two calls (a tool call,
then its answer), one without. A team's speakers take turns until its termination: the first
speaker a SourceMatchTermination names, else `max_turns` or the speakers a MaxMessageTermination
allows (the person's message is one of its messages), else one round. Round robin and selector
teams go through their participants in order (a selector's model picks one per speaker, with a call
unless one candidate is left: two participants and no repeated speaker), and the next person
message continues after the last speaker; a swarm hands off down its participants, and the next
person message goes to the last speaker (autogen keeps a team's state across the messages).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator.agents.autogen_component import ASSISTANT, ComponentFile

_SELECTOR, _SWARM = "autogen_agentchat.teams.SelectorGroupChat", "autogen_agentchat.teams.Swarm"
BUILT_IN_CALLS = 2  # a built-in agent's model calls per person message (a tool call, then its answer)


@dataclass(frozen=True)
class TurnCalls:
    """Model calls by model slot for the episode's first person message and for each later one."""

    first: Counter[int]
    later: Counter[int]
    said: str  # the assumption in words

    def total(self, messages: int, slots: set[int] | None = None) -> int:
        """The calls of an episode of `messages` person messages (on the given model slots only)."""

        def of(calls: Counter[int]) -> int:
            return sum(n for slot, n in calls.items() if slots is None or slot in slots)

        return of(self.first) + of(self.later) * max(0, messages - 1) if messages else 0


def turn_calls(component: ComponentFile) -> TurnCalls:
    """The model calls of the component per person message, and the assumption in words."""
    first, said_first = _calls(component.tree, first=True)
    later, said_later = _calls(component.tree, first=False)
    said = f"{sum(first.values())} model calls for the first person message ({said_first})"
    if later != first:
        said += f", {sum(later.values())} for each later one ({said_later})"
    return TurnCalls(first, later, said)


def _calls(node: dict[str, Any], *, first: bool) -> tuple[Counter[int], str]:
    config = node["config"]
    if "participants" not in config:  # an agent: an AssistantAgent as above, another one call if it has a model
        n = (2 if _has_tools(config) else 1) if node["provider"] == ASSISTANT else int("model_client" in config)
        return Counter({_slot(config["model_client"]): n} if n else {}), f"{config.get('name')} {n}"
    members = config["participants"]
    start, count = 0, _speakers(node, 0)
    if not first:  # (from the speaker after the first message's last one; a swarm's last one)
        start = (count - 1 + (node["provider"] != _SWARM)) % len(members)
        count = _speakers(node, start)
    calls: Counter[int] = Counter()
    parts = []
    for i in range(start, start + count):
        inner, said = _calls(members[i % len(members)], first=first)
        calls.update(inner)
        parts.append(said)
    if node["provider"] == _SELECTOR:
        repeat = len(members) > 2 or config.get("allow_repeated_speaker")
        choices = count if repeat else int(first)  # (the episode's first choice has no previous speaker)
        calls[_slot(config["model_client"])] += choices
        parts.append(f"speaker choices {choices}")
    return calls, ", ".join(parts)


def _speakers(team: dict[str, Any], start: int) -> int:
    """Speaker turns of one run of the team from participant `start`."""
    config = team["config"]
    names = [str(m["config"].get("name")) for m in config["participants"]]
    sources, max_messages = _terminations(config.get("termination_condition"))
    order = [names[(start + i) % len(names)] for i in range(len(names))]
    bounds = [b for b in (config.get("max_turns"), max_messages - 1 if max_messages else None) if b]
    bounds += [order.index(name) + 1 for name in order if name in sources][:1]
    return max(1, min(bounds)) if bounds else len(names)


def _has_tools(config: dict[str, Any]) -> bool:
    workbenches = config.get("workbench") or []
    tools = any(wb["config"].get("tools") != [] for wb in workbenches)  # (a slot has none listed: the CRM tools)
    return tools or bool(config.get("tools") or config.get("handoffs"))


def _slot(client: dict[str, Any]) -> int:
    return int(client["config"]["slot"])


def _terminations(node: Any) -> tuple[set[str], int | None]:
    """The sources of a condition's SourceMatchTerminations and its smallest max_messages."""
    if not isinstance(node, dict):
        return set(), None
    config = node.get("config") or {}
    if "conditions" in config:
        found = [_terminations(child) for child in config["conditions"]]
        limits = [m for _, m in found if m]
        return set().union(*(s for s, _ in found)), min(limits) if limits else None
    return set(config.get("sources") or ()), config.get("max_messages")


def agent_calls(variant: Any, model: Any) -> Callable[[int], int]:
    """The model calls on `model` of an episode of N person messages, for an agent variant (a
    RoleConfig): an autogen component's as read from its file, a built-in agent's two per message."""
    if variant.kind != "autogen":
        return lambda messages: BUILT_IN_CALLS * messages
    from simulator.agents.autogen_component import read_component

    component = read_component(variant.options["component"])
    calls = turn_calls(component)
    if variant.model is not None:  # (every client is the entry's model)
        return calls.total
    slots = {i for i, spec in enumerate(component.models) if spec == model}  # (this row's model's slots)
    return lambda messages: calls.total(messages, slots)


def assumption(variant: Any) -> str | None:
    """What the dry run assumes about an autogen agent variant's model calls, in words."""
    if variant.kind != "autogen":
        return None
    from simulator.agents.autogen_component import read_component

    return f"{variant.name}: {turn_calls(read_component(variant.options['component'])).said}"
