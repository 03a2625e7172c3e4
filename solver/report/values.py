"""The whole value table as files (`kniffel tables --values`): values.csv, values.npy and
values.json, every reachable turn-start state with readable fields.  Too large to keep in the
repository; written on demand."""
import hashlib
import io
import json
from pathlib import Path

import numpy as np
from tqdm import tqdm

from ..engine.store import atomic_write as _write
from ..version import __version__


def value_rows(table):
    """Every reachable turn-start state as a numpy structured array with readable fields:
    filled_mask (bit i: box i of the rules is filled), n_open, upper_total (capped at the
    bonus threshold), kniffel_fifty / bonus_deficit / jokers_left where the rules track them,
    expected_remaining (expected score still to come under optimal play)."""
    rules = table.rules
    filled, aux, upper = np.nonzero(~np.isnan(table.values))
    fields = [("filled_mask", np.int32), ("n_open", np.int8), ("upper_total", np.int16)]
    if rules.n_flag == 2:
        fields.append(("kniffel_fifty", np.int8))
    if rules.n_deficit > 1:
        fields.append(("bonus_deficit", np.int8))
    if rules.jokers:
        fields.append(("jokers_left", np.int8))
    fields.append(("expected_remaining", np.float64))
    rows = np.zeros(len(filled), dtype=fields)
    rows["filled_mask"] = filled
    n_filled = np.array([bin(m).count("1") for m in range(1 << rules.n_boxes)])
    rows["n_open"] = rules.n_boxes - n_filled[filled]
    rows["upper_total"] = upper
    within = aux % rules.aux_block
    if rules.n_flag == 2:
        rows["kniffel_fifty"] = within // rules.n_deficit
    if rules.n_deficit > 1:
        rows["bonus_deficit"] = within % rules.n_deficit
    if rules.jokers:
        rows["jokers_left"] = aux // rules.aux_block
    rows["expected_remaining"] = table.values[filled, aux, upper]
    return rows


COLUMN_NOTES = {
    "filled_mask": "bit i set: box i (of `boxes`) is filled",
    "open_boxes": "the open boxes, space-separated (CSV only)",
    "n_open": "number of open boxes",
    "upper_total": "upper-section total, capped at the bonus threshold",
    "kniffel_fifty": "1 if the Kniffel box holds 50",
    "bonus_deficit": "open boxes beyond the extra-Kniffel bonuses still allowed by the cap",
    "jokers_left": "Knobeln jokers still in hand",
    "expected_remaining": "expected score still to come from the start of a turn, optimal play",
}


def export_values(table, directory, progress=False):
    """Write the whole value table as values.csv, values.npy and values.json (the header of the
    .npy: rules, box order, columns); returns the paths."""
    rules = table.rules
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rows = value_rows(table)
    open_text = [" ".join(box for b, box in enumerate(rules.boxes) if not mask >> b & 1)
                 for mask in range(1 << rules.n_boxes)]
    names = list(rows.dtype.names)
    columns = names[:1] + ["open_boxes"] + names[1:]
    buffer = io.StringIO()
    buffer.write(",".join(columns) + "\n")
    ints = [rows[name].tolist() for name in names[:-1]]
    values = rows["expected_remaining"].tolist()
    for i in tqdm(range(len(rows)), desc="values.csv", unit="row", unit_scale=True,
                  disable=not progress, leave=False, mininterval=0.5):
        first = ints[0][i]
        rest = ",".join(str(column[i]) for column in ints[1:])
        buffer.write(f"{first},{open_text[first]},{rest},{values[i]!r}\n")
    npy = io.BytesIO()
    np.save(npy, rows, allow_pickle=False)
    blob = npy.getvalue()
    header = {"rules_key": rules.key, "rules": rules.as_dict(), "package_version": __version__,
              "boxes": list(rules.boxes), "upper_bonus_threshold": rules.upper_bonus_threshold,
              "rows": len(rows), "expected_score": table.expected_score,
              "columns": {name: COLUMN_NOTES[name] for name in columns},
              "npy_dtype": [[name, rows.dtype[name].str] for name in names],
              "npy_sha256": hashlib.sha256(blob).hexdigest()}
    paths = [directory / "values.csv", directory / "values.npy", directory / "values.json"]
    _write(paths[0], buffer.getvalue().encode())
    _write(paths[1], blob)
    _write(paths[2], (json.dumps(header, indent=2) + "\n").encode())
    return paths
