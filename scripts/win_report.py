"""Write the "playing to win" measurements into README.md (between the markers) from the JSON
the benchmarks wrote: benchmarks/results/win_loss.json (loss against the exact sub-game),
win_tournament.json (seeded whole games against players who play for points),
win_latency.json and opponent_distributions.json.  Every figure is read from those files; a
run smaller than the issue's size (300 positions per case; 100,000 games for 2 players, 20,000
for 4 and 8) is marked as reduced.

    python scripts/win_report.py
"""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
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
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(RESULTS.glob("win_loss*.json"))]
    runs = [r for r in runs if "results" in r]  # not a run's sidecar of ratios
    if not runs:
        return None
    estimate = json.loads((ROOT / "solver" / "data" / "win_estimate.json").read_text(encoding="utf-8"))
    b = {r.get("b_positions") for r in runs} - {None}
    command = (f"python benchmarks/win_loss.py --positions {max(r['positions_per_case'] for r in runs)}"
               + (f" --b-positions {min(b)}" if b else ""))
    return {"positions_per_case": min(r["positions_per_case"] for r in runs), "command": command,
            "alpha": estimate["alpha"], "alpha_positions": estimate.get("positions_per_case"),
            "target_tables": sorted({r.get("target_tables", "saved whole table") for r in runs}),
            "results": {k: v for r in runs for k, v in r["results"].items()}}


def loss_lines(data):
    if data is None:
        return ["Loss against the exact sub-game: not measured yet (`python benchmarks/win_loss.py`)."]
    reduced = any(s["n"] < FULL_POSITIONS for r in data["results"].values()
                  for c, s in r["losses_pp"].items() if c != "b")
    size = (f" (the issue asks {FULL_POSITIONS} positions per case: a case with fewer is a reduced "
            "run)" if reduced else "")
    lines = [f"Loss of the chosen option's exact chance to win against the exact best, in percentage "
             f"points, at the first roll with 7-9 open boxes{size}; candidate (b) takes one target "
             "advice per score T, so it was measured on the first positions of each case only "
             f"(`{data['command']}`):", "",
             "| case | candidate | positions | mean | 99th percentile | largest | interval width (mean) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    names = {"a": "(a) turn exact, next turns by the mixture (the coach)",
             "b": "(b) each option by the mixture of its own chances", "points": "playing for points"}
    for case, r in data["results"].items():
        for cand, s in r["losses_pp"].items():
            lines.append(f"| `{case}` | {names.get(cand, cand)} | {s['n']} | {s['mean']:.3f} | "
                         f"{s['p99']:.3f} | {s['max']:.3f} | {r['interval_width_pp']['mean']:.2f} |")
    lines += ["", f"The estimate inside each interval is low + {data['alpha']:.3f} (high - low): the "
              "median position of the exact chance in the intervals of a loss run "
              f"({data['alpha_positions']} positions per case). Target tables: "
              + ", ".join(data["target_tables"]) + " (the same W* where the position can go)."]
    return lines


def tournament_lines(data):
    if not data:
        return ["Tournament: not played yet (`python benchmarks/win_tournament.py`)."]
    lines = ["Seeded games of the coach against players who play for points (ties shared; a case "
             "\"from CARD\" is an end-game: every player starts from that card, the coach reads its "
             "sub-game's target table; `points` is points against points, the reference):", "",
             "| rules / players / coach's seat / policy | games | win share (95% interval) | fair share "
             "| head to head (± s.e.) | mean score coach / others | s per game |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for key, r in sorted(data.items()):
        n = round(1 / r["fair_share"])
        reduced = " (reduced)" if r["games"] < FULL_GAMES.get(n, 20_000) else ""
        h2h = (f"{100 * r['head_to_head']:.2f}% ± {100 * r['head_to_head_se']:.2f}"
               if "head_to_head" in r else "-")
        lines.append(f"| `{key}` | {r['games']:,}{reduced} | {100 * r['win_share']:.2f}% "
                     f"({100 * r['ci95'][0]:.2f}-{100 * r['ci95'][1]:.2f}) | {100 * r['fair_share']:.1f}% "
                     f"| {h2h} | {r['mean_score_seat']:.1f} / {r['mean_score_others']:.1f} "
                     f"| {r['seconds_per_game']:.2f} |")
    return lines


def _latencies():
    """The latency runs (win_latency*.json, e.g. one per rules) as one: their cases together, the
    highest machine load of the runs."""
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(RESULTS.glob("win_latency*.json"))]
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
             "| case | round | method | warm | repeated | new process | points: warm | points: new process |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    if False in tables:
        lines.insert(1, "(cases without a saved target table answer ranked for points, with the "
                        "exact low end: `kniffel solve --objective target` adds the upper end)")
    for case, rows in data["results"].items():
        for round_, r in rows.items():
            lines.append(f"| `{case}` | {round_} | {r['method']} | {r['warm_seconds']:.3f} | "
                         f"{r['repeat_seconds']:.3f} | {r['process_seconds']:.2f} | {r['points_warm_seconds']:.3f} | "
                         f"{r['points_process_seconds']:.2f} |")
    return lines


def opponents_lines(data):
    if data is None:
        return []
    lines = ["An opponent's final-score distribution, seconds (largest of the states sampled):", "",
             "| rules | open boxes | from the store or afresh | before (afresh) |", "|---|---:|---:|---:|"]
    for preset, r in data["results"].items():
        for n_open, row in r["by_open"].items():
            lines.append(f"| `{preset}` | {n_open} | {row['served_seconds_max']:.4f} | "
                         f"{row['afresh_seconds_max']:.3f} |")
    return lines


def block():
    tournaments = {}
    for path in sorted(RESULTS.glob("win_tournament*.json")):  # one file per run or per machine
        tournaments.update(json.loads(path.read_text(encoding="utf-8")))
    parts = [loss_lines(_losses()), tournament_lines(tournaments),
             latency_lines(_latencies()),
             opponents_lines(_read("opponent_distributions.json"))]
    return "\n\n".join("\n".join(p) for p in parts if p)


def replace_block(text, body):
    """`text` with the part between the markers replaced by `body` (ValueError without them)."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + body + "\n" + text[end:]


def main():
    README.write_text(replace_block(README.read_text(encoding="utf-8"), block()), encoding="utf-8")


if __name__ == "__main__":
    main()
