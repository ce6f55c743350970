"""An episode's record: one line of transcripts.jsonl."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from .base import Open, Strict
from .instance import Instance

SCHEMA_VERSION = 2  # 2: records typed (this package); 1: the same keys, written before the models
Mode = Literal["full", "concat", "sharded", "recap", "snowball", "plan"]  # how the person poses the instance:
# full: the whole query at once; concat: all shards in one message; sharded: piece by piece;
# recap: sharded, then a final message restating every fact; snowball: sharded, each message
# restating every fact told so far; plan: the whole query and the oracle's plan of queries, in words
Reason = Literal[
    "user_done", "patience_exhausted", "max_turns", "agent_step_limit", "agent_error", "infra_error", "leaked"
]  # leaked: the live observer's stop_on_leak ended it
Role = Literal["user", "assistant", "tool"]
MODES, TERMINATIONS, ROLES = get_args(Mode), get_args(Reason), get_args(Role)
TEAM_MESSAGE, HANDOFF = "team_message", "handoff"  # a tool-role message's name for what an agent said inside
INNER_NAMES = frozenset({TEAM_MESSAGE, HANDOFF})


class ToolCall(Strict):
    id: str
    name: str
    arguments: Any = Field(description="the arguments as the agent sent them (JSON text, or an object)")


class Message(Open):
    """One transcript message. Tool calls: role assistant with `tool_calls`; a tool result: role tool
    with `call_id` (None for a harness notice), `name` and `is_error`; a pressure person's message
    may name its `tactic`, a text-protocol error keeps the `model_text` it could not read. An agent
    may attach keys of its own."""

    role: Role
    content: str
    turn: int
    tool_calls: list[ToolCall] | None = None
    call_id: str | None = None
    name: str | None = None
    is_error: bool | None = None
    tactic: str | None = None
    model_text: str | None = None

    @property
    def inner(self) -> bool:
        """Said inside the agent (an autogen team member to another, a handoff): a tool-role
        message with no call, never a CRM tool result nor said to the person."""
        return self.role == "tool" and self.call_id is None and self.name in INNER_NAMES


class Reveal(Strict):
    """The person revealed these shards in this turn's message."""

    type: Literal["reveal"]
    turn: int
    shards: list[str]


class Observation(Strict):
    """The live observer's verdict after an agent reply (evaluators.live)."""

    type: Literal["observation"]
    turn: int
    leaked_values: list[str]
    leaked_facts: list[str]
    refusal: bool
    answer_attempt: bool
    judge: dict[str, Any] | None = None


Event = Annotated[Reveal | Observation, Field(discriminator="type")]


class Termination(Strict):
    reason: Reason
    detail: str = ""
    fatal: bool = Field(False, description="an infra_error no retry fixes (written only when true): the run stops")


class Usage(Strict):
    """Model use of one role in one episode."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = Field(default=0.0, description="None once any call had no known price")


class AgentInfo(Open):
    """The agent under test as the harness set it up (its own settings beside these keys)."""

    kind: str
    label: str = ""
    briefed: bool = False
    privacy_aware: bool = False
    system_prompt_sha256: str = ""


class UserInfo(Open):
    """The user simulator's settings, and the person's family if any."""

    kind: str


class Injections(Strict):
    """The planted instructions of an injected org that the agent's tool results contained; with
    `injections: targeted`, also the one planted in this episode's own view (`planted`)."""

    mode: str
    seen: list[dict[str, Any]]
    planted: list[dict[str, Any]] = []  # noqa: RUF012  pydantic copies a field's default for each instance


class Record(Strict):
    """Everything about one episode, as one line of transcripts.jsonl."""

    schema_version: int = SCHEMA_VERSION
    package_version: str = Field("", description="the crmarena-sim version that wrote it")
    episode_id: str
    run_id: str
    task: str
    org: str
    instance_id: str
    mode: Mode
    persona_id: str
    persona_prompt: str
    agent: AgentInfo
    user: UserInfo
    instance: Instance
    seed: int
    trial: int = 0
    messages: list[Message]
    events: list[Event] = []  # noqa: RUF012  pydantic copies a field's default for each instance
    termination: Termination
    final_answer: str = ""
    state: dict[str, Any] = Field({}, description="environment state the scorers need (a workflow's final owner)")
    usage: dict[str, Usage] = Field({}, description="per role: agent, user (and judge, when one ran live)")
    latency_s: float = 0.0
    scores: dict[str, dict[str, Any]] = Field({}, description="scorer name -> its score (see Score)")
    injections: Injections | None = None
