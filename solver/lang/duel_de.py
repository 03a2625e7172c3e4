"""Deutsche Wörter des Dice Duel (solver/lang/__init__.py sagt, wie sie benutzt werden).
Die Chips heißen wie in der Anleitung des Kniffel Dice Duel (docs/rules.md)."""

WORDS = {
    "chip": {"two_pairs": "Zwei Paare", "three_kind": "Dreierpasch",
             "small_straight": "Kleine Straße", "flush": "Flush", "full_house": "Full House",
             "four_kind": "Viererpasch", "large_straight": "Große Straße"},
    # Entscheidungen
    "duel.keep": "halte {dice}, würfle den Rest neu",
    "duel.stop": "aufhören: {text}",
    "duel.take": "nimm {chips}",
    "duel.and_chip": " + ",
    "duel.from_aside": "{chip} (beiseitegelegt)",
    "duel.last_bonus": " +{n} letzter Chip",
    "duel.no_chip": "kein Chip",
    "duel.take_none": "keinen Chip nehmen",
    "duel.no_chip_aside": "kein Chip: {chip} wird beiseitegelegt",
    # der Tisch
    "duel.chip": "Chip",
    "duel.value": "Wert",
    "duel.plate": "Teller",
    "duel.aside": "beiseitegelegt",
    "duel.points": "Punkte",
    "duel.wins": ("Spielende: {names} gewinnt", "Spielende: {names} gewinnen"),
    "duel.tie": "Spielende: Gleichstand, niemand gewinnt",
    # `kniffel play --rules dice-duel`
    "duel.help_roll": ("tippe die Würfel, die du hältst (z. B. 335), Enter = alle neu würfeln, s = "
                       "aufhören und einen Chip nehmen, ? = Trainer, u = zurück, q = speichern und "
                       "beenden"),
    "duel.help_end": ("tippe einen Chip (Name, Kurzname oder Wert; ' beiseite' für einen "
                      "beiseitegelegten), n = kein Chip, ? = Trainer, u = zurück, q = speichern "
                      "und beenden"),
    "duel.prompt_keep": "halten (Enter = alle neu würfeln, s = aufhören)",
    "duel.prompt_chip": "Chip (n = keiner)",
    "duel.prompt_dice": ("geworfener Würfel (1 Würfel oder alle fünf)",
                         "geworfene Würfel ({n} Würfel oder alle fünf)"),
    "duel.aside_word": "beiseite",
    "duel.turn": "{name} ist am Zug",
    "duel.record": "Spielprotokoll: {path}",
    "duel.over": "das Spiel ist vorbei; siehe kniffel analyze {path}",
    # Rat
    "duel.position": "{rules}, {n} Spieler, Platz {seat} ist am Zug",
    "duel.round_taken": ", in dieser Runde wurde schon ein Chip genommen",
    "duel.chip_row": "  {name:<15} Teller {plate}  beiseite {aside}  Plätze {seats}",
    "duel.exact": "exakt",
    "duel.estimate": ("Schätzung, 95%-Intervall {lo}-{hi}, {games} Spiele je "
                      "Möglichkeit"),
    "duel.chance": "Gewinnchance für Platz {seat}: {p} ({how})",
    "duel.means_greedy": ("die Chance der geratenen Wahl, wenn ab jetzt alle nach der einfachen "
                          "Regel spielen (auf den wertvollsten Chip würfeln und ihn nehmen), bis "
                          "zum Ende; das Intervall schließt ein, wie weit solche Schätzungen im "
                          "Spiel danebenlagen"),
    "duel.means_horizon": ("die Chance der geratenen Wahl, wenn ab jetzt beide nach der einfachen "
                           "Regel spielen (auf den wertvollsten Chip würfeln und ihn nehmen), bis "
                           "noch {n} Chips im Spiel sind, und dann beide bestmöglich; das "
                           "Intervall schließt ein, wie weit solche Schätzungen im Spiel "
                           "danebenlagen"),
    "duel.close_call": ("die Möglichkeiten liegen zu nah beieinander: der Rat bleibt bei der Wahl "
                        "der einfachen Regel"),
    "duel.means_exact_two": "wenn ab jetzt beide bestmöglich spielen",
    "duel.means_exact_greedy": ("wenn dieser Platz ab jetzt bestmöglich spielt und alle anderen "
                                "den wertvollsten Chip nehmen"),
    "duel.means_exact_many": ("wenn ab jetzt alle bestmöglich spielen und wer nicht mehr gewinnen "
                              "kann, dem nächsten in der Reihe hilft"),
    "duel.kingmaker": ("bei 3 oder 4 Spielern nehmen exakte Chancen an, dass wer nicht mehr "
                       "gewinnen kann, dem nächsten in der Reihe hilft"),
    "duel.choice": "Wahl",
    "duel.win": "Sieg",
    "duel.interval": "95%-Intervall",
    "duel.solo_head": "{rules}: Chips {spec}; {points} Punkte gesammelt",
    "duel.solo_spec": "(Teller/beiseite/meine) {list}",
    "duel.solo_chips": "{chip} {plate}/{aside}/{mine}",
    "duel.all_on_plate": "alle auf dem Teller",
    "duel.solo_over": ("das Spiel ist vorbei: {score:.0f} Punkte mit den Boni (+{bonus} für den, "
                       "der den letzten Chip vom Teller nahm)"),
    "duel.solo_start": "erwartete Endpunktzahl zu Beginn des Zugs: {value:.4f}",
    # `kniffel analyze`
    "duel.analysis_row": ("{i:>3}. {player}: Würfel {dice}, {left}, gewählt {choice}: Chance "
                          "{p}, am besten {best}{how}"),
    "duel.estimates": " (Schätzungen)",
    "duel.no_loss": "keine Entscheidung hat Gewinnchance gekostet",
    "duel.given_away": "{name}: verschenkte Gewinnchance, über alle Entscheidungen: {lost}",
    "duel.final": "Endstand: {scores}",
    # Fehler, die ein Spieler sieht
    "duel.error.players": "das Dice Duel hat 2-{most} Spieler, nicht {n}",
    "duel.error.rolled": "die Würfel sind schon geworfen: halte welche oder beende den Zug",
    "duel.error.no_roll": "kein Wurf mehr übrig: nimm einen Chip (oder keinen)",
    "duel.error.keep": "halte {keep}: nicht 0-4 der Würfel {dice}",
    "duel.error.not_possible": "{move} geht nicht mit {dice}; möglich: {moves}",
    "duel.error.unknown_chip": ("unbekannter Chip {name!r}; die Chips: {chips} (oder 2p, 3k, ss, "
                                "fl, fh, 4k, ls, oder der Wert des Chips)"),
    # die Webseite /duel
    "duel.web.title": "Kniffel Dice Duel",
    "duel.web.coach": "Trainer",
    "duel.web.scorecard": "Spiele mit Block",
    "duel.web.setup": "Neues Spiel (2–4 Spieler)",
    "duel.web.players": "Spieler",
    "duel.web.real": "echte Würfel (tippe, was du geworfen hast)",
    "duel.web.seed": "Startwert",
    "duel.web.resume": "Gespeichertes Spiel fortsetzen",
    "duel.web.keep_roll": "Markierte halten, Rest würfeln",
    "duel.web.stop": "Aufhören",
    "duel.web.analyze": "Auswerten",
    "duel.web.turn": "{name} ist am Zug",
    "duel.web.rolls_left": (", noch 1 Wurf", ", noch {n} Würfe"),
    "duel.web.round_taken": " (in dieser Runde wurde schon ein Chip genommen)",
    "duel.web.wins": ("Spielende: {names} gewinnt.", "Spielende: {names} gewinnen."),
    "duel.web.tie": "Spielende: Gleichstand, niemand gewinnt.",
    "duel.web.chance": "Gewinnchance: {chance} ({how})",
    "duel.web.estimate": "Schätzung, 95%-Intervall {lo}–{hi}",
    "duel.web.analysis_row": "{player}: Würfel {dice}, {left}, {choice}: {p} (am besten {best})",
    "duel.web.given_away": "{name}: verschenkte Gewinnchance {lost}",
    "duel.web.turn_of": "Am Zug: {name}",
    "duel.web.chance_greedy": ("Gewinnchance {chance} (Schätzung, {lo}–{hi}), wenn ab jetzt "
                               "alle nach der einfachen Regel spielen (auf den wertvollsten Chip "
                               "würfeln und ihn nehmen), bis zum Ende; das Intervall schließt "
                               "ein, wie weit solche Schätzungen im Spiel danebenlagen."),
    "duel.web.chance_horizon": ("Gewinnchance {chance} (Schätzung, {lo}–{hi}), wenn ab jetzt beide "
                                "nach der einfachen Regel spielen (auf den wertvollsten Chip "
                                "würfeln und ihn nehmen), bis noch {n} Chips im Spiel sind, und "
                                "dann beide bestmöglich; das Intervall schließt ein, wie weit "
                                "solche Schätzungen im Spiel danebenlagen."),
    "duel.web.close_call": ("Die Möglichkeiten liegen zu nah beieinander: der Rat bleibt bei der "
                            "Wahl der einfachen Regel."),
    "duel.web.chance_exact": ("Gewinnchance {chance}, exakt, wenn ab jetzt alle bestmöglich "
                              "spielen."),
    "duel.web.chance_exact_many": ("Gewinnchance {chance}, exakt, wenn ab jetzt alle bestmöglich "
                                   "spielen und wer nicht mehr gewinnen kann, dem nächsten in der "
                                   "Reihe hilft."),
    "duel.web.new_ask": ("Dieses Spiel verlassen und ein neues anlegen? Es bleibt gespeichert, "
                         "bis du auf Start tippst."),
    "duel.web.new_yes": "Ja, neues Spiel",
    "duel.web.cancel": "Abbrechen",
    "duel.web.back": "Zurück zum Spiel",
    "duel.web.entry_help": ("Würfeln, dann die Augenzahl tippen (oder 1-6 schreiben); ⌫ nimmt "
                            "sie zurück.", "Würfeln, dann die {n} Augenzahlen tippen (oder 1-6 "
                            "schreiben); ⌫ nimmt eine zurück."),
    "duel.web.face_range": "Ein Würfel zeigt 1 bis 6, nicht {face}.",
    "duel.web.working": "Rechne…",
    "duel.web.analysing": "Werte aus… {done} von {total} Entscheidungen",
    "duel.web.busy": "Der letzte Schritt läuft noch: bitte tippen, wenn er fertig ist.",
    "duel.web.no_names": "Gib 2 bis 4 Namen ein, durch Kommas getrennt.",
    "duel.web.bad_file": "Diese Datei ist kein Spielprotokoll eines Dice Duels.",
    "duel.web.nothing_to_undo": "Nichts zurückzunehmen: das ist der erste Wurf des Spiels.",
    "duel.web.advice_head": "Möglichkeiten, die beste zuerst, mit der Gewinnchance:",
    "duel.web.no_advice_loss": ("Niemand hat Gewinnchance verschenkt: jede Entscheidung war die "
                                "beste."),
    "duel.web.analysis_total": "{name}: insgesamt {lost} Gewinnchance verschenkt",
    "duel.web.kingmaker": ("Exakte Chancen bei 3 oder 4 Spielern nehmen an, dass wer nicht mehr "
                           "gewinnen kann, dem nächsten in der Reihe hilft."),
    "duel.web.error.budget": ("Das dauerte länger, als der Server erlaubt ({seconds} s), und wurde "
                              "abgebrochen; bitte noch einmal versuchen."),
    "duel.web.error.busy": "Der Server ist beschäftigt; bitte gleich noch einmal versuchen.",
    "duel.web.error.stopped": ("Der Server hat diese Arbeit abgebrochen; bitte noch einmal "
                               "versuchen."),
    "duel.web.error.internal": "Dem Server ist ein Fehler unterlaufen; das Spiel ist unverändert.",
    "duel.web.error.request": "Der Server konnte diese Anfrage nicht lesen: {detail}",
    "duel.error.dice_count": ("gib {n} Würfel oder alle fünf ein; es waren {got}",
                              "gib {n} Würfel oder alle fünf ein; es waren {got}"),
    "duel.error.face": "ein Würfel zeigt 1 bis 6, nicht {face}",
    "duel.error.names": "Spieler: 2-4 Namen mit höchstens {most} Zeichen",
    "duel.error.dice_list": "Würfel sind eine Liste von Augenzahlen 1 bis 6",
    "duel.web.unreadable": ("Dieses Spielprotokoll oder dieser Zug ist nicht lesbar; das Spiel "
                            "bleibt unverändert."),
    "duel.error.seed": "der Startwert ist eine ganze Zahl ab 0, und nur für virtuelle Würfel",
    "duel.web.more_losses": ("1 weitere Entscheidung, die Chance gekostet hat ▾",
                             "{n} weitere Entscheidungen, die Chance gekostet haben ▾"),
}
