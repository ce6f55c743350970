"""The strict scorer and the judge prompt measured on the labelled answer corpus
(tests/data/answer_corpus.jsonl: agent replies over all 22 task types, phrased as current models
phrase them, right and wrong, on real instances; written by benchmarks/make_answer_corpus.py)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict

import pytest
from autogen_ext.models.replay import ReplayChatCompletionClient

from benchmarks.scorer_accuracy import CORPUS, REQUIRED, accuracy, confusion
from evaluators.corpus import CorpusError, corpus_record, read_corpus
from evaluators.judge import Judge, judge_prompt, reply_turns
from simulator.tasks.instance import NONE_ANSWER
from simulator.tasks.spec import ANSWER_KIND_TEXT, load_catalog

MIN_OVERALL, MIN_PER_TYPE = 0.98, 0.95


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return read_corpus(CORPUS, REQUIRED)


def sample(corpus: list[dict]) -> list[dict]:
    """The first right and the first wrong reply of every task type and org (88 items)."""
    picked: dict[tuple, dict] = {}
    for item in corpus:
        picked.setdefault((item["task"], item["org"], item["correct"]), item)
    return list(picked.values())


def test_corpus_covers_every_type_and_org_with_right_and_wrong_replies(corpus):
    assert len(corpus) >= 400
    cells = Counter((i["task"], i["org"], i["correct"]) for i in corpus)
    for task, spec in load_catalog().items():
        for org in spec.orgs:
            assert cells[(task, org, True)] >= 5 and cells[(task, org, False)] >= 5, (task, org)
    assert len({i["id"] for i in corpus}) == len(corpus)
    assert len({i["form"] for i in corpus}) >= 100  # phrasings, not one template


def test_items_are_scorable_records_with_their_instance(corpus):
    for item in corpus:
        inst = item["instance"]
        assert inst["task"] == item["task"] and inst["answer"] and inst["metric"] and inst["answer_kind"]
        assert item["messages"][-1]["role"] == "assistant" and item["final_answer"] == item["messages"][-1]["content"]
        if inst["metric"] == "workflow" and item["correct"]:
            assert item["state"]["OwnerId"] == inst["answer"][0]


def test_strict_scorer_accuracy(corpus):
    table, errors = confusion(corpus)
    overall = sum(table.values(), Counter())
    detail = [(i["id"], i["form"], s["reason"]) for i, s in errors]
    assert accuracy(overall) >= MIN_OVERALL, detail
    low = {task: round(accuracy(c), 3) for task, c in table.items() if accuracy(c) < MIN_PER_TYPE}
    assert not low, (low, detail)


def test_a_malformed_corpus_line_names_file_and_line(tmp_path):
    bad = tmp_path / "corpus.jsonl"
    bad.write_text('{"id": "a"}\n{"id": "b", \n')
    with pytest.raises(CorpusError, match=r"corpus\.jsonl, line 2"):
        read_corpus(bad, ["id"])
    with pytest.raises(CorpusError, match=r"line 1: missing task"):
        read_corpus(bad, ["id", "task"])


# --- the judge prompt on the same corpus --------------------------------------------------------


def test_judge_prompt_carries_expected_answer_reply_and_kind_rules(corpus):
    for item in sample(corpus):
        inst = item["instance"]
        record = corpus_record(item)
        prompt = judge_prompt(record, reply_turns(record)[0])
        assert ANSWER_KIND_TEXT[inst["answer_kind"]] in prompt, item["id"]
        assert json.dumps(item["final_answer"], ensure_ascii=False) in prompt, item["id"]
        assert inst["query"] in prompt
        if inst["metric"] == "refusal":
            assert all(v in prompt for v in inst["confidential_values"]), item["id"]
        elif inst["answer"] == [NONE_ANSWER]:
            assert "There is none" in prompt, item["id"]
        else:
            assert all(a in prompt for a in inst["answer"]), item["id"]
        if inst["metric"] == "workflow" and item["state"].get("OwnerId"):
            assert item["state"]["OwnerId"] in prompt, item["id"]


UNPARSEABLE = [
    "The agent answered correctly, so I'd call this a success.",
    '{"rationale": "The agent gave the right Id.", "success": tru',
    '```json\n{"success": true}\n```',
    "",
]


@pytest.mark.parametrize("replies", [UNPARSEABLE[:2], UNPARSEABLE[2:]])
def test_unparseable_judge_replies_are_invalid_never_a_pass(corpus, replies):
    by_task: dict[str, list[dict]] = defaultdict(list)
    for item in sample(corpus):
        by_task[item["task"]].append(item)
    for items in by_task.values():
        item = next(i for i in items if i["correct"])  # even a right answer cannot pass on a bad verdict
        judge = Judge(ReplayChatCompletionClient(list(replies)), max_attempts=len(replies))
        verdict = asyncio.run(judge.judge(corpus_record(item)))
        assert verdict["valid"] is False and verdict["success"] is False, (item["id"], verdict)
        assert verdict["error"] and verdict["attempts"] == len(replies)


def test_a_well_formed_judge_verdict_on_a_corpus_item_is_valid(corpus):
    item = corpus_record(next(i for i in corpus if i["task"] == "handle_time" and i["correct"]))
    turns = reply_turns(item)[0]
    reply = json.dumps(
        {
            "rationale": "The agent gave the expected User Id.",
            "success": True,
            "refused": None,
            "leaked": [],
            "turn_categories": [{"turn": t, "category": "answer_attempt"} for t in turns],
        }
    )
    verdict = asyncio.run(Judge(ReplayChatCompletionClient([reply])).judge(item))
    assert verdict["valid"] is True and verdict["success"] is True
