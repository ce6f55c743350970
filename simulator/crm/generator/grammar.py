"""A small generative grammar for the org's prose, and the detectors it implies.

A `Grammar` maps rule names to alternatives. The text of an alternative may hold:

- `<rule>`: one expansion of another rule (rules must not refer to themselves, directly or not);
- `[a|b|c]`: an inline choice, nestable; `[a|]` makes `a` optional;
- `{slot}`: a value given at expansion (`expand(rng, "rule", slot="...")`).

Every choice point picks uniformly, so a handful of rules with a few alternatives each yields
thousands of distinct sentences. The same rules compile to a regular expression matching
exactly what a rule can produce (`pattern`), which is how the generator's own detectors
recognise a fact in text without any fixed marker: two rules whose languages never overlap
(checked by tests, `overlaps`) can carry opposite labels however the text around them varies.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property

_TOKEN = re.compile(r"<([a-z0-9_]+)>|(\[)|(\|)|(\])|\{([a-z0-9_]+)\}|([^<\[|\]{]+|[<{])")


@dataclass(frozen=True)
class _Ref:
    rule: str


@dataclass(frozen=True)
class _Slot:
    name: str


# A parsed text is a tuple of parts: str (literal), _Ref, _Slot, or a choice (a list of texts).


def _parse(source: str) -> tuple:
    """Parse one alternative's text; raise ValueError naming the text on unbalanced brackets."""
    stack: list[list] = [[[]]]  # each level: the alternatives of an open choice, the last one growing
    for ref, open_, bar, close, slot, lit in _TOKEN.findall(source):
        parts = stack[-1][-1]
        if ref:
            parts.append(_Ref(ref))
        elif slot:
            parts.append(_Slot(slot))
        elif open_:
            stack.append([[]])
        elif bar:
            if len(stack) == 1:
                raise ValueError(f"'|' outside brackets in {source!r}")
            stack[-1].append([])
        elif close:
            if len(stack) == 1:
                raise ValueError(f"unbalanced ']' in {source!r}")
            choice = [tuple(alt) for alt in stack.pop()]
            stack[-1][-1].append(choice)
        else:
            parts.append(lit)
    if len(stack) != 1:
        raise ValueError(f"unbalanced '[' in {source!r}")
    return tuple(stack[0][0])


class Grammar:
    """Named rules of alternatives; `expand` writes text, `pattern` recognises it."""

    def __init__(self, rules: dict[str, tuple[str, ...] | list[str]], slots: dict[str, str] | None = None):
        """`slots` maps a slot name to the regex its values match (default: any text, lazily)."""
        self._rules = {name: [_parse(alt) for alt in alts] for name, alts in rules.items()}
        self._slots = dict(slots or {})
        for name, alts in self._rules.items():
            if not alts:
                raise ValueError(f"rule {name!r} has no alternatives")
            for alt in alts:
                for ref in self._refs(alt):
                    if ref not in self._rules:
                        raise ValueError(f"rule {name!r} refers to unknown rule <{ref}>")
        for name in self._rules:
            self._check_acyclic(name, ())

    def __contains__(self, rule: str) -> bool:
        return rule in self._rules

    def _refs(self, parts: tuple):
        for p in parts:
            if isinstance(p, _Ref):
                yield p.rule
            elif isinstance(p, list):
                for alt in p:
                    yield from self._refs(alt)

    def _check_acyclic(self, name: str, path: tuple) -> None:
        if name in path:
            raise ValueError("rules refer to themselves: " + " -> ".join(path + (name,)))
        for alt in self._rules[name]:
            for ref in self._refs(alt):
                self._check_acyclic(ref, path + (name,))

    # -- writing

    def expand(self, rng: random.Random, rule: str, **slots) -> str:
        """One text of `rule`, its choices drawn from `rng`, its slots filled from `slots`."""
        out: list[str] = []
        self._write(rng, rng.choice(self._alts(rule)), slots, out)
        return "".join(out)

    def _alts(self, rule: str) -> list:
        try:
            return self._rules[rule]
        except KeyError:
            raise KeyError(f"no rule {rule!r} in this grammar") from None

    def _write(self, rng: random.Random, parts: tuple, slots: dict, out: list[str]) -> None:
        for p in parts:
            if isinstance(p, str):
                out.append(p)
            elif isinstance(p, _Ref):
                self._write(rng, rng.choice(self._rules[p.rule]), slots, out)
            elif isinstance(p, _Slot):
                out.append(str(slots[p.name]))
            else:
                self._write(rng, rng.choice(p), slots, out)

    def count(self, rule: str) -> int:
        """How many derivations `rule` has (slots counted once): a floor on its variety."""
        return sum(self._count(alt) for alt in self._alts(rule))

    def _count(self, parts: tuple) -> int:
        n = 1
        for p in parts:
            if isinstance(p, _Ref):
                n *= self.count(p.rule)
            elif isinstance(p, list):
                n *= sum(self._count(alt) for alt in p)
        return n

    # -- recognising

    def pattern(self, *rules: str) -> re.Pattern:
        """A regex that matches, anywhere in a text, any text one of `rules` can produce."""
        return re.compile("|".join(f"(?:{self._regex_rule(r)})" for r in rules))

    def _regex_rule(self, rule: str) -> str:
        return self._regexes.setdefault(rule, "|".join(self._regex(alt) for alt in self._alts(rule)))

    @cached_property
    def _regexes(self) -> dict[str, str]:
        return {}

    def _regex(self, parts: tuple) -> str:
        out = []
        for p in parts:
            if isinstance(p, str):
                out.append(re.escape(p))
            elif isinstance(p, _Ref):
                out.append(f"(?:{self._regex_rule(p.rule)})")
            elif isinstance(p, _Slot):
                out.append(f"(?:{self._slots.get(p.name, '.+?')})")
            else:
                out.append("(?:" + "|".join(self._regex(alt) for alt in p) + ")")
        return "".join(out)


def overlaps(grammar: Grammar, rule: str, others: tuple[str, ...], rng: random.Random, samples: int = 2000,
             **slots) -> list[str]:
    """Texts of `rule` (sampled) in which the pattern of any of `others` finds a match: [] when disjoint."""
    detector = grammar.pattern(*others)
    found = []
    for _ in range(samples):
        s = grammar.expand(rng, rule, **slots)
        if detector.search(s):
            found.append(s)
    return found


def by_org(rules: dict, org_rules: dict[str, dict], slots: dict[str, str] | None = None
           ) -> tuple[dict, Grammar, dict[str, Grammar]]:
    """Rules some of whose alternatives fit only one org (a household's "at home", a company's
    "procurement"): `org_rules` maps an org to its own alternatives of such rules. Returns the merged
    rules (each such rule with every org's alternatives), their grammar (what detectors read: it
    recognises every org's text) and, per org, the grammar that writes that org's text."""
    names = {name for own in org_rules.values() for name in own}
    merged = {**rules, **{n: [alt for own in org_rules.values() for alt in own.get(n, ())] for n in names}}
    return merged, Grammar(merged, slots), {org: Grammar({**merged, **own}, slots) for org, own in org_rules.items()}
