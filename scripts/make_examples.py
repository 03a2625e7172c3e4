"""Write the example files README.md's commands read (docs/examples/): a recorded two-player game.

    python scripts/make_examples.py           # write docs/examples/kniffel-game.json
    python scripts/make_examples.py --check   # exit 1 unless the committed file is what it writes
    python scripts/make_examples.py --out FILE   # write the game into FILE instead

The game is played with seeded dice typed in as real dice: Anna always takes the best choice,
Ben the second best in one decision of four, so `kniffel analyze` has mistakes to show.
docs/examples/positions.jsonl and docs/examples/house-rules.toml are written by hand (inputs, as a
user would write them); tests/test_examples.py runs every README command that reads them.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import advise, get_table  # noqa: E402
from solver.game.card import Game  # noqa: E402
from solver.game.record import record_text  # noqa: E402

GAME = ROOT / "docs" / "examples" / "kniffel-game.json"


def example_game(table, seed=2026):
    """The example record: Anna plays best, Ben errs now and then."""
    rng = np.random.default_rng(seed)
    game = Game(table.rules, ["Anna", "Ben"], real_dice=True)
    while not game.over:
        turn = game.next_turn()
        while not turn.done:
            turn.roll(rng.integers(1, 7, turn.n_to_roll).tolist())
            options = advise(turn.position, table, dice=list(turn.dice),
                             rolls_left=turn.rolls_left).options
            choice = options[1 if turn.player == 1 and len(options) > 1 and rng.random() < 0.25
                             else 0]
            if choice["action"] == "keep":
                turn.keep(choice["keep"])
            else:
                turn.score(choice["box"])
    return game.record()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--out", type=Path, default=GAME,
                        help="the file (default docs/examples/kniffel-game.json)")
    args = parser.parse_args(argv)
    text = record_text(example_game(get_table("kniffel", progress=False)))
    if args.check:
        if args.out.read_text(encoding="utf-8") != text:
            sys.exit(f"{args.out} is stale: run python scripts/make_examples.py")
        return
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
