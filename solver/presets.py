"""Every rule set by name, of both games: the scorecard presets (rules/) and the Dice Duel's
(duel/rules.py), each from its one definition (rules/definitions.py), with the presets of
one's own: the rules files with a "name" in the folder $KNIFFEL_PRESETS (else the user config
folder's kniffel/presets), or one given as --rules FILE.  read_rules is the one reader of what
names a rule set: a preset name, a rules file, or the rules object a game record holds."""
import os
from pathlib import Path

from .duel import rules as duel_rules
from .rules import PRESETS, SCORECARD_OPTIONS, Rules, RulesError, read_rules_file, scorecard
from .rules import get_rules as scorecard_rules
from .rules.definitions import DEFINITIONS, definition, register

OWN_PRESETS = "KNIFFEL_PRESETS"  # the folder of one's own presets


def all_presets():
    """Every preset by name: the scorecard games, then the Dice Duel."""
    return {**PRESETS, **duel_rules.PRESETS}


def get_rules(name, /, **options):
    """The preset `name` with `options` applied (RulesError on anything unknown or impossible)."""
    if not isinstance(name, str):  # e.g. "preset": [...] in a rules file
        raise RulesError(f"preset must be a preset name (a string), got {name!r}"[:200])
    if name in duel_rules.PRESETS:
        return duel_rules.get_rules(name, **options)
    if name not in PRESETS:
        raise RulesError(f"unknown rules {name!r}; presets: {', '.join(all_presets())}"[:300])
    for key in options:
        if key in duel_rules.DUEL_OPTIONS and key not in SCORECARD_OPTIONS:
            raise RulesError(f"option {key!r} is a Dice Duel option; it does not apply to "
                             f"preset {name!r}")
    return scorecard_rules(name, **options)


def read_rules(value=None, *, options=None, files=True):
    """The rules object of what names a rule set: None (kniffel), a rules object (as it is), a
    preset name (with `options` applied, as the web's new game gives them), the path of a JSON
    or TOML rules file where `files` allows it, or the rules object a game record holds
    ({"preset": NAME, option: value, ...}: the preset's own values need not be repeated).
    RulesError naming the problem."""
    if value is None:
        value = "kniffel"
    if isinstance(value, (Rules, duel_rules.DuelRules)):
        return value
    if isinstance(value, dict):
        return _from_object(value)
    if not isinstance(value, str):
        raise RulesError(f"rules must be a preset name, got {value!r}"[:200])
    if options is not None:
        if not isinstance(options, dict):
            raise RulesError("options must be an object of rules option: value")
        return get_rules(value, **options)
    presets = all_presets()
    if value in presets:
        return presets[value]
    if files and (value.lower().endswith((".json", ".toml")) or _is_file(value)):
        preset, options = read_rules_file(value)
        if "name" in options:
            return define_preset(preset, options)
        return get_rules(preset, **options)
    return get_rules(value)


def define_preset(base, fields):
    """The rules of a preset of one's own, made known by its name in this process: `fields`
    of a rules file with a "name" (rules/definitions.py), built on the preset `base` (None:
    on its game's defaults); RulesError naming what is wrong."""
    fields = dict(fields)
    name = fields.pop("name")
    if base is not None and not isinstance(base, str):
        raise RulesError(f"preset must be a preset name (a string), got {base!r}"[:200])
    if base is not None and base not in DEFINITIONS:
        raise RulesError(f"preset {name}: unknown preset {base!r} to build on; presets: "
                         f"{', '.join(all_presets())}"[:300])
    found = definition(name, fields, DEFINITIONS[base] if base is not None else None)
    game = scorecard if found.game == "scorecard" else duel_rules
    try:
        rules = game.preset_rules(found)  # checked before it is made known
    except TypeError as exc:
        raise RulesError(f"preset {name}: {exc}") from None
    register(found)  # RulesError when another preset has the name
    game.PRESETS[name] = rules
    return rules


def own_presets(folder=None):
    """Make known the presets of one's own in `folder` (default $KNIFFEL_PRESETS, else the user
    config folder's kniffel/presets): each *.toml or *.json file with a "name".  Returns the
    one-line errors of the files that could not be read (those presets stay unknown)."""
    folder = Path(folder or os.environ.get(OWN_PRESETS) or _config_dir() / "presets")
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".toml", ".json"))
    except OSError:
        return []  # no such folder: no presets of one's own
    errors = []
    for path in files:
        try:
            preset, fields = read_rules_file(path)
            if "name" not in fields:
                raise RulesError(f"{path}: a preset file needs a \"name\"")
            define_preset(preset, fields)
        except RulesError as exc:
            errors.append(f"preset file skipped: {exc}")
    return errors


def _config_dir():
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "kniffel"


OWN_PRESET_ERRORS = own_presets()


def _from_object(value):
    """The rules of {"preset": NAME, option: value, ...} (Rules.as_dict() writes all of them)."""
    name = value.get("preset")
    if not isinstance(name, str) or name not in all_presets():
        raise RulesError(f"rules must name a preset: {', '.join(all_presets())}; got "
                         f"{name!r}"[:300])
    preset = all_presets()[name]
    options = {k: v for k, v in value.items()
               if k != "preset" and getattr(preset, k, None) != v}
    if not options:  # the preset itself: what it works out once (the Dice Duel's chip
        return preset  # categories) is not worked out again at every replay of a record
    try:
        return get_rules(name, **options)
    except TypeError as exc:  # an option's value of an unhashable type, say
        raise RulesError(str(exc)) from None


def _is_file(text):
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name too long to be a path, say: then it is no file
        return False
