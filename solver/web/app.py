"""The web app of `kniffel serve`: the page, its static files and a JSON API (docs/reference.md,
"The web app").

The server keeps no game: every request carries what it needs (a batch line, or a game record
with the dice in hand), is checked by the same code as the command line (solver/advice/batch.py,
solver/game/), and is answered from tables loaded once and shared by all requests.  Nothing in a
request names a file: rules are a preset name plus inline options.
"""
import asyncio
import contextlib
import hmac

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..game.card import GameError
from ..lang import LANGUAGES, Words, box_name, pad_language, web_words
from ..presets import all_presets
from ..rules import PRESETS, SCORECARD_OPTIONS, RulesError, option_applies
from ..version import __version__
from . import STATIC, guard, work
from .checks import (
    GAME_FIELDS,
    MAX_PLAYERS,
    NEW_FIELDS,
    BadRequest,
    check_fields,
    check_nesting,
    checked_record,
    request_rules,
    requested_record,
)
from .drill import drill_routes
from .duel import duel_routes
from .tasks import GOALS, SERVICE, ServerTables, analysis_goal

MAX_BODY = 256 * 1024  # a finished game of 8 players is about 40 KiB
TOKEN_HEADER = "x-kniffel-token"
TOKEN_COOKIE = "kniffel_token"


def server_info():
    """GET /api/info: the version, goals, languages with every word of the page (solver/lang),
    and the presets with their options, pad language, title and description in each language
    and the name of their five-of-a-kind box (and the Dice Duel's pad language)."""
    return {"version": __version__, "goals": list(GOALS), "max_players": MAX_PLAYERS,
            "languages": list(LANGUAGES), "words": {lang: web_words(lang) for lang in LANGUAGES},
            "duel_language": pad_language(all_presets()["dice-duel"]),
            "presets": [_preset_info(name, rules) for name, rules in PRESETS.items()]}


def _preset_info(name, rules):
    five = rules.boxes[rules.kniffel_box]
    return {"name": name, "language": pad_language(rules),
            "title": {lang: rules.definition.titled(lang) for lang in LANGUAGES},
            "description": {lang: rules.definition.describe(lang) for lang in LANGUAGES},
            "kniffel": {lang: box_name(five, rules, lang) for lang in LANGUAGES},
            "options": {k: getattr(rules, k) for k in SCORECARD_OPTIONS
                        if option_applies(k, rules)}}


async def _json_body(request):
    try:
        return await guard.read_body(request, MAX_BODY)
    except guard.BodyError as exc:
        raise BadRequest(str(exc), exc.status) from None


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
    check_nesting(data)  # before anything recurses into it
    return data


def _json(data, status=200):
    return Response(orjson.dumps(data), status, media_type="application/json")


async def _on_pool(pool, request, name, *args):
    """TASKS[name] on the pool, cancelled if the client disconnects first."""
    watch = asyncio.ensure_future(guard.disconnected(request))
    try:
        return await pool.run(name, args, watch)
    finally:
        watch.cancel()


def _lifespan(pool):
    @contextlib.asynccontextmanager
    async def lifespan(app):
        pool.start()  # the workers warm up while the server starts
        try:
            yield
        finally:
            pool.stop()
    return lifespan


def _error(exc, **more):
    """{"error": English, "words": {key, fields} of solver/lang where it has them (the page's)}."""
    words = getattr(exc, "words", None)
    return {"error": str(exc), **more,
            **({"words": {"key": words[0], "fields": words[1]}} if words else {})}


async def _busy(request, exc):
    more = {"retry_after": exc.retry_after, **({"job": exc.job} if exc.job else {})}
    return Response(orjson.dumps(_error(exc, **more)), 503,
                    {"retry-after": str(exc.retry_after)}, media_type="application/json")


def _job(pool, kind, subject):
    """The progress of the job (kind, subject), started now unless it runs or ran."""
    return pool.start_job(kind, subject).job


def _with_job(pool, state):
    """A game's state with the job its advice waits for ("preparing": a feature's kernels,
    compiled by a job: advice for points meanwhile)."""
    advice = state.get("advice") or {}
    if advice.get("preparing"):
        state["job"] = _job(pool, "warm", advice["preparing"])
    return state


async def _failed(request, exc):
    if exc.status == 503:  # the server cannot now (stopping, its disk): every 503 says when
        return Response(orjson.dumps(_error(exc)), 503, {"retry-after": "5"},
                        media_type="application/json")
    return _json(_error(exc), exc.status)


async def _client_gone(request, exc):
    guard.quiet_disconnect(request)
    return Response(status_code=400)


def create_app(tables_dir=None, token=None, preloaded=(), host="127.0.0.1", pool=None,
               time_limit=None, history=False):
    """The Starlette app; `token`, when set, is required on every request (query, header or
    cookie); `preloaded`: tables already in memory; `host`: the address it listens on (the
    Host header must name it, web/guard.py); `pool`: the work.Pool that computes (default: one
    worker thread sharing `preloaded`, stopping a request after `time_limit` seconds: the test
    client).  `history`: where finished games are kept (history/store.py: a path, None for the
    default place, False: nowhere)."""
    tables = ServerTables(tables_dir, preloaded)
    pool = pool or work.Pool(1, 8, time_limit, SERVICE, tables=tables, processes=False)
    middleware = [Middleware(guard.Guard, host=host)]
    middleware += [Middleware(_TokenGate, token=token)] if token else []
    app = Starlette(routes=_routes(pool, token, history), middleware=middleware,
                    lifespan=_lifespan(pool), exception_handlers=handlers())
    app.state.tables, app.state.pool = tables, pool
    return app


def _routes(pool, token, history=False):
    """The page, its static files and the JSON API, computed on `pool`; finished games kept in
    `history` (create_app's)."""

    def on_pool(request, name, *args):
        return _on_pool(pool, request, name, *args)

    def on_call(request, function, *args):
        return on_pool(request, "call", function, args)

    async def index(request):
        # read here, not by FileResponse on a thread: the page must come at once, whatever
        # the threads and workers are doing (a few KiB from the OS's cache)
        response = Response((STATIC / "index.html").read_bytes(), media_type="text/html",
                            headers={"cache-control": "no-cache"})
        if token and request.query_params.get("token"):
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def analyze(request):
        data = await _json_object(request)
        check_fields(data, {"record", "goal", "from_round", "why"}, "an analysis")
        why = _why_field(data)
        record = checked_record(data.get("record"))
        result = await on_pool(request, "analyze", record, analysis_goal(data, record), why,
                               history)
        if result.get("preparing"):  # the whys' bonus chances wait for kernels: a job makes them
            result["job"] = _job(pool, "warm", result["preparing"])
        return _json(result)

    async def history_of(request):
        language = request.query_params.get("language", "en")
        return _json(await on_pool(request, "history", history, language))

    async def info(request):  # on the loop, not a thread: it comes at once, whatever computes
        return _json(server_info())

    async def jobs(request):
        return _json(pool.status())

    return [Route("/", index), Route("/api/info", info),
            *_game_routes(pool, on_pool),
            Route("/api/analyze", analyze, methods=["POST"]),
            Route("/api/history", history_of),
            Route("/api/jobs", jobs),
            *duel_routes(_json_object, _json, on_call),
            *drill_routes(_json_object, _json, on_call, history,
                          lambda feature: _job(pool, "warm", feature)),
            Mount("/static", StaticFiles(directory=STATIC), name="static")]


def _game_routes(pool, on_pool):
    """The routes of a question or a game's move, and of a build the player asked for: each
    answer carries the job it waits for, if any."""

    async def advise(request):
        status, answer, preparing = await on_pool(request, "advise", await _json_body(request))
        headers = {}
        if preparing is not None:  # advice for points until the kernels are compiled
            headers["x-kniffel-job"] = orjson.dumps(_job(pool, "warm", preparing)).decode()
        return Response(answer, status, headers, media_type="application/json")

    async def new_game(request):
        data = await _json_object(request)
        check_fields(data, NEW_FIELDS, "a new game")
        return _json(_with_job(pool, await on_pool(request, "new", data,
                                                   requested_record(data))))

    async def game(request):
        data = await _json_object(request)
        check_fields(data, GAME_FIELDS, "a game request")
        _why_field(data)
        record, hand = checked_record(data.get("record")), data.get("hand")
        return _json(_with_job(pool, await on_pool(request, "game", data, record, hand,
                                                   data.get("move"))))

    async def build(request):
        """POST /api/build {"rules": preset, "options": {...}}: build the win coach's tables of
        those rules (the page's button, after their offer): 503 with the job to follow."""
        data = await _json_object(request)
        check_fields(data, {"rules", "options"}, "a build")
        raise pool.start_job("win", request_rules(data))

    return [Route("/api/advise", advise, methods=["POST"]),
            Route("/api/new", new_game, methods=["POST"]),
            Route("/api/game", game, methods=["POST"]),
            Route("/api/build", build, methods=["POST"])]


def _why_field(data):
    """The request's "why" (default false); BadRequest naming it unless true or false."""
    why = data.get("why", False)
    if not isinstance(why, bool):
        raise BadRequest(f"why must be true or false, got {why!r}"[:200])
    return why


def preferred_language(accept_language):
    """The language of LANGUAGES that an Accept-Language header prefers (the highest q, the
    first of equals), English when it names none of them."""
    best, best_q = "en", 0.0
    for part in accept_language.split(",")[:32]:
        tag, *params = part.strip().split(";")
        q = 1.0
        for param in params:
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = tag.strip().lower().split("-")[0]
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


def refused_page(lang):
    """The page of a link without the right access token, in `lang` (UTF-8 bytes): it says what
    is wrong and where the right address is."""
    import html
    words = Words(lang)
    title = html.escape(words("web.token_title"))
    text = "".join(f"<p>{html.escape(words(key))}</p>"
                   for key in ("web.token_wrong", "web.token_open", "web.token_new"))
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title></head><body style=\"font-family: sans-serif; "
            f'max-width: 32em; margin: 2em auto; padding: 0 1em\"><h1>{title}</h1>{text}'
            f"</body></html>").encode()


async def bad_request(request, exc):
    return _json({"error": str(exc)}, exc.status)


async def game_error(request, exc):
    return _json({"error": str(exc)}, 400)


async def http_error(request, exc):
    return _json({"error": exc.detail}, exc.status_code)


async def server_error(request, exc):
    return _json({"error": f"internal error ({type(exc).__name__})"}, 500)


def handlers():
    """The app's exception handlers: each error a JSON {"error": ...} with its status."""
    return {BadRequest: bad_request, GameError: game_error, RulesError: game_error,
            HTTPException: http_error, work.Busy: _busy, work.Stopped: _failed,
            work.Failed: _failed, ClientDisconnect: _client_gone, Exception: server_error}


class _TokenGate:
    """ASGI middleware: refuse every request without the access token (query, header or cookie):
    403, a short page in the browser's language for a browser opening a link (it accepts
    text/html), JSON {"error": ...} for the API."""

    def __init__(self, app, token):
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        if b"text/html" in headers.get(b"accept", b"").lower():
            lang = preferred_language(headers.get(b"accept-language", b"").decode("latin-1"))
            response = Response(refused_page(lang), 403, {"cache-control": "no-store"},
                                media_type="text/html")
        else:
            response = JSONResponse({"error": "access token missing or wrong: open the URL "
                                              "kniffel serve printed"}, 403)
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


