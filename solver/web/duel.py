"""The web coach's Dice Duel for 2 or more players: the page /duel and its JSON API.

As for the scorecard games the server keeps no game: each request carries the game record and
the dice in hand, the game code (solver/duel/multiplayer/record.py) checks the move, and the
answer is the whole state the page shows: the chips on the plate, set aside and in front of each
player, the turn, the legal moves and, on request, the advice (solver/duel/multiplayer/advice.py).
"""
import json

from starlette.responses import FileResponse
from starlette.routing import Route

from ..ask.answer import answer
from ..ask.request import read_request
from ..duel.chips import TYPES, VALUES
from ..duel.multiplayer import analysis as multi_analysis
from ..duel.multiplayer import game as mg
from ..duel.multiplayer import record as multi_record
from ..game.card import GameError
from ..inputs import json_kind
from ..lang import LANGUAGES, WORDS, Words
from ..presets import read_rules
from ..rules import RulesError
from . import STATIC, work
from .checks import check_choice

MAX_NAME = 40


def duel_state(record, hand, coach=False, tables=None):
    """Everything the page shows of a game (GameError when the record or hand is wrong); the
    advice reads the horizon table of the store of `tables` (ask/tables.Tables), if it holds
    one."""
    game = multi_record.rebuild(record, hand)
    table, rules = game.table, game.rules
    points = mg.scores(table, rules)
    state = {"record": game.record(), "hand": list(game.dice) if game.dice else None,
             "types": [{"key": t, "value": v} for t, v in zip(TYPES, VALUES)],
             "plate": list(table.plate), "aside": list(table.aside),
             "seats": [{"name": name, "chips": list(seat), "points": p}
                       for name, seat, p in zip(game.players, table.seats, points)],
             "to_move": table.to_move, "round_chip_taken": table.taken, "over": game.over,
             "wins": mg.win_shares(table, rules) if game.over else None,
             "rules": rules.as_dict(), "turn": None, "advice": None}
    if game.over:
        return state
    turn = {"dice": state["hand"], "rolls_left": game.rolls_left, "kept": list(game.kept),
            "n_to_roll": 5 - len(game.kept), "moves": []}
    if game.dice is not None:
        category = int(rules.categories[0][multi_record._index(game.dice)])
        moves = mg.end_moves(table, int(rules.categories[1][category]), category == 0, rules)
        turn["moves"] = [mg.move_dict(m, table, rules) for m in moves]
    state["turn"] = turn
    line = game.advice_line()
    if coach and line is not None:
        fields = {"rules": rules, "chips": table, "dice": line.get("dice"),
                  "rolls_left": line.get("rolls_left")}
        request = read_request({k: v for k, v in fields.items() if v is not None}, files=False)
        state["advice"] = answer(request, tables).as_dict()
    return state


def new_duel(data):
    """(record, hand) of a new game from {"players": [names], "seed"?, "real_dice"?, "options"?}."""
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip()
                                                and len(p) <= MAX_NAME for p in players):
        raise GameError("duel.error.names", most=MAX_NAME)
    options = data.get("options")
    options = {} if options is None else options  # not `or {}`: [] or "" is no set of options
    if not isinstance(options, dict):
        raise GameError("options must be an object of rules option: value")
    try:
        rules = read_rules("dice-duel", options=options, files=False)
    except (RulesError, TypeError) as exc:
        raise GameError(f"rules: {exc}") from None
    real_dice = data.get("real_dice", False)
    seed = data.get("seed")
    if not isinstance(real_dice, bool) or (seed is not None and (
            real_dice or isinstance(seed, bool) or not isinstance(seed, int)
            or not 0 <= seed < 2**63)):
        raise GameError("duel.error.seed")
    if seed is None and not real_dice:
        import secrets
        seed = secrets.randbelow(2**32)
    game = multi_record.new_game(rules, [p.strip() for p in players], seed, real_dice)
    return game.record(), None


def _record(data, language="en"):
    record = data.get("record")
    if not multi_record.is_duel_record(record):
        raise GameError(Words(language)("duel.web.bad_file"))
    return record


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def duel_step(record, hand, move, coach, language="en", advice=None, tables=None):
    """The state after `move` (module level: a worker process of the app's pool runs it); a move
    the rules refuse is a GameError in `language`.  advice: the advice the page showed for this
    decision, noted in the record with the move (duel/multiplayer/notes.py); tables: as
    duel_state's."""
    try:
        multi_record.check_record(record)  # its summary too: what its moves give
        if move is not None:
            record, hand = multi_record.apply_move(record, hand, move, advice)
        return duel_state(record, hand, coach, tables)
    except GameError as exc:
        raise GameError(_said(exc, language)) from None


def duel_analysis(record, first, count, language="en", tables=None):
    """The analysis of decisions first..first+count-1 of a record (the page asks in parts and
    shows its progress); a record that does not replay is a GameError in `language`; tables:
    as duel_state's."""
    try:
        return multi_analysis.analyze(record, first=first, count=count,
                                      tables=None if tables is None else tables.directory)
    except GameError as exc:
        raise GameError(_said(exc, language)) from None


def _said(exc, language):
    """A GameError's message in `language`: its words, or for a record or move that is not one
    (a message of its own, in English) that English to a program, a sentence of `language`'s
    to a page in another language."""
    if exc.key in WORDS[language] or language == "en":
        return exc.text(language)
    return Words(language)("duel.web.unreadable")


def _language(data):
    """The language a request asks for (de or en; the page always sends one)."""
    return data.get("language") if data.get("language") in LANGUAGES else "en"


DUEL_NEW_FIELDS = {"players", "seed", "real_dice", "options", "coach", "language"}
DUEL_GAME_FIELDS = {"record", "hand", "move", "coach", "language", "advice"}
DUEL_ANALYZE_FIELDS = {"record", "language", "first", "count"}


def _checked(data, fields, what):
    """`data` when it has no field but `fields`; a GameError naming the others (the scorecard
    routes refuse unknown fields too: a typo must not pass silently)."""
    unknown = sorted(map(str, set(data) - fields))
    if unknown:
        named = ", ".join(map(repr, unknown))[:200]
        raise GameError(f"{what} takes no field(s) {named}; it takes: "
                        f"{', '.join(sorted(fields))}")
    if "coach" in data and not isinstance(data["coach"], bool):
        raise GameError(f"coach must be true or false, got {data['coach']!r}"[:200])
    check_choice(data, "language", LANGUAGES, GameError)  # 12345 is not English
    hand = data.get("hand")
    if hand is not None and not (isinstance(hand, list) and len(hand) == 5 and all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in hand)):
        raise GameError(f"hand must be the five dice in hand (faces 1-6) or null, got "
                        f"{json.dumps(hand, default=str)[:60]}")
    advice = data.get("advice")  # what is in it: notes.py's (a note only when it matches)
    if advice is not None and not isinstance(advice, dict):
        raise GameError(f"advice must be the advice shown (an object) or null, got "
                        f"{json_kind(advice)}")
    return data


def duel_routes(json_object, json_response, threaded):
    """The routes of the Dice Duel page; the helpers are the app's (request body, answer, and
    threaded(request, function, *args): the function run off the event loop by the app's pool,
    cancelled when the request's client disconnects)."""

    async def page(request):
        return FileResponse(STATIC / "duel.html", headers={"cache-control": "no-cache"})

    async def answer(request, data, function, *args):
        """function(*args) on the pool; the pool's errors (budget, busy) in the page's language."""
        language = _language(data)
        try:
            return json_response(await threaded(request, function, *args))
        except work.Stopped as exc:
            if exc.status == 422:  # the budget: its seconds are the only figure in the message
                seconds = next((w for w in str(exc).split() if w.replace(".", "").isdigit()), "?")
                raise work.Stopped(Words(language)("duel.web.error.budget", seconds=seconds),
                                   422) from None
            raise work.Stopped(Words(language)("duel.web.error.stopped"), exc.status) from None
        except work.Busy as exc:
            raise work.Busy(Words(language)("duel.web.error.busy"), exc.retry_after,
                            job=exc.job) from None  # a job's progress for the page to follow
        except work.Failed as exc:
            if exc.status >= 500:
                raise work.Failed(Words(language)("duel.web.error.internal"), exc.status) from None
            raise

    async def new(request):
        data = _checked(await json_object(request), DUEL_NEW_FIELDS, "a new Dice Duel")
        try:
            record, hand = new_duel(data)
        except GameError as exc:
            raise GameError(_said(exc, _language(data))) from None
        return await answer(request, data, duel_state, record, hand, bool(data.get("coach")))

    async def game(request):
        data = _checked(await json_object(request), DUEL_GAME_FIELDS, "a Dice Duel request")
        return await answer(request, data, duel_step, _record(data, _language(data)),
                            data.get("hand"), data.get("move"), bool(data.get("coach")),
                            _language(data), data.get("advice"))

    async def analyze(request):
        data = _checked(await json_object(request), DUEL_ANALYZE_FIELDS, "a Dice Duel analysis")
        first, count = data.get("first", 0), data.get("count")
        if not _whole(first) or not (count is None or _whole(count)):
            raise GameError(Words(_language(data))("duel.web.error.request",
                                                   detail="first, count: whole numbers >= 0"))
        return await answer(request, data, duel_analysis, _record(data, _language(data)), first,
                            count, _language(data))

    return [Route("/duel", page), Route("/api/duel/new", new, methods=["POST"]),
            Route("/api/duel/game", game, methods=["POST"]),
            Route("/api/duel/analyze", analyze, methods=["POST"])]
