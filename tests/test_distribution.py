"""The exact score distribution: published figures, hand-worked end games, and simulation."""
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from conftest import run, solved

from solver.engine.states import Position, position_state
from solver.rules import BOXES_13
from solver.stats.distribution import histogram, score_distribution, write_csv
from solver.stats.simulate import simulate


@lru_cache(maxsize=None)
def empty_card(name):
    return score_distribution(solved(name))


def all_zero_but(*open_boxes, **points):
    """A 13-box card with every box but `open_boxes` filled, with 0 unless given in `points`."""
    return {box: points.get(box, 0) for box in BOXES_13 if box not in open_boxes}


@pytest.mark.slow
def test_yahtzee_free_matches_verhoeff():
    dist = empty_card("yahtzee-free")
    assert round(dist.sd, 4) == 59.6117
    assert dist.percentile(50) == 248
    assert abs(dist.mean - 254.5896095) < 1e-7


# Knobeln's whole game takes half a minute: from a card with 10 boxes open (every joker still in
# hand, the upper bonus still to play for) its jokers and bonuses are all there in seconds.
KNOBELN_CARD = {"ones": 3, "twos": 6, "threes": 9}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kniffel", "yahtzee-free", "knobeln", "yatzy"])
def test_mean_is_the_table_value(name):
    table = solved(name)
    card = KNOBELN_CARD if name == "knobeln" else {}
    if card:
        dist = score_distribution(table, Position(card))
        start = position_state(Position(card), table.rules)
        assert abs(dist.mean - (start.card_total + table.value(start))) < 1e-9
    else:
        dist = empty_card(name)
        assert abs(dist.mean - table.expected_score) < 1e-9
    assert abs(dist.probs.sum() - 1) < 1e-12
    assert (dist.probs >= 0).all()
    # every turn fills one box, and every open box is filled once
    fill = dist.box_by_turn
    np.testing.assert_allclose(fill.sum(axis=1), 1, atol=1e-12)
    is_open = [box not in card for box in table.rules.boxes]
    np.testing.assert_allclose(fill.sum(axis=0), np.where(is_open, 1.0, 0.0), atol=1e-12)


def test_lone_kniffel_box_is_the_yahtzee_probability():
    # Score 50 or 0: the optimal player maximises P(five of a kind in three rolls), which is
    # 2,783,176 / 6^10 (keep the most common face).
    table = solved("kniffel-basic")
    dist = score_distribution(table, Position(all_zero_but("kniffel")))
    p = 2_783_176 / 6 ** 10
    assert dist.offset == 0 and len(dist.probs) == 51
    assert dist.probs[50] == pytest.approx(p, abs=1e-15)
    assert dist.probs[0] == pytest.approx(1 - p, abs=1e-15)
    assert dist.kniffel_box_50 == pytest.approx(p, abs=1e-15)
    assert dist.kniffel_rolled == pytest.approx(p, abs=1e-15)
    assert dist.upper_bonus == 0


def test_lone_chance_box_is_five_independent_dice():
    # Chance alone: keep 5s and 6s with two rolls to come (a rerolled die is then worth 4.25)
    # and 4s or more with one (3.5), so each die ends on its own distribution.
    die = {f: Fraction(0) for f in range(1, 7)}
    for first in range(1, 7):
        if first >= 5:
            die[first] += Fraction(1, 6)
            continue
        for second in range(1, 7):
            if second >= 4:
                die[second] += Fraction(1, 36)
                continue
            for third in range(1, 7):
                die[third] += Fraction(1, 216)
    total = {0: Fraction(1)}
    for _ in range(5):
        total = _convolve(total, die)
    dist = score_distribution(solved("kniffel-basic"), Position(all_zero_but("chance")))
    assert dist.offset == 0
    for score, p in total.items():
        assert dist.probs[score] == pytest.approx(float(p), abs=1e-15)
    assert dist.probs.sum() == pytest.approx(1, abs=1e-15)


def _convolve(total, die):
    out = {}
    for s, p in total.items():
        for f, q in die.items():
            out[s + f] = out.get(s + f, 0) + p * q
    return out


def test_last_upper_box_with_the_bonus_at_stake():
    # 45 in ones-fives, only sixes open: keep every six, so each die shows a six at the end with
    # probability 1 - (5/6)^3; three or more sixes also win the 35-point bonus.
    card = all_zero_but("sixes", ones=3, twos=6, threes=9, fours=12, fives=15)
    dist = score_distribution(solved("kniffel-basic"), Position(card))
    p = 1 - (5 / 6) ** 3
    expected = {}
    for c in range(6):
        score = 45 + 6 * c + (35 if c >= 3 else 0)
        expected[score] = math.comb(5, c) * p ** c * (1 - p) ** (5 - c)
    assert dist.offset == 45
    assert ({int(s): float(q) for s, q in zip(dist.scores, dist.probs) if q}
            == pytest.approx(expected, abs=1e-15))
    assert dist.upper_bonus == pytest.approx(sum(q for s, q in expected.items()
                                                 if s >= 45 + 18 + 35), abs=1e-15)
    assert dist.at_least(98) == pytest.approx(dist.upper_bonus, abs=1e-15)
    assert dist.at_least(99) == pytest.approx(expected[104] + expected[110], abs=1e-15)


def test_position_adds_the_card_and_tracks_events_already_won():
    table = solved("kniffel")
    card = {"kniffel": 50, "sixes": 30, "fives": 25, "fours": 20}  # upper bonus already won
    dist = score_distribution(table, Position(card, kniffel_bonuses=0))
    assert dist.offset == 50 + 75 + 35
    assert dist.upper_bonus == 1.0 and dist.kniffel_box_50 == 1.0
    assert abs(dist.mean - dist.expected_value) < 1e-9
    assert 0 < dist.extra_kniffel_bonus < 1


@pytest.mark.slow
def test_simulation_agrees_with_the_exact_distribution():
    """Mean, SD and bonus probability of 20,000 seeded optimal games within 4 standard errors."""
    dist = empty_card("kniffel")
    games = 20_000
    sim = simulate(solved("kniffel"), games, seed=5)
    n = games
    centred = dist.scores - dist.mean
    mu4 = float(np.dot(centred ** 4, dist.probs))
    se_mean = dist.sd / math.sqrt(n)
    se_sd = math.sqrt((mu4 - dist.sd ** 4) / n) / (2 * dist.sd)
    p = dist.upper_bonus
    se_bonus = math.sqrt(p * (1 - p) / n)
    assert abs(sim.scores.mean() - dist.mean) < 4 * se_mean
    assert abs(sim.scores.std(ddof=1) - dist.sd) < 4 * se_sd
    assert abs(sim.upper_bonus.mean() - p) < 4 * se_bonus
    q = dist.kniffel_box_50
    assert abs(sim.kniffel_fifty.mean() - q) < 4 * math.sqrt(q * (1 - q) / n)


def test_histogram_and_csv(tmp_path):
    table = solved("kniffel")  # six open boxes: the whole card's forward pass takes seconds
    dist = score_distribution(table, Position(all_zero_but("ones", "sixes", "three_kind",
                                                          "full_house", "kniffel", "chance")))
    bins = histogram(dist)
    assert sum(p for _, _, p in bins) == pytest.approx(1, abs=1e-12)
    assert all(high - low == 9 for low, high, _ in bins)
    path = tmp_path / "d.csv"
    write_csv(dist, path)
    lines = path.read_text().splitlines()
    assert lines[0] == "score,probability,cdf"
    rows = [line.split(",") for line in lines[1:]]
    assert sum(float(p) for _, p, _ in rows) == pytest.approx(1, abs=1e-12)
    assert float(rows[-1][2]) == pytest.approx(1, abs=1e-12)



@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    solved("kniffel-basic").save(directory)
    return directory


CHANCE_ONLY = ",".join(f"{box}=0" for box in BOXES_13 if box != "chance")


def test_cli_json_text_csv_and_plot(capsys, store, tmp_path):
    import json
    code, out, _ = run(capsys, "distribution", "--rules", "kniffel-basic", "--tables", str(store),
                       "--card", CHANCE_ONLY, "--json", "--csv", str(tmp_path / "d.csv"))
    assert code == 0
    data = json.loads(out)
    assert (data["mean"]
            == pytest.approx(solved("kniffel-basic").values[(1 << 13) - 1 - (1 << 12), 0, 0]))
    assert sum(data["distribution"].values()) == pytest.approx(1, abs=1e-12)
    assert (tmp_path / "d.csv").read_text().startswith("score,probability,cdf\n")
    code, out, _ = run(capsys, "distribution", "--rules", "kniffel-basic", "--tables", str(store),
                       "--card", CHANCE_ONLY, "--quiet", "--lang", "en")
    assert code == 0 and "standard deviation" in out and "median" in out and "#" in out
    pytest.importorskip("matplotlib")
    code, _, err = run(capsys, "distribution", "--rules", "kniffel-basic", "--tables", str(store),
                       "--card", CHANCE_ONLY, "--quiet", "--plot", str(tmp_path / "d.png"))
    assert code == 0, err
    assert (tmp_path / "d.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_plot_without_matplotlib_is_one_line(capsys, store, tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    code, out, err = run(capsys, "distribution", "--rules", "kniffel-basic", "--tables", str(store),
                         "--card", CHANCE_ONLY, "--quiet", "--plot", str(tmp_path / "d.png"))
    assert code == 1
    assert err.strip() == "kniffel: error: --plot needs matplotlib: pip install 'kniffel[plot]'"
    assert not (tmp_path / "d.png").exists()


def test_cli_bad_card_is_exit_2(capsys, store):
    code, _, err = run(capsys, "distribution", "--rules", "kniffel-basic", "--tables", str(store),
                       "--card", "ones=7")
    assert code == 2 and err.startswith("kniffel: error:") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["distribution"], ["simulate", "--games", "10"],
                                     ["tables", "--out", "unused"]])
def test_scorecard_commands_refuse_the_dice_duel(capsys, command):
    code, _, err = run(capsys, *command, "--rules", "dice-duel")
    assert code == 2
    assert err == (f"kniffel: error: kniffel {command[0]} is for the scorecard games, "
                   "not dice-duel (which has solve, advise, play and analyze)\n")


def test_play_of_the_dice_duel_needs_its_players(capsys):
    code, _, err = run(capsys, "play", "--rules", "dice-duel", "--lang", "en")
    assert code == 2
    assert err == "kniffel: error: the Dice Duel has 2-4 players, got 1\n"
    code, _, err = run(capsys, "play", "--rules", "dice-duel")  # the pad's language: German
    assert code == 2 and err == "kniffel: error: das Dice Duel hat 2-4 Spieler, nicht 1\n"
