"""Deutsche Wörter (solver/lang/__init__.py sagt, wie sie benutzt werden)."""

WORDS = {
    "box": {"ones": "Einser", "twos": "Zweier", "threes": "Dreier", "fours": "Vierer",
            "fives": "Fünfer", "sixes": "Sechser", "three_kind": "Dreierpasch",
            "four_kind": "Viererpasch", "full_house": "Full House",
            "small_straight": "Kleine Straße", "large_straight": "Große Straße",
            "kniffel": "Kniffel", "chance": "Chance",
            "one_pair": "Ein Paar", "two_pairs": "Zwei Paare", "yatzy": "Kniffel"},
    "nothing": "nichts",
    "and": " und ",
    "best": "am besten",
    "cost": "kostet {cost:.2f}",
    "cost_chance": "kostet {chance}",
    "rolls_left": ("noch 1 Wurf", "noch {n} Würfe"),
    "dice_left": "Würfel {dice}, {left}",
    # der Block
    "card.upper_total": "Summe oben",
    "card.bonus": "Bonus (ab {threshold})",
    "card.extra": "{kniffel}-Bonus",
    "card.jokers_left": "Joker übrig",
    "card.total": "Endsumme",
    # Entscheidungen
    "choice.keep": "halte {dice}",
    "choice.reroll": "{text}, würfle {dice} neu",
    "choice.reroll_all": "{text}, würfle alle neu",
    "choice.box": "{box} ({points})",
    "choice.joker": "Joker {changes}, {text}",
    "choice.as_joker": "{text} als {kniffel}-Joker",
    "choice.score": "{box} mit {points} Punkten",
    "choice.upper_bonus": "+{n} Bonus oben",
    "choice.extra_bonus": "+{n} {kniffel}-Bonus",
    # Ziele
    "goal.win": "Sieg",
    "goal.target": "{target} Punkte",
    "goal.chance_win": "P(Sieg)",
    "goal.chance_target": "P(>= {target})",
    # `kniffel play`
    "play.keep_help": "Würfel zum Halten eingeben (z. B. 335), Enter = alle neu, a = alle halten "
                      "und eintragen, ein Feldname = jetzt eintragen, ? = Trainer, u = zurück, "
                      "q = speichern und beenden",
    "play.box_help": "Feld eingeben (Name oder Nummer), ? = Trainer, u = zurück, q = speichern "
                     "und beenden",
    "play.joker_help": ", j 5 6 = Joker: aus einer 5 eine 6 machen, u = Joker zurück (dann der "
                       "letzte Zug)",
    "play.stdin_closed": ("die Eingabe ist geschlossen, es kann kein Zug gelesen werden: das Spiel "
                          "endet"),
    "play.input_ended": "Ende der Eingabe: das Spiel ist gespeichert und endet",
    "play.wins": ("{names} gewinnt mit {best}.", "{names} gewinnen mit {best}."),
    "play.final": "Endstand: {total}.",
    "play.saved": "Spiel gespeichert in {path}; was jede Entscheidung gekostet hat: "
                  "kniffel analyze {path}",
    "play.saved_unfinished": "Spiel (unfertig) gespeichert in {path}; was jede Entscheidung "
                             "gekostet hat: kniffel analyze {path}",
    "play.round": "Runde {round}",
    "play.round_player": "Runde {round}, {name} ist dran",
    "play.jokers": (" (noch 1 Joker)", " (noch {n} Joker)"),
    "play.nothing_to_undo": "nichts zurückzunehmen",
    "play.undone_dice": "zurückgenommen: Würfel {dice} wieder in der Hand",
    "play.undone_roll": "zurückgenommen: den Wurf bitte neu eingeben",
    "play.quit_ask": "Spiel für alle beenden? (gespeichert; weiter mit --resume) j/N",
    "play.prompt_box": "Feld?",
    "play.prompt_keep": "halten?",
    "play.roll_prompt": ("Wurf {number}: der geworfene Würfel{holding}?",
                         "Wurf {number}: die {n} geworfenen Würfel{holding}?"),
    "play.holding": " (gehalten: {kept})",
    "play.dice": "Wurf {number}: {dice}   ({left})",
    "play.held": "   (* gehalten)",
    "play.neither": "{answer!r} ist weder Würfel noch ein Feld: {help}",
    "play.joker_form": "ein Joker ist j VON NACH, z. B. macht j 5 6 aus einer 5 eine 6",
    "play.dice_now": "Würfel: {dice}",
    "play.joker_done": "Joker: die Würfel sind jetzt {dice}",
    "play.scored": "{player}: {points} in {box}{extra}, gesamt {total}",
    "play.extra_bonus": "+{n} {kniffel}-Bonus",
    "play.upper_bonus": "+{n} Bonus oben",
    "play.open": "offen:",
    "play.joker_hint": "(j 5 6 = Joker: aus einer 5 eine 6 machen)",
    "coach.feedback": "Trainer: {cost}",
    "coach.best_was": "; am besten war {choice}",
    "coach.goal_feedback": "Trainer: {chance_name} {chance}, {cost}; in Punkten {points_cost}",
    "coach.best_for": "; am besten auf {goal} gespielt war {choice}",
    "coach.head": ("Trainer ({left}, Würfel {dice}): erwartete Endpunktzahl, Kosten gegenüber dem "
                   "Besten"),
    "coach.goal_head": "Trainer, auf {goal} gespielt ({left}, Würfel {dice}): {chance_name}, "
                       "erwartete Endpunktzahl, Kosten gegenüber dem Besten",
    "coach.more": "({n} weitere: ? eingeben)",
    "coach.points_instead": "auf Punkte gespielt: erwartet {value:.2f}",
    "summary.start": "Erwartete Endpunktzahl zu Beginn, bestes Spiel: {value:.2f}.",
    "summary.player": "{name}: {score}, {loss:.1f} Punkte verschenkt ({optimal} von {n} "
                      "Entscheidungen optimal)",
    # `kniffel advise`
    "advise.head": "{rules}: {total} Punkte auf dem Block",
    "advise.filled": "belegt: {boxes}",
    "advise.open": "offen:  {boxes}",
    "advise.upper": "oben:   {subtotal}; der Bonus (+{bonus} ab {threshold}) {state}",
    "advise.bonus_reached": "ist erreicht",
    "advise.bonus_out": "ist nicht mehr erreichbar",
    "advise.bonus_needs": "braucht noch {n}",
    "advise.extra": "{kniffel}-Boni: {n} (+{points})",
    "advise.jokers": "Joker übrig: {n}",
    "advise.start": "erwartete Endpunktzahl zu Beginn des Zugs: {value:.4f}",
    "advise.choice": "Wahl",
    "advise.expected": "erwartet",
    "advise.cost": "Kosten",
    "advise.more": "… und {n} weitere: --all zeigt alle",
    "advise.goal_head": "{rules}: {total} Punkte auf dem Block, Ziel {goal}: {chance_name} "
                        "{chance}, erwartete Endpunktzahl {expected:.3f}",
    "advise.method_exact": ("exakt: das Teilspiel ab dieser Stellung bis zur letzten Entscheidung "
                            "gelöst"),
    "advise.method_approx": ("≈ eine Schätzung in [{low}, {high}]: unten die Chance, wenn ab hier "
                             "auf Punkte gespielt wird (exakt), oben eine Schranke, die kein Spiel "
                             "übertrifft"),
    "advise.interval": "Bereich",
    "chance_unknown": "unbekannt",
    "advise.at_most": "höchstens {chance}",
    "build.under_way": "die Tabellen des Sieg-Trainers werden berechnet: {done} fertig",
    "build.under_way_eta": ("die Tabellen des Sieg-Trainers werden berechnet: {done} fertig, der "
                            "exakte Rat in etwa {eta}"),
    "build.offer": ("der exakte Rat braucht die Tabellen des Sieg-Trainers für {title}: etwa "
                    "{size} auf der Festplatte und {time} Rechenzeit auf diesem Rechner (eine "
                    "Schätzung); --build berechnet sie jetzt, einmalig"),
    "build.busy": "die Tabellen des Sieg-Trainers für {title} berechnet gerade ein anderer Prozess",
    "build.done": "die Tabellen des Sieg-Trainers für {title} sind berechnet",
    "build.stage_target": "Zieltabelle",
    "build.stage_opponents": "Verteilungen der Mitspieler",
    "fallback.compiling_win": "der Sieg-Trainer wird vorbereitet (einmalig)",
    "fallback.compiling_duel": "der Würfelduell-Trainer wird vorbereitet (einmalig)",
    # `kniffel advise --why`: worauf der Zug spielt
    "why.head_points": ("Warum: wo der Zug endet, jede Wahl danach bestens auf Punkte gespielt "
                        "(exakte Chancen; in Klammern die Punkte, die dort im Mittel "
                        "eingetragen werden):"),
    "why.head_goal": ("Warum: wo der Zug endet, jede Wahl danach bestens auf das Ziel ({goal}) "
                      "gespielt (exakte Chancen; in Klammern die Punkte, die dort im Mittel "
                      "eingetragen werden; die Chance auf den Bonus oben gilt nur beim Spiel auf "
                      "Punkte):"),
    "why.start": "dieser Zug endet in: {boxes}",
    "why.box": "{box} {chance} ({points})",
    "why.rest": "{n} weitere {chance}",
    "why.upper": "Bonus oben {chance}",
    "why.upper_change": "Bonus oben {before} -> {after}",
    "why.open": "danach offen: {boxes}",
    "why.preparing": ("die Chancen auf den Bonus oben werden vorbereitet (einmalig): sie kommen "
                      "mit der nächsten Antwort"),
    "why.over_budget": ("die Chancen auf den Bonus oben fehlen: hier etwa {seconds:.0f} s Arbeit "
                        "(eine Schätzung, auf dem Referenzrechner gezählt), mehr als das Budget "
                        "von {budget} s"),
    "why.budget_hint": "--budget {more} berechnet sie",
    "why.approximate": "kein Warum bei einer Schätzung: ihr Spiel ist nicht genau bekannt",
    "eta.seconds": "{n} s", "eta.minutes": "{n} min", "eta.hours": "{h} h {m} min",
    "advise.method_unknown": ("die Siegchance ist im Budget nicht zu berechnen: bekannt ist nur, "
                              "dass sie höchstens 100% ist (ohne Zieltabelle gibt es keine engere "
                              "Schranke, und die Chance, wenn ab hier auf Punkte gespielt wird, "
                              "braucht mehr Arbeit als das Budget); die Optionen sind nach "
                              "erwarteter Punktzahl geordnet"),
    "advise.no_target_table": ("keine Zieltabelle für diese Regeln: das obere Ende ist unbekannt, "
                               "die Optionen sind nach erwarteter Punktzahl geordnet; `kniffel "
                               "solve --objective target` berechnet sie einmal"),
    "advise.target_table_hint": ("`kniffel solve --objective target` berechnet die Zieltabelle "
                                  "einmal"),
    "fallback.points": "Rat für Punkte: {why}",
    "fallback.stopped": "die Rechnung lief über die Zeitgrenze dieses Servers und wurde angehalten",
    "fallback.no_target_table": ("keine Zieltabelle für diese Regeln, und das Teilspiel ab dieser "
                                 "Stellung ist etwa {seconds} s Arbeit (eine Schätzung), mehr als "
                                 "das Budget von {budget} s"),
    "advise.goal_target": "mindestens {target} Punkte",
    "advise.goal_win": ("ein Sieg gegen 1 Mitspieler (Gleichstand: {ties})",
                        "ein Sieg gegen {n} Mitspieler (Gleichstand: {ties})"),
    "advise.goal_same": "diese Wahl ist auch auf Punkte die beste; ab hier auf Punkte gespielt: "
                        "erwartete Endpunktzahl {plain:.3f} ({cost:.3f} mehr)",
    "advise.goal_same_free": ("diese Wahl ist auch auf Punkte die beste: erwartete Endpunktzahl "
                              "{plain:.3f}"),
    "ties.share": "geteilt",
    "ties.lose": "verloren",
    "advise.trade_risky": "auf {goal} zu spielen ist hier die riskantere Wahl: sie gibt {cost:.3f} "
                          "erwartete Punkte ab ({expected:.3f} statt {plain:.3f} auf Punkte "
                          "gespielt) für {chance_name} {chance} statt {plain_chance}",
    "advise.trade_safe": "auf {goal} zu spielen ist hier die sicherere Wahl: sie gibt {cost:.3f} "
                         "erwartete Punkte ab ({expected:.3f} statt {plain:.3f} auf Punkte "
                         "gespielt) für {chance_name} {chance} statt {plain_chance}",
    "advise.trade_free": ("auf {goal} zu spielen kostet hier keine erwarteten Punkte "
                          "({expected:.3f}) und bringt {chance_name} {chance} statt "
                          "{plain_chance}"),
    "advise.trade_start": "auf Punkte gespielt: erwartete Endpunktzahl {plain:.3f} "
                          "({cost:.3f} mehr)",
    "advise.trade_start_same": "auf Punkte gespielt: dieselbe erwartete Endpunktzahl, {plain:.3f}",
    # `kniffel analyze`
    "analyze.head": ("{rules}: 1 Entscheidung; Kosten = erwartete Endpunktzahl der besten Wahl "
                     "minus die der getroffenen",
                     "{rules}: {n} Entscheidungen; Kosten = erwartete Endpunktzahl der besten Wahl "
                     "minus die der getroffenen"),
    "analyze.goal_head": "  und die Chance auf {goal} nach der getroffenen Wahl (danach darauf "
                         "gespielt), mit den Kosten gegenüber der besten Wahl dafür",
    "analyze.row": "  Runde {round:>2}  {who}{dice}  noch {left}  {choice:<26}",
    "analyze.best": "  am besten: {choice}",
    "analyze.why_choice": "      warum, wie gespielt: {why}",
    "analyze.why_best": "                am besten: {why}",
    "analyze.chance": "{chance} {goal}, {cost}",
    "analyze.score": "{score} Punkte",
    "analyze.unfinished": " (unfertig)",
    "analyze.chance_sum": ", {chance} der Chance auf {goal} über die Entscheidungen summiert",
    "analyze.player": ("{name}: {score}; {loss:.2f} Punkte verschenkt{chance}, {n} Entscheidung "
                       "von {total} optimal",
                       "{name}: {score}; {loss:.2f} Punkte verschenkt{chance}, {n} Entscheidungen "
                       "von {total} optimal"),
    # `kniffel chances`
    "chances.head": "{rules}: {total} Punkte auf dem Block; P(Endpunktzahl >= T)",
    "chances.columns": ("beste", "auf Punkte", "Gewinn"),
    # Fehler, die ein Spieler im Trainer sieht
    "error.box_number": "die Feldnummer muss 1-{most} sein, nicht {number}",
    "error.unknown_box": ("unbekanntes Feld {name!r}; die Felder: {allowed} (oder ihre Nummern "
                          "1-{most})"),
    "error.not_a_face": "{part!r} ist keine Augenzahl 1-6",
    "error.no_roll_now": "jetzt ist nichts zu würfeln",
    "error.hold_kept": "der Wurf muss die gehaltenen Würfel {dice} enthalten",
    "error.roll_count": ("1 Würfel werfen{or_all}, nicht {got}",
                         "{n} Würfel werfen{or_all}, nicht {got}"),
    "error.or_all": " (oder alle fünf)",
    "error.no_rolls_left": "kein Wurf mehr: bitte ein Feld wählen",
    "error.cannot_keep": "{keep} kann nicht gehalten werden: die Würfel sind {dice}",
    "error.drill_box": "bitte ein Feld (Name oder Nummer), oder q zum Beenden",
    "error.keep_five": "alle fünf halten beendet das Würfeln: bitte ein Feld wählen",
    "error.no_jokers": "{rules} hat keine Joker",
    "error.joker_last_roll": "ein Joker geht erst nach dem letzten Wurf",
    "error.no_joker_left": "kein Joker mehr übrig",
    "error.jokers_a_turn": ("höchstens 1 Joker pro Zug", "höchstens {n} Joker pro Zug"),
    "error.no_die_shows": "kein Würfel zeigt {face}: die Würfel sind {dice}",
    "error.joker_face": ("ein Joker macht aus einem Würfel eine andere Augenzahl 1-6, nicht "
                         "{old} -> {new}"),
    "error.filled": "{box} ist schon belegt ({points})",
    "error.not_allowed": "die Regeln erlauben {dice} jetzt nicht in {box}; möglich: {allowed}",
    "error.turn_over": "der Zug ist vorbei",
    "error.roll_first": "erst würfeln",
    "error.game_over": "das Spiel ist vorbei",
    "error.rolled": "schon gewürfelt: Würfel halten oder ein Feld wählen",
    "error.real_dice": "dieses Spiel nutzt echte Würfel: bitte die geworfenen Würfel eingeben",
    "error.seeded_dice": "dieses Spiel würfelt selbst: \"roll\": true senden",
}
