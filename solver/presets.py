"""Every rule set by name, of both games: the scorecard presets (rules/) and the Dice Duel's
(duel/rules.py).  A preset name or a rules file resolves to the rules object of its game."""
from pathlib import Path

from .duel import rules as duel_rules
from .rules import OPTION_PRESETS, PRESETS, Rules, RulesError, read_rules_file
from .rules import get_rules as scorecard_rules


def all_presets():
    """Every preset by name: the scorecard games, then the Dice Duel."""
    return {**PRESETS, **duel_rules.PRESETS}


def get_rules(name, /, **options):
    """The preset `name` with `options` applied (RulesError on anything unknown or impossible)."""
    if not isinstance(name, str):  # e.g. "preset": [...] in a rules file
        raise RulesError(f"preset must be a preset name (a string), got {name!r}")
    if name in duel_rules.PRESETS:
        return duel_rules.get_rules(name, **options)
    if name not in PRESETS:
        raise RulesError(f"unknown rules {name!r}; presets: {', '.join(all_presets())}")
    for key in options:
        if key in duel_rules.OPTIONS and key not in OPTION_PRESETS:
            raise RulesError(f"option {key!r} is a Dice Duel option; it does not apply to preset {name!r}")
    return scorecard_rules(name, **options)


def load_rules_file(path):
    """Read a JSON or TOML rules file: {"preset": NAME, option: value, ...}."""
    preset, options = read_rules_file(path)
    return get_rules(preset, **options)


def resolve_rules(name_or_file):
    """A preset name or the path of a rules file -> Rules (or DuelRules); None -> kniffel."""
    if name_or_file is None:
        return PRESETS["kniffel"]
    if isinstance(name_or_file, (Rules, duel_rules.DuelRules)):
        return name_or_file
    text = str(name_or_file)
    if text in all_presets():
        return all_presets()[text]
    if text.lower().endswith((".json", ".toml")) or _is_file(text):
        return load_rules_file(text)
    return get_rules(text)


def _is_file(text):
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name too long to be a path, say: then it is no file
        return False
