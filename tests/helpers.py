"""Helpers shared by several test files (a test file never imports another test file)."""
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
from conftest import solved

from solver.engine.target.solve import solve_target


def random_card(rules, rng, n_open, open_must=()):
    """A card with n_open open boxes (always including `open_must`), random possible points."""
    others = [b for b in rules.boxes if b not in open_must]
    open_boxes = set(open_must) | set(rng.choice(others, size=n_open - len(open_must),
                                                 replace=False))
    card = {}
    for box in rules.boxes:
        if box not in open_boxes:
            points = sorted(rules.possible_points(box))
            card[box] = int(rng.choice(points))
    kniffel = rules.boxes[rules.kniffel_box]
    if card.get(kniffel) not in (None, 0) and rng.random() < 0.5:
        card[kniffel] = 50  # holding 50 is where the interesting rules live
    bonuses = 0
    if rules.extra_bonus and (card.get(kniffel) == 50 or
                              (kniffel in card and rules.extra_bonus_requires == "filled")):
        bonuses = int(rng.integers(0, min(len(card) - 1, rules.cap_count) + 1))
    jokers = int(rng.integers(0, min(2, rules.jokers) + 1))
    return card, bonuses, jokers



_TABLES = {}


def target_table(rules, within=0):
    """The target table of `rules` for the sub-game of the sets containing `within`, solved
    once per test session."""
    if (rules, within) not in _TABLES:
        _TABLES[rules, within] = solve_target(rules, progress=False, within=within,
                                              expected=solved(rules).values)
    return _TABLES[rules, within]



# --- the analysis of a hand-made game with known mistakes ---

def quick(dice, box, points, rolls_left=2):
    return {"dice": dice, "rolls_left": rolls_left, "box": box, "points": points}


HAND_MADE = {
    "rules": "kniffel",
    "players": ["Eva"],
    "turns": [{"decisions": d} for d in [
        [quick([2, 6, 6, 6, 6], "Sechser", 24)],
        [{"dice": [1, 2, 5, 5, 5], "rolls_left": 2, "keep": [5, 5, 5]},
         quick([3, 5, 5, 5, 5], "fives", 20, 1)],
        [{"dice": [2, 3, 4, 4, 4], "rolls_left": 2, "keep": [4, 4, 4]},
         {"dice": [1, 1, 4, 4, 4], "rolls_left": 1, "keep": [4, 4, 4]},
         quick([4, 4, 4, 6, 6], "full_house", 25, 0)],
        [quick([3, 3, 3, 5, 6], "threes", 9)],
        [quick([2, 2, 2, 2, 5], "twos", 8)],
        [quick([1, 2, 4, 4, 6], "fours", 8)],
        [quick([1, 2, 3, 4, 5], "large_straight", 40)],
        [quick([2, 3, 4, 5, 5], "kleine_strasse", 30)],
        [quick([5, 5, 6, 6, 6], "three_kind", 28)],
        [quick([1, 6, 6, 6, 6], "four_kind", 25)],
        [quick([1, 2, 3, 5, 6], "kniffel", 0)],  # a scratch with two rolls left: a mistake
        # ones and chance open, the upper bonus already earned (69 >= 63)
        [{"dice": [1, 1, 2, 6, 6], "rolls_left": 2, "keep": [1, 1, 6, 6]},
         {"dice": [1, 1, 5, 6, 6], "rolls_left": 1, "keep": [1, 1, 6, 6]},
         quick([1, 1, 5, 6, 6], "chance", 19, 0)],  # mistake: ones (2) is better
        # only ones open
        [{"dice": [1, 2, 3, 4, 5], "rolls_left": 2, "keep": []},  # mistake: keep the 1
         {"dice": [1, 1, 3, 4, 6], "rolls_left": 1, "keep": [1, 1, 3]},  # mistake: the 3
         quick([1, 1, 1, 3, 4], "ones", 3, 0)],
    ]]}


def hand_worked_losses():
    """Losses of the last two turns, by hand, as exact fractions.

    A lone upper box: each die not yet showing the face shows it after k more rolls with
    probability 1 - (5/6)^k.  A lone chance: one die with k rolls is worth e_k, e_1 = 7/2,
    e_2 = (4 + 5 + 6)/6 + 3/6 e_1 = 17/4 (keep 4-6), e_3 = (5 + 6)/6 + 4/6 e_2 = 14/3 (keep 5-6)."""
    ones_later = 5 * (1 - Fraction(5, 6) ** 3)  # ones alone, a whole turn: 455/216
    chance_later = 5 * Fraction(14, 3)  # chance alone, a whole turn: 70/3
    chance_instead_of_ones = (2 + chance_later) - (19 + ones_later)
    two_rolls = 1 - Fraction(5, 6) ** 2  # 11/36
    keep_nothing = (1 + 4 * two_rolls) - 5 * two_rolls  # keep the 1 vs keep nothing
    keep_the_three = (2 + 3 * Fraction(1, 6)) - (2 + 2 * Fraction(1, 6))  # reroll 3 dice vs 2
    return [chance_instead_of_ones, keep_nothing, keep_the_three, 0]


def greedy_game(players=2, seed=11, rules=None):
    """A whole seeded game: reroll everything twice, then take the most valuable chip offered."""
    from solver.duel.multiplayer import game as mg
    from solver.duel.multiplayer import record as multi_record
    from solver.duel.rules import get_rules
    rules = rules or get_rules()
    record, hand = multi_record.new_game(rules, [f"P{i}" for i in range(players)],
                                         seed).record(), None
    steps = 0
    while not record["finished"]:
        game = multi_record.rebuild(record, hand)
        if hand is None:
            record, hand = multi_record.apply_move(record, hand, {"roll": True})
        elif game.rolls_left > 0 and steps % 3 != 2:
            record, hand = multi_record.apply_move(record, hand, {"keep": []})
        else:
            category = int(rules.categories[0][multi_record._index(hand)])
            moves = mg.end_moves(game.table, int(rules.categories[1][category]), category == 0,
                                 rules)
            move = max(moves, key=lambda m: -1 if m[0] == "no_chip" else m[1])
            choice = {"no_chip": True} if move[0] == "no_chip" else {"take": mg.TYPES[move[1]],
                                                                     "from": move[2]}
            record, hand = multi_record.apply_move(record, hand, choice)
        steps += 1
    return record


def late(rules, n_open, seed):
    """A card with n_open open boxes (the last ones) and plausible points, seeded."""
    rng = np.random.default_rng(seed)
    card = {}
    for box in rules.boxes[:rules.n_boxes - n_open]:
        points = sorted(rules.possible_points(box))
        card[box] = int(points[rng.integers(len(points) // 3, len(points))])
    return card


def build_under_way(rules, directory=None, stage="target", fraction=0.4, eta=125, elapsed=80):
    """Write the progress file of a build of `rules`' win tables (ask/build.py) as if this
    test's process were the builder, `elapsed` seconds in; returns its path."""
    from solver.ask import build
    _, path = build._paths(rules, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    now = time.time()
    path.write_text(json.dumps({"pid": os.getpid(), "stage": stage, "fraction": fraction,
                                "eta_seconds": eta, "started": now - elapsed, "updated": now}))
    return path


def load_script(name, folder="scripts"):
    """The module of the repository's FOLDER/NAME.py (a script or a benchmark, not a package)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{folder}_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def web_client(app, **options):
    """Starlette's test client as the page talks: to the address the server listens on, with
    JSON bodies (web/guard.py refuses other hosts and content types)."""
    from starlette.testclient import TestClient
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"}, **options)


# --- a real `kniffel serve` (tests/test_web_server.py, tests/test_web_connections.py) -----------

JSON = {"content-type": "application/json"}


@contextlib.contextmanager
def server(tmp_path, *options, tables=None, preexec_fn=None):
    """A running `kniffel serve` (its store empty but for the shipped kniffel table, or the
    store `tables`; preexec_fn: run in the server's process before it starts, a resource limit
    say): yields (base URL, the process, its stderr file)."""
    import httpx
    env = {**os.environ, "KNIFFEL_TABLES": str(tables or tmp_path / "tables")}
    log = open(tmp_path / "stderr.txt", "w+")
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", "0",
                                *options],
                               stdout=subprocess.PIPE, stderr=log, text=True, env=env,
                               preexec_fn=preexec_fn)
    try:
        line = process.stdout.readline()
        match = re.fullmatch(r"kniffel serve: (http://127\.0\.0\.1:\d+)/\n", line)
        assert match, line
        base = match.group(1)
        for _ in range(600):  # the workers warm up (imports, table, kernels) before they compute
            try:
                status = httpx.get(base + "/api/jobs", timeout=5).json()
                if all(p["ready"] for p in status["processes"]):
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        yield base, process, log
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        log.close()


def status(base):
    """GET /api/jobs of the server at `base`."""
    import httpx
    return httpx.get(base + "/api/jobs", timeout=5).json()


def send_raw(base, body, headers=JSON):
    """Send a POST /api/advise on a socket of its own, not waiting for the answer: the socket
    (close it to disconnect)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    data = json.dumps(body).encode()
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    sock.sendall(f"POST /api/advise HTTP/1.1\r\nHost: {host}:{port}\r\n{head}Content-Length: "
                 f"{len(data)}\r\n\r\n".encode() + data)
    return sock


def wait_for(condition, seconds):
    """Whether `condition()` became true within `seconds` (checked every 50 ms)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def live_processes():
    """{pid: (parent pid, process group)} of every live (not zombie) process (Linux /proc)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            if fields[0] != "Z":
                found[int(entry)] = (int(fields[1]), int(fields[2]))
    return found


def played(table, name, seed, mistake):
    """A seeded game of `name` played by the advice for points, but where mistake(turn, best)
    says otherwise: the record."""
    from solver import advise
    from solver.game import session
    record, hand = session.new_record(table.rules.key, [name], seed), None
    while True:
        game, turn = session.rebuild(record, hand)
        if turn is None:
            return record
        if hand is None:
            record, hand = session.apply_move(record, None, {"roll": True})
            continue
        advice = advise(turn.position, table, dice=list(hand), rolls_left=turn.rolls_left)
        best = advice.options[0]
        move = mistake(turn, list(hand), best) or (
            {"keep": best["keep"]} if best["action"] == "keep"
            else {"box": best["box"], "jokers": []})
        record, hand = session.apply_move(record, hand, move)
        if "box" in move:
            hand = None
