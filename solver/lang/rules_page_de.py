"""Deutsche Wörter der Faustregel-Seiten: die Bedingungen einer Regel, die Titel der Regelsätze,
die Punktzahl einer Liste (solver/lang/__init__.py sagt, wie sie benutzt werden)."""

WORDS = {
    "page.par": "das Feld, in dem die Würfel am meisten über seinem Soll zählen (Soll: unter den Regeln)",
    "page.course": ("das Feld, in dem die Würfel am meisten über seinem Soll zählen, das Soll eines "
                    "Felds oben als drei seiner Augenzahl gezählt (der Kurs zum Bonus oben)"),
    "pattern.aim": ("das offene Feld anpeilen, bei dem die Würfel am weitesten über seinem Soll "
                    "liegen (Soll: unter den Regeln), und halten, was ein Zug nur für dieses Feld hält"),
    "page.pars": "Das Soll jedes Felds, die mittleren Punkte eines Zugs, der nur dieses Feld sucht: {pars}.",
    "pattern.kind_open_any": "alle Würfel der häufigsten Augenzahl mit offenem Feld oben halten",
    "pattern.kind_open": "die häufigste Augenzahl mit offenem Feld oben halten (ab {arg} gleichen)",
    "page.rolls_left_1": "vor dem letzten Wurf", "page.rolls_left_2": "nach dem ersten Wurf",
    "page.until_round": "bis Runde {round}", "page.from_round": "ab Runde {round}",
    "page.bonus_open": "solange der Bonus oben noch möglich ist", "page.bonus_not_reached": "bis der Bonus oben erreicht ist",
    "page.bonus_par": "solange der Bonus oben auf Kurs ist (je drei der offenen Augenzahlen reichen)",
    "page.bonus_behind": "wenn der Bonus oben nur mit mehr als drei gleichen zu schaffen ist",
    "page.bonus_settled": "wenn der Bonus oben sicher oder verloren ist",
    "page.list_score": "Mit diesen {n} Regeln: im Mittel {score:.1f} Punkte (exakt); optimal: {optimal:.1f}.",
    "page.name.kniffel": "Kniffel", "page.name.kniffel-basic": "Kniffel (Grundregeln)",
    "page.name.kniffel-championship": "Kniffel (Turnierregeln)", "page.name.kitkniff": "KitKniff",
    "page.name.yahtzee": "Yahtzee", "page.name.yahtzee-free": "Yahtzee (freier Joker)", "page.name.yatzy": "Yatzy",
    "page.gap_closed": ("Diese Regeln schließen {share:.0f} % der Lücke zwischen vernünftigem "
                        "Spieler ({human:.1f}) und optimalem Spiel ({optimal:.1f})."),
}
