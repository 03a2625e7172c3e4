"""Deutsche Wörter der Webseite (solver/lang/__init__.py sagt, wie sie benutzt werden)."""

WORDS = {
    # die Webseite (solver/web/static/app.js setzt {name} und {name:.2f} ein)
    # was der Server der Seite sagt (Budgets, Fehler)
    "budget.win": ("der Rat auf Sieg ist hier etwa {seconds:.0f} s Arbeit (eine Schätzung, "
                   "gezählt auf der Referenzmaschine), mehr als das Budget von {budget} s; frag "
                   "wieder, wenn weniger Felder offen sind oder die anderen fertig sind, oder "
                   "spiel auf Punkte"),
    "budget.distributions": ("die Siegchance braucht hier die Verteilungen der Endpunkte der "
                             "anderen: ohne die Tabellen des Sieg-Trainers etwa {seconds:.0f} s "
                             "Arbeit (eine Schätzung, gezählt auf der Referenzmaschine), mehr "
                             "als das Budget von {budget} s"),
    "web.build_offer": ("Der exakte Rat auf Sieg braucht die Tabellen des Sieg-Trainers für "
                        "{title}: etwa {size} auf der Festplatte und {time} Rechenzeit auf diesem "
                        "Rechner (eine Schätzung). Bis dahin sind die Siegchancen Spannen (≈)."),
    "web.build_button": "Tabellen berechnen",
    "job.table": "Die Tabelle für {title} wird berechnet",
    "job.warm_why": "Die Chancen auf den Bonus oben werden vorbereitet (einmalig)",
    "web.history": "Verlauf",
    "web.history_none": ("Noch keine Spiele aufbewahrt: ein beendetes Spiel kommt mit seiner "
                         "Analyse hierher."),
    "web.history_chart": "verschenkte Punkte pro Spiel, das älteste zuerst",
    "web.why": "Warum?",
    "web.why_title": "Wo der Zug mit dieser Wahl endet, danach bestens gespielt",
    # das Warum einer teuren Entscheidung in der Auswertung: die Wahl und die beste für Punkte
    "web.why_analysis": "Wo der Zug endet, jede Wahl danach bestens auf Punkte gespielt:",
    "web.why_choice": "Wie gespielt: {choice}",
    "web.why_best": "Am besten für Punkte: {choice}",
    "job.warm_win": "Der Sieg-Trainer wird vorbereitet (einmalig)",
    "job.warm_duel": "Der Würfelduell-Trainer wird vorbereitet (einmalig)",
    "job.win": "Die Tabellen des Sieg-Trainers für {title} werden berechnet",
    "job.done": "{what}: {percent} fertig",
    "job.done_eta": "{what}: {percent} fertig, noch etwa {eta}",
    "job.waiting": "{what}: beginnt",
    "job.failed": "{what} ist fehlgeschlagen: {error}",
    "job.finished": "{what}: fertig.",
    "web.points_while_building": "Vorerst Rat für Punkte: {building}.",
    "web.duel_link": "Würfelduell",
    "web.duel_link_title": "Kniffel Dice Duel für 2-4 Spieler",
    "error.write_rolled": "ein Zug wird nur zu Beginn eingetragen, bevor Würfel eingegeben sind",
    "error.write_jokers": "mit Jokern wird ein Zug mit seinen Würfeln eingegeben",
    "error.write_seeded": "dieses Spiel würfelt virtuell: ein Zug wird mit seinen Würfeln gespielt",
    "error.write_points": "{points} Punkte passen nicht in {box}; möglich: {possible}",
    "error.dice_count": "Würfel in der Hand: es braucht genau {n}, nicht {got}",
    "web.server_busy": "Der Server rechnet gerade an anderem: bitte gleich noch einmal versuchen.",
    "web.over_limit": ("Die Rechnung brauchte länger als die Zeitgrenze dieses Servers von "
                       "{seconds} s und wurde angehalten."),
    # die Seite eines Links ohne den richtigen Zugangsschlüssel (`kniffel serve --host ...`)
    "web.token_title": "Kniffel-Trainer: kein Zugang",
    "web.token_wrong": "Diesem Link fehlt sein Zugangsschlüssel, oder der Schlüssel ist falsch.",
    "web.token_open": ("Öffne die Adresse, die „kniffel serve“ auf dem Rechner ausgegeben hat "
                       "(mit „?token=…“ am Ende), oder scanne ihren QR-Code."),
    "web.token_new": ("Wurde der Server mit --new-token neu gestartet, gilt nur noch seine neue "
                      "Adresse."),
    "web.write_help": ("Oder ohne Würfel: das Feld von {name} im Block antippen und nur die "
                       "Punkte eintragen."),
    "web.write_box": "{box} für {name}: Punkte",
    "web.write_ok": "Eintragen",
    "web.write_bonus": "mit {kniffel}-Bonus",
    "web.write_wrong": "{points} passt nicht in {box}",
    "web.analysis_unseen": ("{name}: {score}{wins} — nur eingetragen, keine Würfel gesehen: "
                            "nicht bewertet"),
    "web.analysis_some_unseen": (" ({n} Zug nur eingetragen, nicht bewertet)",
                                 " ({n} Züge nur eingetragen, nicht bewertet)"),
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
    "web.new_ask": ("Dieses Spiel verlassen und ein neues einrichten? Es bleibt gespeichert, bis "
                    "du auf Start drückst."),
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
    "web.entry_help": ("Würfel werfen, dann unten seine Augenzahl antippen (oder 1-6 tippen); "
                       "⌫ nimmt sie zurück.",
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
    "web.winner": ("Spiel vorbei: {names} gewinnt mit {score}",
                   "Spiel vorbei: {names} gewinnen mit {score}"),
    "web.final": "Spiel vorbei: {score} Punkte",
    "web.all_held": "Alle fünf gehalten: bitte ein Feld wählen.",
    "web.keep": "halte {dice}",
    "web.reroll_all": "alle neu",
    "web.bonus": " +{n} Bonus",
    "web.joker": "Joker {changes}",
    "web.kniffel_joker": "{kniffel}-Joker",
    "web.head_choices": ("Möglichkeiten, die beste zuerst: erwartete Endpunktzahl, Kosten "
                         "gegenüber der besten"),
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
    "web.analysis_player": "{name}: {score}{wins} — {loss:.1f} Punkte verschenkt; {optimal} von "
                           "{n} Entscheidungen optimal",
    "web.analysis_wins": " (gewinnt)",
    "web.analysis_win_chance": "; {chance} Siegchance verschenkt",
    "web.analysis_row": ("Runde {round} {name}: {dice} → {choice}: kostet {loss:.2f} (am besten "
                         "{best})"),
    "web.analysis_row_win": "Runde {round} {name}: {dice} → {choice}: Siegchance {chance}, "
                            "{cost} (am besten zum Gewinnen: {best}); in Punkten {points}",
    "analyze.goal_from": ("Die Siegchance wird ab Runde {round} gezählt: die Runden davor "
                          "bräuchten etwa {work:.0f} s mehr Arbeit (eine Schätzung, gezählt auf "
                          "der Referenzmaschine) als das Budget der Analyse von {budget} s."),
    "analyze.goal_none": ("Keine Siegchance wird gezählt: schon die letzte Runde bräuchte etwa "
                          "{work:.0f} s Arbeit (eine Schätzung, gezählt auf der Referenzmaschine), "
                          "mehr als das Budget der Analyse von {budget} s."),
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
    # what the page says of itself (app.js): the set-up's checks, a file, the chance to win
    "web.no_names": "Bitte mindestens einen Spielernamen eintragen.",
    "web.same_names": "Zwei Spieler haben denselben Namen: bitte die Namen unterscheiden.",
    "web.bad_house_rule": ("Die Hausregel „{option}“ geht so nicht: bitte einen anderen Wert "
                           "wählen."),
    "web.bad_house_rule_range": ("Die Hausregel „{option}“ geht so nicht: erlaubt sind ganze "
                                 "Zahlen von {low} bis {high}."),
    "web.house_rule_unused": ("Die Hausregel „{option}“ wirkt mit den übrigen Hausregeln nicht: "
                              "bitte auf den Wert der Regeln zurückstellen."),
    "web.bad_house_rules": "Diese Hausregeln passen so nicht zusammen: bitte eine davon ändern.",
    "web.bad_file": ("Diese Datei ist kein Spielprotokoll eines Spiels mit Block (oder sie ist "
                     "beschädigt)."),
    "web.chance_exact": "{chance} (exakt)",
    "web.chance_about": "≈ {chance} (zwischen {low} und {high})",
    "web.chance_at_least": "mindestens {low}",
    "web.chance_at_most": "höchstens {high}",
    "web.win_row": "Siegchance {chance} · {expected:.2f}",
    "web.win_legend": ("≈ heißt geschätzt: die genaue Siegchance wäre hier zu aufwendig, sie liegt "
                       "aber sicher in der genannten Spanne."),
    "web.win_unknown_legend": ("„unbekannt“ heißt: die Siegchance wäre hier zu aufwendig; solche "
                               "Möglichkeiten stehen nach der erwarteten Endpunktzahl geordnet."),
    # die Trainingsseite (/drill, web/drill.py)
    "web.drill_open": "Deine teuren Entscheidungen trainieren",
    "web.drill_link": "Training",
    "web.drill_title": "Kniffel-Training",
    "web.drill_back": "Zurück zum Spiel",
    "web.drill_intro": ("Stellungen aus deinen eigenen teuren Entscheidungen, danach aus einer "
                        "eingebauten Sammlung: antworte, und der Coach sagt, was es kostet und "
                        "warum. Eine falsche Antwort kommt bald wieder."),
    "web.drill_player": "Spieler",
    "web.drill_switch": "Wechseln",
    "web.drill_from_game": "Aus deinem Spiel {game}, Runde {round}",
    "web.drill_built_in": "Eine eingebaute Stellung",
    "web.drill_again": (" · einmal beantwortet", " · {n}-mal beantwortet"),
    "web.drill_upper": "Oben {subtotal} (Bonus ab {threshold}): {state}",
    "web.drill_bonus_reached": "Bonus erreicht",
    "web.drill_bonus_out": "Bonus nicht mehr erreichbar",
    "web.drill_bonus_needs": "es fehlen {n}",
    "web.drill_rolls": ("noch 1 Wurf", "noch {n} Würfe"),
    "web.drill_keep_help": "Tippe die Würfel an, die du hältst, dann würfeln; oder trag jetzt ein.",
    "web.drill_keep": "{dice} halten und würfeln",
    "web.drill_reroll_all": "Alle fünf neu würfeln",
    "web.drill_box_now": "Oder jetzt eintragen:",
    "web.drill_box": "Trag die Würfel in ein Feld ein:",
    "web.drill_right": "Richtig: {best} ist der beste Zug.",
    "web.drill_wrong": "{choice} verschenkt {cost:.2f} Punkte. Am besten: {best}.",
    "web.drill_why_best": "Am besten, {choice}:",
    "web.drill_why_yours": "Deine Wahl, {choice}:",
    "web.drill_comes_back": ("Diese Stellung kommt nach 1 anderen wieder.",
                             "Diese Stellung kommt nach {n} anderen wieder."),
    "web.drill_next": "Nächste Stellung",
    "web.drill_summary": ("{player}: 1 Antwort, {right} richtig · im Training: {positions}, jetzt "
                          "fällig: {due}",
                          "{player}: {n} Antworten, {right} richtig · im Training: {positions}, "
                          "jetzt fällig: {due}"),
}
