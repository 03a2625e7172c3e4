"""`kniffel serve`: the coach in the browser, a Starlette app that computes while the page holds the game."""
