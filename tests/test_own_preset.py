"""A preset is one definition (rules/definitions.py): its rules, its title and description in
both languages, the language of its pad and its boxes' names.  A new one, given as a rules file
with a "name" in the folder of one's own presets ($KNIFFEL_PRESETS), works in every command and
on the web page with no other file changed."""
import json
import os
import subprocess
import sys
import time

import pytest

from solver.lang import LANGUAGES
from solver.presets import all_presets, own_presets
from solver.rules import RulesError
from solver.rules.definitions import DEFINITIONS, definition

PRESET = """name = "kniffel-60"
preset = "kniffel"
upper_bonus_threshold = 60
title.de = "Kniffel, Bonus ab 60"
title.en = "Kniffel, bonus from 60"
description.de = "Kniffel mit dem oberen Bonus schon ab 60 Punkten"
description.en = "Kniffel with the upper bonus from 60 points already"
"""


def test_every_preset_has_its_words_in_every_language():
    for name, rules in all_presets().items():
        found = rules.definition
        assert found.name == name and found.language in LANGUAGES
        for lang in LANGUAGES:
            assert found.describe(lang).strip() and found.titled(lang).strip(), (name, lang)


@pytest.mark.parametrize("text, words", [
    ('name = "mine"\npreset = "kniffel"\n', "needs its description in each of de, en"),
    ('name = "mine"\npreset = "nope"\ndescription = {de = "a", en = "b"}\n', "unknown preset"),
    ('name = "kniffel"\npreset = "kniffel-basic"\ndescription = {de = "a", en = "b"}\n',
     "exists already"),
    ('name = "mine"\npreset = "kniffel"\nlucky = 7\ndescription = {de = "a", en = "b"}\n',
     "unknown rules option"),
    ('name = "mine"\npreset = "kniffel"\nlanguage = "fr"\ndescription = {de = "a", en = "b"}\n',
     "language must be de or en"),
    ('name = "a b"\npreset = "kniffel"\ndescription = {de = "a", en = "b"}\n', "a preset's name"),
    ('name = "mine"\npreset = "kniffel"\ndescription = {de = "a"}\n', "in each of de, en"),
])
def test_a_bad_preset_file_is_one_line_and_known_presets_stay(tmp_path, text, words):
    (tmp_path / "mine.toml").write_text(text)
    errors = own_presets(tmp_path)
    assert len(errors) == 1 and words in errors[0] and "\n" not in errors[0], errors
    assert "mine" not in all_presets() and all_presets()["kniffel"].upper_bonus_threshold == 63


def test_a_definition_takes_its_base_words_but_its_own_description():
    found = definition("kniffel-60", {"upper_bonus_threshold": 60,
                                      "description": {"de": "sechzig", "en": "sixty"}},
                       DEFINITIONS["kniffel"])
    assert (found.game, found.language, found.boxes) == ("scorecard", "de",
                                                         DEFINITIONS["kniffel"].boxes)
    assert found.describe("en") == "sixty" and found.titled("de") == "kniffel-60"
    with pytest.raises(RulesError, match="needs its description"):
        definition("kniffel-60", {}, DEFINITIONS["kniffel"])


def kniffel(env, *args, stdin=None):
    done = subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True,
                          text=True, env=env, input=stdin, timeout=600)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.slow  # solves the new preset's table, writes its strategy tables, runs a server
def test_a_new_preset_works_in_every_command_and_page(tmp_path):
    folder = tmp_path / "presets"
    folder.mkdir()
    (folder / "kniffel-60.toml").write_text(PRESET)
    env = {**os.environ, "KNIFFEL_PRESETS": str(folder), "KNIFFEL_TABLES": str(tmp_path / "t")}
    listed = kniffel(env, "rules")
    assert listed.returncode == 0 and "kniffel-60" in listed.stdout
    advice = kniffel(env, "advise", "--rules", "kniffel-60", "--card", "sixes=30,fives=25,ones=5",
                     "--dice", "13356", "--rolls-left", "2")
    assert advice.returncode == 0 and "Bonus (+35 ab 60) ist erreicht" in advice.stdout
    record = tmp_path / "game.json"
    played = kniffel(env, "play", "--rules", "kniffel-60", "--seed", "3", "--record", str(record),
                     "--coach", stdin="\nchance\nq\n")
    assert played.returncode == 0 and "Kniffel mit dem oberen Bonus schon ab 60" in played.stdout
    assert "Bonus (ab 60)" in played.stdout  # the card's row, in the pad's language
    analysed = kniffel(env, "analyze", str(record), "--json")
    assert analysed.returncode == 0 and json.loads(analysed.stdout)["rules"] == "kniffel-60"
    written = kniffel(env, "tables", "--rules", "kniffel-60", "--out", str(tmp_path / "out"),
                      "--format", "md", "--lang", "en")
    assert written.returncode == 0, written.stderr
    opening = (tmp_path / "out" / "kniffel-60" / "opening.md").read_text()
    assert "Kniffel with the upper bonus from 60 points already" in opening
    _the_page_plays_it(tmp_path, env)


def _the_page_plays_it(tmp_path, env):
    import httpx
    from helpers import server
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        with server(tmp_path) as (base, _, _):
            info = httpx.get(base + "/api/info", timeout=30).json()
            preset = next(p for p in info["presets"] if p["name"] == "kniffel-60")
            assert preset["title"] == {"de": "Kniffel, Bonus ab 60", "en": "Kniffel, bonus from 60"}
            assert preset["options"]["upper_bonus_threshold"] == 60
            body = {"rules": "kniffel-60", "players": ["a"], "seed": 1}
            new = httpx.post(base + "/api/new", json=body, timeout=120)
            for _ in range(600):  # its table is solved in the background, as the page waits
                if new.status_code != 503:
                    break
                time.sleep(0.5)
                new = httpx.post(base + "/api/new", json=body, timeout=120)
            new = new.json()
            assert new["rules"]["upper_bonus_threshold"] == 60, new
            rolled = httpx.post(base + "/api/game", json={"record": new["record"],
                                                          "move": {"roll": True}},
                                timeout=120).json()
            assert rolled["advice"]["options"] and rolled["rules"]["key"] == "kniffel-60"
    finally:
        os.environ.clear()
        os.environ.update(saved)
