"""The player's history: every game played (the terminal, the web page) and every record
analysed, kept with each decision and its price in a local SQLite database (store.py), the
kinds of mistake a decision shows (kinds.py) and what a player's games say (summary.py)."""
