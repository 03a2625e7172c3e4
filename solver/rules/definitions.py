"""A preset's one definition: its game, the options that make its rules, the language of its
pad, its title and description in both languages and the names its pad gives boxes where they
differ from the usual ones (lang/ has those).  The presets
that come with the package are solver/data/presets.toml; a preset of one's own is a rules file
of the same form with a "name" (read by solver/presets.py).  Each game builds its rules from
the definitions of its game (rules/scorecard.py, duel/rules.py); lang/ reads the words.
"""
from dataclasses import dataclass
from pathlib import Path

from ..lang import LANGUAGES  # every definition says its words in each
from .base import RulesError
from .files import parse_rules_text

BUILT_IN = Path(__file__).resolve().parent.parent / "data" / "presets.toml"
GAMES = ("scorecard", "dice-duel")
WORD_FIELDS = ("name", "preset", "game", "language", "title", "description", "boxes")


@dataclass(frozen=True)
class Definition:
    """One preset: `options` are its rules' fields beyond its game's defaults (or beyond the
    preset `base` it builds on); `title` and `description` map each language to its words,
    `boxes` each language to the box names of its pad that differ from lang/'s."""
    name: str
    game: str
    options: tuple  # ((option, value), ...): hashable, in the file's order
    language: str
    description: tuple  # ((lang, text), ...)
    boxes: tuple  # ((lang, ((box, name), ...)), ...)
    title: tuple  # ((lang, the name its players write), ...)
    base: str | None = None

    def titled(self, lang):
        """The preset's name as its players write it ("Kniffel (basic rules)"), in `lang`."""
        return dict(self.title)[lang]

    def describe(self, lang):
        """The description in `lang` (de or en)."""
        return dict(self.description)[lang]

    def box_name(self, box, lang):
        """The name its pad gives `box` in `lang`, or None where it is the usual one."""
        return dict(dict(self.boxes).get(lang, ())).get(box)


def definition(name, data, base=None):
    """The Definition of one preset's fields (a dict, as a file holds it); `base`: the
    Definition it builds on, whose game, language and words it takes where it gives none.
    RulesError naming what is missing or wrong."""
    if not isinstance(name, str) or not name.strip() or len(name) > 40 \
            or not all(c.isalnum() or c in "-_" for c in name):
        raise RulesError(f"a preset's name is 1-40 letters, digits, - and _, got {name!r}"[:200])
    game = data.get("game", base.game if base else None)
    if game not in GAMES:
        raise RulesError(f"preset {name}: game must be one of {', '.join(GAMES)}, got {game!r}")
    language = data.get("language", base.language if base else None)
    if language not in LANGUAGES:
        raise RulesError(f"preset {name}: language must be de or en, got {language!r}")
    description = _words(name, "description", data.get("description"), None)  # its own
    title = _words(name, "title", data.get("title", dict.fromkeys(LANGUAGES, name)), None)
    boxes = _boxes(name, data.get("boxes"), base)
    options = tuple((k, v) for k, v in data.items() if k not in WORD_FIELDS)
    for key, value in options:
        if isinstance(value, (dict, list)):
            raise RulesError(f"preset {name}: option {key} must be a value, got {value!r}"[:200])
    return Definition(name, game, options, language, description, boxes, title,
                      base.name if base else None)


def _words(name, key, given, base):
    if given is None and base is not None:
        return getattr(base, key)
    if not isinstance(given, dict) or set(given) != set(LANGUAGES) \
            or not all(isinstance(v, str) and v.strip() for v in given.values()):
        raise RulesError(f"the preset named {name!r} needs its {key} in each of "
                         f"{', '.join(LANGUAGES)}, e.g. {key}.de = \"...\" and {key}.en = \"...\"")
    return tuple((lang, given[lang].strip()) for lang in LANGUAGES)


def _boxes(name, given, base):
    """((lang, ((box, name), ...)), ...) of a definition's "boxes" ({lang: {box: name}}), its
    base's where it gives none."""
    if given is None:
        return base.boxes if base is not None else ()
    if not isinstance(given, dict) or set(given) - set(LANGUAGES) or not all(
            isinstance(names, dict) and all(isinstance(k, str) and isinstance(v, str)
                                            and v.strip() for k, v in names.items())
            for names in given.values()):
        raise RulesError(f"preset {name}: boxes must map a language ({', '.join(LANGUAGES)}) "
                         "to {box: name}, e.g. boxes.de = {chance = \"Krempel\"}")
    return tuple((lang, tuple((box, text.strip()) for box, text in names.items()))
                 for lang, names in given.items())


def built_in():
    """{name: Definition} of the presets that come with the package, in their order."""
    data = parse_rules_text(BUILT_IN.read_text(encoding="utf-8"), BUILT_IN)
    return {name: definition(name, fields) for name, fields in data.items()}


DEFINITIONS = built_in()  # every preset known here: the built-in ones, and those registered


def register(found):
    """Make the Definition `found` known by its name (a preset of one's own); RulesError when
    it would replace a built-in preset."""
    known = DEFINITIONS.get(found.name)
    if known is not None and known != found:
        raise RulesError(f"preset {found.name} exists already; give yours another name")
    DEFINITIONS[found.name] = found
