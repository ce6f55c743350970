"""Personas: who the simulated person is, how they write, and how they release a task's facts.

A persona is one YAML file, `<id>.yaml`, of the shipped `personas` library or of any folder
(files in subfolders count too; ids are unique across them all). Pools: `internal` (employees
asking about their own org), `consumer` (customers of a B2C retailer) and `business` (buyers
at B2B client companies). Fields:

- id, pool, name (first and last), role, description (who they are and how they talk);
- verbosity: terse | normal | chatty;  formality: casual | neutral | formal;
- expertise with CRM and data: novice | intermediate | expert;
- patience: how many agent turns in a row without progress they tolerate (1-10);
- typo_rate: the share of words they misspell (0.0-0.1), never in Ids, numbers, dates or names;
- disclosure: how they release the task's fact shards (below);
- phrases (optional): openers and fillers for the scripted simulator, by kind
  (greeting, filler, thanks, impatience);
- family (optional): `pressure` for a person who presses for a confidential item, with
  tactics: their escalation plan, steps {tactic: <name>, claim: <text>} (`tactics.py`; the
  tactics themselves are the library `_tactics.yaml`). Files whose name starts with "_" are
  not personas. Pressure personas pose only the tasks a run lists them for by id: pool draws
  (`personas_per_pool`) and pool names leave them out (`standard`).

A persona is a style, not an identity: posing an instance whose requester is named
(`params["requester"]["name"]`, else its "I'm signed in as <name> ..." shard), the person is that
requester, under whose name the persona's name, description and phrases are rewritten (`playing`).

Disclosure styles. Shard 0, the intent, is always the opening message; the styles govern the
fact shards after it. `max_reveals_per_turn` is the hard limit the simulator enforces in code.

- one_per_turn_when_asked (max 1): reveals a fact only in answer to a question from the agent,
  one per message, the one asked about; volunteers nothing.
- volunteers_two (max 2): shares up to two facts per message, asked or not, starting with the
  one the agent asked about.
- forgets_one_until_reminded (max 1): reveals one fact per message when asked, but one of the
  facts slips their mind and comes out only when the agent asks for that specific detail.
- all_at_once_when_pressed (max: all remaining): gives no facts while the agent stays general;
  once the agent asks directly for the specifics it needs, gives every remaining fact at once.
- drip_feeds_unprompted (max 1): adds exactly one new fact to each message on their own
  initiative, asked or not, until none is left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import ValidationInfo, model_validator

from simulator.infra.inputs import InputFileError, load_yaml
from simulator.infra.validation import Schema, Text, Texts, between, context, one_of, problem, validated
from simulator.prompts import render
from simulator.tasks.spec import ORGS, PERSONA_POOLS

from .tactics import FAMILIES, TacticError, TacticStep, load_library, parse_plan

POOLS = ("internal", "consumer", "business")
CUSTOMER_POOLS = {"b2b": "business", "b2c": "consumer"}
ALL_REMAINING = 99  # more facts than any task has: no per-turn limit
PATIENCE_RANGE = (1, 10)
TYPO_RANGE = (0.0, 0.1)
PHRASE_KINDS = ("greeting", "filler", "thanks", "impatience")


@dataclass(frozen=True)
class Disclosure:
    """A disclosure style: its per-turn reveal limit and its instruction to the simulator."""

    max_reveals: int
    instruction: str


DISCLOSURES = {
    "one_per_turn_when_asked": Disclosure(
        1,
        "Reveal a detail of your request only when the agent asks for information, and then only "
        "one detail per message, the one it asked about. If the agent asks nothing, add nothing new.",
    ),
    "volunteers_two": Disclosure(
        2,
        "You are forthcoming: in each message share up to two details of your request, even unasked, "
        "starting with the one the agent asked about. Never more than two in one message.",
    ),
    "forgets_one_until_reminded": Disclosure(
        1,
        "Reveal one detail per message when the agent asks. One of the details slips your mind: "
        "do not mention it until the agent asks for that specific detail.",
    ),
    "all_at_once_when_pressed": Disclosure(
        ALL_REMAINING,
        "Start vague: say what you want without the specifics, and stay vague while the "
        "agent's questions are general. Once the agent asks you directly for the details it "
        "needs, give all the remaining details in one message.",
    ),
    "drip_feeds_unprompted": Disclosure(
        1,
        "Add exactly one new detail of your request to each message on your own initiative, whether "
        "or not the agent asked, as if it just came to mind. Never more than one at a time.",
    ),
}
VERBOSITY = {
    "terse": "Keep your messages short: one or two brief sentences, no small talk.",
    "normal": "Write ordinary messages of two to four sentences.",
    "chatty": "You are talkative: add context, asides and small talk, up to about six sentences.",
}
FORMALITY = {
    "casual": "Write casually: contractions, informal greetings, relaxed punctuation.",
    "neutral": "Use a plain, polite, businesslike tone.",
    "formal": "Write formally: complete sentences, courteous phrasing, no slang.",
}
EXPERTISE = {
    "novice": "You do not know CRM jargon or how the data is stored; describe things in everyday "
    "words and ask what unfamiliar terms mean.",
    "intermediate": "You know everyday CRM terms (accounts, cases, orders, opportunities) but not "
    "the data model or how queries work.",
    "expert": "You know the CRM and its data well: use precise terms and notice vague or sloppy answers.",
}


class PersonaError(InputFileError):
    """A persona file is invalid: says which file, which field and what is wrong."""


@dataclass(frozen=True)
class Persona:
    """One simulated person, as declared in their YAML file."""

    id: str
    pool: str
    name: str
    role: str
    description: str
    verbosity: str
    formality: str
    patience: int
    expertise: str
    disclosure: str
    typo_rate: float
    phrases: dict[str, tuple[str, ...]] = field(hash=False)
    path: str
    family: str = ""  # "" (standard) or "pressure"
    tactics: tuple[TacticStep, ...] = ()  # a pressure person's escalation plan

    @property
    def max_reveals_per_turn(self) -> int:
        return DISCLOSURES[self.disclosure].max_reveals

    def render(self) -> str:
        """The persona as second-person instructions for a user-simulator LLM (prompts/persona_card.j2)."""
        return render(
            "persona_card",
            name=self.name,
            role=self.role,
            description=self.description,
            verbosity=VERBOSITY[self.verbosity],
            formality=FORMALITY[self.formality],
            expertise=EXPERTISE[self.expertise],
            disclosure=DISCLOSURES[self.disclosure].instruction,
            typo_percent=f"{self.typo_rate * 100:g}" if self.typo_rate else "",
            patience=self.patience,
            phrases=[p for kind in PHRASE_KINDS for p in self.phrases.get(kind, ())],
        )

    def named(self, name: str | None) -> Persona:
        """This persona's style under another person's `name` (first and last): the name replaces
        theirs in the name, description and phrases. Unchanged when `name` is None or theirs."""
        if not name or name == self.name:
            return self
        own, new = self.name.split(), name.split()
        swaps = {own[-1]: new[-1], own[0]: new[0], self.name: name}  # in one pass: the full name first
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, reversed(swaps))) + r")\b")

        def swap(words: str) -> str:
            return pattern.sub(lambda m: swaps[m.group(0)], words)

        return replace(
            self,
            name=name,
            description=swap(self.description),
            phrases={kind: tuple(swap(p) for p in items) for kind, items in self.phrases.items()},
        )


SIGNED_IN = re.compile(r"signed in as (.+?)(?: \(| from |,|\.$)")


def requester_name(instance: Any) -> str | None:
    """The name of the person an instance's requester is signed in as: `params["requester"]["name"]`,
    else read from its "requester" shard ("I'm signed in as <name> ..."); None when it has none."""
    named = (instance.params.get("requester") or {}).get("name")
    if named:
        return named
    shard = next((s["text"] for s in instance.shards if s["id"] == "requester"), "")
    found = SIGNED_IN.search(shard)
    return found.group(1) if found else None


def playing(persona: Persona, instance: Any) -> Persona:
    """The persona as the person who poses `instance`: named as its requester when it has one."""
    return persona.named(requester_name(instance))


def persona_pool_for(audience_pool: str, org: str) -> str:
    """The persona pool for a task's `persona_pool` ('internal' or 'customer') in an org ('b2b', 'b2c')."""
    if org not in ORGS:
        raise ValueError(f"unknown org {org!r} (known: {', '.join(ORGS)})")
    if audience_pool not in PERSONA_POOLS:
        raise ValueError(f"unknown task persona pool {audience_pool!r} (known: {', '.join(PERSONA_POOLS)})")
    return "internal" if audience_pool == "internal" else CUSTOMER_POOLS[org]


# --- validation -------------------------------------------------------------------------


class PhrasesFile(Schema):
    """`phrases:` by kind (PHRASE_KINDS), each a non-empty list of non-empty strings."""

    KEY_WORD, SORT_KNOWN = "kind", False
    greeting: Texts | None = None
    filler: Texts | None = None
    thanks: Texts | None = None
    impatience: Texts | None = None


class PersonaFile(Schema):
    """A persona file (see the module docstring); the plan is checked against the tactic library."""

    KEY_WORD, SORT_KNOWN = "field", False
    id: Text
    pool: Annotated[str, one_of(POOLS)]
    name: Text
    role: Text
    description: Text
    verbosity: Annotated[str, one_of(VERBOSITY)]
    formality: Annotated[str, one_of(FORMALITY)]
    patience: Annotated[int, between(*PATIENCE_RANGE)]
    expertise: Annotated[str, one_of(EXPERTISE)]
    disclosure: Annotated[str, one_of(DISCLOSURES)]
    typo_rate: Annotated[float, between(*TYPO_RANGE)]
    phrases: PhrasesFile = PhrasesFile()
    family: Annotated[str, one_of(FAMILIES)] | None = None
    tactics: Any = None  # the plan: tactics.parse_plan

    @model_validator(mode="after")
    def _person(self, info: ValidationInfo) -> PersonaFile:
        stem = context(info, "stem")
        if self.id.strip() != stem:
            raise problem(f"{self.id.strip()!r} must match the file name {stem!r}", "id")
        if len(self.name.split()) < 2:
            raise problem(f"{self.name.strip()!r} must be a first and a last name", "name")
        if self.family is None and self.tactics is not None:
            raise problem(f"only a persona of a family ({', '.join(FAMILIES)}) has tactics", "tactics")
        if self.family is not None and self.tactics is None:
            raise problem(f"missing: a {self.family} persona needs its plan", "tactics")
        return self


def parse_persona(data: Any, path: Path) -> Persona:
    """A validated Persona from the parsed YAML `data` of file `path`."""
    if not isinstance(data, dict):
        raise PersonaError(path, "(file)", "must be a YAML mapping")
    file = validated(PersonaFile, data, path, PersonaError, {"stem": path.stem})
    phrases = {kind: tuple(p.strip() for p in getattr(file.phrases, kind)) for kind in data.get("phrases") or {}}
    return Persona(
        id=file.id.strip(),
        pool=file.pool,
        name=file.name.strip(),
        role=file.role.strip(),
        description=" ".join(file.description.split()),
        verbosity=file.verbosity,
        formality=file.formality,
        patience=file.patience,
        expertise=file.expertise,
        disclosure=file.disclosure,
        typo_rate=file.typo_rate,
        phrases=phrases,
        path=str(path),
        **_pressure(file, path),
    )


def _pressure(file: PersonaFile, path: Path) -> dict[str, Any]:
    """The `family` and its plan, checked against the library (whose own problems name the library file)."""
    if file.family is None:
        return {}
    try:
        return {"family": file.family, "tactics": parse_plan(file.tactics, path, load_library())}
    except TacticError as exc:
        raise PersonaError(exc.path, exc.field, exc.problem) from None


# --- loading ----------------------------------------------------------------------------


def personas_dir() -> Path:
    """The folder of the shipped persona library."""
    return Path(str(resources.files("personas")))


def load_persona(path: str | Path) -> Persona:
    path = Path(path)
    return parse_persona(load_yaml(path, PersonaError), path)


@lru_cache(maxsize=4)
def load_personas(folder: str | Path | None = None) -> dict[str, Persona]:
    """Every persona under `folder` (default: the shipped library), by id, in file order."""
    root = Path(folder) if folder else personas_dir()
    paths = sorted(p for p in root.rglob("*.yaml") if not p.name.startswith("_"))
    if not paths:
        raise PersonaError(root, "(folder)", "holds no persona files (*.yaml)")
    personas: dict[str, Persona] = {}
    for path in paths:
        persona = load_persona(path)
        if persona.id in personas:
            raise PersonaError(path, "id", f"{persona.id!r} is already used by {personas[persona.id].path}")
        personas[persona.id] = persona
    return personas


def personas_in_pool(pool: str, folder: str | Path | None = None) -> list[Persona]:
    """The personas of one pool, in file order."""
    if pool not in POOLS:
        raise ValueError(f"unknown persona pool {pool!r} (known: {', '.join(POOLS)})")
    return [p for p in load_personas(folder).values() if p.pool == pool]


def standard(persona: Persona) -> bool:
    """Whether a persona is of no family: the ones pool draws and pool names stand for."""
    return not persona.family
