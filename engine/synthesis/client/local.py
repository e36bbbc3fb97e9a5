"""EngineClient: starts the engine process, sends it requests, and hands out its events.

One consumer thread calls :meth:`EngineClient.get_event`. That call also watches the process:
when the engine dies (a crash, SIGKILL, out of memory) the client reports the running jobs as
failed-retryable, starts a new engine and resubmits every unfinished job in its old order, so
queued jobs keep their place and nothing is silently lost.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import multiprocessing
import multiprocessing.spawn
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from multiprocessing.context import SpawnProcess
from typing import TYPE_CHECKING

from engine.core import protocol
from engine.core.codes import EngineError, ErrorCode
from engine.core.lifeline import kill_engine
from engine.synthesis.backends import descriptor
from engine.synthesis.config import EngineConfig

# The one engine configuration is declared beside the process that reads it; callers take it from here.
from engine.synthesis.process import engine_main

if TYPE_CHECKING:
    from multiprocessing.queues import Queue

POLL_S = 0.2  # how often a waiting get_event() checks that the engine is alive
CLOSE_TIMEOUT_S = 10.0


_spawner: concurrent.futures.ThreadPoolExecutor | None = None
_spawner_lock = threading.Lock()


def _spawn(start: Callable[[], None]) -> None:
    """Run ``start`` (a Process.start) on the one thread that starts every engine.

    Linux sends an engine its parent-death signal when the *thread* that started it exits,
    not only the process (prctl(2)). The studio starts engines from short-lived threads, so
    they are all started from this one, which lives as long as the process. It also keeps
    the process-wide spawn executable from being switched by two starts at once.
    """
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine-spawner")
    _spawner.submit(start).result()


@dataclass
class _Pending:
    job: protocol.Job
    running: bool = False
    attempts: int = 0


class EngineStartError(RuntimeError):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl+C and SIGTERM until the block ends, then let them act as they would have.

    Python raises KeyboardInterrupt wherever the main thread happens to be. Raised inside a
    multiprocessing queue's read, it leaves half a message in the pipe, and every later read
    of that queue waits forever for the rest: a render stopped with Ctrl+C or SIGTERM then hung
    instead of cancelling. Every read of the event queue holds the signals (for at most
    POLL_S), so each message arrives whole. Signal handlers only run on the main thread, so
    other threads need nothing.
    """
    previous = {number: signal.getsignal(number) for number in HELD_SIGNALS}
    if threading.current_thread() is not threading.main_thread() or None in previous.values():
        yield  # not the main thread, or a handler Python cannot put back: leave them alone
        return
    caught: list[int] = []
    for number in HELD_SIGNALS:
        signal.signal(number, lambda received, _frame: caught.append(received))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for received in dict.fromkeys(caught):
            signal.raise_signal(received)  # now handled as before: KeyboardInterrupt, or the default


class EngineClient:
    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config or EngineConfig()
        self._context = multiprocessing.get_context("spawn")
        self._process: SpawnProcess | None = None  # these three exist from start() on
        self._requests: Queue[protocol.Request] | None = None
        self._events: Queue[protocol.Event] | None = None
        self._unfinished: collections.OrderedDict[str, _Pending] = collections.OrderedDict()
        self._backlog: collections.deque[protocol.Event] = collections.deque()
        self._slots = self.config.slots
        self._closing = False
        self.ready: protocol.EngineReady | None = None
        self.engine_start_s = 0.0  # start() call to EngineReady, as seen by this client
        self.restarts = 0

    # --- lifecycle ------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self, on_progress: protocol.StartProgress | None = None) -> protocol.EngineReady:
        """Start the engine and wait until its backend is loaded.

        The backend's options are checked against its descriptor first, so a bad one is an
        ``E_BAD_OPTION`` error naming it, before any process is spawned. Then two deadlines:
        the engine's handshake (EngineStarting "started") must come within
        ``handshake_timeout_s`` of the spawn, and EngineReady within ``load_timeout_s`` of the
        handshake. Past either, the engine and everything it started are killed and
        EngineStartError says which stage it was stuck in. ``on_progress`` sees each stage.
        """
        started = time.monotonic()
        try:
            options = descriptor(self.config.backend).validate(self.config.backend_options)
            if self._slots is not None:
                protocol.SLOTS.check(self._slots)
        except EngineError as error:  # a bad option or slot count: E_BAD_OPTION naming it
            raise EngineStartError(error.code, error.message) from None
        # The engine gets the checked options and the slot count this client holds (a restart
        # keeps what set_slots chose).
        settings = replace(self.config, backend_options=options, slots=self._slots)
        requests: Queue[protocol.Request] = self._context.Queue()
        events: Queue[protocol.Event] = self._context.Queue()
        process = self._context.Process(
            target=engine_main, name="dubstudio-engine", daemon=True,
            args=(settings, os.getpid(), sys.prefix if self.config.python else None, requests, events),
        )
        self._requests, self._events, self._process = requests, events, process
        _spawn(lambda: self._start_process(process))
        # Only the engine writes events. Without the parent's copy of the pipe's write end, an
        # engine that dies in the middle of a message (SIGKILL, out of memory) ends the read with
        # EOF, where the read would otherwise wait for the rest of the message for ever.
        events._writer.close()  # type: ignore[attr-defined]  # the Queue's own pipe end, which its stubs leave out
        return self._await_ready(process, events, started, on_progress)

    def _await_ready(self, process: SpawnProcess, events: Queue[protocol.Event], started: float,
                     on_progress: protocol.StartProgress | None) -> protocol.EngineReady:
        """Read the engine's start-up events until EngineReady, within the two deadlines."""
        handshake: protocol.EngineStarting | None = None
        deadline = started + self.config.handshake_timeout_s
        while True:
            try:
                with signals_held():
                    event = events.get(timeout=POLL_S)
            except (queue.Empty, EOFError, OSError) as ended:
                if not isinstance(ended, queue.Empty):
                    process.join(CLOSE_TIMEOUT_S)  # the pipe ended: the engine is gone, or going
                if not process.is_alive():
                    raise EngineStartError(
                        ErrorCode.ENGINE_START,
                        f"The engine exited during start-up (exit code {process.exitcode}); see its log above",
                    ) from None
                if time.monotonic() > deadline:
                    self._kill(process)
                    raise EngineStartError(ErrorCode.ENGINE_START, self._stuck_message(handshake)) from None
                continue
            if isinstance(event, protocol.EngineStarting):
                if handshake is None:
                    deadline = time.monotonic() + self.config.load_timeout_s
                handshake = event
                if on_progress is not None:
                    on_progress(event)
            elif isinstance(event, protocol.EngineReady):
                self.ready = event
                self._slots = event.slots
                self.engine_start_s = time.monotonic() - started
                return event
            elif isinstance(event, protocol.RequestFailed):
                process.join(timeout=5)
                raise EngineStartError(event.code, event.message)
            elif isinstance(event, protocol.EngineStopped):  # a wake() that arrived during start-up
                self._backlog.append(event)

    def _start_process(self, process: SpawnProcess) -> None:
        if self.config.python:
            # spawn's executable is process-wide: set it only around this one start.
            self._context.set_executable(self.config.python)
            try:
                process.start()
            finally:
                self._context.set_executable(sys.executable)
        else:
            process.start()

    def _stuck_message(self, last: protocol.EngineStarting | None) -> str:
        if last is None:
            interpreter = self.config.python or sys.executable
            return (f"The engine's interpreter ({interpreter}) did not start within "
                    f"{self.config.handshake_timeout_s:g} s; it was stopped")
        return (f"The engine did not finish loading {self.config.backend} within {self.config.load_timeout_s:g} s "
                f"(stuck at: {last.stage}); it was stopped")

    @staticmethod
    def _kill(process: SpawnProcess) -> None:
        """Kill the engine with everything it started, and reap it."""
        if process.pid is not None:
            kill_engine(process.pid)
        process.join(5)

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Ask the engine to stop, then make sure it has (killing it, and what it started,
        after ``timeout`` seconds). Events still in flight are read and dropped meanwhile, so
        an engine with a full pipe of audio can deliver its last events and exit."""
        self._closing = True
        process, requests, events = self._process, self._requests, self._events
        if process is None or requests is None or events is None:
            return
        if process.is_alive():
            requests.put(protocol.Shutdown())
            deadline = time.monotonic() + timeout
            while process.is_alive() and time.monotonic() < deadline:
                try:
                    with signals_held():
                        events.get(timeout=POLL_S)
                except Exception:  # noqa: BLE001 - dropped anyway: empty, closed, or cut by an interrupt
                    pass
            if process.is_alive():
                self._kill(process)
        _close_queues(requests, events)
        self._process = None

    def __enter__(self) -> EngineClient:
        if self._process is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- requests -------------------------------------------------------------------------

    def submit(self, job: protocol.Job) -> float:
        """Queue a job; returns the monotonic time of submission (for latency figures)."""
        self._unfinished[job.job_id] = _Pending(job)
        submitted = time.monotonic()
        self._send(protocol.SubmitJob(job))
        return submitted

    def cancel(self, job_id: str) -> None:
        self._send(protocol.CancelJob(job_id))

    def set_slots(self, slots: int) -> None:
        protocol.SLOTS.check(slots)  # raises EngineError(BAD_OPTION) before anything is sent
        self._slots = slots
        self._send(protocol.SetSlots(slots))

    def prepare_voice(self, voice: protocol.VoiceSpec) -> str:
        request = protocol.PrepareVoice(voice)
        self._send(request)
        return request.request_id

    def request_stats(self) -> str:
        request = protocol.GetStats()
        self._send(request)
        return request.request_id

    def _send(self, request: protocol.Request) -> None:
        if self._requests is None:
            raise _not_started()
        self._requests.put(request)

    def wake(self) -> None:
        """Make a get_event() blocked in another thread return EngineStopped('wake')."""
        self._backlog.append(protocol.EngineStopped("wake"))  # seen by get_event() within POLL_S

    # --- events ---------------------------------------------------------------------------

    def get_event(self, timeout: float | None = None) -> protocol.Event | None:
        """The next event, or None after ``timeout`` seconds (None: wait as long as it takes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._backlog:
                return self._backlog.popleft()
            wait = POLL_S if deadline is None else max(0.0, min(POLL_S, deadline - time.monotonic()))
            events = self._events  # read each time round: a restart replaces it
            if events is None:
                raise _not_started()
            try:
                with signals_held():
                    event = events.get(timeout=wait)
            except (queue.Empty, EOFError, OSError) as ended:
                if not isinstance(ended, queue.Empty) and self._process is not None:
                    self._process.join(CLOSE_TIMEOUT_S)  # the pipe ended: the engine is gone, or going
                if not self._closing and self._process is not None and not self._process.is_alive():
                    self._recover()
                    continue
                if not isinstance(ended, queue.Empty):
                    time.sleep(wait)  # an ended pipe answers at once: never spin on it
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                continue
            self._track(event)
            return event

    def _track(self, event: protocol.Event) -> None:
        if isinstance(event, protocol.JobStarted):
            pending = self._unfinished.get(event.job_id)
            if pending:
                pending.running = True
        elif isinstance(event, (protocol.JobFinished, protocol.JobFailed)):
            self._unfinished.pop(event.job_id, None)
        elif isinstance(event, protocol.SlotsChanged):
            self._slots = event.slots

    def _recover(self) -> None:
        """The engine died: report running jobs, restart, resubmit the unfinished in order."""
        assert self._process is not None and self._requests is not None and self._events is not None  # it ran
        exit_code = self._process.exitcode
        _close_queues(self._requests, self._events)
        pending = list(self._unfinished.values())
        # Running jobs were ahead of everything still queued, so they go back first.
        order = [p for p in pending if p.running] + [p for p in pending if not p.running]
        self._unfinished.clear()
        failures: list[protocol.Event] = []
        resubmit: list[_Pending] = []
        for item in order:
            if item.running:
                item.attempts += 1
                again = self.config.auto_retry and item.attempts <= self.config.max_retries
                failures.append(protocol.JobFailed(
                    item.job.job_id, ErrorCode.ENGINE_CRASHED,
                    f"The engine stopped unexpectedly (exit code {exit_code}) while speaking this line"
                    + ("; it was queued again" if again else ""),
                    retryable=True, resubmitted=again,
                ))
                if not again:
                    continue
                item.running = False
            resubmit.append(item)
        self.restarts += 1
        self.start()
        for item in resubmit:
            self._unfinished[item.job.job_id] = item
            self._send(protocol.SubmitJob(item.job))
        self._backlog.extend(failures)
        self._backlog.append(protocol.EngineRestarted(tuple(i.job.job_id for i in resubmit), exit_code))


def _not_started() -> EngineError:
    return EngineError(ErrorCode.ENGINE_START, "the engine was never started: call start() first")


def _close_queues(*queues: Queue[protocol.Request] | Queue[protocol.Event]) -> None:
    """Close a dead or stopped engine's pipes without waiting for what was left unread."""
    for channel in queues:
        channel.cancel_join_thread()
        channel.close()


def collect(client: protocol.EngineClientProtocol, job: protocol.Job, timeout: float = 600.0) -> tuple[list[protocol.AudioChunk], protocol.Event]:
    """Submit one job and wait for its end; the chunks and the final event. For scripts and tests."""
    client.submit(job)
    chunks: list[protocol.AudioChunk] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = client.get_event(timeout=max(0.0, deadline - time.monotonic()))
        if isinstance(event, protocol.AudioChunk) and event.job_id == job.job_id:
            chunks.append(event)
        elif isinstance(event, (protocol.JobFinished, protocol.JobFailed)) and event.job_id == job.job_id:
            if isinstance(event, protocol.JobFailed) and event.resubmitted:
                chunks.clear()
                continue
            return chunks, event
    raise EngineError(ErrorCode.BACKEND, f"No end for job {job.job_id} within {timeout:.0f} s")
