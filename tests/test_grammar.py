"""The prose grammar: expansion, variety counts, the compiled detectors, and bad rules."""

import random

import pytest

from simulator.crm.generator.grammar import Grammar, overlaps

RULES = {
    "met": ["We [already |]have [approved|signed-off] budget[ for this|], [roughly|about] {amount}.",
            "<who> approved {amount} for the <thing>."],
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


@pytest.mark.parametrize("rules, message", [
    ({"a": ["x [y|z"]}, "unbalanced '['"),
    ({"a": ["x y]"]}, "unbalanced ']'"),
    ({"a": ["x | y"]}, "'|' outside brackets"),
    ({"a": ["<b>"]}, "unknown rule <b>"),
    ({"a": ["<b>"], "b": ["[<a>|c]"]}, "refer to themselves: a -> b -> a"),
    ({"a": []}, "has no alternatives"),
])
def test_bad_rules_are_named(rules, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]").replace("|", r"\|")):
        Grammar(rules)


def test_unknown_rule_at_expansion_is_named():
    with pytest.raises(KeyError, match="no rule 'nope'"):
        Grammar(RULES).expand(random.Random(0), "nope")
