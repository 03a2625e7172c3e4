"""Compute the "playing for a target" report and write it into docs/results.md (between the \
markers):
for each preset, the best P(final >= T) from the empty card next to expected-score play's, and
the chance to beat an expected-score opponent whose final score you know (you play second):
exact, sum_S P(opponent = S) * P(final >= S + 1) with the target table, and simulated (seeded
games of the target policy against opponent scores drawn from the exact distribution).

    python scripts/target_report.py                     # kniffel, yahtzee, yatzy
    python scripts/target_report.py --games 20000 --rules kniffel
    python scripts/target_report.py --saved-only        # the presets whose target table is saved
    python scripts/target_report.py --out FILE          # write the block into FILE instead

With --saved-only a preset without a saved target table is named in the report as not built
(the whole table takes many minutes), instead of being built first.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

RESULTS_DOC = Path(__file__).resolve().parent.parent / "docs" / "results.md"
BEGIN = "<!-- target-report:begin (scripts/target_report.py writes this) -->"
END = "<!-- target-report:end -->"
TARGETS = (200, 250, 300, 350, 400)


def preset_rows(name, games, seed=1, saved_only=False):
    """(chances row, beat row) of one preset: every figure computed here; None with
    `saved_only` when its target table is not saved."""
    import solver
    from solver.engine.states import Position, position_state
    from solver.engine.store import TableError
    from solver.engine.target.table import load_target_table
    from solver.presets import read_rules
    from solver.stats.distribution import score_distribution
    if saved_only:
        try:
            load_target_table(read_rules(name))
        except TableError:
            return None
    table = solver.get_table(name, progress=False)
    target = solver.get_table(name, progress=False, objective="target")
    dist = score_distribution(table)
    state = position_state(Position(), table.rules)
    chances = [(t, target.probability(state, t), dist.at_least(t)) for t in TARGETS]
    scores = dist.scores
    exact = float(sum(p * target.probability(state, int(s) + 1)
                      for s, p in zip(scores, dist.probs)))
    plain = float(sum(p * dist.probs[scores > s].sum() for s, p in zip(scores, dist.probs)))
    simulated = None
    if games:
        from solver.advice.target_player import TargetPlayer
        rng = np.random.default_rng(seed)
        player = TargetPlayer(target)
        opponents = rng.choice(scores, size=games, p=dist.probs / dist.probs.sum())
        wins = sum(player.play(state, int(s) + 1, rng) >= int(s) + 1 for s in opponents)
        simulated = (wins / games, float(np.sqrt(exact * (1 - exact) / games)))
    return chances, (exact, plain, simulated)


def report_markdown(results, games):
    missing = [name for name, rows in results.items() if rows is None]
    results = {name: rows for name, rows in results.items() if rows is not None}
    lines = ["Best chance of a final score of at least T from the empty card (playing for T) next "
             "to the chance under expected-score play (its exact distribution):", "",
             "| preset | " + " | ".join(f"T = {t}" for t in TARGETS) + " |",
             "|---|" + "---:|" * len(TARGETS)]
    for name, (chances, _) in results.items():
        lines.append(f"| `{name}` | "
                     + " | ".join(f"{100 * b:.2f}% ({100 * p:.2f}%)" for _, b, p in chances)
                     + " |")
    lines += ["", "Beating an expected-score opponent whose final score you know (you play "
              "second; a tie is a loss):", "", "| preset | playing for S + 1 (exact) | simulated | "
              "expected-score play (exact) |", "|---|---:|---:|---:|"]
    for name, (_, (exact, plain, simulated)) in results.items():
        sim = (f"{100 * simulated[0]:.2f}% ± {100 * simulated[1]:.2f} ({games:,} games)"
               if simulated else "-")
        lines.append(f"| `{name}` | {100 * exact:.3f}% | {sim} | {100 * plain:.3f}% |")
    if missing:
        lines += ["", "Not built for this report: " + ", ".join(f"`{name}`" for name in missing)
                  + " (`kniffel solve --objective target --rules NAME` builds a target table; "
                  "`python scripts/target_report.py` then adds it)."]
    return "\n".join(lines)


def replace_block(text, block):
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append",
                        help="preset (repeat; default kniffel, yahtzee, yatzy)")
    parser.add_argument("--games", type=int, default=20000,
                        help="simulated games a preset (0: none)")
    parser.add_argument("--saved-only", action="store_true",
                        help="skip presets without a saved target table")
    parser.add_argument("--out", type=Path, default=RESULTS_DOC,
                        help="the file holding the block (default docs/results.md)")
    args = parser.parse_args(argv)
    results = {name: preset_rows(name, args.games, saved_only=args.saved_only)
               for name in args.rules or ["kniffel", "yahtzee", "yatzy"]}
    block = report_markdown(results, args.games)
    print(block)
    args.out.write_text(replace_block(args.out.read_text(), block))
    return 0


if __name__ == "__main__":
    sys.exit(main())
