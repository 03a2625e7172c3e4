"""The Kniffel Dice Duel for 2-4 players: the game as data, exact chances
by backward induction, rollouts, advice, whole games, the record and its analysis."""
