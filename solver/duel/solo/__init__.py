"""The Kniffel Dice Duel alone: its exact table, solve and advice."""
