"""Kniffel Dice Duel (solo): a chip game on the same dice, with its rules, states, kernels,
solve and advice.  It shares the dice tables, the turn widget, the table store and the query
reader; only the CLI and the preset list (presets.py) import it."""
