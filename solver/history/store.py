"""The history database: a local SQLite file (Python's sqlite3) that keeps every game with each
decision and its price (ask/analysis.py's), so that `kniffel history` can say what a player's
games say.

Where: `--db PATH`, else $KNIFFEL_DB, else history.sqlite in the user data directory.  The file
is ours only when SQLite's application_id says so: any other file (not SQLite, another
program's database, a damaged one, one written by a newer kniffel) is refused with one line and
left exactly as it is; a missing file is created.  The schema is versioned (user_version) and
migrated forward in one transaction per step (MIGRATIONS).  Writers take the database in WAL
mode with a busy timeout, one transaction a game, so two processes writing at once both land.

A game is stored once: its key is the SHA-256 of the record's moves (rules, seed, dice mode,
players, turns), so the same game analysed twice is one game, and a game stored before it ended
(a saved, unfinished game) is replaced by the longer one that continues it.
"""
import hashlib
import json
import os
import sqlite3
import sys
import time
from pathlib import Path

APPLICATION_ID = 0x4B4E4946  # "KNIF": SQLite's application_id of a kniffel history
SCHEMA_VERSION = 2
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_MS = 30_000  # how long a writer waits for another one (a game's insert takes milliseconds)


class HistoryError(Exception):
    """The history database cannot be used: one line saying which file and why."""


def user_data_dir():
    """This platform's user data directory for kniffel."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "kniffel"


def default_path():
    """$KNIFFEL_DB, else history.sqlite in the user data directory."""
    if os.environ.get("KNIFFEL_DB"):
        return Path(os.environ["KNIFFEL_DB"])
    return user_data_dir() / "history.sqlite"


def _run_script(db, script):
    """Each statement of `script`, inside the caller's transaction (executescript would commit
    it first: a migration is one transaction)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _v1(db):
    """The first schema: games, their players, every decision and the kinds it shows."""
    _run_script(db, """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,       -- SHA-256 of the record's moves
            line TEXT NOT NULL,             -- SHA-256 of rules, seed, dice mode and players
            rules TEXT NOT NULL,            -- the rules' key
            source TEXT NOT NULL,           -- play, web or analyze
            stored REAL NOT NULL,           -- seconds since 1970, when stored
            finished INTEGER NOT NULL,
            turns INTEGER NOT NULL,         -- the turns the record holds
            record TEXT NOT NULL            -- the game record, JSON
        );
        CREATE INDEX games_line ON games(line);
        CREATE TABLE players (
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            score INTEGER NOT NULL,
            finished INTEGER NOT NULL,
            loss REAL NOT NULL,             -- expected points given away in the game
            decisions INTEGER NOT NULL,
            optimal INTEGER NOT NULL,
            PRIMARY KEY (game, seat)
        );
        CREATE INDEX players_name ON players(name);
        CREATE TABLE decisions (
            id INTEGER PRIMARY KEY,
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            number INTEGER NOT NULL,        -- its place among the game's decisions
            round INTEGER NOT NULL,
            dice TEXT NOT NULL,             -- "13356"
            rolls_left INTEGER NOT NULL,
            choice TEXT NOT NULL,           -- JSON, as analyze gives it
            best TEXT NOT NULL,
            loss REAL NOT NULL,
            optimal INTEGER NOT NULL
        );
        CREATE INDEX decisions_game ON decisions(game, seat);
        CREATE TABLE kinds (
            decision INTEGER NOT NULL REFERENCES decisions(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,             -- kinds.py's name of a kind of mistake
            name TEXT NOT NULL,             -- the player's and the decision's loss again: a
            loss REAL NOT NULL              -- player's kinds summed from one index
        );
        CREATE INDEX kinds_decision ON kinds(decision);
        CREATE INDEX kinds_player ON kinds(name, kind, loss);
    """)


def _v2(db):
    """The drill (drill.py): the positions each player is drilled on, when each comes back, and
    every answer given."""
    _run_script(db, """
        CREATE TABLE drill (
            id INTEGER PRIMARY KEY,
            player TEXT NOT NULL,
            key TEXT NOT NULL,              -- SHA-256 of the question
            question TEXT NOT NULL,         -- JSON: rules, card, bonuses, jokers, dice, rolls left
            source TEXT NOT NULL,           -- "game" (the player's own decision) or "built-in"
            decision INTEGER REFERENCES decisions(id) ON DELETE SET NULL,
            price REAL NOT NULL,            -- points its first answer gave away (drill.py)
            streak INTEGER NOT NULL,        -- right answers in a row
            due INTEGER NOT NULL,           -- asked again after this many answers in all
            UNIQUE (player, key)
        );
        CREATE INDEX drill_due ON drill(player, due);
        CREATE TABLE drill_answers (
            id INTEGER PRIMARY KEY,
            item INTEGER NOT NULL REFERENCES drill(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            answered REAL NOT NULL,         -- seconds since 1970
            choice TEXT NOT NULL,           -- JSON, a decision as records keep it
            best TEXT NOT NULL,
            cost REAL NOT NULL,             -- expected points the answer gives away
            right INTEGER NOT NULL
        );
        CREATE INDEX drill_answers_player ON drill_answers(player);
    """)


MIGRATIONS = [_v1, _v2]  # MIGRATIONS[v] takes a database of schema version v to v + 1


class History:
    """An open history database (open_history)."""

    def __init__(self, db, path):
        self.db, self.path = db, path

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def store_game(self, record, analysis, kinds, source):
        """Keep a game: its `record`, ask/analysis.analyze's `analysis` of it (each decision's
        price), `kinds` (per decision, the kinds of mistake it shows: kinds.py) and `source`
        ("play", "web", "analyze").  The same game again is kept once; a game it continues
        (the same line, fewer turns, the same turns so far) is replaced.  Returns its id."""
        with self.writing():
            return self.insert_game(record, analysis, kinds, source)

    def insert_game(self, record, analysis, kinds, source):
        """store_game's work, inside a transaction the caller holds (many games at once)."""
        db = self.db
        key, line = game_keys(record)
        turns = record.get("turns", [])
        found = db.execute("SELECT id FROM games WHERE key = ?", (key,)).fetchone()
        if found:
            return found[0]
        for old_id, old_turns, text in db.execute(
                "SELECT id, turns, record FROM games WHERE line = ?", (line,)).fetchall():
            if old_turns < len(turns) and _is_prefix(json.loads(text)["turns"], turns):
                db.execute("DELETE FROM games WHERE id = ?", (old_id,))
        game = db.execute(
            "INSERT INTO games (key, line, rules, source, stored, finished, turns, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, line, analysis["rules"], source, time.time(), int(bool(record.get("finished"))),
             len(turns), json.dumps(record))).lastrowid
        db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
            (game, seat, p["name"], p["score"], int(p["finished"]), p["loss"], p["decisions"],
             p["optimal"]) for seat, p in enumerate(analysis["players"])])
        names = [p["name"] for p in analysis["players"]]
        for number, (d, found_kinds) in enumerate(zip(analysis["decisions"], kinds)):
            decision = db.execute(
                "INSERT INTO decisions (game, seat, number, round, dice, rolls_left, choice, best, "
                "loss, optimal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, d["player"], number, d["round"], "".join(map(str, d["dice"])),
                 d["rolls_left"], json.dumps(d["choice"]), json.dumps(d["best"]), d["loss"],
                 int(d["optimal"]))).lastrowid
            db.executemany("INSERT INTO kinds VALUES (?, ?, ?, ?)",
                           [(decision, kind, names[d["player"]], d["loss"])
                            for kind in found_kinds])
        return game

    def writing(self):
        """A transaction that takes the write lock at once (BEGIN IMMEDIATE): a writer waits
        for another instead of failing half way."""
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, exc, tb):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _is_prefix(short, long):
    """Whether the turns `short` are where the turns `long` began (the last one may have had
    fewer decisions then)."""
    if len(short) > len(long) or not short:
        return False
    *whole, last = short
    if whole != long[:len(whole)]:
        return False
    other = long[len(whole)]
    return {k: v for k, v in last.items() if k != "decisions"} == \
        {k: v for k, v in other.items() if k != "decisions"} and \
        last.get("decisions", []) == other.get("decisions", [])[:len(last.get("decisions", []))]


def game_keys(record):
    """(key, line): SHA-256 of the record's moves, and of what names its game (rules, seed,
    dice mode, players) without the moves."""
    head = {k: record.get(k) for k in ("rules", "seed", "real_dice", "players")}
    line = json.dumps(head, sort_keys=True, separators=(",", ":"))
    moves = json.dumps(record.get("turns", []), sort_keys=True, separators=(",", ":"))
    return (hashlib.sha256((line + "\n" + moves).encode()).hexdigest(),
            hashlib.sha256(line.encode()).hexdigest())


def open_history(path=None, write=True):
    """The History of the database at `path` (default_path()).  To write (`write`): created
    with the current schema when the file is missing, checked whole (quick_check) before it is
    first written to.  To read: a missing file is HistoryError.  A schema older than this
    kniffel's is migrated.  HistoryError, the file left untouched, when it is not a kniffel
    history, is damaged, or was written by a newer kniffel."""
    path = Path(path) if path is not None else default_path()
    exists = path.exists()
    if exists:
        _check_header(path)
    elif not write:
        raise HistoryError(f"{path}: no history there yet (a game played or analysed keeps one)")
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HistoryError(f"{path}: cannot create its folder ({exc.strerror})") from None
    try:
        db = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: cannot open it ({exc})") from None
    try:
        _prepare(db, path, exists, write)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise HistoryError(f"{path}: damaged, not read and left as it is ({exc})") from None
    except HistoryError:
        db.close()
        raise
    return History(db, path)


def _check_header(path):
    """HistoryError unless `path` is a regular file that starts as an SQLite database does (or
    is empty: a file created and not yet written)."""
    if not path.is_file():
        raise HistoryError(f"{path}: not a regular file; not used")
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise HistoryError(f"{path}: cannot read it ({exc.strerror})") from None
    if head and head != SQLITE_HEADER:
        raise HistoryError(f"{path}: not an SQLite database, so not a kniffel history; "
                           "left as it is (--db or KNIFFEL_DB names another file)")


def _prepare(db, path, existed, write):
    """Check the database is ours, of a schema this kniffel reads and (before it is written to)
    whole; migrate it; set the connection up (WAL, busy timeout, foreign keys)."""
    db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    application = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application != APPLICATION_ID and (tables or application):
        raise HistoryError(f"{path}: another program's SQLite database, not a kniffel history; "
                           "left as it is (--db or KNIFFEL_DB names another file)")
    if version > SCHEMA_VERSION:
        raise HistoryError(f"{path}: written by a newer kniffel (history schema {version}, this "
                           f"one reads up to {SCHEMA_VERSION}); left as it is")
    if existed and (write or version < SCHEMA_VERSION):
        found = db.execute("PRAGMA quick_check").fetchone()[0]
        if found != "ok":  # a damaged file is never written to
            raise HistoryError(f"{path}: damaged ({found}); left as it is")
    if write and db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA foreign_keys = ON")
    for step in range(version, SCHEMA_VERSION):
        with _Transaction(db):
            if db.execute("PRAGMA user_version").fetchone()[0] != step:
                continue  # another process migrated it meanwhile
            MIGRATIONS[step](db)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {step + 1}")
