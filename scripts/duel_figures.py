"""Write the Dice Duel for 2-4 players figures into docs/results.md from the benchmark results:
the dense solver and the horizon table (benchmarks/duel_dense.py -> duel_dense.json), the whole
game on paper (the same file), the advice's latency and 3-4 player exact sizes
(benchmarks/duel_multi.py -> duel_multi.json), the tournament (benchmarks/duel_tournament.py ->
duel_tournament.json) and the calibration (benchmarks/duel_calibration.py ->
duel_calibration.json).

    python scripts/duel_figures.py           # rewrite the block in docs/results.md
    python scripts/duel_figures.py --check   # exit 1 unless docs/results.md is current
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # readme_figures, beside this script
from readme_figures import RESULTS, RESULTS_DOC, rewrite_block  # noqa: E402
from readme_figures import replace_block as _replace  # noqa: E402

BEGIN = "<!-- duel-multi-figures:begin (scripts/duel_figures.py writes this) -->"
END = "<!-- duel-multi-figures:end -->"
BUILD_SECONDS, BUILD_BYTES = 600, 2e9  # the horizon table's bounds: 10 minutes, 2 GB
TOURNAMENT_VERSION = 2  # benchmarks/duel_tournament.py's format of the advice as users get it
TOURNAMENT_GAMES = 4000  # games a seat the strength's measure asks (its default --games)


def chosen_levels(build):
    """The most levels whose build took at most BUILD_SECONDS and BUILD_BYTES in all."""
    seconds = size = 0
    best = 0
    for row in build:
        seconds += row["seconds"]
        size += row["bytes"]
        if seconds <= BUILD_SECONDS and size <= BUILD_BYTES:
            best = row["level"]
    return best


def build_lines(dense):
    machine = dense["machine"]
    lines = ["**The horizon table** (`kniffel solve --rules dice-duel --objective horizon "
             "--levels H`), built level by level on "
             f"{machine['cpus']} cores (measured, one run; each level's seconds include its "
             "save and checksum; the load average is the machine's, shared with other work):",
             "", "| level (chips in play) | values | seconds | GB on disk | load average |",
             "|---|---|---|---|---|"]
    for row in dense["build"]:
        lines.append(f"| {row['level']} | {row['values']:,} | {row['seconds']:.0f} | "
                     f"{row['bytes'] / 1e9:.2f} | {row['load_average']:.1f} |")
    h = chosen_levels(dense["build"])
    total = sum(r["seconds"] for r in dense["build"][:h])
    size = sum(r["bytes"] for r in dense["build"][:h])
    lines += ["", f"So H = {h}: the most levels within {BUILD_SECONDS // 60} minutes and "
              f"{BUILD_BYTES / 1e9:.0f} GB ({total:.0f} s, {size / 1e9:.2f} GB); the default of "
              "`--levels`."]
    return lines


def position_lines(dense):
    tops = sorted({row["horizon_levels"] for row in dense["positions"]})
    heads = ["no table"] + [f"above H = {t}" for t in tops if t]
    lines = ["", "**One position's own solve** (`DenseSolver`, 2 threads, warm; the first call "
             "in brackets): for each number of chips in play the position whose solve is "
             "largest (every chip on the plate, spread over the types), its values (positions "
             "times seat and round flag) and seconds; \"—\": over 4 times the exact zone's "
             f"limit of {dense['dense_limit']:,} (values above a table counted "
             f"{dense['table_weight']} times), not timed; *italic*: outside the exact zone:", "",
             "| chips in play | " + " | ".join(heads) + " |",
             "|---" * (len(heads) + 1) + "|"]
    by_k = {}
    for row in dense["positions"]:
        by_k.setdefault(row["chips_in_play"], {})[row["horizon_levels"]] = row
    for k, rows in sorted(by_k.items()):
        cells = [_cell(rows.get(t)) for t in tops]
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    lines += ["", "The exact zone reaches K chips in play (every position with at most K "
              "chips answered exactly within 1 s, the largest solve's warm time): " + "; ".join(
                  f"{head} K = {_reach(dense['positions'], t)}" for head, t in zip(heads, tops))
              + "."]
    ref = dense["reference"]
    lines += ["", f"The same run's reference: exact.py's dictionary search of `{ref['spec']}` "
              f"({ref['exact_positions']:,} positions) {ref['exact_seconds']:.2f} s warm, the "
              f"dense solve of it {ref['dense_seconds']:.3f} s "
              f"({ref['exact_seconds'] / ref['dense_seconds']:.0f} times faster)."]
    return lines


def _cell(row):
    if row is None:
        return ""
    if row.get("warm_seconds") is None:  # not timed, or no warm call (--repeat 0)
        return f"{row['values']:,}: —"
    text = f"{row['values']:,}: {row['warm_seconds']:.2f} s ({row['first_seconds']:.2f})"
    return text if row["within_limit"] else f"*{text}*"


def _reach(rows, top):
    fast = [r for r in rows if r["horizon_levels"] == top]
    k = 1
    for row in sorted(fast, key=lambda r: r["chips_in_play"]):
        if row.get("warm_seconds") is None or row["warm_seconds"] > 1 or not row["within_limit"]:
            break
        k = row["chips_in_play"]
    return k


def paper_lines(dense):
    """The whole game solved level by level, on paper: its levels' sizes (counted exactly), and
    its costs from the rates measured on the levels built and the largest own solve."""
    values = dense["levels"]
    total = sum(values)
    peak = max(8 * values[k] + 4 * values[k - 1] for k in range(1, len(values)))
    widest = max(range(len(values)), key=lambda k: values[k])
    last = dense["build"][-1]
    low = 2 * last["seconds"] / last["values"]  # CPU seconds a value, 2 threads
    timed = [r for r in dense["positions"] if r.get("warm_seconds") and not r["horizon_levels"]]
    big = max(timed, key=lambda r: r["values"])
    high = 2 * big["warm_seconds"] / big["values"]
    hours = [total * rate / 3600 for rate in (low, high)]
    nodes, cores = 16, 32
    return ["", "**The whole game on paper** (2 players, all 28 chips in play): the levels' sizes "
            "are counted exactly (the set-aside rule applied; 4 values a position), the costs "
            "are bounds from measured rates, not a measurement.", "",
            f"- values: {total:,} ({total / 1e9:.1f} billion), the widest level {widest} "
            f"({values[widest]:,}); on disk in float32 {4 * total / 1e9:.0f} GB;",
            f"- memory of the level-by-level solve (level k in float64, level k - 1 in float32, "
            f"the other levels on disk): {peak / 1e9:.0f} GB at the widest pair;",
            f"- CPU: {1e6 * low:.2f} µs a value at level {last['level']} (the highest built, "
            f"where most positions are decided) to {1e6 * high:.1f} µs in the largest own solve "
            f"timed ({big['chips_in_play']} chips, few decided): {hours[0]:.0f}-{hours[1]:.0f} "
            "CPU-hours;",
            f"- on a cluster: a level's superblocks (its j-vectors) need only the level below "
            f"and depend on no other of their level, so {nodes} nodes of {cores} cores would "
            f"take about {60 * hours[0] / (nodes * cores):.1f}-"
            f"{60 * hours[1] / (nodes * cores):.1f} minutes of computing (28 levels one after "
            f"the other), each node holding the level below (up to "
            f"{4 * values[widest] / 1e9:.0f} GB in float32, sent to every node once a level) "
            f"and its share of the level solved; the table then needs "
            f"{4 * total / 1e9:.0f} GB to keep, and answers any 2-player position exactly by a "
            "lookup."]


def latency_lines(bench):
    lines = ["", "**One whole advice** (`win_chances` as a user asks it: "
             f"{bench['games_per_option']} games per option, seed 0; dice 2 3 4 5 5, two rolls "
             "left; warm and first call, "
             f"on {bench['machine']['cpus']} cores; positions of a seeded greedy game):", "",
             "| players | stage | chips in play | table levels | answer | warm s | first s |",
             "|---|---|---|---|---|---|---|"]
    for row in bench["latency"]:
        answer = "exact" if row["exact"] else f"estimate, {row['games_per_option']:,} games/option"
        lines.append(f"| {row['players']} | {row['stage']} | {row['chips_in_play']} | "
                     f"{row['horizon_levels'] or '—'} | {answer} | {row['warm_seconds']:.2f} | "
                     f"{row['first_seconds']:.2f} |")
    lines += ["", "3 and 4 players stay with exact.py's search (size bound at most "
              f"{bench['exact_limit']:,}):", "",
              "| players | chips in play | size bound | positions solved | seconds |",
              "|---|---|---|---|---|"]
    for row in bench["exact"]:
        lines.append(f"| {row['players']} | {row['chips_in_play']} | {row['size_bound']:,} | "
                     f"{row['positions']:,} | {row['seconds']:.2f} |")
    return lines


def tournament_lines(result):
    lines = ["", "**Tournament** against greedy opponents (the advice exactly as users get it; "
             "game g of a pairing has seed g; win share with its 95% interval, the greedy "
             "player's own share in that seat on the same seeds, and the gain over it with its "
             "standard error, paired by seed):", "",
             "| players | advisor's seat | table levels | games | win share | 95% interval | "
             "greedy self-play | gain | exact decisions |",
             "|---|---|---|---|---|---|---|---|---|"]
    for key, entry in sorted(result["pairings"].items()):
        s = entry["summary"]
        if not s:
            continue
        players, seat, _ = key.split(":")
        levels = result["advice"][f"{players}p"]["horizon_levels"]
        lo, hi = s["interval"]
        lines.append(f"| {players} | {seat} | {levels or '—'} | {s['games']:,} | "
                     f"{s['win_share']:.3f} | {lo:.3f}–{hi:.3f} | {s['self_play']:.3f} | "
                     f"{100 * s['gain']:+.1f} ± {100 * s['gain_se']:.1f} pp | "
                     f"{100 * entry['decision_summary']['exact_share']:.0f}% |")
    for players in (2, 3, 4):
        gain = result.get(f"gain_{players}p")
        if gain:
            lines += ["", f"{players} players, seat-averaged gain over greedy self-play: "
                      f"{100 * gain['seat_averaged']:+.1f} ± {100 * gain['se']:.1f} pp "
                      f"(estimate ± standard error, {gain['games_per_seat']:,} games a seat)."]
            if gain["games_per_seat"] < TOURNAMENT_GAMES:
                lines[-1] += (f" Partial: the measure asks {TOURNAMENT_GAMES:,} games a seat; "
                              f"`python benchmarks/duel_tournament.py --players {players} "
                              "--tables DIR` goes on from the games saved.")
    return lines


def calibration_lines(result):
    lines = []
    for key, entry in sorted(result.items()):
        if not key.endswith("p") or "summary" not in entry:
            continue
        s = entry["summary"]
        est = s["estimated"]
        lines += ["", f"**Calibration**, {key[:-1]} players in self-play ({s['games']:,} games, "
                  f"{est['decisions']:,} estimated and {s['exact']['decisions']:,} exact "
                  "decisions; every seat follows the advice): shown against observed by decile "
                  "of the shown chance, the miss (observed - shown) with its standard error "
                  "clustered by game:", "",
                  "| shown chance | estimated: decisions | shown | observed | miss | "
                  "exact: decisions | miss |", "|---|---|---|---|---|---|---|"]
        for b, x in zip(est["bins"], s["exact"]["bins"]):
            lo, hi = b["bin"]
            lines.append(f"| {lo:.1f}–{hi:.1f} | {_bin(b)} | {_miss(x, short=True)} |")
        margin = 100 * entry["advice"]["margin"]
        lines += ["", f"Worst decile of the estimates: {100 * est['worst_miss']:.1f} pp. The "
                  "interval of an estimated chance is widened by it since: estimate.MARGIN = "
                  f"{100 * current_margin():.1f} pp (the advice calibrated here widened it by "
                  f"{margin:.1f} pp)."]
    return lines


def current_margin():
    """The advice's widening of an estimated chance's interval, as the code has it now."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from solver.duel.multiplayer.estimate import MARGIN
    return MARGIN


def _bin(b):
    if not b["decisions"]:
        return "0 | | | "
    return (f"{b['decisions']:,} | {b['shown']:.3f} | {b['observed']:.3f} | "
            f"{_miss(b)}")


def _miss(b, short=False):
    if not b["decisions"]:
        return "0 | " if short else ""
    se = f" ± {100 * b['miss_se']:.1f}" if b.get("miss_se") is not None else ""
    text = f"{100 * b['miss']:+.1f}{se} pp"
    return f"{b['decisions']:,} | {text}" if short else text


def picks_lines(picks):
    """What the estimated picks gain a decision over the greedy pick (benchmarks/duel_picks.py)."""
    table = (f"the horizon table of {picks['horizon_levels']} levels"
             if picks["horizon_levels"] else "no horizon table")
    return ["", f"**The estimated picks** ({picks['games_per_option']} games per option, "
            f"{table}): at {picks['decisions']:,} decisions of {picks['games']} seeded greedy "
            "2-player games where the advice estimates, it left the greedy choice "
            f"{picks['switched']} times (and called {picks['close_calls']} too close); scored "
            f"on {picks['score_games']:,} fresh games each, its picks gain "
            f"{100 * picks['gain']:+.3f} ± {100 * picks['gain_se']:.3f} pp a decision over the "
            "greedy pick (estimate ± standard error; every seat greedy in the scoring games up "
            "to the table, then its best)."]


def figures_markdown(dense, bench, tournament, calibration, picks=None):
    lines = [BEGIN] + build_lines(dense) + position_lines(dense) + paper_lines(dense)
    lines += latency_lines(bench)
    if picks is not None:
        lines += picks_lines(picks)
    if tournament is not None:
        lines += tournament_lines(tournament)
    if calibration is not None:
        lines += calibration_lines(calibration)
    missing = [name for name, found in (("the tournament (benchmarks/duel_tournament.py)",
                                          tournament),
                                         ("the calibration (benchmarks/duel_calibration.py)",
                                          calibration)) if found is None]
    if missing:  # said, not left out silently: the issue asks for both
        lines += ["", f"Not yet measured for this advice: {' and '.join(missing)}."]
    return "\n".join(lines + [END])


def replace_block(text, block):
    """`text` with the Dice Duel figures block replaced by `block`."""
    return _replace(text, block, BEGIN, END)


def _read(name):
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def current_block():
    """The block from the committed results; a tournament saved by an earlier advisor (before
    its version 2, the advice as users get it) is not this advice's and is left out."""
    tournament = _read("duel_tournament.json")
    if tournament is not None and tournament.get("version") != TOURNAMENT_VERSION:
        tournament = None
    return figures_markdown(_read("duel_dense.json"), _read("duel_multi.json"), tournament,
                            _read("duel_calibration.json"), _read("duel_picks.json"))


def main(argv=None):
    rewrite_block(RESULTS_DOC, current_block(), BEGIN, END, "duel_figures.py",
                  __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
