"""The text of `kniffel advise` in the player's language: the position it understood, the ranked
options with what each costs against the best, and, for a target or a win, the chance of each
option and the trade-off against playing for points; the Dice Duel's chips or table.  The words
are solver/lang's."""
import math
import textwrap

import click

from ..ask.request import Request


def advice_lines(request, advice, tables, shown, words):
    """The whole text of `kniffel advise` for the answered `request` (ask/request.py), its
    `shown` best options (None: all), in `words`' language."""
    query = request.query
    if request.rules.game == "dice-duel":
        from ..duel.multiplayer.game import Table
        if isinstance(query.position, Table):
            from .duel_text import table_lines
            return table_lines(advice.as_dict(), shown, words)
        return chips_lines(advice, query, shown, words)
    if advice.goal.kind == "points":  # the goal asked, or points instead (its fallback line)
        from ..ask.answer import fallback_text
        said = fallback_text(advice, words)
        return (expected_lines(request.rules, advice, shown, words) + ([said] if said else [])
                + building_lines(advice, words) + why_lines(request.rules, advice, shown, words))
    from ..advice.goal import POINTS
    from ..ask.answer import answer
    plain = answer(Request(query, POINTS), tables)  # for points: the trade-off, without its why
    goal = advice.goal
    return goal_lines(request.rules, advice, plain, shown, goal.heading(words),
                      goal.chance_word(words), words, goal.word(words)) + why_lines(
        request.rules, advice, shown, words)


def chips_lines(advice, query, shown, words):
    """The solo Dice Duel advice as text: the chips, then the ranked options of the roll, the
    `shown` best of them (None: all), each with what it costs against the best."""
    from ..dice import KEEPS
    from ..duel.chips import CHIPS_PER_TYPE, TYPES
    from ..duel.words import option_text
    chips, rules = query.position, query.rules
    spec = ", ".join(words("duel.solo_chips", chip=words.chip(t), plate=p, aside=a, mine=m)
                     for t, p, a, m in zip(TYPES, chips.plate, chips.aside, chips.mine)
                     if p != CHIPS_PER_TYPE)
    spec = words("duel.solo_spec", list=spec) if spec else words("duel.all_on_plate")
    lines = [words("duel.solo_head", rules=advice.rules, spec=spec, points=chips.chips_value)]
    if chips.over:
        lines.append(words("duel.solo_over", score=advice.expected_final_score,
                           bonus=rules.last_chip_bonus))
    elif query.roll is None:
        lines.append(words("duel.solo_start", value=advice.expected_final_score))
    if query.roll is None:
        return lines
    roll = list(KEEPS[query.roll])
    lines.append(dice_line(roll, query.rolls_left, words))
    options = advice.options if shown is None else advice.options[:shown]
    best = advice.expected_final_score
    texts = [option_text(option, words, roll) for option in options]
    width = max(map(len, texts))
    lines.append(f"  {'#':>2}  {words('advise.choice'):<{width}}  {words('advise.expected'):>9}")
    for rank, (option, text) in enumerate(zip(options, texts), 1):
        value = option["expected_final_score"]
        lines.append(f"  {rank:>2}  {text:<{width}}  {value:>9.3f}  {words.cost(best - value)}")
    if len(options) < len(advice.options):
        lines.append("  " + words("advise.more", n=len(advice.options) - len(options)))
    return lines


def position_lines(rules, position, words):
    """The position the advice understood (its "position" facts) as lines of text."""
    w = words
    filled = ", ".join(f"{w.box(box)} {points}" for box, points in position["filled"].items()) \
        or w("nothing")
    wrap = textwrap.TextWrapper(width=79, initial_indent="  ", subsequent_indent="          ",
                                break_on_hyphens=False)
    lines = wrap.wrap(w("advise.filled", boxes=filled)) + wrap.wrap(
        w("advise.open", boxes=w.boxes(position["open"]) or w("nothing")))
    needs = position["upper_bonus_needs"]
    state = {0: w("advise.bonus_reached"), None: w("advise.bonus_out")}.get(needs) \
        or w("advise.bonus_needs", n=needs)
    lines.append("  " + w("advise.upper", subtotal=position["upper_subtotal"],
                          bonus=rules.upper_bonus, threshold=rules.upper_bonus_threshold,
                          state=state))
    if rules.extra_bonus:
        paid = position["kniffel_bonuses"]
        lines.append("  " + w("advise.extra", kniffel=kniffel_name(rules, w), n=paid,
                              points=paid * rules.extra_bonus))
    if position["jokers_left"] is not None:
        lines.append("  " + w("advise.jokers", n=position["jokers_left"]))
    if position["dice"] is not None:
        lines.append(dice_line(position["dice"], position["rolls_left"], w))
    return lines


def kniffel_name(rules, words):
    return words.box(rules.boxes[rules.kniffel_box])


def dice_line(roll, rolls_left, words):
    return words("dice_left", dice=words.faces(roll), left=words("rolls_left", n=rolls_left))


def describe_keep(keep, reroll, words):
    text = words("choice.keep", dice=words.faces(keep))
    if not keep:
        return words("choice.reroll_all", text=text)
    return words("choice.reroll", text=text, dice=words.faces(reroll))


def describe(option, rules, words):
    """An option of a scorecard game: "keep 3 3, reroll 1 5 6", "score Chance for 22, ..."."""
    w = words
    if option["action"] == "keep":
        return describe_keep(option["keep"], option["reroll"], w)
    text = w("choice.score", box=w.box(option["box"]), points=option["points"])
    if option.get("kniffel_joker"):
        text = w("choice.as_joker", text=text, kniffel=kniffel_name(rules, w))
    notes = [text]
    if option.get("upper_bonus"):
        notes.append(w("choice.upper_bonus", n=option["upper_bonus"]))
    if option.get("extra_bonus"):
        notes.append(w("choice.extra_bonus", n=option["extra_bonus"],
                       kniffel=kniffel_name(rules, w)))
    text = ", ".join(notes)
    if "joker" in option:
        taken, given = option["joker"]["from"], option["joker"]["to"]
        pairs = zip(taken, given) if isinstance(taken, list) else [(taken, given)]
        text = w("choice.joker", changes=", ".join(f"{a}->{b}" for a, b in pairs), text=text)
    return text


def option_lines(options, shown, texts, columns, words):
    """The table of ranked options: `columns` is [(header, [cell per option])] after the
    choice, the last one (the cost) aligned left; `shown` options of them (None: all), then the
    "more" line."""
    w = words
    shown_options = options if shown is None else options[:shown]
    texts = texts[:len(shown_options)]
    width = max([len(t) for t in texts] + [len(w("advise.choice"))])
    widths = [max([len(h)] + [len(c) for c in cells[:len(shown_options)]]) for h, cells in columns]
    align = [">"] * (len(columns) - 1) + ["<"]  # numbers to the right, the cost (words) to the left
    head = f"  {'#':>2}  {w('advise.choice'):<{width}}" + "".join(
        f"  {h:{a}{n}}" for (h, _), n, a in zip(columns, widths, align))
    lines = [head.rstrip()]
    for rank, text in enumerate(texts):
        lines.append((f"  {rank + 1:>2}  {text:<{width}}" + "".join(
            f"  {cells[rank]:{a}{n}}"
            for (_, cells), n, a in zip(columns, widths, align))).rstrip())
    if len(shown_options) < len(options):
        lines.append("  " + w("advise.more", n=len(options) - len(shown_options)))
    return lines


def expected_lines(rules, advice, shown, words):
    """The whole text of plain `kniffel advise` for a scorecard position."""
    w = words
    lines = [w("advise.head", rules=advice.rules, total=advice.card_total)]
    lines += position_lines(rules, advice.position, w)
    if advice.position["dice"] is None:
        return lines + [w("advise.start", value=advice.expected_final_score)]
    best = advice.expected_final_score
    options = advice.options
    values = [f"{o['expected_final_score']:.3f}" for o in options]
    costs = [w.cost(best - o["expected_final_score"]) for o in options]
    texts = [describe(o, rules, w) for o in (options if shown is None else options[:shown])]
    return lines + option_lines(options, shown, texts, [(w("advise.expected"), values),
                                                        (w("advise.cost"), costs)], w)


def goal_lines(rules, advice, plain, shown, goal_text, chance_name, words, goal_word=None):
    """The text of `advise --target/--opponent`: as plain advise (position, options, cost), the
    chance of the goal for each option, and the trade-off against playing for points.

    advice: the goal's Advice (its probability, expected final score, options); plain: the
    expected-score Advice of the same position; goal_word: the goal in a word for the
    trade-off ("win", "reach 250")."""
    w = words
    lines = [w("advise.goal_head", rules=rules.key, total=advice.card_total, goal=goal_text,
               chance_name=chance_name, chance=w.percent(advice.probability),
               expected=advice.expected_final_score)]
    lines += method_lines(advice, w)
    lines += position_lines(rules, plain.position, w)
    options = advice.options
    if plain.position["dice"] is None or not options:
        cost = plain.expected_final_score - advice.expected_final_score
        key = "advise.trade_start" if cost >= NO_COST else "advise.trade_start_same"
        return lines + [w(key, plain=plain.expected_final_score, cost=cost)]
    top = advice.probability
    chances = [w.percent(o["probability"]) for o in options]
    values = [f"{o['expected_final_score']:.3f}" for o in options]
    # a chance not known (None) is no tie: only the first (ranked for points then) is the best
    costs = [w("best") if i == 0 or top is not None and o["probability"] is not None
             and top - o["probability"] < 5e-10 else "-" if top is None or o["probability"] is None
             else w("cost_chance", chance=w.percent(top - o["probability"]))
             for i, o in enumerate(options)]
    texts = [describe(o, rules, w) for o in (options if shown is None else options[:shown])]
    columns = [(chance_name, chances), (w("advise.expected"), values), (w("advise.cost"), costs)]
    if advice.method == "approximate":  # each option's interval beside its estimate
        spans = [interval_text(o["interval"], w) for o in options]
        columns.insert(1, (w("advise.interval"), spans))
    lines += option_lines(options, shown, texts, columns, w)
    return lines + [trade_off(advice, plain, goal_word or goal_text, chance_name, w)]


NO_COST = 5e-4  # expected points a trade-off line would print as 0.000: it says none instead


def interval_text(interval, words):
    """An option's interval in words: "[12.3%, 45.6%]", or "at most 100%" where its low end is
    not known (no estimate either: only the high end is)."""
    low, high = interval
    if low is None:
        return words("advise.at_most", chance=words.percent(high))
    return f"[{words.percent(low)}, {words.percent(high)}]"


def method_lines(advice, words):
    """How a win chance was found: exact, or an estimate (≈) with the interval that is known
    exactly around it and what its ends mean; and the advice's note (no target table)."""
    w = words
    if advice.method is None:
        return []
    if advice.method == "exact":
        return [w("advise.method_exact")]
    from ..advice.win.approximation import method_words
    lines = [method_words(advice, w)]
    if advice.building is not None or advice.offer is not None:
        return lines + building_lines(advice, w)
    if not advice.note:
        return lines
    # a chance not known at all has said already that there is no target table
    unknown = advice.interval is not None and advice.interval[0] is None
    return lines + [w("advise.target_table_hint" if unknown else "advise.no_target_table")]


def building_lines(advice, words):
    """The line on the win coach's tables: how far their build is, or what it would cost
    (ask/build.py)."""
    from ..ask.build import tables_text
    said = tables_text(words, advice)
    return [] if said is None else [said]


def trade_off(advice, plain, goal_text, chance_name, words):
    """One line on what playing for the goal gives up against playing for points, worded by
    which choice is the riskier one.

    The goal's best option and the points-best option are compared, each followed by play for
    the goal.  Playing for the goal is the riskier choice when the goal is a long shot with the
    points choice (its chance under 50%: the goal lies above the middle of what points play
    reaches, so reaching it means giving up average for the high end); it is the safer choice
    when the goal is likely (protecting a lead or a target below the expectation)."""
    from ..advice.choices import matching_option, option_as_decision
    w = words
    best, points_best = advice.options[0], plain.options[0]
    mirror = matching_option(advice.options, option_as_decision(points_best))
    if (mirror is None or mirror is best or None in (mirror["probability"], best["probability"])
            or abs(mirror["probability"] - best["probability"]) < 5e-10):
        cost = plain.expected_final_score - best["expected_final_score"]
        key = "advise.goal_same" if cost >= NO_COST else "advise.goal_same_free"
        return w(key, plain=plain.expected_final_score, cost=cost)
    cost = points_best["expected_final_score"] - best["expected_final_score"]
    key = "advise.trade_free" if cost < NO_COST else \
        "advise.trade_risky" if mirror["probability"] < 0.5 else "advise.trade_safe"
    return w(key, goal=goal_text, cost=max(0.0, cost), expected=best["expected_final_score"],
             plain=points_best["expected_final_score"], chance_name=chance_name,
             chance=w.percent(best["probability"]), plain_chance=w.percent(mirror["probability"]))


def why_lines(rules, advice, shown, words):
    """What the turn plays for (advice.why, advice/why.py), when asked: a heading, then per
    shown option (or, at the turn's start, for the turn) the boxes it ends in with their
    chances and points, the upper bonus's chance after it and, for a box, the boxes left open;
    wrapped to 79 columns."""
    from ..advice.why import boxes_text, over_budget_text, why_parts
    why, w = advice.why, words
    if why is None:
        return []
    if why.get("available") is False:
        return [w("why.approximate")]
    head = w("why.head_points") if advice.goal.kind == "points" else w(
        "why.head_goal", goal=advice.goal.word(w))
    lines = textwrap.wrap(head, width=79)
    said = over_budget_text(why, w)
    if said is not None:
        more = max(1, math.ceil(why["over_budget"]["work"]))
        lines += textwrap.wrap(f"{said}; {w('why.budget_hint', more=more)}", width=79)
    if advice.preparing == "why":
        lines += textwrap.wrap(w("why.preparing"), width=79)
    wrap = textwrap.TextWrapper(width=79, initial_indent="  ", subsequent_indent="      ",
                                break_on_hyphens=False)
    if not advice.options:
        said = [w("why.start", boxes=boxes_text(why["boxes"], w))]
        if why["upper_bonus_chance"] is not None:
            said.append(w("why.upper", chance=w.percent(why["upper_bonus_chance"])))
        return lines + wrap.wrap("; ".join(said))
    options = advice.options if shown is None else advice.options[:shown]
    for rank, option in enumerate(options, 1):
        parts = why_parts(option, why, w)
        lines += wrap.wrap(f"{rank:>2}  {describe(option, rules, w)}"
                           + (": " + "; ".join(parts) if parts else ""))
    return lines


def echo_lines(lines):
    for line in lines:
        click.echo(line)
