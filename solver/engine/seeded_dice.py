"""Seeded dice inside kernels: a counter-based generator, so games are reproducible whatever the
number of threads."""
import numpy as np

from .jit import njit


@njit(cache=True)
def random_next(state):
    """splitmix64: returns (new state, 64 random bits). Counter-based, so games are reproducible
    whatever the number of threads."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def complete_roll(keep, rng, add_die, keep_size):
    """Throw the dice not held in `keep`; returns (roll index, rng state)."""
    roll = keep
    for _ in range(5 - keep_size[keep]):
        rng, bits = random_next(rng)
        face = np.int64(((bits >> np.uint64(11)) * np.uint64(6)) >> np.uint64(53))
        roll = add_die[roll, face]
    return roll, rng


@njit(cache=True)
def seed_games(first_game, seed, rng):
    """rng[i]: the generator state of game first_game + i, seeded by (seed, game number) only."""
    for i in range(rng.shape[0]):
        rng[i], _ = random_next(np.uint64(seed) * np.uint64(0x100000001B3)
                                + np.uint64(first_game + i))
