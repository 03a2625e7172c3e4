"""The package's layers (docs/architecture.md): imports flow one way, with no cycles.

Read from the source with ast, so lazy imports inside functions count as well."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solver"

# A module may import modules of its own layer and of the layers below it.
LAYERS = [
    ("solver.dice", "solver.rules"),
    ("solver.engine",),
    ("solver.duel.chips", "solver.duel.rules", "solver.duel.states"),
    ("solver.presets",),
    ("solver.advice", "solver.stats", "solver.game", "solver.duel", "solver.strategy"),
    ("solver.strategy_tables", "solver.strategy_pages", "solver.bench"),
    ("solver.cli", "solver.web", "solver"),  # the CLI, the web app, the public API in solver/__init__.py
]


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


def layer(module):
    best = None
    for level, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (level, len(prefix))
    return best[0]


GRAPH = {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}
# `from solver import __version__` reads the package's version string, not the API
GRAPH = {m: {t for t in targets if t != "solver" or m == "solver.cli.__main__"} for m, targets in GRAPH.items()}


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


def test_only_the_cli_the_api_and_the_preset_list_import_the_dice_duel():
    for module, targets in GRAPH.items():
        if module.startswith("solver.duel") or module in ("solver", "solver.presets") \
                or module.startswith(("solver.cli", "solver.web")):
            continue
        assert not any(t.startswith("solver.duel") for t in targets), module


def test_modules_stay_short():
    for path in PACKAGE.rglob("*.py"):
        assert len(path.read_text().splitlines()) <= 500, path


def test_every_subpackage_says_what_it_holds():
    for init in PACKAGE.glob("*/__init__.py"):
        assert ast.get_docstring(ast.parse(init.read_text())), init
