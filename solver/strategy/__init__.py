"""Strategies a person can play: rules of thumb as data, their exact value, the heuristic
baseline, and the rules derived from a solved table."""
