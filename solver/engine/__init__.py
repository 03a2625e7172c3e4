"""The engine: reachable states, the numba turn-widget kernels, the backward pass over levels for
an objective, threads, and the table store."""
