"""README.md's preset table is what scripts/preset_table.py computes now."""
import importlib.util
from pathlib import Path

from conftest import solved

from solver.presets import all_presets

ROOT = Path(__file__).resolve().parent.parent


def test_readme_preset_table_is_current():
    spec = importlib.util.spec_from_file_location("preset_table", ROOT / "scripts" / "preset_table.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    block = script.table_markdown([solved(name) for name in all_presets()])
    readme = (ROOT / "README.md").read_text()
    assert script.replace_block(readme, block) == readme, "run scripts/preset_table.py"
    assert "| `yahtzee` |" in block and "254.5877287" in block
