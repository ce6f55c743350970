"""The `workflow` answer metric: success iff the record's final owner (`state.OwnerId`, recorded by
the episode) is the expected one, whatever the agent says it did; compat mode scores the final
reply as `exact` does, as CRMArena-Pro's evaluator never reads the org."""

from __future__ import annotations

from typing import Any

from simulator import prompts
from simulator.records import Record
from simulator.tasks.instance import NONE_ANSWER

from .exact import compat_exact, expected_answer, value_key
from .registry import Answer, AnswerMetric


def final_owner(record: Record) -> str | None:
    """The owner of the workflow's record at the end of the episode (None when not recorded)."""
    return record.state.get("OwnerId")


class Workflow(AnswerMetric):
    """A change in the CRM (module docstring)."""

    name = "workflow"

    def strict(self, answer: Answer) -> dict[str, Any]:
        owner = final_owner(answer.record)
        if not owner:
            return {"success": False, "extracted": [], "reason": "no final owner recorded in the record's state"}
        ok = bool(answer.expected) and value_key(owner, "user_id") == value_key(answer.expected[0], "user_id")
        return {
            "success": ok,
            "extracted": [owner],
            "reason": "record assigned to the expected owner" if ok else f"record owned by {owner} at the end",
        }

    def compat(self, answer: Answer) -> dict[str, Any]:
        return compat_exact(answer.final, answer.expected, answer.kind)

    def rubric(self, record: Record) -> str:
        answer = expected_answer(record)
        return prompts.render(
            "rubric_workflow", answer=answer, nothing=answer == [NONE_ANSWER], owner=final_owner(record)
        )


UNITS = (Workflow(),)
