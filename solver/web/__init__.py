"""`kniffel serve`: the coach in the browser, a Starlette app that computes while the page holds
the game."""
from pathlib import Path

STATIC = Path(__file__).parent / "static"  # the page and its scripts, served as they are
