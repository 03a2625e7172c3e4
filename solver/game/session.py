"""A game held as its record plus the dice in hand: the moves, undo and seeded dice that both front
ends (the terminal game and the web page) use.

A game in progress is fully described by its record (record.py) and the dice in hand that no
decision has been taken on yet, so it can be rebuilt at any point by replaying the record: that is
how a move is checked, a step undone and a saved game resumed.  Seeded dice are drawn from the
record's seed in the order `kniffel play` draws them, so the same seed and the same decisions give
the same dice in both front ends, and undoing a step and taking it again rolls the same dice.
"""
import copy

import numpy as np

from ..dice import DICE, validate_dice
from ..engine.states import Position, position_state
from ..rules.scoring import upper_bonus_needs
from .card import Game, GameError, int_faces, parse_box, writable
from .record import replay


def roll_sizes(record, hand=None):
    """How many dice each roll of the record threw, in order (5, then 5 minus the dice kept),
    and last the roll of `hand` (the dice in hand, not yet in the record) when there is one."""
    sizes = []
    kept = 0
    for turn in record.get("turns", []):
        kept = 0
        for decision in turn["decisions"]:
            if "dice" not in decision:  # a turn written without dice threw none here
                continue
            sizes.append(DICE - kept)
            kept = len(decision["keep"]) if "keep" in decision else 0
    if hand is not None:
        sizes.append(DICE - kept)
    return sizes


def seeded_rng(seed, record=None, hand=None):
    """The dice generator of a seeded game (numpy's PCG64 from `seed`), advanced past every roll
    of `record` (and of `hand`): the next draw is the next roll of `kniffel play --seed`."""
    rng = np.random.default_rng(seed)
    for size in roll_sizes(record or {}, hand):
        rng.integers(1, 7, size=size)
    return rng


def new_record(rules, players, seed=None, real_dice=False):
    """The record of a game not yet started (GameError for impossible players)."""
    return Game(rules, players, seed, real_dice).record()


def rebuild(record, hand=None):
    """Replay `record` and put `hand` (the five dice in hand, or None) into the current turn.
    Returns (game, turn): turn is None when the game is over.  GameError when either is wrong."""
    game = replay(record)
    if game.over:
        if hand is not None:
            raise GameError("the game is over: no dice in hand")
        return game, None
    turn = game.next_turn()
    if hand is not None:
        if isinstance(hand, list) and len(hand) != DICE:
            raise GameError("error.dice_count", n=DICE, got=len(hand))
        try:
            hand = validate_dice(hand)
        except (ValueError, TypeError) as exc:
            raise GameError(f"hand: {exc}") from None
        turn.roll(list(hand))
    return game, turn


def check_record(record, hand=None):
    """GameError unless `record` agrees with its moves in every field (as `kniffel analyze` asks:
    record.replay's strict) and, in a game of virtual dice, `hand` is the roll its seed gives
    next: a request must not pass off a record or dice of its own making as the game's."""
    from .record import check_seeded, seeded_dice
    game = replay(record, strict=True)
    rng = seeded_dice(record)
    if hand is None or rng is None or game.over:
        return
    turn = game.next_turn()
    kept = turn.kept
    if isinstance(hand, list) and len(hand) != DICE:  # in the player's words, as rebuild says it
        raise GameError("error.dice_count", n=DICE, got=len(hand))
    try:
        hand = validate_dice(hand)
    except (ValueError, TypeError) as exc:
        raise GameError(f"hand: {exc}") from None
    for size in roll_sizes(record):
        rng.integers(1, 7, size=size)
    check_seeded(rng, kept, hand)


def apply_move(record, hand, move):
    """Take one move on the game (record, hand) -> the new (record, hand).

    move: {"roll": true} (seeded dice), {"roll": [faces]} (the dice thrown: the new ones or all
    five), {"keep": [faces]}, {"box": name, "jokers": [[from, to], ...]}, {"write": {"box":
    name, "points": n, "extra_bonus": bool}} (another player's turn as written, real dice only)
    or {"undo": true}.  The record is not changed in place; GameError when the move is not
    allowed."""
    if not isinstance(move, dict) or len(move) != 1 + ("jokers" in move and "box" in move) \
            or not set(move) & {"roll", "keep", "box", "write", "undo"}:
        raise GameError("a move is one of roll, keep, box (with jokers), write and undo")
    if "undo" in move:
        return undo(record, hand)
    game, turn = rebuild(record, hand)
    if turn is None:
        raise GameError("error.game_over")
    if "write" in move:
        box, points, extra = written_move(move["write"])
        if hand is not None:
            raise GameError("error.write_rolled")
        turn.write(parse_box(box, game.rules), points, extra)
        return game.record(), None
    if "roll" in move:
        if hand is not None:
            raise GameError("error.rolled")
        return _rolled(game, turn, record, move["roll"])
    if hand is None:
        raise GameError("error.roll_first")
    if "keep" in move:
        keep = int_faces(move["keep"])
        if len(keep) == DICE:
            raise GameError("error.keep_five")
        turn.keep(keep)
        return game.record(), None
    return _scored(game, turn, move)


def _rolled(game, turn, record, faces):
    """The roll of a move: {"roll": true} the seeded dice, else the faces thrown (real dice)."""
    if faces is True:
        if game.real_dice or game.seed is None:
            raise GameError("error.real_dice")
        faces = seeded_rng(game.seed, record).integers(1, 7, size=turn.n_to_roll).tolist()
    elif game.real_dice:
        faces = int_faces(faces, sort=False)
    else:
        raise GameError("error.seeded_dice")
    turn.roll(list(faces))
    return game.record(), list(turn.dice)


def _scored(game, turn, move):
    """A box entered: {"box": name, "jokers": [[from, to], ...]}."""
    jokers = move.get("jokers") or []
    if not isinstance(jokers, list):
        raise GameError(f"jokers must be a list of [from, to], got {move['jokers']!r}"[:200])
    for change in jokers:
        if not isinstance(change, list) or len(change) != 2:
            raise GameError(f"a joker is [from, to], got {change!r}"[:200])
        turn.joker(*int_faces(change, sort=False))
    if not isinstance(move["box"], str):
        raise GameError(f"box must be a box name, got {move['box']!r}"[:200])
    turn.score(parse_box(move["box"], game.rules))
    return game.record(), None


def written_move(write):
    """(box, points, extra_bonus) of a request's {"box": name, "points": n, "extra_bonus":
    bool}; GameError naming what is wrong with it."""
    if not isinstance(write, dict) or not {"box", "points"} <= set(write) \
            or set(write) - {"box", "points", "extra_bonus"}:
        raise GameError("write is {\"box\": name, \"points\": n, \"extra_bonus\": false}")
    box, points, extra = write["box"], write["points"], write.get("extra_bonus", False)
    if not isinstance(box, str):
        raise GameError(f"box must be a box name, got {box!r}"[:120])
    if not isinstance(points, int) or isinstance(points, bool):
        raise GameError(f"points must be a whole number, got {points!r}"[:120])
    if not isinstance(extra, bool):
        raise GameError(f"extra_bonus must be true or false, got {extra!r}"[:120])
    return box, points, extra


def undo(record, hand, replay=replay):
    """One step back: the roll in hand of a real-dice game (to type it again), else the last
    decision (a keep or a box), with its dice back in hand.  Nothing to undo: unchanged.
    replay(record) -> game: the game's own (the Dice Duel's records undo here too)."""
    replay(record)  # GameError for a record that is not one (its last turn, say, is null)
    if hand is not None and record.get("real_dice"):
        return record, None
    turns = copy.deepcopy(record.get("turns", []))
    if not turns:
        return record, hand
    decision = turns[-1]["decisions"].pop()
    if not turns[-1]["decisions"]:
        turns.pop()
    game = replay({**record, "turns": turns})
    return game.record(), list(decision["dice"]) if "dice" in decision else None  # written: no dice


def advice_fields(game, turn):
    """The fields of the question of the current decision (ask/request.py: the rules, the
    position and the dice in hand, as the game holds them), or None when the turn waits for a
    reroll."""
    if turn is None or (turn.dice is None and turn.rolls_left != game.rules.rolls_per_turn):
        return None
    fields = {"rules": game.rules, "card": turn.position}
    if turn.dice is not None:
        fields.update(dice=list(turn.dice), rolls_left=turn.rolls_left)
    return fields


def advice_line(game, turn, opponents=None):
    """The `kniffel advise --batch` line of the current decision (dice in hand, or the turn's
    start when no dice are rolled yet; with `opponents`, for the chance to win), or None when
    the turn waits for a reroll."""
    if advice_fields(game, turn) is None:
        return None
    position = turn.position
    line = {"card": dict(position.card), "kniffel_bonuses": position.kniffel_bonuses}
    if game.rules.key == game.rules.preset:
        line = {"rules": game.rules.key, **line}  # a line `kniffel advise --batch` takes as is
    if game.rules.jokers:
        line["jokers_left"] = position.jokers_left
    if turn.dice is not None:
        line["dice"] = list(turn.dice)
        line["rolls_left"] = turn.rolls_left
    if opponents:
        line["opponents"] = opponents
    return line


def write_options(game, turn):
    """What the turn's player may write without dice (another player's turn as the players
    write it): {box: {"points": [...], "bonus": [...]}} (the points with the extra-Kniffel bonus
    paid), or None: only at a turn's start in a real-dice game without jokers."""
    rules = game.rules
    if not game.real_dice or rules.jokers or turn.dice is not None or turn.kept \
            or turn.rolls_left != rules.rolls_per_turn:
        return None
    return {box: {"points": sorted({p for p, paid in found if not paid}),
                  "bonus": sorted({p for p, paid in found if paid})}
            for box, found in writable(rules, turn.state).items()}


def start_expectation(table):
    """The expected final score of optimal play from the empty card."""
    rules = table.rules
    return float(table.value(position_state(Position({}, 0, rules.jokers), rules)))


def summary(game):
    """Each column as on the pad: the boxes, upper subtotal, what the bonus still needs, totals."""
    rules = game.rules
    columns = []
    for column in game.columns:
        upper = sum(column.card.get(box, 0) for box in rules.boxes[:6])
        most = sum(5 * (rules.boxes.index(b) + 1) for b in rules.boxes[:6] if b not in column.card)
        needs = upper_bonus_needs(upper, most, rules.upper_bonus_threshold)
        reached = needs == 0
        columns.append({"name": column.name, "card": dict(column.card), "upper": upper,
                        "upper_bonus": rules.upper_bonus if reached else 0,
                        "bonus_needs": rules.upper_bonus_threshold - upper if needs is None
                        else needs,
                        "bonus_possible": needs is not None,
                        "kniffel_bonuses": column.kniffel_bonuses,
                        "extra_bonus": column.kniffel_bonuses * rules.extra_bonus,
                        "jokers_left": column.jokers_left, "total": column.total(rules),
                        "filled": len(column.card)})
    return columns
