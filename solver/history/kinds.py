"""The kinds of mistake a decision shows: a small set of features a player recognises, computed
from the decision (the dice, the choice made, the best one) and the card it was taken on, never
typed in per position.  A decision that gave points away may show several kinds; `kniffel
history` ranks a player's kinds by the points their decisions gave away in all.

    box:B         the roll entered in box B (with points) where the best was something else
    scratch:B     box B scratched (0 entered) where the best was something else
    stop_early    a box taken with rolls left where rolling on was best
    roll_on       rolling on where entering a box now was best
    pair_over_straight, straight_over_pair
                  kept dice of one face where the best kept a straight draw, or the reverse
    kept_more, kept_fewer
                  kept more (fewer) dice than the best keep, neither of the two above
    behind_course the upper section behind the bonus's course when the decision gave points
                  away: its boxes filled so far, at the same rate for the rest, would not
                  reach the bonus
"""
from ..rules import UPPER, scoring

STRAIGHT_DRAW = 3  # distinct faces of a keep that reads as a straight draw (within a run of 5)


def decision_kinds(decision, card, rules, tolerance=1e-9):
    """The kinds (module docstring) of one analysed `decision` (ask/analysis.analyze's row)
    taken on `card` ({box: points} before it); none when it gave no points away."""
    if decision["optimal"] or decision["loss"] <= tolerance:
        return []
    choice, best = decision["choice"], decision["best"]
    kinds = []
    if "box" in choice:
        if choice.get("points", 0) == 0:
            kinds.append(f"scratch:{choice['box']}")
        else:
            kinds.append(f"box:{choice['box']}")
        if "keep" in best:
            kinds.append("stop_early")
    elif "box" in best:
        kinds.append("roll_on")
    else:
        kinds += _keep_kinds(choice["keep"], best["keep"])
    if _behind_course(card, rules):
        kinds.append("behind_course")
    return kinds


def _keep_kinds(mine, best):
    if _one_face(mine) and _straight_draw(best):
        return ["pair_over_straight"]
    if _straight_draw(mine) and _one_face(best):
        return ["straight_over_pair"]
    if len(mine) > len(best):
        return ["kept_more"]
    if len(mine) < len(best):
        return ["kept_fewer"]
    return []


def _one_face(keep):
    return len(keep) >= 2 and len(set(keep)) == 1


def _straight_draw(keep):
    faces = sorted(set(keep))
    return len(faces) >= STRAIGHT_DRAW and len(faces) == len(keep) and faces[-1] - faces[0] <= 4


def _behind_course(card, rules):
    """Whether the filled upper boxes are behind the bonus's course: their points per face
    (a box's face: 1 for the ones ... 6 for the sixes), at that rate for every face, would not
    reach the bonus (scoring.upper_bonus_reached, the one place of its rule)."""
    faces = {box: rules.box_face[rules.boxes.index(box)] for box in UPPER}
    filled = [box for box in UPPER if box in card]
    if not filled:
        return False
    rate = sum(card[box] for box in filled) / sum(faces[box] for box in filled)
    return not scoring.upper_bonus_reached(rate * sum(faces.values()),
                                           rules.upper_bonus_threshold)


def kind_words(kind, words):
    """A kind in words: "Kniffel gestrichen", "kept a pair over a straight draw"."""
    name, _, box = kind.partition(":")
    return words(f"kind.{name}", box=words.box(box)) if box else words(f"kind.{name}")
