"""Print-ready strategy pages: one HTML file, A4, one topic a page, large type, no external
resources (the plot is inlined), box names in the page's language (names.py).

Pages: the rules of thumb with their exact price, the opening by pattern (2 and 1 rolls left),
and what each open box costs on a card (the user's, or the typical cards of the cheat sheet).
"""
import html

from ..advice.position import advise
from ..engine.states import Position
from ..rules import UPPER
from ..strategy.names import box_name, language
from ..strategy.opening import opening_patterns
from ..strategy.thumb import PATTERNS
from .tables import box_costs

# Final rolls shown in the box-cost chart: the kinds of roll a turn typically ends on.
TYPICAL_ROLLS = ("66666", "23456", "12345", "12346", "22555", "66644", "66653", "55542",
                 "44461", "33352", "22241", "11163", "66542", "55431", "12256", "13466")

TEXT = {
    "en": {"rules": "Rules of thumb", "opening": "The first roll of the game",
           "costs": "What each box costs", "keep": "Keeping dice (first match wins)",
           "boxes": "After the last roll (first match wins)", "else_keep": "otherwise: reroll all five",
           "else_box": "otherwise: the first open box on the card",
           "strategy": "strategy", "score": "expected score", "how": "how",
           "exact": "exact", "simulated": "simulated", "left": "{n} rolls left", "left1": "1 roll left",
           "exceptions": "Exceptions (the best keep fits no pattern)", "rolls": "rolls",
           "when": "if {boxes} open", "or": " or ", "into": "{points}+ points: {box}", "scores": "{box} if the dice score there", "upper": "{n}+ of a face: its upper box",
           "any": "{box} with whatever it scores", "most": "the box scoring most",
           "most_min": "the box scoring most, if {points}+", "card": "Filled",
           "nothing": "nothing", "expected": "Expected final score", "roll": "final roll",
           "cost_note": "Points given up (expected final score) by each box against the best box "
                        "for that roll; 0 = best. Blank: the dice may not go there.",
           "upper_note": "Upper boxes: points − cost for 0-5 dice of the face; lower boxes: the "
                         "cost (fill where points − cost is largest).",
           "curve": "Expected score against the number of rules"},
    "de": {"rules": "Faustregeln", "opening": "Der erste Wurf des Spiels",
           "costs": "Was jedes Feld kostet", "keep": "Würfel halten (die erste passende Regel gilt)",
           "boxes": "Nach dem letzten Wurf (die erste passende Regel gilt)",
           "else_keep": "sonst: alle fünf neu würfeln", "else_box": "sonst: das erste offene Feld",
           "strategy": "Strategie", "score": "Erwartete Punkte", "how": "berechnet",
           "exact": "exakt", "simulated": "simuliert", "left": "noch {n} Würfe", "left1": "noch 1 Wurf",
           "exceptions": "Ausnahmen (das beste Halten passt zu keinem Muster)", "rolls": "Würfe",
           "when": "wenn {boxes} offen", "or": " oder ", "into": "ab {points} Punkten: {box}", "scores": "{box}, wenn es zählt", "upper": "ab {n} gleichen: ins passende obere Feld",
           "any": "{box}, was es auch bringt", "most": "das Feld mit den meisten Punkten",
           "most_min": "das Feld mit den meisten Punkten, ab {points}", "card": "Belegt",
           "nothing": "nichts", "expected": "Erwartete Endpunktzahl", "roll": "letzter Wurf",
           "cost_note": "Verlust an erwarteten Endpunkten je Feld gegenüber dem besten Feld für "
                        "diesen Wurf; 0 = bestes Feld. Leer: dort nicht erlaubt.",
           "upper_note": "Oben: Punkte − Kosten für 0-5 Würfel der Augenzahl; unten: die Kosten "
                         "(eintragen, wo Punkte − Kosten am größten ist).",
           "curve": "Erwartete Punkte nach Zahl der Regeln"},
}

CSS = """
@page { size: A4; margin: 14mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 13pt; color: #000; margin: 0; }
section.page { page-break-after: always; break-after: page; }
section.page:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 22pt; margin: 0 0 4mm 0; }
h2 { font-size: 16pt; margin: 5mm 0 2mm 0; }
p.note { font-size: 11pt; margin: 1mm 0 3mm 0; }
ol { margin: 0 0 2mm 0; padding-left: 8mm; } li { margin: 0.6mm 0; }
table { border-collapse: collapse; margin: 1mm 0 3mm 0; }
td, th { border: 1px solid #777; padding: 0.8mm 2mm; text-align: right; }
th { background: #e8e8e8; } td.l, th.l { text-align: left; }
table.chart { font-size: 10pt; } table.chart td.best { font-weight: bold; background: #d8efd8; }
span.dice { font-family: "DejaVu Sans Mono", monospace; letter-spacing: 0.5pt; }
span.small { font-size: 10pt; }
img.plot { width: 150mm; }
"""


_GERMAN_FACES = {1: "Einsen", 2: "Zweien", 3: "Dreien", 4: "Vieren", 5: "Fünfen", 6: "Sechsen"}


def _e(text):
    return html.escape(str(text))


def keep_rule_text(rule, rules, lang=None):
    """A keep rule in the page's language (or `lang`)."""
    lang = lang or language(rules)
    text = PATTERNS[rule.pattern][2 if lang == "de" else 1].format(arg=rule.arg)
    if rule.pattern == "face" and lang == "de":
        text = f"die {_GERMAN_FACES[rule.arg]} halten"
    if rule.pattern == "kind" and rule.arg == 5:
        text = {"de": "fünf gleiche: alle halten", "en": "five alike: keep them all"}[lang]
    if rule.pattern == "run5" and rule.arg == 5:
        text = {"de": "große Straße: alle halten", "en": "large straight: keep it"}[lang]
    if rule.when:
        names = TEXT[lang]["or"].join(box_name(b, rules, lang) for b in rule.when)
        text += ", " + TEXT[lang]["when"].format(boxes=names)
    return text


def box_rule_text(rule, rules, lang=None):
    """A box rule in the page's language (or `lang`)."""
    lang = lang or language(rules)
    t = TEXT[lang]
    if rule.box == "upper":
        return t["upper"].format(n=rule.min_points)
    if rule.box is None:
        return t["most_min"].format(points=rule.min_points) if rule.min_points else t["most"]
    name = box_name(rule.box, rules, lang)
    if rule.min_points == 1:
        return t["scores"].format(box=name)
    return t["into"].format(points=rule.min_points, box=name) if rule.min_points else t["any"].format(box=name)


def rules_page(rules, rule_list, prices, curve=None, optimum=None):
    """The rules of thumb and the price table: prices = [(strategy, score, exact?)]."""
    t = TEXT[language(rules)]
    parts = [f"<h1>{_e(t['rules'])}: {_e(rules.key)}</h1>",
             f"<h2>{_e(t['keep'])}</h2><ol>"]
    parts += [f"<li>{_e(keep_rule_text(r, rules))}</li>" for r in rule_list.keeps]
    parts += [f"</ol><p class='note'>{_e(t['else_keep'])}</p><h2>{_e(t['boxes'])}</h2><ol>"]
    parts += [f"<li>{_e(box_rule_text(r, rules))}</li>" for r in rule_list.boxes]
    parts += [f"</ol><p class='note'>{_e(t['else_box'])}</p>",
              f"<table><tr><th class='l'>{_e(t['strategy'])}</th><th>{_e(t['score'])}</th>"
              f"<th class='l'>{_e(t['how'])}</th></tr>"]
    for name, score, exact in prices:
        parts.append(f"<tr><td class='l'>{_e(name)}</td><td>{score:.1f}</td>"
                     f"<td class='l'>{_e(t['exact'] if exact else t['simulated'])}</td></tr>")
    parts.append("</table>")
    if curve:
        parts.append(curve_svg(curve, optimum, t["curve"]))
    return "<section class='page'>" + "\n".join(parts) + "</section>"


def opening_page(table, by_left):
    """The 252 first rolls by pattern, for 2 and for 1 roll left."""
    rules = table.rules
    lang = language(rules)
    t = TEXT[lang]
    parts = [f"<h1>{_e(t['opening'])}: {_e(rules.key)}</h1>"]
    for left in (2, 1):
        if left not in by_left:
            continue
        found = opening_patterns(by_left, left, german=lang == "de")
        parts.append(f"<h2>{_e(t['left1'] if left == 1 else t['left'].format(n=left))}</h2><table>")
        for group in found.groups:
            shown = " ".join(r for r, _ in group.rolls[:8]) + (" …" if len(group.rolls) > 8 else "")
            parts.append(f"<tr><td class='l'>{_e(group.label)}</td><td>{100 * group.probability:.1f}%</td>"
                         f"<td>{len(group.rolls)} {_e(t['rolls'])}</td>"
                         f"<td class='l'><span class='dice small'>{_e(shown)}</span></td></tr>")
        parts.append("</table>")
        if found.exceptions:
            listed = ", ".join(f"{roll}→{keep}" for roll, keep, _ in found.exceptions)
            parts.append(f"<p class='note'><b>{_e(t['exceptions'])}:</b> "
                         f"<span class='dice'>{_e(listed)}</span></p>")
    return "<section class='page'>" + "\n".join(parts) + "</section>"


def costs_page(table, card, title=""):
    """For a card: the cost of each open box for typical final rolls, and points - cost."""
    rules = table.rules
    t = TEXT[language(rules)]
    sheet = box_costs(table, card, title)
    filled = ", ".join(f"{box_name(b, rules)} {p}" for b, p in card.items()) or t["nothing"]
    heading = _e(t["costs"]) + (f": {_e(title)}" if title else "")
    parts = [f"<h1>{heading}</h1>",
             f"<p>{_e(t['card'])}: {_e(filled)}. {_e(t['expected'])}: "
             f"<b>{sheet.expected_final_score:.1f}</b></p>",
             f"<p class='note'>{_e(t['cost_note'])}</p>"]
    open_boxes = list(sheet.costs)
    parts.append("<table class='chart'><tr><th class='l'>" + _e(t["roll"]) + "</th>"
                 + "".join(f"<th>{_e(box_name(b, rules))}</th>" for b in open_boxes) + "</tr>")
    for text in TYPICAL_ROLLS:
        roll = tuple(int(c) for c in text)
        options = advise(Position(card), table, roll, 0).options
        best = options[0]["expected_final_score"]
        by_box = {}
        for o in options:
            by_box.setdefault(o["box"], o["expected_final_score"])
        cells = []
        for b in open_boxes:
            if b not in by_box:
                cells.append("<td></td>")
                continue
            cost = best - by_box[b]
            cls = " class='best'" if cost < 0.05 else ""
            cells.append(f"<td{cls}>{cost:.1f}</td>")
        parts.append(f"<tr><td class='l'><span class='dice'>{text}</span></td>{''.join(cells)}</tr>")
    parts.append("</table>")
    parts.append(f"<p class='note'>{_e(t['upper_note'])}</p><table class='chart'><tr><th class='l'></th>"
                 + "".join(f"<th>{n}</th>" for n in range(6)) + "</tr>")
    for b in open_boxes:
        found = sheet.costs[b]
        if b in UPPER:
            face = UPPER.index(b) + 1
            cells = "".join(f"<td>{face * n - found[face * n]:.1f}</td>" if face * n in found
                            else "<td></td>" for n in range(6))
        else:
            text = (f"{found[None]:.1f}" if None in found
                    else ", ".join(f"{c:.1f} ({p})" for p, c in found.items()))
            cells = f"<td colspan='6' style='text-align:left'>{_e(text)}</td>"
        parts.append(f"<tr><td class='l'>{_e(box_name(b, rules))}</td>{cells}</tr>")
    parts.append("</table>")
    return "<section class='page'>" + "\n".join(parts) + "</section>"


def document(rules, pages):
    """The whole HTML file around the pages."""
    lang = language(rules)
    return (f"<!DOCTYPE html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
            f"<title>{_e(rules.key)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(pages) + "\n</body></html>\n")


def build_pages(table, rule_list, prices, curve=None, cards=None):
    """The HTML text of every page: rules of thumb (prices: (label, score, exact) rows), the
    opening, and the box costs of each (title, card) in `cards` (default: the typical cards of
    the cheat sheet)."""
    from .tables import SITUATIONS, opening_advice
    rules = table.rules
    pages = [rules_page(rules, rule_list, prices, curve, table.expected_score), opening_page(table, opening_advice(table))]
    for title, card in cards if cards is not None else SITUATIONS.get(rules.box_set, []):
        try:
            pages.append(costs_page(table, card, title))
        except ValueError:  # a card these rules cannot have
            continue
    return document(rules, pages)


def curve_svg(curve, optimum, label):
    """An inline SVG line chart of (rules, score) points against the optimum (dashed)."""
    width, height, left, bottom = 640, 300, 50, 30
    xs = [n for n, _ in curve]
    lo = min(s for _, s in curve)
    lo = 10 * int(lo // 10)
    hi = 10 * int(optimum // 10 + 1)
    x_max = max(xs) or 1

    def x(n):
        return left + (width - left - 10) * n / x_max

    def y(s):
        return height - bottom - (height - bottom - 10) * (s - lo) / (hi - lo)

    points = " ".join(f"{x(n):.1f},{y(s):.1f}" for n, s in curve)
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
             f"font-size='11' role='img' aria-label='{_e(label)}'>",
             f"<line x1='{left}' y1='{y(optimum):.1f}' x2='{width - 10}' y2='{y(optimum):.1f}' "
             "stroke='#000' stroke-dasharray='5,4'/>",
             f"<text x='{width - 12}' y='{y(optimum) - 4:.1f}' text-anchor='end'>{optimum:.1f}</text>",
             f"<polyline points='{points}' fill='none' stroke='#000' stroke-width='2'/>"]
    for s in range(lo, hi + 1, 10 if hi - lo <= 60 else 20):
        parts.append(f"<text x='{left - 4}' y='{y(s) + 4:.1f}' text-anchor='end'>{s}</text>"
                     f"<line x1='{left}' y1='{y(s):.1f}' x2='{width - 10}' y2='{y(s):.1f}' stroke='#ccc'/>")
    for n in range(0, x_max + 1, 5):
        parts.append(f"<text x='{x(n):.1f}' y='{height - bottom + 14}' text-anchor='middle'>{n}</text>")
    parts.append(f"<text x='{(left + width) / 2:.0f}' y='{height - 2}' text-anchor='middle'>{_e(label)}</text>")
    return "".join(parts) + "</svg>"


PRICE_NAMES = {
    "en": {"optimal": "optimal play (the solved table)", "thumb": "these {n} rules of thumb",
           "heuristic": "a sensible human's {n} rules", "greedy": "greedy: most common face, most points now"},
    "de": {"optimal": "optimal (gelöste Tabelle)", "thumb": "diese {n} Faustregeln",
           "heuristic": "Heuristik eines vernünftigen Spielers ({n} Regeln)",
           "greedy": "gierig: häufigste Augenzahl, meiste Punkte"},
}


def price_rows(rules, prices):
    """(label, score, exact) rows in the page's language from stored price dicts."""
    names = PRICE_NAMES[language(rules)]
    return [(names[p["strategy"]].format(n=p.get("rules", 0)), p["score"], p["exact"]) for p in prices]


def thumb_and_prices(table):
    """(rule list, price dicts, curve) for the rules page: the stored derivation if there is one
    for these rules, else the heuristic, evaluated exactly now."""
    from ..strategy.derived import derived
    from ..strategy.heuristic import heuristic
    from ..strategy.policy_eval import evaluate
    entry = derived(table.rules)
    if entry is not None:
        return entry["rule_list"], entry["prices"], entry["curve"]
    rule_list = heuristic(table.rules)
    prices = [{"strategy": "optimal", "score": table.expected_score, "exact": True},
              {"strategy": "heuristic", "rules": rule_list.size, "score": evaluate(table, rule_list),
               "exact": True}]
    return rule_list, prices, None


def page_html(table, cards=None):
    """The whole HTML document for `table` (cards: [(title, card)], default the typical ones)."""
    rules = table.rules
    if rules.jokers:  # rules of thumb do not play Knobeln jokers: no rules page
        from .tables import SITUATIONS, opening_advice
        pages = [opening_page(table, opening_advice(table))]
        for title, card in cards if cards is not None else SITUATIONS.get(rules.box_set, []):
            pages.append(costs_page(table, card, title))
        return document(rules, pages)
    rule_list, prices, curve = thumb_and_prices(table)
    return build_pages(table, rule_list, price_rows(rules, prices), curve, cards)


def chromium():
    """The Chromium (or Chrome) executable that prints the PDF, or None."""
    import shutil
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def html_to_pdf(html_path, pdf_path):
    """Print an HTML file to PDF with headless Chromium (A4 from the page's CSS)."""
    import subprocess
    import tempfile
    from pathlib import Path
    browser = chromium()
    if browser is None:
        raise RuntimeError("PDF needs Chromium (Debian: apt-get install chromium); "
                           "--format html writes the same pages to print from a browser")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-pdf-header-footer", f"--user-data-dir={profile}",
                        f"--print-to-pdf={pdf_path}", Path(html_path).resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
