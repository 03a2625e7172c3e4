"""One line of `kniffel advise --batch` input, read and checked the same way for every game."""
import orjson

from ..presets import resolve_rules


def read_query(line, fields, default_rules, game, wrong_game):
    """Parse a JSON object line -> (query dict, rules).  ValueError names the problem: not an
    object, fields outside `fields`, or rules of another game than `game` (`wrong_game(rules)`
    gives that message).  Unknown rules raise RulesError."""
    query = orjson.loads(line)
    if not isinstance(query, dict):
        raise ValueError("each line must be a JSON object")
    unknown = set(query) - fields
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    rules = resolve_rules(query["rules"]) if "rules" in query else default_rules
    if rules.game != game:
        raise ValueError(wrong_game(rules))
    return query, rules
