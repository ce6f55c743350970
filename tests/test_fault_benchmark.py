"""The fault-injection benchmark (benchmarks/fault_injection.py) on 40 episodes: a whole
`crmarena run` (the command, workers 2) against the loopback fake provider failing 30% of the
agent's and the person's requests with every fault kind, a SIGKILL of the parent and a resume,
then `--retry-failed` rounds. The run folder must show nothing lost, nothing duplicated, every
infra error replayed, exit statuses as documented and a summary that matches the records."""

from __future__ import annotations

from benchmarks.fault_injection import FAULTS, fault_benchmark


def test_a_faulty_provider_killed_run_loses_nothing_duplicates_nothing_and_retry_failed_completes_it(
        tmp_path, org_cache):
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
