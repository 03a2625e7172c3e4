"""The package's layers (docs/architecture.md): imports flow one way, with no cycles.

Read from the source with ast, so lazy imports inside functions count as well."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solver"

# A module may import modules of its own layer and of the layers below it.  Each entry is a unit:
# a package, or the few modules of a package that sit lower than the rest of it (the Dice Duel's
# rules, which presets.py names).
LAYERS = [
    ("solver.dice", "solver.rules", "solver.lang", "solver.version", "solver.inputs"),
    ("solver.engine",),
    ("solver.duel.chips", "solver.duel.rules", "solver.duel.states"),
    ("solver.presets",),
    ("solver.strategy",),  # rules of thumb and their policy evaluation
    ("solver.stats",),  # the distribution and simulation (which may play rules of thumb)
    ("solver.advice",),  # ranked options for every objective (a win reads the distribution)
    ("solver.game", "solver.duel"),  # games on a card and the Dice Duel, coached by advice
    ("solver.ask",),  # the one door: a question read once, answered with one fallback
    ("solver.report", "solver.bench"),  # strategy pages and tables; the benchmark
    ("solver.history",),  # the games kept, what they say (reads the door's analysis)
    ("solver.cli", "solver.web", "solver.terminal", "solver"),  # the front ends; the public API
]
FRONT_ENDS = ("solver.cli", "solver.web", "solver.terminal")


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path):
    """Every solver module that `path` imports, anywhere in the file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("solver"):
                continue
            for alias in node.names:  # `from . import dice` imports a module
                candidate = f"{target}.{alias.name}"
                found.add(candidate if _exists(candidate) else target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("solver")}
    found.discard(name)
    return found


def _exists(module):
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _unit(module):
    """(layer, unit) of a module: the longest LAYERS entry it falls under."""
    best = None
    for level, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > len(best[1]):
                    best = (level, prefix)
    assert best is not None, f"{module} is in no layer of tests/test_layout.py"
    return best


def layer(module):
    return _unit(module)[0]


GRAPH = {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}
ROOT_IMPORTS = {m for m, targets in GRAPH.items() if "solver" in targets}  # the public API's


def test_nothing_below_the_front_ends_imports_the_package_root():
    """The package root is the public API for programs: a capability that imported it would
    import every layer above itself (the version has a module of its own, solver/version.py)."""
    below = sorted(m for m in ROOT_IMPORTS if m != "solver" and not m.startswith(FRONT_ENDS))
    assert not below, f"{below} import the package root"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_flow_down(module):
    for target in GRAPH[module]:
        assert layer(target) <= layer(module), f"{module} imports {target}, a layer above it"


def test_no_import_cycles():
    state = {}

    def visit(module, path):
        if state.get(module) == "done":
            return
        assert state.get(module) != "open", "import cycle: " + " -> ".join(path + [module])
        state[module] = "open"
        for target in sorted(GRAPH.get(module, ())):
            if target in GRAPH and not module.startswith(target + "."):  # a package's own __init__
                visit(target, path + [module])
        state[module] = "done"

    for module in sorted(GRAPH):
        visit(module, [])


def test_packages_import_one_way():
    """Between units (packages, LAYERS), imports never go both ways, even through others."""
    units = {}
    for module, targets in GRAPH.items():
        for target in targets:
            a, b = _unit(module)[1], _unit(target)[1]
            if a != b and a != "solver":
                units.setdefault(a, set()).add(b)
    state = {}

    def visit(unit, path):
        assert state.get(unit) != "open", ("packages import in a circle: "
                                           + " -> ".join(path + [unit]))
        if state.get(unit) == "done":
            return
        state[unit] = "open"
        for target in sorted(units.get(unit, ())):
            visit(target, path + [unit])
        state[unit] = "done"

    for unit in sorted(units):
        visit(unit, [])


def test_only_the_door_the_front_ends_and_the_preset_list_import_the_dice_duel():
    for module, targets in GRAPH.items():
        if module.startswith(("solver.duel", "solver.ask")) \
                or module in ("solver", "solver.presets") or module.startswith(FRONT_ENDS):
            continue
        assert not any(t.startswith("solver.duel") for t in targets), module


def test_modules_stay_short():
    for path in PACKAGE.rglob("*.py"):
        assert len(path.read_text().splitlines()) <= 500, path


def test_every_subpackage_says_what_it_holds():
    for init in PACKAGE.glob("*/__init__.py"):
        assert ast.get_docstring(ast.parse(init.read_text())), init


TESTS = PACKAGE.parent / "tests"


def test_no_test_file_imports_another_test_file():
    """Shared helpers live in tests/conftest.py or tests/helpers.py, never in a test file."""
    test_files = {p.stem for p in TESTS.glob("test_*.py")}
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                assert name.split(".")[0] not in test_files, f"{path.name} imports {name}"


def _functions():
    """(path, function node) of every function and method in the package."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path, node


def _is_kernel(node):
    return any("jit" in ast.unparse(d) for d in node.decorator_list)


def test_functions_stay_short():
    """No function over 60 lines, but numba kernels (one compiled call saves the calls a split
    would cost), and a long kernel says why it is long in its docstring ("Long: ...")."""
    for path, node in _functions():
        length = node.end_lineno - node.lineno + 1
        if length <= 60:
            continue
        where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({length} lines)"
        assert _is_kernel(node), where
        assert "Long: " in (ast.get_docstring(node) or ""), where
