"""A person in the agent's seat (`crmarena play --seat agent`): they type the agent's turns.

They are handed what every agent is handed (`AgentSetup`: the system prompt with the tools, the
schema and the task's context; the tools on the episode's own session; the step limit), then each
message of the person, and answer with tool calls and a reply:

    /soql SELECT ...        a SOQL query
    /sosl FIND {...} ...    a SOSL search
    /tool NAME {json}       any tool by name, its arguments a JSON object (e.g. assign_case)
    plain text              the reply to the person: it ends the turn

Each call and its result are recorded as an agent's are (`oracle.RecordingTools`) and the result
is printed. More than `max_steps` calls in one turn ends the episode as every agent's would
(agent_step_limit). /quit, Ctrl-D or Ctrl-C leave: the episode ends as agent_error ("left the
conversation"), the turn's calls recorded. /prompt shows the system prompt again; /help the list.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

from ..infra.console import Console
from ..infra.errors import AgentError
from .base import Agent, AgentSetup, AgentTurn
from .oracle import RecordingTools
from .prompts import TOOL_NAMES

HELP = f"""Your turn as the agent. Tools ({", ".join(TOOL_NAMES)}):
  /soql SELECT ...        a SOQL query, e.g. /soql SELECT Id, Name FROM Account LIMIT 3
  /sosl FIND {{...}} ...    a SOSL search
  /tool NAME {{json}}       any tool with its arguments, e.g. /tool assign_case {{"case_id": "500...", "user_id": "005..."}}
  plain text              your reply to the person (ends your turn)
  /prompt                 the system prompt again
  /quit                   leave (Ctrl-D and Ctrl-C too): the episode ends as agent_error"""


class Left(AgentError):
    """The person in the agent's seat left the conversation."""


class HumanAgent(Agent):
    """The agent's turns come from a terminal (`Console`)."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console()

    def settings(self) -> dict[str, Any]:
        return {"kind": "human"}

    async def start(self, setup: AgentSetup) -> None:
        self.setup = setup
        self.tools = RecordingTools(setup.tools, "human")
        self.console.say(f"=== You are the agent (the agent's seat) ===\n\n{setup.system_prompt}\n\n{HELP}")

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        self.console.say(f"\nperson: {user_message or '(no message)'}")
        self.tools.turn, self.tools.messages = turn, []
        calls = 0
        while True:
            line = self.console.ask("agent> ")
            text = "/quit" if line is None else line.strip()
            command, _, rest = text.partition(" ") if text.startswith("/") else ("", "", text)
            if command == "/quit":
                error = Left("the person in the agent's seat left the conversation")
                error.partial = AgentTurn(reply="", messages=self.tools.messages)
                raise error
            if command in ("/help", "/prompt"):
                self.console.say(HELP if command == "/help" else self.setup.system_prompt)
            elif command in ("/soql", "/sosl", "/tool"):
                if calls == self.setup.max_steps:
                    self.console.say(f"step limit: more than {self.setup.max_steps} tool calls in one turn")
                    return AgentTurn(reply="", messages=self.tools.messages, step_limit_hit=True)
                calls += self._call(command[1:], rest.strip())
            elif command:
                self.console.say(f"unknown command {command}; /help lists them")
            elif rest:
                return AgentTurn(reply=rest, messages=self.tools.messages)

    def _call(self, command: str, rest: str) -> int:
        """Run one tool call typed as `/command rest` and print its result; 1 if it ran, 0 if it
        could not be made (and why)."""
        if command == "tool":
            name, _, raw = rest.partition(" ")
            try:
                arguments = json.loads(raw or "{}")
            except json.JSONDecodeError as exc:
                self.console.say(f"the arguments are no JSON object ({exc.msg}); /help shows the form")
                return 0
        else:
            name, arguments = command, {"query" if command == "soql" else "search": rest}
        args = self._bound(name, arguments)
        if isinstance(args, str):
            self.console.say(args)
            return 0
        self.console.say(getattr(self.tools, name)(*args))
        return 1

    def _bound(self, name: str, arguments: Any) -> tuple[Any, ...] | str:
        """The positional arguments of a call of tool `name` with `arguments`, or why it cannot be made."""
        if name not in TOOL_NAMES:
            return f"no tool {name!r}: the tools are {', '.join(TOOL_NAMES)}"
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            return "the arguments must be a JSON object of text values"
        try:
            return tuple(inspect.signature(getattr(self.setup.tools, name)).bind(**arguments).args)
        except TypeError as exc:
            return f"{name}: {exc}"
