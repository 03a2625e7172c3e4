"""`kniffel play` wraps its lines at word boundaries to the terminal's width: on an 80- or a
60-column terminal no line is longer than the terminal, and every word printed is a whole word
of the unwrapped text (never broken mid-word), the card's table rows apart (never wrapped)."""
import re

import pytest
from click.testing import CliRunner
from conftest import solved

from solver.cli import cli
from solver.terminal.card import wrapped


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    solved("kniffel").save(directory)
    return directory


def play(store, tmp_path, columns, lang):
    # the coach ("?") and its long lines, then boxes until the game stops at the end of input
    script = "\n".join(["?", "", "?", "a", "chance"] + ["a", "ones", "a", "twos"]) + "\n"
    result = CliRunner().invoke(cli, ["play", "--seed", "11", "--coach",
                                      "--players", "Annemarie,Bernhard",
                                      "--record", str(tmp_path / "g.json"),
                                      "--lang", lang, "--tables", str(store)],
                                input=script, env={"COLUMNS": str(columns)})
    return result.output


@pytest.mark.parametrize("columns, lang", [(80, "en"), (60, "de")])
def test_play_lines_fit_the_terminal_and_break_between_words(store, tmp_path, columns, lang):
    out = play(store, tmp_path, columns, lang)
    unwrapped = play(store, tmp_path, 1000, lang)  # the same game, no line wrapped: the whole words
    words = set(unwrapped.split())
    table_rows = {line for line in unwrapped.splitlines() if re.match(r"\s+\S.*\s{2,}\S", line)}
    assert len(out.splitlines()) > len(unwrapped.splitlines())  # something was wrapped
    for line in out.splitlines():
        if line in table_rows or "?" in line:  # a table row stays whole; a prompt is as typed
            continue
        # a long path stays whole
        assert len(line) < columns or len(line.split()) == 1, (columns, line)
        assert all(word in words for word in line.split()), line


def test_a_word_longer_than_the_line_stays_whole():
    text = "  keep " + "x" * 50 + " then more words here"
    lines = wrapped(text, 30).splitlines()
    assert ("x" * 50 in lines[0] + lines[1]
            and all(w in text.split() for line in lines for w in line.split()))
    assert lines[1].startswith("    ")  # a continuation: the line's indent and two spaces
