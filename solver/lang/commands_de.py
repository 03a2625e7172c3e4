"""Deutsche Wörter von `simulate`, `distribution`, `solve`, `rules` und dem Regeltext des Blocks
(`kniffel rules --show`, rules/describe.py); solver/lang/__init__.py sagt, wie sie benutzt
werden.  Dezimalzahlen mit Punkt wie bei `advise`; Tausender mit Leerzeichen (536 448)."""

WORDS = {
    # die Spalte eines Spielers allein (die Aufzeichnung behält "you")
    "player.you": "du",
    # `kniffel simulate`
    "simulate.head": ("{rules}: {games} Spiel je Strategie, Startwert {seed}; erwartete "
                      "Endpunktzahl laut Tabelle {expected:.4f}",
                      "{rules}: {games} Spiele je Strategie, Startwert {seed}; erwartete "
                      "Endpunktzahl laut Tabelle {expected:.4f}"),
    "simulate.strategy.optimal": "optimal",
    "simulate.strategy.greedy": "gierig",
    "simulate.strategy.heuristic": "Faustregeln",
    "simulate.mean": "Mittelwert (95%-KI)",
    "simulate.sd": "Standardabweichung",
    "simulate.percentile": "Perzentil {q}",
    "simulate.upper_bonus": "Bonus oben",
    "simulate.kniffel_50": "{kniffel}-Feld mit 50",
    "simulate.extra_bonus": "{kniffel}-Bonus",
    "simulate.at_least": "Endsumme >= {target}",
    "simulate.jokers_used": "Joker eingesetzt",
    # `kniffel distribution`
    "distribution.head": ("{rules}: exakte Verteilung der Endsumme bei bestem Spiel "
                          "({states} Zustände, {seconds:.1f} s)"),
    "distribution.summary": ("  Mittelwert {mean:.6f} (Tabelle: {expected:.6f}), "
                             "Standardabweichung {sd:.4f}, Median {median}, Bereich {low}-{high}"),
    "distribution.percentiles": "Perzentile",
    "distribution.upper_bonus": "Bonus oben",
    "distribution.kniffel_50": "{kniffel}-Feld mit 50",
    "distribution.extra_bonus": "ein {kniffel}-Bonus",
    "distribution.rolled": "ein {kniffel} gewürfelt (in den kommenden Zügen)",
    "distribution.at_least": "Endsumme >= {target}",
    "distribution.score": "Punkte",
    "distribution.probability": "Wahrscheinlichkeit",
    # `kniffel solve`
    "solve.expected": ("{rules}: erwartete Endpunktzahl {expected:.7f}, {states} Zustände, "
                       "{done}"),
    "solve.target": ("{rules}: Zieltabelle, {entries} Einträge, {done}; vom leeren Block aus "
                     "{chances}"),
    "solve.horizon": ("{rules}: Horizonttabelle jeder Stellung zu zweit mit höchstens {levels} "
                      "Chips im Spiel, {values} Werte ({gigabytes:.2f} GB), {done}"),
    "solve.solved": "in {seconds:.2f} s berechnet",
    "solve.loaded": "in {seconds:.2f} s geladen (--force berechnet sie neu)",
    "solve.table": "Tabelle: {path}",
    # Zahlen ab Tausend: "536 448" (nicht 536.448: der Punkt trennt hier Dezimalen)
    "number.thousands": " ",
    # `kniffel rules`: die Liste
    "rules.more": "kniffel rules --show NAME zeigt einen Regelsatz vollständig; docs/rules.md "
                  "erklärt die Regeln.",
    # `kniffel rules --show`: der Regeltext des Blocks
    "rules.changed": "(Der Regelsatz {preset} mit geänderten Optionen: {changes}; die Zeile oben "
                     "beschreibt den Regelsatz.)",
    "rules.turn": "Zug",
    "rules.one_roll": "Ein Wurf pro Zug, mit allen fünf Würfeln.",
    "rules.rolls": ("Bis zu {n} Würfe pro Zug. Der erste Wurf wirft alle fünf Würfel; vor jedem "
                    "weiteren Wurf beliebige davon liegen lassen (keinen bis alle) und die übrigen "
                    "neu würfeln; nach jedem Wurf darf man aufhören."),
    "rules.fill": (" Dann genau ein offenes Feld belegen, mit den Punkten, die die Würfel dort "
                   "geben, oder mit 0 (streichen); jedes offene Feld darf gestrichen werden"),
    "rules.fill_forced": (" (der Pflicht-Joker schränkt das für einen weiteren {five} ein, siehe "
                          "unten)"),
    "rules.game_ends": ". Das Spiel endet, wenn alle {n} Felder belegt sind.",
    "rules.boxes": "Felder ({first} bis {last} sind der obere Teil, die übrigen der untere)",
    "rules.column.box": "Schlüssel",
    "rules.column.name": "Name",
    "rules.column.also": "auch",
    "rules.column.needs": "Bedingung",
    "rules.column.points": "Punkte",
    "rules.scores_0": "Ein Wurf, der die Bedingung eines Feldes nicht erfüllt, zählt dort 0.",
    "rules.upper_bonus": "Bonus oben",
    "rules.upper_bonus_text": ("+{bonus}, wenn {first} bis {last} zusammen mindestens "
                               "{threshold} ergeben."),
    "rules.no_bonus": "Keiner.",
    "rules.five": "Fünf gleiche Würfel ({five})",
    "rules.five_scores": ("Fünf gleiche Würfel zählen {fifty} im {five}-Feld. Solange das "
                          "{five}-Feld offen ist, zählen fünf gleiche Würfel nach der Feldtabelle, "
                          "in welches Feld sie auch kommen. "),
    "rules.further_plain": ("Ein weiterer {five} (gewürfelt, wenn das {five}-Feld schon belegt "
                            "ist) zählt ebenfalls nach der Tabelle, in jedem Feld: kein "
                            "Zusatzbonus, kein Joker."),
    "rules.further": ("Ein weiterer {five}, gewürfelt, wenn das {five}-Feld schon belegt ist (mit "
                      "{fifty} oder 0):"),
    "rules.joker.none": "Kein Joker: er zählt nach der Feldtabelle oben wie jeder andere Wurf.",
    "rules.joker.max-any": ("Joker mit den Höchstpunkten jedes Feldes: er darf in jedes offene "
                            "Feld, für die meisten Punkte, die dieses Feld geben kann, gleich "
                            "welche Augenzahl die Würfel zeigen."),
    "rules.joker.free": ("Freier Joker: er darf in jedes offene Feld: in die unteren Felder mit "
                         "den Joker-Punkten unten, in das obere Feld seiner Augenzahl mit 5 × "
                         "Augenzahl, in jedes andere obere Feld für 0."),
    "rules.joker.forced": ("Pflicht-Joker: er muss in das obere Feld seiner Augenzahl, wenn es "
                           "offen ist; wenn nicht, in ein offenes unteres Feld (mit den "
                           "Joker-Punkten unten), wenn es eines gibt; nur wenn beides nicht offen "
                           "ist, in ein offenes oberes Feld, für 0."),
    "rules.joker.free-after-upper": ("Joker, sobald das obere Feld seiner Augenzahl belegt ist: "
                                     "dann darf er in jedes offene Feld, in die unteren Felder "
                                     "mit den Joker-Punkten unten, in obere Felder für 0; "
                                     "solange dieses obere Feld noch offen ist, zählt er nach "
                                     "der Feldtabelle oben."),
    "rules.joker.must-match": "Kein Joker: er zählt nach der Feldtabelle oben wie jeder andere "
                              "Wurf.",
    "rules.joker_fifty": ("- Der Joker gilt nur, solange im {five}-Feld {fifty} stehen; nach "
                          "einem gestrichenen {five}-Feld zählt ein weiterer {five} nach der "
                          "Tabelle."),
    "rules.joker_filled": "- Der Joker gilt, ob im {five}-Feld {fifty} oder 0 stehen.",
    "rules.joker_points": "- Joker-Punkte: {points}.",
    "rules.joker_upper_counts": " Punkte in oberen Feldern zählen für den Bonus oben.",
    "rules.must_fit": ("- Er muss in {where}, solange eines davon offen ist (welches, ist frei); "
                       "nur wenn keines offen ist, darf er in ein anderes offenes Feld, für 0."),
    "rules.must_fit_joker": ("ein Feld, in dem er Punkte bringt (mit den Joker-Punkten, solange "
                             "der Joker gilt, sonst nach der Feldtabelle)"),
    "rules.must_fit_table": "ein Feld, in dem er nach der Feldtabelle Punkte bringt: {boxes}",
    "rules.may_scratch": ("- Er darf auch in jedes andere offene Feld, für 0 (die Option "
                          "extra_kniffel_must_fit verbietet das, solange ein passendes Feld offen "
                          "ist)."),
    "rules.extra": ("- Zusatzbonus: +{bonus} für jeden weiteren {five}, {needs}, gezahlt {where}; "
                    "{cap}."),
    "rules.extra_fifty": "solange im {five}-Feld {fifty} stehen",
    "rules.extra_filled": "ob im {five}-Feld {fifty} oder 0 stehen",
    "rules.extra_anywhere": "gleich in welches Feld er kommt, auch für 0",
    "rules.extra_fitting": ("nur, wenn er in ein Feld eingetragen wird, in dem er nach der "
                            "Feldtabelle Punkte bringt: {boxes}"),
    "rules.cap_none": "ohne Grenze",
    "rules.cap_never_paid": "aber bei der Grenze von {cap} Punkten wird er nie gezahlt",
    "rules.cap_never_reached": ("die Grenze von {cap} Punkten wird nie erreicht (ein Spiel hat "
                                "höchstens {most})"),
    "rules.cap": ("höchstens {points} Bonuspunkte pro Spiel (1 Bonus)",
                  "höchstens {points} Bonuspunkte pro Spiel ({n} Boni)"),
    "rules.no_extra": "- Kein Zusatzbonus.",
    "rules.upper_box_of_face": "das obere Feld seiner Augenzahl",
    "rules.box_faces": "{box} (Augenzahlen {faces})",
    "rules.points_upper_0": "obere Felder 0",
    "rules.points_own_upper": ("das obere Feld seiner Augenzahl 5 × Augenzahl, andere obere "
                               "Felder 0"),
    "rules.points_by_face": "{box} {points} (Augenzahlen 1-6)",
    "rules.points_sum": "{box} 5 × Augenzahl (die Augensumme)",
    "rules.jokers": "Knobeln-Joker",
    "rules.jokers_text": ("{jokers} pro Spiel. {when}, bevor ein Feld belegt wird, macht ein Joker "
                          "aus einem Würfel eine beliebige andere Augenzahl; {per}. Joker, die am "
                          "Ende übrig sind, zählen nichts."),
    "rules.jokers_one_roll": "Nach dem Wurf des Zugs",
    "rules.jokers_last_roll": ("Nach dem letzten Wurf eines Zugs (nur wenn {rolls} des Zugs "
                               "geworfen wurden, nicht nach vorzeitigem Aufhören)"),
    "rules.jokers_both": "beide Würfe",
    "rules.jokers_all": "alle {n} Würfe",
    "rules.jokers_per_turn": ("höchstens 1 Joker pro Zug", "höchstens {n} Joker pro Zug"),
    "rules.no_jokers": "Keine.",
    "rules.final": "Endsumme",
    "rules.final_boxes": "die Punkte in den Feldern",
    "rules.final_upper": "der Bonus oben",
    "rules.final_extra": "die Zusatzboni",
    "rules.settings": ("Einstellungen (eine Regeldatei nennt einen Regelsatz und ändert einige "
                       "davon; docs/rules.md erklärt jede)"),
    # was ein Feld braucht (der Reihe nach versucht: die erste, die genau seine Würfe trifft)
    "rules.needs.none": "keine",
    "rules.needs.pair": "mindestens zwei gleiche Würfel",
    "rules.needs.two_pairs": ("zwei verschiedene Augenzahlen je mindestens zweimal (ein Full House "
                              "zählt, vier gleiche nicht)"),
    "rules.needs.three": "mindestens drei gleiche Würfel",
    "rules.needs.four": "mindestens vier gleiche Würfel",
    "rules.needs.house": "drei Würfel einer Augenzahl und zwei einer anderen",
    "rules.needs.house_or_five": ("drei Würfel einer Augenzahl und zwei einer anderen, oder fünf "
                                  "gleiche"),
    "rules.needs.run_4": "vier Augenzahlen in Folge: 1-2-3-4, 2-3-4-5 oder 3-4-5-6",
    "rules.needs.run_5": "fünf Augenzahlen in Folge: 1-2-3-4-5 oder 2-3-4-5-6",
    "rules.needs.exactly": "genau {faces}",
    "rules.needs.five": "fünf gleiche Würfel",
    "rules.needs.face": "keine: es zählen nur die Würfel mit {face}",
    "rules.needs.rolls": "{n} der 252 verschiedenen Würfe",
    # wie viele Punkte ein Feld gibt
    "rules.points.sum": "die Augensumme",
    "rules.points.pair": "2 × die höchste Augenzahl, die zweimal liegt",
    "rules.points.two_pairs": "die Summe der zwei Paare",
    "rules.points.three": "3 × die Augenzahl, die dreimal liegt",
    "rules.points.four": "4 × die Augenzahl, die viermal liegt",
    "rules.points.face": "{face} × die Anzahl der Würfel mit {face}",
    # `kniffel history`: was die Spiele eines Spielers sagen; die Fehlerarten (history/kinds.py)
    "history.none": ("noch keine Spiele in {path}: ein gespieltes oder analysiertes Spiel wird "
                     "dort aufbewahrt"),
    "history.no_player": "keine Spiele von {name} in {path}",
    "history.player": ("{name}: 1 Spiel ({finished} beendet), im Mittel {score} Punkte",
                       "{name}: {n} Spiele ({finished} beendet), im Mittel {score} Punkte"),
    "history.no_score": "-",
    "history.loss": ("  verschenkt: {loss:.2f} Punkte pro Spiel, im letzten Spiel {recent:.2f}",
                     "  verschenkt: {loss:.2f} Punkte pro Spiel, in den letzten {n} "
                     "{recent:.2f}"),
    "history.trend": "; Trend {trend:+.2f} pro Spiel ({direction})",
    "history.better": "besser werdend",
    "history.worse": "schlechter werdend",
    "history.steady": "gleichbleibend",
    "history.kinds": "  die teuersten wiederkehrenden Fehlerarten:",
    "history.kinds_none": "  keine Fehlerart zweimal oder öfter",
    "history.kind": ("  {rank}. {kind}: {cost:.2f} Punkte pro Spiel (1 Entscheidung)",
                     "  {rank}. {kind}: {cost:.2f} Punkte pro Spiel ({n} Entscheidungen)"),
    "history.example": ("     z. B. Runde {round}, {choice} statt {best} (kostet {loss:.2f}): "
                        "{command}"),
    "history.plot": "die verschenkten Punkte pro Spiel: {path}",
    "kind.box": "in {box} eingetragen, wo anderes besser war",
    "kind.scratch": "{box} gestrichen",
    "kind.stop_early": "zu früh aufgehört zu würfeln",
    "kind.roll_on": "weitergewürfelt statt ein Feld zu nehmen",
    "kind.pair_over_straight": "Gleiche statt einer Straße gehalten",
    "kind.straight_over_pair": "eine Straße statt Gleicher gehalten",
    "kind.kept_more": "zu viele Würfel gehalten",
    "kind.kept_fewer": "zu wenige Würfel gehalten",
    "kind.behind_course": "oben hinter dem Kurs zum Bonus",
    "history.plot_title": "Verschenkte Punkte pro Spiel",
    "history.plot_x": "Spiel",
    "history.plot_y": "verschenkte erwartete Punkte",
    "history.plot_legend": ("{name} (jedes Spiel)", "{name} (Mittel aus {n} Spielen)"),
    # `kniffel drill` (history/drill.py)
    "drill.head": "Stellung {number} von {count}, {where}",
    "drill.from_game": "aus deinem Spiel {game}, Runde {round}",
    "drill.built_in": "eine eingebaute Stellung",
    "drill.again": ("; einmal beantwortet", "; {n}-mal beantwortet"),
    "drill.prompt_keep": ("Dein Zug: die Würfel, die du hältst (z. B. 55; nichts: alle neu), "
                          "oder ein Feld; q beendet:"),
    "drill.prompt_box": "Dein Zug: ein Feld (Name oder Nummer); q beendet:",
    "drill.right": "Richtig: {best} ist der beste Zug.",
    "drill.wrong": "{choice} verschenkt {cost:.2f} Punkte: am besten ist {best}.",
    "drill.comes_back": ("Sie kommt nach 1 anderen Stellung wieder.",
                         "Sie kommt nach {n} anderen Stellungen wieder."),
    "drill.summary": ("Training: {right} von 1 richtig, {cost:.2f} Punkte verschenkt; {positions} "
                      "Stellungen in deinem Training, {due} jetzt fällig.",
                      "Training: {right} von {n} richtig, {cost:.2f} Punkte verschenkt; "
                      "{positions} Stellungen in deinem Training, {due} jetzt fällig."),
}
