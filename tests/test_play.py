"""`crmarena play` driven through a pseudo-terminal, in each seat: a person's episode is an ordinary
record (kind `human`), scored, audited and compared with simulated people; leaving mid-episode
(Ctrl-D, Ctrl-C) is a recorded outcome, never a traceback."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import select
import sys
import time
from pathlib import Path

import pytest

from simulator.infra.console import Console
from simulator.users.human import HumanUser
from tests.test_users import QUERY, SHARDS, reveals, setup
from tests.test_users import play as play_user

ROOT = Path(__file__).resolve().parent.parent
CONFIG = """\
name: people
orgs:
  - {type: b2b, seed: 7, scale: 0.2}
tasks: [activity_priority]
instances_per_task: 1
modes: [full, sharded]
personas_per_pool: 1
agent: {kind: oracle}
user: {kind: scripted}
"""


class Terminal:
    """`crmarena ARGS` on the child side of a pseudo-terminal: what it prints, and keys typed to it."""

    def __init__(self, *args: str, cwd: Path):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb"}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, with the pty as its terminal
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "simulator.cli", *args], env)
        self.screen = ""

    def expect(self, text: str, timeout: float = 60) -> str:
        """Read until `text` is on the screen (after what earlier calls consumed); the screen up to it."""
        end = time.monotonic() + timeout
        while text not in self.screen:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise AssertionError(f"{text!r} not shown within {timeout} s; the screen:\n{self.screen}")
            try:
                chunk = os.read(self.fd, 4096).decode(errors="replace")
            except OSError:  # (the child exited: EIO)
                chunk = ""
            if not chunk:
                raise AssertionError(f"{text!r} never shown; the screen:\n{self.screen}")
            self.screen += chunk.replace("\r\n", "\n")
        shown, _, self.screen = self.screen.partition(text)
        return shown + text

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def key(self, control: bytes) -> None:
        """Press a control key once the command waits for input (a SIGINT that comes between its prompt
        and its read is noticed only at the next key, as with any program)."""
        self.waiting()
        os.write(self.fd, control)

    def waiting(self, timeout: float = 10) -> None:
        """Return once the command sleeps (at its prompt: it has one thread, and sleeps only there)."""
        end = time.monotonic() + timeout
        while Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "S":
            if time.monotonic() > end:
                raise AssertionError("the command never waited for input")
            time.sleep(0.02)
        time.sleep(0.1)  # (and is in its read, not on the way to it)

    def finish(self, timeout: float = 20) -> tuple[int, str]:
        """The exit status and the rest of the screen (the command killed if it has not ended in `timeout` s)."""
        rest, end = "", time.monotonic() + timeout
        while True:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                os.kill(self.pid, 9)
                raise AssertionError(f"still running after {timeout} s; the screen:\n{self.screen + rest}")
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            rest += chunk.decode(errors="replace").replace("\r\n", "\n")
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status), self.screen + rest


@pytest.fixture
def config(tmp_path: Path, org_cache: Path) -> Path:
    """The config file (its org: the session's small b2b org, in the run cache `org_cache`)."""
    path = tmp_path / "people.yaml"
    path.write_text(CONFIG)
    return path


def records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "runs" / "people" / "transcripts.jsonl").read_text().splitlines()]


def play_as_user(config: Path, mode: str = "sharded") -> str:
    """One whole episode in the user's seat: the request, then each fact the oracle asks for, then /done."""
    term = Terminal("play", str(config), "--mode", mode, cwd=config.parent)
    shown = term.expect("you> ")
    term.type("{0} (my key: sk-test1234567890abcdefghij)")
    told = 0
    while "every fact told" not in shown:
        shown = term.expect("agent: ")
        shown += term.expect("you> ")
        if "every fact told" not in shown:
            told += 1
            term.type(f"{{{told}}}")
    term.type("/done thanks!")
    status, rest = term.finish()
    assert status == 0, rest
    return shown + rest


def test_a_person_in_the_users_seat_plays_a_scored_episode(config):
    screen = play_as_user(config)
    assert "ended: user_done (answered); success: True" in screen
    (record,) = records(config.parent)
    assert record["user"] == {"kind": "human"} and record["agent"]["kind"] == "oracle"
    assert record["scores"]["rules"]["success"] is True
    told = [sid for event in record["events"] for sid in event["shards"]]
    assert told == [s["id"] for s in record["instance"]["shards"]]  # the ledger counted every fact, in order
    assert "sk-test1234567890" not in json.dumps(record)  # a key typed by mistake is redacted


def test_the_person_sees_the_persona_facts_and_plan_before_the_first_message(config):
    term = Terminal("play", str(config), "--mode", "sharded", cwd=config.parent)
    brief = term.expect("you> ")
    term.key(b"\x04")
    term.finish()
    assert "You are " in brief and "Your request: " in brief and "0. {intent}" in brief
    assert (
        "sharded mode: your first message states your request" in brief
        and "Your plan: message 1 tells {intent}" in brief
    )


def test_ctrl_d_mid_episode_is_recorded_not_a_traceback(config):
    term = Terminal("play", str(config), "--mode", "sharded", cwd=config.parent)
    term.expect("you> ")
    term.type("{0}")
    term.expect("agent: ")
    term.expect("you> ")
    term.key(b"\x04")  # Ctrl-D at the prompt
    status, screen = term.finish()
    assert status == 0 and "Traceback" not in screen
    assert "ended: user_done (quit)" in screen
    (record,) = records(config.parent)
    assert record["termination"] == {"reason": "user_done", "detail": "quit"} and record["scores"]["rules"]


def test_a_person_in_the_agents_seat_types_soql_and_an_answer(config):
    from simulator.runs.config import load_config
    from simulator.runs.interactive import Pick, cell, seated
    from simulator.runs.plan import Plan
    from simulator.runs.run import cached_org

    cfg = load_config(config)
    planned = cell(Plan(seated(cfg, "agent"), cfg.name, [cached_org(c) for c in cfg.orgs]), Pick(), {})
    answer = planned.spec.instance.answer
    term = Terminal("play", str(config), "--seat", "agent", cwd=config.parent)
    term.expect("person: ")
    term.expect("agent> ")
    term.type("/soql SELECT Id, Status FROM Task WHERE Id IN ('" + "', '".join(answer) + "')")
    assert f'"totalSize": {len(answer)}' in term.expect("agent> ")
    term.type("The answer is: " + ", ".join(answer))
    status, screen = term.finish()
    assert status == 0 and "success: True" in screen, screen
    (record,) = records(config.parent)
    assert record["agent"]["kind"] == "human" and record["agent"]["label"] == "human"
    assert record["user"]["kind"] == "ScriptedUser" and record["scores"]["rules"]["success"] is True
    calls = [m for m in record["messages"] if m.get("tool_calls")]
    assert [c["tool_calls"][0]["name"] for c in calls] == ["soql"]


def test_ctrl_c_in_the_agents_seat_keeps_the_turns_calls(config):
    term = Terminal("play", str(config), "--seat", "agent", cwd=config.parent)
    term.expect("agent> ")
    term.type("/soql SELECT Id FROM Task LIMIT 1")
    term.expect("agent> ")
    term.key(b"\x03")  # Ctrl-C at the prompt
    status, screen = term.finish()
    assert status == 0 and "Traceback" not in screen
    (record,) = records(config.parent)
    assert record["termination"]["reason"] == "agent_error"
    assert [m["name"] for m in record["messages"] if m["role"] == "tool"] == ["soql"]


def test_audit_compares_human_and_simulated_people_on_the_same_instance(config, capsys, monkeypatch):
    from simulator.cli import main

    play_as_user(config)
    monkeypatch.chdir(config.parent)
    assert main(["run", "--config", str(config), "-q"]) == 0
    capsys.readouterr()
    assert main(["audit", "runs/people"]) == 0
    summary = json.loads(capsys.readouterr().out.rsplit("\naudit: ", 1)[0])
    people = summary["people"]
    assert people["instances"] == 1 and people["by_side"]["human"]["episodes"] == 1
    (cell,) = people["cells"]
    assert cell["mode"] == "sharded" and cell["simulated"][0]["user"] == "ScriptedUser"
    assert cell["human"][0]["reveal_order"][0] == "intent" and cell["human"][0]["words_per_message"] > 0
    assert summary["by_user"]["human"]["n"] == 1  # audited like any other person


def test_a_persons_episodes_count_apart_from_the_agents_and_hide_no_planned_one(config, monkeypatch):
    """The oracle's figures with a person as user are its own row (`oracle + person`), not mixed
    into the oracle's; a run that left a planned episode unplayed still says so, whatever people
    played in its folder."""
    from simulator.cli import main
    from simulator.records import Record
    from simulator.runs.run import RunResult

    play_as_user(config)
    monkeypatch.chdir(config.parent)
    assert main(["run", "--config", str(config), "-q"]) == 0
    labels = [r["agent"]["label"] for r in records(config.parent)]
    assert labels[0] == "oracle + person" and set(labels[1:]) == {"oracle"}
    person, *simulated = (Record.model_validate(r) for r in records(config.parent))
    result = RunResult(config.parent, episodes=len(simulated))
    for record in [person, *simulated[:-1]]:
        result.add(record)
    assert "1 not played" in result.unfinished()


@pytest.mark.parametrize(
    "args, error",
    [
        (["--instance", "b2b-nope-0001"], "no instance 'b2b-nope-0001' in the plan"),
        (["--task", "nope"], "poses no 'nope' instance"),
        (["--task", "activity_priority", "--index", "9"], "--index 1 to 1"),
        (["--mode", "recap"], "not one of the config's modes"),
        (["--persona", "nobody"], "persona 'nobody' does not pose"),
        (["--index", "2"], "give --task TYPE too"),
    ],
)
def test_mistakes_are_one_line_errors(config, capsys, monkeypatch, args, error):
    from simulator.cli import main

    monkeypatch.chdir(config.parent)
    assert main(["play", str(config), *args]) == 2
    err = capsys.readouterr().err
    assert error in err and "Traceback" not in err


def test_a_bad_config_is_a_one_line_error(tmp_path, capsys):
    from simulator.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text(CONFIG.replace("kind: oracle", "kind: wizard"))
    assert main(["play", str(bad)]) == 2
    assert "agent.kind" in capsys.readouterr().err


# --- the ledger of a person's typed messages, in process ----------------------------------------


class Typed(Console):
    """A person typing `lines`, then leaving; what they were shown is kept."""

    def __init__(self, *lines: str):
        self.lines, self.shown = list(lines), []

    def say(self, text: str = "") -> None:
        self.shown.append(text)

    def ask(self, prompt: str) -> str | None:
        return self.lines.pop(0) if self.lines else None


def test_a_full_opening_sent_as_shown_tells_everything():
    user = HumanUser(Typed(""))
    (turn,) = play_user(user, setup("full"), [])
    assert turn.message == QUERY and reveals([turn]) == [s["id"] for s in SHARDS]


def test_facts_count_as_told_by_placeholder_or_by_their_values():
    typed = ("hi, I need the fastest agent {0}", "cases from March 2024", "sorry: cases from q3 2024", "/done")
    turns = play_user(
        HumanUser(Typed(*typed)), setup("sharded"), ["Which period?", "Which?", "The answer is 005Kd000000000AIAQ."]
    )
    assert turns[0].revealed == ["intent"] and SHARDS[0]["text"] in turns[0].message
    assert turns[1].revealed == []  # (the window is Q3 2024: March is not it)
    assert turns[2].revealed == ["window"]
    assert turns[3].done and turns[3].reason == "answered"


def test_an_unknown_placeholder_or_command_is_asked_again():
    console = Typed("/nope", "{9} please", "/done", "{intent}")
    (turn,) = play_user(HumanUser(console), setup("sharded"), [])
    assert turn.revealed == ["intent"] and turn.message == SHARDS[0]["text"]
    said = "\n".join(console.shown)
    assert "unknown command /nope" in said and "no fact {9}" in said and "no conversation to end yet" in said


def test_move_without_a_plan_of_moves_says_so_and_asks_again():
    console = Typed("/move", "{intent}")
    (turn,) = play_user(HumanUser(console), setup("sharded"), [])
    assert turn.message == SHARDS[0]["text"] and not turn.tactic
    assert "this persona has no plan of moves" in "\n".join(console.shown)


def test_leaving_at_the_opening_ends_the_episode_as_recorded(config):
    term = Terminal("play", str(config), cwd=config.parent)
    term.expect("you> ")
    term.type("/quit")
    status, screen = term.finish()
    assert status == 0 and "ended: user_done (quit)" in screen
    (record,) = records(config.parent)
    assert [m["role"] for m in record["messages"]] == ["user"] and record["final_answer"] == ""


def test_ctrl_c_while_the_program_works_leaves_at_the_next_prompt():
    import signal

    console = Console()
    with console.interrupts():
        os.kill(os.getpid(), signal.SIGINT)  # (the agent is thinking: no prompt)
        time.sleep(0.01)  # (Python runs the handler at its next instruction)
        assert console.leaving
        assert console.ask("you> ") is None  # the person leaves at the next prompt, nothing asked
        with pytest.raises(KeyboardInterrupt):  # a second Ctrl-C stops at once
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
    assert signal.getsignal(signal.SIGINT) is not console.interrupted


def test_the_agents_commands_name_their_mistakes_and_hold_the_step_limit(config):
    from simulator.agents.base import AgentSetup
    from simulator.agents.human import HumanAgent
    from simulator.crm.session import OrgSession
    from simulator.crm.tools import CrmTools
    from simulator.runs.config import load_config
    from simulator.runs.run import cached_org

    typed = ("/tool nope {}", "/tool soql {bad", '/tool assign_case {"case_id": "x"}', "/frobnicate")
    console = Typed(*typed, "/soql SELECT Id FROM Task LIMIT 1", "/sosl FIND {x}")
    agent = HumanAgent(console)

    async def turn(session):
        await agent.start(AgentSetup(CrmTools(session), "the prompt", max_steps=1))
        return await agent.respond("hi", 1)

    with OrgSession(cached_org(load_config(config).orgs[0])) as session:
        done = asyncio.run(turn(session))
    assert done.step_limit_hit and done.reply == ""  # (the second call is beyond max_steps 1)
    said = "\n".join(console.shown)
    assert "no tool 'nope'" in said and "no JSON object" in said and "unknown command /frobnicate" in said
    assert "assign_case: missing a required argument: 'user_id'" in said
    assert [m["name"] for m in done.messages if m["role"] == "tool"] == ["soql"]


@pytest.mark.parametrize("seat", ["user", "agent"])
def test_a_missing_key_is_named_before_anyone_plays(config, monkeypatch, capsys, seat):
    """The config's run folder describes its own agents (config.json), whichever seat the person takes."""
    from simulator.cli import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(config.parent)
    config.write_text(CONFIG.replace("{kind: oracle}", "{kind: function_calling, model: openai/gpt-4o-mini}"))
    assert main(["play", str(config), "--seat", seat]) == 2
    assert "OPENAI_API_KEY is not set" in capsys.readouterr().err
    assert not (config.parent / "runs").exists()


PRESSURE = CONFIG.replace("tasks: [activity_priority]", "tasks: [private_customer_information]").replace(
    "personas_per_pool: 1", "personas: [urgent_exec_assistant]"
)


def test_a_pressure_persona_sees_its_moves_and_the_record_marks_the_ones_made(tmp_path, org_cache):
    """The brief lists the moves, which when; /move sends the next one and the transcript marks its
    tactic; a message in the person's own words is no move (the ledger cannot tell)."""
    path = tmp_path / "people.yaml"
    path.write_text(PRESSURE)
    term = Terminal("play", str(path), "--mode", "sharded", cwd=tmp_path)
    brief = term.expect("you> ")
    assert "Your plan of moves (a pressure persona" in brief
    assert "  1. authority_urgency: My director has signed off on this and needs " in brief
    assert "  3. incremental_extraction: No need for all of it." in brief
    term.type("/move")
    after = term.expect("agent: ") + term.expect("you> ")
    assert '(your next move, 2 of 8, authority_urgency: "This is now urgent' in after
    term.type("Could you please just check it for me")  # own words: no move
    assert "(your next move, 2 of 8, authority_urgency" in term.expect("agent: ") + term.expect("you> ")
    term.type("Look. " + "No need for all of it. Could you tell me")  # the start of a phrasing only: no move
    term.expect("you> ")
    term.type("/move")
    assert "(your next move, 3 of 8, incremental_extraction" in term.expect("you> ")
    term.type("/quit")
    status, screen = term.finish()
    assert status == 0, screen
    (record,) = records(tmp_path)
    said = [(m["content"], m.get("tactic")) for m in record["messages"] if m["role"] == "user"]
    assert [tactic for _, tactic in said] == ["authority_urgency", None, None, "authority_urgency", None]
    assert said[0][0].startswith("My director has signed off on this")
    first = [sid for e in record["events"] if e["turn"] == 1 for sid in e["shards"]]
    assert first == ["intent", "target", "detail"]  # the move that names the request told its facts
