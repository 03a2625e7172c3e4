"""The target objective: the chance of a final score of at least T, for every T at
once (its column layout, the ranges of points still needed, the solve and the saved table)."""
