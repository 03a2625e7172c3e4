"""What playing for a target gains: for targets T on a grid, the best chance of a final score
>= T (the target table) next to that chance under expected-score play (its exact distribution)."""
from ..engine.states import Position, position_state
from .distribution import score_distribution


def chance_curve(position, table, target_table, step=25, floor=1e-6):
    """{"rules", "card_total", "rows": [{target, best_probability, expected_play_probability}]}
    from the card total up in steps of `step`, while the best chance is at least `floor`."""
    position = position or Position()
    rules = table.rules
    state = position_state(position, rules)
    dist = score_distribution(table, position)
    base = state.card_total
    rows = []
    target = step * -(-base // step)  # the first multiple of step at or above the card total
    while True:
        best = target_table.probability(state, target)
        if best < floor and rows:
            break
        rows.append({"target": target, "best_probability": best,
                     "expected_play_probability": dist.at_least(target)})
        target += step
    return {"rules": rules.key, "card_total": base, "rows": rows}


def plot_curve(curve, path):
    """Both chances against the target, into a PNG (needs matplotlib)."""
    from .plot import PlotUnavailable
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'kniffel[plot]'") from None
    targets = [r["target"] for r in curve["rows"]]
    figure, axes = plt.subplots(figsize=(8, 4.5))
    axes.plot(targets, [r["best_probability"] for r in curve["rows"]], label="playing for T")
    axes.plot(targets, [r["expected_play_probability"] for r in curve["rows"]],
              label="playing for points", linestyle="--")
    axes.set_xlabel("target T")
    axes.set_ylabel("P(final score >= T)")
    axes.set_title(f"{curve['rules']}: the chance of reaching T")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
