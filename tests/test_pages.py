"""The printed strategy pages (`kniffel tables --format html|pdf`): every page at 100 % on A4 (the
PDF's font sizes are the CSS's, measured where Chromium is installed), every column with a header,
no blank cell without a word why, plurals right, every roll listed, each rule with its exact price,
the chart's axes labelled; the PDF alone leaves an existing strategy.html as it was."""
import html
import re
from pathlib import Path

import pytest
from conftest import run, solved

from solver import dice
from solver.lang import Words
from solver.report.pages import page_html, rule_prices
from solver.report.pdf import chromium
from solver.strategy.rule_prices import printed_rule_list, stored_prices


def tables_of(page):
    return re.findall(r"<table.*?</table>", page, re.S)


def rows_of(table):
    return re.findall(r"<tr.*?</tr>", table, re.S)


def width(row):
    """Columns a row spans (colspan counted)."""
    cells = re.findall(r"<t[hd]([^>]*)>", row)
    return sum(int(re.search(r"colspan='(\d+)'", c).group(1)) if "colspan" in c else 1
               for c in cells)


@pytest.mark.parametrize("name", ["kniffel", "yahtzee"])
def test_every_table_has_headers_rows_and_no_blank_cell(name):
    page = page_html(solved(name))
    tables = tables_of(page)
    assert len(tables) > 10
    for table in tables:
        rows = rows_of(table)
        header = [r for r in rows if "<th" in r]
        body = [r for r in rows if "<td" in r]
        assert header and body, table[:200]  # no header without rows
        columns = max(width(r) for r in header)
        for row in body:
            assert width(row) == columns, row  # every column has its header
        assert "<td></td>" not in table and "<th></th>" not in header[0]
    assert "…" not in page


def test_plurals_and_every_roll_of_the_opening():
    table = solved("kniffel")
    page = page_html(table)
    assert "1 Würfe" not in page and ">1 Wurf<" in page
    english = page_html(table, lang="en")
    assert "1 rolls" not in english and ">1 roll<" in english
    for left in ("noch 2 Würfe", "noch 1 Wurf"):
        part = page.split(f"Der erste Wurf des Spiels: {left}")[1].split("</section>")[0]
        listed = re.findall(r"<td class='rolls'[^>]*>(.*?)</td>", part)
        rolls = " ".join(listed).split()
        exceptions = re.findall(r"(\d{5})→", part)
        assert sorted(rolls + exceptions) == sorted("".join(map(str, r))
                                                    for r in dice.KEEPS[:dice.N_ROLLS])


@pytest.mark.parametrize("name", ["kniffel", "yahtzee"])
def test_each_rule_has_its_exact_price(name):
    """The price of each rule is its stored exact price (strategy/rule_prices.py: what the whole
    list loses without it); the page says so (tests/test_rule_prices.py checks the figures)."""
    table = solved(name)
    rule_list = printed_rule_list(table.rules)
    record = stored_prices(table.rules, rule_list)
    keeps, boxes = rule_prices(record)
    assert len(keeps) == len(rule_list.keeps) and len(boxes) == len(rule_list.boxes)
    page = page_html(table)
    first = page.split("</section>")[0]
    shown = [float(x) for x in re.findall(r"<td>([+-]?\d+\.\d\d)</td>", first)]
    assert shown == [round(p, 2) for p in keeps + boxes]
    assert Words(None, table.rules)("page.price_note") in html.unescape(first)  # the pad's language


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_pars_print_once_below_the_rules_that_read_them(lang):
    """A list with both rules that read a box's par (the keep rule aim, the box rule by par)
    prints the pars in one line, each box's par from thumb.box_pars; a list without them none."""
    from solver.presets import read_rules
    from solver.report.pages import rules_page
    from solver.strategy.thumb import AIM, PAR_BOX, BoxRule, KeepRule, RuleList, box_pars
    rules = read_rules("kniffel")
    with_pars = RuleList("t", (KeepRule("kind", 4), KeepRule(AIM)), (BoxRule(PAR_BOX, 0),))
    words = Words(lang, rules)
    page = html.unescape(rules_page(rules, with_pars, [], lang=lang))
    chance = f"{words.box('chance')} {box_pars(rules)[rules.boxes.index('chance')]:.1f}"
    assert page.count(chance) == 1 and 20 < float(chance.split()[-1]) < 25
    without = RuleList("t", (KeepRule("kind", 4),), (BoxRule(None, 0),))
    assert chance not in html.unescape(rules_page(rules, without, [], lang=lang))


def test_the_chart_has_axis_labels():
    page = page_html(solved("kniffel"))
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    w = Words("de")
    assert w("page.axis_x") in svg and w("page.axis_y") in svg and "rotate(-90)" in svg


needs_chromium = pytest.mark.skipif(chromium() is None, reason="no Chromium to print the PDF")


@pytest.mark.slow
@needs_chromium
@pytest.mark.parametrize("name", ["kniffel", "yatzy"])  # yatzy: 15 boxes, the widest chart
def test_printed_pdf_is_at_full_size_on_a4(capsys, tmp_path, table_dir, name):
    """Chromium shrinks a page whose content is wider than A4; the printed sizes are then below
    the CSS's.  Measured: every page A4, the body at least 11 pt, the tables at least 10 pt, the
    headings at their 20 pt."""
    pdfminer = pytest.importorskip("pdfminer.high_level",
                                   reason="pdfminer.six reads the PDF's font sizes")
    from pdfminer.layout import LTChar
    solved(name).save(table_dir)
    code, out, err = run(capsys, "tables", "--rules", name, "--format", "pdf",
                         "--out", str(tmp_path), "--quiet")
    assert code == 0, err
    pages = list(pdfminer.extract_pages(str(tmp_path / name / "strategy.pdf")))
    assert len(pages) >= 7
    for page in pages:
        assert (round(page.width), round(page.height)) == (595, 842)  # A4 in points
        sizes = []

        def walk(item):
            if isinstance(item, LTChar):  # upright text: its size; turned: its width
                sizes.append(item.size if item.upright else item.width)
            for child in getattr(item, "_objs", None) or []:
                walk(child)

        walk(page)
        assert min(sizes) >= 10.4, min(sizes)  # tables 10.5 pt
        body = [s for s in sizes if s > 10.6]
        assert body and min(body) >= 10.95  # notes 11 pt, text 12 pt
        assert max(sizes) == pytest.approx(20, abs=0.05) or max(sizes) < 16  # h1 20 pt, unshrunk


@pytest.mark.slow
@needs_chromium
def test_pdf_alone_keeps_an_existing_html(capsys, tmp_path, table_dir):
    solved("kniffel-basic").save(table_dir)
    folder = tmp_path / "kniffel-basic"
    folder.mkdir()
    (folder / "strategy.html").write_text("mine")
    code, out, err = run(capsys, "tables", "--rules", "kniffel-basic", "--format", "pdf", "--out",
                         str(tmp_path), "--quiet")
    assert code == 0, err
    assert (folder / "strategy.html").read_text() == "mine"
    assert (folder / "strategy.pdf").read_bytes()[:5] == b"%PDF-"
    assert sorted(p.name for p in Path(folder).iterdir()) == ["strategy.html", "strategy.pdf"]


@pytest.mark.slow
def test_the_curve_is_a_fresh_exact_evaluation():
    """The chart's curve holds exact policy evaluations: its first point, the list without any
    rule (reroll all five, the first open box), evaluated again now (strategy/policy_eval.py)."""
    from solver.strategy.policy_eval import evaluate
    from solver.strategy.thumb import RuleList
    table = solved("kniffel")
    curve = stored_prices(table.rules, printed_rule_list(table.rules))["curve"]
    assert curve[0][0] == 0
    assert evaluate(table, RuleList("none")) == pytest.approx(curve[0][1], abs=1e-9)
