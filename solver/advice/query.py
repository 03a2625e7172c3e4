"""One line of `kniffel advise --batch` input, read and checked the same way for every game."""
import orjson

from ..presets import resolve_rules


def read_query(line, fields, default_rules, game, wrong_game):
    """Parse a JSON object line (bytes or str, or a dict already parsed) -> (query dict, rules).  ValueError names the
    problem: not UTF-8, not an object, fields outside `fields`, rules that are not a name, or
    rules of another game than `game` (`wrong_game(rules)` gives that message).  Unknown rules
    raise RulesError."""
    if isinstance(line, dict):
        return _checked(line, fields, default_rules, game, wrong_game)
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 text (byte {exc.start + 1} of the line)") from None
    return _checked(orjson.loads(line), fields, default_rules, game, wrong_game)


def _checked(query, fields, default_rules, game, wrong_game):
    if not isinstance(query, dict):
        raise ValueError("each line must be a JSON object")
    unknown = set(query) - fields
    if "players" in unknown and game != "dice-duel":
        raise ValueError("players: only the Dice Duel (rules dice-duel) is advised for several "
                         "players; a scorecard line is one player's card")
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    if "rules" in query and not isinstance(query["rules"], str):  # null: not "the batch's rules"
        raise ValueError("rules must be a preset name or the path of a rules file")
    rules = resolve_rules(query["rules"]) if "rules" in query else default_rules
    if rules.game != game:
        raise ValueError(wrong_game(rules))
    return query, rules
