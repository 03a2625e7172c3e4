"""The charts of the printed pages, as inline SVG (no external resource, every word in the
page's language): the score of the best list of each length against optimal play, and each
rule's own price."""
import html


def escaped(text):
    """`text` as HTML text."""
    return html.escape(str(text))


_e = escaped


def signed(points):
    """Points with their sign and 2 decimals; 0.00 without a sign when they round to nothing
    (never "-0.00")."""
    text = f"{points:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def curve_svg(curve, optimum, words):
    """An inline SVG line chart of (rules, score) points against the optimum (dashed), with
    its axes labelled."""
    w = words
    width, height, left, bottom = 640, 620, 64, 46
    xs = [n for n, _ in curve]
    lo = 10 * int(min(s for _, s in curve) // 10)
    hi = 10 * int(optimum // 10 + 1)
    x_max = max(xs) or 1

    def x(n):
        return left + (width - left - 10) * n / x_max

    def y(s):
        return height - bottom - (height - bottom - 10) * (s - lo) / (hi - lo)

    points = " ".join(f"{x(n):.1f},{y(s):.1f}" for n, s in curve)
    parts = [f"<svg class='chart' xmlns='http://www.w3.org/2000/svg' "
             f"viewBox='0 0 {width} {height}' "
             f"font-size='15' role='img' aria-label='{_e(w('page.curve'))}'>",
             f"<line x1='{left}' y1='{y(optimum):.1f}' x2='{width - 10}' y2='{y(optimum):.1f}' "
             "stroke='#000' stroke-dasharray='5,4'/>",
             f"<text x='{width - 12}' y='{y(optimum) - 5:.1f}' text-anchor='end'>"
             f"{_e(w('page.optimum'))} {optimum:.1f}</text>",
             f"<polyline points='{points}' fill='none' stroke='#000' stroke-width='2'/>"]
    for s in range(lo, hi + 1, 10 if hi - lo <= 60 else 20 if hi - lo <= 140 else 40):
        parts.append(f"<text x='{left - 5}' y='{y(s) + 5:.1f}' text-anchor='end'>{s}</text>"
                     f"<line x1='{left}' y1='{y(s):.1f}' x2='{width - 10}' y2='{y(s):.1f}' "
                     "stroke='#ccc'/>")
    for n in range(0, x_max + 1, 5):
        parts.append(f"<text x='{x(n):.1f}' y='{height - bottom + 18}' "
                     f"text-anchor='middle'>{n}</text>")
    parts.append(f"<text x='{(left + width) / 2:.0f}' y='{height - 6}' text-anchor='middle'>"
                 f"{_e(w('page.axis_x'))}</text>")
    parts.append(f"<text transform='translate(16 {(height - bottom) / 2:.0f}) rotate(-90)' "
                 f"text-anchor='middle'>{_e(w('page.axis_y'))}</text>")
    return "".join(parts) + "</svg>"


def price_bars_svg(keeps, boxes, words):
    """An inline SVG bar chart of each rule's price (keep rules, then box rules, numbered as on
    the rules page), its axis labelled."""
    w = words
    width, left, right, row, top, bottom = 640, 56, 72, 21, 8, 50
    lo, hi = min(0.0, *keeps, *boxes), max(1.0, *keeps, *boxes)
    step = next(s for s in (1, 2, 5, 10, 20, 50) if (hi - lo) / s <= 8)
    lo, hi = step * (lo // step), step * -(-hi // step)
    height = top + row * (len(keeps) + len(boxes) + 2) + bottom

    def x(v):
        return left + (width - left - right) * (v - lo) / (hi - lo)

    base = top + row * (len(keeps) + len(boxes) + 2) + 4
    parts = [f"<svg class='chart' xmlns='http://www.w3.org/2000/svg' "
             f"viewBox='0 0 {width} {height}' "
             f"font-size='15' role='img' aria-label='{_e(w('page.price_chart'))}'>"]
    for t in range(int(lo), int(hi) + 1, step):  # the grid first: the words are drawn over it
        parts.append(f"<line x1='{x(t):.1f}' y1='{top}' x2='{x(t):.1f}' y2='{base}' stroke='#ccc'/>"
                     f"<text x='{x(t):.1f}' y='{base + 18}' text-anchor='middle'>{t}</text>")
    parts.append(f"<line x1='{x(0):.1f}' y1='{top}' x2='{x(0):.1f}' y2='{base}' stroke='#000'/>")
    halo = "paint-order='stroke' stroke='#fff' stroke-width='5'"
    y = top
    for title, prices in ((w("page.keep_rules"), keeps), (w("page.box_rules"), boxes)):
        parts.append(f"<text x='4' y='{y + 14}' font-weight='bold' {halo}>{_e(title)}</text>")
        y += row
        for n, price in enumerate(prices, 1):
            x0, x1 = sorted((x(0), x(price)))  # the value stands right of the bar and of zero
            parts.append(f"<text x='{left - 8}' y='{y + 14}' text-anchor='end'>{n}</text>"
                         f"<rect x='{x0:.1f}' y='{y + 3}' width='{max(x1 - x0, 0.5):.1f}' "
                         f"height='{row - 6}' "
                         f"fill='#555'/><text x='{x1 + 4:.1f}' y='{y + 14}' {halo}>"
                         f"{signed(price)}</text>")
            y += row
    parts.append(f"<text x='{(left + width - right) / 2:.0f}' y='{height - 6}' "
                 f"text-anchor='middle'>{_e(w('page.axis_price'))}</text>")
    return "".join(parts) + "</svg>"
