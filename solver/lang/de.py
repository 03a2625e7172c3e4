"""Deutsche Wörter (solver/lang/__init__.py sagt, wie sie benutzt werden)."""

WORDS = {
    "box": {"ones": "Einser", "twos": "Zweier", "threes": "Dreier", "fours": "Vierer",
            "fives": "Fünfer", "sixes": "Sechser", "three_kind": "Dreierpasch",
            "four_kind": "Viererpasch", "full_house": "Full House", "small_straight": "Kleine Straße",
            "large_straight": "Große Straße", "kniffel": "Kniffel", "chance": "Chance",
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
    "coach.goal_head": "Trainer, auf {goal} gespielt ({left}, Würfel {dice}): {chance_name}, erwartete "
                       "Endpunktzahl, Kosten gegenüber dem Besten",
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
    "advise.method_exact": "exakt: das Teilspiel ab dieser Stellung bis zur letzten Entscheidung gelöst",
    "advise.method_approx": ("≈ eine Schätzung in [{low}, {high}]: unten die Chance, wenn ab hier "
                             "auf Punkte gespielt wird (exakt), oben eine Schranke, die kein Spiel "
                             "übertrifft"),
    "advise.interval": "Bereich",
    "chance_unknown": "unbekannt",
    "advise.building": ("die Tabellen des Sieg-Trainers werden im Hintergrund berechnet: {done} fertig, "
                        "der exakte Rat zum Sieg in etwa {eta}"),
    "advise.building_started": ("die Tabellen des Sieg-Trainers werden im Hintergrund berechnet "
                                "(einmalig, einige Minuten); der exakte Rat zum Sieg kommt mit ihnen"),
    "eta.seconds": "{n} s", "eta.minutes": "{n} min",
    "advise.method_unknown": ("die Siegchance ist im Zeitbudget nicht bekannt: ohne Zieltabelle kein "
                              "oberes Ende, das untere (ab hier auf Punkte gespielt) braucht mehr "
                              "Zeit als das Budget; Optionen nach erwarteter Punktzahl geordnet"),
    "advise.no_target_table": ("keine Zieltabelle für diese Regeln: das obere Ende ist unbekannt, "
                               "die Optionen sind nach erwarteter Punktzahl geordnet; `kniffel "
                               "solve --objective target` berechnet sie einmal"),
    "advise.points_instead": ("Rat für Punkte: die Siegchance braucht hier die Verteilungen der "
                              "Endpunkte der anderen, ohne ihren Speicher etwa {seconds:.0f} s "
                              "(geschätzt), mehr als das Zeitbudget von {budget:g} s; `kniffel "
                              "solve --objective target` legt den Speicher einmal an, oder "
                              "--budget erhöhen"),
    "advise.goal_target": "mindestens {target} Punkte",
    "advise.goal_win": ("ein Sieg gegen 1 Mitspieler (Gleichstand: {ties})",
                        "ein Sieg gegen {n} Mitspieler (Gleichstand: {ties})"),
    "advise.goal_same": "diese Wahl ist auch auf Punkte die beste; ab hier auf Punkte gespielt: "
                        "erwartete Endpunktzahl {plain:.3f} ({cost:.3f} mehr)",
    "ties.share": "geteilt",
    "ties.lose": "verloren",
    "advise.trade_risky": "auf {goal} zu spielen ist hier die riskantere Wahl: sie gibt {cost:.3f} "
                          "erwartete Punkte ab ({expected:.3f} statt {plain:.3f} auf Punkte gespielt) "
                          "für {chance_name} {chance} statt {plain_chance}",
    "advise.trade_safe": "auf {goal} zu spielen ist hier die sicherere Wahl: sie gibt {cost:.3f} "
                         "erwartete Punkte ab ({expected:.3f} statt {plain:.3f} auf Punkte gespielt) "
                         "für {chance_name} {chance} statt {plain_chance}",
    "advise.trade_start": "auf Punkte gespielt: erwartete Endpunktzahl {plain:.3f} "
                          "({cost:.3f} mehr)",
    # `kniffel analyze`
    "analyze.head": ("{rules}: 1 Entscheidung; Kosten = erwartete Endpunktzahl der besten Wahl "
                     "minus die der getroffenen",
                     "{rules}: {n} Entscheidungen; Kosten = erwartete Endpunktzahl der besten Wahl "
                     "minus die der getroffenen"),
    "analyze.goal_head": "  und die Chance auf {goal} nach der getroffenen Wahl (danach darauf "
                         "gespielt), mit den Kosten gegenüber der besten Wahl dafür",
    "analyze.row": "  Runde {round:>2}  {who}{dice}  noch {left}  {choice:<26}",
    "analyze.best": "  am besten: {choice}",
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
    "error.roll_count": ("1 Würfel werfen{or_all}, nicht {got}", "{n} Würfel werfen{or_all}, nicht {got}"),
    "error.or_all": " (oder alle fünf)",
    "error.no_rolls_left": "kein Wurf mehr: bitte ein Feld wählen",
    "error.cannot_keep": "{keep} kann nicht gehalten werden: die Würfel sind {dice}",
    "error.keep_five": "alle fünf halten beendet das Würfeln: bitte ein Feld wählen",
    "error.no_jokers": "{rules} hat keine Joker",
    "error.joker_last_roll": "ein Joker geht erst nach dem letzten Wurf",
    "error.no_joker_left": "kein Joker mehr übrig",
    "error.jokers_a_turn": ("höchstens 1 Joker pro Zug", "höchstens {n} Joker pro Zug"),
    "error.no_die_shows": "kein Würfel zeigt {face}: die Würfel sind {dice}",
    "error.joker_face": ("ein Joker macht aus einem Würfel eine andere Augenzahl 1-6, nicht {old} ->"
                         " {new}"),
    "error.filled": "{box} ist schon belegt ({points})",
    "error.not_allowed": "die Regeln erlauben {dice} jetzt nicht in {box}; möglich: {allowed}",
    "error.turn_over": "der Zug ist vorbei",
    "error.roll_first": "erst würfeln",
    "error.game_over": "das Spiel ist vorbei",
    "error.rolled": "schon gewürfelt: Würfel halten oder ein Feld wählen",
    "error.real_dice": "dieses Spiel nutzt echte Würfel: bitte die geworfenen Würfel eingeben",
    "error.seeded_dice": "dieses Spiel würfelt selbst: \"roll\": true senden",
    # die Webseite (solver/web/static/app.js setzt {name} und {name:.2f} ein)
    # was der Server der Seite sagt (Budgets, Fehler)
    "budget.win": ("der Rat auf Sieg bräuchte hier etwa {seconds:.0f} s{shared} (eine Schätzung), mehr "
                   "als das Budget von {budget} s; frag wieder, wenn weniger Felder offen sind oder "
                   "die anderen fertig sind, oder spiel auf Punkte"),
    "budget.shared": (" bei 1 gleichzeitigen Anfrage", " bei {n} gleichzeitigen Anfragen"),
    "budget.distributions": ("die Siegchance braucht hier die Verteilungen der Endpunkte der anderen: "
                             "ohne ihren Speicher etwa {seconds:.0f} s (eine Schätzung), mehr als das "
                             "Budget von {budget} s; `kniffel solve --objective target` legt ihn "
                             "einmal an, oder erhöhe --budget"),
    "web.points_instead": "Rat für Punkte: {why}",
    "web.points_while_building": "Vorerst Rat für Punkte: {building}.",
    "web.duel_link": "Würfelduell",
    "web.duel_link_title": "Kniffel Dice Duel für 2-4 Spieler",
    "error.write_rolled": "ein Zug wird nur zu Beginn eingetragen, bevor Würfel eingegeben sind",
    "error.write_jokers": "mit Jokern wird ein Zug mit seinen Würfeln eingegeben",
    "error.write_seeded": "dieses Spiel würfelt virtuell: ein Zug wird mit seinen Würfeln gespielt",
    "error.write_points": "{points} Punkte passen nicht in {box}; möglich: {possible}",
    "error.dice_count": "Würfel in der Hand: es braucht genau {n}, nicht {got}",
    "web.server_busy": "Der Server rechnet gerade an anderem: bitte gleich noch einmal versuchen.",
    "web.over_budget": ("Die Rechnung brauchte länger als das Budget dieses Servers von {budget} s "
                        "und wurde abgebrochen."),
    "web.write_help": "Oder ohne Würfel: das Feld von {name} im Block antippen und nur die Punkte eintragen.",
    "web.write_box": "{box} für {name}: Punkte",
    "web.write_ok": "Eintragen",
    "web.write_bonus": "mit {kniffel}-Bonus",
    "web.write_wrong": "{points} passt nicht in {box}",
    "web.analysis_unseen": "{name}: {score}{wins} — nur eingetragen, keine Würfel gesehen: nicht bewertet",
    "web.analysis_some_unseen": (" ({n} Zug nur eingetragen, nicht bewertet)", " ({n} Züge nur eingetragen, nicht bewertet)"),
    "analyze.unseen": ("{name}: {score}; {n} Zug ohne Würfel eingetragen, nicht bewertet",
                       "{name}: {score}; {n} Züge ohne Würfel eingetragen, nicht bewertet"),
    "web.title": "Kniffel-Trainer",
    "web.language": "Sprache",
    "web.goal": "Ziel",
    "web.goal_points": "max. Punkte",
    "web.goal_win": "gewinnen",
    "web.goal_win_one": "gewinnen (ab 2 Spielern)",
    "web.goal_one_player": ("Ein Spieler: der Trainer spielt auf Punkte (\"gewinnen\" braucht "
                            "Mitspieler)."),
    "web.new": "Neu",
    "web.new_ask": ("Dieses Spiel verlassen und ein neues einrichten? Es bleibt gespeichert, bis du "
                    "auf Start drückst."),
    "web.new_yes": "Ja, neues Spiel",
    "web.cancel": "Abbrechen",
    "web.back": "Zurück zum Spiel",
    "web.setup": "Neues Spiel",
    "web.rules": "Regeln",
    "web.house_rules": "Hausregeln",
    "web.players": "Spieler (1–8)",
    "web.add_player": "+ Spieler",
    "web.player_name": "Name des Spielers",
    "web.player_n": "Spieler {n}",
    "web.dice": "Würfel",
    "web.virtual": "virtuell, Startwert",
    "web.random": "zufällig",
    "web.real": "echte Würfel (Geworfenes eingeben oder antippen)",
    "web.start": "Start",
    "web.load_game": "Spiel laden",
    "web.roll": "Würfeln",
    "web.roll_again": "Nochmal würfeln",
    "web.throw_again": "Halten und nochmal werfen",
    "web.enter_dice": "Würfel eingeben",
    "web.undo": "Zurück",
    "web.correct": "Wurf korrigieren / zurück",
    "web.nothing_to_undo": "Nichts zurückzunehmen: das ist der erste Wurf des Spiels.",
    "web.entry_help": ("Würfel werfen, dann unten seine Augenzahl antippen (oder 1-6 tippen); ⌫ nimmt sie zurück.",
                       "Die {n} Würfel werfen, dann unten ihre Augenzahlen nacheinander antippen "
                       "(oder 1-6 tippen); ⌫ nimmt die letzte zurück."),
    "web.working": "Einen Moment, wird berechnet …",
    "web.busy": "Der letzte Schritt läuft noch: bitte gleich noch einmal tippen.",
    "web.save": "Spiel speichern",
    "web.load": "Spiel laden",
    "web.for_programs": "Für Programme: diese Stellung als Zeile für kniffel advise --batch",
    "web.round": "Runde {round} · {name} · Wurf {roll}/{rolls}",
    "web.jokers": (" · 1 Joker", " · {n} Joker"),
    "web.game_over": "Spiel vorbei",
    "web.winner": ("Spiel vorbei: {names} gewinnt mit {score}", "Spiel vorbei: {names} gewinnen mit {score}"),
    "web.final": "Spiel vorbei: {score} Punkte",
    "web.all_held": "Alle fünf gehalten: bitte ein Feld wählen.",
    "web.keep": "halte {dice}",
    "web.reroll_all": "alle neu",
    "web.bonus": " +{n} Bonus",
    "web.joker": "Joker {changes}",
    "web.kniffel_joker": "{kniffel}-Joker",
    "web.head_choices": ("Möglichkeiten, die beste zuerst: erwartete Endpunktzahl, Kosten gegenüber "
                         "der besten"),
    "web.head_choices_win": "Möglichkeiten, die beste zuerst: Siegchance, erwartete Endpunktzahl, "
                            "Kosten gegenüber der besten",
    "web.head_win": "Siegchance von hier: {chance}, erwartete Endpunktzahl {expected:.2f}",
    "web.head_points": "Erwartete Endpunktzahl von hier: {expected:.2f}",
    "web.win_value": "{chance} Sieg · {expected:.2f}",
    "web.cost_win": "kostet {chance} Sieg",
    "web.all_choices": "alle {n} Möglichkeiten ▾",
    "web.needs": "fehlen {n}",
    "web.needs_short": "−{n}",  # a crowded card: the points the bonus still needs
    "web.analysing": "wird ausgewertet…",
    "web.analysis": "Auswertung",
    "web.analysis_start": "Erwartete Endpunktzahl zu Beginn, bestes Spiel: {expected:.2f}",
    "web.analysis_player": "{name}: {score}{wins} — {loss:.1f} Punkte verschenkt; {optimal} von {n} "
                           "Entscheidungen optimal",
    "web.analysis_wins": " (gewinnt)",
    "web.analysis_win_chance": "; {chance} Siegchance verschenkt",
    "web.analysis_row": ("Runde {round} {name}: {dice} → {choice}: kostet {loss:.2f} (am besten "
                         "{best})"),
    "web.analysis_row_win": "Runde {round} {name}: {dice} → {choice}: Siegchance {chance}, "
                            "{cost} (am besten zum Gewinnen: {best}); in Punkten {points}",
    "web.analysis_win_note": "Entscheidungen mit dem Ziel \"gewinnen\" zählen in Siegchance.",
    # Hausregeln (Optionen der Regeln und ihre Werte)
    "option.upper_bonus_threshold": "Bonus oben ab (Punkte)",
    "option.upper_bonus": "Bonus oben (Punkte)",
    "option.rolls_per_turn": "Würfe pro Zug",
    "option.jokers": "Joker pro Spiel (einen Würfel setzen)",
    "option.jokers_per_turn": "höchstens Joker pro Zug",
    "option.five_of_a_kind_is_full_house": "fünf gleiche zählen als Full House",
    "option.extra_bonus": "Bonus je weiterem {kniffel} (Punkte)",
    "option.extra_bonus_requires": "weiterer Bonus nur, wenn im {kniffel}-Feld steht",
    "option.extra_bonus_cap": "höchstens weitere Boni",
    "option.joker": "{kniffel}-Joker (fünf gleiche in ein anderes Feld)",
    "option.joker_requires": "Joker nur, wenn im {kniffel}-Feld steht",
    "option.extra_kniffel_must_fit": "weiterer {kniffel} muss ins passende obere Feld, wenn offen",
    "value.none": "keiner",
    "value.max-any": "jedes offene Feld, mit dessen Höchstpunkten",
    "value.must-match": "kein Joker; Bonus nur, wo er Punkte bringt",
    "value.free": "jedes offene Feld (unten mit Joker-Punkten)",
    "value.forced": "erst das passende obere Feld, sonst ein unteres (Pflicht)",
    "value.free-after-upper": "jedes Feld, sobald das passende obere belegt ist",
    "value.fifty": "50",
    "value.filled": "50 oder 0",
    # die Druckseiten (report/pages.py)
    "page.rules": "Faustregeln",
    "page.opening": "Der erste Wurf des Spiels",
    "page.costs": "Was jedes Feld kostet",
    "page.keep": "Würfel halten (die erste passende Regel gilt)",
    "page.boxes": "Nach dem letzten Wurf (die erste passende Regel gilt)",
    "page.else_keep": "sonst: alle fünf neu würfeln",
    "page.else_box": "sonst: das erste offene Feld",
    "page.strategy": "Strategie",
    "page.score": "Erwartete Punkte",
    "page.how": "berechnet",
    "page.exact": "exakt",
    "page.simulated": "simuliert",
    "page.exceptions": "Ausnahmen (das beste Halten passt zu keinem Muster)",
    "page.rolls": ("1 Wurf", "{n} Würfe"),
    "page.when": "wenn {boxes} offen",
    "page.or": " oder ",
    "page.into": "ab {points} Punkten: {box}",
    "page.scores": "{box}, wenn es zählt",
    "page.upper": "ab {n} gleichen: ins passende obere Feld",
    "page.any": "{box}, was es auch bringt",
    "page.most": "das Feld mit den meisten Punkten",
    "page.most_min": "das Feld mit den meisten Punkten, ab {points}",
    "page.card": "Belegt",
    "page.nothing": "nichts",
    "page.expected": "Erwartete Endpunktzahl",
    "page.roll": "letzter Wurf",
    "page.cost_note": ("Verlust an erwarteten Endpunkten je Feld gegenüber dem besten Feld für "
                       "diesen Wurf; 0 = bestes Feld (grau). –: dort nicht erlaubt."),
    "page.upper_note": ("Obere Felder: Punkte − Kosten für 0-5 Würfel der Augenzahl (eintragen, wo "
                        "Punkte − Kosten am größten ist, gegen die Kosten der unteren Felder unten)."),
    "page.curve": "Erwartete Punkte nach Zahl der Regeln",
    "price.optimal": "optimal (gelöste Tabelle)",
    "price.thumb": "diese {n} Faustregeln",
    "price.heuristic": "Heuristik eines vernünftigen Spielers ({n} Regeln)",
    "price.greedy": "gierig: häufigste Augenzahl, meiste Punkte",
    "pattern.kind": "die häufigste Augenzahl halten (ab {arg} gleichen)",
    "pattern.kind_high": "Paar oder mehr aus Vieren, Fünfen oder Sechsen halten",
    "pattern.face": "die {faces} halten",
    "pattern.run4": "{arg} zur kleinen Straße halten",
    "pattern.run5": "{arg} zur großen Straße halten",
    "pattern.two_pairs": "zwei Paare halten",
    "pattern.full_house": "Full House halten",
    "pattern.high": "alle Würfel ab {arg} halten",
    "pattern.nothing": "alle fünf neu würfeln",
    "faces.1": "Einsen",
    "faces.2": "Zweien",
    "faces.3": "Dreien",
    "faces.4": "Vieren",
    "faces.5": "Fünfen",
    "faces.6": "Sechsen",
    "opening.stop.0": "alle fünf behalten",
    "opening.run5.4": "vier zur großen Straße halten",
    "opening.run4.4": "vier zur kleinen Straße halten",
    "opening.run4.3": "drei zur Straße halten",
    "opening.kind.4": "die vier gleichen halten",
    "opening.kind.3": "die drei gleichen halten",
    "opening.two_pairs.0": "beide Paare halten",
    "opening.kind.2": "das (höhere) Paar halten",
    "opening.face.6": "die Sechsen halten",
    "opening.face.5": "die Fünfen halten",
    "opening.face.4": "die Vieren halten",
    "opening.face.3": "die Dreien halten",
    "opening.face.2": "die Zweien halten",
    "opening.face.1": "die Einsen halten",
    "opening.high.5": "Fünfen und Sechsen halten",
    "opening.nothing.0": "alle fünf neu würfeln",
    "situation.start": "Spielbeginn",
    "situation.small_par": "Drei kleine obere Felder mit je drei Würfeln",
    "situation.behind": "Oben im Rückstand",
    "situation.ahead": "Oben im Vorsprung, Kniffel eingetragen",
    "situation.upper_done": "Oben fertig mit je drei Würfeln (Bonus erreicht), unten offen",
    "situation.lower_done": "Unten fertig, Kniffel gestrichen, oben offen",
    "situation.late": "Spätes Spiel: der Bonus braucht drei Zweien",
    "situation.lower_done_yatzy": "Unten fertig, Kniffel gestrichen, oben offen",
    "page.five_alike": "fünf gleiche: alle halten",
    "page.large_straight_keep": "große Straße: alle halten",
    # die Regelsätze, beschrieben
    "preset.kniffel": ("Kniffel nach den aktuellen Schmidt-Regeln: +50 je weiterem Kniffel und ein "
                       "Joker mit den Höchstpunkten jedes Feldes"),
    "preset.kniffel-basic": "Kniffel, Grundregeln: kein Bonus für weitere Kniffel, kein Joker",
    "preset.kniffel-championship": ("Kniffel-Meisterschaft: kein Joker; +50 je weiterem Kniffel, der"
                                    " in ein passendes Feld kommt"),
    "preset.kitkniff": "KitKniff: freier Joker, +100 je weiterem Kniffel bis 900 Punkte",
    "preset.yahtzee": ("Yahtzee nach den offiziellen Hasbro-Regeln: Pflicht-Joker, +100 je weiterem "
                       "Yahtzee"),
    "preset.yahtzee-free": ("Yahtzee wie im klassischen veröffentlichten Optimum: Joker, sobald das "
                            "passende obere Feld belegt ist"),
    "preset.knobeln": ("Knobeln Live: einfache Kniffel-Tabelle plus 3 Joker pro Spiel (nach dem "
                       "letzten Wurf einen Würfel setzen)"),
    "preset.yatzy": "Skandinavisches Yatzy: 15 Felder, ein und zwei Paare, Bonus 50 ab 63",
    "page.lower_note": ("Untere Felder: die Kosten des Eintragens (mit diesen Punkten, wo es von "
                        "ihnen abhängt)."),
    "page.rule": "Regel",
    "page.price": "Verlust ohne",
    "page.price_chart": "Der Preis jeder Regel",
    "page.keep_rules": "Würfel halten, Regel Nr.",
    "page.box_rules": "Nach dem letzten Wurf, Regel Nr.",
    "page.axis_price": "erwartete Punkte, die ohne die Regel fehlen",
    "page.curve_note": ("Jeder Punkt exakt: die beste Liste mit höchstens so vielen Regeln, die "
                        "die Suche bewertet hat (gedruckt: die Liste, in der jede Regel zahlt)."),
    "page.no_rule_prices": ("Der Preis jeder einzelnen Regel ist nur für die mitgelieferten Regelsätze "
                            "berechnet; mit diesen Regeln hat nur die ganze Liste einen Preis."),
    "page.price_note": ("Preis (exakt, durch Bewertung der Strategie): die erwarteten Punkte, die "
                        "die ganze Liste verliert, wenn nur diese eine Regel wegfällt (die anderen "
                        "bleiben in ihrer Reihenfolge). Die Preise ergeben zusammen nicht den Wert "
                        "der Liste: Regeln können füreinander einspringen."),
    "page.pattern": "halten",
    "page.share": "Anteil",
    "page.count": "Würfe",
    "page.rolls_of": "die Würfe",
    "page.axis_x": "Zahl der Regeln",
    "page.axis_y": "erwartete Punkte",
    "page.optimum": "optimales Spiel",
    "page.box": "Feld",
    "page.dice": "Würfel der Augenzahl:",
    "page.cost": "Kosten",
    "page.cost_with": "{cost} mit {points}",
    "page.five_note": ("*: fünf gleiche bei belegtem {kniffel}-Feld folgen den Regeln für einen "
                       "weiteren {kniffel} (Joker, Bonus); dann am besten: {best}."),
    "page.opening_left": "Der erste Wurf des Spiels: {left}",
    "page.opening_note": ("Die 252 ersten Würfe auf dem leeren Block, nach dem Muster des besten "
                          "Haltens gruppiert (exakt, aus der gelösten Tabelle); die häufigsten "
                          "zuerst."),
    "page.prices": "Was die Regeln wert sind",
    # die Markdown-Tabellen (report/tables.py)
    "md.opening_title": '# Der erste Zug: {preset}',
    "md.opening_score": ("{description}. Erwartete Endpunktzahl eines Spiels bei bestem Spiel: "
                         "**{score:.4f}**."),
    "md.opening_text": ("Für jeden Wurf auf dem leeren Block: die beste Wahl, wenn der Wurf mit noch"
                        " {lefts} Würfen kam (der erste Wurf des Spiels hat noch {first}). *E* ist "
                        "die erwartete Endpunktzahl des Spiels (Punkte auf dem Block am Ende, Boni "
                        "eingeschlossen) nach dieser Wahl, wenn jede spätere Entscheidung optimal "
                        "ist: `expected_final_score` von `kniffel advise` auf dem leeren Block. "
                        "*Abstand* ist, was die zweitbeste Wahl kosten würde. `halte` nennt die "
                        "Würfel, die man vor dem Neuwürfeln der anderen hält; ein Feldname trägt "
                        "jetzt in dieses Feld ein. *P* ist die Chance des Wurfs."),
    "md.or": ' oder ',
    "md.roll": 'Wurf',
    "md.left_best": 'noch {left}: am besten',
    "md.margin": 'Abstand',
    "md.keep": 'halte {dice}',
    "md.score": '{box} {points}',
    "md.joker": 'Joker {changes}, {text}',
    "md.cheat_title": '# Spickzettel für die Feldwahl: {preset}',
    "md.cheat_text": ("Nach dem letzten Wurf eines Zugs: für jedes offene Feld die Punkte nehmen, "
                      "die die Würfel dort bringen, minus die **Kosten** des Feldes, und das Feld "
                      "nehmen, wo das am größten ist. Die Kosten sind die erwarteten Endpunkte, die "
                      "man durch das Eintragen in dieses Feld abgibt (Bonus oben und der Rest des "
                      "Spiels bei bestem Spiel eingeschlossen), gezählt vom billigsten Eintrag aus, "
                      "der also 0 kostet. Für die oberen Felder, deren Kosten von den Punkten "
                      "abhängen, zeigt die Tabelle gleich *Punkte - Kosten* für 0-5 Würfel der "
                      "Augenzahl. Ein Feld, das für die Würfel nichts bringt, kostet seine Kosten "
                      "bei 0 Punkten (Streichen). Exakt für jeden Wurf auf diesen Blöcken (fünf "
                      "gleiche, sobald das {kniffel}-Feld belegt ist: siehe die Zeile unter dem "
                      "Block)."),
    "md.cheat_jokers": ' Knobeln-Joker sind nicht gezeigt.',
    "md.sheet_head": ("Zug {turn}. Belegt: {filled}. Summe oben {upper} (Bonus {bonus} ab "
                      "{threshold}). Erwartete Endpunktzahl {expected:.2f}."),
    "md.upper_head": 'oberes Feld: Punkte - Kosten',
    "md.five_dice": '5 Würfel',
    "md.lower_head": 'unteres Feld',
    "md.cost_with": '{cost:.2f} mit {points}',
    "md.five": 'Fünf gleiche: {list}',
    "md.turn_title": '# Welches Feld in welchem Zug: {preset}',
    "md.turn_text": ("{description}. Die Wahrscheinlichkeit, dass der optimale Spieler jedes Feld in"
                     " jedem Zug eines Spiels belegt, exakt über jeden möglichen Fall der Würfel "
                     "berechnet (nicht simuliert). Jede Zeile und jede Spalte ergibt 100%."),
    "md.turn": 'Zug',
    "md.likely": 'wahrscheinlichste Felder',
    "md.all_boxes": 'Alle Felder, Prozent:',
    "md.pattern_title": '# Der erste Wurf nach Muster: {preset}',
    "md.pattern_text": ("Die 252 ersten Würfe auf dem leeren Block, nach dem Muster gruppiert, das "
                        "das beste Halten benennt, die häufigsten zuerst; die Würfe, deren bestes "
                        "Halten kein Muster benennt, sind die Ausnahmen."),
    "md.pattern_keep": 'halten',
    "md.rolls": 'Würfe',
    "md.exceptions": 'Ausnahmen: {list}.',
    "md.exception": '{roll} halte {keep}',
    "md.none": 'keine',
}
