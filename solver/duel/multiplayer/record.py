"""A Dice Duel game for 2 or more players held as its record plus the dice in hand: the moves,
undo, seeded dice and replay that `kniffel play --rules dice-duel` and the web coach share.

The record is a JSON object {"format": "kniffel-dice-duel-game", "format_version", "rules",
"players", "seed", "real_dice", "finished", "scores", "turns": [{"player": seat, "decisions":
[{"dice", "rolls_left", "keep"} ..., then {"dice", "rolls_left", "take": TYPE, "from":
"plate"|"aside"} or {"dice", "rolls_left", "no_chip": true}]}]}.  A game is rebuilt by replaying
its record through multi_game's rules: that checks a move, undoes a step and resumes a saved
game.  Seeded dice come from the seed in the order the scorecard games draw them
(game.session.seeded_rng), so the same seed and decisions give the same dice.
"""
import copy
from collections import Counter
from dataclasses import dataclass, field

from ...dice import DICE, validate_dice
from ...game import session
from ...game.card import RECORD_VERSION, GameError
from ...game.record import (
    check_fields,
    check_recorded,
    check_seeded,
    seeded_dice,
    unknown_fields,
)
from ...game.session import seeded_rng
from ...presets import read_rules
from ...rules import RulesError
from ...version import __version__
from ..chips import TYPES, type_key
from ..words import Said, chips_text, moves_text
from . import game as mg
from .notes import checked_note, make_note

FORMAT = "kniffel-dice-duel-game"
RECORD_FIELDS = frozenset({"format", "format_version", "package_version", "rules", "seed",
                           "real_dice", "players", "finished", "scores", "turns"})


def is_duel_record(record):
    """Is this object a record of the multiplayer Dice Duel?"""
    return isinstance(record, dict) and record.get("format") == FORMAT


def record_rules(value):
    """The DuelRules of a record: "dice-duel" or the rules object as_dict() writes; GameError
    naming the problem."""
    try:
        rules = read_rules(value, files=False)
    except RulesError as exc:
        raise GameError(f"record rules: {exc}") from None
    if rules.game != "dice-duel":
        raise GameError(f"record rules must be dice-duel or its rules object, got {value!r}"[:200])
    return rules


@dataclass
class DuelGame:
    """A game being played: the position at the current turn's start and the turn so far."""

    rules: object
    players: list
    seed: object
    real_dice: bool
    table: mg.Table
    turns: list = field(default_factory=list)  # the record's turns so far
    dice: tuple = None  # the dice in hand (None: to be rolled)
    rolls_left: int = 0  # rolls still allowed after the dice in hand (or, none in hand: to come)
    kept: tuple = ()  # dice held from the last roll
    advice: dict = None  # the advice shown for the next decision, noted with it (notes.py)
    dice_rng: object = None  # a replay's check of seeded dice: the seed's generator, past the rolls

    @property
    def over(self):
        return self.table.last is not None

    def record(self):
        finished = self.over
        return {"format": FORMAT, "format_version": RECORD_VERSION, "package_version": __version__,
                "rules": self.rules.as_dict(), "seed": self.seed, "real_dice": self.real_dice,
                "players": list(self.players), "finished": finished,
                "scores": mg.scores(self.table, self.rules) if finished else None,
                "turns": [{"player": t["player"], "decisions": copy.deepcopy(t["decisions"])}
                          for t in self.turns]}

    def advice_line(self):
        """The advice contract's line of the current decision (None when the game is over or a
        reroll is due)."""
        if self.over or (self.dice is None and self.kept):
            return None
        line = {"players": len(self.players), "chips": self.table.counts(),
                "to_move": self.table.to_move, "round_chip_taken": self.table.taken}
        if self.dice is not None:
            line.update(dice=list(self.dice), rolls_left=self.rolls_left)
        return line

    def roll(self, faces):
        """Put the dice thrown into hand: the new ones (5 minus the kept), or all five."""
        if self.over:
            raise GameError("error.game_over")
        if self.dice is not None:
            raise GameError("duel.error.rolled")
        faces = list(faces)
        # the place of the first bad face (its value may itself be None)
        bad = next((i for i, f in enumerate(faces) if isinstance(f, bool) or not isinstance(f, int)
                    or not 1 <= f <= 6), None)
        if bad is not None:  # a player's typing: said in the player's words
            raise GameError("duel.error.face", face=str(faces[bad])[:20])
        if len(faces) == DICE - len(self.kept):
            faces = list(self.kept) + faces
        elif len(faces) != DICE:
            raise GameError("duel.error.dice_count", n=DICE - len(self.kept), got=len(faces))
        elif Counter(self.kept) - Counter(faces):
            raise GameError("error.hold_kept", dice=list(self.kept))
        try:
            self.dice = validate_dice(faces)
        except (ValueError, TypeError) as exc:
            raise GameError(str(exc)) from None
        self.rolls_left -= 1

    def keep(self, keep):
        if self.dice is None:
            raise GameError("error.roll_first")
        if self.rolls_left == 0:
            raise GameError("duel.error.no_roll")
        keep = tuple(sorted(keep))
        if len(keep) >= DICE or Counter(keep) - Counter(self.dice):
            raise GameError("duel.error.keep", keep=list(keep), dice=list(self.dice))
        self._decision({"keep": list(keep)})
        self.kept, self.dice = keep, None

    def end_turn(self, move):
        """End the turn with ("take", type, source) or ("no_chip",)."""
        if self.dice is None:
            raise GameError("error.roll_first")
        category = int(self.rules.categories[0][_index(self.dice)])
        mask = int(self.rules.categories[1][category])
        moves = mg.end_moves(self.table, mask, category == 0, self.rules)
        if move not in moves:
            raise GameError("duel.error.not_possible", move=Said(moves_text, [move]),
                            dice=list(self.dice), moves=Said(moves_text, moves))
        self._decision({"no_chip": True} if move[0] == "no_chip"
                       else {"take": TYPES[move[1]], "from": move[2]})
        self.table = mg.after_move(self.table, move, category == 0, self.rules)
        self.dice, self.kept, self.rolls_left = None, (), self.rules.rolls_per_turn

    def _decision(self, choice):
        decision = {"dice": list(self.dice), "rolls_left": self.rolls_left, **choice}
        if self.advice is not None:
            position = {**self.advice_line(), "dice": sorted(self.dice)}
            note = make_note(self.advice, position, choice)
            if note is not None:
                decision["advice"] = note
            self.advice = None
        if not self.turns or self.turns[-1]["done"]:
            self.turns.append({"player": self.table.to_move, "decisions": [], "done": False})
        self.turns[-1]["decisions"].append(decision)
        self.turns[-1]["done"] = "keep" not in choice


def _index(faces):
    from ...dice import KEEP_INDEX
    return KEEP_INDEX[tuple(sorted(faces))]


def parse_end(decision):
    """The move of a decision or web move: {"take": TYPE, "from"?} or {"no_chip": true}."""
    if decision.get("no_chip") is True:
        return ("no_chip",)
    chip = decision.get("take")
    source = decision.get("from", mg.PLATE)
    if source not in (mg.PLATE, mg.ASIDE):
        raise GameError(f"from must be plate or aside, got {source!r}")
    try:
        return ("take", TYPES.index(type_key(chip)), source)
    except ValueError:
        raise GameError("duel.error.unknown_chip", name=str(chip), chips=Said(chips_text, TYPES)) \
            from None


def new_game(rules, players, seed=None, real_dice=False):
    """A game not yet started (GameError for a number of players the rules do not allow)."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise GameError("players must be a list of names")
    if not 2 <= len(players) <= rules.max_players:
        raise GameError("duel.error.players", most=rules.max_players, n=len(players))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                             or not 0 <= seed < 2**63):
        raise GameError(f"seed must be a whole number >= 0 or null, got {seed!r}")
    if not isinstance(real_dice, bool):
        raise GameError(f"real_dice must be true or false, got {real_dice!r}")
    return DuelGame(rules, list(players), seed, real_dice, mg.new_table(len(players)),
                    rolls_left=rules.rolls_per_turn)


def replay(record, visit=None, strict=False):
    """Replay a record through the rules -> DuelGame; GameError names the first bad decision.
    visit(game, decision) is called before each decision is taken (for the analysis).  strict:
    also refuse a record whose summary ("finished", "scores") is not what its moves give, as
    a record handed in from outside must agree (the game's own undo replays stale ones)."""
    if not is_duel_record(record) or not isinstance(record.get("turns"), list):
        raise GameError("not a Dice Duel game record")
    check_fields(record, RECORD_FIELDS)
    players = record.get("players")
    game = new_game(record_rules(record.get("rules")), players, record.get("seed"),
                    record.get("real_dice", False))
    # virtual dice are the seed's: a record whose rolls are not is refused (as a scorecard's)
    game.dice_rng = None if game.real_dice else seeded_dice(record)
    for number, turn in enumerate(record["turns"], 1):
        if not isinstance(turn, dict) or not isinstance(turn.get("decisions"), list) \
                or not turn["decisions"]:
            raise GameError(f"turn {number}: a turn needs a list of \"decisions\"")
        unknown_fields(turn, {"player", "decisions"}, "a turn")
        if turn.get("player", game.table.to_move) != game.table.to_move:
            raise GameError(f"turn {number}: it is seat {game.table.to_move}'s turn")
        for step, decision in enumerate(turn["decisions"], 1):
            try:
                _replay_decision(game, decision, visit)
            except (GameError, TypeError, AttributeError) as exc:
                raise GameError(f"turn {number}, decision {step}: {exc}") from None
    if strict:
        check_recorded(record, game.record(), ("finished", "scores"))
    return game


def check_record(record):
    """GameError unless `record` is a Dice Duel record whose every field agrees with its moves
    (replay's strict): a request must not pass off a summary of its own making."""
    replay(record, strict=True)


# a decision's fields in a record ("advice": the advice shown with it, notes.py)
DECISION_FIELDS = {"dice", "rolls_left", "keep", "take", "from", "no_chip", "advice"}


def _replay_decision(game, decision, visit):
    if not isinstance(decision, dict) or "dice" not in decision:
        raise GameError("a decision needs \"dice\"")
    unknown = sorted(map(str, set(decision) - DECISION_FIELDS))
    if unknown:
        raise GameError(f"a decision takes no field(s) {', '.join(unknown)[:120]}")
    choices = [key for key in ("keep", "take", "no_chip") if key in decision]
    if len(choices) != 1 or ("from" in decision and choices != ["take"]):
        raise GameError("a decision needs exactly one of \"keep\", \"take\" (with \"from\") "
                        "and \"no_chip\": true")
    kept = game.kept
    game.roll(decision["dice"])
    if game.dice_rng is not None:
        check_seeded(game.dice_rng, kept, game.dice)
    if decision.get("rolls_left", game.rolls_left) != game.rolls_left:
        raise GameError(f"{game.rolls_left} rolls are left here, the record says "
                        f"{decision['rolls_left']!r}")
    # the choice is parsed before `visit` sees the decision: the analysis reads it as valid
    if "keep" in decision:
        keep = _faces(decision["keep"])
    elif "no_chip" in decision and decision["no_chip"] is not True:
        raise GameError(f"no_chip must be true, got {decision['no_chip']!r}")
    else:
        end = parse_end(decision)
    if visit is not None:
        visit(game, decision)
    if "keep" in decision:
        game.keep(keep)
    else:
        game.end_turn(end)
    note = checked_note(decision.get("advice"))
    if note is not None:  # the advice noted stays with its decision (a malformed one is dropped)
        game.turns[-1]["decisions"][-1]["advice"] = note


def _faces(values):
    """`values` if it is a list of faces 1-6, else a GameError in the player's words."""
    if not isinstance(values, list):
        raise GameError("duel.error.dice_list")
    bad = next((v for v in values if isinstance(v, bool) or not isinstance(v, int)
                or not 1 <= v <= 6), None)
    if bad is not None:
        raise GameError("duel.error.face", face=str(bad)[:20])
    return values


def rebuild(record, hand=None):
    """Replay `record` and put `hand` (five dice, or None) into the current turn."""
    game = replay(record)
    if hand is not None:
        if game.over:
            raise GameError("error.game_over")
        kept = game.kept
        game.roll(_faces(hand))
        if game.dice_rng is not None:  # the dice in hand: the seed's next roll
            check_seeded(game.dice_rng, kept, game.dice)
    return game


def apply_move(record, hand, move, advice=None):
    """One move on the game (record, hand) -> the new (record, hand).  move: {"roll": true}
    (seeded dice), {"roll": [faces]} (real dice), {"keep": [faces]}, the two at once
    ({"keep": [faces], "roll": ...}: keep, then roll the rest, one request for the page's one
    tap), {"take": TYPE, "from": "plate"|"aside"}, {"no_chip": true} or {"undo": true}.
    GameError if not allowed.  advice: the advice answer shown for this decision, noted with it
    in the record when it is for this position and names the move (notes.py); anything else is
    left out."""
    if not isinstance(move, dict) or not set(move) & {"roll", "keep", "take", "no_chip", "undo"}:
        raise GameError("a move is one of roll, keep, take, no_chip and undo")
    if "undo" in move:
        return undo(record, hand)
    game = rebuild(record, hand)
    if game.over:
        raise GameError("error.game_over")
    if "keep" in move:
        game.advice = advice
        game.keep(_faces(move["keep"]))
        if "roll" not in move:
            return game.record(), None
        game.advice = None  # the roll is no decision: nothing to note
        record = game.record()  # the dice are drawn as after a keep of its own
    if "roll" in move:
        return _roll(game, record, move["roll"])
    game.advice = advice
    game.end_turn(parse_end(move))
    return game.record(), None


def _roll(game, record, faces):
    """The game after a roll of the dice not kept: seeded (faces True) or real (the faces)."""
    if faces is True:
        if game.real_dice or game.seed is None:
            raise GameError("error.real_dice")
        rng = seeded_rng(game.seed, record)
        faces = rng.integers(1, 7, size=DICE - len(game.kept)).tolist()
    elif not game.real_dice:
        raise GameError("error.seeded_dice")
    game.roll(_faces(faces))
    return game.record(), list(game.dice)


def undo(record, hand):
    """One step back: the dice in hand of a real-dice game (to type again), else the last
    decision, with its dice back in hand.  Nothing to undo: unchanged."""
    return session.undo(record, hand, replay)
