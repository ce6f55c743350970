"""Every prompt template rendered for an example, for `crmarena prompts show`: through the code that
renders it in a run, with a fixed instance of each audience (examples.json: a handle-time and a
private-customer-information instance of a small generated b2b org). The judge's, audit's and
rubric templates are rendered here with the values their evaluators/ code would pass for the
instance and a one-turn conversation (the simulator never imports the evaluators).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from . import check, folder, render

PERSON = "vp_sales"  # the default persona of the person prompts
PRESSER = "insistent_account_admin"  # the default pressure persona


class ExampleError(ValueError):
    """An option the example does not take, or an unknown value: one line naming the known ones."""


@dataclass(frozen=True)
class Example:
    """How a template is shown: a function of the options it takes."""

    render: Callable[..., str]
    options: tuple[str, ...] = ()


@cache
def instance(audience: str):
    """The example instance posed to an audience (internal or customer)."""
    from ..tasks.instance import Instance

    examples = json.loads(folder().joinpath("examples.json").read_text(encoding="utf-8"))
    if audience not in examples:
        raise ExampleError(f"unknown audience {audience!r} (known: {', '.join(examples)})")
    return Instance.from_json(examples[audience])


def _persona(persona_id: str):
    from ..users.personas import load_personas

    people = load_personas()
    if persona_id not in people:
        raise ExampleError(f"unknown persona {persona_id!r} (known: {', '.join(people)})")
    return people[persona_id]


def _posed(persona):
    """The example instance a persona poses: the internal one for an employee, else the customer one."""
    return instance("internal" if persona.pool == "internal" else "customer")


def _agent(
    protocol: str = "function", schema: str = "prompt", audience: str = "internal", privacy_aware: bool = False
) -> str:
    from ..agents.prompts import system_prompt
    from ..crm.describe import describe_schema
    from ..crm.schema import schema_for

    posed = instance(audience)
    text = describe_schema(schema_for(posed.org), detailed=schema == "prompt")
    try:
        return system_prompt(posed, text, protocol=protocol, privacy_aware=privacy_aware, schema=schema)
    except ValueError as exc:
        raise ExampleError(str(exc)) from None


def _pressure(persona):
    from ..users.tactics import Pressure

    pressure = Pressure.of(persona, _posed(persona))
    if pressure is None:
        raise ExampleError(f"persona {persona.id!r} has no pressure plan: name a pressure persona, e.g. {PRESSER}")
    return pressure


def _person(persona: str = PERSON, reply_format: str = "response_format") -> str:
    from ..users.base import UserSetup
    from ..users.llm import REPLY_FORMATS, system_prompt

    if reply_format not in REPLY_FORMATS:
        raise ExampleError(f"unknown reply format {reply_format!r} (known: {', '.join(REPLY_FORMATS)})")
    person = _persona(persona)
    pressure = _pressure(person) if person.family else None
    return system_prompt(UserSetup(_posed(person), person, "sharded", seed=0), pressure, reply_format)


def _person_turn(persona: str = PERSON) -> str:
    """The status after the opening told the intent, with the agent's first question."""
    from ..users.disclosure import Ledger
    from ..users.llm import turn_prompt

    person = _persona(persona)
    posed = _posed(person)
    ledger = Ledger(posed)
    ledger.reveal([ledger.intent])
    pressure = _pressure(person) if person.family else None
    return turn_prompt(ledger, person.max_reveals_per_turn, pressure, said="Could you tell me a bit more?")


def _persona_card(persona: str = PERSON) -> str:
    from ..users.personas import playing

    person = _persona(persona)
    return playing(person, _posed(person)).render()


def _pressure_brief(persona: str = PRESSER) -> str:
    return _pressure(_persona(persona)).brief()


def _writer() -> str:
    from ..crm.generator.writer import SYSTEM_PROMPT

    return SYSTEM_PROMPT


def _rubric(metric: str, audience: str = "internal") -> str:
    """Answer metric `metric`'s rubric for the example instance, as if the change asked for happened."""
    from ..tasks.instance import NONE_ANSWER, REFUSAL

    posed = instance(audience)
    answer = [str(a) for a in posed.answer]
    return render(
        f"rubric_{metric}",
        answer=answer,
        nothing=answer == [NONE_ANSWER],
        refuse=answer == [REFUSAL],
        names=posed.answer_kind == "names",
        owner=answer[0] if answer else None,
    )


def _exchange(posed) -> list[tuple[int, str, str]]:
    """An example conversation, (turn, speaker, text): the query asked, and the answer given (or declined)."""
    from ..tasks.instance import REFUSAL

    reply = (
        "I'm sorry, but I can't share that information."
        if posed.answer == [REFUSAL]
        else f"The answer is {', '.join(map(str, posed.answer))}."
    )
    return [(1, "person", posed.query), (1, "agent", reply)]


def _judge_record(audience: str = "internal") -> str:
    """The judge's user message for the example conversation, tools noted in its turn."""
    from ..tasks.spec import ANSWER_KIND_TEXT

    posed = instance(audience)
    note = json.dumps({"turn": 1, "note": "the agent used tools, not shown to the person: run_query"})
    person, agent = (json.dumps({"turn": t, "from": s, "text": x}, ensure_ascii=False) for t, s, x in _exchange(posed))
    return render(
        "judge_record",
        task=posed.task,
        skill=posed.skill,
        metric=posed.metric,
        audience=posed.audience,
        mode="full",
        query=posed.query,
        wants=ANSWER_KIND_TEXT[posed.answer_kind],
        expected=_rubric(posed.metric, audience),
        secrets=posed.confidential_values,
        facts=posed.confidential_facts,
        lines=[person, note, agent],
        turns=[1],
        instructions=[],
        calls=[],
    )


def _audit_record(persona: str = PERSON) -> str:
    """The audit's user message for the example conversation of a persona."""
    from ..users.personas import playing

    person = _persona(persona)
    posed = _posed(person)
    lines = [json.dumps({"turn": t, "role": s, "text": x}) for t, s, x in _exchange(posed)]
    return render(
        "audit_record", persona=playing(person, posed).render(), facts=[s["text"] for s in posed.shards], lines=lines
    )


def _fixed(name: str) -> Callable[[], str]:
    """A template that takes no values, as a run renders it."""
    return lambda: render(name)


def _metric(metric: str, posed_to: str = "internal") -> Callable[..., str]:
    """Metric `metric`'s rubric, for the instance posed to `posed_to` unless --audience says otherwise."""
    return lambda audience=posed_to: _rubric(metric, audience)


def _person_correction() -> str:
    """A turn that told an unknown detail and two more than the limit, and ended early."""
    from ..users.llm import NO_PROBLEM

    values = {**NO_PROBLEM, "unknown": ["s9"], "ids": ["intent", "s1", "s2"], "told": 3, "limit": 1, "premature": True}
    return render("person_correction", **values)


def _judge_retry() -> str:
    return render("judge_retry", problem="no JSON object in the reply")


EXAMPLES = {
    "audit_record": Example(_audit_record, ("persona",)),
    "audit_system": Example(_fixed("audit_system")),
    "judge_record": Example(_judge_record, ("audience",)),
    "judge_system": Example(_fixed("judge_system")),
    "rubric_exact": Example(_metric("exact"), ("audience",)),
    "rubric_fuzzy": Example(_metric("fuzzy"), ("audience",)),
    "rubric_none": Example(_fixed("rubric_none")),
    "rubric_refusal": Example(_metric("refusal", "customer"), ("audience",)),
    "rubric_workflow": Example(_metric("workflow"), ("audience",)),
    "agent_system": Example(_agent, ("protocol", "schema", "audience", "privacy_aware")),
    "person_system": Example(_person, ("persona", "reply_format")),
    "person_turn": Example(_person_turn, ("persona",)),
    "person_correction": Example(_person_correction),
    "judge_retry": Example(_judge_retry),
    "persona_card": Example(_persona_card, ("persona",)),
    "pressure_brief": Example(_pressure_brief, ("persona",)),
    "writer_system": Example(_writer),
}


def show(name: str, **options) -> str:
    """Template `name` rendered for the example, with `options` (those it takes; the others are an error)."""
    example = EXAMPLES[check(name)]
    wrong = sorted(set(options) - set(example.options))
    if wrong:
        takes = ", ".join(f"--{o.replace('_', '-')}" for o in example.options) or "no options"
        raise ExampleError(f"{name} does not take --{wrong[0].replace('_', '-')} (it takes {takes})")
    return example.render(**options)
