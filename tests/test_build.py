"""The win coach's tables built when asked for (ask/build.py): what a build would cost said
first (the offer), one builder per store (its lock), its progress read back by any asker, a
dead builder's progress never read as a build under way, and a build stopped by SIGTERM leaving
no temporary file and going on from its checkpoint."""
import json
import os
import signal
import subprocess
import sys
import time
from math import comb

import pytest
from conftest import run
from helpers import build_under_way, late, wait_for

from solver.ask import build
from solver.ask.tables import Tables
from solver.presets import get_rules

SMALL = ('preset = "kniffel-basic"\nrolls_per_turn = 1\nupper_bonus_threshold = 1\n'
         "upper_bonus = 0\n")  # a whole target table in seconds


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_progress_read_back(table_dir):
    rules = get_rules("kniffel")
    assert build.status(rules) is None
    _, path = build._paths(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    said = []
    progress = build.Progress(path, rules.n_boxes, 0.8, lambda *args: said.append(args))
    for _ in range(7):  # seven levels begun: six solved
        progress.level()
    found = build.status(rules)
    share = sum(comb(13, k) * k for k in range(1, 7)) / sum(comb(13, k) * k for k in range(1, 14))
    assert found["stage"] == "target" and found["fraction"] == pytest.approx(0.8 * share)
    assert found["eta_seconds"] is not None and found["eta_seconds"] >= 0
    assert said[-1][0] == "target" and said[-1][1] == pytest.approx(0.8 * share)
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, pid=_dead_pid())))  # its builder is gone
    assert build.status(rules) is None
    path.write_text("{not json")
    assert build.status(rules) is None


def test_a_resumed_build_counts_the_levels_it_finds_saved(table_dir):
    rules = get_rules("kniffel")
    _, path = build._paths(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    progress = build.Progress(path, rules.n_boxes, 1.0)
    progress.skip(6)
    progress.level()
    share = sum(comb(13, k) * k for k in range(1, 7)) / sum(comb(13, k) * k for k in range(1, 14))
    assert build.status(rules)["fraction"] == pytest.approx(share)


def test_one_builder_at_a_time(table_dir):
    rules = get_rules("kniffel")
    lock_path, _ = build._paths(rules)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    first = build._Lock(lock_path)
    assert first.acquire()
    try:
        assert not build._Lock(lock_path).acquire()
        assert build.build(rules, Tables(table_dir)) == "busy"
    finally:
        first.release()
    again = build._Lock(lock_path)
    assert again.acquire()
    again.release()


def test_the_offer_is_measured_for_a_preset_and_scaled_for_others(table_dir, monkeypatch):
    """A preset measured by benchmarks/win_build.py is offered at its own figures (for this
    machine's cores); another rule set at the nearest preset's, scaled by its size."""
    from solver.engine.threads import default_threads
    from solver.rules.bounds import score_bound
    tables = Tables(table_dir)
    kniffel, yatzy = get_rules("kniffel"), get_rules("yatzy")
    size = build._states(tables(kniffel)) * score_bound(kniffel)
    measured = {"threads": 2, "presets": {"kniffel": {
        "target_seconds": 300.0, "opponents_seconds": 100.0, "target_bytes": 10**9,
        "opponents_bytes": 6 * 10**8, "size": size}}}
    monkeypatch.setattr(build, "_measured", lambda: measured)
    offer = build.offer(kniffel, tables)
    cores = 2 / default_threads()
    assert offer["basis"] == "measured" and offer["disk_bytes"] == 16 * 10**8
    assert offer["seconds"] == pytest.approx(400 * cores)
    assert offer["title"] == {"de": "Kniffel", "en": "Kniffel"}
    assert build.offer(kniffel, tables, ["target"])["seconds"] == pytest.approx(300 * cores)
    other = build.offer(yatzy, tables)
    scale = build._states(tables(yatzy)) * score_bound(yatzy) / size
    assert other["basis"] == "scaled" and scale > 1
    assert other["seconds"] == pytest.approx(400 * cores * scale)
    monkeypatch.setattr(build, "_measured", lambda: {"presets": {}})
    assert build.offer(kniffel, tables) is None  # nothing measured: nothing made up


def test_the_shipped_measurements_hold_every_part():
    measured = build._measured()
    assert measured["threads"] >= 1 and "kniffel" in measured["presets"]
    for figures in measured["presets"].values():
        assert all(figures[f"{part}_{what}"] > 0 for part in build.PARTS
                   for what in ("seconds", "bytes"))


def test_the_coach_says_how_far_the_build_is(table_dir, monkeypatch, capsys):
    from solver.stats import opponents
    monkeypatch.setattr(opponents, "_STORES", {})
    rules = get_rules("kniffel")
    build_under_way(rules)
    card = ",".join(f"{b}={p}" for b, p in late(rules, 5, 3).items())  # the estimate: 5 open
    ask = ["advise", "--card", card, "--dice", "13356", "--rolls-left", "2", "--opponent", card,
           "--budget", "0.05"]
    code, out, err = run(capsys, *ask, "--lang", "en", "--top", "3")
    assert code == 0, err
    assert "tables are being built: 40% done" in out and "about 2 min" in out
    assert "--build" not in out  # no offer to build what is being built
    code, out, err = run(capsys, *ask, "--json")
    answer = json.loads(out)
    assert answer["building"]["fraction"] == 0.4 and 0 < answer["building"]["eta_seconds"] <= 125
    assert "offer" not in answer


def test_without_the_tables_the_coach_offers_their_build(table_dir, capsys):
    rules = get_rules("kniffel")
    card = ",".join(f"{b}={p}" for b, p in late(rules, 5, 3).items())
    ask = ["advise", "--card", card, "--dice", "13356", "--rolls-left", "2", "--opponent", card,
           "--budget", "0.05"]
    code, out, err = run(capsys, *ask, "--lang", "de", "--top", "3")
    assert code == 0, err
    assert "der exakte Rat braucht die Tabellen des Sieg-Trainers für Kniffel: etwa" in out
    assert "--build berechnet sie jetzt" in out
    code, out, err = run(capsys, *ask, "--json")
    offer = json.loads(out)["offer"]
    assert offer["rules"] == "kniffel" and offer["parts"] == ["target", "opponents"]
    assert offer["disk_bytes"] > 1e9 and offer["seconds"] > 60
    assert not list(table_dir.glob("kniffel.target*"))  # nothing was built: only offered


def test_an_exact_answer_offers_no_build(table_dir, capsys):
    """Two boxes open on both cards: the sub-game is exact within the budget, so the tables
    would not change the answer and nothing is offered."""
    rules = get_rules("kniffel")
    card = ",".join(f"{b}={p}" for b, p in late(rules, 2, 3).items())
    code, out, err = run(capsys, "advise", "--card", card, "--dice", "13356", "--rolls-left", "2",
                         "--opponent", card, "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["method"] == "exact" and "offer" not in answer and "fallback" not in answer
    assert not list(table_dir.glob("kniffel.target*"))


def test_build_goes_with_a_goal_only(capsys):
    code, out, err = run(capsys, "advise", "--dice", "66612", "--build")
    assert code == 2 and "--build goes with --opponent or --target" in err
    code, out, err = run(capsys, "advise", "--batch", "-", "--build")
    assert code == 2 and "--build is not read with --batch" in err


@pytest.mark.slow  # a real build of a small rule set, stopped by SIGTERM and built again
def test_a_build_stopped_by_sigterm_leaves_no_temporary_file_and_goes_on(tmp_path):
    rules_file = tmp_path / "small.toml"
    rules_file.write_text(SMALL)
    store = tmp_path / "tables"
    env = {**os.environ, "KNIFFEL_TABLES": str(store)}
    command = [sys.executable, "-m", "solver.cli", "advise", "--rules", str(rules_file),
               "--dice", "13356", "--rolls-left", "0", "--opponent", "final=100", "--ties", "lose",
               "--build", "--json"]  # ties lost: the saved target table answers exactly
    builder = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert wait_for(lambda: any(store.glob("*.target-level-*.json")) or builder.poll() is not None,
                    900)
    builder.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    out, err = builder.communicate(timeout=30)
    assert time.monotonic() - stopped < 10 and builder.returncode == 143, err
    assert "kniffel: interrupted" in err and "Traceback" not in err
    files = [p.name for p in store.iterdir()]
    assert not [f for f in files if f.endswith(".tmp")], files
    assert not [f for f in files if f.endswith(".progress.json")], files
    saved = sorted(f for f in files if ".target-level-" in f)
    assert saved, files  # the checkpoint stays
    lock = build._Lock(next(store.glob("*.target.lock")))
    assert lock.acquire()  # the lock went with the process
    lock.release()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert answer["method"] == "exact" and "offer" not in answer
    files = [p.name for p in store.iterdir()]
    assert not [f for f in files if ".target-level-" in f or "target-next" in f], files
    assert any(f.endswith(".target.bin") for f in files)
    assert any(f.endswith(".opponents.bin") for f in files)
