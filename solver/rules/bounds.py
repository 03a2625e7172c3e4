"""Bounds of the boxes of a rule set: the most points each box can score and the most a game can."""


def box_most(rules):
    """The most points each box of `rules` can score (plain or joker), in box order."""
    return [max(int(rules.plain_score[b].max()), int(rules.joker_score[b].max()))
            for b in range(rules.n_boxes)]


def score_bound(rules):
    """The most points a game of `rules` can score: every box at its most (plain or joker), the
    upper bonus, and an extra-Kniffel bonus for every box after the Kniffel box (up to the cap)."""
    return (sum(box_most(rules)) + rules.upper_bonus
            + rules.extra_bonus * min(rules.n_boxes - 1, rules.cap_count))
