"""The prose grammar: expansion, variety counts, the compiled detectors, and bad rules."""

import random

import pytest

from simulator.crm.generator.grammar import Grammar, _Slot, _Words, overlaps

RULES = {
    "met": [
        "We [already |]have [approved|signed-off] budget[ for this|], [roughly|about] {amount}.",
        "<who> approved {amount} for the <thing>.",
    ],
    "who": ["Finance", "Our CFO", "The board"],
    "thing": ["[new |]tool", "rollout"],
    "unmet": ["There is no budget [yet|for this] at all.", "<who> has not approved anything for the <thing>."],
}


def test_expansions_are_in_the_language_of_their_rule_and_no_other():
    g = Grammar(RULES, slots={"amount": r"\$[\d,]+"})
    rng = random.Random(3)
    met, unmet = g.pattern("met"), g.pattern("unmet")
    texts = {g.expand(rng, "met", amount="$40,000") for _ in range(400)}
    assert len(texts) == g.count("met") == 2 * 2 * 2 * 2 + 3 * 3
    for t in texts:
        assert met.fullmatch(t) and not unmet.search(t), t
    assert overlaps(g, "unmet", ("met",), rng, 300) == []
    # a detector finds its sentence inside a longer text, whatever surrounds it
    assert met.search("Sure. The board approved $9,500 for the new tool. Anything else?")
    assert not met.search("The board approved nothing for the new tool.")


def test_overlaps_reports_the_texts_that_collide():
    g = Grammar({"a": ["no budget [yet|]"], "b": ["no budget"]})
    assert overlaps(g, "a", ("b",), random.Random(1), 50)


@pytest.mark.parametrize(
    "rules, message",
    [
        ({"a": ["x [y|z"]}, "unbalanced '['"),
        ({"a": ["x y]"]}, "unbalanced ']'"),
        ({"a": ["x | y"]}, "'|' outside brackets"),
        ({"a": ["<b>"]}, "unknown rule <b>"),
        ({"a": ["<b>"], "b": ["[<a>|c]"]}, "refer to themselves: a -> b -> a"),
        ({"a": []}, "has no alternatives"),
    ],
)
def test_bad_rules_are_named(rules, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]").replace("|", r"\|")):
        Grammar(rules)


def test_unknown_rule_at_expansion_is_named():
    with pytest.raises(KeyError, match="no rule 'nope'"):
        Grammar(RULES).expand(random.Random(0), "nope")


def _generator_grammars() -> list[Grammar]:
    """Every grammar the org generator writes with."""
    from simulator.crm.generator import activities, articles, calls, injections, records, threads

    found = []
    for module in (activities, articles, calls, injections, records, threads):
        for value in vars(module).values():
            for g in value.values() if isinstance(value, dict) else (value,):
                if isinstance(g, Grammar) and all(g is not f for f in found):
                    found.append(g)
    return found


class _AnySlot(dict):
    def __missing__(self, name):
        return f"<{name}>"


def _reference(g: Grammar, rng: random.Random, rule: str, slots) -> str:
    """What a rule writes by walking its choice tree (the writers' reference): one random() per
    choice point in text order."""
    out = []
    _walk(rng.random, g._compiled(rule), slots, out)
    return "".join(out)


def _walk(random_, choice: tuple, slots, out: list[str]) -> None:
    if type(choice) is _Words:
        out.append(choice[int(random_() * len(choice))])
        return
    for p in choice[int(random_() * len(choice))]:
        if type(p) is str:
            out.append(p)
        elif type(p) is _Words:
            out.append(p[int(random_() * len(p))])
        elif type(p) is _Slot:
            out.append(str(slots[p.name]))
        else:
            _walk(random_, p, slots, out)


def test_writers_write_what_the_tree_walk_writes_with_the_same_draws():
    grammars = _generator_grammars()
    assert len(grammars) >= 10
    for i, g in enumerate(grammars):
        for rule in g._rules:
            a, b = random.Random(f"{i}:{rule}"), random.Random(f"{i}:{rule}")
            slots = _AnySlot(n=3)
            for _ in range(12):
                assert g.write(b, rule, slots) == _reference(g, a, rule, slots), rule
            assert a.getstate() == b.getstate(), rule


def test_writers_keep_quotes_braces_and_backslashes_and_format_slots_as_str():
    rules = {"a": ['{ x }} it\'s "q" \\n [é|\t]<b>{n}', "'''<b>"], "b": ["[<c>|]", "}"], "c": ["{n}[|{n}]"]}
    g = Grammar(rules)
    for seed in range(40):
        for slots in ({"n": 7}, {"n": 2.5}, {"n": True}, {"n": "{n}"}):
            assert g.expand(random.Random(seed), "a", **slots) == _reference(g, random.Random(seed), "a", slots)


def test_threads_making_writers_at_once_all_write_what_the_walk_writes():
    """A rule's writer is made on first use; threads doing that at once (switching as often as the
    interpreter allows) must each get a working writer, and leave every rule working."""
    import sys
    import threading

    rules = {
        f"r{i}": [f"x{i} [a|b|<r{i - 1}>] [c|d [e|f]]" if i else "z [p|q] [s|t]", f"y{i} [g|h] [i|j|k]"]
        for i in range(60)
    }
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for trial in range(10):
            g, errors = Grammar(rules), []

            def write(k, g=g, errors=errors):
                try:
                    for i in range(k % 3, 60, 3):
                        g.write(random.Random(k), f"r{i}", {})
                except Exception as exc:
                    errors.append(repr(exc))

            threads = [threading.Thread(target=write, args=(k,)) for k in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert errors == [], trial
            for i in range(60):
                assert g.write(random.Random(i), f"r{i}", {}) == _reference(g, random.Random(i), f"r{i}", {})
    finally:
        sys.setswitchinterval(interval)
