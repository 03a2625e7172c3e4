"""A checkpointed whole-game target solve (engine/target/checkpoint.py): an interrupted solve
resumed is the uninterrupted one to the bit, an interruption leaves no temporary file and keeps
every finished level, a damaged or foreign level file is never used.  On a house rule that makes
the whole game small (one roll a turn, an upper bonus at 1 point); the fast tests stop after
the first levels (the cheap ones), the slow ones solve the whole table (seconds)."""
import contextlib
import shutil

import numpy as np
import pytest
from conftest import solved

from solver.engine import backward, store
from solver.engine.cancel import CANCEL, Cancelled
from solver.engine.store import table_paths
from solver.engine.target.checkpoint import (
    NEXT,
    checkpoint_fields,
    checkpoint_paths,
    level_artifact,
    remove_checkpoint,
    resume,
)
from solver.engine.target.solve import SubGame, TargetValues, solve_target
from solver.engine.target.table import ARRAYS, load_target_table
from solver.presets import get_rules

RULES = get_rules("kniffel-basic", rolls_per_turn=1, upper_bonus_threshold=1, upper_bonus=0)
OTHER = get_rules("kniffel-basic", rolls_per_turn=1, upper_bonus_threshold=2, upper_bonus=0)
TOP = RULES.n_boxes - 1  # the first level solved: one box open


def expected(rules=RULES):
    """The expected-score values of `rules`, solved once per session."""
    return solved(rules).values


@contextlib.contextmanager
def stopping_after(levels, error=None):
    """The backward pass's cancel check says stop (or raises `error`) after `levels` levels."""
    asked = 0

    def stop():
        nonlocal asked
        asked += 1
        if asked > levels and error is not None:
            raise error
        return asked > levels

    token = CANCEL.set(stop)
    try:
        yield
    finally:
        CANCEL.reset(token)


def solve(directory, rules=RULES, **options):
    """A target solve of the whole game of `rules` checkpointed in `directory`."""
    return solve_target(rules, progress=False, expected=expected(rules), checkpoint=directory,
                        **options)


def interrupt(directory, levels, rules=RULES):
    """A checkpointed solve stopped after `levels` more levels (Cancelled)."""
    expected(rules)  # solved first: its backward pass would ask the cancel check too
    with stopping_after(levels), pytest.raises(Cancelled):
        solve(directory, rules)


def restored(directory, rules=RULES, tie_break=True, kept=np.float32, values=None):
    """How many levels a solve of `rules` would go on from (and the values it restores)."""
    values = values if values is not None else TargetValues(rules, expected(rules))
    fields = checkpoint_fields(expected(rules), tie_break, kept)
    return resume(rules, directory, values, fields), values


def saved_files(directory, rules=RULES):
    """{name: bytes} of the checkpoint files of `rules` in `directory`."""
    return {path.name: path.read_bytes() for path in checkpoint_paths(rules, directory)
            if path.exists()}


def temporaries(directory):
    """The temporary files in `directory` (the store names them .NAME.XXXX.tmp)."""
    return [path.name for path in directory.iterdir() if path.name.endswith(".tmp")]


def flip(path, at=None):
    """Flip the bits of one byte of the file `path` (default: its middle one)."""
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2 if at is None else at] ^= 0xFF
    path.write_bytes(bytes(blob))


@pytest.fixture(scope="module")
def three_levels(tmp_path_factory):
    """A checkpoint directory after an uninterrupted solve's first three levels."""
    directory = tmp_path_factory.mktemp("three-levels")
    interrupt(directory, 3)
    return directory


def test_a_checkpoint_is_for_the_whole_game_only(tmp_path):
    for options in [{"within": 0b11}, {"within": SubGame(0b11, upper=1)},
                    {"within": SubGame(most=40)}, {"terminal": np.ones(5)}]:
        with pytest.raises(ValueError, match="whole game only"):
            solve(tmp_path, **options)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("first", [1, 2])
def test_a_resumed_solve_saves_the_levels_of_an_uninterrupted_one(tmp_path, three_levels, first):
    """Stopped after `first` levels, then resumed to the third: every level file and the last
    level as solved are the uninterrupted solve's, byte for byte."""
    interrupt(tmp_path, first)
    assert restored(tmp_path)[0] == first
    interrupt(tmp_path, 3 - first)
    assert restored(tmp_path)[0] == 3
    mine, theirs = saved_files(tmp_path), saved_files(three_levels)
    assert sorted(mine) == sorted(theirs) and len(mine) == 2 * 4  # 3 levels + target-next
    assert all(mine[name] == theirs[name] for name in mine)


def test_restored_levels_are_those_of_the_solve(three_levels):
    """The restored state: the kept levels in float32, the last one as solved (float64) and
    the level the next one reads; the rest of the state as a new solve has it."""
    done, values = restored(three_levels)
    assert done == 3 and sorted(values.levels) == [TOP - 2, TOP - 1, TOP]
    assert values.levels[TOP][0].dtype == values.levels[TOP - 1][1].dtype == np.float32
    assert values.next is values.levels[TOP - 2] and values.next[0].dtype == np.float64
    assert values.span.any() and values.length.any()
    assert values.rounding["w"] <= 2.0 ** -24 and values.rounding["e"] > 0


def _cancelled_between_levels(monkeypatch):
    return stopping_after(3), Cancelled, 3


def _interrupted_by_the_check(monkeypatch):
    return stopping_after(3, KeyboardInterrupt()), KeyboardInterrupt, 3


def _exit_inside_a_level(monkeypatch):
    real, calls = backward.map_parallel, []

    def map_parallel(*args):
        calls.append(1)
        if len(calls) == 3:
            raise SystemExit(1)
        return real(*args)

    monkeypatch.setattr(backward, "map_parallel", map_parallel)
    return contextlib.nullcontext(), SystemExit, 2


def _interrupted_writing(call):
    def interruption(monkeypatch):
        real, calls = store._write_records, []

        def write_records(handle, arrays, places):
            calls.append(1)
            if len(calls) == call:  # half a file written, then stopped
                handle.write(b"\0" * 1000)
                raise KeyboardInterrupt
            return real(handle, arrays, places)

        monkeypatch.setattr(store, "_write_records", write_records)
        return contextlib.nullcontext(), KeyboardInterrupt, 2
    return interruption


@pytest.mark.parametrize("interruption", [
    _cancelled_between_levels, _interrupted_by_the_check, _exit_inside_a_level,
    _interrupted_writing(5),  # the third level's own file
    _interrupted_writing(6),  # its float64 copy (target-next): the level below stays last
], ids=["cancelled", "keyboard-interrupt", "system-exit-in-a-level", "in-a-level-file",
        "in-the-next-file"])
def test_an_interruption_leaves_no_temporary_file(tmp_path, monkeypatch, three_levels,
                                                  interruption):
    """Whatever stops a solve, between levels or inside one (its kernels, its save), no
    temporary file is left and every level finished before it is kept, as saved."""
    stopping, error, kept_levels = interruption(monkeypatch)
    with stopping, pytest.raises(error):
        solve(tmp_path)
    monkeypatch.undo()
    assert temporaries(tmp_path) == []
    assert restored(tmp_path)[0] == kept_levels
    theirs = saved_files(three_levels)
    for level in range(TOP, TOP - kept_levels, -1):
        name = table_paths(RULES, tmp_path, level_artifact(level))[0].name
        assert saved_files(tmp_path)[name] == theirs[name]


@pytest.mark.parametrize("damage", ["a level's data", "a level's header", "next's data",
                                    "a level file missing", "next's level"])
def test_a_damaged_checkpoint_is_not_trusted(tmp_path, three_levels, damage):
    """A level file or target-next that fails a check is not used: with a level above the last
    one unusable, no level can be solved from it (the others are kept in float32), so the
    solve starts again; and saves the same levels again."""
    shutil.copytree(three_levels, tmp_path, dirs_exist_ok=True)
    data, header = table_paths(RULES, tmp_path, level_artifact(TOP - 1))
    next_data, next_header = table_paths(RULES, tmp_path, NEXT)
    if damage == "a level's data":
        flip(data)
    elif damage == "a level's header":
        header.write_text(header.read_text().replace('"tie_break": true', '"tie_break": false'))
    elif damage == "next's data":
        flip(next_data, -3)
    elif damage == "a level file missing":
        data.unlink()
    else:  # target-next naming a level its values are not
        next_header.write_text(next_header.read_text().replace(f'"level": {TOP - 2}',
                                                               f'"level": {TOP - 1}'))
    done, values = restored(tmp_path)
    assert done == 0 and values.levels == {} and not values.span.any()
    interrupt(tmp_path, 3)
    assert saved_files(tmp_path) == saved_files(three_levels)


def test_level_files_of_other_rules_or_options_are_not_used(tmp_path, three_levels):
    """Another rule set's checkpoint beside this one is not read; its files under this one's
    names are refused (the store checks the rules); nor is a checkpoint used with other expected
    values, another tie rule or another kept precision."""
    interrupt(tmp_path, 2, OTHER)
    assert restored(tmp_path)[0] == 0 and restored(tmp_path, OTHER)[0] == 2
    for artifact in [NEXT, level_artifact(TOP), level_artifact(TOP - 1)]:
        for theirs, mine in zip(table_paths(OTHER, tmp_path, artifact),
                                table_paths(RULES, tmp_path, artifact)):
            shutil.copyfile(theirs, mine)
    assert restored(tmp_path)[0] == 0
    assert restored(three_levels)[0] == 3
    assert restored(three_levels, tie_break=False)[0] == 0
    assert restored(three_levels, kept=np.float64)[0] == 0
    shifted = expected().copy()
    shifted[np.isfinite(shifted)] += 2.0 ** -40
    fields = checkpoint_fields(shifted, True, np.float32)
    assert resume(RULES, three_levels, TargetValues(RULES, shifted), fields) == 0


def test_remove_checkpoint_removes_these_rules_files_only(tmp_path):
    interrupt(tmp_path, 2)
    interrupt(tmp_path, 1, OTHER)
    remove_checkpoint(RULES, tmp_path)
    assert saved_files(tmp_path) == {} and restored(tmp_path)[0] == 0
    assert len(saved_files(tmp_path, OTHER)) == 4 and restored(tmp_path, OTHER)[0] == 1


def test_the_progress_bar_starts_at_the_levels_done(monkeypatch, three_levels, tmp_path):
    shutil.copytree(three_levels, tmp_path, dirs_exist_ok=True)
    bars = []
    real = backward.tqdm

    def tqdm(iterable, **options):
        bars.append(options)
        return real(iterable, **options)

    monkeypatch.setattr(backward, "tqdm", tqdm)
    interrupt(tmp_path, 0)
    assert bars[-1]["initial"] == 3 and bars[-1]["total"] == RULES.n_boxes


# --- whole tables ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def uninterrupted():
    return solve_target(RULES, progress=False, expected=expected())


def assert_same(table, uninterrupted):
    """Every array of the two tables equal, dtype and NaN (unreachable V) included."""
    for name in (*ARRAYS, "base"):
        mine, theirs = getattr(table, name), getattr(uninterrupted, name)
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs, equal_nan=True), name
    assert table.rounding == uninterrupted.rounding


@pytest.mark.slow
def test_an_interrupted_solve_resumed_is_the_uninterrupted_one(tmp_path, uninterrupted):
    """Stopped after 2 levels, resumed and stopped after 7, resumed to the end: the table is
    the uninterrupted solve's to the bit.  Asked again, every level is restored and none solved;
    saved with the cleanup, the level files are gone and the table loads."""
    interrupt(tmp_path, 2)
    interrupt(tmp_path, 5)
    table = solve(tmp_path)
    assert [step for step, _ in table.level_seconds] == list(range(8, RULES.n_boxes + 1))
    assert_same(table, uninterrupted)
    again = solve(tmp_path)
    assert again.level_seconds == []
    assert_same(again, uninterrupted)
    table.save(tmp_path)
    remove_checkpoint(RULES, tmp_path)
    assert saved_files(tmp_path) == {} and temporaries(tmp_path) == []
    assert np.array_equal(load_target_table(RULES, tmp_path).span, uninterrupted.span)


@pytest.mark.slow
def test_a_damaged_level_is_solved_again(tmp_path, uninterrupted):
    """A flipped byte in a level file: nothing of the checkpoint is trusted, every level is
    solved again, and the table is the uninterrupted solve's to the bit."""
    interrupt(tmp_path, 5)
    flip(table_paths(RULES, tmp_path, level_artifact(TOP - 2))[0])
    table = solve(tmp_path)
    assert [step for step, _ in table.level_seconds] == list(range(1, RULES.n_boxes + 1))
    assert_same(table, uninterrupted)
