"""The fault-injection benchmark (benchmarks/fault_injection.py) on 40 episodes: a whole
`crmarena run` (the command, workers 2) against the loopback fake provider failing 30% of the
agent's, the person's and the judge's requests with every fault kind, a SIGKILL of the parent
and a resume, then `--retry-failed` rounds. The run folder must show nothing lost, nothing
duplicated, every infra error replayed, every episode's latest record judged once (no verdict
paid for twice), exit statuses as documented and a summary that matches the records."""

from __future__ import annotations

import pytest

from benchmarks.fault_injection import FAULTS, fault_benchmark

pytestmark = pytest.mark.slow  # real `crmarena run` subprocesses, SIGKILLed and resumed


def test_a_faulty_provider_killed_run_loses_nothing_duplicates_nothing_pays_no_verdict_twice_and_completes(
    tmp_path, org_cache
):
    outcome = fault_benchmark(tmp_path, episodes=40, rate=0.3, seed=0)
    audit, rounds = outcome.audit, outcome.rounds
    assert set(outcome.faults) == set(FAULTS)  # every kind, the 200-with-error body included
    assert rounds[0].killed and rounds[0].lines[1] < 40  # the parent was SIGKILLed mid-run
    assert rounds[0].orphans == 0 and rounds[0].late_requests == 0  # its workers died with it
    assert audit.tracebacks == [] and audit.damaged == 0
    assert audit.lost == [] and audit.unplanned == [] and audit.duplicated == []
    assert audit.infra_by_round[0] > 0 and audit.unreplayed == [] and audit.infra_left == 0
    assert [r.exit for r in rounds[1:]] == [1] * (len(rounds) - 2) + [0] and audit.exits_wrong == []
    assert audit.agent_errors == 0 and audit.summary_wrong == []
    assert audit.records == 40 + sum(audit.infra_by_round[:-1])  # one record per play: the plan and each replay
    # the judge's side: verdicts missing for a provider reason are judged by the next command, once
    assert audit.judge_faults and max(audit.unjudged_by_round) > 0  # some verdicts were missing (exit 1 said so)
    assert audit.unjudged_by_round[-1] == 0 and audit.exits_wrong == []
    assert audit.verdicts_wrong == [] and audit.failed_closed == 0  # one valid verdict each, on the latest record
    assert audit.paid_twice == [] and audit.judge_unmatched == 0
    assert audit.judge_paid == 40  # one verdict paid per judged record: the 40 latest (infra errors are not judged)
