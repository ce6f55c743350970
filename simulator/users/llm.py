"""The LLM user simulator: an autogen AssistantAgent plays the person and returns structured turns.

One fresh agent per episode (made in `open`), told the persona (named as the requester the
instance's shards name, when it has one: `personas.playing`), the full query, the shards with
their ids and the rules. Each turn it sees the agent's reply and a status line (what it has told,
what is left, how many new facts it may tell now) and answers with a `PersonTurn` JSON object,
sent as an OpenAI `json_schema` response format. The code checks every turn:

- revealed ids must exist (unknown ones are a problem); ids told before are dropped silently;
- at most `persona.max_reveals_per_turn` new ids per message (shard 0, the intent, is implied by
  the sharded opening and does not count; the opening keeps at least one fact back, as sharded
  mode would otherwise be concat);
- done with reason "answered" while shards are still untold is a premature end (a problem: the
  person should tell a further fact instead);
- the message must not be empty.

A turn with problems is sent back with a correction, up to `max_repairs` times; then it is
repaired (unknown ids dropped, reveals trimmed to the first allowed ones, a premature end turned
into "not done"). The model's history then keeps the prompt and the turn as recorded, not the
drafts and corrections. A reply that never parses (or stays empty) raises InfraError: falling
back to a scripted turn would silently swap the simulator mid-episode, and the transcript has no
field to say so; the episode is then recorded as an infra error, never dropped.

A pressure person (`family: pressure`, on a confidentiality task: `tactics.Pressure`) also gets
the item they press for and their whole plan in the system prompt, and with every agent reply
the move for this message (tactic, instruction, an example) and the ledger of what each earlier
move obtained (refused, or the agent's words); a move that names the request may tell the
request shards besides the style's limit. Each of their turns carries its move's `tactic`; when
the plan is used up the person is told to give up. In full and concat modes the code-built
opening starts with the first move's example.

In `full`, `concat` and `plan` modes the opening is built by code (no model call); later turns use
the model. In `recap` and `snowball` modes the model plays sharded and code applies the mode
(`disclosure.Restating`): the recap message and the closing after it are code-built, and a
snowball message starts with the told facts verbatim. Usage per turn comes from the client's
`drain_usage()` when it has one (our retrying `ModelClient`), else from the responses'
`models_usage` (cost unknown).

`reply_format` (the user's `options`) says how the turn is asked for. `response_format`, the
default, sends PersonTurn as the request's response format (a server-side grammar on
llama-cpp-python: it runs over the whole vocabulary at every token). `prompt` asks for the object
in the prompt and by one example exchange at the start of the model's history (built from the
instance's own intent detail; a small base model copies a format only from its history), sends no
response format, and reads the first JSON object in the reply (`parse_turn`): text around it is
ignored, the object itself is validated strictly (JSON booleans and strings only, every key), so
an ambiguous "done" or reveal is a malformed turn that goes through the corrections above.

The words are templates in simulator/prompts/: person_system (the instructions), persona_card,
person_turn (each message: the ask for the opening or the agent's reply, and the status line) and
pressure_brief, and person_correction (what is sent back for a turn that cannot be used); the
reply-format example is the short string below.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, Field

from simulator.infra.errors import InfraError
from simulator.models.calls import TurnMeter, client_settings

from ..prompts import render
from ..replies.categories import ATTEMPTS, categorize
from ..tasks.spec import ANSWER_KIND_TEXT
from .base import UserSetup, UserSimulator, UserTurn
from .disclosure import ONE_MESSAGE, PLAIN_WORDS, Ledger, Restating, opening_text
from .personas import playing
from .tactics import Pressure

REASONS = ("answered", "patience")
REPLY_FORMATS = ("response_format", "prompt")  # how a turn is asked for (module docstring)
ANSWER_KINDS = {  # the person's own words for what they want, where they differ from the task's
    **ANSWER_KIND_TEXT,
    "text": "an answer to your question",
    "names": "the names or topics you asked for",
    "refusal": "either what you asked for or a clear refusal to give it",
}


class PersonTurn(BaseModel):
    """One message of the simulated person, as the model returns it."""

    message: str = Field(description="What you say to the agent.")
    revealed: list[str] = Field(description="Ids of the details you tell for the first time in this message.")
    done: bool = Field(description="True if you end the conversation with this message.")
    reason: str = Field(description="Why you end: 'answered' or 'patience'; empty when not done.")


def system_prompt(setup: UserSetup, pressure: Pressure | None = None, reply_format: str = REPLY_FORMATS[0]) -> str:
    """The simulator's instructions (simulator/prompts/person_system.j2): persona (named as the
    instance's requester, if any), request, details with ids, the plan of a pressure person, and
    the rules; with `reply_format` prompt, the object's keys in place of the last line."""
    inst = setup.instance
    pressing = {"item": pressure.moves[0].values["item"], "moves": pressure.moves} if pressure else {}
    return render(
        "person_system",
        persona_card=playing(setup.persona, inst).render(),
        query=inst.query,
        shards=inst.shards,
        kind=ANSWER_KINDS.get(inst.answer_kind, "an answer to your request"),
        pressure=bool(pressure),
        reply_format=reply_format,
        **pressing,
    )


def turn_prompt(
    ledger: Ledger,
    limit: int,
    pressure: Pressure | None = None,
    *,
    intent: str | None = None,
    opened: str | None = None,
    said: str = "",
) -> str:
    """One message to the simulator (simulator/prompts/person_turn.j2): the ask for the opening
    (`intent`, its detail's id) or the agent's reply (`said`, after the code-built opening `opened`
    the first time), the status line (at most `limit` new details), a pressure person's brief."""
    left = ledger.remaining
    return render(
        "person_turn",
        intent=intent,
        opened=opened,
        said=said,
        told=ledger.revealed,
        left=left,
        allowed=min(limit, len(left)),
        brief=pressure.brief() if pressure else None,
    )


class LLMUser(UserSimulator):
    """Plays the person with a chat model. One instance and one client per episode: `close()`
    closes the client."""

    def __init__(self, model_client: Any, *, max_repairs: int = 2, reply_format: str = REPLY_FORMATS[0]):
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be 0 or more, got {max_repairs}")
        if reply_format not in REPLY_FORMATS:
            raise ValueError(f"reply_format must be one of {', '.join(REPLY_FORMATS)}, got {reply_format!r}")
        if reply_format == "response_format" and model_client.model_info.get("structured_output") is False:
            raise ValueError(
                "the user simulator's model must support structured output "
                "(model_info: structured_output true), or use reply_format: prompt"
            )
        self.client, self.max_repairs, self.reply_format = model_client, max_repairs, reply_format

    def settings(self) -> dict[str, Any]:
        """Kind, repairs and model; the reply format when it is not the default (records made
        with the default keep their bytes)."""
        chosen = {"reply_format": self.reply_format} if self.reply_format != REPLY_FORMATS[0] else {}
        return {"kind": "LLMUser", "max_repairs": self.max_repairs, **chosen, "model": client_settings(self.client)}

    async def open(self, setup: UserSetup) -> UserTurn:
        from autogen_agentchat.agents import AssistantAgent

        self.limit = self.per_turn = setup.persona.max_reveals_per_turn
        self.ledger = Ledger(setup.instance)
        self.pressure = Pressure.of(setup.persona, setup.instance)
        prompted = self.reply_format == "prompt"
        self.history = _history_class()()
        self.agent = AssistantAgent(
            "simulated_person",
            model_client=self.client,
            model_context=self.history,
            system_message=system_prompt(setup, self.pressure, self.reply_format),
            output_content_type=None if prompted else PersonTurn,
        )
        if prompted:
            await self._add_example(setup.instance.shards[0])
        self.restating = Restating(setup.mode, self.ledger, PLAIN_WORDS.__getitem__)
        self.kind = setup.instance.answer_kind
        if setup.mode in ONE_MESSAGE:
            opening = opening_text(setup.instance, setup.mode, setup.plan)
            if self.pressure:
                first = self.pressure.move
                assert first is not None  # (a plan of moves has a first one)
                opening = f"{first.text()} {opening}"
            self.opened: str | None = opening  # shown to the model with the agent's first reply
            return UserTurn(opening, revealed=self.ledger.reveal_all(), tactic=self._tactic())
        self.opened = None
        intent = self.ledger.reveal([self.ledger.intent])
        self.limit = max(0, min(self.per_turn, len(self.ledger.remaining) - 1))  # keep a fact back
        turn = await self._pressed(intent=intent[0])
        turn.revealed = intent + turn.revealed
        return turn

    async def reply(self, agent_reply: str, turn: int) -> UserTurn:
        """The model's turn, under the recap and snowball rules (`disclosure.Restating`, code-built)."""
        text, before = agent_reply.strip(), list(self.ledger.revealed)
        closing = self.restating.closing(bool(text) and categorize(text, self.kind) in ATTEMPTS)
        return closing or self.restating.shape(await self._answer(agent_reply, turn), before)

    async def _answer(self, agent_reply: str, turn: int) -> UserTurn:
        if self.pressure:
            self.pressure.hear(agent_reply.strip(), turn - 1)
            self.pressure.advance()
        self.limit = self.per_turn
        return await self._pressed(said=agent_reply.strip())

    async def close(self) -> None:
        await self.client.close()

    async def _add_example(self, intent: dict) -> None:
        """One exchange in the reply format at the start of the model's history: the instance's
        intent detail, told as the opening would tell it."""
        example = PersonTurn(message=intent["text"], revealed=[intent["id"]], done=False, reason="")
        await self._add_exchange(f"(An example of the reply format.) Tell detail {intent['id']}.", example)

    async def _add_exchange(self, prompt: str, turn: PersonTurn) -> None:
        from autogen_core.models import AssistantMessage, UserMessage

        await self.agent.model_context.add_message(UserMessage(content=prompt, source="harness"))
        await self.agent.model_context.add_message(
            AssistantMessage(content=turn.model_dump_json(), source=self.agent.name)
        )

    def _tactic(self) -> str:
        return self.pressure.move.tactic if self.pressure and self.pressure.move else ""

    async def _pressed(self, intent: str | None = None, said: str = "") -> UserTurn:
        """A model turn for the ask for the opening (`intent`, its detail's id) or the agent's reply
        (`said`), with the status line (prompts/person_turn.j2); a pressure person's also with the
        move and the ledger (the request shards a move names allowed besides the limit), marked
        with the move's tactic."""
        pressure = self.pressure
        if pressure is not None and pressure.move is not None and pressure.move.asks:
            self.limit += sum(sid in self.ledger.remaining for sid in pressure.request_ids)
        prompt = turn_prompt(self.ledger, self.limit, self.pressure, intent=intent, opened=self.opened, said=said)
        self.opened = None
        turn = await self._turn(prompt)
        self.limit = self.per_turn
        turn.tactic = self._tactic()
        return turn

    async def _turn(self, prompt: str) -> UserTurn:
        """Ask the model for a turn: check it, correct it, repair it; record its reveals."""
        from autogen_agentchat.messages import TextMessage

        meter = TurnMeter(self.client)
        incoming = TextMessage(content=prompt, source="harness")
        state = self.history.mark()
        messages, draft, failure = [incoming], None, ""
        for _ in range(self.max_repairs + 1):
            response = None
            try:
                response = await self.agent.on_messages(messages, _token())
                candidate = self._draft(response.chat_message)
            except ValueError as exc:  # the reply is not PersonTurn JSON (pydantic ValidationError)
                meter.count(response and response.chat_message.models_usage)
                self.history.rewind(state)  # drop the failed exchange, then ask again
                failure = f"not valid JSON for the schema ({str(exc).splitlines()[0]})"
                messages = [incoming, _correction(failure=failure)]
                continue
            meter.count(response.chat_message.models_usage)
            draft = candidate
            problems = self._problems(draft)
            if not problems:
                break
            messages = [_correction(**problems)]
        if draft is None or not draft.message.strip():
            raise InfraError(
                f"user simulator: no usable turn after {self.max_repairs + 1} attempts: {failure or 'empty message'}"
            )
        turn = self._accept(draft)
        await self._remember(state, prompt, turn)
        turn.usage = meter.finish()
        return turn

    def _draft(self, message: Any) -> PersonTurn:
        """The model's PersonTurn: autogen's parsed one, or read from the text (reply_format prompt)."""
        return parse_turn(message.content) if self.reply_format == "prompt" else message.content

    async def _remember(self, state: Any, prompt: str, turn: UserTurn) -> None:
        """Reset the model's history to before this turn, then add the prompt and the turn as
        recorded, so that corrections and repaired drafts do not linger."""
        self.history.rewind(state)
        await self._add_exchange(
            prompt, PersonTurn(message=turn.message, revealed=turn.revealed, done=turn.done, reason=turn.reason)
        )

    def _problems(self, draft: PersonTurn) -> dict[str, Any]:
        """What is wrong with `draft`, as the values of the person_correction template ({} if nothing)."""
        screened = self.ledger.screen(draft.revealed, self.limit)
        told = len(screened.accepted) + len(screened.excess)
        problems = {
            "unknown": list(screened.unknown),
            "told": told if screened.excess else 0,
            "premature": bool(
                draft.done and draft.reason == "answered" and set(self.ledger.remaining) - set(screened.accepted)
            ),
            "empty": not draft.message.strip(),
        }
        if not any(problems.values()):
            return {}
        return {**problems, "ids": list(self.ledger.texts), "limit": self.limit}

    def _accept(self, draft: PersonTurn) -> UserTurn:
        """The turn as recorded: allowed reveals only, no premature end, a known reason."""
        told = self.ledger.reveal(self.ledger.screen(draft.revealed, self.limit).accepted)
        done = draft.done and not (draft.reason == "answered" and self.ledger.remaining)
        reason = (draft.reason if draft.reason in REASONS else "gave_up") if done else ""
        return UserTurn(draft.message.strip(), revealed=told, done=done, reason=reason)


@functools.cache
def _history_class() -> type:
    from autogen_core.model_context import UnboundedChatCompletionContext

    class History(UnboundedChatCompletionContext):
        """The person's model history, rewound to a mark by keeping its message objects (not a
        dump and a rebuild of every message as save_state/load_state do)."""

        def mark(self) -> list:
            return list(self._messages)

        def rewind(self, mark: list) -> None:
            self._messages = list(mark)

    return History


def parse_turn(text: str) -> PersonTurn:
    """The first JSON object in `text` as a PersonTurn, validated strictly (every key once, of its
    JSON type: "true" or 1 is no boolean); ValueError if there is none or it does not validate."""
    import json

    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object in the reply")
    value, _ = json.JSONDecoder(object_pairs_hook=_unique_keys).raw_decode(text, start)
    return PersonTurn.model_validate(value, strict=True)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys and values; ValueError for a key given twice (`"done": false, ...,
    "done": true` is no clear turn)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        raise ValueError(f"a key given twice in {sorted(k for k, _ in pairs)}")
    return value


# The person_correction template's values when a turn has none of that problem.
NO_PROBLEM: dict[str, Any] = {
    "failure": "",
    "unknown": [],
    "ids": [],
    "told": 0,
    "limit": 0,
    "premature": False,
    "empty": False,
}


def _correction(**problems: Any) -> Any:
    """The message sent back for a turn that cannot be used (the person_correction template)."""
    from autogen_agentchat.messages import TextMessage

    return TextMessage(content=render("person_correction", **{**NO_PROBLEM, **problems}), source="harness")


def _token():
    from autogen_core import CancellationToken

    return CancellationToken()
