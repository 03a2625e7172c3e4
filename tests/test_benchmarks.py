"""Every script in benchmarks/ runs at a tiny size and writes the figures it promises (into a
temporary folder, never benchmarks/results/), so that a refactor cannot break one silently.
No timing is asserted: only that the figures are there and make sense."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import load_script


def bench(monkeypatch, name, *args):
    """Run benchmarks/NAME.py's main() in this process with the command-line `args`."""
    script = load_script(name, "benchmarks")
    # by its name, for the worker processes a benchmark may start (they unpickle its functions)
    monkeypatch.setitem(sys.modules, script.__name__, script)
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *map(str, args)])
    script.main()
    return script


def read(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_advise_times_every_case_and_the_batch(monkeypatch, tmp_path, table_dir):
    out = tmp_path / "advise.json"
    bench(monkeypatch, "advise", "--rounds", 1, "--batch-lines", 5, "--no-target", "--out", out)
    result = read(out)
    this = result["results"]["this"]
    assert set(this) == {"points_text", "points_json", "win_json", "batch"}
    assert all(0 < case["wall_min_s"] <= case["wall_median_s"] for case in this.values())
    assert this["batch"]["lines_per_s"] > 0 and result["batch_lines"] == 5
    assert result["results"]["floor"]["import_numpy"]["wall_median_s"] > 0
    assert result["rounds"] == 1 and list(result["sources"]) == ["this"]


@pytest.mark.slow
def test_distribution_mean_is_the_table_value(monkeypatch, tmp_path):
    out = tmp_path / "distribution.json"
    bench(monkeypatch, "distribution", "--rules", "kniffel-basic", "--repeat", 0, "--out", out)
    entry = read(out)["presets"]["kniffel-basic"]
    assert abs(entry["mean_minus_table"]) < 1e-9
    assert 200 < entry["mean"] < 300 and entry["sd"] > 0 and entry["states"] > 0
    assert entry["first_call_seconds"] > 0 and entry["warm_seconds"] is None


@pytest.mark.slow
def test_duel_solves_and_advises(monkeypatch, tmp_path):
    """The first solve and the advice process (the warm solves and the simulation, --repeat 1
    and more, run the solver's own calls: tests/test_duel.py has them)."""
    out = tmp_path / "duel.json"
    bench(monkeypatch, "duel", "--no-cold", "--repeat", 0, "--out", out)
    result = read(out)
    assert 0 < result["states_solved"] <= result["states"] and "cold_seconds" not in result
    assert result["first_call_seconds"] > 0 and result["warm_seconds"] is None
    assert 0 < result["expected_score"] and result["advise_process"]["best_seconds"] > 0


@pytest.mark.slow
def test_duel_calibration_smoke_run_of_a_few_hundred_decisions(monkeypatch, tmp_path):
    """Self-play with the advice as users get it (few games per option): a few hundred
    decisions, each in one decile, the exact chances close to what happened."""
    out = tmp_path / "calibration.json"
    bench(monkeypatch, "duel_calibration", "--games", 6, "--rollouts", 16, "--processes", 1,
          "--out", out)
    summary = read(out)["2p"]["summary"]
    assert summary["games"] == 6 and summary["all"]["decisions"] >= 200
    for part in ("estimated", "exact"):
        assert sum(b["decisions"] for b in summary[part]["bins"]) == summary[part]["decisions"] > 0
    assert abs(summary["exact"]["mean_miss"]) < 0.2


@pytest.mark.slow
def test_duel_dense_builds_the_horizon_table_and_times(monkeypatch, tmp_path):
    out = tmp_path / "dense.json"
    bench(monkeypatch, "duel_dense", "--levels", 1, "--most", 5, "--repeat", 0, "--store",
          tmp_path / "store", "--out", out)
    result = read(out)
    assert [row["level"] for row in result["build"]] == [1]
    assert result["build"][0]["values"] == 3_500_000 and result["build"][0]["bytes"] > 14e6
    assert {row["chips_in_play"] for row in result["positions"]} == {2, 3, 4, 5}
    assert len(result["levels"]) == 29 and result["levels"][:2] == [0, 3_500_000]
    assert sum(result["levels"]) == 4 * _positions(28)
    reference = result["reference"]  # --repeat 0: first calls only
    assert reference["exact_seconds"] is None
    assert reference["exact_first_seconds"] > reference["dense_first_seconds"]


def _positions(top):
    """Positions of 2 players with 1..top chips in play, counted type by type (the most
    valuable first): a type may hold chips aside only while no more valuable plate does."""
    configs = [(p, a) for p in range(5) for a in range(5 - p) for _ in range(5 - p - a)]
    ways = {(0, False): 1}
    for _ in range(7):
        found = {}
        for (k, above), n in ways.items():
            for p, a in configs:
                if not (a and above) and k + p + a <= top:
                    key = (k + p + a, above or p > 0)
                    found[key] = found.get(key, 0) + n
        ways = found
    return sum(n for (k, _), n in ways.items() if k >= 1)


@pytest.mark.slow
def test_duel_picks_scores_the_estimated_decisions_of_a_game(monkeypatch, tmp_path):
    """One seeded greedy game: its estimated decisions scored against the greedy pick (the
    advice at few games per option, so quick)."""
    from solver.duel.multiplayer import advice
    monkeypatch.setattr(advice, "GAMES", 16)
    out = tmp_path / "picks.json"
    bench(monkeypatch, "duel_picks", "--games", 1, "--score", 32, "--out", out)
    result = read(out)
    assert result["games_per_option"] == 16 and result["decisions"] > 10
    assert 0 <= result["switched"] <= result["decisions"] and result["gain_se"] >= 0


def test_duel_multi_sizes_and_latency(monkeypatch, tmp_path):
    out = tmp_path / "duel_multi.json"
    bench(monkeypatch, "duel_multi", "--players", 2, "--repeat", 1, "--out", out)
    result = read(out)
    assert result["exact"] == []  # 2 players: the dense solver's, benchmarks/duel_dense.py
    assert [row["stage"] for row in result["latency"]] == ["start", "middle", "end"]
    assert result["latency"][-1]["exact"] and all(row["options"] for row in result["latency"])
    assert not result["latency"][0]["exact"] and result["latency"][0]["games_per_option"] > 0


def test_duel_tournament_plays_a_pairing(monkeypatch, tmp_path):
    out = tmp_path / "duel_tournament.json"
    bench(monkeypatch, "duel_tournament", "--games", 1, "--rollouts", 8, "--processes", 1,
          "--out", out)
    result = read(out)
    assert set(result["pairings"]) == {"2:0:greedy", "2:1:greedy"}
    for entry in result["pairings"].values():
        summary = entry["summary"]
        assert summary["games"] == 1 and 0 <= summary["win_share"] <= 1
        assert entry["decision_summary"]["decisions"] > 0
    assert result["advice"]["2p"]["games_per_option"] == 8


def test_first_run_finds_files_pip_did_not_install(tmp_path):
    """The venv install itself is not run here (it downloads); its check of the installed
    package and its process timer are."""
    script = load_script("first_run", "benchmarks")
    package = tmp_path / "solver"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "stray.npy").write_text("")
    info = tmp_path / "kniffel-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("solver/__init__.py,sha256=x,0\n")
    assert script.unrecorded_files(tmp_path) == ["solver/data/stray.npy"]
    assert script.site_packages(sys.executable, None).is_dir()
    wall, out, _ = script.timed([sys.executable, "-c", "print(7)"], None, tmp_path, "seven")
    assert out == "7\n" and wall > 0 and "seven" in script.CPU


@pytest.mark.slow
def test_opponent_distributions_match_afresh(monkeypatch, tmp_path, table_dir_with_opponents):
    """The store the session built (by the calls the script makes without a saved one)."""
    out = tmp_path / "opponent_distributions.json"
    bench(monkeypatch, "opponent_distributions", "--rules", "kniffel", "--samples", 1,
          "--most-open", 6, "--out", out)
    result = read(out)["results"]["kniffel"]
    assert result["store_build_seconds"] is None and result["store_states"] > 0
    assert list(result["by_open"]) == [str(n) for n in range(1, 7)]  # from the store from 5 on
    assert all(entry["max_abs_diff"] < 1e-9 for entry in result["by_open"].values())


def test_solve_summary_goes_where_it_is_told(monkeypatch, tmp_path):
    readme = tmp_path / "README.md"
    script = bench(monkeypatch, "solve", "--summary-only", "--readme", readme)
    text = readme.read_text()
    results = json.loads((script.HERE / "results" / "solve.json").read_text())
    assert text.startswith("# Benchmarks") and text.count("<!-- results:end -->") == 1
    assert all(f"| `{name}` |" in text for name in results["presets"])


@pytest.mark.slow
def test_solve_measures_every_step_of_a_preset(monkeypatch, tmp_path, table_dir):
    """benchmarks/solve.py over solver.bench.run_suite: every step, two rounds keeping the best."""
    from solver.bench import results_table
    out, readme = tmp_path / "solve.json", tmp_path / "README.md"
    bench(monkeypatch, "solve", "--presets", "kniffel-basic", "--repeat", 1, "--batch-lines", 40,
          "--games", 100, "--rounds", 2, "--no-cold", "--out", out, "--readme", readme)
    results = read(out)
    entry = results["presets"]["kniffel-basic"]
    assert results["settings"] == {"repeat": 1, "batch_lines": 40, "games": 100, "cold": False,
                                   "rounds": 2}
    assert entry["states"] == 357_632 and entry["batch"]["lines"] == 40
    assert entry["expected_score"] == pytest.approx(245.8707745, abs=1e-6)
    assert [p["open_boxes"] for p in entry["scaling"]] == list(range(1, 14))
    assert entry["rounds"] == 2 and len(entry["warm_all"]) == 2
    assert (entry["warm_seconds"] == min(entry["warm_all"])
            and entry["advise_process"]["best_seconds"] > 0)
    for strategy in ("optimal", "greedy"):
        sim = entry["simulate"][strategy]
        assert sim["games"] == 100 and sim["games_per_second"] > 0 and sim["first_call_seconds"] > 0
    # the games really were played: 100 games (sd about 40, so 4 for the mean) put the optimal
    # mean within a few points of the solved 245.87, and greedy play (about 145) far below it
    assert abs(entry["simulate"]["optimal"]["mean_score"] - entry["expected_score"]) < 20
    assert entry["simulate"]["greedy"]["mean_score"] < entry["expected_score"] - 40
    text = results_table(results)
    assert "357,632" in text and "simulate optimal" in text and "in each of 2 rounds" in text
    assert "| `kniffel-basic` |" in readme.read_text()


def test_suite_reads_pytest_counts():
    script = load_script("suite", "benchmarks")
    summary, counts = script.pytest_counts("....\n"
                                           "12 passed, 1 failed, 3 skipped, 2 errors in 9.1s\n")
    assert summary == "12 passed, 1 failed, 3 skipped, 2 errors in 9.1s"
    assert counts == {"passed": 12, "failed": 1, "skipped": 3, "errors": 2}
    assert script.pytest_counts("") == ("", {})
    assert script.pytest_counts("3 passed, 2 xfailed in 1s")[1] == {"passed": 3, "xfailed": 2}


def test_target_sub_game(monkeypatch, tmp_path):
    """The whole target table takes minutes: its sub-game mode, on a card with 2 open boxes."""
    out = tmp_path / "target.json"
    bench(monkeypatch, "target", "--rules", "kniffel", "--threads", 1, "--sub-game", 2,
          "--out", out)
    entry = read(out)["sub_games"]["kniffel/2"]
    assert entry["open_boxes"] == 2 and entry["opponent_open_boxes"] == 2
    assert entry["tie_break"]["entries"] > 0 and entry["chance_only"]["entries"] > 0
    assert entry["win_turn_start_method"] == "exact"
    assert entry["win_turn_start_seconds"] > 0 and entry["win_turn_start_upper_open_seconds"] > 0


def test_target_level(monkeypatch, tmp_path):
    out = tmp_path / "target_level.json"
    bench(monkeypatch, "target_level", "--open", 3, "--level", 2, "--repeat", 1, "--out", out)
    result = read(out)
    assert (result["open"], result["level"], result["threads"]) == (3, 2, 1)
    assert result["columns"] > 0
    for kind in ("pair", "chance_only", "final_only"):
        assert result[kind]["seconds"] > 0 and result[kind]["us_per_column"] > 0


def test_web_answers_advice_and_game_steps(monkeypatch, tmp_path):
    out = tmp_path / "web.json"
    bench(monkeypatch, "web", "--requests", 3, "--out", out)
    result = read(out)
    assert result["advise_warm"]["requests"] == 3 and result["game_step_warm"]["requests"] == 3
    assert result["first_advise_seconds"] > 0 and result["rules"] == "kniffel"


@pytest.mark.slow
def test_web_load_and_liveness(monkeypatch, tmp_path):
    load, live = tmp_path / "web_load.json", tmp_path / "web_liveness.json"
    bench(monkeypatch, "web", "--load", 1, "--clients", 2, "--out", load)
    result = read(load)
    assert result["requests"] > 0 and result["errors"] == 0 and result["clients"] == 2
    bench(monkeypatch, "web", "--liveness", 2, "--out", live)
    result = read(live)
    assert result["info_while_busy"]["requests"] == 2 and result["page_while_busy"]["requests"] == 2
    assert 0 < result["sigterm_to_exit_seconds"] < 30 and result["busy_at_sigterm"] == 1


@pytest.mark.slow  # a real server and three scenarios against it
def test_web_attack_writes_what_each_scenario_got(monkeypatch, tmp_path):
    out = tmp_path / "web_attack.json"
    bench(monkeypatch, "web_attack", "--burst", 5, "--slow", 10, "--slow-seconds", 2,
          "--soak", 2, "--clients", 2, "--soak-slow", 5, "--out", out)
    result = read(out)
    burst, slow, soak = result["burst"], result["slow_body"], result["soak"]
    assert burst["requests"] == burst["answered"] == 5 and burst["reset"] == 0
    assert slow["info_during_attack"]["requests"] > 0 and slow["connections"] == 10
    assert set(slow["info_during_attack"]) >= {"ok_200", "busy_503", "reset", "p50_ms", "p95_ms"}
    assert soak["requests"] > 0 and soak["info_during_soak"]["requests"] > 0
    assert result["server_alive"] and result["server_log_tracebacks"] == 0


def test_web_and_web_load_import_one_way():
    """web.py imports web_load.py (its load and liveness runs, the shared helpers), never back."""
    folder = Path(__file__).resolve().parent.parent / "benchmarks"
    assert "from web_load import" in (folder / "web.py").read_text()
    assert "import web\n" not in (folder / "web_load.py").read_text()
    assert "from web import" not in (folder / "web_load.py").read_text()


@pytest.mark.slow
def test_win_cost_writes_its_points_and_fit_elsewhere(monkeypatch, tmp_path):
    model, out = tmp_path / "win_cost_points.json", tmp_path / "win_cost.json"
    bench(monkeypatch, "win_cost", "--most-open", 3, "--opponent-most-open", 6, "--samples", 1,
          "--model", model, "--out", out)
    points, result = read(model), read(out)
    assert [n for n, _ in points["sub_game"]] == [1, 2, 3]
    assert [k for k, _ in points["opponent"]] == list(range(1, 7))
    assert set(result["fit"]) == {"sub_game", "opponent"}
    assert set(result["fit"]["opponent"]) == {"constant", "a", "b"}


@pytest.mark.slow
def test_win_latency_late_round(monkeypatch, tmp_path, table_dir_with_opponents):
    out = tmp_path / "win_latency.json"
    bench(monkeypatch, "win_latency", "--players", 2, "--round", 11, "--out", out)
    row = read(out)["results"]["kniffel/2p"]["11"]
    assert row["open_boxes"] == 3 and row["method"] in ("exact", "approximate")
    assert row["warm_seconds"] > 0 and row["process_seconds"] > 0


@pytest.mark.slow
def test_win_loss_one_position(monkeypatch, tmp_path, table_dir_with_opponents):
    out = tmp_path / "win_loss.json"
    bench(monkeypatch, "win_loss", "--positions", 1, "--rules", "kniffel", "--players", 2,
          "--sub-games", "--b-positions", 0, "--out", out)
    result = read(out)
    case = result["results"]["kniffel/2p"]
    assert case["positions"] == 1 and set(case["losses_pp"]) == {"a", "c", "points"}
    assert all(loss["mean"] >= -1e-9 for loss in case["losses_pp"].values())
    assert (tmp_path / "positions_win_loss.json").is_file()


END_GAME = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_kind=20,four_kind=0," \
           "full_house=25,small_straight=30,large_straight=40"


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["budget", "approximate"])
def test_win_tournament_from_an_end_game_card(monkeypatch, tmp_path, table_dir_with_opponents,
                                              policy):
    out = tmp_path / "win_tournament.json"
    bench(monkeypatch, "win_tournament", "--rules", "kniffel", "--players", 2, "--seat", 1,
          "--games", 3, "--policy", policy, "--start-card", END_GAME, "--out", out)
    [(key, result)] = read(out).items()
    assert key.startswith(f"kniffel/2p/seat1/{policy}/from ones=3")
    assert result["games"] == 3 and 0 <= result["win_share"] <= 1
    # 213 on the card
    assert sum(result["methods"].values()) > 0 and result["mean_score_seat"] > 213


def test_every_benchmark_runs_in_a_test():
    """Each script in benchmarks/ is run by name in this file or in test_coach_choices.py;
    web_load.py is the load and liveness half of web.py, run through it."""
    here = Path(__file__).resolve().parent
    text = (here / "test_benchmarks.py").read_text() + (here / "test_coach_choices.py").read_text()
    benchmarks = here.parent / "benchmarks"
    assert "from web_load import" in (benchmarks / "web.py").read_text()
    missing = [p.stem for p in sorted(benchmarks.glob("*.py"))
               if f'"{p.stem}"' not in text and p.stem != "web_load"]
    assert not missing, f"benchmarks without a smoke test: {missing}"


def test_roofline_counts_the_kernels_work():
    """benchmarks/roofline.py's counts, worked by hand: a turn of 3 rolls has 2 keep stages; a
    stage averages the 210 keeps of fewer than 5 dice (5 adds and a division each: 6 loads, a
    store) and takes the best over the 1,260 sub-keep edges (a max, 2 loads and a store each);
    the turn's start weights the 252 rolls (a multiply and an add, a load each)."""
    script = load_script("roofline", "benchmarks")
    assert script._widget_counts(3) == (2 * (210 * 6 + 1260) + 2 * 252,
                                        2 * (210 * 6 + 1260 * 2) + 252, 2 * (210 + 1260))
    assert script._widget_counts(1) == (2 * 252, 252, 0)  # one roll: only the weighting
    levels = {e["open_boxes"]: e for e in script.level_counts("kniffel-basic")}
    assert [levels[k]["sets"] for k in (1, 2, 13)] == [13, 78, 1]
    # the empty card: one column (no aux yet, upper total 0); its plane and the 13 above it
    assert levels[13]["columns"] == 1 and levels[13]["plane_bytes"] == 14 * 64 * 8
    machine = {"threads": 2, "stream_gb_s": 10.0, "cache_gb_s": 100.0, "peak_gflop_s": 50.0}
    result = script.roofline("kniffel-basic", [(k, 0.01 * k) for k in range(1, 14)], machine)
    assert result["total"]["seconds"] == pytest.approx(0.13)
    first = result["levels"][0]
    assert first["roofline_seconds"] == max(first["flops"] / 50e9, first["plane_bytes"] / 10e9,
                                            first["row_bytes"] / 100e9)
    assert "| 13 | 1 |" in "\n".join(script.summary_lines(result))


def test_coach_paired_summary(tmp_path, capsys):
    # the summary of saved parts (playing needs the whole game's target table: minutes to build),
    # worked by hand: the coach sits in seat 1 of 2
    script = load_script("coach_paired", "benchmarks")
    parts = tmp_path / "parts"
    parts.mkdir()
    part = {"first": 0, "games": 3, "load_average": 1.0,
            "seconds": {"compiled": 0.3, "budget": 6.0},
            "compiled": [[200, 210], [220, 210], [230, 230]],  # shares 1, 0, 0.5
            "budget": [[200, 190], [220, 225], [230, 230]],  # shares 0, 1, 0.5
            "decisions": [[[1, 2, "keep:66", "keep:66", "approximate"],
                           [1, 0, "box:sixes", "box:fives", "exact"]],
                          [[14, 1, "stop", "keep:5", "exact"]], []]}
    (parts / "0000000_3.json").write_text(json.dumps(part))
    out = tmp_path / "paired.json"
    script.main(["--games", "3", "--parts", str(parts), "--summary-only", "--out", str(out)])
    [(key, result)] = read(out).items()
    assert key == "yatzy_2p_seat1_seed24_budget1"
    assert result["compiled_coach"]["win_share"] == pytest.approx(0.5)
    assert result["budget_coach"]["win_share"] == pytest.approx(0.5)
    d = np.array([-1.0, 1.0, 0.0])  # budget - compiled, game by game
    assert result["difference"] == pytest.approx(0.0)
    assert result["difference_se"] == pytest.approx(d.std(ddof=1) / np.sqrt(3))
    assert result["decisions"] == 3 and result["decisions_differ"] == 2
    assert result["games_with_a_different_choice"] == 2 and result["games_same_scores"] == 1
    assert result["by_kind"]["box"] == {"decisions": 1, "differ": 1, "share": 1.0}
    assert result["by_kind"]["keep, 2 rolls left"]["differ"] == 0
    assert result["by_method"]["exact"]["differ"] == 2 and result["by_round"]["14"]["differ"] == 1
    assert result["seconds_per_game"]["budget"] == pytest.approx(2.0)
    where = result["by_where_they_part"]
    assert where["exact only"]["games"] == 2 and where["exact only"]["difference"] == 0.0
    assert where["the same choices"] == {"games": 1, "difference": 0.0, "se": None}
    lines = load_script("win_report").paired_lines({key: result})
    assert "| 3 (reduced) | 50.00% | 50.00% | +0.00 pp (± 57.74) |" in "\n".join(lines)


@pytest.mark.slow  # a whole (small) build: the target table and the opponents' store (a minute)
def test_win_build_measures_a_small_rule_set(monkeypatch, tmp_path):
    """benchmarks/win_build.py builds the win coach's tables of a rule set in a store of its
    own and writes what the build offer reads: seconds and bytes of each part, the size the
    offer scales by, and nothing left behind (no temporary file, checkpoint, lock or progress
    file)."""
    rules = tmp_path / "small.toml"
    rules.write_text('preset = "kniffel-basic"\nrolls_per_turn = 1\nupper_bonus_threshold = 1\n'
                     "upper_bonus = 0\n")
    model, out = tmp_path / "win_build_model.json", tmp_path / "win_build.json"
    bench(monkeypatch, "win_build", "--rules", rules, "--threads", 1, "--model", model,
          "--out", out)
    [(name, figures)] = read(out)["presets"].items()
    assert name == str(rules) and figures["result"] == "built"
    assert figures["target_seconds"] > 0 and figures["opponents_seconds"] > 0
    assert figures["target_bytes"] > 1e6 and figures["opponents_bytes"] > 1e5
    assert figures["size"] == figures["states"] * figures["score_bound"] > 0
    assert figures["leftover_files"] == []
    saved = read(model)
    assert saved["threads"] == 1 and saved["presets"][str(rules)]["size"] == figures["size"]


def test_history_times_the_report_of_a_large_history(monkeypatch, tmp_path):
    out = tmp_path / "history.json"
    bench(monkeypatch, "history", "--games", 40, "--repeat", 1, "--out", out)
    result = read(out)
    assert result["games"] == 40 and result["games_per_player"] == [10] * 4
    assert result["first_call_seconds"] > 0 and result["warm_seconds"] > 0
