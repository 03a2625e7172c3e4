"""The checks of a request to `kniffel serve` before any work starts: its fields, its rules,
the record it carries and the record of a new game; each failure a BadRequest (a 4xx with one
message)."""
import json

from ..ask.batch import MAX_DEPTH, nested_deeper
from ..game import session
from ..inputs import json_kind
from ..lang import LANGUAGES
from ..presets import read_rules
from ..rules import PRESETS, RulesError

MAX_PLAYERS = 8


class BadRequest(Exception):
    """A request the API cannot answer: a 4xx with {"error": message}."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


def request_rules(data):
    """The rules of a new game: {"rules": preset, "options": {option: value}} -> Rules."""
    name = data.get("rules", "kniffel")
    options = data.get("options")
    options = {} if options is None else options  # not `or {}`: [] or "" is no set of options
    if not isinstance(name, str) or name not in PRESETS:
        raise BadRequest(f"rules must be a scorecard preset: {', '.join(PRESETS)}")
    try:
        return read_rules(name, options=options, files=False)
    except (RulesError, TypeError) as exc:
        raise BadRequest(f"rules: {exc}") from None


NEW_FIELDS = {"rules", "options", "players", "real_dice", "seed", "language", "goal"}
GAME_FIELDS = {"record", "hand", "move", "language", "goal", "why"}


def check_nesting(data):
    """BadRequest for a request body whose lists and objects nest deeper than any request needs
    (MAX_DEPTH): a record nested 900 deep would break whatever recursed into it (an error
    message's repr, the JSON of the answer) into a 500."""
    if nested_deeper(data):
        raise BadRequest(f"lists and objects nested more than {MAX_DEPTH} deep: not a request")


GOALS = ("points", "win")  # what the page plays for (a win: with other players on the card)


def check_fields(data, fields, what):
    """BadRequest naming the fields of `data` that `what` does not take, or a "language" or
    "goal" that is none (checked here, once, before any work: "Win" or 12345 must not pass
    for the default)."""
    unknown = sorted(set(data) - fields)
    if unknown:
        raise BadRequest(f"{what} takes no field(s) {', '.join(map(repr, unknown))[:200]}; "
                         f"it takes: {', '.join(sorted(fields))}")
    check_choice(data, "language", LANGUAGES)
    check_choice(data, "goal", GOALS)


def check_choice(data, field, choices, error=BadRequest):
    """`error` naming `field` of `data` when it is given and not one of `choices` (exactly:
    "Win" is not "win", 12345 not a language)."""
    if field in data and (not isinstance(data[field], str) or data[field] not in choices):
        value = data[field]
        raise error(f"{field} must be {' or '.join(choices)}, got "
                    f"{json.dumps(value, default=str)[:40]} ({json_kind(value)})")


def checked_record(record):
    """A record from a request: a JSON object whose rules are a preset name or a rules object."""
    if not isinstance(record, dict) or not isinstance(record.get("turns"), list):
        raise BadRequest("record must be a game record object with \"rules\" and \"turns\"")
    rules = record.get("rules")
    if isinstance(rules, str) and rules not in PRESETS:
        raise BadRequest(f"record rules must be a scorecard preset or a rules object, "
                         f"got {rules!r}")
    if not isinstance(rules, (str, dict)):
        raise BadRequest("record rules must be a scorecard preset or a rules object")
    check_nesting(record)
    players = record.get("players", ["you"])
    if not isinstance(players, list) or len(players) > MAX_PLAYERS:
        raise BadRequest(f"a game has 1-{MAX_PLAYERS} players")
    real_dice = record.get("real_dice", False)
    if not isinstance(real_dice, bool):  # "false" must not mean real dice
        raise BadRequest(f"record real_dice must be true or false, got {real_dice!r}"[:200])
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < 2**63):
        raise BadRequest(f"record seed must be a whole number >= 0 or null, got {seed!r}")
    return record


def requested_record(data):
    """The record of a new game from a request: {"rules", "options", "players", "real_dice",
    "seed"}; BadRequest naming a bad field."""
    rules = request_rules(data)
    players = data.get("players", ["you"])
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS \
            or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players):
        raise BadRequest(f"players must be a list of 1-{MAX_PLAYERS} names")
    real_dice = data.get("real_dice", False)
    if not isinstance(real_dice, bool):  # "yes" or "false" must not mean real dice
        raise BadRequest(f"real_dice must be true or false, got {real_dice!r}"[:200])
    seed = data.get("seed")
    if seed is not None and (real_dice or not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < 2**63):
        raise BadRequest("seed must be a whole number >= 0, and only with virtual dice")
    if seed is None and not real_dice:
        import secrets
        seed = secrets.randbelow(2**32)
    return session.new_record(rules, [p.strip() for p in players], seed, real_dice)
