"""wrong_stage_rectification needs the calls read, not their stage words counted (issue 12).

A call-lines-only voter reads only the rep's lines in an opportunity's calls and takes the stage
whose keywords (benchmarks' STAGE_WORDS or STAGE_CUES) it finds most (ties: the earliest hit), or
the latest of the stages voted line by line, then answers it (None when it is the recorded stage).
On the grammar whose purpose and next-step lines named the deal's stage in its own words, the
most-words vote scored 47-59% (STAGE_WORDS) at scale 1 against a top-answer share of about 25%.
Now each line names a pair of stages drawn evenly whatever its stage, so the vote says nothing."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from benchmarks.cue_solver import STAGE_CUES, split_speakers
from benchmarks.shortcut_baselines import STAGE_WORDS
from simulator.crm.generator import calls as C
from simulator.crm.generator.grammar import overlaps
from simulator.crm.schema import STAGES
from simulator.tasks.generate import generate_instances

KEYWORDS = {"stage_words": STAGE_WORDS, "stage_cues": STAGE_CUES}
SLOTS = {
    "amount": "$40,000",
    "approver": "our CFO",
    "comp": "Korvex",
    "product": "Arkline R220 Rack Server",
    "cf": "Maya",
    "af": "Leon",
    "company": "Summit Labs",
    "project": "the office move",
    "purchase": "the office lease",
}


def voted(texts: list[str], words: dict[str, str]) -> str | None:
    """The stage with the most keyword hits in `texts`; ties go to the earliest hit."""
    joined = " ".join(texts)
    hits = {s: [m.start() for m in re.finditer(p, joined, re.I)] for s, p in words.items()}
    hits = {s: h for s, h in hits.items() if h}
    return min(hits, key=lambda s: (-len(hits[s]), hits[s][0])) if hits else None


def most(lines: list[str], words: dict[str, str]) -> str | None:
    return voted(lines, words)


def latest(lines: list[str], words: dict[str, str]) -> str | None:
    votes = [s for s in (voted([line], words) for line in lines) if s]
    return max(votes, key=STAGES.index) if votes else None


def _lines(stage: str, org: str, rng: random.Random) -> list[str]:
    writer = C._WRITERS[org]
    return [writer.expand(rng, f"{rule}_{stage}", **SLOTS) for rule in ("stage", "next")]


@pytest.mark.slow
@pytest.mark.parametrize("org", ["b2b", "b2c"])
@pytest.mark.parametrize("words", list(KEYWORDS))
def test_stage_lines_vote_alike_whatever_the_stage(org, words):
    """The keyword vote over a call's purpose and next-step lines has the same distribution for every
    stage (within 5 points per voted stage, 2,000 calls each): the old lines voted their own stage."""
    n, rng = 2000, random.Random(org + words)
    shares = {st: Counter(voted(_lines(st, org, rng), KEYWORDS[words]) for _ in range(n)) for st in STAGES}
    for v in (*STAGES, None):
        spread = [shares[st][v] / n for st in STAGES]
        assert max(spread) - min(spread) < 0.05, (v, spread)


@pytest.mark.slow
def test_stage_labels_never_overlap():
    """No stage's line (nor a lead's call's stage-free line) reads as another stage's."""
    rng = random.Random(9)
    for rule in (*(f"{r}_{st}" for r in ("stage", "next") for st in STAGES), "stage_none", "next_none"):
        stage = rule.partition("_")[2]
        others = tuple(
            r
            for fact, rules in C.FACT_RULES.items()
            if fact.startswith("stage=") and fact != f"stage={stage}"
            for r in rules
        )
        assert overlaps(C.GRAMMAR, rule, others, rng, 400, **SLOTS) == [], rule


@pytest.mark.slow
def test_the_detector_reads_the_stage_named_in_context():
    for seed in range(200):
        stage = STAGES[seed % 5]
        body = C.voice_call(
            random.Random(seed),
            agent="Leon Weber",
            contact="Maya Okafor",
            company=("Summit Labs", None)[seed % 2],
            product="Beacon Analytics Suite",
            competitors=[],
            bant=dict.fromkeys(C.BANT, True),
            sentiments={},
            stage_hint=stage,
        )
        assert C.call_stage(body) == stage, body


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_call_line_voter_does_not_solve_wrong_stage(kind, scale1_org):
    org = scale1_org(kind)
    conn = org.connect()
    questions = {}  # opportunity -> answer: each deal counted once (asked by Id or by name)
    for inst in generate_instances(org, 300, types=("wrong_stage_rectification",), seed=3):
        opp = (
            inst.params["opportunity"]
            if inst.params["ref"] == "id"
            else conn.execute("SELECT Id FROM Opportunity WHERE Name = ?", (inst.params["opportunity"],)).fetchone()[0]
        )
        questions[opp] = tuple(inst.answer)
    top = Counter(questions.values()).most_common(1)[0][1] / len(questions)
    for words in KEYWORDS.values():
        for pick in (most, latest):
            right = 0
            for opp, answer in questions.items():
                ((recorded,),) = conn.execute("SELECT StageName FROM Opportunity WHERE Id = ?", (opp,))
                lines = [
                    line
                    for (body,) in conn.execute(
                        "SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = ?", (opp,)
                    )
                    for line in split_speakers(body)[0]
                ]
                shown = pick(lines, words)
                right += answer == (("None",) if shown in (None, recorded) else (shown,))
            assert right / len(questions) <= top + 0.05, (pick.__name__, right / len(questions), top)
