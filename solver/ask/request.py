"""A question, read once: every front end (the command line, a batch line, the terminal coach,
the web app, a Python program) gives its input as fields and read_request checks them into one
frozen Request; nothing else reads a card, dice, a goal or a rules name of a question.

The fields (a batch line is exactly this object; docs/reference.md lists them):
- every game: "rules" (a preset name, or a rules file where `files` allows), "dice" (five faces,
  or their text "13356" / "1,3,3,5,6"), "rolls_left";
- a scorecard: "card" ({box: points} or "ones=3,kniffel=50"), "kniffel_bonuses",
  "jokers_left"; the goal: "goal" ("points", "win", "target:T" or a Goal), "target" (T),
  "opponents" (a win: [{"final": S} | {"card": {...}}], or the command line's "final=S",
  "empty" or a card), "ties" ("share" | "lose"), "budget" (seconds);
- the Dice Duel: "chips", and for several players "players", "to_move", "round_chip_taken",
  "opponent_model";
- what the answer also says: "why" (true: what the turn plays for, advice/why.py; a scorecard).
Each error is a RequestError whose message names the field as the asker spelled it (`names`:
the command line's flags, say), so that it reads as one line in the asker's own terms.
"""
from dataclasses import dataclass, replace

from ..advice.goal import POINTS, Goal, TargetGoal, WinGoal
from ..advice.limits import (
    DEFAULT_BUDGET,
    MAX_OPPONENTS,
    OPPONENT_FIELDS,
    TIES,
    WHY_BUDGET,
    check_budget,
)
from ..advice.position import Query, checked_query
from ..dice import checked_roll, dice_faces
from ..duel.rules import DuelRules
from ..engine.states import Position, State, card_state
from ..presets import read_rules
from ..rules import Rules, RulesError
from ..rules.bounds import score_bound
from ..rules.cards import parse_card

SCORECARD_FIELDS = frozenset({"rules", "card", "kniffel_bonuses", "jokers_left", "dice",
                              "rolls_left", "goal", "target", "opponents", "ties", "budget",
                              "why"})
DUEL_FIELDS = frozenset({"rules", "chips", "dice", "rolls_left", "players", "to_move",
                         "round_chip_taken", "opponent_model", "goal"})
MULTI_FIELDS = frozenset({"players", "to_move", "round_chip_taken", "opponent_model"})


class RequestError(ValueError):
    """A question that cannot be answered as asked: one line naming the field."""


@dataclass(frozen=True)
class Request:
    """A question checked once: `query` the position (advice/position.Query: its rules, state,
    roll in hand, rolls left and the position of its game), `goal` what to play for, `why`
    None, or the budget (reference seconds) within which the answer also says what the turn
    plays for (advice/why.py)."""
    query: Query
    goal: Goal
    why: float | None = None

    @property
    def rules(self):
        return self.query.rules

    def with_goal(self, goal):
        """The same position asked for another goal (the win coach knows its opponents only
        at each decision)."""
        return Request(self.query, goal, self.why)


def read_request(fields, rules=None, *, names=None, files=True, game=None):
    """The Request of `fields` (a dict: module docstring): `rules` the rules of a question that
    names none (default kniffel); `names` {field: how the asker spells it} for the messages;
    `files`: whether "rules" may name a rules file (never for a request from the network);
    `game`: the game a question must be of (a batch answers one game a run).  RequestError (a
    ValueError) naming the first bad field."""
    if not isinstance(fields, dict):
        raise RequestError("a question is a JSON object of its fields")
    name = _Names(names)
    rules = _rules(fields, rules, name, files)
    if game is not None and rules.game != game:
        raise RequestError(f"{rules.key} has no scorecard; ask with --rules {rules.key}"
                           if game == "scorecard" else
                           f"{rules.key} is not Dice Duel; give such lines their own run")
    if rules.game == "dice-duel":
        return Request(*duel_query(fields, rules, name))
    _check_fields(fields, SCORECARD_FIELDS, name)
    position = _position(fields, rules, name)
    faces, rolls_left = _dice(fields, name)
    try:
        query = checked_query(position, rules, faces, rolls_left)
    except ValueError as exc:
        raise RequestError(str(exc)) from None
    return Request(query, _goal(fields, rules, name), _why(fields, name))


def _why(fields, name):
    """None, or the budget of the why "why" asks for (true or false; null: false): the
    question's "budget", else WHY_BUDGET."""
    why = fields.get("why")
    if why is not None and not isinstance(why, bool):
        raise RequestError(f"{name('why')} must be true or false, got {why!r}"[:200])
    return _budget(fields, name, WHY_BUDGET) if why else None


class _Names:
    """How the asker spells a field: names(field)."""

    def __init__(self, names):
        self.names = names or {}

    def __call__(self, field):
        return self.names.get(field, field)


def _rules(fields, default, name, files):
    if "rules" not in fields:
        if default is None and {"chips", "players"} & set(fields):
            return read_rules("dice-duel")  # its fields say which game it is
        return default if default is not None else read_rules(None)
    value = fields["rules"]
    if not isinstance(value, (str, Rules, DuelRules)):  # null is not "the default"
        raise RequestError(f"{name('rules')} must be a preset name"
                           + (" or the path of a rules file" if files else ""))
    try:
        return read_rules(value, files=files)
    except RulesError as exc:
        raise RequestError(str(exc)) from None


def _check_fields(fields, allowed, name):
    unknown = set(fields) - allowed
    if unknown & MULTI_FIELDS:
        raise RequestError(f"{name('players')}: only the Dice Duel (rules dice-duel) is advised "
                           "for several players; a scorecard line is one player's card")
    if unknown & {"chips"}:
        raise RequestError(f"{name('chips')} needs {name('rules')} dice-duel")
    if unknown:
        raise RequestError(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}"[:300])


def _position(fields, rules, name):
    """The Position of the card and what else the turn's start needs (checked_query reads the
    card)."""
    card = fields.get("card", {})
    if isinstance(card, Position):  # a program's position: its own bonuses and jokers
        return Position(card.card, fields.get("kniffel_bonuses", card.kniffel_bonuses),
                        fields.get("jokers_left", card.jokers_left))
    if not isinstance(card, (dict, str)):
        raise RequestError(f"{name('card')} must be an object of box: points")
    return Position(card, fields.get("kniffel_bonuses", 0), fields.get("jokers_left"))


def _dice(fields, name):
    """(faces or None, rolls left or None) of "dice" and "rolls_left" (the faces' text read)."""
    faces, rolls_left = fields.get("dice"), fields.get("rolls_left")
    if faces is None and rolls_left is not None:
        raise RequestError(f"{name('rolls_left')} needs {name('dice')}")
    if isinstance(faces, str):  # the command line's "13356" or "1,3,3,5,6"
        try:
            faces = dice_faces(faces)
        except ValueError as exc:
            raise RequestError(str(exc)) from None
    return faces, rolls_left


def read_roll(fields, rules, name):
    """(roll index or None, rolls left or None) of "dice" and "rolls_left"."""
    faces, rolls_left = _dice(fields, name)
    if faces is None:
        return None, None
    try:
        return checked_roll(faces, rolls_left, rules.rolls_per_turn)
    except ValueError as exc:
        raise RequestError(str(exc)) from None


def _goal(fields, rules, name):
    """The Goal of "goal", "target" or "opponents" (with "ties" and "budget"); points when
    none is named."""
    named = [f for f in ("goal", "target", "opponents") if f in fields]
    given = fields.get("goal")
    if isinstance(given, WinGoal):  # a program's: its opponents read as a line's
        return replace(given, opponents=tuple(read_opponents(given.opponents, rules, name)))
    if isinstance(given, Goal):
        return given
    if isinstance(given, str) and given.strip().lower() == "win":
        named.remove("goal")  # "win" takes its opponents from "opponents"
        if "opponents" not in fields:
            raise RequestError(f"{name('goal')} win needs {name('opponents')}")
    if len(named) > 1:
        raise RequestError(f"{name(named[0])} and {name(named[1])} do not go together: "
                           "pick one goal")
    budget = _budget(fields, name)
    ties = fields.get("ties")
    if ties is not None and "opponents" not in fields:
        raise RequestError(f"{name('ties')} goes with {name('opponents')}")
    if "opponents" in fields:
        ties = "share" if ties is None else ties
        if ties not in TIES:
            raise RequestError(f"{name('ties')} must be share or lose, got {ties!r}"[:200])
        return WinGoal(tuple(read_opponents(fields["opponents"], rules, name)), ties, budget)
    if "budget" in fields and not named and not fields.get("why"):
        raise RequestError(f"{name('budget')} goes with {name('opponents')}, {name('target')} "
                           f"or {name('why')}")
    if "target" in fields:
        return TargetGoal(_target(fields["target"], rules, name('target')), budget)
    if named:
        return _goal_text(given, rules, name, budget)
    return POINTS


def _goal_text(text, rules, name, budget):
    """The goal of "points" or "target:T"."""
    text = text.strip().lower() if isinstance(text, str) else text
    if text == "points":
        return POINTS
    if isinstance(text, str) and text.startswith("target:"):
        number = text.split(":", 1)[1].strip()
        target = int(number) if number.isascii() and number.isdigit() else None
        return TargetGoal(_target(target, rules, f"{name('goal')} target:T: T"), budget)
    raise RequestError(f"{name('goal')} must be points, win or target:T (T a final score), "
                       f"got {text!r}"[:200])


def _target(target, rules, what):
    most = score_bound(rules)
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= most:
        raise RequestError(f"{what} must be 0-{most} (the most a {rules.key} game can score), "
                           f"got {target!r}"[:200])
    return target


def _budget(fields, name, default=DEFAULT_BUDGET):
    try:
        return check_budget(fields.get("budget", default))
    except ValueError as exc:
        raise RequestError(f"{name('budget')}: {exc}") from None


def read_opponents(opponents, rules, name=None):
    """The opponents of a win, each read and checked: [{"final": S} | {"card": {...}, ...}]
    from that form or the command line's "final=S", "empty" or a card's text."""
    name = name or _Names(None)
    if not isinstance(opponents, (list, tuple)):
        raise RequestError(f'{name("opponents")} must be a list of {{"card": {{...}}}} or '
                           '{"final": S}')
    if not opponents:
        raise RequestError("the win objective needs at least one opponent")
    if len(opponents) > MAX_OPPONENTS:
        raise RequestError(f"at most {MAX_OPPONENTS} opponents (8 players), got "
                           f"{len(opponents)}")
    return [_opponent(opponent, rules, name) for opponent in opponents]


def _opponent(opponent, rules, name):
    if isinstance(opponent, str):  # the command line's form
        try:
            return _checked_opponent(_opponent_text(opponent), rules, name, (dict, str))
        except RequestError as exc:
            raise RequestError(f"{name('opponents')} {opponent!r}: {exc}") from None
    return _checked_opponent(opponent, rules, name, (dict,))


def _checked_opponent(opponent, rules, name, cards):
    shape = f'{name("opponents")} must be a list of {{"card": {{...}}}} or {{"final": S}}'
    if isinstance(opponent, dict) and set(opponent) == {"state"} \
            and isinstance(opponent["state"], State):  # a program that follows the states
        return opponent
    if not isinstance(opponent, dict) or ("card" in opponent) == ("final" in opponent):
        raise RequestError(shape)
    if set(opponent) - OPPONENT_FIELDS or ("final" in opponent and len(opponent) > 1):
        raise RequestError(f"{shape}; got the field(s) "
                           f"{', '.join(sorted(map(str, opponent)))}"[:300])
    if "final" in opponent:
        final, most = opponent["final"], score_bound(rules)
        if isinstance(final, bool) or not isinstance(final, int) or not 0 <= final <= most:
            raise RequestError(f"an opponent's final score must be 0-{most}, got {final!r}"[:200])
        return {"final": final}
    if not isinstance(opponent["card"], cards):
        raise RequestError("an opponent's card must be an object of box: points")
    try:
        card = parse_card(opponent["card"], rules)
        card_state(card, opponent.get("kniffel_bonuses", 0), opponent.get("jokers_left"), rules)
    except ValueError as exc:
        raise RequestError(str(exc)) from None
    return {**opponent, "card": card}


def _opponent_text(text):
    """The command line's opponent: "final=S", "empty" (no box filled yet) or a card's text."""
    text = text.strip()
    if not text:  # a blank value is more likely a shell variable left unset than a new game
        raise RequestError('no card given: write the card, "empty" for a player who has not '
                           'scored yet, or final=S')
    if text.startswith("final="):
        number = text.split("=", 1)[1].strip()
        if not number.isdecimal() or not number.isascii():
            raise RequestError(f"final=S needs the opponent's final score S as a whole number, "
                               f"e.g. final=231, got {number!r}")
        return {"final": int(number)}
    return {"card": {} if text.lower() == "empty" else text}


# --- the Dice Duel's fields: one player's chips, or a table of several ------------------------

def duel_query(fields, rules, name):
    """(Query, Goal) of a Dice Duel question: the chips of one player (their expected final
    score) or a table of several (the seat to move's chance to win)."""
    from ..duel.multiplayer import game as mg  # here: a scorecard question loads no numba
    from ..duel.solo.advice import CHIPS
    from ..duel.states import Chips, parse_chips, validate_chips
    unknown = set(fields) - DUEL_FIELDS
    if unknown:
        scorecard = unknown & {"card", "kniffel_bonuses", "jokers_left", "target", "opponents",
                               "ties", "budget", "why"}
        raise RequestError(
            f"not Dice Duel options: {', '.join(name(f) for f in sorted(scorecard))}"
            if scorecard else f"unknown field(s): {', '.join(sorted(map(str, unknown)))}"[:300])
    given = fields.get("chips")
    if isinstance(given, mg.Table):  # a program's table of several players
        fields = {**fields, "players": given.players}
    several = MULTI_FIELDS & set(fields) and fields.get("players") != 1
    if MULTI_FIELDS & set(fields) and not several:
        raise RequestError(f"{name('to_move')} and {name('round_chip_taken')} need 2 or more "
                           f"{name('players')}")
    roll, rolls_left = read_roll(fields, rules, name)
    try:
        if several:
            return _table_query(fields, rules, name, roll, rolls_left)
        chips = fields.get("chips", "")
        chips = chips if isinstance(chips, Chips) else parse_chips(chips)
        validate_chips(chips)
    except ValueError as exc:
        raise RequestError(str(exc)) from None
    if roll is not None and chips.over:
        raise RequestError("the game is over: the plate is empty")
    return Query(None, roll, rolls_left, chips, rules), _duel_goal(fields, CHIPS, name)


def _duel_goal(fields, default, name):
    """The goal a program gave ("goal": the game's own, e.g. a SeatWinGoal with its games and
    seed), else `default`: a Dice Duel is advised for its one goal per number of players."""
    given = fields.get("goal")
    if given is None or given == default.kind:
        return default
    if type(given) is not type(default):
        aim = "win" if default.kind == "win" else "score points"
        raise RequestError(f"{name('goal')}: the Dice Duel is advised to {aim} here, got "
                           f"{given!r}"[:200])
    return given


def _table_query(fields, rules, name, roll, rolls_left):
    from ..duel.multiplayer import advice as multi_advice
    from ..duel.multiplayer import game as mg
    from ..duel.multiplayer.exact import MODELS
    if "players" not in fields:
        raise RequestError(f"a question with {name('to_move')} or {name('round_chip_taken')} "
                           f"needs {name('players')}")
    model = fields.get("opponent_model", "best")
    if model not in MODELS:
        raise RequestError(f"{name('opponent_model')} must be one of {', '.join(MODELS)}, "
                           f"got {model!r}"[:200])
    if isinstance(fields.get("chips"), mg.Table):
        table = mg.check_table(fields["chips"], rules)
    else:
        table = multi_advice.parse_table(rules, fields["players"], fields.get("chips"),
                                         fields.get("to_move", 0),
                                         fields.get("round_chip_taken", False))
    goal = _duel_goal(fields, multi_advice.SeatWinGoal(model=model), name)
    return Query(None, roll, rolls_left, table, rules), goal
