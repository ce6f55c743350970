"""A None answer on a names task (sales_insight_mining: competitors or negative subtopics of the calls).
Reproduced defect (issue 27, item 6): "None - the customer didn't raise any of those." failed a None
instance (the clause holding "None" was dropped as "not raised"), and "No competitors were mentioned"
named nothing to match. A hedge, a non-answer or a named value must not pass as None."""

from __future__ import annotations

import pytest

from evaluators.scorers import score_record
from simulator.replies import extract
from tests.test_scorers import instance, record

SAYS_NONE = [  # the family
    "None - the customer didn't raise any of those.",
    "None: no competitor came up in the calls.",
    "None — nobody was mentioned.",
    "There were none: the calls only covered scheduling.",
    "No competitors were mentioned.",
    # more of the family, unlike the quoted ones (written with the test, before the fix)
    "None.",
    "Answer: None",
    "**None** — the calls never named a rival vendor.",
    "The answer is none.",
    "None, the prospect did not bring up any other vendor.",
    "Nobody else was named on those calls.",
    "No other vendors came up in any of the three calls.",
    "No negative subtopics were raised.",
    "There are no complaints in these transcripts: none.",
    "Not a single competitor was mentioned.",
    "None of them were mentioned.",
    "The customer didn't mention any competitors.",
    "There was no negative feedback on any subtopic.",
    "No one was named: none.",
    "Result: none (the calls were about scheduling only).",
]
SAYS_NONE += [  # written after the fix (commit 0e4bd8a) and passed at once
    "None - no rival products came up on the calls.",
    "None: the transcripts never name a competitor.",
    "None — no one brought up another vendor.",
    "There were none; every call stayed on renewal terms.",
    "No competitors came up.",
    "No alternative vendors were discussed in the calls.",
    "Final answer: none.",
    "None. The customer only talked about timelines.",
    "The calls contain no competitor mentions: none.",
    "Competitors mentioned: none.",
]
NOT_NONE = [  # hedges, non-answers, values, questions
    "I'm not sure, maybe none?",
    "None of the calls have loaded yet, let me check again.",
    "Probably none, but I couldn't open the second transcript.",
    "Let me look at the calls first.",
    "None that I could see so far; I'm still checking the last call.",
    "Were there none? I can't tell.",
    "They mentioned Oxtavia.",
    "None, except Oxtavia, which came up twice.",
    "I don't know whether any competitor was mentioned.",
    "Hard to say: none, perhaps.",
    "No idea.",
    "I couldn't access the transcripts.",
    "Which opportunity do you mean?",
    "It seems no competitors were mentioned, but I'm not certain.",
    "None of the transcripts could be loaded.",
    # written after the fix and failed at once
    "None so far, but two transcripts are still loading.",
    "I believe none, though I'm not certain.",
    "None? I'd have to double-check.",
    "None of the transcripts mention pricing; they mention Oxtavia.",
    "Couldn't find any calls for that opportunity.",
    "Nobody I could find, maybe check the CRM?",
    "I'll look into which competitors came up.",
    "None that I'm aware of yet.",
    "Possibly none.",
    "There might be none.",
]


@pytest.fixture(scope="module")
def none_instances():
    return [instance("names", ["None"], params={"topic": topic}) for topic in ("competitors", "negative")]


@pytest.mark.parametrize("reply", SAYS_NONE)
def test_a_none_answer_passes_a_none_instance(none_instances, reply):
    assert extract.answers_none(reply), reply
    for inst in none_instances:
        out = score_record(record(inst, reply), "strict")
        assert out["success"] is True and out["extracted"] == ["None"], (reply, out)


@pytest.mark.parametrize("reply", NOT_NONE)
def test_a_hedge_a_non_answer_or_a_name_fails_a_none_instance(none_instances, reply):
    for inst in none_instances:
        assert score_record(record(inst, reply), "strict")["success"] is False, reply


def test_none_does_not_pass_an_instance_with_names():
    inst = instance("names", ["Oxtavia"], params={"topic": "competitors"})
    for reply in ("None - the customer didn't raise any of those.", "No competitors were mentioned."):
        assert score_record(record(inst, reply), "strict")["success"] is False
    assert score_record(record(inst, "They mentioned Oxtavia."), "strict")["success"] is True
