"""Names and catalogs of the generated org: people, companies, industries, cities, products,
issues, competitors.

Every function is pure: randomness comes only from the `rng` argument (random.Random); the
functions without `rng` return the same data on every call. The prose is written from grammars
(`grammar`) in its own modules: calls (sales calls), activities (tasks and events), threads
(cases, chats, emails, service policies), records (descriptions), articles (knowledge).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import TypedDict, TypeVar

from simulator.crm.generator import vocab

CITIES = (
    "Tucson",
    "Raleigh",
    "Spokane",
    "Madison",
    "Boise",
    "Savannah",
    "Omaha",
    "Fresno",
    "Dayton",
    "Knoxville",
    "Reno",
    "Albany",
    "Lubbock",
    "Eugene",
    "Tulsa",
    "Provo",
    "Duluth",
    "Mobile",
)

Unique = TypeVar("Unique", str, tuple[str, str])  # a name, or a (first, last) pair


class ProductEntry(TypedDict):
    """One product of the catalog (`products`)."""

    name: str
    family: str
    description: str
    sku: str


class IssueEntry(TypedDict):
    """One issue type (`issues`)."""

    name: str
    description: str


# ---------------------------------------------------------------------------------------------
# names, companies, industries

_COMPANY_PATTERNS = (0, 0, 1, 1, 1, 2)


def person_name(rng: random.Random) -> tuple[str, str]:
    """A first and a last name, never the same word ("Malik" is both)."""
    first, last = rng.choice(vocab.FIRST_NAMES), rng.choice(vocab.LAST_NAMES)
    while last == first:
        last = rng.choice(vocab.LAST_NAMES)
    return first, last


def company_name(rng: random.Random) -> str:
    root = rng.choice(vocab.COMPANY_ROOTS)
    desc = rng.choice(vocab.COMPANY_DESCRIPTORS)
    p = rng.choice(_COMPANY_PATTERNS)
    if p == 0:
        return f"{root} {desc}"
    if p == 1:
        return f"{root} {desc} {rng.choice(vocab.COMPANY_FORMS)}"
    return f"{root} {rng.choice(vocab.COMPANY_FORMS)}"


def unique(make: Callable[[], Unique], used: set[Unique], tries: int = 40) -> Unique:
    """A value from make() not in `used` (after `tries` attempts, a suffixed one), added to `used`."""
    v = make()
    for _ in range(tries):
        if v not in used:
            break
        v = make()
    base, k = v, 2
    while v in used:
        v = (f"{base[0]}", f"{base[1]} {k}") if isinstance(base, tuple) else f"{base} {k}"
        k += 1
    used.add(v)
    return v


def _skip_company_names(rng: random.Random, n: int) -> None:
    """Draw from `rng` what `n` calls of `company_name` draw, without writing the names (`choice(seq)`
    is `seq[rng._randbelow(len(seq))]`; tests/test_text.py compares the random states)."""
    below = rng._randbelow  # type: ignore[attr-defined]  # (what choice() draws with: a private method typeshed omits)
    roots, descriptors = len(vocab.COMPANY_ROOTS), len(vocab.COMPANY_DESCRIPTORS)
    patterns, forms = len(_COMPANY_PATTERNS), len(vocab.COMPANY_FORMS)
    for _ in range(n):
        below(roots)
        below(descriptors)
        if _COMPANY_PATTERNS[below(patterns)]:
            below(forms)


@functools.cache
def _every_company_name() -> frozenset[str]:
    """Every name `company_name` can write."""
    roots, forms = vocab.COMPANY_ROOTS, vocab.COMPANY_FORMS
    with_descriptor = [f"{root} {desc}" for root in roots for desc in vocab.COMPANY_DESCRIPTORS]
    return frozenset(
        with_descriptor
        + [f"{name} {form}" for name in with_descriptor for form in forms]
        + [f"{root} {form}" for root in roots for form in forms]
    )


class CompanyNames:
    """Company names unique in an org: `draw` is `unique` over `company_name`; names taken
    elsewhere are `add`ed. Once every
    name `company_name` writes is taken, the retries cannot find one: their draws are then made
    without writing the names (the same draws: at scale 100 most leads' names come this way)."""

    def __init__(self, tries: int):
        self.tries = tries
        self._used: set[str] = set()
        self._free = set(_every_company_name())  # names company_name writes that are not taken

    def add(self, name: str) -> None:
        self._used.add(name)
        self._free.discard(name)

    def draw(self, rng: random.Random) -> str:
        tries = self.tries
        if not self._free:  # every name is taken: the retries would all collide
            _skip_company_names(rng, tries)
            tries = 0
        name = unique(lambda: company_name(rng), self._used, tries)
        self._free.discard(name)
        return name


def industries() -> list[str]:
    return list(vocab.INDUSTRIES)


# ---------------------------------------------------------------------------------------------
# catalogs


def _build_products(catalog: Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]) -> tuple[ProductEntry, ...]:
    out: list[ProductEntry] = []
    for fam_i, (family, (prefix, items)) in enumerate(catalog.items()):
        for i, (name, desc) in enumerate(items):
            out.append(
                {
                    "name": name,
                    "family": family,
                    "description": desc,
                    "sku": f"{prefix}-{(fam_i + 1) * 1000 + (i + 1) * 10}",
                }
            )
    return tuple(out)


_PRODUCTS = {"b2b": _build_products(vocab.B2B_CATALOG), "b2c": _build_products(vocab.B2C_CATALOG)}
_ISSUES = {"b2b": vocab.B2B_ISSUES, "b2c": vocab.B2C_ISSUES}


def org_type(org: str) -> str:
    """`org` as "b2b" or "b2c" (None or empty: "b2c"); ValueError for anything else."""
    o = (org or "b2c").lower()
    if o not in ("b2b", "b2c"):
        raise ValueError(f"unknown org type {org!r} (expected 'b2b' or 'b2c')")
    return o


def products(org: str) -> list[ProductEntry]:
    """The product catalog: [{"name", "family", "description", "sku"}], at least 60."""
    return [p.copy() for p in _PRODUCTS[org_type(org)]]


def issues(org: str) -> list[IssueEntry]:
    """Issue types: [{"name", "description"}], at least 20."""
    return [{"name": n, "description": d} for n, d in _ISSUES[org_type(org)]]


def cap(s: str) -> str:
    """`s` with its first letter upper case."""
    return s[:1].upper() + s[1:]


def competitors() -> list[str]:
    """Competitor company names mentioned in sales calls, at least 12."""
    return list(vocab.COMPETITORS)
