"""Property-based fuzzing of every parser a person or a program feeds: card specs, dice, chips,
rules files (random structure, types and bytes, JSON and TOML), batch lines (random bytes) for
the scorecard and the Dice Duel batches, and game records (random JSON and mutated valid ones).

The property is always the same: only the project's own errors come out (ValueError naming the
problem from the parse_* functions, RulesError, GameError, TableError; from the command line a
one-line "kniffel: error: ..." with exit code 2), never another exception; and a batch answers
every input line with exactly one output line, in order.

Every example is small and nothing is solved: the table store holds kniffel-basic and dice-duel,
and the generated input never names other valid rules.
"""
import json
import math

import pytest
from click.testing import CliRunner
from conftest import run, solved
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from solver.cli import main

# Inner-module imports, kept in this one block so they can be re-pointed when solver/ is
# restructured.
from solver.dice import parse_dice, validate_dice
from solver.duel.chips import TYPE_ALIASES, TYPES
from solver.duel.rules import DUEL_OPTIONS
from solver.duel.states import parse_chips
from solver.engine.states import Position, position_state
from solver.engine.store import TableError
from solver.game.card import Game, GameError, parse_box, parse_faces, parse_players
from solver.presets import get_rules, read_rules
from solver.rules import BOX_ALIASES, BOXES_13, BOXES_YATZY, PRESETS, SCORECARD_OPTIONS, RulesError
from solver.rules.cards import parse_card
from solver.rules.scoring import JOKER_MODES

BASIC = "kniffel-basic"
PROJECT_ERRORS = (ValueError, RulesError, GameError, TableError)  # exactly these types

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])
FEWER = settings(FUZZ, max_examples=80)


def raises_only_project_errors(call, *args, allowed=PROJECT_ERRORS):
    """call(*args), or None when it raised one of `allowed` (by exact type: a UnicodeDecodeError
    or a JSONDecodeError is a ValueError subclass, but not a message the project wrote)."""
    try:
        return call(*args)
    except Exception as exc:  # noqa: BLE001 - the property is about which exceptions escape
        if type(exc) in allowed:
            return None
        raise


def assert_cli_outcome(code, out, err):
    """Exit 0, or a one-line error with exit 2 (1 for a command that cannot run here)."""
    assert "Traceback" not in err, err
    assert code in (0, 1, 2), (code, err)
    if code:
        assert err.startswith("kniffel: error: ") and len(err.strip().splitlines()) == 1, err


def remove_other_tables(store):
    """Remove what an earlier failing example solved into the store; returns the names."""
    extra = [p for p in store.iterdir() if p.stem not in (BASIC, "dice-duel")]
    for path in extra:
        path.unlink()
    return [p.name for p in extra]


def assert_nothing_solved(store):
    """Only the two tables of the store are there."""
    extra = remove_other_tables(store)
    assert not extra, f"fuzzed input made the CLI solve and save other tables: {extra}"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fuzz-store")
    for name in (BASIC, "dice-duel"):
        solved(name).save(directory)
    return directory


# --- strategies -----------------------------------------------------------------------------

HUGE = st.sampled_from([2**63 - 1, 2**63, 2**64, 2**64 + 1, 10**30, -(2**63) - 1, -(10**30)])
SCALARS = (st.none() | st.booleans() | st.integers(-10, 400) | st.integers() | HUGE
           | st.floats() | st.text(max_size=12))
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: (st.lists(inner, max_size=4)
                            | st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=10)

BOX_NAMES = (st.sampled_from(sorted(set(BOXES_13) | set(BOXES_YATZY) | set(BOX_ALIASES)))
             | st.text(max_size=8))
POINT_TEXT = (st.integers(-5, 60).map(str) | HUGE.map(str) | st.text(max_size=5)
              | st.sampled_from(["", " 3", "3 ", "٣", "３", "1e3", "0x10", "+3", "-0", "3.0",
                                 "nan"]))
CARD_TEXT = (st.lists(st.tuples(BOX_NAMES, st.sampled_from(["=", ":", "=="]), POINT_TEXT),
                      max_size=8)
             .map(lambda items: ",".join(f"{name}{sep}{points}" for name, sep, points in items))
             | st.text(max_size=40))


CARD_DICTS = st.dictionaries(BOX_NAMES, st.integers(-5, 60) | JSON_VALUES, max_size=8)
FACE_TEXT = st.sampled_from(list("0123456789 ,;-+.x") + ["٣", "６", "²", "\x00", "\n"])
DICE_TEXT = st.lists(FACE_TEXT, max_size=12).map("".join) | st.text(max_size=12)
DICE_LISTS = st.lists(st.integers(-1, 8) | HUGE | JSON_VALUES, max_size=7)

CHIP_NAMES = st.sampled_from(sorted(set(TYPES) | set(TYPE_ALIASES))) | st.text(max_size=6)
COUNT = st.integers(-1, 5) | HUGE | JSON_VALUES
CHIPS_TEXT = (st.lists(st.tuples(CHIP_NAMES, st.lists(st.integers(-1, 5).map(str)
                                                      | st.text(max_size=2),
                                                      max_size=4)), max_size=8)
              .map(lambda items: ",".join(f"{n}={'/'.join(c)}" for n, c in items))
              | st.text(max_size=30))
CHIPS_DICTS = st.dictionaries(
    CHIP_NAMES,
    st.lists(COUNT, max_size=4)
    | st.fixed_dictionaries({}, optional={"plate": COUNT, "aside": COUNT,
                                          "mine": COUNT, "x": COUNT})
    | JSON_VALUES, max_size=8)

SCORECARD_PRESETS = sorted(PRESETS)
RULES_KEYS = sorted(set(SCORECARD_OPTIONS) | set(DUEL_OPTIONS)) + ["box_set", "game", "name",
                                                                   "lucky_sevens", ""]
OPTION_VALUES = (st.integers(-3, 120) | st.booleans() | HUGE | st.floats()
                 | st.sampled_from(["fifty", "filled", *JOKER_MODES, "13", "yatzy", ""])
                 | JSON_VALUES)
PRESET_VALUES = st.sampled_from(SCORECARD_PRESETS + ["dice-duel", "nope", ""]) | JSON_VALUES
RULES_DATA = st.builds(lambda preset, options: {**preset, **options},
                       st.just({}) | st.fixed_dictionaries({"preset": PRESET_VALUES}),
                       st.dictionaries(st.sampled_from(RULES_KEYS) | st.text(max_size=6),
                                       OPTION_VALUES, max_size=4))


def toml_value(value):
    """A TOML inline value for a JSON-like value (None, which TOML lacks, becomes a date-time)."""
    if value is None:
        return "1979-05-27T07:32:00Z"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_text(data):
    return "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in data.items())


def _no_newlines(blob):
    return blob.replace(b"\n", b"").replace(b"\r", b"")


def _json_line(fields):
    return st.dictionaries(st.sampled_from(sorted(fields)) | st.text(max_size=5), JSON_VALUES,
                           max_size=5).map(lambda d: json.dumps(d).encode())


RULES_FIELD = (st.sampled_from([BASIC, "dice-duel", "nope", "x.json", "x.toml", "a" * 300, None])
               | JSON_VALUES)
SCORECARD_LINE = st.fixed_dictionaries({}, optional={
    "rules": RULES_FIELD, "card": CARD_DICTS | JSON_VALUES, "dice": DICE_LISTS | JSON_VALUES,
    "rolls_left": st.integers(-1, 3) | HUGE | JSON_VALUES,
    "kniffel_bonuses": st.integers(-1, 3) | HUGE,
    "jokers_left": st.integers(-1, 4) | HUGE | JSON_VALUES}).map(lambda d: json.dumps(d).encode())
DUEL_LINE = st.fixed_dictionaries({}, optional={
    "rules": RULES_FIELD, "chips": CHIPS_TEXT | CHIPS_DICTS | JSON_VALUES,
    "dice": DICE_LISTS | JSON_VALUES,
    "rolls_left": st.integers(-1, 3) | HUGE | JSON_VALUES}).map(lambda d: json.dumps(d).encode())
HOSTILE_LINES = st.sampled_from([
    b"", b"   ", b"\t", b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x00", b"{}\x00",
    b"\xef\xbb\xbf{}", b"[" * 1100 + b"]" * 1100, b'{"card": ' + b"[" * 1100 + b"]" * 1100 + b"}",
    b'{"kniffel_bonuses": 1' + b"0" * 400 + b"}", b'{"dice": [1e999, 2, 3, 4, 5]}', b"NaN", b"null",
    b'{"rules": "' + b"a" * 300 + b'"}', b'{"rules": "x/' + b"../" * 2000 + b'y.json"}',
    b'{"rules": null}', "{\"rules\": \"\u2028\"}".encode(), b'{"chips": "\xc2\x85"}',
])


def batch_lines(json_line):
    return st.lists(json_line | st.binary(max_size=40).map(_no_newlines) | HOSTILE_LINES
                    | JSON_VALUES.map(lambda v: json.dumps(v).encode()), min_size=1, max_size=8)


def output_lines(out):
    """The JSON lines of a batch's output (split on \\n only: U+2028 and \\x85 in a message are
    not line ends)."""
    assert out.endswith("\n") or out == "", out
    return [json.loads(line) for line in out.split("\n")[:-1]]


# --- card specs, dice, chips ------------------------------------------------------------------

@FUZZ
@given(spec=CARD_TEXT | CARD_DICTS, name=st.sampled_from(SCORECARD_PRESETS))
def test_card_specs(spec, name):
    rules = get_rules(name)
    card = raises_only_project_errors(parse_card, spec, rules)
    if card is not None:
        assert all(box in rules.boxes and points in rules.possible_points(box)
                   for box, points in card.items())


@FUZZ
@given(spec=CARD_TEXT | CARD_DICTS, bonuses=st.integers(-1, 14) | HUGE | JSON_VALUES,
       jokers=st.none() | st.integers(-1, 4) | HUGE | JSON_VALUES,
       name=st.sampled_from(SCORECARD_PRESETS))
def test_positions(spec, bonuses, jokers, name):
    raises_only_project_errors(position_state, Position(spec, bonuses, jokers), get_rules(name))


@FUZZ
@given(text=DICE_TEXT)
def test_dice_text(text):
    faces = raises_only_project_errors(parse_dice, text)
    if faces is not None:
        assert (len(faces) == 5 and list(faces) == sorted(faces)
                and all(f in range(1, 7) for f in faces))


@FUZZ
@given(faces=DICE_LISTS)
def test_dice_lists(faces):
    raises_only_project_errors(validate_dice, faces)


@FUZZ
@given(spec=CHIPS_TEXT | CHIPS_DICTS | JSON_VALUES)
def test_chips(spec):
    chips = raises_only_project_errors(parse_chips, spec)
    if chips is not None:
        assert all(p + a + m == 4 for p, a, m in zip(chips.plate, chips.aside, chips.mine))


@FEWER
@given(card=CARD_TEXT, dice=st.none() | DICE_TEXT, rolls_left=st.none() | st.integers(-1, 3) | HUGE,
       bonuses=st.integers(0, 2) | HUGE)
def test_advise_options_on_the_command_line(capsys, store, card, dice, rolls_left, bonuses):
    assume("\x00" not in card + (dice or ""))  # a real command line cannot hold NUL
    args = ["advise", "--rules", BASIC, "--tables", str(store), "--card", card, "--json",
            "--kniffel-bonuses", str(bonuses)]
    args += ["--dice", dice] if dice is not None else []
    args += ["--rolls-left", str(rolls_left)] if rolls_left is not None else []
    assert_cli_outcome(*run(capsys, *args))


@FEWER
@given(chips=CHIPS_TEXT, dice=st.none() | DICE_TEXT,
       rolls_left=st.none() | st.integers(-1, 3) | HUGE)
def test_duel_options_on_the_command_line(capsys, store, chips, dice, rolls_left):
    assume("\x00" not in chips + (dice or ""))
    args = ["advise", "--rules", "dice-duel", "--tables", str(store), "--chips", chips, "--json"]
    args += ["--dice", dice] if dice is not None else []
    args += ["--rolls-left", str(rolls_left)] if rolls_left is not None else []
    assert_cli_outcome(*run(capsys, *args))


# --- what a player types in `kniffel play` -------------------------------------------------

TYPED = (st.text(max_size=12)
         | st.sampled_from(["²", "٣", "３", "1²", "0", "99", "1,", ",", " ", "-1"])
         | st.lists(st.sampled_from(list("0123456789 ,²٣")), max_size=8).map("".join))


@FUZZ
@example(text="²")
@given(text=TYPED)
def test_player_names(text):
    raises_only_project_errors(parse_players, text, allowed=(GameError,))


@FUZZ
@example(text="²", name=BASIC)
@given(text=TYPED | BOX_NAMES, name=st.sampled_from(SCORECARD_PRESETS))
def test_box_names(text, name):
    box = raises_only_project_errors(parse_box, text, get_rules(name), allowed=(GameError,))
    assert box is None or box in get_rules(name).boxes


@FUZZ
@example(text="²")
@given(text=TYPED)
def test_typed_faces(text):
    faces = raises_only_project_errors(parse_faces, text, allowed=(GameError,))
    assert faces is None or all(f in range(1, 7) for f in faces)


ANSWERS = st.lists(TYPED | BOX_NAMES | st.sampled_from(["", "a", "?", "u", "j 5 6", "j56", "335"]),
                   max_size=12)


@FEWER
@example(answers=["²"], real_dice=False, name=BASIC)
@example(answers=["²"], real_dice=True, name=BASIC)
@given(answers=ANSWERS, real_dice=st.booleans(), name=st.sampled_from([BASIC]))
def test_play_answers(tmp_path, store, answers, real_dice, name):
    """Whatever a player types, the game explains and asks again; at the end of the input it
    stops (exit 130) with the record saved."""
    args = ["play", "--rules", name, "--tables", str(store),
            "--record", str(tmp_path / "game.json")]
    args += ["--real-dice"] if real_dice else ["--seed", "3"]
    with CliRunner().isolation(input="\n".join(answers) + "\n") as (out, err, _):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code or 0
    assert code in (0, 130), (code, err.getvalue().decode())
    assert "Traceback" not in err.getvalue().decode()
    json.loads((tmp_path / "game.json").read_text())


# --- rules files ------------------------------------------------------------------------------

def _check_rules_file(path):
    """read_rules raises only RulesError; rules it accepts can be used: named, shown and
    turned into kernel arrays (the first thing solving does)."""
    rules = raises_only_project_errors(read_rules, str(path), allowed=(RulesError,))
    if rules is not None:
        assert rules.key and json.dumps(rules.as_dict())
        rules.kernel_arrays()
    return rules


@FUZZ
@example(data={"preset": ["kniffel"]}, as_toml=False)
@example(data={"preset": "kniffel", "upper_bonus": 10**30}, as_toml=True)
@example(data={"preset": "kniffel", "name": "x"}, as_toml=False)
@given(data=RULES_DATA, as_toml=st.booleans())
def test_rules_files_of_random_structure(tmp_path, data, as_toml):
    path = tmp_path / ("house.toml" if as_toml else "house.json")
    path.write_text(toml_text(data) if as_toml else json.dumps(data), encoding="utf-8")
    _check_rules_file(path)


@FUZZ
@example(blob=b'{"preset": "kniffel", "x": "\xff"}', suffix=".json")
@given(blob=st.binary(max_size=120) | RULES_DATA.map(lambda d: json.dumps(d).encode() + b"\xff"),
       suffix=st.sampled_from([".json", ".toml", ".JSON", ".txt"]))
def test_rules_files_of_random_bytes(tmp_path, blob, suffix):
    path = tmp_path / f"house{suffix}"
    path.write_bytes(blob)
    _check_rules_file(path)


@FEWER
@example(data={"preset": "kniffel", "upper_bonus": 10**30}, as_toml=False)
@given(data=RULES_DATA, as_toml=st.booleans())
def test_rules_show_accepts_exactly_what_can_be_used(capsys, tmp_path, data, as_toml):
    path = tmp_path / ("house.toml" if as_toml else "house.json")
    path.write_text(toml_text(data) if as_toml else json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "rules", "--show", str(path), "--json")
    assert_cli_outcome(code, out, err)
    if code == 0:
        read_rules(str(path)).kernel_arrays()


# --- batch lines ------------------------------------------------------------------------------

def _run_batch(capsys, tmp_path, store, lines, final_newline, options):
    if not final_newline and lines[-1] == b"":
        final_newline = True  # without it the last, empty line would not exist
    remove_other_tables(store)  # left by an earlier failing example
    path = tmp_path / "batch.jsonl"
    path.write_bytes(b"\n".join(lines) + (b"\n" if final_newline else b""))
    code, out, err = run(capsys, "advise", *options, "--tables", str(store), "--batch", str(path))
    assert "Traceback" not in err and code == 0, (code, err)
    answers = output_lines(out)
    assert len(answers) == len(lines), (len(answers), len(lines), out)
    for number, answer in enumerate(answers, 1):
        if "error" in answer:
            assert answer["error"].startswith(f"line {number}:"), answer
        else:
            assert "expected_final_score" in answer, answer
            assert answer["rules"] == options[1], (
                "a line without valid rules of its own was answered "
                f"for {answer['rules']}, not the batch's --rules")
    assert_nothing_solved(store)


@FUZZ
@example(lines=[b'{"card":{}}', b"\xff", b'{"card":{}}'], final_newline=True)
@example(lines=[b"{}", b"", b"{}"], final_newline=True)
@example(lines=[b'{"rules": "' + b"a" * 300 + b'"}', b"{}"], final_newline=True)
@example(lines=[b'{"rules": null, "card": {}}'], final_newline=True)
@given(lines=batch_lines(SCORECARD_LINE), final_newline=st.booleans())
def test_scorecard_batch_answers_every_line(capsys, tmp_path, store, lines, final_newline):
    _run_batch(capsys, tmp_path, store, lines, final_newline, ["--rules", BASIC])


def _never_solves(opponents):
    """Opponents a line may fuzz with: those the batch refuses, and the empty list (a valid
    list would start a win solve from a random card, minutes each)."""
    from solver.ask.request import RequestError, read_opponents
    from solver.rules import PRESETS
    try:
        read_opponents(opponents, PRESETS[BASIC])
    except RequestError:
        return True
    return opponents == []


OPPONENTS = (JSON_VALUES
             | st.lists(st.dictionaries(st.sampled_from(["card", "final", "kniffel_bonuses", "x"]),
                                        JSON_VALUES, max_size=3),
                        max_size=3)).filter(_never_solves)
OBJECTIVE_LINE = st.fixed_dictionaries({}, optional={
    "rules": RULES_FIELD, "card": CARD_DICTS | JSON_VALUES, "dice": DICE_LISTS | JSON_VALUES,
    "rolls_left": st.integers(-1, 3) | JSON_VALUES,
    "target": st.integers(-5, 2000) | HUGE | JSON_VALUES,
    "opponents": OPPONENTS, "ties": JSON_VALUES}).map(lambda d: json.dumps(d).encode())


@FEWER
@example(lines=[b'{"target": 100}', b"\xff", b'{"card": {"target": 1}}', b""], final_newline=True)
@example(lines=[b'{"opponents": [{"final": 10, "card": {}}]}', b"{}"], final_newline=True)
@given(lines=batch_lines(OBJECTIVE_LINE), final_newline=st.booleans())
def test_objective_batch_lines_answer_every_line(capsys, tmp_path, store, lines, final_newline):
    """Lines naming a target or opponents: each gets its one answer, an error names its line
    (there is no target table in the store: a target line is refused, never built)."""
    _run_batch(capsys, tmp_path, store, lines, final_newline, ["--rules", BASIC])


@FUZZ
@example(lines=[b"{}", b"\xff", b"{}"], final_newline=True)
@example(lines=[b"{}", b"", b"{}"], final_newline=True)
@example(lines=[b'{"rules": "' + b"a" * 300 + b'"}', b"{}"], final_newline=True)
@given(lines=batch_lines(DUEL_LINE), final_newline=st.booleans())
def test_dice_duel_batch_answers_every_line(capsys, tmp_path, store, lines, final_newline):
    _run_batch(capsys, tmp_path, store, lines, final_newline, ["--rules", "dice-duel"])


# --- game records ---------------------------------------------------------------------------

def _valid_record():
    """A short kniffel-basic game of two players, two rounds each, with keeps and boxes."""
    import numpy as np
    rng = np.random.default_rng(5)
    game = Game(BASIC, ["Anna", "Ben"], seed=5)
    for _ in range(4):
        turn = game.next_turn()
        turn.roll(rng.integers(1, 7, 5).tolist())
        turn.keep(list(turn.dice[:2]))
        turn.roll(rng.integers(1, 7, turn.n_to_roll).tolist())
        turn.score(next(iter(turn.options())))
    return json.loads(json.dumps(game.record()))


VALID_RECORD = _valid_record()
RECORD_KEYS = sorted(VALID_RECORD) + ["decisions", "keep", "box", "dice", "jokers", "points"]
# Rules values that are never valid other rules (so nothing is ever solved): any solvable
# variant would cost a solve per example.
BAD_OPTION = (st.integers(max_value=-1) | st.integers(min_value=2**63) | st.floats()
              | st.text(max_size=6) | st.lists(SCALARS, max_size=2)
              | st.dictionaries(st.text(max_size=3), SCALARS, max_size=2))
BAD_PRESET = (st.text(max_size=8).filter(lambda t: t not in PRESETS and t != "dice-duel")
              | st.lists(SCALARS, max_size=2)
              | st.dictionaries(st.text(max_size=3), SCALARS, max_size=2)
              | st.sampled_from(["dice-duel"]))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _near(value):
    """Values close to `value` (an off-by-one, another type of the same meaning) or anything."""
    if isinstance(value, bool):
        return st.sampled_from([not value, int(value), str(value).lower(), None])
    if isinstance(value, int):
        return st.sampled_from([value - 1, value + 1, -value, float(value), str(value),
                                2**64 + value, None])
    if isinstance(value, str):
        return st.sampled_from([value.upper(), value + " ", "", value[:-1], value * 2, None, 0])
    if isinstance(value, list):
        return st.sampled_from([value[::-1], value[:-1], value + value[-1:], [], {}, None])
    return JSON_VALUES


@st.composite
def mutated_records(draw):
    record = json.loads(json.dumps(VALID_RECORD))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(record) if p]
        path = draw(st.sampled_from(paths))
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        last, old = path[-1], parent[path[-1]]
        if path[0] == "rules":  # only values that cannot make another solvable rule set
            new = draw(BAD_PRESET if last == "preset" else BAD_OPTION)
            action = "replace"
        else:
            action = draw(st.sampled_from(["replace", "near", "near", "delete"]))
            new = (draw(JSON_VALUES if action == "replace" else _near(old)) if action != "delete"
                   else None)
        if action == "delete":
            del parent[last]
        else:
            parent[last] = new
    if draw(st.booleans()):
        record[draw(st.sampled_from(RECORD_KEYS))] = draw(JSON_VALUES)
        if isinstance(record.get("rules"), dict) and record["rules"] != VALID_RECORD["rules"]:
            record["rules"] = BASIC  # a random object could be solvable rules
        if (isinstance(record.get("rules"), str) and record["rules"] in PRESETS
                and record["rules"] != BASIC):
            record["rules"] = BASIC
    return record


def _analyze(capsys, tmp_path, store, text):
    remove_other_tables(store)  # left by an earlier failing example
    path = tmp_path / "game.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    code, out, err = run(capsys, "analyze", str(path), "--tables", str(store), "--json")
    assert_cli_outcome(code, out, err)
    if code == 0:
        json.loads(out)
    assert_nothing_solved(store)
    return code


def test_the_valid_record_analyzes(capsys, tmp_path, store):
    assert _analyze(capsys, tmp_path, store, json.dumps(VALID_RECORD)) == 0


@FEWER
@given(record=mutated_records())
def test_mutated_records(capsys, tmp_path, store, record):
    _analyze(capsys, tmp_path, store, json.dumps(record))


def _turn(**decision):
    return {"player": 0, "decisions": [{"dice": [1, 2, 3, 4, 5], **decision}]}


@FEWER
@example(record={"rules": "dice-duel", "turns": [_turn(keep=[1])]})
@example(record={"rules": {"preset": ["kniffel"]}, "turns": []})
@example(record={"rules": BASIC, "turns": [_turn(box="²")]})
@example(record={"rules": BASIC, "turns": [_turn(box="ones", jokers=5)]})
@example(record={"rules": BASIC, "turns": [{**_turn(box="ones"), "start": 5}]})
@example(record={"rules": BASIC, "turns": [{**_turn(box="ones"), "start": "card"}]})
@given(record=st.fixed_dictionaries(
    {"rules": st.sampled_from([BASIC, "dice-duel", "nope"]) | BAD_PRESET,
     "turns": st.lists(st.fixed_dictionaries({}, optional={
         "player": JSON_VALUES, "start": JSON_VALUES,
         "decisions": st.lists(st.dictionaries(st.sampled_from(RECORD_KEYS), JSON_VALUES,
                                               max_size=5)
                               | JSON_VALUES, max_size=3)}) | JSON_VALUES, max_size=3)},
    optional={key: JSON_VALUES
              for key in ("players", "seed", "real_dice", "format_version", "finished")}))
def test_random_records(capsys, tmp_path, store, record):
    _analyze(capsys, tmp_path, store, json.dumps(record))


@FEWER
@given(blob=st.binary(max_size=200) | JSON_VALUES.map(lambda v: json.dumps(v).encode()))
def test_random_record_files(capsys, tmp_path, store, blob):
    _analyze(capsys, tmp_path, store, blob)
