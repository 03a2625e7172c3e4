"""`--batch` lines that name an objective: {"target": T} or {"opponents": [{"card": {...}} |
{"final": S}], "ties": "share"|"lose"}; the other lines go to advice/batch.py as they are, in
runs, so the output keeps the input's order and every line its number."""
from itertools import chain, groupby

import orjson

from ..engine.states import Position
from .query import read_query

FIELDS = {"rules", "card", "dice", "rolls_left", "kniffel_bonuses", "jokers_left", "target",
          "opponents", "ties"}
OBJECTIVE_FIELDS = ("target", "opponents")
OPPONENT_FIELDS = {"card", "final", "kniffel_bonuses", "jokers_left"}


def names_objective(line):
    """Whether a batch line (bytes or str) is a JSON object with a "target" or "opponents" field.
    Decided from the parsed keys, never from the text: a card or a rules name may contain those
    words.  A line that does not parse is not one (advice/batch.py answers its error)."""
    try:
        query = orjson.loads(line)
    except (orjson.JSONDecodeError, TypeError):
        return False
    return isinstance(query, dict) and any(field in query for field in OBJECTIVE_FIELDS)


def objective_lines(lines, default_rules, tables, target_tables, plain_lines, top=None):
    """Yield the answer texts (bytes) in input order.  Objective lines are answered here, with
    target_tables(rules) (the saved target table, or TableError: a batch line never builds one)
    and tables(rules); each run of other lines goes to plain_lines(run, start), `start` being the
    number of its first line, so error messages name the input's line numbers."""
    numbered = enumerate(lines, 1)  # blank lines too: every line gets its one answer (batch.py)
    for named, run in groupby(numbered, key=lambda item: names_objective(item[1])):
        if not named:
            start, first = next(run)
            yield from plain_lines(chain([first], (line for _, line in run)), start)
            continue
        for number, line in run:
            yield orjson.dumps(answer_line(line, number, default_rules, tables, target_tables, top))


def answer_line(line, number, default_rules, tables, target_tables, top=None):
    """The advice dict of one objective line, or {"error": "line N: ..."}."""
    from ..engine.store import TableError
    from ..rules import RulesError
    try:
        return _answer(line, default_rules, tables, target_tables, top)
    except (ValueError, TypeError, RulesError, TableError, OSError) as exc:
        return {"error": f"line {number}: {exc}"}


def _answer(line, default_rules, tables, target_tables, top):
    query, rules = read_query(line, FIELDS, default_rules, "scorecard",
                              lambda r: f"{r.key} has no scorecard; ask with --rules {r.key}")
    if ("target" in query) == ("opponents" in query):
        raise ValueError("a line takes target or opponents, not both")
    card = query.get("card", {})
    if not isinstance(card, dict):
        raise ValueError("card must be an object of box: points")
    position = Position(card, query.get("kniffel_bonuses", 0), query.get("jokers_left"))
    dice, left = query.get("dice"), query.get("rolls_left")
    if "target" in query:
        from ..rules.bounds import score_bound
        from .target import advise_target
        target = query["target"]
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= score_bound(rules):
            raise ValueError(f"target must be 0-{score_bound(rules)}, got {target!r}")
        advice = advise_target(position, target_tables(rules), target, dice, left)
    else:
        from .win import advise_win
        advice = advise_win(position, tables(rules), checked_opponents(query["opponents"]),
                            query.get("ties", "share"), dice, left)
    if top is not None:
        advice["options"] = advice["options"][:top]
    return advice


def checked_opponents(opponents):
    """The "opponents" field: a list of {"final": S} or {"card": {...}} (with the card's
    "kniffel_bonuses" and "jokers_left" when they matter); ValueError otherwise."""
    shape = 'opponents must be a list of {"card": {...}} or {"final": S}'
    if not isinstance(opponents, list):
        raise ValueError(shape)
    for opponent in opponents:
        if not isinstance(opponent, dict) or ("card" in opponent) == ("final" in opponent):
            raise ValueError(shape)
        unknown = set(opponent) - OPPONENT_FIELDS
        if unknown or ("final" in opponent and len(opponent) > 1):
            raise ValueError(f"{shape}; got the field(s) {', '.join(sorted(set(opponent)))}")
        if "final" in opponent and (isinstance(opponent["final"], bool)
                                    or not isinstance(opponent["final"], int)):
            raise ValueError(f"an opponent's final score must be a whole number, got {opponent['final']!r}")
        if "card" in opponent and not isinstance(opponent["card"], dict):
            raise ValueError("an opponent's card must be an object of box: points")
    return opponents
