"""The pool of `kniffel serve` (web/work.py) with worker threads: work past its budget is stopped,
a full queue answers Busy at once, work whose client has gone is cancelled between levels; and
the backward pass stops between levels when asked (engine/backward.py)."""
import asyncio
import threading
import time

import pytest

pytest.importorskip("starlette")

from solver.engine.backward import CANCEL, Cancelled, backward_pass  # noqa: E402
from solver.engine.objective import EXPECTED_SCORE  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.web import work  # noqa: E402
from solver.web.tasks import error_of  # noqa: E402

ENDED = threading.Event()


def spin(tables, seconds, budget):
    """A task of `seconds` that asks the cancel check every 10 ms, as a backward pass does
    between levels."""
    ENDED.clear()
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if CANCEL.get()():
                raise Cancelled("asked to stop")
            time.sleep(0.01)
        return "done"
    finally:
        ENDED.set()


def pool(size=1, queue=0, budget=None):
    return work.Pool(size, queue, budget, ({"spin": spin}, error_of, None, None), processes=False)


def test_work_past_its_budget_is_stopped_and_the_worker_freed():
    async def main():
        workers = pool(budget=0.3)
        with pytest.raises(work.Stopped) as stopped:
            await workers.run("spin", (30,))
        assert stopped.value.status == 422 and "time limit of 0.3 s" in str(stopped.value)
        assert ENDED.wait(1)  # the work itself has ended, not only its request
        assert await workers.run("spin", (0,)) == "done" and workers.busy == 0
    asyncio.run(main())


def test_a_full_queue_is_busy_at_once_with_a_retry_after():
    async def main():
        workers = pool(size=1, queue=0)
        first = asyncio.ensure_future(workers.run("spin", (0.5,)))
        await asyncio.sleep(0.1)
        with pytest.raises(work.Busy) as busy:
            await workers.run("spin", (0,))
        assert not first.done() and busy.value.retry_after > 0  # refused without waiting for it
        assert await first == "done"
    asyncio.run(main())


def test_a_client_that_goes_stops_its_work_between_levels():
    async def main():
        workers = pool()
        gone = asyncio.ensure_future(asyncio.sleep(0.2))  # the client disconnects after 0.2 s
        with pytest.raises(work.Stopped, match="the client has gone"):
            await workers.run("spin", (30,), gone)
        assert ENDED.wait(work.GRACE + 0.5)
        assert workers.busy == 0
    asyncio.run(main())


def test_the_backward_pass_stops_between_levels_when_asked():
    rules = PRESETS["kniffel"]
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > 2

    with pytest.raises(Cancelled, match="stopped after 2 levels"):
        backward_pass(rules, EXPECTED_SCORE, progress=False, cancel=cancel)
    assert len(asked) == 3  # asked once before each level, stopped before the third
    event = threading.Event()
    event.set()
    with pytest.raises(Cancelled):
        backward_pass(rules, EXPECTED_SCORE, progress=False, cancel=event)
    token = CANCEL.set(lambda: True)  # the check of the context, when none is passed
    try:
        with pytest.raises(Cancelled):
            backward_pass(rules, EXPECTED_SCORE, progress=False)
    finally:
        CANCEL.reset(token)


def test_the_cost_model_grows_with_the_work_and_never_with_the_load():
    """advice/cost.py counts work in seconds of the reference machine: each open box more is
    more work, an opponent's open boxes too; the same position has the same work whatever this
    machine is doing (no load, no cores, no requests sharing them enter it)."""
    from solver.advice.cost import OverBudget, check_win_budget, win_work
    rules = PRESETS["kniffel"]
    cards = [{box: 0 for box in rules.boxes[:rules.n_boxes - n]}
             for n in range(1, rules.n_boxes + 1)]
    alone = [win_work(rules, card, [{"final": 100}]) for card in cards]
    assert all(a < b for a, b in zip(alone, alone[1:]))  # each open box more costs more
    assert win_work(rules, cards[2], [{"card": {}}]) \
        > win_work(rules, cards[2], [{"card": cards[2]}]) \
        > win_work(rules, cards[2], [{"final": 100}])  # an opponent's open boxes cost too
    check_win_budget(rules, cards[8], [{"final": 100}], 1.01 * alone[8])
    with pytest.raises(OverBudget, match="s of work"):
        check_win_budget(rules, cards[8], [{"final": 100}], 0.99 * alone[8])
