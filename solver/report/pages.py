"""Print-ready strategy pages: one HTML file, A4 at 100 % (nothing wider than the page), one
topic a page, large type, no external resources (the plot is inlined), every word in the page's
language (solver/lang).

Pages: the rules of thumb, each with its exact price, and the price of the whole list; the
opening by pattern (a page for 2 and for 1 roll left, every roll listed); and what each open box
costs on a card (the user's, or the typical cards of the cheat sheet).
"""

from ..advice.goal import points_advice
from ..engine.states import Position
from ..lang import Words
from ..rules import UPPER
from ..strategy.opening import opening_patterns
from ..strategy.thumb import AIM, COURSE_BOX, PAR_BOX, box_pars
from .charts import curve_svg, price_bars_svg, signed  # noqa: F401 (signed)
from .charts import escaped as _e
from .tables import box_costs

# Final rolls shown in the box-cost chart: the kinds of roll a turn typically ends on.
TYPICAL_ROLLS = ("66666", "23456", "12345", "12346", "22555", "66644", "66653", "55542",
                 "44461", "33352", "22241", "11163", "66542", "55431", "12256", "13466")

# A4 is 210 mm wide; with 12 mm margins 186 mm are left.  Every table is at most 100 % of that
# and the chart's headers stand upright, so Chromium never shrinks the page to fit: 12 pt body,
# 10.5 pt tables (tests/test_pages.py measures the printed sizes).
CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 12pt; color: #000; margin: 0; }
section.page { page-break-after: always; break-after: page; }
section.page:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 20pt; margin: 0 0 3mm 0; }
h2 { font-size: 15pt; margin: 5mm 0 2mm 0; }
p { margin: 1mm 0 2mm 0; } p.note { font-size: 11pt; }
table { border-collapse: collapse; margin: 1mm 0 4mm 0; font-size: 10.5pt; max-width: 100%; }
table.wide { width: 100%; }
td, th { border: 1px solid #777; padding: 1mm 1.6mm; text-align: right; vertical-align: top; }
th { background: #e8e8e8; } td.l, th.l { text-align: left; }
th.up { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left;
        padding: 1.6mm 0.8mm; white-space: nowrap; }
td.best { font-weight: bold; background: #d8d8d8; }
table.chart td { padding: 1mm 0.9mm; }  /* up to 15 open boxes (Yatzy) side by side */
td.rolls { font-family: "DejaVu Sans Mono", monospace; font-size: 10.5pt; text-align: left;
           line-height: 1.45; }
tr.group td { border-bottom: none; } tr.list td { border-top: none; padding-top: 0; }
span.dice { font-family: "DejaVu Sans Mono", monospace; }
svg.chart { width: 100%; height: auto; }
div.pair { display: flex; gap: 5mm; align-items: flex-start; } div.pair > div { flex: 1 1 0; }
div.pair table { width: 100%; }
"""


def pars_text(rule_list, rules, lang=None):
    """The line of every box's par (thumb.box_pars) that the rules by par read, printed once
    below the rules; "" when no rule of `rule_list` reads a par."""
    if not (any(r.pattern == AIM for r in rule_list.keeps)
            or any(r.box in (PAR_BOX, COURSE_BOX) for r in rule_list.boxes)):
        return ""
    w = Words(lang, rules)
    pars = ", ".join(f"{w.box(b)} {p:.1f}" for b, p in zip(rules.boxes, box_pars(rules)))
    return w("page.pars", pars=pars)


def keep_rule_text(rule, rules, lang=None):
    """A keep rule in the page's language (or `lang`)."""
    w = Words(lang, rules)
    text = w(f"pattern.{rule.pattern}", arg=rule.arg,
             faces=w(f"faces.{rule.arg}") if rule.pattern == "face" else "")
    if rule.pattern == "kind" and rule.arg == 5:
        text = w("page.five_alike")
    if rule.pattern == "run5" and rule.arg == 5:
        text = w("page.large_straight_keep")
    if rule.pattern == "kind_open" and rule.arg == 1:
        text = w("pattern.kind_open_any")
    return text + _condition_text(rule, rules, w)


def _gap_closed(prices):
    """{share, human, optimal} when the price rows hold the optimum, a derived list and the
    sensible human's list (rows: (label, score, exact, ...) in the order price_rows gives)."""
    if len(prices) < 3:
        return None
    optimal, thumb, human = (row[1] for row in prices[:3])
    if optimal <= human:
        return None
    return {"share": 100 * (thumb - human) / (optimal - human), "human": human, "optimal": optimal}


def _condition_text(rule, rules, w):
    """A rule's conditions (open boxes, round, upper bonus) as a tail of its line."""
    parts = []
    if rule.when:
        parts.append(w("page.when", boxes=w("page.or").join(w.box(b) for b in rule.when)))
    if rule.open_min:  # n_open >= open_min: up to round n_boxes - open_min + 1
        parts.append(w("page.until_round", round=rules.n_boxes - rule.open_min + 1))
    if rule.open_max:
        parts.append(w("page.from_round", round=rules.n_boxes - rule.open_max + 1))
    if rule.bonus:
        parts.append(w(f"page.bonus_{rule.bonus}"))
    if getattr(rule, "rolls_left", 0):
        parts.append(w(f"page.rolls_left_{rule.rolls_left}"))
    return "".join(", " + p for p in parts)


def box_rule_text(rule, rules, lang=None):
    """A box rule in the page's language (or `lang`)."""
    w = Words(lang, rules)
    if rule.box == "upper":
        text = w("page.upper", n=rule.min_points)
    elif rule.box == PAR_BOX:
        text = w("page.par")
    elif rule.box == COURSE_BOX:
        text = w("page.course")
    elif rule.box is None:
        text = w("page.most_min", points=rule.min_points) if rule.min_points else w("page.most")
    elif rule.min_points == 1:
        text = w("page.scores", box=w.box(rule.box))
    elif rule.min_points:
        text = w("page.into", points=rule.min_points, box=w.box(rule.box))
    else:
        text = w("page.any", box=w.box(rule.box))
    return text + _condition_text(rule, rules, w)


def display_name(rules, lang=None):
    """The preset's name as its players write it ("Kniffel", "Yahtzee"), for a page's title;
    house rules (a preset with options changed) keep their key."""
    if rules.key != rules.preset:
        return rules.key
    return rules.definition.titled(Words(lang, rules).lang)


def rule_prices(record):
    """(keep prices, box prices): each rule's own exact price from its stored record
    (strategy/rule_prices.py: what the whole list's expected score loses when that one rule is
    dropped).  None without a record."""
    if not record:
        return None
    return [r["price"] for r in record["keeps"]], [r["price"] for r in record["boxes"]]


def _rule_table(texts, prices, w, title):
    """A numbered table of rules with their price (or without, when prices is None)."""
    parts = [f"<h2>{_e(title)}</h2><table class='wide'><tr><th>#</th>"
             f"<th class='l'>{_e(w('page.rule'))}</th>"
             + (f"<th>{_e(w('page.price'))}</th>" if prices else "") + "</tr>"]
    for n, text in enumerate(texts, 1):
        price = f"<td>{signed(prices[n - 1])}</td>" if prices else ""
        parts.append(f"<tr><td>{n}</td><td class='l'>{_e(text)}</td>{price}</tr>")
    return "".join(parts) + "</table>"


def rules_page(rules, rule_list, prices, curve=None, optimum=None, lang=None, record=None):
    """The rules of thumb, each with its price (from `record`, the stored rule prices), the price
    table of the strategies (prices = [(strategy, score, exact?)]) and the chart of the score
    against the number of rules."""
    w = Words(lang, rules)
    each = rule_prices(record)
    parts = [f"<h1>{_e(w('page.rules'))}: {_e(display_name(rules, w.lang))}</h1>",
             _rule_table([keep_rule_text(r, rules, w.lang) for r in rule_list.keeps],
                         each and each[0], w, w("page.keep")),
             f"<p class='note'>{_e(w('page.else_keep'))}</p>",
             _rule_table([box_rule_text(r, rules, w.lang) for r in rule_list.boxes],
                         each and each[1], w, w("page.boxes")),
             f"<p class='note'>{_e(w('page.else_box'))}</p>"]
    pars = pars_text(rule_list, rules, w.lang)
    if pars:  # once for every rule that reads a par
        parts.append(f"<p class='note'>{_e(pars)}</p>")
    if each and record and "score" in record:  # the whole list's exact score, on the rules page
        parts.append("<p class='note'>" + _e(w("page.list_score", n=rule_list.size,
                                               score=record["score"], optimal=record["optimal"]))
                     + "</p>")
    parts.append(f"<p class='note'>"
                 f"{_e(w('page.price_note' if each else 'page.no_rule_prices'))}</p>")
    parts.append(f"</section><section class='page'><h1>{_e(w('page.prices'))}: "
                 f"{_e(display_name(rules, w.lang))}</h1>")
    parts.append(f"<table class='wide'><tr><th class='l'>{_e(w('page.strategy'))}</th>"
                 f"<th>{_e(w('page.score'))}</th><th class='l'>{_e(w('page.how'))}</th></tr>")
    for name, score, exact, *ci in prices:
        interval = f" ± {ci[0]:.1f}" if ci and ci[0] else ""  # an estimate with its 95 % interval
        parts.append(f"<tr><td class='l'>{_e(name)}</td><td>{score:.1f}{interval}</td>"
                     f"<td class='l'>"
                     f"{_e(w('page.exact') if exact else w('page.simulated'))}</td></tr>")
    parts.append("</table>")
    gap = _gap_closed(prices)
    if gap is not None:
        parts.append(f"<p class='note'>{_e(w('page.gap_closed', **gap))}</p>")
    if curve:
        parts.append(f"<h2>{_e(w('page.curve'))}</h2>" + curve_svg(curve, optimum, w)
                     + f"<p class='note'>{_e(w('page.curve_note'))}</p>")
    elif each:  # no derivation's curve: the page shows each rule's price as a bar instead
        parts.append(f"<h2>{_e(w('page.price_chart'))}</h2>" + price_bars_svg(*each, w))
    return "<section class='page'>" + "\n".join(parts) + "</section>"


def opening_page(table, by_left, lang=None):
    """The 252 first rolls by pattern: a page for 2 and one for 1 roll left, every roll listed."""
    rules = table.rules
    w = Words(lang, rules)
    pages = []
    for left in (2, 1):
        if left not in by_left:
            continue
        found = opening_patterns(by_left, left, w.lang)
        parts = [f"<h1>{_e(w('page.opening_left', left=w('rolls_left', n=left)))}</h1>",
                 f"<p class='note'>{_e(w('page.opening_note'))}</p>",
                 f"<table class='wide'><tr><th class='l'>{_e(w('page.pattern'))}</th>"
                 f"<th>{_e(w('page.share'))}</th><th>{_e(w('page.count'))}</th></tr>"]
        for group in found.groups:
            parts.append(f"<tr class='group'><td class='l'><b>{_e(group.label)}</b></td>"
                         f"<td>{100 * group.probability:.1f}%</td>"
                         f"<td>{_e(w('page.rolls', n=len(group.rolls)))}</td></tr>"
                         f"<tr class='list'><td class='rolls' colspan='3'>"
                         f"{_e(' '.join(r for r, _ in group.rolls))}</td></tr>")
        parts.append("</table>")
        if found.exceptions:
            listed = ", ".join(f"{roll}→{keep}" for roll, keep, _ in found.exceptions)
            parts.append(f"<p class='note'><b>{_e(w('page.exceptions'))}:</b> "
                         f"<span class='dice'>{_e(listed)}</span></p>")
        pages.append("<section class='page'>" + "\n".join(parts) + "</section>")
    return "\n".join(pages)


def costs_page(table, card, title="", lang=None):
    """For a card: the cost of each open box for typical final rolls; points - cost of the open
    upper boxes by the number of dice; the cost of the open lower boxes."""
    rules = table.rules
    w = Words(lang, rules)
    sheet = box_costs(table, card, title)
    filled = ", ".join(f"{w.box(b)} {p}" for b, p in card.items()) or w("nothing")
    heading = _e(w("page.costs")) + (f": {_e(title)}" if title else "")
    parts = [f"<h1>{heading}</h1>",
             f"<p>{_e(w('page.card'))}: {_e(filled)}. {_e(w('page.expected'))}: "
             f"<b>{sheet.expected_final_score:.1f}</b></p>",
             f"<p class='note'>{_e(w('page.cost_note'))}</p>", _roll_chart(table, card, sheet, w)]
    parts.append("<div class='pair'>" + "".join(f"<div>{block}</div>" for block in
                                                _upper_table(sheet, w) + _lower_table(sheet, w))
                 + "</div>")
    if sheet.five_of_a_kind:
        best = "; ".join(f"{str(face) * 5}: {text}"
                         for face, text in _five_texts(table, card, w).items())
        parts.append("<p class='note'>" + _e(w("page.five_note",
                                               kniffel=w.box(rules.boxes[rules.kniffel_box]),
                                               best=best)) + "</p>")
    return "<section class='page'>" + "\n".join(parts) + "</section>"


def _roll_chart(table, card, sheet, w):
    """Typical final rolls against the open boxes: the cost of each box (upright headers)."""
    open_boxes = list(sheet.costs)
    rows = ["<table class='wide chart'><tr><th class='l'>" + _e(w("page.roll")) + "</th>"
            + "".join(f"<th class='up'>{_e(w.box(b))}</th>" for b in open_boxes) + "</tr>"]
    for text in TYPICAL_ROLLS:
        roll = tuple(int(c) for c in text)
        options = points_advice(Position(card), table, roll, 0).options
        best = options[0]["expected_final_score"]
        by_box = {}
        for o in options:
            by_box.setdefault(o["box"], o["expected_final_score"])
        cells = []
        for b in open_boxes:
            if b not in by_box:
                cells.append("<td>–</td>")
                continue
            cost = best - by_box[b]
            cls = " class='best'" if cost < 0.05 else ""
            cells.append(f"<td{cls}>{cost:.1f}</td>")
        rows.append(f"<tr><td class='l'><span class='dice'>{text}</span></td>{''.join(cells)}</tr>")
    return "".join(rows) + "</table>"


def _upper_table(sheet, w):
    """The open upper boxes: points - cost for 0-5 dice of the face (* where five of a kind
    follows the extra-Kniffel rules: see the note); nothing when no upper box is open."""
    upper = [b for b in sheet.costs if b in UPPER]
    if not upper:
        return []
    rows = [f"<p class='note'>{_e(w('page.upper_note'))}</p><table>"
            f"<tr><th class='l'>{_e(w('page.box'))}</th>"
            f"<th class='l' colspan='6'>{_e(w('page.dice'))}</th></tr>"
            f"<tr><th></th>" + "".join(f"<th>{n}</th>" for n in range(6)) + "</tr>"]
    for b in upper:
        found, face = sheet.costs[b], UPPER.index(b) + 1
        cells = "".join(f"<td>{face * n - found[face * n]:.1f}</td>" if face * n in found
                        else "<td>*</td>" for n in range(6))
        rows.append(f"<tr><td class='l'>{_e(w.box(b))}</td>{cells}</tr>")
    return ["".join(rows) + "</table>"]


def _lower_table(sheet, w):
    """The open lower boxes and what filling each costs; nothing when none is open."""
    lower = [b for b in sheet.costs if b not in UPPER]
    if not lower:
        return []
    rows = [f"<p class='note'>{_e(w('page.lower_note'))}</p><table>"
            f"<tr><th class='l'>{_e(w('page.box'))}</th>"
            f"<th class='l'>{_e(w('page.cost'))}</th></tr>"]
    for b in lower:
        found = sheet.costs[b]
        text = (f"{found[None]:.1f}" if None in found
                else ", ".join(w("page.cost_with", cost=f"{c:.1f}", points=p)
                               for p, c in found.items()))
        rows.append(f"<tr><td class='l'>{_e(w.box(b))}</td><td class='l'>{_e(text)}</td></tr>")
    return ["".join(rows) + "</table>"]


def _five_texts(table, card, w):
    """The best choice for each five of a kind on `card`, in words."""
    from ..advice.choices import describe_choice, option_as_decision
    return {face: describe_choice(option_as_decision(points_advice(Position(card), table,
                                                                   (face,) * 5, 0).options[0]), w)
            for face in range(1, 7)}


def document(rules, pages, lang=None):
    """The whole HTML file around the pages."""
    lang = Words(lang, rules).lang
    return (f"<!DOCTYPE html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
            f"<title>{_e(rules.key)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(pages) + "\n</body></html>\n")


def build_pages(table, rule_list, prices, curve=None, cards=None, lang=None, record=None):
    """The HTML text of every page: rules of thumb (prices: (label, score, exact) rows; record:
    each rule's stored price), the opening, and the box costs of each (title, card) in `cards`
    (default: the typical cards of the cheat sheet)."""
    from .tables import opening_advice
    rules = table.rules
    pages = [rules_page(rules, rule_list, prices, curve, table.expected_score, lang, record),
             opening_page(table, opening_advice(table), lang)]
    return document(rules, pages + _cost_pages(table, cards, lang), lang)


def _cost_pages(table, cards, lang):
    """A box-cost page for each (title, card) of `cards` (default: the typical cards, titled in
    the page's language); a card these rules cannot have is left out."""
    from .tables import situations
    pages = []
    for title, card in cards if cards is not None else situations(table.rules, lang):
        try:
            pages.append(costs_page(table, card, title, lang))
        except ValueError:  # a card these rules cannot have
            continue
    return pages


def price_rows(rules, prices, lang=None):
    """(label, score, exact, 95 % half-interval or None) rows in the page's language from stored
    price dicts."""
    w = Words(lang, rules)
    return [(w(f"price.{p['strategy']}", n=p.get("rules", 0)), p["score"], p["exact"],
             p.get("ci95"))
            for p in prices]


def thumb_and_prices(table):
    """(rule list, price dicts, curve, rule prices) for the rules page: the stored record's list
    (strategy/rule_prices.py: derived and priced for exactly these rules), its prices against the
    optimum, the sensible human's list and the greedy baseline, and its curve; else the
    heuristic's list, evaluated exactly now, with no rule prices (None) and no curve."""
    from ..strategy.policy_eval import evaluate
    from ..strategy.rule_prices import printed_rule_list, stored_prices
    rule_list = printed_rule_list(table.rules)
    record = stored_prices(table.rules, rule_list)
    optimal = {"strategy": "optimal", "score": table.expected_score, "exact": True}
    if record is not None and "heuristic" in record:
        prices = [optimal, {"strategy": "thumb", "rules": rule_list.size, "score": record["score"],
                            "exact": True},
                  dict(record["heuristic"], strategy="heuristic"),
                  dict(record["greedy"], strategy="greedy")]
        return rule_list, prices, record.get("frontier") or record.get("curve"), record
    score = record["score"] if record else evaluate(table, rule_list)
    prices = [optimal, {"strategy": "heuristic", "rules": rule_list.size, "score": score,
                        "exact": True}]
    return rule_list, prices, None, record


def page_html(table, cards=None, lang=None):
    """The whole HTML document for `table` (cards: [(title, card)], default the typical ones),
    in `lang` (default: the pad's language)."""
    rules = table.rules
    if rules.jokers:  # rules of thumb do not play Knobeln jokers: no rules page
        from .tables import opening_advice
        pages = [opening_page(table, opening_advice(table), lang)] + _cost_pages(table, cards, lang)
        return document(rules, pages, lang)
    rule_list, prices, curve, record = thumb_and_prices(table)
    return build_pages(table, rule_list, price_rows(rules, prices, lang), curve, cards, lang,
                       record)
