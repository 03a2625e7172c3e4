"""The terminal game of `kniffel play` for the scorecard games: its moves, its coach, its card."""
