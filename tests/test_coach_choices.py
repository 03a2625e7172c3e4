"""benchmarks/coach_choices.py at a tiny size: the budget coach's decisions in two end games,
and --compare telling the same games from altered ones."""
import json

import pytest
from helpers import load_script

# yatzy with three boxes open (full house, chance, yatzy), the upper bonus earned: the coach's
# target table is the sub-game's, solved in a moment
CARD = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=14,"
        "three_kind=12,four_kind=16,small_straight=15,large_straight=20")


@pytest.fixture
def end_game_store(monkeypatch):
    """The opponents' store of the states from CARD on, for every table asked (the whole game's,
    built once in the user's table store, takes half a minute and some 700 MB)."""
    from solver.engine.states import Position
    from solver.rules.cards import parse_card
    from solver.stats import opponents
    stores = {}

    def get_store(table, **_):
        if id(table) not in stores:
            start = Position(parse_card(CARD, table.rules))
            stores[id(table)] = opponents.build(table, min_open=1, start=start)
        return stores[id(table)]

    monkeypatch.setattr(opponents, "get_store", get_store)


def test_decisions_recorded_and_compared(tmp_path, capsys, end_game_store):
    script = load_script("coach_choices", "benchmarks")
    first = tmp_path / "first.json"
    script.main(["--games", "0", "--budget-games", "2", "--start-card", CARD, "--out", str(first)])
    result = json.loads(first.read_text(encoding="utf-8"))
    assert set(result) == {"settings", "budget", "load_average", "machine", "cores"}
    assert result["settings"] == {"rules": "yatzy", "players": 2, "seat": 1, "seed": 24,
                                  "budget": 1.0, "start_card": CARD}
    budget = result["budget"]
    assert budget["games"] == 2 and len(budget["scores"]) == 2
    assert set(budget) == {"games", "seconds", "methods", "sha256", "decisions", "scores"}
    for game in budget["decisions"]:
        fields = [decision.split() for decision in game]
        assert all(len(f) == 5 and f[4] in ("exact", "approximate") for f in fields)
        # every turn ends with a box, each open box filled once, turns in order
        boxes = [(int(f[0]), f[3]) for f in fields if f[3].startswith("box:")]
        assert boxes == sorted(boxes) and [t for t, _ in boxes] == [0, 1, 2]
        assert sorted(b for _, b in boxes) == ["box:chance", "box:full_house", "box:yatzy"]
        assert all(f[3].startswith("keep:") and int(f[1]) > 0 for f in fields
                   if not f[3].startswith("box:"))
    assert sum(budget["methods"].values()) == sum(map(len, budget["decisions"]))
    assert budget["sha256"] == script.decisions_digest(budget["decisions"])
    capsys.readouterr()

    # the same games again, their settings taken from the stored run
    script.main(["--out", str(tmp_path / "again.json"), "--compare", str(first)])
    out = capsys.readouterr().out
    assert "compiled: not played" in out
    assert f"budget: identical (2 games, sha256 {budget['sha256']})" in out

    altered = json.loads(first.read_text(encoding="utf-8"))
    turn, left, dice, _, method = altered["budget"]["decisions"][1][0].split()
    altered["budget"]["decisions"][1][0] = f"{turn} {left} {dice} box:ones {method}"
    altered_path = tmp_path / "altered.json"
    altered_path.write_text(json.dumps(altered), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        script.main(["--out", str(tmp_path / "third.json"), "--compare", str(altered_path)])
    assert exit_.value.code == 1
    out = capsys.readouterr().out
    assert f"budget: 1 of 2 games differ; the first, game 1, at decision 0: before {turn} {left} " \
           f"{dice} box:ones" in out


def test_compare_reports_the_first_game_and_the_count():
    script = load_script("coach_choices", "benchmarks")
    settings = {"rules": "yatzy"}
    before = {"settings": settings, "compiled": {"games": 3, "sha256": "x",
                                                 "scores": [[200, 210], [190, 250], [230, 220]]}}
    assert script.compare(before, before) == (True, ["compiled: identical (3 games, sha256 x)",
                                                     "budget: not played"])
    after = {"settings": settings, "compiled": dict(before["compiled"], sha256="y",
                                                    scores=[[200, 210], [190, 251], [230, 219]])}
    same, lines = script.compare(before, after)
    assert not same and lines[0] == ("compiled: 2 of 3 games differ; the first, game 1, at final "
                                     "scores before [190, 250], now [190, 251]")
    same, lines = script.compare(before, dict(after, settings={"rules": "kniffel"}))
    assert not same and lines[0].startswith("not comparable: settings")
    same, lines = script.compare(before, {"settings": settings})
    assert not same and lines[0] == "compiled: played in one run only"
    budget = {"games": 1, "sha256": "d", "scores": [[200, 210]],
              "decisions": [["0 2 12345 keep:5 exact"]]}
    longer = dict(budget, decisions=[["0 2 12345 keep:5 exact", "0 1 12355 box:chance exact"]])
    same, lines = script.compare({"settings": settings, "budget": budget},
                                 {"settings": settings, "budget": longer})
    assert not same and lines == ["compiled: not played",
                                  "budget: 1 of 1 games differ; the first, game 0, at decision 1: "
                                  "before (none), now 0 1 12355 box:chance exact"]
