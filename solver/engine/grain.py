"""The grain of the target objective's tie rule, in plain Python (no numba): the kernels compile
`quantise` with njit (as rules/scoring.py's functions are compiled), the advice calls it as it is,
so the engine and the advice cannot disagree about what a tie is.

Chances that round to the same multiple of 1/GRAIN (about 1e-9) are a tie, broken by the expected
score; rounding, not "closer than", keeps the order transitive.  Chances below CUT are stored as 0
and end a state's range of points still needed.
"""
import numpy as np

# chances equal at this grain (about 1e-9) are a tie, broken by the expected score
GRAIN = 2.0 ** 30
CUT = 1e-12  # chances below this are stored as 0 (and end a state's range)


def quantise(chance):
    """A chance (a float or an array) rounded to the grain: equal results are a tie."""
    return np.floor(chance * GRAIN + 0.5)
