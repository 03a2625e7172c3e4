"""The package's shape in figures, read from the source (nothing is imported or run): the import
graph (modules, edges, edges that point up a layer of docs/architecture.md), the public
functions named advise*, the places that write the upper-bonus crossing out, the families of
modules sharing a prefix, and the README's length.  Prints JSON.

    python scripts/layout_figures.py
"""
import argparse
import ast
import json
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"
sys.path.insert(0, str(ROOT / "tests"))

# `upper < threshold <= upper + points`, `upper < threshold and upper + p >= threshold`: the crossing
CROSSING = re.compile(r"(<\s*\w*threshold\w*\s*<=\s*\w+\s*\+|<\s*\w*threshold\W.*\+\s*\w+\s*>=\s*\w*threshold)")


def figures():
    """Every figure of the module docstring, as a dict."""
    from test_layout import GRAPH, layer  # the layers' one definition
    edges = [(a, b) for a, targets in GRAPH.items() for b in targets if b in GRAPH]
    advise = sorted(f"{_name(path)}.{node.name}" for path in _sources()
                    for node in ast.parse(path.read_text()).body
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.name.startswith("advise"))
    crossing = [f"{path.relative_to(ROOT)}:{n}" for path in _sources()
                for n, line in enumerate(_code_lines(path), 1) if CROSSING.search(line)]
    stems = Counter(path.stem.split("_")[0] + "_" for path in _sources() if "_" in path.stem)
    return {"modules": len(GRAPH), "edges": len(edges),
            "edges_up_a_layer": sum(layer(b) > layer(a) for a, b in edges),
            "public_advise_functions": advise, "upper_bonus_crossings": crossing,
            "prefix_families": {k: v for k, v in stems.items() if v >= 3 and k in ("multi_", "target_")},
            "lines_of_code": sum(len(p.read_text().splitlines()) for p in _sources()),
            "readme_lines": len((ROOT / "README.md").read_text().splitlines())}


def _code_lines(path):
    """The lines of a module with its strings and comments blanked (a docstring that mentions
    the crossing does not write it)."""
    lines = path.read_text().splitlines()
    with path.open() as source:
        for token in tokenize.generate_tokens(source.readline):
            if token.type in (tokenize.STRING, tokenize.COMMENT):
                (row, col), (end_row, end_col) = token.start, token.end
                for n in range(row, end_row + 1):
                    start = col if n == row else 0
                    stop = end_col if n == end_row else len(lines[n - 1])
                    lines[n - 1] = lines[n - 1][:start] + " " * (stop - start) + lines[n - 1][stop:]
    return lines


def _sources():
    return sorted(PACKAGE.rglob("*.py"))


def _name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    print(json.dumps(figures(), indent=1))


if __name__ == "__main__":
    main()
