"""`kniffel play` and `kniffel analyze`: whole games through the CLI with scripted input, the game
record, and the analysis of a hand-made game whose mistakes are worked out by hand."""
import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import solved
from helpers import HAND_MADE, hand_worked_losses
from reference import rules_score_options

from solver import advise
from solver.ask.analysis import analyze
from solver.ask.tables import Tables
from solver.cli import cli
from solver.engine.states import Position
from solver.game.card import Game, GameError, parse_box, parse_players
from solver.game.record import record_rules, replay
from solver.presets import get_rules
from solver.rules import PRESETS
from solver.terminal.game import play


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    for name in ("kniffel", "knobeln"):
        solved(name).save(directory)
    return directory


def run(store, *args, input=None):
    """The command in English (--lang en: these tests read the English text)."""
    lang = (["--lang", "en"] if args[0] in ("play", "analyze", "advise")
            and "--lang" not in args else [])
    result = CliRunner().invoke(cli, [*args, *lang, "--tables", str(store)], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def box_decisions(record):
    return [d for t in record["turns"] for d in t["decisions"] if "box" in d]


# --- a whole seeded game, one player ----------------------------------------------------------

LATER_BOXES = ["twos", "3", "fours", "fives", "Sechser", "Dreierpasch", "four_kind", "full house",
               "small_straight", "11", "kniffel"]
SCRIPT = "\n".join(
    ["?", "zz", "9", "", "a", "chance",  # turn 1: coach, a typo, an impossible die, reroll, stop
     "", "", "chance", "99", "einser"]  # turn 2: reroll twice; a full box, a bad number, then ones
    + [line for box in LATER_BOXES for line in ("a", box)]) + "\n"


def play_seeded(store, tmp_path, name="game.json"):
    path = tmp_path / name
    result = run(store, "play", "--seed", "11", "--record", str(path), input=SCRIPT)
    return result, json.loads(path.read_text())


def test_seeded_game_through_the_cli(store, tmp_path):
    result, record = play_seeded(store, tmp_path)
    assert result.exit_code == 0, result.output
    out = result.output
    # bad input is explained and asked again; the game went on to the end
    assert "'zz' is neither dice nor a box" in out
    assert "'9' is not a die face 1-6" in out
    assert "Chance is already filled" in out
    assert "box number must be 1-13, got 99" in out
    assert "coach (2 rolls left" in out  # the ? ranking
    assert record["finished"] is True and record["seed"] == 11 and record["players"] == ["you"]
    assert record["rules"] == PRESETS["kniffel"].as_dict()
    turns = record["turns"]
    assert len(turns) == 13
    # every decision is recorded, in the order typed
    kinds = [[("keep" if "keep" in d else "box", d["rolls_left"]) for d in t["decisions"]]
             for t in turns]
    assert kinds[0] == [("keep", 2), ("box", 1)]
    assert kinds[1] == [("keep", 2), ("keep", 1), ("box", 0)]
    assert kinds[2:] == [[("box", 2)]] * 11
    assert [d["keep"] for t in turns[:2] for d in t["decisions"] if "keep" in d] == [[], [], []]
    boxes = [d["box"] for d in box_decisions(record)]
    assert boxes == ["chance", "ones", "twos", "threes", "fours", "fives", "sixes", "three_kind",
                     "four_kind", "full_house", "small_straight", "large_straight", "kniffel"]
    # a kept nothing means five new dice, so only the box points can be checked against the dice:
    # each equals the reference scorer's points for that box and roll (no five of a kind here
    # needs a joker: the Kniffel box is the last one filled)
    rules = PRESETS["kniffel"]
    card, bonuses = {}, 0
    for d in box_decisions(record):
        options = rules_score_options(rules.as_dict(), tuple(d["dice"]),
                                      set(rules.boxes) - set(card), "open", 0)
        assert d["points"] == max(p for box, p, _ in options if box == d["box"])
        card[d["box"]] = d["points"]
        bonuses += d["extra_bonuses"]
    upper = sum(card[b] for b in rules.boxes[:6])
    total = sum(card.values()) + (35 if upper >= 63 else 0) + 50 * bonuses
    assert record["scores"] == {"you": total}
    assert turns[-1]["card_total"] == total
    assert f"Final score: {total}." in out
    # start cards follow from the turns before
    for before, turn in zip(turns, turns[1:]):
        assert turn["start"]["card"] == {**before["start"]["card"], before["decisions"][-1]["box"]:
                                         before["decisions"][-1]["points"]}
    # the same seed and answers play the same game
    _, again = play_seeded(store, tmp_path, "again.json")
    assert again["turns"] == turns

    # its analysis: every decision, losses that add up, checked against advise at each point
    result = run(store, "analyze", str(tmp_path / "game.json"), "--json")
    assert result.exit_code == 0, result.output
    analysis = json.loads(result.output)
    decisions = analysis["decisions"]
    assert len(decisions) == 16
    table = solved("kniffel")
    for d, (turn, decision) in zip(decisions, [(t, d) for t in turns for d in t["decisions"]]):
        assert d["dice"] == decision["dice"] and d["rolls_left"] == decision["rolls_left"]
        advice = advise(Position(turn["start"]["card"]), table, tuple(d["dice"]), d["rolls_left"])
        if "keep" in decision:
            chosen = next(o for o in advice.options if o["action"] == "keep"
                          and o["keep"] == decision["keep"])
        else:
            chosen = next(o for o in advice.options if o["action"] == "score"
                          and o["box"] == decision["box"])
        assert d["loss"] == pytest.approx(
            advice.expected_final_score - chosen["expected_final_score"], abs=1e-9)
    player = analysis["players"][0]
    assert player["decisions"] == 16 and player["score"] == total and player["finished"]
    assert player["loss"] == pytest.approx(sum(d["loss"] for d in decisions), abs=1e-9)
    assert player["optimal"] == sum(d["loss"] < 1e-9 for d in decisions)
    text = run(store, "analyze", str(tmp_path / "game.json")).output
    assert (f"you: score {total}; gave away {player['loss']:.2f} points, "
            f"{player['optimal']} decision" in text)


# --- dice typed at the table, two players, interruptions ----------------------------------------

def test_real_dice_keeps_jokers_and_bonuses(store, tmp_path):
    path = tmp_path / "real.json"
    script = "\n".join([
        "13356", "335", "7", "1 2 3", "3,6", "3 3 3", "33", "kniffel",  # a Kniffel: 50
        "66666", "a", "kniffel", "sixes",  # an extra Kniffel in sixes: 30 and +50
        "11111", "a", "full house",  # joker: full house 25 and +50
        "12", "q"]) + "\n"
    result = run(store, "play", "--real-dice", "--record", str(path), input=script)
    assert result.exit_code == 0, result.output
    assert "'7' is not a die face 1-6" in result.output
    assert "roll 2 dice (or all five), got 3" in result.output
    assert "Kniffel is already filled (50)" in result.output
    assert "! roll 5 dice, got 2" in result.output  # the last roll: two faces only
    record = json.loads(path.read_text())
    assert record["seed"] is None and record["real_dice"] is True and record["finished"] is False
    first, second, third = record["turns"]
    assert first["decisions"] == [
        {"dice": [1, 3, 3, 5, 6], "rolls_left": 2, "keep": [3, 3, 5]},
        {"dice": [3, 3, 3, 5, 6], "rolls_left": 1, "keep": [3, 3, 3]},
        {"dice": [3, 3, 3, 3, 3], "rolls_left": 0, "jokers": [], "box": "kniffel", "points": 50,
         "extra_bonuses": 0}]
    assert second["decisions"][-1]["points"] == 30 and second["decisions"][-1]["extra_bonuses"] == 1
    assert third["decisions"][-1]["points"] == 25 and third["decisions"][-1]["extra_bonuses"] == 1
    assert [t["card_total"] for t in record["turns"]] == [50, 130, 205]
    assert record["scores"] == {"you": 205}
    result = run(store, "analyze", str(path), "--json")
    players = json.loads(result.output)["players"]
    assert players[0]["decisions"] == 5 and players[0]["finished"] is False


def test_two_players_share_the_card(store, tmp_path):
    path = tmp_path / "two.json"
    script = "a\nchance\na\nchance\na\nones\nq\nn\nq\ny\n"  # q asks first with two players
    result = run(store, "play", "--players", "Anna,Ben", "--seed", "5", "--record", str(path),
                 input=script)
    assert result.exit_code == 0, result.output
    assert "Round 1, Anna's turn" in result.output and "Round 1, Ben's turn" in result.output
    header = next(line for line in result.output.splitlines() if "Anna" in line and "Ben" in line)
    assert header.split() == ["Anna", "Ben"]
    record = json.loads(path.read_text())
    assert record["players"] == ["Anna", "Ben"] and record["finished"] is False
    turns = record["turns"]
    assert [(t["player"], t["round"]) for t in turns] == [(0, 1), (1, 1), (0, 2)]
    anna_chance = turns[0]["decisions"][0]["points"]
    assert turns[1]["start"]["card"] == {}  # Ben's own column
    assert turns[2]["start"]["card"] == {"chance": anna_chance}
    assert record["scores"] == {"Anna": anna_chance + turns[2]["decisions"][0]["points"],
                                "Ben": turns[1]["decisions"][0]["points"]}
    result = run(store, "analyze", str(path))
    assert result.exit_code == 0
    assert "Anna: score" in result.output and "Ben: score" in result.output


def test_end_of_input_and_ctrl_c_save_the_game(store, tmp_path):
    # input ends mid-turn: a short line and exit 0 (not an interruption), the keep already made
    # is saved
    path = tmp_path / "eof.json"
    result = run(store, "play", "--seed", "1", "--record", str(path), input="\n")
    assert result.exit_code == 0 and "end of input: the game is saved and stops" in result.output
    record = json.loads(path.read_text())
    assert [d["keep"] for d in record["turns"][0]["decisions"]] == [[]]
    assert "saved (unfinished)" in result.output

    from solver.terminal.card import Terminal

    class Interrupting(Terminal):
        answers = ["", "a", "chance", ""]

        def ask(self, prompt):
            if not self.answers:
                raise KeyboardInterrupt
            return self.answers.pop(0)

        def say(self, text=""):
            pass

    path = tmp_path / "interrupted.json"
    game = Game("kniffel", ["you"], seed=2)
    status = play(game, Tables(preloaded=[solved("kniffel")]), path, Interrupting(),
                  rng=np.random.default_rng(2))
    assert status == "interrupted"
    record = json.loads(path.read_text())
    assert [len(t["decisions"]) for t in record["turns"]] == [2, 1]
    assert record["scores"]["you"] == record["turns"][0]["decisions"][1]["points"]


def test_bad_options_are_one_line_errors(store, tmp_path):
    for args, message in [(["play", "--lang", "en", "--players", "Anna,Anna"],
                           "player names must differ"),
                          (["play", "--lang", "en", "--players", "0"], "players must be 1-10"),
                          (["play", "--lang", "en", "--seed", "3", "--real-dice"],
                           "--seed has no use with --real-dice"),
                          (["analyze", "--lang", "en", str(tmp_path / "missing.json")],
                           "cannot read")]:
        result = run(store, *args)
        assert result.exit_code == 2 and message in result.output, result.output


# --- the analysis of a hand-made game with known mistakes -------------------------------------

def test_analysis_of_a_hand_made_game(store, tmp_path):
    table = solved("kniffel")
    result = analyze(HAND_MADE, Tables(preloaded=[table]))
    decisions = result["decisions"]
    assert len(decisions) == 20
    # the hand-worked last decisions
    tail = [d["loss"] for d in decisions[-4:]]
    assert tail == pytest.approx([float(x) for x in hand_worked_losses()], abs=1e-9)
    assert float(hand_worked_losses()[0]) == pytest.approx(4.2269, abs=1e-4)
    assert decisions[-4]["best"] == {"box": "ones", "jokers": [], "points": 2}
    assert decisions[-3]["best"] == {"keep": [1]}
    assert decisions[-2]["best"] == {"keep": [1, 1]}
    # every earlier decision: its loss from advise at the card written out here by hand
    cards = [{}]
    for turn in HAND_MADE["turns"][:-1]:
        last = turn["decisions"][-1]
        cards.append({**cards[-1], parse_box(last["box"], table.rules): last["points"]})
    expected = []
    for card, turn in zip(cards, HAND_MADE["turns"]):
        for d in turn["decisions"]:
            advice = advise(Position(card), table, tuple(d["dice"]), d["rolls_left"])
            if "keep" in d:
                option = next(o for o in advice.options if o["action"] == "keep"
                              and o["keep"] == d["keep"])
            else:
                box = parse_box(d["box"], table.rules)
                option = next(o for o in advice.options if o["action"] == "score"
                              and o["box"] == box)
            expected.append(advice.expected_final_score - option["expected_final_score"])
    assert [d["loss"] for d in decisions] == pytest.approx(expected, abs=1e-9)
    # scratching with two rolls left
    assert decisions[13]["loss"] > 1 and "keep" in decisions[13]["best"]
    player = result["players"][0]
    assert player["name"] == "Eva" and player["finished"]
    assert player["score"] == 24 + 20 + 25 + 9 + 8 + 8 + 40 + 30 + 28 + 25 + 0 + 19 + 3 + 35
    assert player["loss"] == pytest.approx(sum(expected), abs=1e-9)
    assert player["optimal"] == sum(x < 1e-9 for x in expected)
    # the same through the CLI, text and JSON
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND_MADE))
    out = run(store, "analyze", str(path)).output
    assert (f"Eva: score 274; gave away {sum(expected):.2f} points, "
            f"{player['optimal']} decisions of 20 optimal") in out
    assert "Chance (19)" in out and "best: Ones (2)" in out
    data = json.loads(run(store, "analyze", str(path), "--json").output)
    assert data["players"][0]["loss"] == pytest.approx(sum(expected), abs=1e-9)


def test_analysis_of_knobeln_jokers(store):
    """A joker's value is the advisor's joker option; the last box with and without a joker."""
    table = solved("knobeln")
    rules = table.rules
    boxes = [b for b in rules.boxes if b != "large_straight"]
    fillers = {"ones": [1, 1, 2, 3, 4], "twos": [2, 2, 3, 4, 6], "threes": [3, 3, 1, 2, 6],
               "fours": [4, 4, 1, 2, 6], "fives": [5, 5, 1, 2, 6], "sixes": [6, 6, 1, 2, 3],
               "three_kind": [2, 2, 2, 4, 5], "four_kind": [1, 3, 3, 3, 3],
               "full_house": [2, 2, 5, 5, 5], "small_straight": [1, 2, 3, 4, 6],
               "kniffel": [1, 1, 1, 1, 2], "chance": [6, 6, 5, 5, 4]}
    turns = [{"decisions": [{"dice": fillers[b], "rolls_left": 2, "box": b}]} for b in boxes]
    rolls = [{"dice": [1, 2, 3, 4, 6], "rolls_left": left, "keep": [1, 2, 3, 4]} for left in (2, 1)]
    last = {"dice": [1, 2, 3, 4, 6], "rolls_left": 0, "jokers": [[6, 5]], "box": "large_straight"}
    record = {"rules": rules.as_dict(), "players": ["you"],
              "turns": turns + [{"decisions": rolls + [last]}]}
    result = analyze(record, Tables(preloaded=[table]))
    final = result["decisions"][-1]
    assert final["loss"] == 0 and final["choice"]["points"] == 40
    no_joker = dict(last, jokers=[])
    result = analyze(dict(record, turns=turns + [{"decisions": rolls + [no_joker]}]),
                     Tables(preloaded=[table]))
    # the last box: points only
    assert result["decisions"][-1]["loss"] == pytest.approx(40.0, abs=1e-12)
    best = result["decisions"][-1]["best"]  # 6 -> 5 or 1 -> 5: both make a large straight
    assert (best["box"] == "large_straight" and best["points"] == 40
            and best["jokers"] in ([[6, 5]], [[1, 5]]))
    # mid-game, the value of a joker move equals the advisor's option for it
    record = {"rules": "knobeln", "turns": [{"decisions": rolls + [last]}]}
    advice = advise(Position({}), table, (1, 2, 3, 4, 6), 0)
    option = next(o for o in advice.options if o.get("joker") == {"from": 6, "to": 5}
                  and o["box"] == "large_straight")
    d = analyze(record, Tables(preloaded=[table]))["decisions"][-1]
    assert d["expected_choice"] == option["expected_final_score"]
    assert d["loss"] == pytest.approx(advice.expected_final_score - option["expected_final_score"],
                                      abs=1e-12)


@pytest.mark.parametrize("change, message", [
    (lambda r: r["turns"][1]["decisions"][0].update(keep=[6, 6, 6]), "cannot keep 6 6 6"),
    (lambda r: r["turns"][1]["decisions"][1].update(dice=[1, 1, 2, 3, 4]),
     "hold the kept dice 5 5 5"),
    (lambda r: r["turns"][3]["decisions"][0].update(box="sixes"), "Sixes is already filled (24)"),
    (lambda r: r["turns"][3]["decisions"][0].update(points=12), "threes scores 9 with these dice"),
    (lambda r: r["turns"][0]["decisions"][0].update(rolls_left=1), "2 rolls are left here"),
    (lambda r: r["turns"][0]["decisions"][0].update(dice=[1, 2, 3, 4, 7]), "die face 7 is not 1-6"),
    (lambda r: r["turns"][5]["decisions"][0].pop("box"), "exactly one of \"keep\" and \"box\""),
    (lambda r: r["turns"][2].update(start={"card": {"sixes": 24}}), "the recorded start card"),
    (lambda r: r.update(rules="nonsense"), "unknown rules"),
    (lambda r: r["turns"].append(r["turns"][0]), "the game is over"),
])
def test_bad_records_are_one_line_errors(store, tmp_path, change, message):
    record = json.loads(json.dumps(HAND_MADE))
    change(record)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = run(store, "analyze", str(path))
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert result.output.startswith("kniffel: error: ") and result.output.count("\n") == 1


# --- the game's bookkeeping under every rule set ------------------------------------------------

def kniffel_box_state(rules, card):
    kniffel = rules.boxes[rules.kniffel_box]
    return "open" if kniffel not in card else str(card[kniffel])


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_games_score_as_the_reference_says(name):
    """Random legal play, many five of a kinds: every box the game offers, with its points and
    bonus, is what the independent reference scorer allows; totals add up; the record replays."""
    rules = PRESETS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(6):
        game = Game(rules, ["A", "B"], real_dice=True)  # dice chosen here: no seed rolls them
        expected_bonus = {"A": 0, "B": 0}
        while not game.over:
            turn = game.next_turn()
            column = turn.column
            while not turn.done:
                if rng.random() < 0.3:  # a five of a kind now and then, to reach the joker rules
                    face = int(rng.integers(1, 7))
                    turn.roll([face] * turn.n_to_roll if not turn.kept
                              else [turn.kept[0]] * turn.n_to_roll)
                else:
                    turn.roll(rng.integers(1, 7, size=turn.n_to_roll).tolist())
                if turn.rolls_left and rng.random() < 0.5:
                    turn.keep(tuple(sorted(rng.choice(turn.dice, size=int(rng.integers(0, 5)),
                                                      replace=False))))
                    continue
                if turn.rolls_left == 0 and column.jokers_left and rng.random() < 0.5:
                    turn.joker(turn.dice[0], turn.dice[0] % 6 + 1)
                offered = turn.options()
                reference = rules_score_options(rules.as_dict(), turn.hand,
                                                set(rules.boxes) - set(column.card),
                                                kniffel_box_state(rules, column.card),
                                                column.kniffel_bonuses)
                best = {}
                for box, points, bonus in reference:
                    best[box] = max(best.get(box, (0, 0)), (points, bonus))
                assert {b: (p, paid * rules.extra_bonus)
                        for b, (p, paid) in offered.items()} == best
                box = list(offered)[int(rng.integers(len(offered)))]
                points, paid = turn.score(box)
                expected_bonus[column.name] += paid * rules.extra_bonus
        record = json.loads(json.dumps(game.record()))
        for column in game.columns:
            card = column.card
            upper = sum(card[b] for b in rules.boxes[:6])
            total = sum(card.values()) \
                + (rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0) \
                + expected_bonus[column.name]
            assert record["scores"][column.name] == total
        assert replay(record).totals() == record["scores"]
        assert record_rules(record["rules"]) == rules
    # the analysis of the last game: a loss for every decision, and each player's last box
    # (nothing left to come) is worth exactly the final score
    result = analyze(record, Tables(preloaded=[solved(name)]))
    assert len(result["decisions"]) == sum(len(t["decisions"]) for t in record["turns"])
    assert all(d["loss"] >= 0 and d["expected_best"] >= d["expected_choice"] - 1e-9
               for d in result["decisions"])
    for player in result["players"]:
        last = [d for d in result["decisions"] if d["name"] == player["name"]][-1]
        assert last["expected_choice"] == pytest.approx(record["scores"][player["name"]], abs=1e-9)
        assert player["score"] == record["scores"][player["name"]]


def test_parsing_helpers():
    rules = PRESETS["yatzy"]
    assert parse_box("15", rules) == "yatzy" and parse_box("Kniffel", rules) == "yatzy"
    assert parse_box("paar", rules) == "one_pair"
    with pytest.raises(GameError, match="box number must be 1-15"):
        parse_box("16", rules)
    assert parse_players("1") == ["you"] and parse_players("3") == ["P1", "P2", "P3"]
    assert parse_players(" Anna, Ben ") == ["Anna", "Ben"]
    custom = get_rules("kniffel-basic", five_of_a_kind_is_full_house=True, rolls_per_turn=2)
    assert record_rules(custom.as_dict()) == custom
    assert record_rules("yahtzee") == PRESETS["yahtzee"]
