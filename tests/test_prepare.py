"""The win tables built in the background (advice/win/prepare.py): one builder per store (its
lock), its progress read back as a share done and the time to go, a dead builder's progress
never read as a build under way, nothing half-written left by a killed one, and the coach
saying how far the build is (CLI and web)."""
import json
import os
import signal
import subprocess
import sys
import time
from math import comb

import pytest
from conftest import run
from helpers import build_under_way, late

from solver.advice.win import prepare
from solver.presets import get_rules


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_progress_read_back(table_dir):
    rules = get_rules("kniffel")
    assert prepare.status(rules) is None
    _, path = prepare._paths(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    progress = prepare.Progress(path, rules.n_boxes)
    for _ in range(7):  # seven levels begun: six solved
        progress.level()
    found = prepare.status(rules)
    share = sum(comb(13, k) * k for k in range(1, 7)) / sum(comb(13, k) * k for k in range(1, 14))
    assert found["stage"] == "target"
    assert found["fraction"] == pytest.approx(prepare.TARGET_SHARE * share)
    assert found["eta_seconds"] is not None and found["eta_seconds"] >= 0
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, pid=_dead_pid())))  # its builder is gone
    assert prepare.status(rules) is None
    path.write_text("{not json")
    assert prepare.status(rules) is None


def test_one_builder_at_a_time(table_dir):
    rules = get_rules("kniffel")
    lock_path, _ = prepare._paths(rules)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    first = prepare._Lock(lock_path)
    assert first.acquire()
    try:
        assert not prepare._Lock(lock_path).acquire()
        assert prepare.build(rules) == "busy"
    finally:
        first.release()
    again = prepare._Lock(lock_path)
    assert again.acquire()
    again.release()


def test_no_build_started_where_not_wanted(table_dir):
    assert os.environ.get(prepare.NO_PREPARE)  # conftest: no test starts a build by the way
    assert prepare.start([get_rules("kniffel")]) is None


def test_the_coach_says_how_far_the_build_is(table_dir, monkeypatch, capsys):
    from solver.advice.win import coach
    from solver.stats import opponents
    monkeypatch.setattr(coach, "_TARGETS", {})
    monkeypatch.setattr(opponents, "_STORES", {})
    rules = get_rules("kniffel")
    build_under_way(rules)
    card = ",".join(f"{b}={p}" for b, p in late(rules, 5, 3).items())  # the estimate: 5 open
    ask = ["advise", "--card", card, "--dice", "13356", "--rolls-left", "2", "--opponent", card,
           "--budget", "0.05"]
    code, out, err = run(capsys, *ask, "--lang", "en", "--top", "3")
    assert code == 0, err
    assert "being built in the background: 40% done" in out and "about 2 min" in out
    code, out, err = run(capsys, *ask, "--json")
    answer = json.loads(out)
    assert answer["building"]["fraction"] == 0.4 and 0 < answer["building"]["eta_seconds"] <= 125


@pytest.mark.slow  # a real builder, killed a few seconds into the target table (seconds)
def test_a_killed_builder_leaves_no_table(table_dir):
    from solver.engine.store import TableError
    from solver.engine.target.table import load_target_table
    rules = get_rules("kniffel")
    env = {**os.environ, "KNIFFEL_TABLES": str(table_dir)}
    env.pop(prepare.NO_PREPARE, None)
    builder = subprocess.Popen([sys.executable, "-m", "solver.advice.win.prepare", "kniffel"],
                               env=env, start_new_session=True)
    try:
        for _ in range(600):
            found = prepare.status(rules)
            if found is not None and found["fraction"] > 0:
                break
            time.sleep(0.1)
        assert found is not None and found["stage"] == "target"
    finally:
        os.killpg(builder.pid, signal.SIGKILL)
        builder.wait()
    assert prepare.status(rules) is None  # a dead builder's progress is no build under way
    with pytest.raises(TableError):
        load_target_table(rules)
    lock = prepare._Lock(prepare._paths(rules)[0])
    assert lock.acquire()  # the lock went with the killed process
    lock.release()


@pytest.mark.slow  # a web app of its own (its workers warm up first: seconds)
def test_the_web_advice_says_how_far_the_build_is(table_dir, monkeypatch):
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="starlette's test client needs httpx")
    from starlette.testclient import TestClient

    from solver.advice.win import coach
    from solver.stats import opponents
    from solver.web.app import create_app
    monkeypatch.setattr(coach, "_TARGETS", {})
    monkeypatch.setattr(opponents, "_STORES", {})
    rules = get_rules("kniffel")
    build_under_way(rules, stage="opponents", fraction=0.9, eta=30, elapsed=270)
    client = TestClient(create_app(table_dir), base_url="http://127.0.0.1",
                        headers={"content-type": "application/json"})
    card = late(rules, 5, 3)
    body = {"card": card, "dice": [1, 3, 3, 5, 6], "rolls_left": 2, "opponents": [{"card": card}],
            "budget": 0.05}
    answer = client.post("/api/advise", content=json.dumps(body).encode()).json()
    assert answer["method"] == "approximate"
    assert answer["building"]["stage"] == "opponents" and answer["building"]["fraction"] == 0.9
