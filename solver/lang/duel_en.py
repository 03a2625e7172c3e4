"""English words of the Dice Duel (solver/lang/__init__.py says how they are used)."""

WORDS = {
    "chip": {"two_pairs": "Two pairs", "three_kind": "Three of a kind",
             "small_straight": "Small straight", "flush": "Flush", "full_house": "Full house",
             "four_kind": "Four of a kind", "large_straight": "Large straight"},
    # choices
    "duel.keep": "keep {dice}, reroll the rest",
    "duel.stop": "stop: {text}",
    "duel.take": "take {chips}",
    "duel.and_chip": " + ",
    "duel.from_aside": "{chip} (set aside)",
    "duel.last_bonus": " +{n} last chip",
    "duel.no_chip": "no chip",
    "duel.take_none": "take no chip",
    "duel.no_chip_aside": "no chip: {chip} set aside",
    # the table
    "duel.chip": "chip",
    "duel.value": "value",
    "duel.plate": "plate",
    "duel.aside": "set aside",
    "duel.points": "points",
    "duel.wins": ("game over: {names} wins", "game over: {names} win"),
    "duel.tie": "game over: a tie, nobody wins",
    # `kniffel play --rules dice-duel`
    "duel.help_roll": ("type the dice to keep (e.g. 335), Enter = reroll all, s = stop and take a "
                       "chip, ? = coach, u = undo, q = save and quit"),
    "duel.help_end": ("type a chip (name, short name or value; add ' aside' for a set-aside one), "
                      "n = no chip, ? = coach, u = undo, q = save and quit"),
    "duel.prompt_keep": "keep (Enter = reroll all, s = stop)",
    "duel.prompt_chip": "chip (n = none)",
    "duel.prompt_dice": ("dice thrown (1 die, or all five)", "dice thrown ({n} dice, or all five)"),
    "duel.aside_word": "aside",
    "duel.turn": "{name}'s turn",
    "duel.record": "game record: {path}",
    "duel.over": "the game is over; see kniffel analyze {path}",
    # advice
    "duel.position": "{rules}, {n} players, seat {seat} to move",
    "duel.round_taken": ", a chip was taken this round",
    "duel.chip_row": "  {name:<15} plate {plate}  aside {aside}  seats {seats}",
    "duel.exact": "exact",
    "duel.estimate": "estimate, 95% interval {lo}-{hi}, {games} games per option",
    "duel.chance": "chance to win for seat {seat}: {p} ({how})",
    "duel.means_greedy": ("the advised choice's chance if from here on every player plays the "
                          "simple rule (keep for and take the most valuable chip) to the end; "
                          "the interval adds how far such estimates missed in play"),
    "duel.means_horizon": ("the advised choice's chance if from here on both players play the "
                           "simple rule (keep for and take the most valuable chip) until {n} "
                           "chips are left in play, then both their best; the interval adds how "
                           "far such estimates missed in play"),
    "duel.close_call": ("the options are too close to call: the advice keeps the simple rule's "
                        "choice"),
    "duel.means_exact_two": "if both players play their best from here",
    "duel.means_exact_greedy": ("if this player plays their best and every other takes the most "
                                "valuable chip from here"),
    "duel.means_exact_many": ("if everyone plays their best from here, and a player who can no "
                              "longer win helps the next player in turn"),
    "duel.kingmaker": ("with 3 or 4 players, exact chances assume that a player who can no longer "
                       "win helps the next player in turn"),
    "duel.choice": "choice",
    "duel.win": "win",
    "duel.interval": "95% interval",
    "duel.solo_head": "{rules}: chips {spec}; held {points} points",
    "duel.solo_spec": "(plate/aside/mine) {list}",
    "duel.solo_chips": "{chip} {plate}/{aside}/{mine}",
    "duel.all_on_plate": "all on the plate",
    "duel.solo_over": ("the game is over: {score:.0f} points with the bonuses (+{bonus} to whoever "
                       "took the last plate chip)"),
    "duel.solo_start": "expected final score at the start of the turn: {value:.4f}",
    # `kniffel analyze`
    "duel.analysis_row": ("{i:>3}. {player}: dice {dice}, {left}, chose {choice}: chance {p}, "
                          "best {best}{how}"),
    "duel.estimates": " (estimates)",
    "duel.no_loss": "no decision cost a chance to win",
    "duel.given_away": "{name}: chance to win given away, summed over decisions: {lost}",
    "duel.final": "final: {scores}",
    # errors a player sees
    "duel.error.players": "the Dice Duel has 2-{most} players, got {n}",
    "duel.error.rolled": "the dice are already rolled: keep some or end the turn",
    "duel.error.no_roll": "no roll is left: take a chip (or none)",
    "duel.error.keep": "keep {keep}: not 0-4 of the dice {dice}",
    "duel.error.not_possible": "{move} is not possible with {dice}; possible: {moves}",
    "duel.error.unknown_chip": ("unknown chip {name!r}; chips: {chips} (or 2p, 3k, ss, fl, fh, 4k, "
                                "ls, or the chip's value)"),
    # the web page /duel
    "duel.web.title": "Kniffel Dice Duel",
    "duel.web.coach": "coach",
    "duel.web.scorecard": "scorecard games",
    "duel.web.setup": "New game (2–4 players)",
    "duel.web.players": "Players",
    "duel.web.real": "real dice (type what you threw)",
    "duel.web.seed": "Seed",
    "duel.web.resume": "Resume a saved game",
    "duel.web.keep_roll": "Keep marked, roll the rest",
    "duel.web.stop": "Stop",
    "duel.web.analyze": "Analyze",
    "duel.web.turn": "{name}'s turn",
    "duel.web.rolls_left": (", 1 roll left", ", {n} rolls left"),
    "duel.web.round_taken": " (a chip was taken this round)",
    "duel.web.wins": ("Game over: {names} wins.", "Game over: {names} win."),
    "duel.web.tie": "Game over: a tie, nobody wins.",
    "duel.web.chance": "Chance to win: {chance} ({how})",
    "duel.web.estimate": "estimate, 95% interval {lo}–{hi}",
    "duel.web.analysis_row": "{player}: dice {dice}, {left}, {choice}: {p} (best {best})",
    "duel.web.given_away": "{name}: chance to win given away {lost}",
    "duel.web.turn_of": "Turn: {name}",
    "duel.web.chance_greedy": ("Chance to win {chance} (estimate, {lo}–{hi}) if from here on every "
                               "player plays the simple rule (keep for and take the most valuable "
                               "chip) to the end; the interval adds how far such estimates missed "
                               "in play."),
    "duel.web.chance_horizon": ("Chance to win {chance} (estimate, {lo}–{hi}) if from here on both "
                                "players play the simple rule (keep for and take the most valuable "
                                "chip) until {n} chips are left in play, then both their best; the "
                                "interval adds how far such estimates missed in play."),
    "duel.web.close_call": ("The options are too close to call: the advice keeps the simple "
                            "rule's choice."),
    "duel.web.chance_exact": ("Chance to win {chance}, exact, if from here on everyone plays their "
                              "best."),
    "duel.web.chance_exact_many": ("Chance to win {chance}, exact, if from here on everyone plays "
                                   "their best and a player who can no longer win helps the next "
                                   "player in turn."),
    "duel.web.new_ask": ("Leave this game and set up a new one? It stays saved until you press "
                         "Start."),
    "duel.web.new_yes": "Yes, new game",
    "duel.web.cancel": "Cancel",
    "duel.web.back": "Back to the game",
    "duel.web.entry_help": ("Throw, then tap the face (or type 1-6); ⌫ takes it back.",
                            "Throw, then tap the {n} faces (or type 1-6); ⌫ takes one back."),
    "duel.web.face_range": "A die shows 1 to 6, not {face}.",
    "duel.web.working": "Working…",
    "duel.web.analysing": "Analysing… {done} of {total} decisions",
    "duel.web.busy": "Still working on the last step: tap again when it is done.",
    "duel.web.no_names": "Type 2 to 4 names, separated by commas.",
    "duel.web.bad_file": "This file is not a Dice Duel game record.",
    "duel.web.nothing_to_undo": "Nothing to undo: this is the game's first roll.",
    "duel.web.advice_head": "Choices, best first, with the chance to win:",
    "duel.web.no_advice_loss": ("Nobody gave away a chance to win: every decision was the best "
                                "one."),
    "duel.web.analysis_total": "{name}: gave away {lost} chance to win in total",
    "duel.web.kingmaker": ("Exact chances with 3 or 4 players assume that a player who can no "
                           "longer win helps the next player in turn."),
    "duel.web.error.budget": ("This took longer than the server allows ({seconds} s) and was "
                              "stopped; try again."),
    "duel.web.error.busy": "The server is busy; try again in a moment.",
    "duel.web.error.stopped": "The server stopped this work; try again.",
    "duel.web.error.internal": ("The server made a mistake (an internal error); the game is "
                                "unchanged."),
    "duel.web.error.request": "The server could not read this request: {detail}",
    "duel.error.dice_count": ("type {n} die or all five; got {got}",
                              "type {n} dice or all five; got {got}"),
    "duel.error.face": "a die shows 1 to 6, not {face}",
    "duel.error.names": "players must be 2-4 names of up to {most} characters",
    "duel.error.dice_list": "dice are a list of faces 1 to 6",
    "duel.web.unreadable": "This game record or move cannot be read; the game is unchanged.",
    "duel.error.seed": "the seed is a whole number 0 or more, and only for virtual dice",
    "duel.web.more_losses": ("1 more decision that cost a chance ▾",
                             "{n} more decisions that cost a chance ▾"),
}
