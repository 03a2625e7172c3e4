"""An advice's options as decisions of a game: the option a recorded decision is, a decision in
words, an option in the record's form, and the chance an option gives up against the best."""
from ..lang import Words


def matching_option(options, decision):
    """The option of `options` that is the recorded `decision` ({"keep"} or {"box", "jokers"}),
    or None."""
    if "keep" in decision:
        keep = sorted(decision["keep"])
        return next((o for o in options if o["action"] == "keep" and o["keep"] == keep), None)
    jokers = sorted(map(list, decision.get("jokers") or []))
    for option in options:
        if option["action"] != "score" or option["box"] != decision["box"]:
            continue
        given = []
        if "joker" in option:
            taken, to = option["joker"]["from"], option["joker"]["to"]
            given = [list(p) for p in zip(taken, to)] if isinstance(taken, list) else [[taken, to]]
        if sorted(given) == jokers:
            return option
    return None


def chance_given_up(advice, option):
    """The chance `option` of a goal's `advice` gives up against the best: 0 for the first
    option, None where a chance is not known (win/approximation.with_interval: no tie, and no
    loss to tell)."""
    if option is advice.options[0]:
        return 0.0
    best, chance = advice.probability, option["probability"]
    return None if best is None or chance is None else best - chance


def describe_choice(decision, words=None):
    """A short text for a recorded decision or an advice option, in `words`' language (a
    lang.Words; default English with box keys, as in records)."""
    w = words or Words("en")
    if "keep" in decision:
        return w("choice.keep", dice=w.faces(decision["keep"]))
    jokers = decision.get("jokers")
    if jokers is None and "joker" in decision:  # an advice option
        taken, given = decision["joker"]["from"], decision["joker"]["to"]
        jokers = list(zip(taken, given)) if isinstance(taken, list) else [(taken, given)]
    box = w.box(decision["box"]) if words is not None else decision["box"]
    text = w("choice.box", box=box, points=decision["points"]) if "points" in decision else box
    if jokers:
        text = w("choice.joker", changes=", ".join(f"{a}->{b}" for a, b in jokers), text=text)
    return text


def option_as_decision(option):
    """An advice option in the record's decision form ({"keep"} or {"box", "jokers"})."""
    if option["action"] == "keep":
        return {"keep": option["keep"]}
    jokers = []
    if "joker" in option:
        taken, given = option["joker"]["from"], option["joker"]["to"]
        jokers = ([list(p) for p in zip(taken, given)] if isinstance(taken, list)
                  else [[taken, given]])
    return {"box": option["box"], "jokers": jokers, "points": option["points"]}
