"""English words (solver/lang/__init__.py says how they are used)."""

WORDS = {
    "box": {"ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives",
            "sixes": "Sixes", "three_kind": "Three of a Kind", "four_kind": "Four of a Kind",
            "full_house": "Full House", "small_straight": "Small Straight",
            "large_straight": "Large Straight", "kniffel": "Yahtzee", "chance": "Chance",
            "one_pair": "One Pair", "two_pairs": "Two Pairs", "yatzy": "Yatzy"},
    "nothing": "nothing",
    "and": " and ",
    "best": "best",
    "cost": "cost {cost:.2f}",
    "cost_chance": "cost {chance}",
    "rolls_left": ("1 roll left", "{n} rolls left"),
    "dice_left": "dice {dice}, {left}",
    # the card
    "card.upper_total": "upper total",
    "card.bonus": "bonus ({threshold}+)",
    "card.extra": "extra {kniffel}",
    "card.jokers_left": "jokers left",
    "card.total": "total",
    # choices
    "choice.keep": "keep {dice}",
    "choice.reroll": "{text}, reroll {dice}",
    "choice.reroll_all": "{text}, reroll all",
    "choice.box": "{box} ({points})",
    "choice.joker": "joker {changes}, {text}",
    "choice.as_joker": "{text} as {kniffel} joker",
    "choice.score": "score {box} for {points}",
    "choice.upper_bonus": "+{n} upper bonus",
    "choice.extra_bonus": "+{n} extra {kniffel}",
    # goals
    "goal.win": "win",
    "goal.target": "reach {target}",
    "goal.chance_win": "P(win)",
    "goal.chance_target": "P(>= {target})",
    # `kniffel play`
    "play.keep_help": "type the dice to keep (e.g. 335), Enter = reroll all, a = keep all and "
                      "score, a box name to score now, ? = coach, u = undo, q = save and quit",
    "play.box_help": ("type a box (name, German name or number), ? = coach, u = undo, q = save and "
                      "quit"),
    "play.joker_help": ", j 5 6 = joker: turn a 5 into a 6, u = undo jokers (then the last move)",
    "play.stdin_closed": "standard input is closed, so no move can be read: the game stops",
    "play.input_ended": "end of input: the game is saved and stops",
    "play.wins": ("{names} wins with {best}.", "{names} win with {best}."),
    "play.final": "Final score: {total}.",
    "play.saved": "game saved to {path}; see what each decision cost: kniffel analyze {path}",
    "play.saved_unfinished": "game saved (unfinished) to {path}; see what each decision cost: "
                             "kniffel analyze {path}",
    "play.round": "Round {round}",
    "play.round_player": "Round {round}, {name}'s turn",
    "play.jokers": (" (1 joker left)", " ({n} jokers left)"),
    "play.nothing_to_undo": "nothing to undo",
    "play.undone_dice": "undone: dice {dice} in hand again",
    "play.undone_roll": "undone: type the roll again",
    "play.quit_ask": "end the game for every player? (saved; resume with --resume) y/N",
    "play.prompt_box": "box?",
    "play.prompt_keep": "keep?",
    "play.roll_prompt": ("roll {number}: the die thrown{holding}?",
                         "roll {number}: the {n} dice thrown{holding}?"),
    "play.holding": " (holding {kept})",
    "play.dice": "roll {number}: {dice}   ({left})",
    "play.held": "   (* held)",
    "play.neither": "{answer!r} is neither dice nor a box: {help}",
    "play.joker_form": "a joker is j FROM TO, e.g. j 5 6 turns a 5 into a 6",
    "play.dice_now": "dice: {dice}",
    "play.joker_done": "joker: dice now {dice}",
    "play.scored": "{player}: {points} in {box}{extra}, total {total}",
    "play.extra_bonus": "+{n} {kniffel} bonus",
    "play.upper_bonus": "+{n} upper bonus",
    "play.open": "open:",
    "play.joker_hint": "(j 5 6 = joker: turn a 5 into a 6)",
    "coach.feedback": "coach: {cost}",
    "coach.best_was": "; best was {choice}",
    "coach.goal_feedback": "coach: {chance_name} {chance}, {cost}; in points {points_cost}",
    "coach.best_for": "; best for {goal} was {choice}",
    "coach.head": "coach ({left}, dice {dice}): expected final score, cost against the best",
    "coach.goal_head": "coach for {goal} ({left}, dice {dice}): {chance_name}, expected final "
                       "score, cost against the best",
    "coach.more": "({n} more: type ?)",
    "coach.points_instead": "playing for points instead: expected {value:.2f}",
    "summary.start": "Expected final score at the start, playing best: {value:.2f}.",
    "summary.player": ("{name}: {score}, gave away {loss:.1f} points ({optimal} of {n} decisions "
                       "optimal)"),
    # `kniffel advise`
    "advise.head": "{rules}: card total {total}",
    "advise.filled": "filled: {boxes}",
    "advise.open": "open:   {boxes}",
    "advise.upper": "upper:  {subtotal}; the bonus (+{bonus} at {threshold}) {state}",
    "advise.bonus_reached": "reached",
    "advise.bonus_out": "out of reach",
    "advise.bonus_needs": "needs {n} more",
    "advise.extra": "extra-{kniffel} bonuses: {n} (+{points})",
    "advise.jokers": "jokers left: {n}",
    "advise.start": "expected final score at the start of the turn: {value:.4f}",
    "advise.choice": "choice",
    "advise.expected": "expected",
    "advise.cost": "cost",
    "advise.more": "… and {n} more: --all shows every option",
    "advise.goal_head": "{rules}: card total {total}, playing for {goal}: {chance_name} {chance}, "
                        "expected final score {expected:.3f}",
    "advise.method_exact": "exact: the sub-game from this position solved to the last decision",
    "advise.method_approx": ("≈ an estimate within [{low}, {high}]: the low end is the chance when "
                             "playing for points from here (exact), the high end a bound no play "
                             "can beat"),
    "advise.interval": "interval",
    "chance_unknown": "unknown",
    "advise.at_most": "at most {chance}",
    "build.under_way": "the win coach's tables are being built: {done} done",
    "build.under_way_eta": ("the win coach's tables are being built: {done} done, the exact "
                            "advice ready in about {eta}"),
    "build.offer": ("the exact advice needs the win coach's tables of {title}: about {size} on "
                    "disk and {time} of computing on this machine (an estimate); --build builds "
                    "them now, once"),
    "build.busy": "the win coach's tables of {title} are being built by another process",
    "build.done": "the win coach's tables of {title} are built",
    "build.stage_target": "target table",
    "build.stage_opponents": "opponents' distributions",
    "fallback.compiling_win": "the win coach is being prepared (once)",
    "fallback.compiling_duel": "the Dice Duel coach is being prepared (once)",
    # `kniffel advise --why`: what the turn plays for
    "why.head_points": "Why: where the turn ends, each option played best for points after it "
                       "(exact chances; in brackets the points entered there, on average):",
    "why.head_goal": ("Why: where the turn ends, each option played best for the goal ({goal}) "
                      "after it (exact chances; in brackets the points entered there, on "
                      "average; the upper bonus's chance is computed for points play only):"),
    "why.start": "this turn ends in: {boxes}",
    "why.box": "{box} {chance} ({points})",
    "why.rest": "{n} more {chance}",
    "why.upper": "upper bonus {chance}",
    "why.upper_change": "upper bonus {before} -> {after}",
    "why.open": "open after: {boxes}",
    "why.preparing": ("the upper bonus's chances are being prepared (once): they come with the "
                      "next answer"),
    "why.over_budget": ("the upper bonus's chances are left out: about {seconds:.0f} s of work "
                        "here (an estimate, counted on the reference machine), over the budget of "
                        "{budget} s"),
    "why.budget_hint": "--budget {more} computes them",
    "why.approximate": "no why for an estimated answer: its play is not known exactly",
    "eta.seconds": "{n} s",
    "eta.minutes": "{n} min",
    "eta.hours": "{h} h {m} min",
    "advise.method_unknown": ("the chance to win cannot be worked out within the budget: all "
                              "that is known is that it is at most 100% (without the target table "
                              "there is no closer bound, and the chance when playing for points "
                              "from here needs more work than the budget); the options are ranked "
                              "by the expected score"),
    "advise.no_target_table": ("no target table for these rules: the high end is not known and "
                               "the options are ranked by the expected score; `kniffel solve "
                               "--objective target` builds it once"),
    "advise.target_table_hint": "`kniffel solve --objective target` builds the target table once",
    "fallback.points": "advice for points: {why}",
    "fallback.stopped": "the work ran past this server's time guard and was stopped",
    "fallback.no_target_table": ("no target table for these rules, and the sub-game from this "
                                 "position is about {seconds} s of work (an estimate), over "
                                 "the budget of {budget} s"),
    "advise.goal_target": "a final score of {target}+",
    "advise.goal_win": ("a win against 1 player (ties {ties})",
                        "a win against {n} players (ties {ties})"),
    "advise.goal_same": "this choice is also the best for points; played for points from here "
                        "instead: expected final score {plain:.3f} ({cost:.3f} more)",
    "advise.goal_same_free": "this choice is also the best for points: expected final score "
                             "{plain:.3f}",
    "ties.share": "shared",
    "ties.lose": "lost",
    "advise.trade_risky": "playing to {goal} is the riskier choice here: it gives up {cost:.3f} "
                          "expected points ({expected:.3f} against {plain:.3f} playing for points) "
                          "for {chance_name} {chance} instead of {plain_chance}",
    "advise.trade_safe": "playing to {goal} is the safer choice here: it gives up {cost:.3f} "
                         "expected points ({expected:.3f} against {plain:.3f} playing for points) "
                         "for {chance_name} {chance} instead of {plain_chance}",
    "advise.trade_free": ("playing to {goal} costs no expected points here ({expected:.3f}) and "
                          "gives {chance_name} {chance} instead of {plain_chance}"),
    "advise.trade_start": "playing for points instead: expected final score {plain:.3f} "
                          "({cost:.3f} more)",
    "advise.trade_start_same": "playing for points instead: the same expected final score, "
                               "{plain:.3f}",
    # `kniffel analyze`
    "analyze.head": ("{rules}: 1 decision; cost = expected final score of the best choice minus "
                     "that of the choice made",
                     "{rules}: {n} decisions; cost = expected final score of the best choice "
                     "minus that of the choice made"),
    "analyze.goal_head": "  and the chance to {goal} after the choice made, played for from "
                         "there, with its cost against the best choice for it",
    "analyze.row": "  round {round:>2}  {who}{dice}  {left} left  {choice:<26}",
    "analyze.best": "  best: {choice}",
    "analyze.why_choice": "      why, as played: {why}",
    "analyze.why_best": "            the best: {why}",
    "analyze.chance": "{chance} {goal}, {cost}",
    "analyze.score": "score {score}",
    "analyze.unfinished": " (unfinished)",
    "analyze.chance_sum": ", {chance} of the chance to {goal} summed over the decisions",
    "analyze.player": ("{name}: {score}; gave away {loss:.2f} points{chance}, {n} decision of "
                       "{total} optimal",
                       "{name}: {score}; gave away {loss:.2f} points{chance}, {n} decisions of "
                       "{total} optimal"),
    # `kniffel chances`
    "chances.head": "{rules}: card total {total}; P(final >= T)",
    "chances.columns": ("best", "expected play", "gain"),
    # errors a player sees in the coach
    "error.box_number": "box number must be 1-{most}, got {number}",
    "error.unknown_box": "unknown box {name!r}; the boxes: {allowed} (or their numbers 1-{most})",
    "error.not_a_face": "{part!r} is not a die face 1-6",
    "error.no_roll_now": "no dice to roll now",
    "error.hold_kept": "the roll must hold the kept dice {dice}",
    "error.roll_count": ("roll 1 die{or_all}, got {got}", "roll {n} dice{or_all}, got {got}"),
    "error.or_all": " (or all five)",
    "error.no_rolls_left": "no rolls left: choose a box",
    "error.cannot_keep": "cannot keep {keep}: the dice are {dice}",
    "error.drill_box": "enter a box (its name or number), or q to stop",
    "error.keep_five": "keeping all five dice ends the roll: choose a box",
    "error.no_jokers": "{rules} has no jokers",
    "error.joker_last_roll": "a joker may be played only after the last roll",
    "error.no_joker_left": "no joker left",
    "error.jokers_a_turn": ("at most 1 joker a turn", "at most {n} jokers a turn"),
    "error.no_die_shows": "no die shows {face}: the dice are {dice}",
    "error.joker_face": "a joker turns a die into another face 1-6, got {old} -> {new}",
    "error.filled": "{box} is already filled ({points})",
    "error.not_allowed": "the rules do not allow {dice} in {box} now; allowed: {allowed}",
    "error.turn_over": "the turn is over",
    "error.roll_first": "roll the dice first",
    "error.game_over": "the game is over",
    "error.rolled": "the dice are already rolled: keep some or choose a box",
    "error.real_dice": "this game uses real dice: send the dice thrown",
    "error.seeded_dice": "this game rolls seeded dice: send \"roll\": true",
}
