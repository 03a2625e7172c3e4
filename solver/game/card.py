"""A game of Kniffel on one card: the players' columns and the moves of a turn.

No terminal I/O and no randomness here: the dice come from the caller (a seeded roller or the
dice thrown at the table), so a recorded game replays through exactly the same checks as a live
one.  Points come from the rules' score tables and `scoring.kniffel_roll` (extra-Kniffel bonus,
jokers), the same code the solver and the advisor use.

The game record is in record.py.
"""
from dataclasses import dataclass

from ..dice import DICE, KEEP_INDEX, KNIFFEL_FACE, validate_dice
from ..engine.states import Position, card_total, position_state
from ..lang import Words
from ..presets import read_rules
from ..rules import box_key, scoring
from ..version import __version__

RECORD_FORMAT = "kniffel-game"
RECORD_VERSION = 1


class Said:
    """A field of a GameError printed in the player's language: function(value, words)."""

    def __init__(self, function, value):
        self.function, self.value = function, value

    def text(self, words):
        return self.function(self.value, words)


class GameError(ValueError):
    """A move the rules do not allow, or a record that cannot be replayed.

    GameError("error.filled", rules, box="chance", points=22): a text of solver/lang in the
    player's language (exc.text("de")); str(exc) is the English.  Fields named box, allowed
    (box keys) and dice, keep (faces) are printed as box names and dice.  Any other first
    argument is the message itself (records, programs).  A field with a text(words) method (the
    Dice Duel's chips and moves, duel/words.py) prints itself."""

    def __init__(self, key, rules=None, **fields):
        self.key, self.rules, self.fields = key, rules, fields
        super().__init__(self.text("en"))

    def text(self, lang="en"):
        """The message in `lang` ("de" or "en")."""
        words = Words(lang, self.rules)
        if self.key not in words.table:
            return str(self.key)
        fields = dict(self.fields)
        for name in ("box",):
            if name in fields:
                fields[name] = words.box(fields[name])
        if "allowed" in fields:
            fields["allowed"] = words.boxes(fields["allowed"])
        for name in ("dice", "keep"):
            if name in fields and not isinstance(fields[name], str):
                fields[name] = words.faces(fields[name])
        for name, value in fields.items():
            if isinstance(value, Said):
                fields[name] = value.text(words)
        if "or_all" in fields:
            fields["or_all"] = words("error.or_all") if fields["or_all"] else ""
        return words(self.key, **fields)


@dataclass
class Column:
    """One player's column on the card."""

    name: str
    card: dict  # box -> points, in the order filled
    kniffel_bonuses: int = 0
    jokers_left: int = 0

    def position(self):
        return Position(dict(self.card), self.kniffel_bonuses, self.jokers_left)

    def total(self, rules):
        return card_total(self.card, self.kniffel_bonuses, rules)


def parse_players(text):
    """'3' -> ["P1", "P2", "P3"] ('1' -> ["you"]); 'Anna,Ben' -> ["Anna", "Ben"]."""
    text = str(text).strip()
    if text.isdecimal():  # isdigit() is also true for "²", which int() refuses
        count = int(text)
        if not 1 <= count <= 10:
            raise GameError(f"players must be 1-10, got {count}")
        return ["you"] if count == 1 else [f"P{i + 1}" for i in range(count)]
    names = [name.strip() for name in text.split(",")]
    if not all(names) or len(names) > 10:
        raise GameError(f"players must be a number or 1-10 names separated by commas, got {text!r}")
    if len(set(names)) != len(names):
        raise GameError("player names must differ")
    return names


def parse_box(text, rules):
    """A box typed by key, German/English alias or number (1 = the first box) -> box key."""
    text = str(text).strip()
    if text.isdecimal():  # isdigit() is also true for "²", which int() refuses
        number = int(text)
        if not 1 <= number <= rules.n_boxes:
            raise GameError("error.box_number", rules, most=rules.n_boxes, number=number)
        return rules.boxes[number - 1]
    try:
        return box_key(text, rules)
    except ValueError:
        raise GameError("error.unknown_box", rules, name=text, allowed=rules.boxes,
                        most=rules.n_boxes) from None


def parse_faces(text):
    """'335', '3 3 5' or '3,3,5' -> a sorted tuple of faces 1-6 (any number of dice)."""
    text = str(text).strip()
    parts = text.replace(",", " ").split() if ("," in text or " " in text) else list(text)
    faces = []
    for part in parts:
        if not part.isdecimal() or not 1 <= int(part) <= 6:
            raise GameError("error.not_a_face", part=part)
        faces.append(int(part))
    return tuple(sorted(faces))


def is_sub_multiset(part, whole):
    rest = list(whole)
    for face in part:
        if face not in rest:
            return False
        rest.remove(face)
    return True


def score_box(rules, state, roll, box):
    """(allowed, points, extra bonuses paid) for entering the roll `roll` (five faces) in `box`
    (an index) at the turn-start `state`; a five of a kind follows the rules' joker and bonus."""
    r = KEEP_INDEX[tuple(roll)]
    face = int(KNIFFEL_FACE[r])
    if face:
        allowed, points, paid = scoring.kniffel_roll(box, face, r, state.filled, state.aux,
                                                     state.n_open, rules.params(),
                                                     rules.plain_score, rules.joker_score,
                                                     rules.box_face)
        return bool(allowed), int(points), int(paid)
    return True, int(rules.plain_score[box, r]), 0


HANDS = [hand for hand in KEEP_INDEX if len(hand) == DICE]  # every throw of five dice, sorted


def writable(rules, state):
    """{box key: {(points, extra bonuses paid), ...}} of every open box at the turn-start
    `state`: what some throw of five dice can write there (a turn written as the players write
    it, without its dice)."""
    found = {}
    for b, box in enumerate(rules.boxes):
        if not state.filled >> b & 1:
            found[box] = {score_box(rules, state, hand, b)[1:] for hand in HANDS
                          if score_box(rules, state, hand, b)[0]}
    return found


class Turn:
    """One player's turn: rolls, keeps, Knobeln jokers after the last roll, then a box.

    Every method checks the move and raises GameError (the turn is unchanged) when it is not
    allowed.  `record` is the turn as stored in the game record, kept up to date move by move."""

    def __init__(self, game, player, round_number):
        self.game = game
        self.rules = game.rules
        self.player = player
        self.column = game.columns[player]
        self.position = self.column.position()
        self.state = position_state(self.position, self.rules)
        self.dice = None  # the dice in hand as rolled (before jokers)
        self.kept = ()  # dice held for the next roll
        self.rolls_left = self.rules.rolls_per_turn
        self.jokers = []  # (from, to) changes made this turn, after the last roll
        self.done = False
        self.record = {"player": player, "round": round_number,
                       "start": {"card": dict(self.position.card),
                                 "kniffel_bonuses": self.position.kniffel_bonuses,
                                 "jokers_left": self.position.jokers_left},
                       "decisions": []}

    @property
    def awaiting_roll(self):
        return not self.done and self.dice is None

    @property
    def n_to_roll(self):
        return DICE - len(self.kept)

    @property
    def hand(self):
        """The dice in hand after any jokers (what a box would score)."""
        hand = list(self.dice)
        for old, new in self.jokers:
            hand.remove(old)
            hand.append(new)
        return tuple(sorted(hand))

    def roll(self, faces):
        """The dice thrown: the `n_to_roll` new faces, or all five (holding the kept dice)."""
        if not self.awaiting_roll:
            raise GameError("error.no_roll_now")
        faces = list(faces)
        if len(faces) == DICE and self.kept:
            if not is_sub_multiset(self.kept, sorted(faces)):
                raise GameError("error.hold_kept", dice=self.kept)
            full = faces
        elif len(faces) == self.n_to_roll:
            full = list(self.kept) + faces
        else:
            raise GameError("error.roll_count", n=self.n_to_roll, or_all=bool(self.kept),
                            got=len(faces))
        try:
            self.dice = validate_dice(full)
        except ValueError as exc:  # typed dice are checked before (parse_faces): a record's
            raise GameError(str(exc)) from None
        self.rolls_left -= 1
        self.kept = ()

    def keep(self, keep):
        """Hold `keep` (faces from the dice in hand, 0-4 of them) and roll the rest again."""
        self._need_decision()
        keep = tuple(sorted(int(f) for f in keep))
        if self.rolls_left == 0:
            raise GameError("error.no_rolls_left")
        if not is_sub_multiset(keep, self.dice):
            raise GameError("error.cannot_keep", keep=keep, dice=self.dice)
        if len(keep) == DICE:
            raise GameError("error.keep_five")
        self.record["decisions"].append({"dice": list(self.dice), "rolls_left": self.rolls_left,
                                         "keep": list(keep)})
        self.kept = keep
        self.dice = None

    def joker(self, old, new):
        """Play a Knobeln joker: turn one die showing `old` into `new` (after the last roll)."""
        self._need_decision()
        rules = self.rules
        if not rules.jokers:
            raise GameError("error.no_jokers", rules=rules.key)
        if self.rolls_left:
            raise GameError("error.joker_last_roll")
        if len(self.jokers) >= min(rules.jokers_per_turn, self.column.jokers_left):
            raise GameError("error.no_joker_left") \
                if not self.column.jokers_left - len(self.jokers) \
                else GameError("error.jokers_a_turn", n=rules.jokers_per_turn)
        if old not in self.hand:
            raise GameError("error.no_die_shows", face=old, dice=self.hand)
        if not 1 <= new <= 6 or new == old:
            raise GameError("error.joker_face", old=old, new=new)
        self.jokers.append((old, new))

    def undo_jokers(self):
        self.jokers = []

    def options(self):
        """{box: (points, extra bonuses paid)} for every box the dice in hand may go into now."""
        self._need_decision()
        state = self._state_after_jokers()
        found = {}
        for b, box in enumerate(self.rules.boxes):
            if not state.filled >> b & 1:
                allowed, points, paid = score_box(self.rules, state, self.hand, b)
                if allowed:
                    found[box] = (points, paid)
        return found

    def score(self, box):
        """Fill `box` (a key) with the dice in hand; ends the turn. Returns (points, bonuses
        paid)."""
        self._need_decision()
        options = self.options()
        if box not in options:
            if box in self.column.card:
                raise GameError("error.filled", self.rules, box=box, points=self.column.card[box])
            raise GameError("error.not_allowed", self.rules, dice=self.hand, box=box,
                            allowed=list(options))
        points, paid = options[box]
        self.record["decisions"].append({"dice": list(self.dice), "rolls_left": self.rolls_left,
                                         "jokers": [list(j) for j in self.jokers], "box": box,
                                         "points": points, "extra_bonuses": paid})
        column = self.column
        column.card[box] = points
        column.kniffel_bonuses += paid
        column.jokers_left -= len(self.jokers)
        self.record["card_total"] = column.total(self.rules)
        self.done = True
        return points, paid

    def write(self, box, points, extra_bonus=False):
        """Fill `box` (a key) with `points` as a player writes another's turn: no dice, at the
        turn's start; GameError unless some throw can score that there (with the extra-Kniffel
        bonus paid when `extra_bonus`).  Ends the turn."""
        if self.done:
            raise GameError("error.turn_over")
        if self.dice is not None or self.kept or self.rolls_left != self.rules.rolls_per_turn:
            raise GameError("error.write_rolled")
        if not self.game.real_dice:  # seeded dice: every turn is rolled from the seed
            raise GameError("error.write_seeded")
        if self.rules.jokers:  # the jokers a turn spent are not written on the card
            raise GameError("error.write_jokers")
        if box in self.column.card:
            raise GameError("error.filled", self.rules, box=box, points=self.column.card[box])
        paid = int(bool(extra_bonus))
        possible = writable(self.rules, self.state).get(box, set())
        if (points, paid) not in possible:
            shown = ", ".join(map(str, sorted({p for p, b in possible if b == paid})))
            raise GameError("error.write_points", self.rules, box=box, points=points,
                            possible=shown or "-")
        self.record["decisions"].append({"written": True, "box": box, "points": points,
                                         "extra_bonuses": paid})
        self.column.card[box] = points
        self.column.kniffel_bonuses += paid
        self.record["card_total"] = self.column.total(self.rules)
        self.done = True
        return points, paid

    def _state_after_jokers(self):
        if not self.jokers:
            return self.state
        position = Position(self.position.card, self.position.kniffel_bonuses,
                            self.position.jokers_left - len(self.jokers))
        return position_state(position, self.rules)

    def _need_decision(self):
        if self.done:
            raise GameError("error.turn_over")
        if self.dice is None:
            raise GameError("error.roll_first")


class Game:
    """Players taking turns on one card until every column is full."""

    def __init__(self, rules, players, seed=None, real_dice=False):
        self.rules = read_rules(rules)
        if not players:
            raise GameError("a game needs at least one player")
        if len(set(players)) != len(players):
            raise GameError("player names must differ")
        self.columns = [Column(name, {}, 0, self.rules.jokers) for name in players]
        self.seed = seed
        self.real_dice = real_dice
        self.turns = []  # finished Turn objects, then the current one
        self.current = None

    @property
    def players(self):
        return [c.name for c in self.columns]

    @property
    def over(self):
        return all(len(c.card) == self.rules.n_boxes for c in self.columns)

    def next_turn(self):
        """Start the next player's turn (players in order, one turn each per round)."""
        if self.current is not None and not self.current.done:
            return self.current
        if self.over:
            raise GameError("error.game_over")
        index = len(self.turns)
        self.current = Turn(self, index % len(self.columns), index // len(self.columns) + 1)
        self.turns.append(self.current)
        return self.current

    def totals(self):
        return {c.name: c.total(self.rules) for c in self.columns}

    def opponents(self, player):
        """The other players as the win objective takes them: {"final": S} for a full card,
        else the card with its extra-Kniffel bonuses (and Knobeln jokers left)."""
        rules, others = self.rules, []
        for index, column in enumerate(self.columns):
            if index == player:
                continue
            if len(column.card) == rules.n_boxes:
                others.append({"final": column.total(rules)})
                continue
            other = {"card": dict(column.card), "kniffel_bonuses": column.kniffel_bonuses}
            if rules.jokers:
                other["jokers_left"] = column.jokers_left
            others.append(other)
        return others

    def record(self):
        """The game record: a JSON-ready dict (see docs/reference.md, "Game records")."""
        rules = self.rules
        return {"format": RECORD_FORMAT, "format_version": RECORD_VERSION,
                "package_version": __version__, "rules_key": rules.key, "rules": rules.as_dict(),
                "seed": self.seed, "real_dice": self.real_dice, "players": self.players,
                "finished": self.over, "scores": self.totals(),
                "turns": [t.record for t in self.turns if t.record["decisions"]]}


def int_faces(values, sort=True):
    """A record's or request's dice (a list of faces 1-6) as a tuple, sorted unless `sort` is
    False; GameError otherwise."""
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                               and 1 <= v <= 6 for v in values):
        raise GameError(f"dice must be a list of faces 1-6, got {values!r}")
    return tuple(sorted(values)) if sort else tuple(values)

