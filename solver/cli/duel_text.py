"""The text of the Dice Duel's advice for 2 or more players (`kniffel advise --rules dice-duel
--players N`, the terminal coach of `kniffel play --rules dice-duel`): the chance to win of
every option of the seat to move (solver/duel/multiplayer/advice.py)."""


def table_lines(answer, shown, words):
    """The advice as lines of text (words: solver/lang's Words): the position, then
    chance_lines."""
    lines = [words("duel.position", rules="dice-duel", n=answer["players"], seat=answer["to_move"])
             + (words("duel.round_taken") if answer["round_chip_taken"] else "")]
    for name, counts in answer["chips"].items():
        lines.append(words("duel.chip_row", name=words.chip(name), plate=counts[0], aside=counts[1],
                           seats=" ".join(map(str, counts[2:]))))
    if "dice" in answer:
        lines.append(words("dice_left", dice=words.faces(answer["dice"]),
                           left=words("rolls_left", n=answer["rolls_left"])))
    return lines + chance_lines(answer, shown, words)


def chance_lines(answer, shown, words):
    """The chance to win of the seat to move, what it assumes, and the `shown` best options
    (None: all); chances as percentages, as the web page and `kniffel analyze` print them."""
    from ..duel.words import chance_text, option_text
    pct = lambda p: chance_text(p, words)  # noqa: E731
    how = words("duel.exact") if answer["exact"] else words(
        "duel.estimate", lo=pct(answer["interval"][0]), hi=pct(answer["interval"][1]),
        games=answer["games"])
    lines = [words("duel.chance", seat=answer["to_move"], p=pct(answer["probability"]), how=how)]
    lines += ["  " + words(key, **fields) for key, fields in assumptions(answer)]
    options = answer["options"] if shown is None else answer["options"][:shown]
    if not options:
        return lines
    texts = [option_text(o, words) for o in options]
    width = max(map(len, texts))
    lines.append(f"  {'#':>2}  {words('duel.choice'):<{width}}  {words('duel.win'):>8}"
                 + ("" if answer["exact"] else "  " + words("duel.interval")))
    for rank, (option, text) in enumerate(zip(options, texts), 1):
        interval = "" if answer["exact"] else \
            f"  {pct(option['interval'][0])}-{pct(option['interval'][1])}"
        lines.append(f"  {rank:>2}  {text:<{width}}  {pct(option['probability']):>8}{interval}")
    if len(options) < len(answer["options"]):
        lines.append("  " + words("advise.more", n=len(answer["options"]) - len(options)))
    return lines


def assumptions(answer):
    """[(words key, fields)]: under whose play the chance of `answer` holds, and whether the
    advice kept the simple rule's choice because the options were too close to call."""
    play = answer.get("play")
    if not answer["exact"]:
        found = [("duel.means_horizon", {"n": answer["horizon"]}) if play == "greedy_then_best"
                 else ("duel.means_greedy", {})]
        return found + ([("duel.close_call", {})] if answer.get("close_call") else [])
    if play == "greedy_others":
        return [("duel.means_exact_greedy", {})]
    return [("duel.means_exact_many" if answer["players"] > 2 else "duel.means_exact_two", {})]
