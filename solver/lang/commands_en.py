"""English words of `simulate`, `distribution`, `solve`, `rules` and the scorecard rules text
(`kniffel rules --show`, rules/describe.py); solver/lang/__init__.py says how they are used."""

WORDS = {
    # a lone player's column (records keep "you"; only what is shown follows the language)
    "player.you": "you",
    # `kniffel simulate`
    "simulate.head": ("{rules}: {games} game a strategy, seed {seed}; solved expected score "
                      "{expected:.4f}",
                      "{rules}: {games} games a strategy, seed {seed}; solved expected score "
                      "{expected:.4f}"),
    "simulate.strategy.optimal": "optimal",
    "simulate.strategy.greedy": "greedy",
    "simulate.strategy.heuristic": "heuristic",
    "simulate.mean": "mean (95% CI)",
    "simulate.sd": "standard deviation",
    "simulate.percentile": "percentile {q}",
    "simulate.upper_bonus": "upper bonus",
    "simulate.kniffel_50": "{kniffel} box 50",
    "simulate.extra_bonus": "extra-{kniffel} bonus",
    "simulate.at_least": "score >= {target}",
    "simulate.jokers_used": "jokers used",
    # `kniffel distribution`
    "distribution.head": ("{rules}: exact final-score distribution of the optimal strategy "
                          "({states} states, {seconds:.1f} s)"),
    "distribution.summary": ("  mean {mean:.6f} (table: {expected:.6f}), standard deviation "
                             "{sd:.4f}, median {median}, range {low}-{high}"),
    "distribution.percentiles": "percentiles",
    "distribution.upper_bonus": "upper bonus",
    "distribution.kniffel_50": "{kniffel} box 50",
    "distribution.extra_bonus": "an extra-{kniffel} bonus",
    "distribution.rolled": "a {kniffel} rolled (turns to come)",
    "distribution.at_least": "score >= {target}",
    "distribution.score": "score",
    "distribution.probability": "probability",
    # `kniffel solve`
    "solve.expected": "{rules}: expected score {expected:.7f}, {states} states, {done}",
    "solve.target": ("{rules}: target table, {entries} entries, {done}; from the empty card "
                     "{chances}"),
    "solve.horizon": ("{rules}: horizon table of every 2-player position with at most {levels} "
                      "chips in play, {values} values ({gigabytes:.2f} GB), {done}"),
    "solve.solved": "solved in {seconds:.2f} s",
    "solve.loaded": "loaded (use --force to solve again) in {seconds:.2f} s",
    "solve.table": "table: {path}",
    # numbers of thousands and more: "536,448"
    "number.thousands": ",",
    # `kniffel rules`: the list
    "rules.more": "kniffel rules --show NAME prints the rules of one in full; docs/rules.md "
                  "explains them.",
    # `kniffel rules --show`: the scorecard rules text
    "rules.changed": "(The preset {preset} with options changed: {changes}; the line above "
                     "describes the preset.)",
    "rules.turn": "Turn",
    "rules.one_roll": "One roll a turn, of all five dice.",
    "rules.rolls": ("Up to {n} rolls a turn. The first roll throws all five dice; before each "
                    "further roll keep any of them (none to all) and roll the rest again; you may "
                    "stop after any roll."),
    "rules.fill": (" Then fill exactly one open box, with the points the dice give there or with 0 "
                   "(a scratch); any open box may be scratched"),
    "rules.fill_forced": " (the forced joker restricts that for a further {five}, see below)",
    "rules.game_ends": ". The game ends when all {n} boxes are filled.",
    "rules.boxes": "Boxes ({first} to {last} are the upper section, the rest the lower)",
    "rules.column.box": "box",
    "rules.column.name": "name",
    "rules.column.also": "also",
    "rules.column.needs": "needs",
    "rules.column.points": "points",
    "rules.scores_0": "A roll that does not meet a box's condition scores 0 there.",
    "rules.upper_bonus": "Upper bonus",
    "rules.upper_bonus_text": "+{bonus} when {first} to {last} add up to at least {threshold}.",
    "rules.no_bonus": "None.",
    "rules.five": "Five of a kind ({five})",
    "rules.five_scores": ("Five of a kind scores {fifty} in the {five} box. While the {five} box "
                          "is open, five of a kind scores by the box table in whatever box it goes "
                          "into. "),
    "rules.further_plain": ("A further {five} (rolled once the {five} box is filled) scores by the "
                            "table too, in any box: no extra bonus, no joker."),
    "rules.further": "A further {five}, rolled once the {five} box is filled (with {fifty} or 0):",
    "rules.joker.none": "No joker: it scores by the box table above, like any other roll.",
    "rules.joker.max-any": ("Joker at any box's maximum: it may go into any open box for the most "
                            "points that box can hold, whatever the face of the dice."),
    "rules.joker.free": ("Free joker: it may go into any open box: the lower boxes at the joker "
                         "points below, the upper box of its face at 5 × face, any other upper box "
                         "for 0."),
    "rules.joker.forced": ("Forced joker: it must go into the upper box of its face if that box is "
                           "open; if not, into an open lower box (at the joker points below) if "
                           "there is one; only if neither is open, into an open upper box, for 0."),
    "rules.joker.free-after-upper": ("Joker once the upper box of its face is filled: then it may "
                                     "go into any open box, the lower boxes at the joker points "
                                     "below, upper boxes for 0; while that upper box is still "
                                     "open it scores by the box table above."),
    "rules.joker.must-match": "No joker: it scores by the box table above, like any other roll.",
    "rules.joker_fifty": ("- The joker applies only while the {five} box holds {fifty}; after a "
                          "scratched {five} box a further {five} scores by the table."),
    "rules.joker_filled": "- The joker applies whether the {five} box holds {fifty} or 0.",
    "rules.joker_points": "- Joker points: {points}.",
    "rules.joker_upper_counts": " Upper-box points count towards the upper bonus.",
    "rules.must_fit": ("- It must be entered in {where}, while one of them is open (any one, your "
                       "choice); only when none is open may it go into another open box, for 0."),
    "rules.must_fit_joker": ("a box where it scores points (by the joker points while the joker "
                             "applies, else by the box table)"),
    "rules.must_fit_table": "a box where it scores points by the box table: {boxes}",
    "rules.may_scratch": ("- It may also be entered in any other open box, for 0 (the option "
                          "extra_kniffel_must_fit forbids that while a box it fits is open)."),
    "rules.extra": "- Extra bonus: +{bonus} for each further {five} {needs}, paid {where}; {cap}.",
    "rules.extra_fifty": "while the {five} box holds {fifty}",
    "rules.extra_filled": "whether the {five} box holds {fifty} or 0",
    "rules.extra_anywhere": "whatever box it goes into, even for 0",
    "rules.extra_fitting": ("only when it is entered in a box where it scores points by the box "
                            "table: {boxes}"),
    "rules.cap_none": "no limit",
    "rules.cap_never_paid": "but the cap of {cap} points means it is never paid",
    "rules.cap_never_reached": ("the cap of {cap} points is never reached (a game has at most "
                                "{most})"),
    "rules.cap": ("at most {points} bonus points a game (1 bonus)",
                  "at most {points} bonus points a game ({n} bonuses)"),
    "rules.no_extra": "- No extra bonus.",
    "rules.upper_box_of_face": "the upper box of its face",
    "rules.box_faces": "{box} (faces {faces})",
    "rules.points_upper_0": "upper boxes 0",
    "rules.points_own_upper": "the upper box of its face 5 × face, other upper boxes 0",
    "rules.points_by_face": "{box} {points} (faces 1-6)",
    "rules.points_sum": "{box} 5 × face (the sum)",
    "rules.jokers": "Knobeln jokers",
    "rules.jokers_text": ("{jokers} a game. {when}, before a box is filled, a joker turns one die "
                          "into any other face; {per}. Jokers still in hand at the end score "
                          "nothing."),
    "rules.jokers_one_roll": "After the turn's roll",
    "rules.jokers_last_roll": ("After the last roll of a turn (only when {rolls} of the turn were "
                               "thrown, not after stopping early)"),
    "rules.jokers_both": "both rolls",
    "rules.jokers_all": "all {n} rolls",
    "rules.jokers_per_turn": ("at most 1 joker a turn", "at most {n} jokers a turn"),
    "rules.no_jokers": "None.",
    "rules.final": "Final score",
    "rules.final_boxes": "the points in the boxes",
    "rules.final_upper": "the upper bonus",
    "rules.final_extra": "the extra bonuses",
    "rules.settings": ("Settings (a rules file names a preset and changes some of these; "
                       "docs/rules.md explains each)"),
    # what a box needs (tried in order: the first that is exactly its scoring rolls)
    "rules.needs.none": "none",
    "rules.needs.pair": "at least two dice of one face",
    "rules.needs.two_pairs": ("two different faces twice or more (a full house counts, four of a "
                              "kind not)"),
    "rules.needs.three": "at least three dice of one face",
    "rules.needs.four": "at least four dice of one face",
    "rules.needs.house": "three dice of one face and two of another",
    "rules.needs.house_or_five": "three dice of one face and two of another, or five of a kind",
    "rules.needs.run_4": "four faces in a row: 1-2-3-4, 2-3-4-5 or 3-4-5-6",
    "rules.needs.run_5": "five faces in a row: 1-2-3-4-5 or 2-3-4-5-6",
    "rules.needs.exactly": "exactly {faces}",
    "rules.needs.five": "five of a kind",
    "rules.needs.face": "none: only the {face}s count",
    "rules.needs.rolls": "{n} of the 252 distinct rolls",
    # how many points a box gives
    "rules.points.sum": "the sum of the dice",
    "rules.points.pair": "2 × the highest face shown twice",
    "rules.points.two_pairs": "the sum of the two pairs",
    "rules.points.three": "3 × the face shown three times",
    "rules.points.four": "4 × the face shown four times",
    "rules.points.face": "{face} × the number of {face}s",
    # `kniffel history`: what a player's games say; the kinds of mistake (history/kinds.py)
    "history.none": "no games kept in {path} yet: a game played or analysed is kept there",
    "history.no_player": "no games of {name} in {path}",
    "history.player": ("{name}: 1 game ({finished} finished), mean score {score}",
                       "{name}: {n} games ({finished} finished), mean score {score}"),
    "history.no_score": "-",
    "history.loss": ("  points given away: {loss:.2f} a game, in the last game {recent:.2f}",
                     "  points given away: {loss:.2f} a game, in the last {n} {recent:.2f}"),
    "history.trend": "; trend {trend:+.2f} a game ({direction})",
    "history.better": "getting better",
    "history.worse": "getting worse",
    "history.steady": "steady",
    "history.kinds": "  the costliest recurring kinds of mistake:",
    "history.kinds_none": "  no kind of mistake made twice or more",
    "history.kind": ("  {rank}. {kind}: {cost:.2f} points a game (1 decision)",
                     "  {rank}. {kind}: {cost:.2f} points a game ({n} decisions)"),
    "history.example": ("     e.g. round {round}, {choice} instead of {best} (cost {loss:.2f}): "
                        "{command}"),
    "history.plot": "the points given away per game: {path}",
    "kind.box": "entered in {box} where something else was better",
    "kind.scratch": "scratched {box}",
    "kind.stop_early": "stopped rolling too early",
    "kind.roll_on": "rolled on instead of entering a box",
    "kind.pair_over_straight": "kept dice of one face over a straight draw",
    "kind.straight_over_pair": "kept a straight draw over dice of one face",
    "kind.kept_more": "kept too many dice",
    "kind.kept_fewer": "kept too few dice",
    "kind.behind_course": "behind the upper bonus's course",
    "history.plot_title": "Points given away per game",
    "history.plot_x": "game",
    "history.plot_y": "expected points given away",
    "history.plot_legend": ("{name} (each game)", "{name} (mean of {n} games)"),
    # `kniffel drill` (history/drill.py)
    "drill.head": "Position {number} of {count}, {where}",
    "drill.from_game": "from your game {game}, round {round}",
    "drill.built_in": "a built-in position",
    "drill.again": ("; answered once before", "; answered {n} times before"),
    "drill.prompt_keep": ("Your move: the dice to keep (e.g. 55; nothing: roll all), or a box; "
                          "q stops:"),
    "drill.prompt_box": "Your move: a box (name or number); q stops:",
    "drill.right": "Right: {best} is the best move.",
    "drill.wrong": "{choice} gives away {cost:.2f} points: the best is {best}.",
    "drill.comes_back": ("It comes back after 1 other position.",
                         "It comes back after {n} other positions."),
    "drill.summary": ("Drill: {right} of 1 right, {cost:.2f} points given away; {positions} "
                      "positions in your drill, {due} due now.",
                      "Drill: {right} of {n} right, {cost:.2f} points given away; {positions} "
                      "positions in your drill, {due} due now."),
}
