"""Latent variables that drive the generated org (DESIGN section 3).

None of these are stored as columns: they shape the rows, and the tasks recover them from
the rows with SQL. Every latent quantity that a task ranks on (agent speed, transfer
propensity, regional closure speed, conversion skill, sales-cycle speed) is a distinct base
value per entity times a per-quarter random-walk drift, so that rankings are clear but
change from one time window to the next.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .common import DAY

# (code, weight, region) for the ~30 states customers and leads come from.
STATES: tuple[tuple[str, float, str], ...] = (
    ("CA", 10, "Pacific"),
    ("WA", 4, "Pacific"),
    ("OR", 3, "Pacific"),
    ("NV", 2, "Mountain"),
    ("AZ", 4, "Mountain"),
    ("CO", 3.5, "Mountain"),
    ("UT", 2.5, "Mountain"),
    ("TX", 8, "South Central"),
    ("OK", 2, "South Central"),
    ("LA", 2.5, "South Central"),
    ("MN", 3, "Midwest"),
    ("IL", 5, "Midwest"),
    ("WI", 3, "Midwest"),
    ("MO", 3, "Midwest"),
    ("MI", 4, "Great Lakes"),
    ("OH", 4.5, "Great Lakes"),
    ("IN", 3, "Great Lakes"),
    ("FL", 7, "Southeast"),
    ("GA", 4.5, "Southeast"),
    ("NC", 4.5, "Southeast"),
    ("TN", 3, "Southeast"),
    ("SC", 2.5, "Southeast"),
    ("VA", 4, "Mid-Atlantic"),
    ("MD", 3, "Mid-Atlantic"),
    ("PA", 5, "Mid-Atlantic"),
    ("NJ", 4, "Mid-Atlantic"),
    ("NY", 7, "Northeast"),
    ("MA", 4, "Northeast"),
    ("CT", 2.5, "Northeast"),
    ("NH", 1.5, "Northeast"),
)

# Territories: name -> states (the union covers every state; a few states are in two).
TERRITORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Pacific", ("CA", "WA", "OR")),
    ("Mountain West", ("NV", "AZ", "CO", "UT")),
    ("South Central", ("TX", "OK", "LA")),
    ("Upper Midwest", ("MN", "WI", "IL", "MO")),
    ("Great Lakes", ("MI", "OH", "IN", "IL")),
    ("Southeast", ("FL", "GA", "SC", "TN")),
    ("Carolinas & Virginia", ("NC", "VA", "SC")),
    ("Mid-Atlantic", ("MD", "PA", "NJ", "VA")),
    ("Northeast", ("NY", "MA", "CT", "NH", "NJ")),
    ("Sun Belt", ("TX", "AZ", "FL", "NV")),
)

# Fallback subtopics of call sentiments; the text module's SUBTOPIC_PHRASES wins when present.
SUBTOPICS = ("pricing", "support", "features", "integration", "onboarding", "performance")
BANT = ("Budget", "Authority", "Need", "Timeline")
TITLES = (
    "VP of Operations",
    "IT Director",
    "Chief Technology Officer",
    "Procurement Manager",
    "Head of Facilities",
    "Operations Manager",
    "Director of Finance",
    "CIO",
    "Purchasing Specialist",
    "Office Manager",
    "VP of Sales",
    "Head of IT Infrastructure",
    "Supply Chain Manager",
    "Chief Operating Officer",
    "Engineering Manager",
)

N_QUARTERS = 20  # drift horizon: 5 years back from as-of, far more than any record spans


def quarter_index(t: float) -> int:
    """Index of the 91-day period before as-of that time `t` falls in (0 = the latest)."""
    q = int(-t // (91 * DAY))
    return 0 if q < 0 else q if q < N_QUARTERS else N_QUARTERS - 1


def spread(rng: random.Random, n: int, lo: float, hi: float) -> list[float]:
    """n distinct values evenly spaced over [lo, hi] on a log scale, jittered, shuffled."""
    if n == 1:
        return [math.sqrt(lo * hi)]
    step = (math.log(hi) - math.log(lo)) / (n - 1)
    vals = [math.exp(math.log(lo) + i * step + rng.uniform(-0.2, 0.2) * step) for i in range(n)]
    rng.shuffle(vals)
    return vals


def drift(rng: random.Random, sigma: float, keep: float = 0.5) -> list[float]:
    """A multiplicative random walk over N_QUARTERS periods (index 0 = latest), mean-reverting:
    each period keeps `keep` of the previous log-deviation, so consecutive quarters differ."""
    out, x = [], 0.0
    for _ in range(N_QUARTERS):
        x = keep * x + rng.gauss(0.0, sigma)
        out.append(math.exp(x))
    return out


@dataclass
class ServiceAgent:
    idx: int
    user_id: str
    name: str
    email: str
    speed: float  # handle-time multiplier (lower = faster)
    transfer: float  # probability of passing a case on
    load: float  # share of new cases
    start: int  # time the agent joined (seconds rel. as-of)
    issues: frozenset[int] = frozenset()  # issue indexes of expertise
    products: frozenset[int] = frozenset()  # product indexes of expertise
    speed_drift: list[float] = field(default_factory=list)
    transfer_drift: list[float] = field(default_factory=list)
    load_drift: list[float] = field(default_factory=list)

    def load_in(self, quarter: int) -> float:
        """The share of new cases in quarter index `quarter` (`quarter_index`)."""
        return self.load * self.load_drift[quarter]

    def speed_at(self, t: float) -> float:
        return self.speed * self.speed_drift[quarter_index(t)]

    def transfer_at(self, t: float) -> float:
        return min(0.85, self.transfer * self.transfer_drift[quarter_index(t)])


@dataclass
class SalesAgent:
    idx: int
    user_id: str
    name: str
    email: str
    skill: float  # lead conversion probability
    cycle: float  # sales-cycle length multiplier (lower = faster)
    deal: float  # deal-size multiplier
    accept: float  # quote acceptance rate
    territories: list[int] = field(default_factory=list)
    skill_drift: list[float] = field(default_factory=list)
    cycle_drift: list[float] = field(default_factory=list)
    deal_drift: list[float] = field(default_factory=list)

    def deal_at(self, t: float) -> float:
        return self.deal * self.deal_drift[quarter_index(t)]

    def skill_at(self, t: float) -> float:
        return min(0.9, self.skill * self.skill_drift[quarter_index(t)])

    def cycle_at(self, t: float) -> float:
        return self.cycle * self.cycle_drift[quarter_index(t)]


@dataclass
class StateInfo:
    code: str
    weight: float
    factor: float  # closure-time multiplier of the region
    drift: list[float] = field(default_factory=list)

    def factor_at(self, t: float) -> float:
        return self.factor * self.drift[quarter_index(t)]


def make_states(rng: random.Random) -> list[StateInfo]:
    """The states with their closure factors: a modest base spread under an independent
    quarterly drift, so that the quickest state depends on the window."""
    factors = spread(rng, len(STATES), 0.9, 1.15)
    return [StateInfo(code, w, f, drift(rng, 0.35, keep=0.0)) for (code, w, _), f in zip(STATES, factors)]


def issue_rates(rng: random.Random, n_products: int, n_issues: int) -> list[list[list[float]]]:
    """Per product and quarter index, a weight per issue: a dominant issue, a runner-up and a
    third over a low background. Products' dominant issues are spread over the issues, and from
    one quarter to the next a product's dominant issue and runner-up sometimes swap (a new defect
    taking over), so a product's top issue depends on the window."""
    perm = list(range(n_issues))
    rng.shuffle(perm)
    rates = []
    for p in range(n_products):
        lead = perm[p % n_issues]
        runner, third = rng.sample([i for i in range(n_issues) if i != lead], 2)
        base = [0.25 + rng.random() * 0.2 for _ in range(n_issues)]
        base[third] = 1.8 + rng.random()
        per_quarter = []
        for _ in range(N_QUARTERS):
            if rng.random() < 0.22:
                lead, runner = runner, lead
            w = list(base)
            w[lead] = 11.0 + rng.random() * 2
            w[runner] = 3.5 + rng.random() * 1.5
            per_quarter.append(w)
        rates.append(per_quarter)
    return rates
