"""The `territory` knob of the analytics types (issue 30): a hard draw counts only the customers
of one sales territory, a Territory2 lookup away.

The person names the territory, never its states: the agent must read the territory's
Description (its comma-separated state codes) before filtering the customers' states, one more
hop than the standard question. A draw keeps a scoped question only when the scope changes its
answer (the unscoped ranking, from the draw's own SQL, names someone else), so an agent that
skips the territory answers wrong. At share 0 no coin is tossed: the draw's stream is unchanged.
The oracle looks the territory up by name, then filters in SOQL where it aggregates and keeps the
territory's records of its usual paged fetch where it computes the figure itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ...crm.tools import CrmTools
from ..base import OracleError, TaskGenerator, id_list, soql_string

SCOPED_FEW = 3  # a territory holds few of the ranked groups and cases: counts asked of it stop at three


@dataclass(frozen=True)
class Scope:
    """One sales territory: its name and the state codes it covers."""

    name: str
    states: tuple[str, ...]

    def sql(self, column: str) -> str:
        """A direct-SQL condition keeping `column` (a state code) inside the territory."""
        return f"{column} IN ({', '.join(soql_string(s) for s in self.states)})"

    def soql(self, field: str) -> str:
        """A SOQL condition keeping `field` (a state code) inside the territory."""
        return f"{field} IN {id_list(self.states)}"


def fewer(scope: Scope | None, default: int) -> int:
    """A count a draw asks for (`count_threshold`'s `keep` or `floor`, a product's minimum of
    cases): `default`, at most SCOPED_FEW within a territory."""
    return default if scope is None else min(default, SCOPED_FEW)


def covers(scope: Scope | None, state: str | None) -> bool:
    """Whether a record of `state` counts (always, unscoped)."""
    return scope is None or state in scope.states


def draw_scope(gen: TaskGenerator, rng: random.Random) -> Scope | None:
    """A random territory for a scoped draw (with the level's `territory` share), else None."""
    share = gen.knob("territory")
    if not share or rng.random() >= share:
        return None
    rows = gen.memo("territories", lambda: gen.sql("SELECT Name, Description FROM Territory2 ORDER BY Name"))
    name, states = rng.choice(rows)
    return Scope(name, tuple(states.split(",")))


def where(scope: Scope | None, column: str) -> str:
    """` AND <the scope's condition on column>` for direct SQL, or "" unscoped."""
    return "" if scope is None else f" AND {scope.sql(column)}"


def scope_params(scope: Scope | None) -> dict[str, str]:
    """The instance parameters that name the territory ({} unscoped)."""
    return {} if scope is None else {"territory": scope.name}


def slot(scope: Scope | None, whose: str) -> str:
    """The scope as the question words it after the window ("" unscoped)."""
    return "" if scope is None else f", looking only at {whose} in the {scope.name} sales territory"


def resolve(tools: CrmTools, params: dict) -> Scope | None:
    """The oracle's lookup: the named territory's states (None when the question has no scope)."""
    name = params.get("territory")
    if name is None:
        return None
    found = TaskGenerator.soql(tools, f"SELECT Description FROM Territory2 WHERE Name = {soql_string(name)}")
    if len(found) != 1:
        raise OracleError(f"territory {name!r}: {len(found)} matches")
    return Scope(name, tuple(found[0]["Description"].split(",")))


def soql_and(scope: Scope | None, field: str) -> str:
    """` AND <the scope's SOQL condition on field>`, or "" unscoped."""
    return "" if scope is None else f" AND {scope.soql(field)}"


def bites(scope: Scope | None, answer: list[str] | str | None, unscoped: Callable[[], list[str] | str | None]) -> bool:
    """Whether a draw may be posed: unscoped, answered None, or its scope changes the answer
    (`unscoped()`: the same question's answer without the territory)."""
    return scope is None or answer is None or answer != unscoped()
