"""The web coach's drill: the page /drill and its JSON API (history/drill.py does the work).

POST /api/drill/next {"player"?, "language"}: the next position of the player's drill (the
player with the most games kept when none is named), with what the page shows of it: the card,
the dice, the rolls left and the points each open box would score now.
POST /api/drill/answer {"player", "id", "answer": {"keep": [faces]} | {"box": key}, "language"}:
the answer judged (right, what it gives away, the best move, what each turn plays for, when the
position comes back), kept in the history with the drill's other results.

The drill lives in the history database the server keeps games in (`kniffel serve`'s history);
a server that keeps none (--no-history) answers 409 and says so.
"""
from starlette.responses import FileResponse
from starlette.routing import Route

from ..game.card import GameError
from ..lang import LANGUAGES, box_name
from . import STATIC
from .checks import BadRequest, check_choice, check_fields

MAX_NAME = 40
NEXT_FIELDS = {"player", "language"}
ANSWER_FIELDS = {"player", "id", "answer", "language"}


def drill_routes(json_object, json_response, threaded, history, job_for):
    """The page and the API of the drill (module docstring), computed by `threaded(request,
    function, *args)` off the event loop; the drill kept in the history at `history`
    (create_app's: a path, None for the default place, False: none); job_for(feature): the job
    that compiles a feature's kernels, started unless it runs (a why's bonus chance waits for
    them: the answer says so meanwhile)."""

    async def page(request):
        return FileResponse(STATIC / "drill.html", headers={"cache-control": "no-cache"})

    async def next_position(request):
        data = _checked(await json_object(request), NEXT_FIELDS, "a drill request")
        return json_response(await threaded(request, drill_next, history, _player(data, False)))

    async def answer(request):
        data = _checked(await json_object(request), ANSWER_FIELDS, "a drill answer")
        item = data.get("id")
        if type(item) is not int or not 0 <= item < 2 ** 62:  # SQLite's integers are 64-bit
            raise BadRequest(f"id must be the whole number of a drill position, got "
                             f"{str(item)[:40]!r}")
        if not isinstance(data.get("answer"), dict):
            raise BadRequest('answer must be {"keep": [faces]} or {"box": "a box"}')
        judged = await threaded(request, drill_answer, history, _player(data, True), item,
                                data["answer"], data.get("language", "en"))
        if judged["preparing"] is not None:
            judged["job"] = job_for(judged["preparing"])
        return json_response(judged)

    return [Route("/drill", page), Route("/api/drill/next", next_position, methods=["POST"]),
            Route("/api/drill/answer", answer, methods=["POST"])]


def _checked(data, fields, what):
    check_fields(data, fields, what)
    check_choice(data, "language", LANGUAGES, BadRequest)
    return data


def _player(data, required):
    """The player's name of a request: at most MAX_NAME characters of printable text."""
    name = data.get("player")
    if name is None and not required:
        return None
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME \
            or not name.isprintable():
        raise BadRequest(f"player must be a name of 1-{MAX_NAME} printable characters")
    return name.strip()


def _open(history):
    """The history the drill is kept in; BadRequest (409) when the server keeps none."""
    from ..history.store import HistoryError, open_history
    if history is False:
        raise BadRequest("this server keeps no history (kniffel serve --no-history), so no drill",
                         409)
    try:
        return open_history(history)
    except HistoryError as exc:
        raise BadRequest(f"history: {exc}", 409) from None


def drill_next(history, player, tables):
    """POST /api/drill/next's answer: {"player", "item", "position", "summary"}."""
    from ..ask.answer import answer
    from ..history.drill import default_player, drill_summary, next_question, question_request
    with _open(history) as kept:
        player = player if player is not None else default_player(kept)
        item = next_question(kept, player)
        summary = drill_summary(kept, player)
    request = question_request(item["question"], why=False)
    advice = answer(request, tables)
    return {"player": player, "item": item, "summary": summary,
            "position": _position(request.rules, item["question"], advice)}


def _position(rules, question, advice):
    """What the page shows of a position: each box with its name in each language (the page's
    menu changes it without asking again), its points where filled, the
    points the dice would score there now where open; the dice, rolls left, the upper section."""
    now = {o["box"]: o["points"] + o.get("bonus", 0) for o in advice.options
           if o["action"] == "score"}
    facts = advice.position
    names = {box: {lang: box_name(box, rules, lang) for lang in LANGUAGES} for box in rules.boxes}
    return {"boxes": [{"key": box, "label": names[box], "points": question["card"].get(box),
                       "now": now.get(box)} for box in rules.boxes],
            "dice": sorted(question["dice"]), "rolls_left": question["rolls_left"],
            "upper_subtotal": facts["upper_subtotal"], "upper_bonus_needs":
            facts["upper_bonus_needs"], "upper_bonus": rules.upper_bonus,
            "threshold": rules.upper_bonus_threshold, "rolls_per_turn": rules.rolls_per_turn}


def drill_answer(history, player, item, decision, language, tables):
    """POST /api/drill/answer's answer: {"right", "cost", "choice", "best", "again_after",
    "why", "preparing", "summary"}: choice and best the advice's options (each with its own
    why), why the advice's (the upper bonus's chance before the turn), preparing the feature
    whose kernels the bonus chance waits for (or None)."""
    from ..history.drill import DrillError, answer_item, drill_summary
    with _open(history) as kept:
        try:
            judged = answer_item(kept, player, item, decision, tables)
        except GameError as exc:
            raise BadRequest(exc.text(language)) from None
        except DrillError as exc:
            raise BadRequest(str(exc)) from None
        summary = drill_summary(kept, player)
    return {"right": judged["right"], "cost": judged["cost"], "choice": judged["choice"],
            "best": judged["best"], "again_after": judged["again_after"],
            "why": judged["advice"].why, "preparing": judged["advice"].preparing,
            "summary": summary}
