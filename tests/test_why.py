"""Why an option (advice/why.py): the exact chance that the turn ends in each box, checked by
hand, against a plain-Python reference with fractions, against the option's own value and the
score distribution, and against seeded play of the optimal strategy."""
import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import solved
from why_reference import Turn

from solver import advise, dice
from solver.advice import why
from solver.advice.goal import POINTS
from solver.advice.position import checked_query, ranked
from solver.engine.states import Position, card_state
from solver.rules import BOXES_13
from solver.stats.distribution import score_distribution

Z999 = 3.2905  # the two-sided 99.9 % point of the normal distribution


def all_zero_but(*open_boxes, **points):
    """A 13-box card with every box but `open_boxes` filled, with 0 unless given in `points`."""
    return {box: points.get(box, 0) for box in BOXES_13 if box not in open_boxes}


def explained(table, card, faces=None, rolls_left=None, with_bonus=True):
    """The points Advice of a position with its why (the upper bonus's chance too, unless
    with_bonus is False)."""
    query = checked_query(card, table.rules, faces, rolls_left)
    return query, why.explain(query, ranked(query, table, POINTS), table if with_bonus else None)


def chances(option):
    return {b["box"]: b["probability"] for b in option["why"]["boxes"]}


def keep_option(advice, keep):
    return next(o for o in advice.options if o["action"] == "keep" and o["keep"] == list(keep))


def test_a_straight_draw_by_hand():
    """Only the straights open, 2 3 4 5 5 with two rolls to come: hold 2 3 4 5 and throw the
    fifth die until it is a 1 or a 6, at most twice.  The large straight comes with 1 - (2/3)^2
    = 5/9, else the small one (4/9): every 2 3 4 5 x is one."""
    table = solved("kniffel-basic")
    _, advice = explained(table, all_zero_but("small_straight", "large_straight"),
                          [2, 3, 4, 5, 5], 2)
    option = keep_option(advice, [2, 3, 4, 5])
    assert option is advice.options[0]
    assert chances(option) == pytest.approx({"large_straight": 5 / 9, "small_straight": 4 / 9},
                                            abs=1e-15)
    assert [b["points"] for b in option["why"]["boxes"]] == [40, 30]
    assert option["why"]["upper_bonus_chance"] == 0  # the upper boxes are all 0: out of reach


@pytest.mark.parametrize("open_boxes, faces, rolls_left", [
    (("small_straight", "large_straight", "chance"), (1, 2, 3, 4, 6), 2),
    (("fours", "full_house", "three_kind"), (2, 4, 4, 5, 6), 2),
    (("sixes", "kniffel", "four_kind"), (1, 3, 6, 6, 6), 1),
])
def test_every_keep_against_the_plain_reference(open_boxes, faces, rolls_left):
    """Every keep of a position with three boxes open: its chances are the reference's exact
    fractions (to float rounding), and so are the points entered in each box."""
    table = solved("kniffel-basic")
    card = all_zero_but(*open_boxes, ones=3, twos=6, threes=9, fives=15)
    _, advice = explained(table, card, faces, rolls_left, with_bonus=False)
    reference = Turn(table, card)
    keeps = [o for o in advice.options if o["action"] == "keep"]
    assert len(keeps) == len({tuple(k) for k in _sub_keeps(faces)})
    for option in keeps:
        ends = reference.ends(tuple(option["keep"]), rolls_left)
        assert sum(chance for chance, _ in ends.values()) == 1
        got = {b["box"]: b for b in option["why"]["boxes"]}
        assert set(got) == set(ends), option["keep"]
        for box, (chance, total) in ends.items():
            assert got[box]["probability"] == pytest.approx(float(chance), abs=1e-14)
            assert got[box]["points"] == pytest.approx(float(total / chance), abs=1e-12)


def _sub_keeps(faces):
    from itertools import combinations
    return {tuple(sorted(c)) for n in range(5) for c in combinations(faces, n)}


LATE_CARDS = [
    ("kniffel", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "three_kind": 21,
                 "full_house": 25, "chance": 22, "kniffel": 50}),
    ("yahtzee", {"ones": 2, "fives": 20, "sixes": 24, "four_kind": 0, "yahtzee": 50,
                 "large_straight": 40, "chance": 19, "small_straight": 30, "threes": 9}),
    ("knobeln", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "sixes": 24, "chance": 22,
                 "three_kind": 20, "full_house": 25}),
]


@pytest.mark.parametrize("name, card", LATE_CARDS)
def test_the_outcomes_are_the_options_value(name, card):
    """For every option of many rolls (Knobeln's jokers and Yahtzee's joker included): the
    chances sum to 1, and the points of each way the turn ends plus the value of the turn start
    it leaves make the option's expected final score exactly (the play followed is the one
    the value was computed for)."""
    table = solved(name)
    rules = table.rules
    rng = np.random.default_rng(5)
    for _ in range(6):
        faces = dice.KEEPS[int(rng.integers(dice.N_ROLLS))]
        for rolls_left in (0, 1, 2):
            query = checked_query(card, rules, faces, rolls_left)
            advice = ranked(query, table, POINTS)
            play = why.TurnPlay(query.state, advice.view, rolls_left)
            for option in advice.options:
                outcomes = why.option_outcomes(query, advice.view, option, play)
                assert math.fsum(o.probability for o in outcomes) == pytest.approx(1, abs=1e-12)
                value = query.state.card_total + math.fsum(
                    o.probability * (o.points + o.bonus + table.values[o.successor])
                    for o in outcomes)
                assert value == pytest.approx(option["expected_final_score"], abs=1e-9), option


@pytest.mark.parametrize("name, card", LATE_CARDS[:2])
def test_the_turn_start_is_the_distributions_first_turn(name, card):
    """At the turn's start (no dice): each box's chance is the exact distribution's chance
    that the optimal player fills it this turn, and the upper bonus's chance is its."""
    table = solved(name)
    query, advice = explained(table, card)
    dist = score_distribution(table, Position(card))
    first = dict(zip(table.rules.boxes, dist.box_by_turn[0].tolist()))
    assert chances({"why": advice.why}) == pytest.approx(
        {box: p for box, p in first.items() if p > 0}, abs=1e-12)
    assert advice.why["upper_bonus_chance"] == pytest.approx(dist.upper_bonus, abs=1e-12)


def test_a_boxs_upper_bonus_chance_is_the_distributions_after_it():
    """After a box the upper bonus's chance is that of the card it leaves (its distribution),
    and before it the best option's; the boxes left open are the others."""
    table = solved("kniffel")
    card = {"ones": 3, "twos": 6, "threes": 9, "chance": 20, "kniffel": 50, "full_house": 25}
    query, advice = explained(table, card, [4, 4, 4, 5, 6], 0)
    assert advice.why["upper_bonus_chance"] == advice.options[0]["why"]["upper_bonus_chance"]
    for option in advice.options:
        after = dict(card, **{option["box"]: option["points"]})
        expected = score_distribution(table, Position(after)).upper_bonus
        assert option["why"]["upper_bonus_chance"] == pytest.approx(expected, abs=1e-12)
        assert option["why"]["open"] == [b for b in table.rules.boxes
                                         if b not in after]


def test_a_keeps_upper_bonus_chance_mixes_the_boxes_it_ends_in():
    """A keep's chance of the upper bonus is the mean, over the ways its turn ends, of the
    chance each leaves (the distribution's from that card)."""
    table = solved("kniffel")
    card = {"ones": 3, "twos": 6, "chance": 20, "kniffel": 50, "full_house": 25, "fours": 12,
            "large_straight": 40}
    query, advice = explained(table, card, [3, 3, 5, 6, 6], 1)
    option = advice.options[0]
    total = Fraction(0)
    for outcome in why.option_outcomes(query, advice.view, option):
        box = table.rules.boxes[outcome.box]
        after = dict(card, **{box: outcome.points})
        dist = score_distribution(table, Position(after))
        total += Fraction(outcome.probability) * Fraction(dist.upper_bonus)
    assert option["why"]["upper_bonus_chance"] == pytest.approx(float(total), abs=1e-12)


def test_the_bonus_earned_or_lost_is_certain():
    table = solved("kniffel")
    earned = {"ones": 3, "twos": 6, "threes": 9, "fours": 16, "fives": 15, "sixes": 18}
    _, advice = explained(table, earned, [1, 2, 3, 4, 6], 1)
    assert {o["why"]["upper_bonus_chance"] for o in advice.options} == {1.0}
    lost = {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0}
    _, advice = explained(table, lost, [1, 2, 3, 4, 6], 1)
    assert {o["why"]["upper_bonus_chance"] for o in advice.options} == {0.0}


def simulated_turns(table, card, games, seed):
    """The box each of `games` seeded turns from the start of `card` fills, played by the
    simulation's own kernel (stats/simulate_kernels._simulate_turn, the optimal strategy)."""
    from solver.engine.seeded_dice import seed_games
    from solver.stats import simulate_kernels
    from solver.stats.simulate import sub_keep_table
    rules = table.rules
    state = card_state(card, 0, None, rules)
    rng = np.empty(games, dtype=np.uint64)
    seed_games(0, np.uint64(seed), rng)
    filled = np.full(games, state.filled, dtype=np.int64)
    aux = np.full(games, state.aux, dtype=np.int64)
    upper = np.full(games, state.upper, dtype=np.int64)
    zeros = [np.zeros(games, dtype=np.int64) for _ in range(4)]
    simulate_kernels._simulate_turn(table.values, rules.kernel_arrays(), dice.kernel_arrays(),
                                    sub_keep_table(), rules.rolls_per_turn, dice.EMPTY_KEEP,
                                    filled, aux, upper, *zeros, rng,
                                    np.zeros(games, dtype=np.bool_))
    boxes = np.log2(filled ^ state.filled).astype(np.int64)
    return np.bincount(boxes, minlength=rules.n_boxes) / games


def within_interval(exact, seen, games):
    """Whether each simulated share is within the 99.9 % interval of its exact chance."""
    for box, p in exact.items():
        half = Z999 * math.sqrt(max(p * (1 - p), 1e-300) / games)
        assert abs(seen.get(box, 0.0) - p) <= half + 1e-12, (box, p, seen.get(box))
    assert set(seen) <= set(exact)


def _check_against_simulation(name, card, games, seed):
    table = solved(name)
    _, advice = explained(table, card, with_bonus=False)
    exact = chances({"why": advice.why})
    assert math.fsum(exact.values()) == pytest.approx(1, abs=1e-12)
    shares = simulated_turns(table, card, games, seed)
    seen = {table.rules.boxes[b]: float(s) for b, s in enumerate(shares) if s > 0}
    within_interval(exact, seen, games)


def test_the_turn_start_agrees_with_seeded_play():
    _check_against_simulation("kniffel", {"ones": 3, "fives": 15, "kniffel": 50}, 20_000, 3)


@pytest.mark.slow
@pytest.mark.parametrize("name, card", [("kniffel", {}), ("kniffel", {"three_kind": 24}),
                                        ("yahtzee", {"chance": 22})])
def test_the_turn_start_agrees_with_200000_seeded_games(name, card):
    _check_against_simulation(name, card, 200_000, 11)


def simulated_keeps(table, card, faces, rolls_left, keep, games, seed):
    """{box: share} of `games` seeded turns from `card` with `faces` in hand, `keep` held and
    rerolled with `rolls_left` rolls to come, every later decision the optimal strategy's as the
    simulation takes it: the kernels' keep values of the turn (engine/positions.py), the first
    best keep in the simulation's order of keeps, the first best box (no jokers)."""
    from solver.engine.positions import box_options, position_stages
    from solver.stats.simulate import sub_keep_table
    rules, values = table.rules, table.values
    state = card_state(card, 0, None, rules)
    game, moves = rules.kernel_arrays(), dice.kernel_arrays()
    stages = np.empty((rules.rolls_per_turn, dice.N_KEEPS))
    position_stages(state.filled, state.aux, state.upper, values, game, moves,
                     rules.rolls_per_turn, np.empty((dice.N_KEEPS, 1)),
                     np.empty((1, dice.N_ROLLS, 1)), stages)
    order = sub_keep_table()
    best_keep = {}
    for left in range(1, rolls_left):
        candidates = np.where(order >= 0, stages[left][order], -np.inf)
        best_keep[left] = order[np.arange(dice.N_ROLLS), np.argmax(candidates, axis=1)]
    best_box = np.empty(dice.N_ROLLS, dtype=np.int64)
    value, ints = np.empty(rules.n_boxes), [np.empty(rules.n_boxes, dtype=np.int64)
                                            for _ in range(3)]
    for r in range(dice.N_ROLLS):
        box_options(state.filled, state.aux, state.upper, r, values, game, moves.kniffel_face,
                    value, *ints)
        best_box[r] = np.argmax(value)
    rng = np.random.default_rng(seed)
    held = np.full(games, dice.KEEP_INDEX[tuple(keep)])
    final = np.full(games, -1)
    for left in range(rolls_left, 0, -1):
        for _ in range(dice.DICE):  # throw the free dice, one at a time
            short = dice.KEEP_SIZE[held] < dice.DICE
            held[short] = dice.ADD_DIE[held[short], rng.integers(0, 6, int(short.sum()))]
        if left > 1:
            choice = best_keep[left - 1][held]
            stop = (choice == held) & (final < 0)
            final[stop] = held[stop]
            held = np.where(final < 0, choice, held)
    final = np.where(final < 0, held, final)
    counts = np.bincount(best_box[final], minlength=rules.n_boxes) / games
    return {rules.boxes[b]: float(c) for b, c in enumerate(counts) if c > 0}


def test_keeps_agree_with_seeded_play():
    """The README's position: its three best keeps, 20,000 seeded turns each."""
    table = solved("kniffel")
    card = {"ones": 3, "fives": 15, "kniffel": 50}
    _, advice = explained(table, card, [1, 3, 3, 5, 6], 1, with_bonus=False)
    for seed, option in enumerate(advice.options[:3]):
        seen = simulated_keeps(table, card, [1, 3, 3, 5, 6], 1, option["keep"], 20_000, seed)
        within_interval(chances(option), seen, 20_000)


README_POSITIONS = [
    ("kniffel", "ones=3,fives=15,kniffel=50", "13356", 1),
    ("kniffel", "", "1,3,3,5,6", 2),
    ("yahtzee", "chance=22", "66653", 2),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, card, faces, rolls_left", README_POSITIONS)
def test_the_readme_positions_agree_with_200000_seeded_games(capsys, name, card, faces,
                                                             rolls_left):
    """`kniffel advise --why --json` of the README's positions: each of the five best options'
    chances sum to 1 and lie within the 99.9 % interval of 200,000 seeded turns of optimal
    play (a box option ends the turn in its box: certain)."""
    import json

    from conftest import run
    code, out, err = run(capsys, "advise", "--rules", name, "--card", card, "--dice", faces,
                         "--rolls-left", str(rolls_left), "--why", "--json", "--top", "5")
    assert code == 0, err
    answer = json.loads(out)
    table = solved(name)
    parsed = checked_query(card or {}, table.rules, dice.parse_dice(faces), rolls_left)
    filled = {box: points for box, points in answer["position"]["filled"].items()}
    assert parsed.state.card_total == answer["card_total"]
    for seed, option in enumerate(answer["options"]):
        exact = chances(option)
        assert math.fsum(exact.values()) == pytest.approx(1, abs=1e-12)
        if option["action"] == "score":
            assert exact == {option["box"]: 1.0}
            continue
        seen = simulated_keeps(table, filled, dice.parse_dice(faces), rolls_left,
                               option["keep"], 200_000, 100 + seed)
        within_interval(exact, seen, 200_000)


def test_the_api_and_a_target_goal():
    """solver.advise(..., why=True) asks for it; a goal other than points explains its own
    play, without the upper bonus's chance (for points play only)."""
    table = solved("kniffel")
    card = all_zero_but("small_straight", "large_straight", "chance", ones=3, fives=15)
    advice = advise(card, table, dice=[1, 2, 3, 4, 6], rolls_left=1, why=True)
    assert advice.why["play"] == "points" and advice.why["exact"] is True
    assert advice.as_dict()["why"] == advice.why
    assert all("why" in o for o in advice.as_dict()["options"])
    goal = advise(card, table, dice=[1, 2, 3, 4, 6], rolls_left=1, objective="target:60",
                  why=True)
    assert goal.why["play"] == "target:60" and goal.why["upper_bonus_chance"] is None
    best = goal.options[0]
    assert math.fsum(chances(best).values()) == pytest.approx(1, abs=1e-12)
    assert best["why"]["upper_bonus_chance"] is None


LATE = "ones=3,twos=6,threes=9,fives=15,kniffel=50,chance=22,full_house=25"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_text_says_it_in_both_languages(capsys, lang):
    """`advise --why` prints, after the options, a heading and per option the boxes its turn
    ends in with their chances (those of the JSON) and the upper bonus's chance; a box its
    bonus chance before and after and the boxes it leaves open."""
    import json

    from conftest import run

    from solver.lang import Words
    args = ["advise", "--card", LATE, "--dice", "33456", "--rolls-left", "1", "--why",
            "--lang", lang]
    code, out, err = run(capsys, *args, "--all")
    assert code == 0 and not err.strip("\n").count("\n")
    code, data, _ = run(capsys, *args, "--json")
    answer = json.loads(data)
    w = Words(lang, solved("kniffel").rules)
    text = " ".join(out.split())
    assert " ".join(w("why.head_points").split()) in text
    best = answer["options"][0]
    top = best["why"]["boxes"][0]
    assert f"{w.box(top['box'])} {w.percent(top['probability'])}" in text
    before = w.percent(answer["why"]["upper_bonus_chance"])
    for option in answer["options"]:
        after = w.percent(option["why"]["upper_bonus_chance"])
        said = (w("why.upper", chance=after) if option["action"] == "keep"
                else w("why.upper_change", before=before, after=after))
        assert said in text
    box = next(o for o in answer["options"] if o["action"] == "score")
    assert w("why.open", boxes=w.boxes(box["why"]["open"])) in text


def test_the_batch_and_the_errors(capsys, tmp_path):
    """A batch line asks with "why": true (the same JSON as --json --why); a "why" that is not
    true or false, --why with --batch or with the Dice Duel: one line, exit 2."""
    import json

    from conftest import run
    line = {"card": {"ones": 3, "chance": 20}, "dice": [2, 2, 3, 5, 6], "rolls_left": 0,
            "why": True}
    batch = tmp_path / "lines.jsonl"
    batch.write_text(json.dumps(line) + "\n" + json.dumps(dict(line, why="yes")) + "\n")
    code, out, _ = run(capsys, "advise", "--batch", str(batch))
    first, second = out.splitlines()
    code2, alone, _ = run(capsys, "advise", "--card", "ones=3,chance=20", "--dice", "22356",
                          "--rolls-left", "0", "--why", "--json")
    assert code == code2 == 0 and json.loads(first) == json.loads(alone)
    assert json.loads(second) == {"error": "line 2: why must be true or false, got 'yes'"}
    code, out, err = run(capsys, "advise", "--batch", str(batch), "--why")
    assert code == 2 and not out and err.count("\n") == 1 and "--why" in err
    code, out, err = run(capsys, "advise", "--rules", "dice-duel", "--dice", "23456", "--why")
    assert code == 2 and not out and err.count("\n") == 1 and "--why" in err


def test_the_reference_quotes_the_readme_position(capsys):
    """docs/reference.md quotes the why of the README's position as `advise` prints it."""
    import re
    import shlex
    from pathlib import Path

    from conftest import run
    text = (Path(__file__).resolve().parent.parent / "docs" / "reference.md").read_text()
    args, quoted = re.search(r'`(--card "ones=3[^`]*--why --lang en)` says "([^"]*), …"',
                             " ".join(text.split())).groups()
    code, out, _ = run(capsys, "advise", *shlex.split(args))
    assert code == 0 and quoted in " ".join(out.split())


def test_the_upper_bonus_chances_within_a_budget(capsys):
    """The upper bonus's chances are computed when their work, counted as a win's is
    (advice/cost.py), fits the budget: the default fits every turn but a game's first (as
    docs/reference.md says); over it they are null and the answer says how much work they are,
    in the text with the --budget that would compute them."""
    import json

    from conftest import run

    from solver.advice import cost
    from solver.advice.limits import WHY_BUDGET
    table = solved("kniffel")
    rules = table.rules
    assert cost.successors_work(rules, 11, 50) <= WHY_BUDGET < cost.successors_work(rules, 12, 50)
    code, out, _ = run(capsys, "advise", "--dice", "13356", "--rolls-left", "2", "--why",
                       "--json", "--top", "2")
    answer = json.loads(out)
    assert code == 0 and answer["why"]["upper_bonus_chance"] is None
    work = answer["why"]["over_budget"]["work"]
    assert answer["why"]["over_budget"] == {"work": cost.successors_work(rules, 12, 1_000),
                                            "budget": WHY_BUDGET}
    assert all(o["why"]["upper_bonus_chance"] is None for o in answer["options"])
    assert math.fsum(chances(answer["options"][0]).values()) == pytest.approx(1, abs=1e-12)
    code, out, _ = run(capsys, "advise", "--dice", "13356", "--rolls-left", "2", "--why",
                       "--lang", "en")
    text = " ".join(out.split())
    assert f"about {work:.0f} s of work" in text and f"--budget {math.ceil(work)} computes" in text
    card = {"ones": 3, "fives": 15, "kniffel": 50, "chance": 20, "twos": 6, "sixes": 24}
    advice = advise(card, table, dice=[1, 3, 3, 5, 6], rolls_left=1, why=True)
    assert advice.why["upper_bonus_chance"] > 0 and "over_budget" not in advice.why


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_terminal_coach_says_why_at_the_question_mark(capsys, tmp_path, lang):
    """`?` in `kniffel play` shows every choice, then what the five best play for: the lines of
    `advise --why` for the same position (its first roll: seed 11 throws 1 1 3 4 5)."""
    import json

    from click.testing import CliRunner
    from conftest import run

    from solver.advice.why import why_parts
    from solver.cli import cli
    from solver.lang import Words
    store = tmp_path / "store"
    solved("kniffel").save(store)
    result = CliRunner().invoke(cli, ["play", "--seed", "11", "--record", str(tmp_path / "g.json"),
                                      "--lang", lang, "--tables", str(store)],
                                input="?\na\nchance\n", env={"COLUMNS": "1000"})
    code, out, _ = run(capsys, "advise", "--dice", "11345", "--rolls-left", "2", "--why",
                       "--json", "--top", "5")
    answer = json.loads(out)
    w = Words(lang, solved("kniffel").rules)
    assert code == 0 and w("why.head_points") in result.output
    for option in answer["options"]:
        assert "; ".join(why_parts(option, answer["why"], w)) in result.output


def test_analyze_explains_each_players_costliest_decisions(capsys):
    """`kniffel analyze --why`: each player's three costliest decisions (that gave points away)
    carry what the choice made and the best one play for, the figures of `advise --why` at
    that position; the text says both under the decision."""
    import json
    from pathlib import Path

    from conftest import run

    from solver.advice.choices import matching_option
    from solver.ask.analysis import WHY_DECISIONS, report_lines
    from solver.lang import Words
    game = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "kniffel-game.json")
    code, out, _ = run(capsys, "analyze", game, "--why", "--json")
    result = json.loads(out)
    table = solved("kniffel")
    for player in range(len(result["players"])):
        mine = [d for d in result["decisions"] if d["player"] == player]
        costly = sorted((d for d in mine if not d["optimal"]), key=lambda d: -d["loss"])
        explained = [d for d in mine if "why" in d]
        assert sorted(explained, key=lambda d: -d["loss"]) == costly[:WHY_DECISIONS]
    # the latest one explained: its upper bonus's chances are quick to find again
    row = max((d for d in result["decisions"] if "why" in d), key=lambda d: d["round"])
    from solver.game.record import load_record, replay
    points = []
    replay(load_record(game), lambda point, decision: points.append(point), strict=True)
    point = points[result["decisions"].index(row)]
    advice = advise(point.position, table, dice=point.dice, rolls_left=point.rolls_left,
                    why=True)
    assert row["why"]["best"] == advice.options[0]["why"]
    assert row["why"]["choice"] == matching_option(advice.options, row["choice"])["why"]
    assert row["why"]["upper_bonus_chance"] == advice.why["upper_bonus_chance"]
    w = Words("en", table.rules)
    text = "\n".join(report_lines(result, w))  # what the command prints without --json
    assert text.count(w("analyze.why_choice", why="").strip()) == len(
        [d for d in result["decisions"] if "why" in d])


def test_a_server_answers_without_the_bonus_chances_until_their_kernels_are_compiled(
        monkeypatch):
    """Where a question may not compile (a server's worker), the why comes without the upper
    bonus's chances and `preparing` names the feature, whose job compiles them (ask/warm.py)."""
    from solver.ask import warm
    from solver.ask.answer import answer
    from solver.ask.request import read_request
    from solver.ask.tables import Tables
    monkeypatch.setattr(warm, "ready", lambda feature: False)
    monkeypatch.setattr(warm, "COMPILES", [False])
    request = read_request({"card": {"ones": 3, "chance": 20}, "dice": [2, 2, 3, 5, 6],
                            "rolls_left": 1, "why": True})
    advice = answer(request, Tables(preloaded=[solved("kniffel")]))
    assert advice.preparing == "why" and advice.why["upper_bonus_chance"] is None
    assert "over_budget" not in advice.why
    assert math.fsum(chances(advice.options[0]).values()) == pytest.approx(1, abs=1e-12)
    assert warm.steps("why")  # the job's steps: a small why question
