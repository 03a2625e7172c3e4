"""`--batch` lines that name an objective: {"target": T} or {"opponents": [{"card": {...}} |
{"final": S}], "ties": "share"|"lose"}; the other lines go to advice/batch.py as they are, in
runs, so the output keeps the input's order."""
from itertools import groupby

import orjson

from ..engine.states import Position
from .query import read_query

FIELDS = {"rules", "card", "dice", "rolls_left", "kniffel_bonuses", "jokers_left", "target",
          "opponents", "ties"}


def _names_objective(numbered):
    line = numbered[1]
    text = line if isinstance(line, str) else line.decode(errors="replace")  # bad bytes: batch.py answers
    return '"target"' in text or '"opponents"' in text


def objective_lines(lines, default_rules, tables, target_tables, plain_lines, top=None):
    """Yield the answer texts (bytes) in input order: objective lines answered here (with
    target_tables(rules) and tables(rules)), runs of other lines by plain_lines(run)."""
    numbered = enumerate(lines, 1)  # blank lines too: every line gets its one answer (batch.py)
    for named, run in groupby(numbered, key=_names_objective):
        if not named:
            yield from plain_lines(line for _, line in run)
            continue
        for _, line in run:
            yield orjson.dumps(_answer(line, default_rules, tables, target_tables, top))


def _answer(line, default_rules, tables, target_tables, top):
    from ..rules import RulesError
    try:
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
            from ..engine.target_table import score_bound
            from .target import advise_target
            target = query["target"]
            if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= score_bound(rules):
                raise ValueError(f"target must be 0-{score_bound(rules)}, got {target!r}")
            advice = advise_target(position, target_tables(rules), target, dice, left)
        else:
            from .win import advise_win
            opponents = query["opponents"]
            if not isinstance(opponents, list) or not all(
                    isinstance(o, dict) and len(o) == 1 and ("card" in o or "final" in o) for o in opponents):
                raise ValueError('opponents must be a list of {"card": {...}} or {"final": S}')
            advice = advise_win(position, tables(rules), opponents, query.get("ties", "share"), dice, left)
    except (ValueError, RulesError, orjson.JSONDecodeError) as exc:
        return {"error": str(exc)}
    if top is not None:
        advice["options"] = advice["options"][:top]
    return advice
