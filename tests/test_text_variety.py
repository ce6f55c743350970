"""The text-variety measure (benchmarks/text_variety.py, issue 12 item 7): sentence splitting,
masking and the repeated-sentence share on known inputs, then once on the small test org."""

from __future__ import annotations

import pytest

from benchmarks.text_variety import field_variety, mask, org_variety, prose_fields, sentences


def test_sentences_split_lines_and_punctuation_and_drop_speaker_labels():
    text = "Simone Cruz: Hi there.  How can I help?\nElijah Fujita: It broke!\n\nThanks,\n--"
    assert sentences(text) == ["Hi there.", "How can I help?", "It broke!", "Thanks,"]


def test_the_share_counts_sentences_occurring_more_than_five_times():
    texts = [f"Same words here. Unique one {i}." for i in range(6)] + ["Rare words.", None, ""]
    v = field_variety(texts, masked=False)
    assert (v.records, v.sentences, v.distinct) == (7, 13, 8)
    assert v.repeated_share == pytest.approx(6 / 13)
    assert v.top[0] == ("same words here.", 6)
    five = field_variety(["Same words here."] * 5 + ["Other."], masked=False)
    assert five.repeated_share == 0.0  # five times is not more than five


def test_masking_merges_sentences_that_differ_only_in_numbers_names_and_ids():
    names = frozenset({("Aiko",), ("Malik",), ("Elijah",), ("Fujita",), ("Corvid", "C9000", "Core", "Switch")})
    a = mask("Aiko Malik ordered 3 units of the Corvid C9000 Core Switch for $2,500 (case 500Ab0000001234AAA).", names)
    b = mask("Elijah Fujita ordered 12 units of the Harbor Lamp for $80 (case 500Zz0000009876Xyz).", names)
    assert a == b == "<name> ordered <num> units of the <name> for <num> (case <id>)."
    assert mask("Write to jo.fox@mail.com, Jo.") == "Write to <email>, <name>."
    assert mask("Hello, I think Boise is nice.") == "Hello, I think <name> is nice."  # I and the first word stay
    assert mask("Maximum Quantity for Harbor Lamp", frozenset({("Harbor", "Lamp")})) == "Maximum Quantity for <name>"
    texts = [
        f"Thanks, {n}, order {k} is in. It ships soon."
        for n, k in zip(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], range(6))
    ]
    assert field_variety(texts, masked=False).repeated_share == pytest.approx(0.5)  # only the second sentence
    assert field_variety(texts, masked=True).repeated_share == 1.0
    assert field_variety(texts, masked=True).distinct == 2


def test_on_the_small_org_every_prose_field_is_measured_sanely(org_paths):
    for org, path in org_paths.items():
        result = org_variety(path)
        assert set(result) == {f"{o}.{f}" for o, f in prose_fields(org)}
        assert {
            "Case.Description",
            "EmailMessage.TextBody",
            "LiveChatTranscript.Body",
            "VoiceCallTranscript__c.TranscriptBody__c",
            "Knowledge__kav.FAQ_Answer__c",
            "Product2.Description",
            "Opportunity.Description",
            "Task.Description",
        } <= set(result)
        for key, (raw, masked) in result.items():
            assert raw.records > 0 and raw.sentences >= raw.records, key
            assert masked.sentences == raw.sentences and masked.distinct <= raw.distinct, key
            assert 0.0 <= raw.repeated_share <= masked.repeated_share <= 1.0, key
