"""English words of the printed pages and the Markdown tables (solver/lang/__init__.py)."""

WORDS = {
    # the printed pages (report/pages.py)
    "page.rules": "Rules of thumb",
    "page.opening": "The first roll of the game",
    "page.costs": "What each box costs",
    "page.keep": "Keeping dice (first match wins)",
    "page.boxes": "After the last roll (first match wins)",
    "page.else_keep": "otherwise: reroll all five",
    "page.else_box": "otherwise: the first open box on the card",
    "page.strategy": "strategy",
    "page.score": "expected score",
    "page.how": "how",
    "page.exact": "exact",
    "page.simulated": "simulated",
    "page.exceptions": "Exceptions (the best keep fits no pattern)",
    "page.rolls": ("1 roll", "{n} rolls"),
    "page.when": "if {boxes} open",
    "page.or": " or ",
    "page.into": "{points}+ points: {box}",
    "page.scores": "{box} if the dice score there",
    "page.upper": "{n}+ of a face: its upper box",
    "page.any": "{box} with whatever it scores",
    "page.most": "the box scoring most",
    "page.most_min": "the box scoring most, if {points}+",
    "page.card": "Filled",
    "page.nothing": "nothing",
    "page.expected": "Expected final score",
    "page.roll": "final roll",
    "page.cost_note": ("Points given up (expected final score) by each box against the best box "
                       "for that roll; 0 = best (shaded). –: the dice may not go there."),
    "page.upper_note": ("Upper boxes: points − cost for 0-5 dice of the face (fill where points − "
                        "cost is largest against the lower boxes' costs below)."),
    "page.curve": "Expected score against the number of rules",
    "price.optimal": "optimal play (the solved table)",
    "price.thumb": "these {n} rules of thumb",
    'price.heuristic': "a sensible human's {n} rules",
    "price.greedy": "greedy: most common face, most points now",
    "pattern.kind": "keep the most common face ({arg} or more alike)",
    "pattern.kind_high": "keep a pair or more of fours, fives or sixes",
    "pattern.face": "keep the {faces}",
    "pattern.run4": "keep {arg} to a small straight",
    "pattern.run5": "keep {arg} to a large straight",
    "pattern.two_pairs": "keep two pairs",
    "pattern.full_house": "keep a full house",
    "pattern.high": "keep every die of {arg} or more",
    "pattern.nothing": "reroll all five",
    "faces.1": "ones",
    "faces.2": "twos",
    "faces.3": "threes",
    "faces.4": "fours",
    "faces.5": "fives",
    "faces.6": "sixes",
    "opening.stop.0": "keep all five",
    "opening.run5.4": "keep four to a large straight",
    "opening.run4.4": "keep four to a small straight",
    "opening.run4.3": "keep three to a straight",
    "opening.kind.4": "keep the four alike",
    "opening.kind.3": "keep the three alike",
    "opening.two_pairs.0": "keep both pairs",
    "opening.kind.2": "keep the (higher) pair",
    "opening.face.6": "keep the sixes",
    "opening.face.5": "keep the fives",
    "opening.face.4": "keep the fours",
    "opening.face.3": "keep the threes",
    "opening.face.2": "keep the twos",
    "opening.face.1": "keep the ones",
    "opening.high.5": "keep the fives and sixes",
    "opening.nothing.0": "reroll all five",
    "situation.start": "Start of the game",
    "situation.small_par": "Three small upper boxes on par",
    "situation.behind": "Behind in the upper section",
    "situation.ahead": "Ahead in the upper section, Kniffel scored",
    "situation.upper_done": "Upper section done on par (bonus made), lower section open",
    "situation.lower_done": "Lower section done, Kniffel scratched, upper section open",
    "situation.late": "Late game: the bonus needs three twos",
    "situation.lower_done_yatzy": "Lower section done, Yatzy scratched, upper section open",
    "page.five_alike": "five alike: keep them all",
    "page.large_straight_keep": "large straight: keep it",
    "page.lower_note": ("Lower boxes: the cost of filling the box (with these points, where it "
                        "depends on them)."),
    "page.rule": "rule",
    "page.price": "lost without",
    "page.price_chart": "The price of each rule",
    "page.keep_rules": "Keeping dice, rule no.",
    "page.box_rules": "After the last roll, rule no.",
    "page.axis_price": "expected points lost without the rule",
    "page.curve_note": ("Each point exact: the best list of at most that many rules the search "
                        "evaluated (printed: the list in which every rule pays)."),
    "page.no_rule_prices": ("Each rule's own price is computed for the presets' rules only; with "
                            "these rules only the whole list is priced."),
    "page.price_note": ("Price (exact, by policy evaluation): the expected points the whole list "
                        "loses when this one rule alone is dropped (the others kept, in their "
                        "order). The prices do not add up to the list's worth: rules can stand in "
                        "for each other."),
    "page.pattern": "keep",
    "page.share": "share",
    "page.count": "rolls",
    "page.rolls_of": "the rolls",
    "page.axis_x": "number of rules",
    "page.axis_y": "expected score",
    "page.optimum": "optimal play",
    "page.box": "box",
    "page.dice": "dice of the face:",
    "page.cost": "cost",
    "page.cost_with": "{cost} with {points}",
    "page.five_note": ("*: five of a kind with the {kniffel} box filled follows the rules for an "
                       "extra {kniffel} (joker, bonus); best then: {best}."),
    "page.opening_left": "The first roll of the game: {left}",
    "page.opening_note": ("The 252 first rolls on the empty card, grouped by the pattern that "
                          "names the best keep (exact, from the solved table); most likely first."),
    "page.prices": "What the rules are worth",
    # the Markdown tables (report/tables.py)
    "md.opening_title": '# Opening turn: {preset}',
    "md.opening_score": '{description}. Optimal expected score of a game: **{score:.4f}**.',
    "md.opening_text": ("For each roll on the empty card: the best choice if the roll came with "
                        "{lefts} rolls left (the first roll of the game has {first} left). *E* is "
                        "the expected final score of the game (points on the card at the end, "
                        "bonuses included) after that choice when every later decision is optimal: "
                        "`expected_final_score` of `kniffel advise` on the empty card. *margin* is "
                        "what the second-best choice would cost. `keep` lists the dice to hold "
                        "before rerolling the others; a box name fills that box now. *P* is the "
                        "chance of the roll."),
    "md.or": ' or ',
    "md.roll": 'roll',
    "md.left_best": '{left} left: best',
    "md.margin": 'margin',
    "md.keep": 'keep {dice}',
    "md.score": '{box} {points}',
    "md.joker": 'joker {changes}, {text}',
    "md.cheat_title": '# Box-choice cheat sheet: {preset}',
    "md.cheat_text": ("After the last roll of a turn: for every open box take the points your dice "
                      "score there minus the box's **cost**, and fill the box where that is "
                      "largest. The cost is the expected final score given up by filling that box "
                      "(upper bonus and the rest of the game under optimal play included), counted "
                      "from the cheapest fill, so the cheapest costs 0. For the upper boxes, whose "
                      "cost depends on the points, the table shows *points - cost* for 0-5 dice of "
                      "the box's face right away. A box that scores nothing for your dice costs "
                      "its cost at 0 points (a scratch). Exact for every roll on these cards (five "
                      "of a kind once the {kniffel} box is filled: see the line under the card)."),
    "md.cheat_jokers": ' Knobeln jokers are not shown.',
    "md.sheet_head": ("Turn {turn}. Filled: {filled}. Upper total {upper} (bonus {bonus} at "
                      "{threshold}). Expected final score {expected:.2f}."),
    "md.upper_head": 'upper box: points - cost',
    "md.five_dice": '5 dice',
    "md.lower_head": 'lower box',
    "md.cost_with": '{cost:.2f} with {points}',
    "md.five": 'Five of a kind: {list}',
    "md.turn_title": '# Which box in which turn: {preset}',
    "md.turn_text": ("{description}. The probability that the optimal player fills each box in "
                     "each turn of a game, computed exactly over every way the dice can fall (not "
                     "simulated). Each row and each column sums to 100%."),
    "md.turn": 'turn',
    "md.likely": 'most likely boxes',
    "md.all_boxes": 'All boxes, percent:',
    "md.pattern_title": '# Opening by pattern: {preset}',
    "md.pattern_text": ("The 252 first rolls on the empty card grouped by the pattern that names "
                        "the best keep, most likely first; the rolls whose best keep no pattern "
                        "names are the exceptions."),
    "md.pattern_keep": 'keep',
    "md.rolls": 'rolls',
    "md.exceptions": 'Exceptions: {list}.',
    "md.exception": '{roll} keep {keep}',
    "md.none": 'none',
    # the rules-of-thumb pages
    "page.par": "the box where the dice score most above its par (the pars are below the rules)",
    "page.course": ("the box where the dice score most above its par, an upper box's par counted "
                    "as three of its face (the course to the upper bonus)"),
    "pattern.aim": ("aim at the open box where the dice are furthest ahead of its par (the pars "
                    "are below the rules) and keep what a turn played for that box alone keeps"),
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
    "page.gap_closed": ("These rules close {share:.0f} % of the gap between the sensible human's "
                        "list ({human:.1f}) and optimal play ({optimal:.1f})."),
}
