"""The package's shape in figures, read from the source (nothing is imported or run).  Prints JSON:

- modules, import edges, edges that point up a layer of docs/architecture.md (tests/test_layout.py
  holds the layers), and imports of the package root by modules below the front ends;
- parsers of a request: the modules with a function that reads a question from a mapping (the
  command line's options, a batch line, a web request): it reads a position field ("card",
  "chips") and a turn or goal field ("dice", "rolls_left", "goal", "target", "opponents",
  "players") by name, and makes what advice is asked with (a Query, Request, Position or
  Goal) -- ask/request.py should be the only one;
- fallback deciders: the functions that catch a goal's Unanswerable (or the budget's
  OverBudget, or a stopped solve's Cancelled) and so decide what is answered instead;
- upper-bonus crossings: every comparison that involves the upper-bonus threshold, however it is
  spelled: the threshold's value is followed from where it is read (a Rules' field, the kernels'
  params[P_THRESHOLD], a parameter named so) through every name assigned from it in the same
  function; the places that cap a total at it (min) are listed apart;
- hasattr dispatches: the calls of hasattr, which choose behaviour by an object's attributes;
- functions ranking options: the functions that build an Advice, beside the goal classes;
- public names defined in more than one module, the module families sharing a prefix, the
  longest module and function, and the README's length.

    python scripts/layout_figures.py
"""
import argparse
import ast
import json
import sys
import tokenize
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"
sys.path.insert(0, str(ROOT / "tests"))

POSITION_FIELDS = {"card", "chips"}
TURN_OR_GOAL_FIELDS = {"dice", "rolls_left", "goal", "target", "opponents", "players"}
ASKED_WITH = {"Query", "Request", "Position", "checked_query", "PointsGoal", "TargetGoal",
              "WinGoal", "SeatWinGoal", "ChipsGoal"}
FALLBACK_ERRORS = {"Unanswerable", "OverBudget", "Cancelled"}
FRONT_ENDS = ("solver.cli", "solver.web", "solver.terminal")


def figures():
    """Every figure of the module docstring, as a dict."""
    from test_layout import GRAPH, ROOT_IMPORTS, layer  # the layers' one definition
    edges = [(a, b) for a, targets in GRAPH.items() for b in targets if b in GRAPH]
    trees = {path: ast.parse(path.read_text()) for path in _sources()}
    crossings, caps = _threshold_uses(trees)
    return {
        "modules": len(GRAPH), "edges": len(edges),
        "edges_up_a_layer": sum(layer(b) > layer(a) for a, b in edges),
        "package_root_imports_below_front_ends": sorted(
            m for m in ROOT_IMPORTS if m != "solver" and not m.startswith(FRONT_ENDS)),
        "parsers_of_a_request": _request_parsers(trees),
        "fallback_deciders": _fallback_deciders(trees),
        "upper_bonus_crossings": crossings, "upper_bonus_caps": caps,
        "hasattr_dispatches": [_where(path, node) for path, tree in trees.items()
                               for node in ast.walk(tree) if _called(node) == "hasattr"],
        "functions_ranking_options": _advice_builders(trees),
        "goal_classes": sorted(_name(path) + "." + node.name for path, tree in trees.items()
                               for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                               and node.name.endswith("Goal") and node.name != "Goal"),
        "public_names_in_several_modules": _shared_names(trees),
        "prefix_families": {k: v for k, v in _prefixes().items() if v >= 3},
        "longest_module": max((len(p.read_text().splitlines()), str(p.relative_to(ROOT)))
                              for p in _sources()),
        "longest_function": max(_function_lengths(trees)),
        "lines_of_code": sum(len(p.read_text().splitlines()) for p in _sources()),
        "readme_lines": len((ROOT / "README.md").read_text().splitlines())}


def _functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _request_parsers(trees):
    """The modules with a function that reads a question (module docstring)."""
    found = set()
    for path, tree in trees.items():
        for function in _functions(tree):
            read = defaultdict(set)  # mapping expression -> the fields read from it
            for node in ast.walk(function):
                key, target = _field_read(node)
                if isinstance(key, str):
                    read[target].add(key)
            makes = any(_called(node) in ASKED_WITH for node in ast.walk(function))
            if makes and any(keys & POSITION_FIELDS and keys & TURN_OR_GOAL_FIELDS
                             for keys in read.values()):
                found.add(str(path.relative_to(ROOT)))
    return sorted(found)


def _field_read(node):
    """(field, the mapping's text) of `mapping.get("field"...)`, `"field" in mapping` or
    `mapping["field"]` read, else (None, None)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "get" and node.args and isinstance(node.args[0], ast.Constant):
        return node.args[0].value, ast.unparse(node.func.value)
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
            and isinstance(node.slice, ast.Constant):
        return node.slice.value, ast.unparse(node.value)
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) \
            and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return node.left.value, ast.unparse(node.comparators[0])
    return None, None


def _fallback_deciders(trees):
    found = []
    for path, tree in trees.items():
        for function in _functions(tree):
            for node in ast.walk(function):
                if isinstance(node, ast.ExceptHandler) and node.type is not None \
                        and FALLBACK_ERRORS & _names_in(node.type):
                    found.append(f"{_name(path)}.{function.name}")
                    break
    return sorted(set(found))


def _names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _is_threshold_source(node):
    """Where the threshold's value is read: a Rules' upper_bonus_threshold, the kernels'
    params[P_THRESHOLD], or a name that says it holds it."""
    if isinstance(node, ast.Attribute) and node.attr == "upper_bonus_threshold":
        return True
    if isinstance(node, ast.Name) and "threshold" in node.id.lower():
        return True
    return isinstance(node, ast.Subscript) and "P_THRESHOLD" in ast.unparse(node.slice)


def _threshold_uses(trees):
    """(comparisons, caps): the places where a value that came from the threshold is compared,
    and where something is capped at it (min).  A value a call returns is the called
    function's: the rule applied there, not here (the call's own comparisons are counted where
    it is defined)."""
    crossings, caps = [], []
    for path, tree in trees.items():
        lines = _code_lines(path)
        for function in _functions(tree):
            tainted = _tainted(function)
            for node in ast.walk(function):
                if isinstance(node, ast.Compare) and _touches(node, tainted) \
                        and lines[node.lineno - 1].strip():
                    crossings.append(_where(path, node))
                elif _called(node) in ("min", "max", "minimum", "maximum") \
                        and any(_touches(arg, tainted) for arg in node.args):
                    caps.append(_where(path, node))
    return sorted(set(crossings)), sorted(set(caps))


def _touches(expr, tainted):
    """Whether `expr` holds the threshold's value, outside the calls in it."""
    if _is_threshold_source(expr) or isinstance(expr, ast.Name) and expr.id in tainted:
        return True
    if isinstance(expr, ast.Call) and _called(expr) not in ("min", "max", "minimum", "maximum",
                                                            "int", "float", "abs"):
        return False
    return any(_touches(child, tainted) for child in ast.iter_child_nodes(expr))


def _tainted(function):
    """The names of `function` assigned (at any depth) from the threshold or from such names
    (a tuple's targets each from its own value)."""
    tainted = set()
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            pairs = []
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                            and len(target.elts) == len(node.value.elts):
                        pairs += list(zip(target.elts, node.value.elts))
                    else:
                        pairs.append((target, node.value))
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                pairs.append((node.target, node.value))
            for target, value in pairs:
                if _touches(value, tainted):
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in tainted:
                            tainted.add(name.id)
                            changed = True
    return tainted


def _called(node):
    if not isinstance(node, ast.Call):
        return None
    return node.func.id if isinstance(node.func, ast.Name) else \
        node.func.attr if isinstance(node.func, ast.Attribute) else None


def _advice_builders(trees):
    return sorted({f"{_name(path)}.{function.name}" for path, tree in trees.items()
                   for function in _functions(tree)
                   for node in ast.walk(function) if _called(node) == "Advice"})


def _shared_names(trees):
    """Public top-level names (functions, classes, constants) defined in several modules."""
    where = defaultdict(list)
    for path, tree in trees.items():
        for node in tree.body:
            names = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else \
                [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            for name in names:
                if not name.startswith("_"):
                    where[name].append(_name(path))
    return {name: modules for name, modules in sorted(where.items()) if len(modules) > 1}


def _function_lengths(trees):
    for path, tree in trees.items():
        for function in _functions(tree):
            yield function.end_lineno - function.lineno + 1, f"{_name(path)}.{function.name}"


def _prefixes():
    return Counter(path.stem.split("_")[0] + "_" for path in _sources() if "_" in path.stem)


def _where(path, node):
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def _code_lines(path):
    """The lines of a module with its strings and comments blanked (a docstring that mentions
    the threshold does not compare with it)."""
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


def counts(found):
    """The figures as counts (lists by their length), as the README and a closing note give
    them."""
    return {k: len(v) if isinstance(v, (list, dict)) and k != "longest_module" else v
            for k, v in found.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", action="store_true", help="each list as its length")
    args = parser.parse_args(argv)
    found = figures()
    print(json.dumps(counts(found) if args.counts else found, indent=1))


if __name__ == "__main__":
    main()
