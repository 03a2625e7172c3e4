"""Table store: round trip, and stale, foreign or damaged tables are never used."""
import json

import numpy as np
import pytest
from conftest import solved

import solver
from solver.engine.store import TableError, table_paths
from solver.engine.values import load_table
from solver.presets import get_rules


@pytest.fixture
def saved(tmp_path):
    table = solved("yahtzee")
    table.save(tmp_path)
    return table, tmp_path


def test_round_trip(saved):
    table, directory = saved
    loaded = load_table(table.rules, directory)
    assert np.array_equal(loaded.values, table.values, equal_nan=True)
    assert loaded.states == table.states and loaded.expected_score == table.expected_score


def test_missing_table(tmp_path):
    with pytest.raises(TableError, match="no table"):
        load_table(get_rules("yahtzee"), tmp_path)


def test_damaged_table_is_rejected(saved):
    table, directory = saved
    npy, _ = table_paths(table.rules, directory)
    blob = bytearray(npy.read_bytes())
    blob[-100] ^= 0xFF
    npy.write_bytes(bytes(blob))
    with pytest.raises(TableError, match="damaged"):
        load_table(table.rules, directory)


def test_stale_table_is_rejected(saved):
    table, directory = saved
    _, sidecar = table_paths(table.rules, directory)
    header = json.loads(sidecar.read_text())
    header["package_version"] = "0.0.1"
    sidecar.write_text(json.dumps(header))
    with pytest.raises(TableError, match="made by kniffel 0.0.1"):
        load_table(table.rules, directory)
    header["package_version"] = solver.__version__
    header["format_version"] = 0
    sidecar.write_text(json.dumps(header))
    with pytest.raises(TableError, match="format version"):
        load_table(table.rules, directory)


def test_foreign_table_is_rejected(saved):
    table, directory = saved
    other = get_rules("yahtzee-free")
    for src, dst in zip(table_paths(table.rules, directory), table_paths(other, directory)):
        dst.write_bytes(src.read_bytes())
    with pytest.raises(TableError, match="other rules"):
        load_table(other, directory)


def test_get_table_resolves_a_damaged_table(saved):
    table, directory = saved
    npy, _ = table_paths(table.rules, directory)
    npy.write_bytes(b"garbage")
    again = solver.get_table("yahtzee", directory, progress=False)
    assert again.expected_score == pytest.approx(table.expected_score, abs=1e-12)
    assert load_table(table.rules, directory).expected_score == again.expected_score
