"""Advice: the ranked options of one position, and of many positions at once (batch)."""
