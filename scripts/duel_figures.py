"""Write the Dice Duel for 2-4 players figures into docs/results.md from the benchmark results: the exact
endgames' sizes and times and the advice's latency (benchmarks/duel_multi.py ->
benchmarks/results/duel_multi.json) and the tournament (benchmarks/duel_tournament.py ->
benchmarks/results/duel_tournament.json).

    python scripts/duel_figures.py           # rewrite the block in docs/results.md
    python scripts/duel_figures.py --check   # exit 1 unless docs/results.md is current
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # readme_figures, beside this script
from readme_figures import RESULTS, RESULTS_DOC, rewrite_block  # noqa: E402
from readme_figures import replace_block as _replace

BEGIN = "<!-- duel-multi-figures:begin (scripts/duel_figures.py writes this) -->"
END = "<!-- duel-multi-figures:end -->"


def exact_lines(bench):
    lines = [f"Exact endgames, measured on {bench['machine']['cpus']} cores (positions of seeded "
             f"games; the advice solves exactly while the size bound is at most "
             f"{bench['exact_limit']:,}; the solo game's whole solve took "
             f"{bench['reference_solo_solve_warm_seconds']:.1f} s in the same run):", "",
             "| players | chips in play | size bound | positions solved | seconds | exact by default |",
             "|---|---|---|---|---|---|"]
    for row in bench["exact"]:
        lines.append(f"| {row['players']} | {row['chips_in_play']} | {row['size_bound']:,} | "
                     f"{row['positions']:,} | {row['seconds']:.2f} | "
                     f"{'yes' if row['exact_by_default'] else 'no'} |")
    lines += ["", f"One whole advice (dice 2 3 4 5 5, two rolls left), warm and first call; "
              f"estimates use {bench['budget_seconds']} s of rollouts:", "",
              "| players | stage | chips in play | answer | warm s | first s |", "|---|---|---|---|---|---|"]
    for row in bench["latency"]:
        answer = "exact" if row["exact"] else f"estimate, {row['games_per_option']:,} games/option"
        lines.append(f"| {row['players']} | {row['stage']} | {row['chips_in_play']} | {answer} | "
                     f"{row['warm_seconds']:.2f} | {row['first_seconds']:.2f} |")
    return lines


def tournament_lines(result):
    advisor = result["advisor"]
    scope = ("the full tournament" if result["full_tournament"] else
             f"a reduced tournament ({result['games_per_pairing']:,} games per pairing, fewer than "
             f"the 2,000 of the full run)")
    from solver.duel.multiplayer.match import MIN_GAMES
    budget = (f"{advisor['rollouts_per_option']} games for each end move and each of the "
              f"{advisor['candidates']} best keeps by the greedy tables (it keeps the greedy choice "
              f"unless another is 2 standard errors better)"
              if advisor["rollouts_per_option"] >= MIN_GAMES else
              f"the greedy choice (fewer than {MIN_GAMES} rollouts per option never move it: "
              f"their noise only lost games)")
    processes = f"{advisor['processes']} process{'es' if advisor['processes'] != 1 else ''}"
    lines = [f"Tournament, {scope}, {result['wall_seconds'] / 60:.0f} minutes on {processes}. "
             f"The advisor there runs at a small fixed budget: {budget}, exact once the size "
             f"bound is at most {advisor['exact_size_bound']:,}. Win share of the advisor's seat with its 95% "
             f"interval, beside 1/n and beside the share the opponents' own strategy wins in that "
             f"seat when every seat plays it (self-play, same seeds; the seats are far from "
             f"equal):", "",
             "| opponents | players | advisor's seat | games | win share | 95% interval | 1/n | self-play |",
             "|---|---|---|---|---|---|---|---|"]
    for row in result["pairings"]:
        lo, hi = row["interval"]
        lines.append(f"| {row['opponent']} | {row['players']} | {row['advisor_seat']} | "
                     f"{row['games']:,} | {row['win_share']:.3f} | {lo:.3f}–{hi:.3f} | "
                     f"{row['fair_share']:.3f} | {row['self_play']['share']:.3f} |")
    stages = result["decision_seconds"]
    lines += ["", "The advisor's decisions there (this budget): " + "; ".join(
        f"{stage} {s['mean_seconds'] * 1000:.1f} ms mean, {s['max_seconds']:.2f} s at most"
        for stage, s in stages.items()) + "."]
    return lines


def figures_markdown(bench, tournament):
    lines = [BEGIN] + exact_lines(bench)
    if tournament is not None:
        lines += [""] + tournament_lines(tournament)
    return "\n".join(lines + [END])


def replace_block(text, block):
    """`text` with the Dice Duel figures block replaced by `block`."""
    return _replace(text, block, BEGIN, END)


def current_block():
    bench = json.loads((RESULTS / "duel_multi.json").read_text())
    path = RESULTS / "duel_tournament.json"
    tournament = json.loads(path.read_text()) if path.exists() else None
    return figures_markdown(bench, tournament)


def main(argv=None):
    rewrite_block(RESULTS_DOC, current_block(), BEGIN, END, "duel_figures.py",
                  __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
