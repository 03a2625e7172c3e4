"""The advice a player was shown, noted in the game record with the decision it was for.

A decision of the record may carry "advice": {"chance", "best", "exact", "games"?, "seed"?}:
the chance to win of the option the player took and of the best option, as the advice shown
at that decision gave them (an estimate: its games per option and its seed, from which
rollout.Rollouts plays exactly the same games again).  The analysis (analysis.py) takes these
numbers as they are, so a player who followed the advice is charged nothing, and it need not
estimate again what was estimated at the table.

The advice comes back from the page (or the terminal) with the move; a note is made only when
the advice is for this very position (seats, chips, seat to move, dice, rolls left) and names
the option taken, else the decision goes without one (the analysis then estimates it).
"""
import math

from ..chips import type_key


def same_option(option, decision):
    """Is the advice's option (an end move or a keep) the decision of the record?"""
    if not isinstance(option, dict):
        return False
    if "keep" in decision:
        return option.get("action") == "keep" and option.get("keep") == sorted(decision["keep"])
    if decision.get("no_chip"):
        return option.get("action") == "no_chip"
    try:
        chip = type_key(decision.get("take"))
    except ValueError:
        return False
    return option.get("action") == "take" and option.get("chip") == chip \
        and option.get("from") == decision.get("from", "plate")


def chosen_option(options, decision):
    """The option of `options` that is the decision: a keep, an end move, or an end move under
    the advice's "stop" (the end moves of a stop with rolls left, in its "ends"); None if none."""
    for option in options:
        if same_option(option, decision):
            return option
    if "keep" not in decision:
        for option in options:
            if isinstance(option, dict) and option.get("action") == "stop":
                ends = option.get("ends")
                if isinstance(ends, list):
                    found = next((o for o in ends if same_option(o, decision)), None)
                    if found is not None:
                        return found
    return None


def _chance(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value) and 0.0 <= value <= 1.0


def _count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def make_note(advice, position, decision):
    """The note of `decision` from `advice` (the answer's dict as the advice gave it), or None
    when the advice is not for `position` (the advice contract's position fields: players,
    chips, to_move, round_chip_taken, dice, rolls_left) or does not name the option taken."""
    if not isinstance(advice, dict) or not isinstance(advice.get("options"), list):
        return None
    for key, value in position.items():
        if advice.get(key) != value:
            return None
    best = advice.get("probability")
    option = chosen_option(advice["options"], decision)
    if option is None or not _chance(best) or not _chance(option.get("probability")):
        return None
    note = {"chance": float(option["probability"]), "best": float(best),
            "exact": advice.get("exact") is True}
    if not note["exact"]:
        if not (_count(advice.get("games")) and _count(advice.get("seed"))):
            return None
        note.update(games=advice["games"], seed=advice["seed"])
    return note


def checked_note(note):
    """`note` if it is a well-formed advice note of a record (a record may be written by hand),
    else None: the analysis then estimates that decision itself."""
    if not isinstance(note, dict) or not _chance(note.get("chance")) \
            or not _chance(note.get("best")) or not isinstance(note.get("exact"), bool):
        return None
    if not note["exact"] and not (_count(note.get("games")) and _count(note.get("seed"))):
        return None
    keys = ("chance", "best", "exact") + (() if note["exact"] else ("games", "seed"))
    return {key: note[key] for key in keys}
