"""Every word a player reads, in German and English: the card, the coach, `advise` and `analyze`
(de.py, en.py), the web page (web_de.py, web_en.py), the printed pages and the Markdown tables
(pages_de.py, pages_en.py) and the Dice Duel (duel_de.py, duel_en.py; chip names under "chip"),
each pair with the same keys; a preset's own words (its title, description, pad language and
the name of its five-of-a-kind box) are in its one definition (rules/definitions.py).  Nothing
else in the package spells out player-facing text.

A value is a format string, or a pair (singular, plural) chosen by the field `n`.  Box keys
(three_kind ...) and JSON keys never change; only what is printed does.
"""
import math

from . import commands_de, commands_en, de, duel_de, duel_en, en, pages_de, pages_en, web_de, web_en

WORDS = {"de": {**de.WORDS, **web_de.WORDS, **pages_de.WORDS, **duel_de.WORDS,
                **commands_de.WORDS},
         "en": {**en.WORDS, **web_en.WORDS, **pages_en.WORDS, **duel_en.WORDS,
                **commands_en.WORDS}}
LANGUAGES = tuple(WORDS)


def pad_language(rules):
    """The language of a rule set's pad, as its preset's definition says (German for Kniffel,
    English for Yahtzee and Yatzy)."""
    return rules.definition.language


def checked(lang, rules=None):
    """`lang` if it is one of LANGUAGES; None -> the pad language of `rules`; else ValueError."""
    if lang is None:
        return pad_language(rules) if rules is not None else "en"
    if lang not in WORDS:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


def box_name(box, rules, lang=None):
    """The printed name of `box` under `rules`, in `lang` (default: the pad's language): the
    name its preset's pad gives it ("Kniffel", "Yahtzee", "Krempel"), else the usual one."""
    lang = checked(lang, rules)
    own = rules.definition.box_name(box, lang) if rules is not None else None
    return own or WORDS[lang]["box"].get(box, box)


def web_words(lang):
    """The words of `lang` as the web page takes them: every text but the box names (which come
    with each game), pairs as [singular, plural]; the chip names under "chip"."""
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in WORDS[lang].items() if key != "box"}


class _Comma(float):
    """A number that formats with a decimal comma ("18,63"), as German writes it on a page."""

    def __format__(self, spec):
        return float.__format__(self, spec).replace(".", ",")


class Words:
    """The words of one language (and one rule set, for box names): words(key, **fields).
    `page`: numbers as the language writes them on a page (a decimal comma in German); the
    command line keeps the decimal point of its other output."""

    def __init__(self, lang=None, rules=None, page=False):
        self.lang = checked(lang, rules)
        self.rules = rules
        self.table = WORDS[self.lang]
        self.comma = page and self.lang == "de"

    def __call__(self, key, /, **fields):
        text = self.table[key]
        if isinstance(text, tuple):
            text = text[0] if fields.get("n") == 1 else text[1]
        if self.comma:
            fields = {k: _Comma(v) if type(v) is float else v for k, v in fields.items()}
        return text.format(**fields) if fields else text

    def box(self, box):
        return box_name(box, self.rules, self.lang)

    def chip(self, chip):
        """The printed name of a Dice Duel chip type (its key: two_pairs ...)."""
        return self.table["chip"][chip]

    def chips(self, chips):
        return ", ".join(self.chip(c) for c in chips)

    def boxes(self, boxes):
        return ", ".join(self.box(b) for b in boxes)

    def description(self, rules):
        """The rules described in this language: their preset's words."""
        return rules.definition.describe(self.lang)

    def faces(self, faces):
        """Dice as "3 3 5", or the word for none."""
        return " ".join(map(str, faces)) or self("nothing")

    def cost(self, cost, tolerance=1e-9):
        """What a choice costs against the best: "best" or "cost 1.28" (two decimals)."""
        return self("best") if cost <= tolerance else self("cost", cost=cost)

    def percent(self, p):
        """A chance as a percentage with sensible decimals (see percent()); None (a chance not
        known, advice/win/approximation.with_interval) in words."""
        return self("chance_unknown") if p is None else percent(p, self.lang)

    def all_strings(self):
        """Every text of this language (for checks that a page uses none of another's)."""
        for value in self.table.values():
            if isinstance(value, dict):
                yield from value.values()
            elif isinstance(value, tuple):
                yield from value
            else:
                yield value


def percent(p, lang="en"):
    """p (0-1) as a percentage with sensible decimals: "57.1%", "3.45%", "0.042%"; "0%" and
    "100%" only when the chance is exactly that (to float rounding), never "-0.000%"."""
    value = 100 * float(p)
    if value < 5e-11:  # 0, or a rounding error below it
        return "0%"
    if value > 100 - 5e-11:
        return "100%"
    decimals = 1 if value >= 10 else 2 if value >= 1 else 1 - math.floor(math.log10(value))
    decimals = min(decimals, 10)
    while decimals < 10 and f"{value:.{decimals}f}" in ("100." + "0" * decimals,):
        decimals += 1  # 99.996% is not 100%
    return f"{value:.{decimals}f}%"
