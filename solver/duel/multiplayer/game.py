"""The Dice Duel for 2 or more players as data: a position (where every chip is, whose turn, and
whether a chip was taken this round), the moves that end a turn, what a move leads to (another
turn after a Kniffel, the round's end, the end of the game), and the win shares at the end.

Plain Python on tuples; the exact solver (multi_exact.py), the rollouts (multi_kernels.py), the
advice and the played game all follow these rules.  docs/rules.md describes the game.
"""
from dataclasses import dataclass, replace

from ..chips import CHIPS_PER_TYPE, N_TYPES, TYPES, VALUES, type_key

PLATE, ASIDE = "plate", "aside"


@dataclass(frozen=True)
class Table:
    """A position of the multiplayer Dice Duel at the start of a turn (or, with `last` set, the
    end of the game).

    plate, aside: chips per type (TYPES order) on the plate and set aside; seats: one tuple of
    chips per type for each seat, in turn order; to_move: the seat whose turn it is;
    taken: a chip was taken in this round so far; last: the seat that took the last plate chip
    (its +last_chip_bonus), -1 when none did, None while the game goes on."""

    plate: tuple
    aside: tuple
    seats: tuple
    to_move: int = 0
    taken: bool = False
    last: object = None

    @property
    def players(self):
        return len(self.seats)

    @property
    def over(self):
        return sum(self.plate) == 0

    @property
    def in_play(self):
        """Chips that can still change hands: on the plate or set aside."""
        return sum(self.plate) + sum(self.aside)

    def key(self):
        """A hashable key of the position (the solver's memo)."""
        return (self.plate, self.aside, self.seats, self.to_move, self.taken)

    def counts(self):
        """{type: [plate, aside, seat0, seat1, ...]}, the form of the advice contract."""
        return {name: [self.plate[t], self.aside[t]] + [seat[t] for seat in self.seats]
                for t, name in enumerate(TYPES)}

    def spec(self):
        """The compact text form: TYPE=PLATE/ASIDE/SEAT0/SEAT1/..., full plates left out."""
        return ",".join(f"{name}=" + "/".join(map(str, c)) for name, c in self.counts().items()
                        if c[0] != CHIPS_PER_TYPE)


def new_table(players):
    """Every chip on the plate, seat 0 to move."""
    return Table((CHIPS_PER_TYPE,) * N_TYPES, (0,) * N_TYPES,
                 tuple((0,) * N_TYPES for _ in range(players)))


def seat_points(seat, rules):
    """rules.final_score of one holding in plain Python (the exact solver scores many small
    holdings, where numpy's per-call cost would dominate)."""
    held = sum(1 for c in seat if c)
    points = sum(c * v for c, v in zip(seat, VALUES))
    points += rules.full_stack_bonus * sum(1 for c in seat if c == CHIPS_PER_TYPE)
    if held == N_TYPES:
        points += rules.gold_bonus
    elif held == N_TYPES - 1:
        points += rules.silver_bonus
    return points


def scores(table, rules):
    """Final points of each seat: chips, bonuses, and the last-chip bonus."""
    return [seat_points(seat, rules) + (rules.last_chip_bonus if table.last == i else 0)
            for i, seat in enumerate(table.seats)]


def win_shares(table, rules):
    """Each seat's share of the win at the end: 1 for the single best score; a tie for first
    shares it (1/k each, `ties = "share"`) or wins nothing (`ties = "lose"`)."""
    points = scores(table, rules)
    best = max(points)
    first = [i for i, p in enumerate(points) if p == best]
    share = 1.0 / len(first) if len(first) == 1 or rules.ties == "share" else 0.0
    return [share if i in first else 0.0 for i in range(len(points))]


def end_moves(table, earned, kniffel, rules):
    """The moves that end a turn: ("take", type, PLATE|ASIDE) or ("no_chip",).

    earned: bit mask of the types the dice earn; kniffel: five of a kind, which takes one chip
    of any type from the plate or from the chips set aside (never none: the plate is not empty
    while the game goes on, and declining would only repeat the same turn)."""
    if kniffel:
        return ([("take", t, PLATE) for t in range(N_TYPES) if table.plate[t]]
                + [("take", t, ASIDE) for t in range(N_TYPES) if table.aside[t]])
    moves = [("take", t, PLATE) for t in range(N_TYPES) if (earned >> t) & 1 and table.plate[t]]
    if not moves or rules.may_decline_chip:
        moves.append(("no_chip",))
    return moves


def _set_top_aside(plate, aside):
    top = max(t for t in range(N_TYPES) if plate[t])
    plate[top] -= 1
    aside[top] += 1


def after_move(table, move, kniffel, rules):
    """The position after `move` ends the seat's turn: the same seat again after a Kniffel, else
    the next seat; a round (every seat's turn) that took no chip sets the most valuable plate chip
    aside (`set_aside = "turn"`: every turn without a chip does).  When the plate is empty the game
    is over: `last` names the seat that took the last plate chip, or -1."""
    plate, aside = list(table.plate), list(table.aside)
    seats = table.seats
    took = move[0] == "take"
    if took:
        t, source = move[1], move[2]
        (plate if source == PLATE else aside)[t] -= 1
        mine = list(seats[table.to_move])
        mine[t] += 1
        seats = seats[:table.to_move] + (tuple(mine),) + seats[table.to_move + 1:]
        if sum(plate) == 0:
            return Table(tuple(plate), tuple(aside), seats, table.to_move, True, table.to_move)
        if kniffel:
            return Table(tuple(plate), tuple(aside), seats, table.to_move, True)
    elif rules.set_aside == "turn":
        _set_top_aside(plate, aside)
    taken = table.taken or took
    to_move = table.to_move + 1
    if to_move == len(seats):  # the round's last turn
        if rules.set_aside == "round" and not taken:
            _set_top_aside(plate, aside)
        to_move, taken = 0, False
    if rules.set_aside == "turn":
        taken = False  # rounds do not matter then: one form per position
    if sum(plate) == 0:
        return Table(tuple(plate), tuple(aside), seats, to_move, taken, -1)
    return Table(tuple(plate), tuple(aside), seats, to_move, taken)


def move_dict(move, table, rules):
    """A move as the advice writes it: {"action": "take", "chip": TYPE, "from": "plate"|"aside"}
    (with "last_chip_bonus" when it empties the plate) or {"action": "no_chip"}."""
    if move[0] == "no_chip":
        return {"action": "no_chip"}
    empties = move[2] == PLATE and sum(table.plate) == 1
    return {"action": "take", "chip": TYPES[move[1]], "from": move[2],
            "last_chip_bonus": rules.last_chip_bonus if empties else 0}


def parse_move(option):
    """The move of an option dict (as move_dict writes it)."""
    if option["action"] == "no_chip":
        return ("no_chip",)
    return ("take", TYPES.index(type_key(option["chip"])), option.get("from", PLATE))


def check_table(table, rules):
    """Return `table` if a game under `rules` can reach it, else raise ValueError saying why."""
    n = table.players
    if not 2 <= n <= rules.max_players:
        raise ValueError(f"a game has 2-{rules.max_players} players (max_players), got {n}")
    if isinstance(table.to_move, bool) or not isinstance(table.to_move, int) \
            or not 0 <= table.to_move < n:
        raise ValueError(f"to_move must be a seat 0-{n - 1}, got {table.to_move!r}")
    if not isinstance(table.taken, bool):
        raise ValueError(f"round_chip_taken must be true or false, got {table.taken!r}")
    for t, name in enumerate(TYPES):
        total = table.plate[t] + table.aside[t] + sum(seat[t] for seat in table.seats)
        if total != CHIPS_PER_TYPE:
            raise ValueError(f"{name}: plate, aside and the seats must add up to "
                             f"{CHIPS_PER_TYPE}, got {total}")
        if table.aside[t]:
            higher = [u for u in range(t + 1, N_TYPES) if table.plate[u]]
            if higher:
                raise ValueError(f"{name} chips can be set aside only once every more valuable "
                                 f"plate is empty, but {TYPES[higher[0]]} has "
                                 f"{table.plate[higher[0]]} on the plate")
    if table.over:
        raise ValueError("the game is over: the plate is empty")
    if rules.set_aside == "turn" and table.taken:
        raise ValueError('round_chip_taken does not apply with set_aside = "turn"')
    if table.taken and not any(sum(seat) for seat in table.seats[:table.to_move + 1]):
        raise ValueError("round_chip_taken, but no seat that has played in this round (seats "
                         f"0-{table.to_move}) holds a chip")
    return replace(table, last=None)
