"""The README's commands run as printed: every file they read is shipped (docs/examples/ or made by
an earlier README command), and the commands that read docs/examples/ answer without an error."""
import json
import shlex
from pathlib import Path

import pytest
from conftest import run, solved
from helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
OUTPUT_OPTIONS = {"--csv", "--plot", "--out", "--record"}
FILE_ENDINGS = (".json", ".jsonl", ".toml", ".csv", ".png")


def readme_commands():
    """The `kniffel ...` commands of README.md's sh blocks, as argument lists (comments cut)."""
    commands, inside = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside:
            for part in line.split("&&"):
                part = part.split("|")[-1]  # `echo ... | kniffel ...`
                words = shlex.split(part, comments=True)
                if words and words[0] == "kniffel":
                    commands.append(words[1:])
    return commands


def test_every_file_a_readme_command_reads_exists():
    made, read = set(), []
    commands = readme_commands()
    assert len(commands) > 20
    for words in commands:
        for before, word in zip([""] + words, words):
            if before in OUTPUT_OPTIONS:
                made.add(word)
            elif word.endswith(FILE_ENDINGS) and not word.startswith("-"):
                read.append(word)
    missing = [path for path in read if path not in made and not (ROOT / path).is_file()]
    assert not missing, f"README commands read files that are not shipped: {missing}"
    assert {"docs/examples/positions.jsonl", "docs/examples/kniffel-game.json",
            "docs/examples/house-rules.toml"} <= set(read)


@pytest.fixture
def store(tmp_path, monkeypatch):
    directory = tmp_path / "tables"
    for name in ("kniffel", "yahtzee", "knobeln"):
        solved(name).save(directory)
    monkeypatch.setenv("KNIFFEL_TABLES", str(directory))
    monkeypatch.chdir(ROOT)
    return directory


def test_the_readme_commands_that_read_examples_run(capsys, store):
    commands = [words for words in readme_commands()
                if any(w.startswith("docs/examples/") for w in words)]
    assert len(commands) == 4
    for words in commands:
        code, out, err = run(capsys, *words)
        assert code == 0 and "Traceback" not in err, (words, err)
        if "--batch" in words:
            lines = (ROOT / "docs" / "examples" / "positions.jsonl").read_text().splitlines()
            answers = [json.loads(line) for line in out.splitlines()]
            assert len(answers) == len(lines) and not any("error" in a for a in answers), out[:500]
            assert "win" in answers[-1]["objective"]  # the example of an objective line
        elif words[0] == "analyze":
            assert "Anna" in out and "Ben" in out and "kostet" in out  # German, the pad's language


def test_the_example_game_is_what_the_script_writes():
    script = load_script("make_examples")
    text = (ROOT / "docs" / "examples" / "kniffel-game.json").read_text(encoding="utf-8")
    from solver.game.record import record_text
    assert record_text(script.example_game(solved("kniffel"))) == text


def test_the_readme_set_up_figures_are_current():
    script = load_script("readme_figures")
    # only while benchmarks/suite.py measures the first time
    if not (script.RESULTS / "suite.json").is_file():
        pytest.skip("no benchmarks/results/suite.json yet: run python benchmarks/suite.py")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert script.replace_block(readme, script.current_block()) == readme, \
        "run python scripts/readme_figures.py"
