"""The generator's detectors (grammar.LazyRegex) are compiled by `re.compile` on first use only, and
a reader of a few kinds of call fact (calls.facts' `kinds`) compiles only their detectors and finds
what the full reading finds of those kinds."""

from __future__ import annotations

import random
import re

import pytest

from simulator.crm.generator import calls as C
from simulator.crm.generator.grammar import LazyRegex

SENTIMENTS = ({"pricing": "negative"}, {"features": "negative", "support": "positive"}, {})


def _bodies():
    for seed in range(12):
        yield C.voice_call(
            random.Random(seed),
            agent="Leon Weber",
            contact="Maya Okafor",
            company="Summit Labs",
            product="Beacon Analytics Suite",
            competitors=["Korvex"][: seed % 2],
            bant={f: (seed >> i) % 2 == 0 for i, f in enumerate(C.BANT)},
            sentiments=SENTIMENTS[seed % 3],
            stage_hint=("Quote", "Discovery", None)[seed % 3],
        )


def test_a_lazy_regex_is_built_and_compiled_on_first_use_as_re_compile_makes_it():
    built = []
    detector = LazyRegex(lambda: built.append(1) or r"(?:Closed\ Won|qualification)\b", re.I)
    assert built == [] and "compiled" not in vars(detector)
    assert detector.search("now QUALIFICATION done").group(0) == "QUALIFICATION"
    assert detector.compiled == re.compile(r"(?:Closed\ Won|qualification)\b", re.I)
    assert detector.compiled is detector.compiled and built == [1]


@pytest.mark.parametrize("kinds", [C.BANT, ("negative", "not_negative"), ("competitor", "ruled_out"), ("stage",)])
def test_facts_of_some_kinds_compile_only_their_detectors_and_find_what_all_facts_find(monkeypatch, kinds):
    monkeypatch.setattr(C, "_detector", C._detector.__wrapped__)  # (fresh, uncompiled detectors)
    made = {}
    real = C._detector

    def detector(fact):
        return made.setdefault(fact, real(fact))

    monkeypatch.setattr(C, "_detector", detector)
    found = 0
    for body in _bodies():
        made.clear()
        some = C.facts(body, kinds)
        assert {f for f, d in made.items() if "compiled" in vars(d)} <= {
            f for f in C.FACT_RULES if f.partition("=")[0] in kinds
        }
        every = C.facts(body)
        assert some == [(f, s) for f, s in every if f.partition("=")[0] in kinds]
        found += len(some)
    assert found  # (the bodies state facts of every kind asked)
