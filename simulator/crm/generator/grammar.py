"""A small generative grammar for the org's prose, and the detectors it implies.

A `Grammar` maps rule names to alternatives. The text of an alternative may hold:

- `<rule>`: one expansion of another rule (rules must not refer to themselves, directly or not);
- `[a|b|c]`: an inline choice, nestable; `[a|]` makes `a` optional;
- `{slot}`: a value given at expansion (`expand(rng, "rule", slot="...")`).

Every choice point picks uniformly, so a handful of rules with a few alternatives each yields
thousands of distinct sentences, written by Python functions generated from the rules
(`_Codegen`). The same rules compile to a regular expression matching exactly what a rule can
produce (`pattern`), which is how the generator's own detectors
recognise a fact in text without any fixed marker: two rules whose languages never overlap
(checked by tests, `overlaps`) can carry opposite labels however the text around them varies.
"""

from __future__ import annotations

import itertools
import random
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Union

_TOKEN = re.compile(r"<([a-z0-9_]+)>|(\[)|(\|)|(\])|\{([a-z0-9_]+)\}|([^<\[|\]{]+|[<{])")


@dataclass(frozen=True)
class _Ref:
    rule: str


@dataclass(frozen=True)
class _Slot:
    name: str


# A parsed text is a tuple of parts: str (literal), _Ref, _Slot, or a choice (a list of texts).
Part = str | _Ref | _Slot | list["Parts"]
Parts = tuple[Part, ...]
# A compiled text: literals joined, references resolved; a choice is `_Words` or a tuple of texts.
Compiled = Union[str, _Slot, "Choice"]
Choice = Union["_Words", tuple[tuple[Compiled, ...], ...]]
Writes = Callable[[Callable[[], float], Mapping[str, object]], str]  # (random, slots) -> text
Rules = Mapping[str, Sequence[str]]  # rule name -> its alternatives


@cache
def _parse(source: str) -> Parts:
    """Parse one alternative's text; raise ValueError naming the text on unbalanced brackets.
    (Memoised: grammars share many texts, `by_org` merges one set of rules into three grammars;
    the parsed parts are never modified.)"""
    stack: list[list[list[Part]]] = [[[]]]  # each level: the alternatives of an open choice, the last one growing
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


@cache
def _refs_of(source: str) -> tuple[str, ...]:
    """The rules one alternative's text refers to, in order (memoised like `_parse`)."""
    return tuple(_refs(_parse(source)))


def _refs(parts: Parts) -> Iterator[str]:
    for p in parts:
        if isinstance(p, _Ref):
            yield p.rule
        elif isinstance(p, list):
            for alt in p:
                yield from _refs(alt)


def _check_acyclic(refs: dict[str, tuple[str, ...]], name: str, path: tuple[str, ...], done: set[str]) -> None:
    """ValueError naming the loop if `name` reaches itself through `refs`."""
    if name in path:
        raise ValueError("rules refer to themselves: " + " -> ".join(path + (name,)))
    if name in done:
        return
    for ref in refs[name]:
        _check_acyclic(refs, ref, path + (name,), done)
    done.add(name)


class Grammar:
    """Named rules of alternatives; `expand` writes text, `pattern` recognises it."""

    def __init__(self, rules: Rules, slots: Mapping[str, str] | None = None):
        """`slots` maps a slot name to the regex its values match (default: any text, lazily)."""
        self._rules = {name: [_parse(alt) for alt in alts] for name, alts in rules.items()}
        self._slots = dict(slots or {})
        self._regexes: dict[str, str] = {}  # rule -> its regex source (memo of `_regex_rule`)
        self._choices: dict[str, Choice] = {}  # rule -> its choice tree (memo of `_compiled`)
        self._writers: dict[str, Writes] = {}  # rule -> its writer, made on first use
        self._code = _Codegen()
        refs: dict[str, tuple[str, ...]] = {}  # rule -> the rules it refers to, in order of first mention
        for name, alts in rules.items():
            if not alts:
                raise ValueError(f"rule {name!r} has no alternatives")
            refs[name] = tuple(dict.fromkeys(ref for alt in alts for ref in _refs_of(alt)))
            for ref in refs[name]:
                if ref not in self._rules:
                    raise ValueError(f"rule {name!r} refers to unknown rule <{ref}>")
        checked: set[str] = set()
        for name in self._rules:
            _check_acyclic(refs, name, (), checked)

    def __contains__(self, rule: str) -> bool:
        return rule in self._rules

    # -- writing

    def expand(self, rng: random.Random, rule: str, **slots: object) -> str:
        """One text of `rule`, its choices drawn from `rng`, its slots filled from `slots`."""
        return self.write(rng, rule, slots)

    def write(self, rng: random.Random, rule: str, slots: Mapping[str, object]) -> str:
        """`expand` with the slots in a mapping (not copied: for callers that fill many texts from one)."""
        writer = self._writers.get(rule)
        if writer is None:
            writer = self._writers[rule] = self._code.writer(self._compiled(rule))
        return writer(rng.random, slots)

    def _alts(self, rule: str) -> list[Parts]:
        try:
            return self._rules[rule]
        except KeyError:
            raise KeyError(f"no rule {rule!r} in this grammar") from None

    def _compiled(self, rule: str) -> Choice:
        """The rule as a choice tree: references resolved, literal runs joined (memoised)."""
        if rule not in self._choices:
            self._choices[rule] = _choice([self._compile(alt) for alt in self._alts(rule)])
        return self._choices[rule]

    def _compile(self, parts: Parts) -> tuple[Compiled, ...]:
        out: list[Compiled] = []
        for p in parts:
            part = (
                self._compiled(p.rule)
                if isinstance(p, _Ref)
                else _choice([self._compile(alt) for alt in p])
                if isinstance(p, list)
                else p
            )
            if isinstance(part, str) and out and isinstance(out[-1], str):
                out[-1] += part
            else:
                out.append(part)
        return tuple(out)

    def count(self, rule: str) -> int:
        """How many derivations `rule` has (slots counted once): a floor on its variety."""
        return sum(self._count(alt) for alt in self._alts(rule))

    def _count(self, parts: Parts) -> int:
        n = 1
        for p in parts:
            if isinstance(p, _Ref):
                n *= self.count(p.rule)
            elif isinstance(p, list):
                n *= sum(self._count(alt) for alt in p)
        return n

    # -- recognising

    def pattern(self, *rules: str, flags: int = 0) -> LazyRegex:
        """A regex that matches, anywhere in a text, any text one of `rules` can produce (built
        and compiled on first use)."""
        return LazyRegex(lambda: "|".join(f"(?:{self._regex_rule(r)})" for r in rules), flags)

    def _regex_rule(self, rule: str) -> str:
        if rule not in self._regexes:  # (setdefault would rebuild the source on every reference)
            self._regexes[rule] = "|".join(self._regex(alt) for alt in self._alts(rule))
        return self._regexes[rule]

    def _regex(self, parts: Parts) -> str:
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


class _Words(tuple[str, ...]):
    """A choice among plain strings."""


def _choice(alts: list[tuple[Compiled, ...]]) -> Choice:
    """A compiled choice: `_Words` when every alternative is one literal, else a tuple of alternatives."""
    if all(len(a) <= 1 and all(type(x) is str for x in a) for a in alts):
        return _Words(str(a[0]) if a else "" for a in alts)
    return tuple(alts)


class _Codegen:
    """A grammar's writers: for a choice tree, a function `(random_, slots) -> text` drawing one
    random() per choice point in text order (tests/test_grammar.py compares them with a walk of the
    tree). Generated as Python source (each alternative one f-string, its word choices inline, each
    nested choice or referenced rule a function shared by every rule that uses it): 1.5-1.9x faster
    per expansion than walking the tree."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}  # what the source refers to (word tuples, slot names) and the functions made
        # id(choice) -> (the choice, held so that its id is never another object's; its function's name)
        self.made: dict[int, tuple[Choice, str]] = {}
        self.source: list[str] = []  # definitions not executed yet
        self.count = itertools.count()  # numbers the global names of the source
        self.lock = threading.Lock()  # one thread at a time writes and runs source (a rule's first use)

    def writer(self, choice: Choice) -> Writes:
        """The function writing `choice` (the source written since the last call executed now)."""
        with self.lock:
            name = self.define(choice)
            if self.source:
                exec("\n".join(self.source), self.scope)
                self.source = []
            made: Writes = self.scope[name]  # (defined by the source just run)
            return made

    def define(self, choice: Choice) -> str:
        """The name of the function writing `choice` (its source written on first use)."""
        if id(choice) in self.made:
            return self.made[id(choice)][1]
        if isinstance(choice, _Words):
            body = [f"return {self.words(choice)}"]
        else:
            texts = [self.text(alt) for alt in choice]
            if len(texts) == 1:
                body = ["r()", f"return {texts[0]}"]
            else:
                alts = self.name("a")
                self.source.append(f"{alts} = ({''.join(f'lambda r, s: {t}, ' for t in texts)})")
                body = [f"return {alts}[int(r() * {len(texts)})](r, s)"]
        name = self.name("f")
        self.made[id(choice)] = (choice, name)
        self.source.append(f"def {name}(r, s):\n" + "\n".join("    " + line for line in body))
        return name

    def name(self, kind: str, value: object = None) -> str:
        """A new global name of the source (bound to `value` unless None)."""
        name = f"{kind}{next(self.count)}"
        if value is not None:
            self.scope[name] = value
        return name

    def words(self, words: tuple[str, ...]) -> str:
        """An expression drawing one of `words`."""
        return f"{self.name('w', tuple(words))}[int(r() * {len(words)})]"

    def text(self, parts: tuple[Compiled, ...]) -> str:
        """An f-string writing `parts` left to right (so their draws come in text order)."""
        out = []
        for p in parts:
            if isinstance(p, str):
                out.append(p.replace("{", "{{").replace("}", "}}"))
            elif isinstance(p, _Words):
                out.append(f"{{{self.words(p)}}}")
            elif isinstance(p, _Slot):
                out.append(f"{{s[{self.name('k', p.name)}]!s}}")
            else:
                out.append(f"{{{self.define(p)}(r, s)}}")
        return "f" + repr("".join(out))


class LazyRegex:
    """A regular expression whose source is built and compiled on first use, then used as the
    compiled `re.Pattern` (`search`, `fullmatch`, ...). The generator's modules define their
    detectors at import, and compiling them all took ~0.7 s of every run's start (`python -X
    importtime`, benchmarks/RESULTS.md), though a run of a few task types uses few of them. Compiled by
    `re.compile` in each process that uses it (all of them: ~1.2 s of CPU), so a reader compiles
    only the detectors it reads (calls.facts' `kinds`)."""

    def __init__(self, source: Callable[[], str], flags: int = 0):
        self._source, self._flags = source, flags

    @cached_property
    def pattern(self) -> str:
        return self._source()

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.pattern, self._flags)

    def __getattr__(self, name: str) -> Any:  # (the compiled pattern's attribute)
        if name.startswith("_"):  # (not the pattern's: copy and pickle probe for these on a bare instance)
            raise AttributeError(name)
        return getattr(self.compiled, name)


def overlaps(
    grammar: Grammar, rule: str, others: tuple[str, ...], rng: random.Random, samples: int = 2000, **slots: object
) -> list[str]:
    """Texts of `rule` (sampled) in which the pattern of any of `others` finds a match: [] when disjoint."""
    detector = grammar.pattern(*others)
    found = []
    for _ in range(samples):
        s = grammar.expand(rng, rule, **slots)
        if detector.search(s):
            found.append(s)
    return found


def by_org(
    rules: Rules, org_rules: Mapping[str, Rules], slots: Mapping[str, str] | None = None
) -> tuple[dict[str, Sequence[str]], Grammar, dict[str, Grammar]]:
    """Rules some of whose alternatives fit only one org (a household's "at home", a company's
    "procurement"): `org_rules` maps an org to its own alternatives of such rules. Returns the merged
    rules (each such rule with every org's alternatives), their grammar (what detectors read: it
    recognises every org's text) and, per org, the grammar that writes that org's text."""
    names = {name for own in org_rules.values() for name in own}
    merged = {**rules, **{n: [alt for own in org_rules.values() for alt in own.get(n, ())] for n in names}}
    return merged, Grammar(merged, slots), {org: Grammar({**merged, **own}, slots) for org, own in org_rules.items()}
