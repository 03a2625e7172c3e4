"""Deutsche Wörter der Druckseiten und der Markdown-Tabellen (solver/lang/__init__.py)."""

WORDS = {
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
                        "Punkte − Kosten am größten ist, gegen die Kosten der unteren Felder "
                        "unten)."),
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
    "page.no_rule_prices": ("Der Preis jeder einzelnen Regel ist nur für die mitgelieferten "
                            "Regelsätze berechnet; mit diesen Regeln hat nur die ganze Liste einen "
                            "Preis."),
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
    "md.opening_text": ("Für jeden Wurf auf dem leeren Block: die beste Wahl, wenn der Wurf mit "
                        "noch {lefts} Würfen kam (der erste Wurf des Spiels hat noch {first}). *E* "
                        "ist die erwartete Endpunktzahl des Spiels (Punkte auf dem Block am Ende, "
                        "Boni eingeschlossen) nach dieser Wahl, wenn jede spätere Entscheidung "
                        "optimal ist: `expected_final_score` von `kniffel advise` auf dem leeren "
                        "Block. *Abstand* ist, was die zweitbeste Wahl kosten würde. `halte` nennt "
                        "die Würfel, die man vor dem Neuwürfeln der anderen hält; ein Feldname "
                        "trägt jetzt in dieses Feld ein. *P* ist die Chance des Wurfs."),
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
                      "nehmen, wo das am größten ist. Die Kosten sind die erwarteten Endpunkte, "
                      "die man durch das Eintragen in dieses Feld abgibt (Bonus oben und der Rest "
                      "des Spiels bei bestem Spiel eingeschlossen), gezählt vom billigsten Eintrag "
                      "aus, der also 0 kostet. Für die oberen Felder, deren Kosten von den Punkten "
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
    "md.turn_text": ("{description}. Die Wahrscheinlichkeit, dass der optimale Spieler jedes Feld "
                     "in jedem Zug eines Spiels belegt, exakt über jeden möglichen Fall der Würfel "
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
    # the rules-of-thumb pages
    "page.par": ("das Feld, in dem die Würfel am meisten über seinem Soll zählen (Soll: unter den "
                 "Regeln)"),
    "page.course": ("das Feld, in dem die Würfel am meisten über seinem Soll zählen, das Soll "
                    "eines Felds oben als drei seiner Augenzahl gezählt (der Kurs zum Bonus oben)"),
    "pattern.aim": ("das offene Feld anpeilen, bei dem die Würfel am weitesten über seinem Soll "
                    "liegen (Soll: unter den Regeln), und halten, was ein Zug nur für dieses Feld "
                    "hält"),
    "page.pars": ("Das Soll jedes Felds, die mittleren Punkte eines Zugs, der nur dieses Feld "
                  "sucht: {pars}."),
    "pattern.kind_open_any": "alle Würfel der häufigsten Augenzahl mit offenem Feld oben halten",
    "pattern.kind_open": "die häufigste Augenzahl mit offenem Feld oben halten (ab {arg} gleichen)",
    "page.rolls_left_1": "vor dem letzten Wurf", "page.rolls_left_2": "nach dem ersten Wurf",
    "page.until_round": "bis Runde {round}", "page.from_round": "ab Runde {round}",
    "page.bonus_open": "solange der Bonus oben noch möglich ist",
    "page.bonus_not_reached": "bis der Bonus oben erreicht ist",
    "page.bonus_par": ("solange der Bonus oben auf Kurs ist (je drei der offenen Augenzahlen "
                       "reichen)"),
    "page.bonus_behind": "wenn der Bonus oben nur mit mehr als drei gleichen zu schaffen ist",
    "page.bonus_settled": "wenn der Bonus oben sicher oder verloren ist",
    "page.list_score": ("Mit diesen {n} Regeln: im Mittel {score:.1f} Punkte (exakt); optimal: "
                        "{optimal:.1f}."),
    "page.gap_closed": ("Diese Regeln schließen {share:.0f} % der Lücke zwischen vernünftigem "
                        "Spieler ({human:.1f}) und optimalem Spiel ({optimal:.1f})."),
}
