"""The computing of `kniffel serve`, off the event loop: a bounded pool of workers, a time guard
on every request, cancellation, and the jobs that requests ask for (a missing table, kernels).

A worker is a process (`kniffel serve`) or, for the in-process test client, a thread; what it
runs is the app's (its TASKS, web/app.py), the loop around it web/worker.py's.  A request
takes a free worker or waits in a queue of bounded length; beyond it the answer is 503 with
Retry-After at once.  What an answer is does not depend on the guard: a request's budget is
counted in work (solver/advice/cost.py), the same in a server as on the command line.  The guard
only protects the server (from a request that asks for an hour, or an attack): work still
running when it is spent or the client has gone is cancelled: the worker's cancel flag is raised
(a backward pass stops between levels, engine/backward.py; the one door, ask/answer.py, then
answers for points and says so) and a worker process that has not stopped half a second later
is killed and replaced, so its core is free again at once.  Stopping the server kills every
worker process: a numba kernel cannot be interrupted, a process can.

Nothing is solved or compiled inside a request, and nothing is started that no request asked
for: a value table a request needs that is not in the store, or the kernels of a feature a
request needs that are not compiled (ask/warm.py), are made by a job the request starts (one
at a time), and the request gets 503 with the job's progress (GET /api/jobs shows it too); a
win request gets advice for points meanwhile, and the job.  The win coach's tables are built
by a job only when a person asks for it (POST /api/build).
"""
import asyncio
import logging
import multiprocessing
import threading
import time

from ..ask.warm import NotReady
from ..lang import LANGUAGES
from . import worker

LOG = logging.getLogger("uvicorn.error")
KEPT_TABLES = 8  # value tables held in memory that the store could not save (8.4 MB each)
RETRY_SECONDS = 30  # a job that failed is started again no sooner than this after its end
GRACE = 0.5  # seconds a worker has to stop on its own (its answer then the one door's
# fallback, ask/answer.py, or its own, late) before it is killed


def default_workers():
    """One worker per core this process may use."""
    from ..engine.threads import default_threads
    return default_threads()


class Busy(Exception):
    """Every worker busy and the queue full, or a job to wait for: 503 with Retry-After;
    `words` (key, fields) the message's words in solver/lang, for a page that shows it in its
    language; `job` the job's progress (Job.describe) when there is one."""

    def __init__(self, message, retry_after=2, words=None, job=None):
        super().__init__(message)
        self.retry_after, self.words, self.job = retry_after, words, job


class Stopped(Exception):
    """Work cancelled: its budget spent (`status` 4xx), its client gone, or the server stopping;
    `words` as Busy's."""

    def __init__(self, message, status=503, words=None):
        super().__init__(message)
        self.status, self.words = status, words


class TableMissing(Exception):
    """A request needs a value table that is not in the store (raised in a worker)."""

    def __init__(self, rules):
        super().__init__(f"no saved table for {rules.key}")
        self.rules = rules

    def __reduce__(self):
        return TableMissing, (self.rules,)


class Failed(Exception):
    """A task's own error, carried back from a worker: (status, message)."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status

    def __reduce__(self):
        return Failed, (str(self), self.status)


def _await_readable(connection):
    """A future done when `connection` (a Pipe end) can be read, or its other end is gone."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    fd = connection.fileno()

    def ready():
        loop.remove_reader(fd)
        if not future.done():
            future.set_result(None)

    loop.add_reader(fd, ready)
    future.add_done_callback(lambda _: loop.remove_reader(fd))
    return future


def _child(main, *args):
    """main(*args) in a worker or job process, its tqdm bars (a backward pass's) locked by a
    thread lock: tqdm's own is a multiprocessing lock, a semaphore that a process started by
    spawn registers with the resource tracker, and a process killed at the server's stop would
    leave it there ("leaked semaphore objects" on stderr after Ctrl-C)."""
    from tqdm import tqdm
    tqdm.set_lock(threading.RLock())
    main(*args)


class ProcessWorker:
    """A worker process (`main(connection, cancel, levels, tables_dir)`, which runs
    worker.serve) and the parent's end of its pipe."""

    def __init__(self, main, tables_dir, context):
        self.main, self.tables_dir, self.context = main, tables_dir, context
        self.process, self.closed = None, False
        self.start()

    def start(self):
        self.connection, child = self.context.Pipe()
        self.cancel = self.context.Value("b", 0, lock=False)
        self.levels = self.context.Value("i", 0, lock=False)
        self.process = self.context.Process(target=_child, name="kniffel-worker",
                                            args=(self.main, child, self.cancel, self.levels,
                                                  self.tables_dir), daemon=True)
        self.process.start()
        child.close()
        self.ready = False  # the worker says "ready" once its imports and tables are loaded
        self.warming = asyncio.ensure_future(self._warm())

    async def _warm(self):
        await _await_readable(self.connection)
        try:
            self.ready = self.connection.recv() == "ready"
        except (EOFError, OSError):
            self.ready = False  # it died while warming up: the next call starts another

    async def wait_ready(self):
        """Whether the process has warmed up (started again if it died meanwhile); False when
        the server stops or it cannot start."""
        for _ in range(3):
            if self.closed:
                return False
            await asyncio.wait({self.warming})  # done, or cancelled by a restart
            if self.ready:
                return True
            self.restart()
        return False

    async def call(self, name, args):
        """Run the task `name` on `args` in the process; ("ok", result) or ("error", exc)."""
        if not await self.wait_ready():
            return "error", Stopped("the server is stopping, or a worker process cannot start")
        self.cancel.value = 0
        self.levels.value = 0
        self.connection.send((name, args))
        await _await_readable(self.connection)
        try:
            return self.connection.recv()
        except (EOFError, OSError):
            self.restart()
            return "error", Stopped("the worker stopped (the server is stopping?)")

    def stop_work(self):
        self.cancel.value = 1

    def restart(self):
        """Kill the process (its work is lost) and start a fresh one, unless the server stops."""
        self._end()
        if not self.closed:
            self.start()

    def kill(self):
        """Kill the process for good (the server stops).  The pipe stays open: a request waiting
        on it reads its end and answers 503 at once."""
        self.closed = True
        if self.process is not None and self.process.is_alive():
            self.process.kill()

    def _end(self):
        self.warming.cancel()
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            # reaped by a thread: this runs on the event loop, which must not wait for it
            threading.Thread(target=self.process.join, args=(10,), name="kniffel-reap",
                             daemon=True).start()
        self.connection.close()

    def describe(self):
        return {"pid": self.process.pid, "alive": self.process.is_alive(), "ready": self.ready}


class ThreadWorker:
    """A worker thread of the in-process app (the test client): shares the app's tables; its
    work can be cancelled between levels, but not killed."""

    def __init__(self, tables, tasks, error_of):
        self.tables, self.tasks, self.error_of = tables, tasks, error_of
        self.cancel = threading.Event()
        self.levels = [0]

    async def call(self, name, args):
        self.cancel = threading.Event()  # a fresh flag: an abandoned task keeps its own
        cancel, levels = self.cancel, [0]
        self.levels = levels

        def run():
            return worker.run_task(self.tables, self.tasks, self.error_of, name, args, cancel,
                                   levels)

        return await asyncio.get_running_loop().run_in_executor(None, run)

    async def wait_ready(self):
        return True

    def stop_work(self):
        self.cancel.set()

    def restart(self):
        self.stop_work()

    def kill(self):
        self.stop_work()

    def describe(self):
        return {"thread": True}


class Pool:
    """`size` workers and a queue of `queue` waiting requests; `budget`: seconds of work a
    request may take (None: no limit).  `service`: what the workers run, the app's
    (tasks, error_of, worker_main, job_main): worker threads run tasks[name](tables, ...) with
    these `tables`; with `processes`, each worker is a process running worker_main (its own
    tables from `tables_dir`), each job one running job_main."""

    def __init__(self, size, queue, budget, service, tables_dir=None, tables=None, processes=True):
        self.size, self.queue, self.budget = size, queue, budget
        self.tasks, self.error_of, self.worker_main, self.job_main = service
        self.tables_dir, self.tables, self.processes = tables_dir, tables, processes
        self.workers, self.free, self.waiting, self.busy = [], None, 0, 0
        self.jobs = {}  # (kind, rules key or feature) -> Job
        # rules -> a value table a job solved that the store could not save (read-only, full):
        # used all the same, handed to a worker that misses it (at most KEPT_TABLES, the last)
        self.kept = {}
        self.stopping = False

    def start(self):
        """Start the workers (at the server's start, or at the first request)."""
        if self.free is not None:
            return
        self.free = asyncio.Queue()
        context = multiprocessing.get_context("spawn") if self.processes else None
        for _ in range(self.size):
            each = (ProcessWorker(self.worker_main, self.tables_dir, context) if self.processes
                    else ThreadWorker(self.tables, self.tasks, self.error_of))
            self.workers.append(each)
            self.free.put_nowait(each)

    def stop(self):
        """Kill every worker and job now (SIGTERM, SIGINT: nothing waits for a kernel)."""
        self.stopping = True
        for each in self.workers:
            each.kill()
        for job in self.jobs.values():
            job.kill()

    async def run(self, name, args, disconnected=None, budget=True):
        """The result of the task `name` on `args` (and the budget) on a worker; raises Busy,
        Stopped, Failed, or the Busy of the job it starts for a missing table."""
        if self.stopping:
            raise Stopped("the server is stopping")
        self.start()
        if self.free.empty() and self.waiting >= self.queue:
            raise Busy(f"all {self.size} workers are busy and {self.waiting} requests wait; "
                       "try again in a moment", words=("web.server_busy", {}))
        budget = self.budget if budget else None
        self.waiting += 1
        try:  # a request waits for a worker no longer than it may compute
            worker = await _first(self.free.get(), disconnected, budget)
        finally:
            self.waiting -= 1
        if worker is None:
            if disconnected is not None and disconnected.done():
                raise Stopped("the client has gone")
            raise Busy(f"no worker was free within {budget:g} s; try again in a moment",
                       words=("web.server_busy", {}))
        self.busy += 1
        try:  # a worker still warming up (at the start, or replaced) does not spend the budget
            ready = await _first(worker.wait_ready(), disconnected, None)
            if not ready:
                raise Stopped("the client has gone" if ready is None else
                              "the server is stopping, or a worker process cannot start")
            return await self._run_on(worker, name, args + (budget,), disconnected, budget)
        finally:
            self.busy -= 1
            self.free.put_nowait(worker)

    async def _run_on(self, worker, name, args, disconnected, budget):
        call = asyncio.ensure_future(worker.call(name, args))
        try:
            finished = await _first(asyncio.shield(call), disconnected, budget)
        except asyncio.CancelledError:  # the server cancels the request (shutdown)
            await self._cancel(worker, call)
            raise
        if finished is None:
            finished = await self._cancel(worker, call)
            if disconnected is not None and disconnected.done():
                raise Stopped("the client has gone")
            if finished is None or finished[0] != "ok":
                raise Stopped(f"the work ran past this server's time limit of {budget:g} s and "
                              "was stopped", 422, ("web.over_limit", {"seconds": budget}))
        kind, value = finished
        if kind == "ok":
            return value
        if isinstance(value, TableMissing):
            kept = self.kept.get(value.rules)
            if kept is not None and name != "keep":  # solved, not saved: the worker gets it
                handed = await worker.call("keep", (kept, None))
                if handed[0] == "ok":
                    return await self._run_on(worker, name, args, disconnected, budget)
            raise self.start_job("table", value.rules)
        if isinstance(value, NotReady):
            raise self.start_job("warm", value.feature)
        raise value

    async def _cancel(self, worker, call):
        """Raise the worker's cancel flag: its answer when it stops within GRACE (the one
        door answers a goal stopped so for points, and says why); else None, the worker killed
        and replaced."""
        worker.stop_work()
        try:
            return await asyncio.wait_for(asyncio.shield(call), GRACE)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            call.cancel()  # first, so nothing waits on the pipe of the process killed next
            try:
                await call
            except BaseException:  # noqa: B036 - its cancellation, or the error it ended with
                pass
            worker.restart()

    def start_job(self, kind, subject):
        """Start (or look at) a job: ("table", rules) the solve of a missing value table,
        ("warm", feature) the compile of a feature's kernels (ask/warm.py), ("win", rules) the
        build of the win coach's tables (ask/build.py).  One job runs at a time: the Busy to
        answer, with the job's progress (or the running one's, when another runs)."""
        key = (kind, getattr(subject, "key", subject))
        job = self.jobs.get(key)
        if job is not None and job.failed() and job.since_end() < RETRY_SECONDS:
            # not again at once: a job that fails each time must not run at every request
            return Busy(job.message(), max(1, round(RETRY_SECONDS - job.since_end())),
                        job=job.describe())
        # a value table solved before that is missing again (pruned from the store, or let go
        # from memory) is solved again: its job's "done" would be answered for ever
        again = job is not None and kind == "table" and not job.running()
        if job is None or job.failed() or again:
            running = [j for j in self.jobs.values() if j.running()]
            if running:
                return Busy(f"{_what(kind, subject)} waits for another job: "
                            f"{running[0].message()}", 10, job=running[0].describe())
            job = self.jobs[key] = Job(kind, subject, self)
        return Busy(job.message(), 2 if kind == "warm" else 5, job=job.describe())

    def keep(self, table, why):
        """Hold `table` in memory (a job solved it; `why` the store could not save it): the
        workers that miss it get it (_run_on), the oldest beyond KEPT_TABLES is let go."""
        self.kept.pop(table.rules, None)
        self.kept[table.rules] = table
        while len(self.kept) > KEPT_TABLES:
            self.kept.pop(next(iter(self.kept)))
        LOG.warning("kniffel serve: %s; until the server stops it is kept in memory", why)

    def status(self):
        """The workers, the queue and the jobs, as GET /api/jobs shows them."""
        return {"workers": self.size, "busy": self.busy, "waiting": self.waiting,
                "queue": self.queue, "guard_seconds": self.budget,
                "processes": [w.describe() for w in self.workers],
                "jobs": [job.describe() for job in self.jobs.values()]}


def _what(kind, subject):
    key = getattr(subject, "key", subject)
    return {"table": f"the value table of {key}", "warm": f"the {key} coach's kernels",
            "win": f"the win coach's tables of {key}"}[kind]


class Job:
    """A job of the server, asked for by a request (Pool.start_job): a process of its own (a
    thread for the in-process app), watched by a thread, so no event loop has to live for it.
    It reports its progress in a shared array: [fraction done (-1 not known), seconds to go
    (-1 not known), levels begun]."""

    def __init__(self, kind, subject, pool):
        self.kind, self.subject, self.pool = kind, subject, pool
        self.started, self.error, self.done_at = time.monotonic(), None, None
        self.process = None
        if pool.processes:
            context = multiprocessing.get_context("spawn")
            self.progress = context.Array("d", [-1.0, -1.0, 0.0], lock=False)
            reader, writer = context.Pipe(duplex=False)
            self.process = context.Process(target=_child, name=f"kniffel-{kind}", daemon=True,
                                           args=(pool.job_main, writer, kind, subject,
                                                 pool.tables_dir, self.progress))
            self.process.start()
            writer.close()
            run = lambda: self._wait(reader)  # noqa: E731
        else:
            self.progress = [-1.0, -1.0, 0.0]
            run = lambda: worker.run_job(pool.tables, pool.tasks, pool.error_of, kind,  # noqa: E731
                                         subject, self.progress)
        threading.Thread(target=self._watch, args=(run,), daemon=True).start()

    def _wait(self, reader):
        try:
            return reader.recv()
        except (EOFError, OSError):
            return "error", Failed("the job stopped before it finished")
        finally:
            self.process.join()

    def _watch(self, run):
        kind, value = run()
        if kind != "ok":
            self.error = str(value)
        elif isinstance(value, dict) and "table" in value:  # solved, but the store is not
            # writable: the server keeps it (a worker process has its own memory)
            self.pool.keep(value.pop("table"), value.get("unsaved"))
        self.done_at = time.monotonic()

    def since_end(self):
        """Seconds since the job ended (0 while it runs)."""
        return 0.0 if self.done_at is None else time.monotonic() - self.done_at

    def kill(self):
        """Stop the process: SIGTERM first (it removes what it was writing and leaves its
        checkpoint), SIGKILL if it has not ended a second later."""
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
            self.process.join(1.0)
            if self.process.is_alive():
                self.process.kill()

    def running(self):
        return self.done_at is None

    def failed(self):
        return self.error is not None

    def describe(self):
        """The job as GET /api/jobs shows it: its kind and subject, state, the share done and
        the seconds to go (null where not known yet), and the seconds so far; a value table's
        solve also its levels (done, of all)."""
        state = "running" if self.running() else "failed" if self.error else "done"
        fraction, eta, levels_done = self.progress[0], self.progress[1], int(self.progress[2])
        levels = getattr(self.subject, "n_boxes", None) if self.kind == "table" else None
        if levels is not None:
            fraction = min(levels_done, levels) / levels
        if state == "done":
            fraction, eta = 1.0, 0.0
        key = getattr(self.subject, "key", None)
        title = None if key is None else {lang: self.subject.definition.titled(lang)
                                          for lang in LANGUAGES}
        return {"kind": self.kind, "rules": key, "title": title,
                "feature": self.subject if self.kind == "warm" else None,
                "state": state, "error": self.error,
                "fraction": None if fraction < 0 else round(fraction, 4),
                "eta_seconds": None if eta < 0 else round(eta, 1),
                "levels_done": None if levels is None else min(levels_done, levels),
                "levels": levels,
                "seconds": round((self.done_at or time.monotonic()) - self.started, 1)}

    def message(self):
        info = self.describe()
        what = _what(self.kind, self.subject)
        if info["state"] == "done":
            return f"{what}: done, try again"
        if info["state"] == "failed":
            return (f"{what} could not be prepared ({self.error}); it is tried again "
                    f"{max(1, round(RETRY_SECONDS - self.since_end()))} s after that")
        done = "" if info["fraction"] is None else f"{100 * info['fraction']:.0f}% done, "
        return (f"{what}: being prepared ({done}{info['seconds']:.0f} s so far); try again "
                "in a few seconds (GET /api/jobs shows its progress)")


async def _first(awaitable, disconnected, timeout):
    """The result of `awaitable`, or None when the client disconnects or `timeout` passes first
    (`awaitable` is then cancelled; a result it gave meanwhile goes back to where it came from)."""
    task = asyncio.ensure_future(awaitable)
    waiting = {task} | ({disconnected} if disconnected is not None else set())
    done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        return task.result()
    task.cancel()
    return None
