"""Write the "playing to win" measurements into docs/results.md (between the markers) from the JSON
the benchmarks wrote: benchmarks/results/win_loss.json (loss against the exact sub-game),
win_tournament.json (seeded whole games against players who play for points),
win_latency.json and opponent_distributions.json.  Every figure is read from those files; a
run smaller than the issue's size (300 positions per case; 100,000 games for 2 players, 20,000
for 4 and 8) is marked as reduced.

    python scripts/win_report.py              # rewrite the block in docs/results.md
    python scripts/win_report.py --out FILE   # rewrite it in FILE instead
"""
import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
RESULTS_DOC = ROOT / "docs" / "results.md"
BEGIN = "<!-- win-report:begin (scripts/win_report.py writes this) -->"
END = "<!-- win-report:end -->"
FULL_POSITIONS = 300
FULL_GAMES = {2: 100_000, 4: 20_000, 8: 20_000}


def _read(name):
    path = RESULTS / name
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _losses():
    """The loss runs (win_loss*.json: one per run, e.g. per rules) as one: their cases together,
    the smallest run's size, the estimate's alpha from the run that wrote it."""
    runs = [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(RESULTS.glob("win_loss*.json"))]
    runs = [r for r in runs if "results" in r]  # not a run's sidecar of ratios
    if not runs:
        return None
    estimate = json.loads((ROOT / "solver" / "data" / "win_estimate.json").read_text(
        encoding="utf-8"))
    b = {r.get("b_positions") for r in runs} - {None}
    command = (f"python benchmarks/win_loss.py --positions "
               f"{max(r['positions_per_case'] for r in runs)}"
               + (f" --b-positions {min(b)}" if b else ""))
    return {"positions_per_case": min(r["positions_per_case"] for r in runs), "command": command,
            "alpha": estimate["alpha"], "alpha_positions": estimate.get("positions_per_case"),
            "target_tables": sorted({r.get("target_tables", "saved whole table") for r in runs}),
            "results": {k: v for r in runs for k, v in r["results"].items()}}


def loss_lines(data):
    if data is None:
        return ["Loss against the exact sub-game: not measured yet "
                "(`python benchmarks/win_loss.py`)."]
    reduced = any(s["n"] < FULL_POSITIONS for r in data["results"].values()
                  for c, s in r["losses_pp"].items() if c != "b")
    size = (f" (the issue asks {FULL_POSITIONS} positions per case: a case with fewer is a reduced "
            "run)" if reduced else "")
    lines = [f"Loss of the chosen option's exact chance to win against the exact best, in "
             f"percentage points, at the first roll with 7-9 open boxes{size}; candidate (b) takes "
             "one target advice per score T, so it was measured on the first positions of each "
             f"case only (`{data['command']}`):", "",
             "| case | candidate | positions | mean | 99th percentile | largest "
             "| interval width (mean) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    names = {"a": "(a) turn exact, next turns by the mixture (the coach)",
             "b": "(b) each option by the mixture of its own chances",
             "c": "(c) risk dial (dlangk/yatzy's variance-scaled heuristic)",
             "points": "playing for points"}
    for case, r in data["results"].items():
        for cand, s in r["losses_pp"].items():
            lines.append(f"| `{case}` | {names.get(cand, cand)} | {s['n']} | {s['mean']:.3f} | "
                         f"{s['p99']:.3f} | {s['max']:.3f} | "
                         f"{r['interval_width_pp']['mean']:.2f} |")
    means = {}
    for r in data["results"].values():
        for cand, st in r["losses_pp"].items():
            means.setdefault(cand, []).append((st["mean"] * st["n"], st["n"]))
    pooled = {c: sum(t for t, _ in v) / sum(n for _, n in v) for c, v in means.items()}
    every = {c: v for c, v in pooled.items() if all(st["n"] >= data["positions_per_case"]
             for r in data["results"].values() for k, st in r["losses_pp"].items() if k == c)}
    if every:
        best = min((c for c in every if c != "points"), key=every.get, default=None)
        lines += ["", "Mean loss over every position of every case: " + ", ".join(
            f"{names.get(c, c).split(' (')[0] if c != 'points' else 'playing for points'} "
            f"{every[c]:.4f} pp" for c in sorted(every)) + (
            f"; the smallest is ({best}), the one the coach plays." if best == "a" else
            f"; the smallest is ({best})." if best else ".")]
    lines += ["", f"The estimate inside each interval is low + {data['alpha']:.3f} (high - low): "
              "the median position of the exact chance in the intervals of a loss run "
              f"({data['alpha_positions']} positions per case). Target tables: "
              + ", ".join(data["target_tables"]) + " (the same W* where the position can go)."]
    return lines


PUBLISHED_H2H = 0.509  # dlangk/yatzy's variance-scaled risk dial, yatzy, second mover, head to head
POLICIES = (("approximate", "the coach (a)"), ("risk", "risk dial (c)"), ("points", "points"))


def _share(r):
    """A run's win share with its 95% interval, and head to head with its s.e. for 2 players."""
    text = f"{100 * r['win_share']:.2f}% ({100 * r['ci95'][0]:.2f}-{100 * r['ci95'][1]:.2f})"
    if "head_to_head" in r:
        text += f"; h2h {100 * r['head_to_head']:.2f}% ± {100 * r['head_to_head_se']:.2f}"
    if r["games"] < FULL_GAMES.get(round(1 / r["fair_share"]), 20_000):
        text += " (reduced)"
    return text


def tournament_lines(data):
    if not data:
        return ["Tournament: not played yet (`python benchmarks/win_tournament.py`)."]
    whole = {}  # (rules, players, seat) -> {policy: run} of the games from the empty card
    others = {}
    for key, r in data.items():
        parts = key.split("/")
        if len(parts) == 4 and parts[3] in dict(POLICIES):
            whole.setdefault(tuple(parts[:3]), {})[parts[3]] = r
        else:
            others[key] = r
    lines = ["Seeded whole games of the coach against players who play for points, from the empty "
             "card (`python benchmarks/win_tournament.py --rules R --players N --seat S --games G "
             "--policy P`): the coach's win share, ties shared, with its 95% interval, and for 2 "
             "players head to head without draws (wins / (wins + losses), ± its standard error). "
             "The coach (a) is the approximation the coach plays wherever the exact sub-game does "
             "not fit its budget, here everywhere (compiled: the choices of `win_advice(force="
             "\"approximate\")`, option by option); the risk dial (c) is the best published "
             "heuristic, dlangk/yatzy's variance-scaled exponential utility, played by us; "
             "`points` is points against points (must give 1/n):", "",
             "| rules | players | coach's seat | " + " | ".join(name for _, name in POLICIES)
             + " | mean score (a) / others |",
             "|---|---:|---:|" + "---:|" * len(POLICIES) + "---:|"]
    for (rules, players, seat), runs in sorted(
            whole.items(), key=lambda kv: (kv[0][0], int(kv[0][1][:-1]), kv[0][2])):
        cells = [_share(runs[p]) if p in runs else "-" for p, _ in POLICIES]
        a = runs.get("approximate")
        mean = f"{a['mean_score_seat']:.1f} / {a['mean_score_others']:.1f}" if a else "-"
        seat_no = int(seat[4:])
        seat_text = f"{seat_no + 1} of {players[:-1]}"
        lines.append(f"| `{rules}` | {players[:-1]} | {seat_text} | " + " | ".join(cells)
                     + f" | {mean} |")
    goal = whole.get(("yatzy", "2p", "seat1"), {}).get("approximate")
    if goal and "head_to_head" in goal:
        margin = (goal["head_to_head"] - PUBLISHED_H2H) / goal["head_to_head_se"]
        lines += ["",
                  f"In `yatzy`, coach second, head to head: {100 * goal['head_to_head']:.2f}% ± "
                  f"{100 * goal['head_to_head_se']:.2f} over {goal['games']:,} games, "
                  f"{margin:.1f} standard errors above the {100 * PUBLISHED_H2H:.1f}% published "
                  "for the risk dial (the goal: at least 2)."]
        c = whole[("yatzy", "2p", "seat1")].get("risk")
        if c and "head_to_head" in c:
            diff = goal["head_to_head"] - c["head_to_head"]
            se = (goal["head_to_head_se"] ** 2 + c["head_to_head_se"] ** 2) ** 0.5
            lines[-1] += (f" The risk dial as we play it: {100 * c['head_to_head']:.2f}% ± "
                          f"{100 * c['head_to_head_se']:.2f}; the coach wins {100 * diff:.2f} pp "
                          f"more head to head (± {100 * se:.2f}, independent runs).")
    speed = [r["seconds_per_game"] for runs in whole.values() for p, r in runs.items()
             if p == "approximate"]
    if speed:
        lines[-1] += (f" The compiled coach plays a game in "
                      f"{1000 * min(speed):.1f}-{1000 * max(speed):.1f} ms "
                      "(the wall time of each run over its games, on one or both cores).")
    if others:
        lines += ["",
                  "Smaller tournaments of the coach's own code (`advice/win/coach.py`, as the CLI "
                  "and the web coach answer; `budget`: the exact sub-game wherever its predicted "
                  "cost fits the budget of 1 s, the approximation elsewhere"
                  + ("; \"from CARD\": an end-game, every player starts from that card"
                     if any("/from " in k for k in others) else "")
                  + "), seconds a game where the compiled coach takes a millisecond:", "",
                  "| rules / players / seat / policy | games | win share (95% interval) "
                  "| against (a) compiled | s per game |",
                  "|---|---:|---:|---:|---:|"]
        for key, r in sorted(others.items()):
            versus = "-"
            a = whole.get(tuple(key.split("/")[:3]), {}).get("approximate")
            if a and "/from " not in key:
                diff = r["win_share"] - a["win_share"]
                half = ((r["ci95"][1] - r["ci95"][0]) ** 2
                        + (a["ci95"][1] - a["ci95"][0]) ** 2) ** 0.5 / 2
                versus = f"{100 * diff:+.2f} pp (± {100 * half:.2f}, 95%)"
            lines.append(f"| `{key}` | {r['games']:,} | {_share(r)} | {versus} | "
                         f"{r['seconds_per_game']:.2f} |")
    return lines


def _latencies():
    """The latency runs (win_latency*.json, e.g. one per rules) as one: their cases together, the
    highest machine load of the runs."""
    runs = [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(RESULTS.glob("win_latency*.json"))]
    if not runs:
        return None
    return {"budget": runs[0]["budget"], "cores": runs[0]["cores"],
            "load_average": max(r["load_average"] for r in runs),
            "results": {k: v for r in runs for k, v in r["results"].items()}}


def latency_lines(data):
    if data is None:
        return ["Latency: not measured yet (`python benchmarks/win_latency.py`)."]
    tables = {r["target_table"] for rows in data["results"].values() for r in rows.values()}
    lines = [f"Advice at the first roll (budget {data['budget']:g} s; machine load up to "
             f"{data['load_average']:.1f} on {data['cores']} cores when measured), seconds:", "",
             "| case | round | method | warm | repeated | new process | points: warm "
             "| points: new process |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    if False in tables:
        lines.insert(1, "(cases without a saved target table answer ranked for points, with the "
                        "exact low end: `kniffel solve --objective target` adds the upper end)")
    for case, rows in data["results"].items():
        for round_, r in rows.items():
            lines.append(f"| `{case}` | {round_} | {r['method']} | {r['warm_seconds']:.3f} | "
                         f"{r['repeat_seconds']:.3f} | {r['process_seconds']:.2f} | "
                         f"{r['points_warm_seconds']:.3f} | "
                         f"{r['points_process_seconds']:.2f} |")
    return lines


def opponents_lines(data):
    if data is None:
        return []
    lines = ["An opponent's final-score distribution, seconds (largest of the states sampled):", "",
             "| rules | open boxes | from the store or afresh | before (afresh) |",
             "|---|---:|---:|---:|"]
    for preset, r in data["results"].items():
        for n_open, row in r["by_open"].items():
            lines.append(f"| `{preset}` | {n_open} | {row['served_seconds_max']:.4f} | "
                         f"{row['afresh_seconds_max']:.3f} |")
    return lines


FULL_PAIRED = 2000  # games of the paired comparison (issue 35)


def paired_lines(data):
    """The budget coach against the compiled coach on the same games (coach_paired.json)."""
    if not data:
        return []
    lines = []
    for key, r in sorted(data.items()):
        pp, games = 100.0, r["games"]
        reduced = " (reduced)" if games < FULL_PAIRED else ""
        lines += [f"The coach users get against the compiled coach (a), paired (`{r['command']}`): "
                  f"`{r['rules']}`, {r['players']} players, the coach in seat {r['seat'] + 1}; the "
                  f"budget coach is `advice/win/coach.py` as `kniffel advise --opponent` and the "
                  f"web call it (budget {r['budget']:g} s, the saved target table and opponents' "
                  "store, options ranked by the estimate shown), the compiled coach the one of the "
                  "table above (the approximation everywhere, ranked by the upper end).  Both play "
                  "the same games, the budget coach throwing its dice from the compiled coach's "
                  "generator: the same dice until their choices part (common random numbers), so "
                  "the difference's standard error is the paired one (the sd of the games' "
                  f"differences over the root of the games), beside the unpaired one; load "
                  f"{r['load_average'][0]:.1f}-{r['load_average'][1]:.1f} on {r['cores']} cores:",
                  "",
                  "| games | budget coach | compiled coach (a) | budget - compiled (paired SE) | "
                  "unpaired SE | decisions that differ | s per game (budget) |",
                  "|---:|---:|---:|---:|---:|---:|---:|",
                  f"| {games:,}{reduced} | {pp * r['budget_coach']['win_share']:.2f}% | "
                  f"{pp * r['compiled_coach']['win_share']:.2f}% | {pp * r['difference']:+.2f} pp "
                  f"(± {pp * r['difference_se']:.2f}) | ± {pp * r['unpaired_se']:.2f} pp | "
                  f"{r['decisions_differ']:,} of {r['decisions']:,} "
                  f"({pp * r['decisions_differ'] / max(1, r['decisions']):.1f}%; in "
                  f"{r['games_with_a_different_choice']:,} games) | "
                  f"{r['seconds_per_game']['budget']:.1f} |", "",
                  "Where their choices differ (at each decision of the budget coach, the compiled "
                  "coach's choice from the same turn start against the same cards), by decision, "
                  "by the budget coach's method there and by round:", ""]
        for title, table in (("decision", r["by_kind"]), ("method", r["by_method"]),
                             ("round", r["by_round"])):
            order = {"keep, 2 rolls left": 0, "keep, 1 roll left": 1, "box": 2}
            keys = sorted(table, key=lambda k: int(k) if k.isdigit() else order.get(k, 3))
            lines += [f"| {title} | " + " | ".join(keys) + " |", "|---|" + "---:|" * len(keys),
                      "| differ | " + " | ".join(
                          f"{table[k]['differ']:,} of {table[k]['decisions']:,} "
                          f"({pp * table[k]['share']:.1f}%)" for k in keys) + " |", ""]
        where = r.get("by_where_they_part", {})
        if where:
            lines += ["The games by where the two coaches' choices part (the budget coach's method "
                      "at the decisions that differ; \"approximate only\": only where both play "
                      "the approximation, the budget coach ranking by the estimate, the compiled "
                      "one by the upper end), budget - compiled:", "",
                      "| choices differ | games | budget - compiled (SE) |", "|---|---:|---:|"]
            for k in ("the same choices", "approximate only", "exact only", "both"):
                if k in where:
                    w = where[k]
                    se = f" (± {pp * w['se']:.2f})" if w["se"] is not None else ""
                    lines.append(f"| {k} | {w['games']:,} | {pp * w['difference']:+.2f} pp{se} |")
            lines.append("")
    return lines[:-1]


def block():
    tournaments = {}
    for path in sorted(RESULTS.glob("win_tournament*.json")):  # one file per run or per machine
        tournaments.update(json.loads(path.read_text(encoding="utf-8")))
    parts = [loss_lines(_losses()), tournament_lines(tournaments),
             paired_lines(_read("coach_paired.json")),
             latency_lines(_latencies()),
             opponents_lines(_read("opponent_distributions.json"))]
    return "\n\n".join("\n".join(p) for p in parts if p)


def replace_block(text, body):
    """`text` with the part between the markers replaced by `body` (ValueError without them)."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + body + "\n" + text[end:]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS_DOC,
                        help="the file holding the block (default docs/results.md)")
    path = parser.parse_args(argv).out
    path.write_text(replace_block(path.read_text(encoding="utf-8"), block()), encoding="utf-8")


if __name__ == "__main__":
    main()
