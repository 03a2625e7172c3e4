"""A game kept in the history: its record, each decision's price (ask/analysis.py) and the
kinds of mistake each shows (kinds.py)."""
from ..game.record import record_rules, replay
from .kinds import decision_kinds
from .store import open_history


def positions(record):
    """The card ({box: points}) each decision of `record` was taken on, in the order
    ask/analysis.analyze lists the decisions."""
    cards = []
    replay(record, lambda point, decision: cards.append(dict(point.position.card)), strict=True)
    return cards


def questions(record):
    """Each decision of `record` as a question (drill.py's, the fields of ask/request.py): its
    rules as the record names them, the card, bonuses and jokers left at the turn's start, the
    dice and the rolls left; in the order ask/analysis.analyze lists the decisions."""
    found = []

    def visit(point, decision):
        position = point.position
        found.append({"rules": record["rules"], "card": dict(position.card),
                      "kniffel_bonuses": position.kniffel_bonuses,
                      "jokers_left": position.jokers_left, "dice": list(point.dice),
                      "rolls_left": point.rolls_left})

    replay(record, visit, strict=True)
    return found


def game_kinds(record, analysis):
    """Per decision of `analysis` (analyze's of `record`), the kinds of mistake it shows."""
    rules = record_rules(record["rules"])
    return [decision_kinds(d, card, rules)
            for d, card in zip(analysis["decisions"], positions(record))]


def keep_game(path, record, analysis, source):
    """Keep `record` with its `analysis` in the history at `path` (None: the default place);
    `source`: "play", "web" or "analyze".  Returns the game's id.  store.HistoryError (the
    file left as it is) when the history there cannot be used."""
    kinds = game_kinds(record, analysis)
    with open_history(path) as history:
        return history.store_game(record, analysis, kinds, source)


def check_history(path):
    """store.HistoryError now, before any work, when the history at `path` cannot be kept
    (created if missing)."""
    open_history(path).close()
