"""Issue 30's figures per task type, on both orgs as the issue measures them (org seed 1, scale 1,
task seed 1, 30 instances per type and level), computed by benchmarks/levels.py's `measure`:

- supply: 30 instances at every level;
- differs: hard's YAML knobs differ from standard's;
- naive_standard / naive_hard: the naive solver solves most (over half) of standard's instances with
  a non-None answer, and at most half of hard's;
- calls: the oracle's mean tool calls are higher at hard than at standard, for the types whose hard
  adds hops (NO_HOPS: those whose hard adds a trap to read, not a lookup);
- none_share: the None share within 10 points of the type's none_share at every level;
- shortcuts: the best instance-blind baseline within the top answer share + 5 points at every level;
- and per org, over all types, hard's calls at least 1.5x standard's on average (MEAN_CALLS).

NOT_YET lists, per type, the figures it does not meet yet on one org or both: the test passes while
they fail and fails once one holds on both orgs (remove it then), so the list only shrinks as the
types land. Slow: both
scale-1 orgs and about 1,300 instances solved by the oracle and the naive solver (about 2 minutes).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from benchmarks.levels import SLACK, Cell, hard_changes, measure
from simulator.runs.config import OrgChoice
from simulator.runs.run import cached_org
from simulator.tasks.spec import LEVELS, load_catalog

PER_TYPE, RATIO, NONE_SLACK = 30, 1.5, 0.10
NO_HOPS = {  # hard adds text to read or a record to tell apart, not a lookup: its calls need not grow
    "confidential_company_knowledge"  # the customer points at the pair's other article
}
MEAN_CALLS = "mean hard/standard oracle calls"  # the per-org figure over all types (NOT_YET key "*")
NOT_YET: dict[str, set[str]] = {}  # type -> the figures it does not meet yet (none since 2026-12-06)


def figures(task: str, cells: dict[str, Cell]) -> dict[str, bool]:
    """Whether each of the issue's per-type figures holds for one type on one org."""
    std, hard = cells["standard"], cells["hard"]
    naive_std, naive_hard = std.naive_rate(True), hard.naive_rate(True)
    none_share = load_catalog()[task].none_share
    out = {
        "supply": all(c.supplied == PER_TYPE and not c.error for c in cells.values()),
        "differs": bool(hard_changes(task)),
        "naive_standard": naive_std is not None and naive_std > 0.5,
        "naive_hard": naive_hard is not None and naive_hard <= 0.5,
        "none_share": all(abs(c.none_share - none_share) <= NONE_SLACK for c in cells.values()),
        "shortcuts": all(c.shortcut and c.shortcut[1] <= c.top_share + SLACK + 1e-9 for c in cells.values()),
    }
    if task not in NO_HOPS:
        out["calls"] = bool(std.oracle_calls and hard.oracle_calls and hard.oracle_calls > std.oracle_calls)
    return out


@pytest.fixture(scope="module")
def measured() -> dict[str, dict[str, dict[str, Cell]]]:
    """{org kind: {type: {level: Cell}}} for every type of each org kind."""
    args, out = SimpleNamespace(per_type=PER_TYPE, task_seed=1), {}
    for kind in ("b2b", "b2c"):
        org = cached_org(OrgChoice(type=kind, seed=1, scale=1.0))
        tasks = [t for t, spec in load_catalog().items() if kind in spec.orgs]
        out[kind] = {t: {level: measure(org, t, level, args) for level in LEVELS} for t in tasks}
    return out


def failing(kind: str, results: dict[str, dict[str, Cell]]) -> set[tuple[str, str]]:
    """(type, figure) of every figure that fails on one org; ("*", MEAN_CALLS) for the mean."""
    out = {(t, name) for t, cells in results.items() for name, ok in figures(t, cells).items() if not ok}
    calls = [(c["standard"].oracle_calls, c["hard"].oracle_calls) for c in results.values()]
    ratios = [h / s for s, h in calls if s and h]
    if sum(ratios) / len(ratios) < RATIO:
        out.add(("*", MEAN_CALLS))
    return out


@pytest.mark.slow
def test_each_type_meets_the_issues_figures_or_is_listed(measured):
    fails = {kind: failing(kind, results) for kind, results in measured.items()}
    listed = {(t, name) for t, names in NOT_YET.items() for name in names}
    unlisted = sorted((t, n, kind) for kind, found in fails.items() for t, n in found - listed)
    assert not unlisted, f"figures that fail and are not in NOT_YET: {unlisted}"
    stale = sorted(listed - set().union(*fails.values()))
    assert not stale, f"figures that hold on both orgs now (remove them from NOT_YET): {stale}"


def test_the_figures_can_fail():
    """A type whose hard changes nothing and whose naive solver solves everything fails those figures."""
    flat = Cell(oracle_calls=4.0, naive=[True] * 3, shortcut=("always-none", 0.0))
    flat.instances = [SimpleNamespace(answer=["a"])] * 3  # type: ignore[list-item]
    got = figures("private_customer_information", dict.fromkeys(LEVELS, flat))
    assert got["naive_hard"] is False and got["supply"] is False and got["naive_standard"] is True
