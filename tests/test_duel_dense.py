"""The dense 2-player solver of the Dice Duel: its numbering of positions, its chances against
exact.py's search (every position both solve) and the plain-Python reference, its reading of a
horizon table, the table's build (levels saved, resumed, checked) and the rollouts that stop
where they enter it."""
import numpy as np
import pytest
from duel_multi_reference import Reference

from solver.duel.multiplayer import dense
from solver.duel.multiplayer import game as mg
from solver.duel.multiplayer import horizon as multi_horizon
from solver.duel.multiplayer import universe as mu
from solver.duel.multiplayer.dense import DenseSolver
from solver.duel.multiplayer.exact import solve_exact
from solver.duel.rules import get_rules

EMPTY = (0,) * 7


def table(plate, seats, aside=EMPTY, to_move=0, taken=False):
    return mg.Table(tuple(plate), tuple(aside), tuple(map(tuple, seats)), to_move, taken)


# Small sub-games: few chips per type in play, some set aside, both seats to move.
SUB_GAMES = [
    table((1, 1, 1, 0, 1, 0, 1), [(2, 2, 1, 2, 1, 2, 1), (1, 1, 2, 2, 2, 2, 2)]),
    table((2, 0, 1, 1, 0, 0, 0), [(1, 2, 1, 1, 2, 2, 2), (1, 2, 2, 2, 2, 2, 2)], to_move=1),
    table((1, 2, 0, 0, 0, 0, 0), [(2, 1, 2, 2, 2, 2, 1), (1, 1, 2, 1, 2, 2, 2)],
          aside=(0, 0, 0, 1, 0, 0, 1), taken=True),
    table((1, 1, 0, 0, 0, 0, 0), [(2, 1, 2, 2, 1, 1, 2), (1, 1, 1, 2, 1, 3, 1)],
          aside=(0, 1, 1, 0, 2, 0, 1), to_move=1),
]
OPTIONS = [{}, {"set_aside": "turn"}, {"may_decline_chip": True},
           {"four_of_a_kind_two_pairs": True, "last_chip_bonus": 0}]


def _for_rules(position, rules):
    if rules.set_aside == "turn" and position.taken:
        return mg.Table(position.plate, position.aside, position.seats, position.to_move)
    return position


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("case", range(len(SUB_GAMES)))
def test_dense_agrees_with_the_exact_search_on_every_position_both_solve(case, options):
    rules = get_rules(**options)
    position = _for_rules(SUB_GAMES[case], rules)
    solver = DenseSolver(position, rules, threads=2)
    search = solve_exact(position, rules, limit=10**6)
    assert len(search.memo) > 50
    for key, chances in search.memo.items():
        np.testing.assert_allclose(solver.start(mg.Table(*key)), chances, rtol=0, atol=1e-12)
    # the turn of the position asked, keep by keep, as the advice reads it
    stages, start = solver.turn(position, with_stages=True)
    exact_stages, exact_start = search.turn(position, with_stages=True)
    np.testing.assert_allclose(stages[0, :252], exact_stages[0, :252], rtol=0, atol=1e-12)
    np.testing.assert_allclose(stages[1:], exact_stages[1:], rtol=0, atol=1e-12)  # keeps too
    np.testing.assert_allclose(start, exact_start, rtol=0, atol=1e-12)


def endgames():
    """Tiny endgames (1 or 2 chips in play) with close scores."""
    return [table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 2)]),
            table((1, 0, 0, 1, 0, 0, 0), [(2, 2, 2, 2, 2, 2, 2), (1, 2, 2, 1, 2, 2, 2)],
                  to_move=1, taken=True),
            table((0, 0, 0, 0, 1, 0, 0), [(2, 2, 2, 2, 1, 2, 2), (2, 2, 2, 2, 2, 2, 1)],
                  aside=(0, 0, 0, 0, 0, 0, 1))]


@pytest.mark.parametrize("options", OPTIONS[:3])
@pytest.mark.parametrize("case", range(3))
def test_dense_agrees_with_the_plain_python_reference(case, options):
    rules = get_rules(**options)
    position = _for_rules(endgames()[case], rules)
    reference = Reference({"last_chip_bonus": rules.last_chip_bonus, "ties": rules.ties,
                           "set_aside": rules.set_aside,
                           "may_decline_chip": rules.may_decline_chip})
    solver = DenseSolver(position, rules)
    every = solve_exact(position, rules).memo  # every position of the sub-game
    assert len(every) >= 1
    for key in every:
        np.testing.assert_allclose(solver.start(mg.Table(*key)), reference.value(key),
                                   rtol=0, atol=1e-12)


def test_the_numbering_is_one_to_one_and_counts_every_position():
    """Every position of a universe decodes to chips that number back to it; the full
    universe's levels hold exactly the positions the set-aside rule allows (counted apart)."""
    for position in (SUB_GAMES[0], SUB_GAMES[3]):
        universe = mu.reachable_universe(position.plate, position.aside, position.seats)
        assert _numbered(universe) == universe.level_start[universe.top + 1] > 100
    full = mu.full_universe(2)
    assert np.diff(full.level_start[:4]).tolist() == [0, *_counted(2)]


def _numbered(universe):
    """How many positions `universe` numbers, each checked to number back to itself."""
    arrays = [np.empty(7, dtype=np.int64) for _ in range(4)]
    seen = 0
    for low in range(mu.NO_ASIDE + 1):
        for jcode in np.flatnonzero(universe.offset[low] >= 0):
            base = universe.offset[low, jcode]
            size = int(np.prod([universe.count[t, mu.type_class(t, low), (jcode // 5 ** t) % 5]
                                for t in range(7)]))
            for within in range(size):
                mu.decode(universe, low, jcode, within, *arrays)
                assert mu.position_index(universe, *arrays[:3]) == base + within
                assert sum(arrays[0]) + sum(arrays[1]) == mu._jcode_levels()[jcode]
                seen += 1
    return seen


def _counted(top):
    """Positions with k = 1..top chips in play, counted type by type (most valuable first)."""
    configs = [(p, a, s) for p in range(5) for a in range(5 - p) for s in range(5 - p - a)]
    ways = {(0, False): 1}  # (chips in play, a more valuable plate holds chips) -> positions
    for _ in range(7):
        found = {}
        for (k, above), n in ways.items():
            for p, a, _s in configs:
                if (a and above) or k + p + a > top:
                    continue
                key = (k + p + a, above or p > 0)
                found[key] = found.get(key, 0) + n
        ways = found
    return [sum(n for (k, _), n in ways.items() if k == level) for level in range(1, top + 1)]


def _fake_horizon(rules, start, top):
    """A horizon table of the sub-game of `start` (its own numbering), levels 1..top rounded to
    float32 as the store keeps them: what the readers of a table see."""
    solver = DenseSolver(start, rules)
    universe = solver.universe._replace(level_start=solver.universe.level_start[:top + 2],
                                        top=top)
    levels = [solver.levels[k].astype(np.float32) for k in range(1, top + 1)]
    return multi_horizon.HorizonTable(rules, universe, levels), solver


def test_a_solve_above_a_horizon_table_reads_it():
    rules = get_rules()
    big = table((2, 1, 1, 1, 0, 1, 1), [(1, 2, 1, 2, 2, 1, 1), (1, 1, 2, 1, 2, 2, 2)])
    horizon, whole = _fake_horizon(rules, big, 3)
    inner = table((1, 1, 1, 0, 0, 1, 1), [(2, 2, 1, 2, 2, 1, 1), (1, 1, 2, 2, 2, 2, 2)],
                  to_move=1)
    above = DenseSolver(inner, rules, horizon=horizon)
    assert min(above.levels) == 4 and above.positions > 0
    assert above.universe is not horizon.universe  # another numbering than the table's
    for key in solve_exact(inner, rules, limit=10**6).memo:
        position = mg.Table(*key)
        assert abs(above.mover_chance(position) - whole.mover_chance(position)) < 1e-6
    low = table((0, 1, 1, 0, 0, 0, 1), [(3, 2, 1, 2, 2, 2, 1), (1, 1, 2, 2, 2, 2, 2)])
    assert DenseSolver(low, rules, horizon=horizon).positions == 0  # the table answers
    assert abs(DenseSolver(low, rules, horizon=horizon).mover_chance(low)
               - whole.mover_chance(low)) < 1e-7


def test_the_horizon_build_saves_levels_resumes_and_refuses_damage(tmp_path, monkeypatch):
    """Built on a sub-game's numbering (the full one takes minutes): each level saved through
    the store, a second build of more levels solves only the new one with the same bits, and
    a damaged level is refused by its checksum."""
    rules = get_rules()
    start = table((1, 1, 1, 0, 1, 0, 1), [(2, 2, 1, 2, 1, 2, 1), (1, 1, 2, 2, 2, 2, 2)])
    sub = mu.reachable_universe(start.plate, start.aside, start.seats)
    monkeypatch.setattr(multi_horizon, "full_universe",
                        lambda top: sub._replace(level_start=sub.level_start[:top + 2], top=top))
    two, built = multi_horizon.build(rules, 2, tmp_path, progress=False)
    assert sorted(built) == [1, 2] and two.top == 2
    three, built = multi_horizon.build(rules, 3, tmp_path, progress=False)
    assert sorted(built) == [3]
    plain = DenseSolver(start, rules)
    for k in (1, 2, 3):
        np.testing.assert_allclose(three.level(k), plain.levels[k], rtol=0, atol=1e-6,
                                   equal_nan=True)
    again, _ = multi_horizon.build(rules, 3, tmp_path / "fresh", progress=False)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(again.levels, three.levels))
    assert multi_horizon.load(rules, directory=tmp_path).top == 3
    path = multi_horizon.level_paths(rules, 3, tmp_path)[1]
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    path.with_suffix(".verified").unlink()
    assert multi_horizon.load(rules, directory=tmp_path) is None


def test_rollouts_stop_where_they_enter_the_horizon_table():
    """A game that starts inside the table is worth the table's chance, every game alike; one
    outside it stops there, so its games carry chances, not only 0, 1/2 and 1."""
    from solver.duel.multiplayer.rollout import Rollouts
    rules = get_rules()
    big = table((1, 1, 1, 0, 1, 0, 1), [(2, 2, 1, 2, 1, 2, 1), (1, 1, 2, 2, 2, 2, 2)])
    horizon, whole = _fake_horizon(rules, big, 4)
    inside = Rollouts(table((1, 1, 1, 0, 0, 0, 1), [(2, 2, 1, 2, 2, 2, 1), (1, 1, 2, 2, 2, 2, 2)]),
                      rules, horizon=horizon).games([(-1, 0, -1, 0, 0)], 64)[0]
    chance = whole.mover_chance(table((1, 1, 1, 0, 0, 0, 1), [(2, 2, 1, 2, 2, 2, 1),
                                                               (1, 1, 2, 2, 2, 2, 2)]))
    assert np.allclose(inside[:, 0], chance, atol=1e-6) and np.allclose(inside.sum(axis=1), 1)
    outside = Rollouts(big, rules, horizon=horizon).games([(-1, 0, -1, 0, 0)], 256)[0][:, 0]
    assert not np.isin(outside, [0.0, 0.5, 1.0]).all()
    plain = Rollouts(big, rules).games([(-1, 0, -1, 0, 0)], 256)[0][:, 0]
    assert np.isin(plain, [0.0, 0.5, 1.0]).all()
    assert outside.std() < plain.std()


def test_the_dense_size_is_known_before_the_solve():
    position = SUB_GAMES[0]
    solver = DenseSolver(position, get_rules())
    assert dense.dense_size(position) == sum(len(v) for v in solver.levels.values())
    assert solver.positions < dense.dense_size(position)  # over-games and unused codes aside


def test_a_later_position_gets_the_same_bits_from_an_earlier_solve_as_from_its_own():
    """The advice keeps the last solve of a game (dense.cached_solver): a later position read
    from it has the chances of its own solve, to the bit, so an answer does not depend on what
    was asked before."""
    rules = get_rules()
    earlier, later = SUB_GAMES[0], table((1, 1, 0, 0, 1, 0, 1), [(2, 2, 2, 2, 1, 2, 1),
                                                                (1, 1, 2, 2, 2, 2, 2)], to_move=1)
    dense._CACHE.clear()
    first = dense.cached_solver(earlier, rules)
    assert dense.cached_solver(later, rules) is first  # reused: the later position is in it
    own = DenseSolver(later, rules)
    for key in solve_exact(later, rules, limit=10**6).memo:
        position = mg.Table(*key)
        assert first.mover_chance(position) == own.mover_chance(position)
    mine, theirs = first.turn(later, True)[0], own.turn(later, True)[0]
    assert mine[0, :252].tobytes() == theirs[0, :252].tobytes()  # the final rolls
    assert mine[1:].tobytes() == theirs[1:].tobytes()  # every keep with rolls to come
    dense._CACHE.clear()


def test_the_cheaper_solve_is_planned_with_or_without_the_table():
    """Above the table each value costs about twice (its reads miss the cache): a position
    whose levels above the table are most of its own solve is solved from one chip up."""
    from types import SimpleNamespace
    four = SimpleNamespace(top=4)
    wide = table((1, 1, 2, 2, 2, 2, 2), [(2, 2, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1, 1)])
    plain, above = dense.dense_size(wide), dense.dense_size(wide, 4)
    assert 2 * above > plain and dense.plan(wide, four) == (None, plain)
    narrow = table((1, 1, 1, 1, 2, 2, 2), [(2, 2, 2, 2, 1, 1, 1), (1, 1, 1, 1, 1, 1, 1)])
    assert dense.plan(narrow, four) == (four, 2 * dense.dense_size(narrow, 4))
    assert dense.plan(narrow, four)[1] < dense.dense_size(narrow)
    low = table((0, 0, 0, 1, 1, 1, 1), [(2, 2, 2, 1, 1, 1, 1), (2, 2, 2, 2, 2, 2, 2)])
    assert dense.plan(low, four) == (four, 0) and dense.plan(low) == (None, dense.dense_size(low))
