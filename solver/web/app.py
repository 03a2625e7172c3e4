"""The web app of `kniffel serve`: the page, its static files and a JSON API (README.md, "kniffel
serve").

The server keeps no game: every request carries what it needs (a batch line, or a game record
with the dice in hand), is checked by the same code as the command line (solver/advice/batch.py,
solver/game/), and is answered from tables loaded once and shared by all requests.  Nothing in a
request names a file: rules are a preset name plus inline options.
"""
import hmac
from pathlib import Path

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import Tables, __version__
from ..advice import objective_batch
from ..engine.store import TableError
from ..duel import advice as duel_advice
from ..game import analysis, session
from .duel import duel_routes
from ..game.card import GameError
from ..game.record import record_rules
from ..lang import LANGUAGES, box_name, pad_language, web_words
from ..presets import all_presets, get_rules
from ..rules import OPTION_PRESETS, PRESET_DESCRIPTIONS, PRESETS, RulesError

STATIC = Path(__file__).parent / "static"
MAX_BODY = 256 * 1024  # a finished game of 8 players is about 40 KiB
MAX_PLAYERS = 8
TOKEN_HEADER = "x-kniffel-token"
TOKEN_COOKIE = "kniffel_token"


class BadRequest(Exception):
    """A request the API cannot answer: a 4xx with {"error": message}."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


def objectives():
    """The objectives the advice can take: the expected score, and winning (batch lines with the
    other players' positions, "opponents")."""
    return ["expected"] + (["win"] if "opponents" in objective_batch.FIELDS else [])


def scorecard_advice(query, tables, default=PRESETS["kniffel"]):
    """The advice dict of a scorecard query (a `kniffel advise --batch` line, parsed), asked of
    the advice directly: the same answer as the batch gives for that line, or {"error": ...}
    with its words; `default`: the rules of a query that names none."""
    try:
        return objective_batch.answer_query(query, default, tables, tables.target).as_dict()
    except (ValueError, TypeError, RulesError, TableError, OSError) as exc:
        return {"error": f"line 1: {exc}"}  # as the batch names a request's one line


def advise_line(body, tables):
    """One `kniffel advise --batch` line (bytes) -> (status, the JSON bytes the batch prints)."""
    query = json_object(body, "the body must be one JSON object, a line of kniffel advise --batch")
    # a line with chips or players is the Dice Duel's unless it names its rules
    name = query.get("rules", "dice-duel" if {"chips", "players"} & set(query) else "kniffel")
    if not isinstance(name, str) or name not in all_presets():
        raise BadRequest(f"rules must be a preset name: {', '.join(all_presets())}")
    rules = all_presets()[name]
    if rules.game == "dice-duel":
        line = body.decode("utf-8", "replace").replace("\n", " ")
        answer = next(iter(duel_advice.advise_lines([line], rules, tables)))
        answer = answer.encode() if isinstance(answer, str) else answer
        return (400 if answer.startswith(b'{"error"') else 200), answer
    answer = scorecard_advice(query, tables)
    return (400 if "error" in answer else 200), orjson.dumps(answer)


def request_rules(data):
    """The rules of a new game: {"rules": preset, "options": {option: value}} -> Rules."""
    name = data.get("rules", "kniffel")
    options = data.get("options") or {}
    if not isinstance(name, str) or name not in PRESETS:
        raise BadRequest(f"rules must be a scorecard preset: {', '.join(PRESETS)}")
    if not isinstance(options, dict):
        raise BadRequest("options must be an object of rules option: value")
    try:
        return get_rules(name, **options)
    except (RulesError, TypeError) as exc:
        raise BadRequest(f"rules: {exc}") from None


def checked_record(record):
    """A record from a request: a JSON object whose rules are a preset name or a rules object."""
    if not isinstance(record, dict) or not isinstance(record.get("turns"), list):
        raise BadRequest("record must be a game record object with \"rules\" and \"turns\"")
    rules = record.get("rules")
    if isinstance(rules, str) and rules not in PRESETS:
        raise BadRequest(f"record rules must be a scorecard preset or a rules object, got {rules!r}")
    if not isinstance(rules, (str, dict)):
        raise BadRequest("record rules must be a scorecard preset or a rules object")
    players = record.get("players", ["you"])
    if not isinstance(players, list) or len(players) > MAX_PLAYERS:
        raise BadRequest(f"a game has 1-{MAX_PLAYERS} players")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise BadRequest(f"record seed must be a whole number >= 0 or null, got {seed!r}")
    return record


def game_state(record, hand, tables, language=None, objective="expected"):
    """Everything the page shows of a game: the card, the turn, the legal boxes and the advice."""
    game, turn = session.rebuild(record, hand)
    rules = game.rules
    if not (isinstance(language, str) and language in LANGUAGES):
        language = pad_language(rules)
    state = {"record": game.record(), "hand": list(turn.dice) if turn and turn.dice else None,
             "rules": {"key": rules.key, "preset": rules.preset, "description": rules.description,
                       "rolls_per_turn": rules.rolls_per_turn, "jokers": rules.jokers,
                       "upper_bonus_threshold": rules.upper_bonus_threshold,
                       "upper_bonus": rules.upper_bonus, "extra_bonus": rules.extra_bonus,
                       "joker": rules.joker},
             "language": language,
             "boxes": [{"key": b, "label": box_name(b, rules, language)} for b in rules.boxes],
             "columns": session.summary(game), "over": game.over, "turn": None,
             "advice": None, "advice_line": None, "objective": "expected"}
    if turn is not None:
        options = turn.options() if turn.dice is not None else {}
        state["turn"] = {"player": turn.player, "name": game.players[turn.player],
                         "round": turn.record["round"], "rolls_left": turn.rolls_left,
                         "roll_number": rules.rolls_per_turn - turn.rolls_left + (turn.dice is None),
                         "kept": list(turn.kept), "n_to_roll": turn.n_to_roll,
                         "jokers_left": turn.column.jokers_left,
                         "boxes": [{"box": b, "points": p, "bonus": paid * rules.extra_bonus}
                                   for b, (p, paid) in options.items()]}
        line = session.advice_line(game, turn)
        if line is not None:
            if rules.key in PRESETS:
                line = {"rules": rules.key, **line}  # a line `kniffel advise --batch` takes as is
            if objective == "win" and "win" in objectives() and len(game.columns) > 1:
                line["opponents"] = game.opponents(turn.player)
                state["objective"] = "win"
            state["advice"], state["advice_line"] = scorecard_advice(line, tables, rules), line
    return state


def server_info():
    """GET /api/info: the version, objectives, languages with every word of the page (solver/lang),
    and the presets with their options, pad language and the name of their Kniffel box."""
    return {"version": __version__, "objectives": objectives(), "max_players": MAX_PLAYERS,
            "languages": list(LANGUAGES), "words": {lang: web_words(lang) for lang in LANGUAGES},
            "presets": [{"name": name, "description": PRESET_DESCRIPTIONS[name],
                         "language": pad_language(rules),
                         "kniffel": {lang: box_name(rules.boxes[rules.kniffel_box], rules, lang)
                                     for lang in LANGUAGES},
                         "options": {k: getattr(rules, k) for k in OPTION_PRESETS if name in OPTION_PRESETS[k]}}
                        for name, rules in PRESETS.items()]}


def in_language(data, function, *args):
    """function(*args); a GameError (a move the player made) becomes a 400 in the request's
    language."""
    try:
        return function(*args)
    except GameError as exc:
        language = data.get("language") if data.get("language") in LANGUAGES else "en"
        raise BadRequest(exc.text(language)) from None


def analysis_goal(data, record):
    """(goal, None, from_round) for analysis.analyze: with "goal": "win" (a game of several), the
    chance to win from round `from_round` on, for the decisions the page took playing to win."""
    if data.get("goal") != "win" or len(record.get("players", [])) < 2:
        return None, None, 1
    from ..advice.goal import Goal
    from_round = data.get("from_round", 1)
    if not isinstance(from_round, int) or isinstance(from_round, bool) or from_round < 1:
        raise BadRequest("from_round must be a whole number >= 1")
    return Goal("win"), None, from_round


async def _json_body(request):
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        raise BadRequest(f"request larger than {MAX_BODY} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(f"request larger than {MAX_BODY} bytes", 413)
    return body


async def _json_object(request):
    return json_object(await _json_body(request), "the body must be a JSON object")


def json_object(body, not_an_object):
    """The JSON object of a request body; BadRequest for text that is not JSON or another value
    (`not_an_object` says what was wanted)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest(not_an_object)
    return data


def _json(data, status=200):
    return Response(orjson.dumps(data), status, media_type="application/json")


def create_app(tables_dir=None, token=None, preloaded=()):
    """The Starlette app; `token`, when set, is required on every request (query, header or
    cookie); `preloaded`: tables already in memory."""
    tables = Tables(tables_dir, preloaded)

    async def index(request):
        response = FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})
        if token and request.query_params.get("token"):
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def info(request):
        return _json(server_info())

    async def advise(request):
        status, answer = advise_line(await _json_body(request), tables)
        return Response(answer, status, media_type="application/json")

    def _state(data, record, hand):
        return game_state(record, hand, tables, data.get("language"), data.get("objective", "expected"))

    def _step(data, record, hand, move):
        if move is not None:
            record, hand = session.apply_move(record, hand, move)
        return _state(data, record, hand)

    async def new_game(request):
        data = await _json_object(request)
        return _json(await _threaded(_state, data, new_record(data), None))

    async def game(request):
        data = await _json_object(request)
        record, hand = checked_record(data.get("record")), data.get("hand")
        return _json(await _threaded(in_language, data, _step, data, record, hand, data.get("move")))

    async def analyze(request):
        data = await _json_object(request)
        record = checked_record(data.get("record"))
        rules = record_rules(record["rules"])
        table = await _threaded(tables, rules)
        result = await _threaded(analysis.analyze, record, table, *analysis_goal(data, record))
        return _json({**result, "expected_start": session.start_expectation(table)})

    routes = [Route("/", index), Route("/api/info", info), Route("/api/advise", advise, methods=["POST"]),
              Route("/api/new", new_game, methods=["POST"]), Route("/api/game", game, methods=["POST"]),
              Route("/api/analyze", analyze, methods=["POST"]), *duel_routes(_json_object, _json, _threaded),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [Middleware(_TokenGate, token=token)] if token else []
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={BadRequest: bad_request, GameError: game_error,
                                        RulesError: game_error, HTTPException: http_error,
                                        Exception: server_error})
    app.state.tables = tables
    return app


def new_record(data):
    """The record of a new game from a request: {"rules", "options", "players", "real_dice",
    "seed"}; BadRequest naming a bad field."""
    rules = request_rules(data)
    players = data.get("players", ["you"])
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS \
            or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players):
        raise BadRequest(f"players must be a list of 1-{MAX_PLAYERS} names")
    real_dice = bool(data.get("real_dice"))
    seed = data.get("seed")
    if seed is not None and (real_dice or not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < 2**63):
        raise BadRequest("seed must be a whole number >= 0, and only with virtual dice")
    if seed is None and not real_dice:
        import secrets
        seed = secrets.randbelow(2**32)
    return session.new_record(rules, [p.strip() for p in players], seed, real_dice)


async def bad_request(request, exc):
    return _json({"error": str(exc)}, exc.status)


async def game_error(request, exc):
    return _json({"error": str(exc)}, 400)


async def http_error(request, exc):
    return _json({"error": exc.detail}, exc.status_code)


async def server_error(request, exc):
    return _json({"error": f"internal error ({type(exc).__name__})"}, 500)


async def _threaded(function, *args):
    """Run the computing part of a request on a worker thread (the kernels release the GIL)."""
    from starlette.concurrency import run_in_threadpool
    return await run_in_threadpool(function, *args)


class _TokenGate:
    """ASGI middleware: refuse every request without the access token (query, header or cookie)."""

    def __init__(self, app, token):
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        response = JSONResponse({"error": "access token missing or wrong: open the URL kniffel serve printed"},
                                403)
        await response(scope, receive, send)

    def _allowed(self, scope):
        from urllib.parse import parse_qs
        given = parse_qs(scope.get("query_string", b"").decode()).get("token", [""])[0].encode()
        headers = dict(scope.get("headers", []))
        given = given or headers.get(TOKEN_HEADER.encode(), b"")
        if not given:
            for part in headers.get(b"cookie", b"").decode("latin-1").split(";"):
                name, _, value = part.strip().partition("=")
                if name == TOKEN_COOKIE:
                    given = value.encode()
        return hmac.compare_digest(given, self.token)
