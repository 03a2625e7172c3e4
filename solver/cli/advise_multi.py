"""`kniffel advise --rules dice-duel --players N`: the chance to win of every option of the seat
to move in the Dice Duel for 2 or more players (solver/duel/multi_advice.py)."""
import click

from .common import InputError, emit_json


def advise_multi(rules, players, chips, to_move, taken, dice_text, rolls_left, shown, as_json,
                 top, model="best"):
    """Check the position, advise, print text or JSON (one clear line and exit 2 on bad input)."""
    from ..dice import parse_dice
    from ..duel import multi_advice
    if rules.game != "dice-duel":
        raise InputError(f"--players, --to-move and --round-chip-taken are for the Dice Duel "
                         f"(--rules dice-duel), not {rules.key}")
    if players is None:
        raise InputError("--to-move and --round-chip-taken need --players")
    try:
        table = multi_advice.parse_table(rules, players, chips or "",
                                         0 if to_move is None else to_move, taken)
        roll = parse_dice(dice_text) if dice_text is not None else None
        multi_advice.checked_roll(rules, roll, rolls_left)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    answer = multi_advice.advise(table, rules, roll, rolls_left, model=model)
    if as_json:
        answer["options"] = answer["options"][:top]
        emit_json(answer)
        return
    for line in answer_lines(answer, shown):
        click.echo(line)


def describe_option(option):
    """An option of the multiplayer advice in words."""
    if option["action"] == "keep":
        return "keep " + (" ".join(map(str, option["keep"])) or "nothing") + ", reroll the rest"
    if option["action"] == "stop":
        return "stop: " + describe_option(option["then"])
    if option["action"] == "no_chip":
        return "take no chip"
    source = " (set aside)" if option["from"] == "aside" else ""
    bonus = f" +{option['last_chip_bonus']} last chip" if option.get("last_chip_bonus") else ""
    return f"take {option['chip']}{source}{bonus}"


def answer_lines(answer, shown):
    """The advice as lines of text: the position, the chance to win, the ranked options."""
    seat = answer["to_move"]
    how = "exact" if answer["exact"] else (
        f"estimate, 95% interval {answer['interval'][0]:.3f}-{answer['interval'][1]:.3f}, "
        f"{answer['games']} games per option")
    lines = [f"dice-duel, {answer['players']} players, seat {seat} to move"
             + (", a chip was taken this round" if answer["round_chip_taken"] else "")]
    for name, counts in answer["chips"].items():
        seats = " ".join(f"{c}" for c in counts[2:])
        lines.append(f"  {name:<15} plate {counts[0]}  aside {counts[1]}  seats {seats}")
    if "dice" in answer:
        left = answer["rolls_left"]
        lines.append(f"dice {' '.join(map(str, answer['dice']))}, {left} roll"
                     f"{'s' if left != 1 else ''} left")
    lines.append(f"chance to win for seat {seat}: {answer['probability']:.4f} ({how})")
    options = answer["options"] if shown is None else answer["options"][:shown]
    if not options:
        return lines
    texts = [describe_option(o) for o in options]
    width = max(map(len, texts))
    lines.append(f"  {'#':>2}  {'choice':<{width}}  {'win':>7}"
                 + ("" if answer["exact"] else "  95% interval"))
    for rank, (option, text) in enumerate(zip(options, texts), 1):
        interval = "" if answer["exact"] else \
            f"  {option['interval'][0]:.3f}-{option['interval'][1]:.3f}"
        lines.append(f"  {rank:>2}  {text:<{width}}  {option['probability']:7.4f}{interval}")
    if len(options) < len(answer["options"]):
        lines.append(f"  … and {len(answer['options']) - len(options)} more: --all shows every option")
    return lines
