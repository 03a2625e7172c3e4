"""The game record: a JSON object with the rules, the seed, the players and, for every turn,
each roll with the decision taken on it (documented in docs/reference.md).  Saving is atomic; a
record is replayed through the same Game and Turn checks as a live game."""
import json
from dataclasses import dataclass

from ..dice import DICE, validate_dice
from ..engine.states import Position
from ..engine.store import atomic_write
from ..inputs import MAX_RECORD_BYTES, FileRefused, json_kind, read_regular
from ..presets import read_rules
from ..rules import RulesError
from .card import RECORD_VERSION, Game, GameError, int_faces, parse_box


def save_record(record, path):
    """Write a game record atomically (temporary file, then rename): never half a file."""
    try:
        atomic_write(path, record_text(record).encode())
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write the game record: {exc.strerror}",
                      str(path)) from None


def record_text(record):
    """The record as JSON text: one line per key, one line per turn (readable, and diffs well)."""
    head = json.dumps({k: v for k, v in record.items() if k != "turns"}, indent=1)
    turns = ",\n  ".join(json.dumps(turn) for turn in record.get("turns", []))
    return head[:-2] + ',\n "turns": [' + (f"\n  {turns}\n ]" if turns else "]") + "\n}\n"


def load_record(path):
    """Read a game record file (GameError when it cannot be read or is not one): a regular file
    of at most MAX_RECORD_BYTES (a device or a FIFO is refused before a byte is read)."""
    try:
        record = json.loads(read_regular(path, MAX_RECORD_BYTES, "game record").decode("utf-8"))
    except FileRefused as exc:
        raise GameError(str(exc)) from None
    except RecursionError:  # json recurses once per bracket
        raise GameError(f"{path} is nested too deeply to be a game record") from None
    except UnicodeDecodeError as exc:
        raise GameError(f"{path} is not UTF-8 text (byte {exc.start + 1})") from None
    except ValueError as exc:
        raise GameError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(record, dict) or "turns" not in record or "rules" not in record:
        raise GameError(f"{path} is not a game record (it needs \"rules\" and \"turns\")")
    wrong = format_version_error(record)
    if wrong is not None:
        raise GameError(f"{path}: {wrong}")
    return record


# The fields of a record, a turn, its start and a decision (docs/reference.md): any other is
# refused, not ignored (a typo must not pass for a field the game reads)
RECORD_FIELDS = frozenset({"format", "format_version", "package_version", "rules_key", "rules",
                           "seed", "real_dice", "players", "finished", "scores", "turns"})
TURN_FIELDS = frozenset({"player", "round", "start", "decisions", "card_total"})
START_FIELDS = frozenset({"card", "kniffel_bonuses", "jokers_left"})
DECISION_FIELDS = frozenset({"dice", "rolls_left", "keep", "box", "jokers", "points",
                             "extra_bonuses"})


def unknown_fields(value, fields, what):
    """GameError naming the fields of the object `value` that `what` does not have."""
    unknown = sorted(map(str, set(value) - fields))
    if unknown:
        raise GameError(f"{what} has no field(s) {', '.join(map(repr, unknown))}"[:200]
                        + f"; it has: {', '.join(sorted(fields))}")


def check_fields(record, fields=RECORD_FIELDS):
    """GameError for a record field this kniffel does not read as given: a field it does not
    have, a "format_version" it cannot read, a "package_version" that is not a version."""
    unknown_fields(record, fields, "a game record")
    wrong = format_version_error(record)
    if wrong is not None:
        raise GameError(wrong)
    version = record.get("package_version", "")
    if not isinstance(version, str) or len(version) > 40:
        raise GameError(f"package_version must be the version that wrote the record (a string), "
                        f"got {json.dumps(version, default=str)[:40]}, {json_kind(version)}")


def format_version_error(record):
    """Why this kniffel cannot read a record's "format_version" (None when it is RECORD_VERSION
    or not given): another version, or a value that is no version at all ("1" is a string)."""
    if "format_version" not in record:
        return None
    value = record["format_version"]
    if isinstance(value, int) and not isinstance(value, bool):
        return None if value == RECORD_VERSION else \
            f"record format version {value}, this kniffel reads {RECORD_VERSION}"
    if value is None or isinstance(value, bool):
        return f"format_version is {json.dumps(value)}, expected the number {RECORD_VERSION}"
    return (f"format_version {json.dumps(value, default=str)[:40]} is {json_kind(value)}, "
            f"expected the number {RECORD_VERSION}")


def record_players(record):
    """The player names of a record (one player, "you", when it names none)."""
    players = record.get("players", ["you"])
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise GameError(f"players must be a list of names, got {players!r}")
    return players


def record_real_dice(record):
    """Whether a record's game is played with real dice (false when it does not say); GameError
    for another value than true or false (the text "false" is not false)."""
    real_dice = record.get("real_dice", False)
    if not isinstance(real_dice, bool):
        raise GameError(f"real_dice must be true or false, got {real_dice!r}"[:120])
    return real_dice


def record_rules(value):
    """The Rules of a record: a preset name or the rules object `Rules.as_dict()` writes (never
    a file: a record names no file); GameError naming the problem."""
    try:
        rules = read_rules(value, files=False)
    except RulesError as exc:
        raise GameError(f"record rules: {exc}") from None
    if rules.game != "scorecard":
        raise GameError(f"record rules {rules.key}: only scorecard games have game records")
    return rules


@dataclass(frozen=True)
class DecisionPoint:
    """Where a decision was taken: the turn start (Position and State), the dice as rolled."""

    player: int
    round: int
    position: Position
    state: object  # state.State
    dice: tuple
    rolls_left: int
    opponents: list  # the other players then, as Game.opponents gives them


def replay(record, visit=None, strict=False):
    """Replay a record through the game's checks and return the Game.

    strict: also refuse a record whose other fields disagree with the moves (a turn's round and
    card total, a decision's extra bonuses, the format, rules key, scores and whether it is
    finished), as `analyze` does, and a seeded record whose dice are not its seed's rolls; a
    record the game edits itself (undo) keeps stale ones.

    visit(point, decision) is called for each decision once it is checked, with the
    DecisionPoint it was taken at and the decision as the game records it.  GameError names the
    first decision that is impossible or disagrees with the record (a start card or points that
    do not match the moves before it)."""
    check_fields(record)
    rules = record_rules(record["rules"])
    game = Game(rules, record_players(record), record.get("seed"), record_real_dice(record))
    turns = record["turns"]
    if not isinstance(turns, list):
        raise GameError("\"turns\" must be a list")
    rng = seeded_dice(record) if strict else None
    for number, turn_record in enumerate(turns, 1):
        try:
            turn = game.next_turn()
            _check_turn_start(turn, turn_record, game)
        except GameError as exc:
            raise GameError(f"turn {number}: {exc}") from None
        for step, decision in enumerate(turn_record["decisions"], 1):
            try:
                if isinstance(decision, dict) and decision.get("written") is True:
                    _write(turn, decision)  # a turn written without its dice: nothing to visit
                    if strict:
                        check_recorded(decision, turn.record["decisions"][-1], ("extra_bonuses",))
                    continue
                kept = turn.kept
                _take_dice(turn, decision)
                if rng is not None:
                    check_seeded(rng, kept, turn.dice)
                point = DecisionPoint(turn.player, turn.record["round"], turn.position, turn.state,
                                      turn.dice, turn.rolls_left, game.opponents(turn.player))
                _decide(turn, decision)
                if strict:
                    check_recorded(decision, turn.record["decisions"][-1], ("extra_bonuses",))
                if visit is not None:  # the game's own copy: box keys, points filled in
                    visit(point, turn.record["decisions"][-1])
            except GameError as exc:
                raise GameError(f"turn {number}, decision {step}: {exc}") from None
        if not turn.done and number != len(turns):
            raise GameError(f"turn {number} ends without a box but more turns follow")
        try:
            check_recorded(turn_record, turn.record, ("round", "card_total") if strict else ())
        except GameError as exc:
            raise GameError(f"turn {number}: {exc}") from None
    if strict:
        check_recorded(record, game.record(), SUMMARY_FIELDS)
    return game


def seeded_dice(record):
    """The dice generator of a record with virtual dice (its seed's rolls, in the order the game
    draws them, game/session.py), None for real dice; GameError for a seed that is none."""
    seed = record.get("seed")
    if record_real_dice(record) or seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise GameError(f"seed must be a whole number >= 0 or null, got {seed!r}"[:120])
    import numpy as np
    return np.random.default_rng(seed)


def check_seeded(rng, kept, dice):
    """GameError when `dice` (the hand after a roll that held `kept`) is not the kept dice plus
    the next roll of `rng` (advanced past it): dice that a seeded game never rolled."""
    from collections import Counter
    drawn = rng.integers(1, 7, size=DICE - len(kept)).tolist()
    if Counter(dice) != Counter(list(kept) + drawn):
        raise GameError(f"the dice {sorted(dice)} are not what this game's seed rolled here, "
                        f"{sorted(list(kept) + drawn)}")


# Fields of a record that the moves determine: a record that says otherwise is refused.
SUMMARY_FIELDS = ("format", "format_version", "rules_key", "finished", "scores")


def check_recorded(recorded, replayed, keys):
    """GameError for the first of `keys` whose value in the record is not the replay's (of
    another type, too: true is not 1)."""
    for key in keys:
        if key in recorded and key in replayed and (type(recorded[key]) is not type(replayed[key])
                                                    or recorded[key] != replayed[key]):
            given = json.dumps(recorded[key], default=str)
            raise GameError(f"the record's {key} {given[:60]} is not what the moves give, "
                            f"{json.dumps(replayed[key])[:60]}")


def _check_turn_start(turn, turn_record, game):
    if not isinstance(turn_record, dict) or not isinstance(turn_record.get("decisions"), list) \
            or not turn_record["decisions"]:
        raise GameError("a turn needs a list of \"decisions\"")
    unknown_fields(turn_record, TURN_FIELDS, "a turn")
    if turn_record.get("player", turn.player) != turn.player:
        raise GameError(f"it is {game.players[turn.player]}'s turn (player {turn.player}), "
                        f"the record has player {turn_record.get('player')!r}")
    start = turn_record.get("start")
    if start is None:
        return
    if not isinstance(start, dict):
        raise GameError(f"a turn's \"start\" must be an object, got {start!r}"[:200])
    unknown_fields(start, START_FIELDS, "a turn's start")
    expected = {"card": turn.position.card, "kniffel_bonuses": turn.position.kniffel_bonuses,
                "jokers_left": turn.position.jokers_left}
    for key, value in expected.items():
        if key in start and start[key] != value:
            raise GameError(f"the recorded start {key} {start[key]!r} is not what the moves before "
                            f"it give, {value!r}")


def _write(turn, decision):
    """A turn as a player writes it: {"written": true, "box", "points", "extra_bonuses"}."""
    unknown = set(decision) - {"written", "box", "points", "extra_bonuses"}
    if unknown:
        raise GameError(f"a written turn takes no {', '.join(sorted(unknown))[:80]}")
    box, points, paid = (decision.get("box"), decision.get("points"),
                         decision.get("extra_bonuses", 0))
    if not isinstance(box, str):
        raise GameError(f"box must be a box name, got {box!r}"[:120])
    if not isinstance(points, int) or isinstance(points, bool):
        raise GameError(f"points must be a whole number, got {points!r}"[:120])
    if paid not in (0, 1) or isinstance(paid, bool):
        raise GameError(f"extra_bonuses of a written turn must be 0 or 1, got {paid!r}"[:120])
    turn.write(parse_box(box, turn.rules), points, bool(paid))


def _take_dice(turn, decision):
    """Put the decision's dice in hand, checking them against the dice kept before."""
    if not isinstance(decision, dict) or "dice" not in decision:
        raise GameError("a decision needs \"dice\"")
    unknown_fields(decision, DECISION_FIELDS, "a decision")
    if ("keep" in decision) == ("box" in decision):
        raise GameError("a decision needs exactly one of \"keep\" and \"box\"")
    try:
        faces = validate_dice(decision["dice"])
    except (ValueError, TypeError) as exc:
        raise GameError(str(exc)) from None
    turn.roll(faces)
    rolls_left = decision.get("rolls_left", turn.rolls_left)
    if rolls_left != turn.rolls_left:
        raise GameError(f"{turn.rolls_left} rolls are left here, the record says {rolls_left!r}")


def _decide(turn, decision):
    """Apply the decision's keep, or its jokers and box."""
    if "keep" in decision:
        turn.keep(int_faces(decision["keep"]))
        return
    jokers = decision.get("jokers") or []
    if not isinstance(jokers, list):
        raise GameError(f"jokers must be a list of [from, to], got {jokers!r}")
    for change in jokers:
        if not isinstance(change, list) or len(change) != 2:
            raise GameError(f"a joker is [from, to], got {change!r}")
        turn.joker(*int_faces(change, sort=False))
    if not isinstance(decision["box"], str):
        raise GameError(f"box must be a box name, got {decision['box']!r}")
    points, _ = turn.score(parse_box(decision["box"], turn.rules))
    if decision.get("points", points) != points:
        raise GameError(f"{decision['box']} scores {points} with these dice, the record says "
                        f"{decision['points']!r}")
