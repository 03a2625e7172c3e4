"""The value table shipped in the package (solver/data/, scripts/ship_table.py): current, used
only for exactly its rules, and under the store's checks."""
import gzip
import json
import shutil

import numpy as np
import pytest
from conftest import solved

import solver
from solver.engine import store
from solver.engine import values as value_tables
from solver.presets import get_rules, read_rules


def test_shipped_kniffel_table_equals_a_fresh_solve():
    rules = get_rules("kniffel")
    packed, sidecar = value_tables.shipped_paths(rules)
    assert packed.exists() and sidecar.exists(), "run python scripts/ship_table.py"
    header = json.loads(sidecar.read_text())
    assert header["package_version"] == solver.__version__, "run python scripts/ship_table.py"
    assert header["rules"] == rules.as_dict() and header["format_version"] == store.FORMAT_VERSION
    shipped = value_tables.load_shipped(rules)
    assert shipped is not None, "the shipped table fails the store's checks"
    fresh = solved(rules).values
    assert np.allclose(shipped.values, fresh, rtol=0, atol=1e-12, equal_nan=True)
    assert np.array_equal(np.isnan(shipped.values), np.isnan(fresh))


def test_an_empty_store_loads_the_shipped_table(tmp_path):
    table = value_tables.load_table(get_rules("kniffel"), tmp_path)
    assert table.path == value_tables.shipped_paths(table.rules)[0]
    assert table.expected_score == pytest.approx(250.7651092, abs=1e-7)
    assert not list(tmp_path.iterdir()), "the shipped table is read-only: nothing is written"
    with pytest.raises(store.TableError, match="no table"):
        value_tables.load_table(get_rules("kniffel"), tmp_path, shipped=False)


def test_other_rules_do_not_get_the_shipped_table(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "kniffel", "upper_bonus": 30}))
    with pytest.raises(store.TableError, match="no table"):
        value_tables.load_table(read_rules(str(path)), tmp_path / "store")
    with pytest.raises(store.TableError, match="no table"):
        value_tables.load_table(get_rules("yahtzee"), tmp_path / "store")


def test_a_stored_table_comes_before_the_shipped_one(tmp_path):
    table = solved("kniffel")
    table.save(tmp_path)
    assert (value_tables.load_table(table.rules, tmp_path).path
            == store.table_paths(table.rules, tmp_path)[0])


@pytest.mark.parametrize("damage", ["checksum", "version", "gzip"])
def test_a_damaged_or_stale_shipped_table_is_not_used(tmp_path, monkeypatch, damage):
    rules = get_rules("kniffel")
    packed, sidecar = value_tables.shipped_paths(rules)
    copy = tmp_path / "data"
    copy.mkdir()
    shutil.copy(packed, copy / packed.name)
    shutil.copy(sidecar, copy / sidecar.name)
    if damage == "checksum":
        values = bytearray(gzip.decompress(packed.read_bytes()))
        values[-100] ^= 0xFF
        (copy / packed.name).write_bytes(gzip.compress(bytes(values)))
    elif damage == "version":
        header = json.loads(sidecar.read_text())
        header["package_version"] = "0.0.1"
        (copy / sidecar.name).write_text(json.dumps(header))
    else:
        (copy / packed.name).write_bytes(packed.read_bytes()[:1000])
    monkeypatch.setattr(value_tables, "SHIPPED_DIR", copy)
    assert value_tables.load_shipped(rules) is None
    with pytest.raises(store.TableError, match="no table"):
        value_tables.load_table(rules, tmp_path / "store")
