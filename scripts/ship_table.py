"""Solve a preset afresh and write the value table the package ships (solver/data/).

The shipped table is the table store's own pair of files, made by ValueTable.save: NAME.npy
gzipped (level 9, no timestamp) as NAME.npy.gz, and its header NAME.json (format version,
package version, kind, resolved rules, the array's dtype, shape and sha256) with solve_seconds
left out, so the same solve writes the same bytes.  The table store loads it, read-only and under
the same checks, when the user's store has no valid table for exactly those rules: the first
`kniffel advise` of a new install then answers from it without compiling or solving.

    python scripts/ship_table.py                  # solve kniffel, write solver/data/kniffel.*
    python scripts/ship_table.py --check          # exit 1 unless the shipped files are current
    python scripts/ship_table.py --rules yahtzee  # ship another preset as well (each ~2.4 MB)

Regenerate after any change to the solver, the rules or the package version (a shipped table
made by another version is never used: the first advise then solves again).
"""
import argparse
import gzip
import io
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import solver  # noqa: E402
from solver.engine import values  # noqa: E402
from solver.presets import read_rules  # noqa: E402

DEFAULT_OUT = values.SHIPPED_DIR


def shipped_bytes(rules):
    """(NAME.npy.gz bytes, NAME.json bytes) of a fresh solve of `rules`."""
    table = solver.solve(rules, progress=False)
    table.seconds = None  # not machine-dependent: the same solve gives the same files
    with tempfile.TemporaryDirectory() as scratch:
        npy = Path(table.save(scratch))
        blob = npy.read_bytes()
        header = npy.with_suffix(".json").read_bytes()
    json.loads(header)  # written by save(): well-formed
    return gzip.compress(blob, compresslevel=9, mtime=0), header


def check(paths, packed, header, tolerance=1e-12):
    """'current[, bit-identical]' when the shipped pair has the fresh header's format, package
    version and rules and values within `tolerance` of the fresh solve; else why not."""
    if not all(p.exists() for p in paths):
        return "missing"
    if paths[0].read_bytes() == packed and paths[1].read_bytes() == header:
        return "current, bit-identical"
    fresh, shipped = json.loads(header), json.loads(paths[1].read_text())
    for field in ("format_version", "package_version", "kind", "rules"):
        if shipped.get(field) != fresh.get(field):
            return f"stale: {field} differs"
    if _layout(shipped) != _layout(fresh):
        return "stale: the arrays' dtype or shape differs"
    ours = np.load(io.BytesIO(gzip.decompress(packed)))
    theirs = np.load(io.BytesIO(gzip.decompress(paths[0].read_bytes())))
    if not np.allclose(ours, theirs, rtol=0, atol=tolerance, equal_nan=True):
        return f"stale: values differ by up to {np.nanmax(np.abs(ours - theirs)):.3g}"
    return f"current, values within {tolerance:g} (not bit-identical)"


def _layout(header):
    """Each array's dtype and shape in a store header."""
    arrays = header.get("arrays") or {}
    return {name: (place.get("dtype"), place.get("shape")) for name, place in arrays.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append",
                        help="preset to ship (repeatable; default kniffel)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"directory (default {DEFAULT_OUT})")
    parser.add_argument("--check", action="store_true",
                        help="compare with a fresh solve, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name in args.rules or ["kniffel"]:
        rules = read_rules(name)
        packed, header = shipped_bytes(rules)
        paths = (args.out / f"{rules.key}.npy.gz", args.out / f"{rules.key}.json")
        if args.check:
            verdict = check(paths, packed, header)
            print(f"{rules.key}: {verdict} ({paths[0]})")
            if not verdict.startswith("current"):
                stale.append(rules.key)
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        paths[0].write_bytes(packed)
        paths[1].write_bytes(header)  # the header last: a half-written pair fails the checksum
        print(f"{rules.key}: {paths[0]} ({len(packed):,} bytes), {paths[1]}")
    if stale:
        sys.exit(f"stale shipped tables: {', '.join(stale)}; run python scripts/ship_table.py")


if __name__ == "__main__":
    main()
