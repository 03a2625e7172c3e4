"""A game on a card: turns, the game record, the terminal game, and what each decision cost."""
