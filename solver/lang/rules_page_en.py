"""English words of the rules-of-thumb pages: the conditions of a rule, the rule sets' titles,
a list's score (solver/lang/__init__.py says how they are used)."""

WORDS = {
    "page.par": "the box where the dice score most above its par (the pars are below the rules)",
    "page.course": ("the box where the dice score most above its par, an upper box's par counted "
                    "as three of its face (the course to the upper bonus)"),
    "pattern.aim": ("aim at the open box where the dice are furthest ahead of its par (the pars are "
                    "below the rules) and keep what a turn played for that box alone keeps"),
    "page.pars": "Each box's par, its mean points in a turn played for it alone: {pars}.",
    "pattern.kind_open_any": "keep every die of the most common face whose upper box is open",
    "pattern.kind_open": "keep the most common face whose upper box is open ({arg} or more alike)",
    "page.rolls_left_1": "with one roll left",
    "page.rolls_left_2": "with two rolls left",
    "page.until_round": "up to round {round}",
    "page.from_round": "from round {round}",
    "page.bonus_open": "while the upper bonus is still possible",
    "page.bonus_par": "while on course for the upper bonus (three of each open face gets it)",
    "page.bonus_behind": "when only more than three of a face still get the upper bonus",
    "page.bonus_settled": "once the upper bonus is won or lost",
    "page.bonus_not_reached": "until the upper bonus is won",
    "page.list_score": ("Played by these {n} rules: {score:.1f} points on average (exact); optimal "
                        "play: {optimal:.1f}."),
    "page.name.kniffel": "Kniffel",
    "page.name.kniffel-basic": "Kniffel (basic rules)",
    "page.name.kniffel-championship": "Kniffel (championship rules)",
    "page.name.kitkniff": "KitKniff",
    "page.name.yahtzee": "Yahtzee",
    "page.name.yahtzee-free": "Yahtzee (free joker)",
    "page.name.yatzy": "Yatzy",
    "page.gap_closed": ("These rules close {share:.0f} % of the gap between the sensible human's "
                        "list ({human:.1f}) and optimal play ({optimal:.1f})."),
}
