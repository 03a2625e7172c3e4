"""The Dice Duel's choices in a player's words (solver/lang): the options of the advice (solo and
for several players), the moves of a turn's end and the decisions of a record."""
from ..game.card import Said  # noqa: F401 - the Dice Duel's errors say their chips with it
from .chips import TYPES


def taken_text(chip, source, words):
    """One chip taken: its name, marked when it comes from the chips set aside."""
    name = words.chip(chip)
    return words("duel.from_aside", chip=name) if source == "aside" else name


def option_text(option, words, roll=None):
    """An option of the advice ("keep", "stop", "take", "no_chip"), solo or for several players.
    A solo keep names the dice rerolled (`roll`: the dice in hand)."""
    action = option["action"]
    if action == "keep":
        return _keep_text(option["keep"], roll, words)
    if action == "stop":
        return words("duel.stop", text=option_text(option["then"], words, roll))
    if action == "no_chip":
        aside = option.get("set_aside")
        if aside:
            return words("duel.no_chip_aside", chip=words.chip(aside))
        return words("duel.take_none")
    if "chips" in option:  # solo: a Kniffel may take two
        chips = words("duel.and_chip").join(taken_text(c["type"], c["from"], words)
                                            for c in option["chips"])
    else:
        chips = taken_text(option["chip"], option["from"], words)
    bonus = option.get("last_chip_bonus")
    return words("duel.take", chips=chips) + (words("duel.last_bonus", n=bonus) if bonus else "")


def _keep_text(keep, roll, words):
    held = words.faces(keep)
    if roll is None:
        return words("duel.keep", dice=held)
    rest = list(roll)
    for die in keep:
        rest.remove(die)
    kept = words("choice.keep", dice=held)
    return words("choice.reroll", text=kept, dice=words.faces(rest)) if keep \
        else words("choice.reroll_all", text=kept)


def decision_text(decision, words):
    """A decision of a game record ({"keep"}, {"take", "from"} or {"no_chip"}) in words."""
    if "keep" in decision:
        return words("duel.keep", dice=words.faces(sorted(decision["keep"])))
    if decision.get("no_chip"):
        return words("duel.take_none")
    from .chips import type_key
    return words("duel.take", chips=taken_text(type_key(decision["take"]),
                                               decision.get("from", "plate"), words))


def move_text(move, words):
    """A move of multi_game: ("no_chip",) or ("take", type index, source)."""
    if move[0] == "no_chip":
        return words("duel.no_chip")
    return taken_text(TYPES[move[1]], move[2], words)


def moves_text(moves, words):
    return ", ".join(move_text(m, words) for m in moves)


def chips_text(chips, words):
    return words.chips(chips)


def chance_text(p, words):
    """A chance as a percentage in the language of `words`: "40.6%", German "40,6 %"."""
    text = f"{100 * p:.0f}%" if p > 1 else words.percent(p)  # a sum over decisions may pass 100%
    return text.replace(".", ",").replace("%", "\u00a0%") if words.lang == "de" else text
