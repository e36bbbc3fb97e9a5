"""RenderSession bookkeeping, fed scripted engine events (the real engine runs in
test_project_render_real.py; here we need exact control over event order)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest
import soundfile as sf

from app.project import LineStatus, Project, RenderError, SaveError
from app.project.render import RenderProgress, RenderSession, select_lines
from engine.core import protocol
from engine.core.codes import ErrorCode

from .conftest import add_fake_take, tone

RATE = 22050
TIMING = protocol.JobTiming(0.0, 0.0, "memory", 0.1, 0.2, 1.0, 1)


def ready(backend: str = "piper") -> protocol.EngineReady:
    caps = protocol.Capabilities(backend, RATE, True, ("en",), False, False, False)
    return protocol.EngineReady(caps, 2, 1234, 1.0)


@dataclass
class ScriptedClient:
    """Records what the session asks of the engine; the test plays the engine's events."""

    ready: protocol.EngineReady = field(default_factory=ready)
    submitted: list[protocol.Job] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)

    def submit(self, job: protocol.Job) -> float:
        self.submitted.append(job)
        return 0.0

    def cancel(self, job_id: str) -> None:
        self.cancelled.append(job_id)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def speak(session: RenderSession, job: protocol.Job, *pieces: np.ndarray):
    """Play a whole successful job: started, chunks, finished; returns the last update."""
    session.handle_event(protocol.JobStarted(job.job_id, 0.0))
    for seq, pcm in enumerate(pieces):
        session.handle_event(protocol.AudioChunk(job.job_id, seq, pcm, RATE))
    return session.handle_event(protocol.JobFinished(job.job_id, TIMING))


def test_jobs_are_throttled_and_progress_is_reported(project: Project) -> None:
    client, clock, seen = ScriptedClient(), Clock(), []
    session = RenderSession(project, max_in_flight=2, clock=clock, on_progress=seen.append)
    update = session.start(client)
    assert update.progress.total == 6 and update.progress.queued == 6 and update.progress.eta_s is None
    assert [j.text for j in client.submitted] == [project.lines[0].text, project.lines[1].text]
    assert all(j.priority is protocol.Priority.BATCH and not j.listening for j in client.submitted)
    assert {line.status for line in project.lines} == {LineStatus.QUEUED}
    first = client.submitted[0]
    assert first.voice.clip_path == str(project.resolve("voices/maya.wav"))
    assert first.voice.transcript == project.character("maya").transcript
    assert first.voice.settings.language == "en"

    update = session.handle_event(protocol.JobStarted(first.job_id, 0.0))
    assert update.lines == {"l1"} and project.lines[0].status is LineStatus.RENDERING
    clock.now += 4.0
    update = speak(session, first, tone(0.5), tone(0.25))
    assert update.progress.done == 1 and update.progress.eta_s == pytest.approx(4.0 * 5)
    assert len(client.submitted) == 3  # a slot freed up: the next line went in
    assert isinstance(seen[-1], RenderProgress) and seen[-1].done == 1
    spoken = 1
    while spoken < len(client.submitted):  # each finish lets the next line in
        speak(session, client.submitted[spoken], tone(0.3))
        spoken += 1
    assert spoken == 6 and session.finished
    assert session.progress.done == 6 and session.progress.eta_s == 0.0 and session.progress.fraction == 1.0
    assert {project.status(line) for line in project.lines} == {LineStatus.DONE}


def test_each_take_is_on_disk_and_saved_when_it_finishes(project: Project) -> None:
    old = add_fake_take(project, project.lines[0], tone(0.2))
    client = ScriptedClient()
    session = RenderSession(project, ["l1", "l2"])
    session.start(client)
    a, b = tone(0.5, freq=300), tone(0.25, freq=400)
    update = speak(session, client.submitted[0], a, b)
    (line_id, take), = update.takes
    assert line_id == "l1" and take.duration_s == pytest.approx(0.75) and take.backend == "piper"
    audio, rate = sf.read(str(project.take_path(take)), dtype="float32")
    assert rate == RATE and np.abs(audio - np.concatenate([a, b])).max() < 1e-3
    # Saved at once: a crash now would lose nothing.
    on_disk = Project.load(project.root)
    assert [t.id for t in on_disk.line("l1").takes] == [old.id, take.id]  # earlier takes are kept
    assert on_disk.line("l1").chosen_take == take.id
    assert on_disk.status(on_disk.line("l1")) is LineStatus.DONE
    assert on_disk.line("l2").status is LineStatus.NOT_RENDERED  # still queued: not saved as such
    assert not list(project.takes_dir.glob("*.tmp"))


def test_resubmitted_jobs_start_over_from_chunk_zero(project: Project) -> None:
    client = ScriptedClient()
    session = RenderSession(project, ["l1"])
    session.start(client)
    job = client.submitted[0]
    session.handle_event(protocol.JobStarted(job.job_id, 0.0))
    session.handle_event(protocol.AudioChunk(job.job_id, 0, tone(0.4, freq=100), RATE))
    assert len(session.chunks_of("l1")) == 1 and session.job_id_of("l1") == job.job_id
    update = session.handle_event(protocol.JobFailed(job.job_id, ErrorCode.ENGINE_CRASHED, "died", True, True))
    assert update.lines == {"l1"} and project.lines[0].status is LineStatus.QUEUED
    assert session.chunks_of("l1") == [] and not session.finished
    session.handle_event(protocol.EngineRestarted((job.job_id,), -9))
    fresh = tone(0.3, freq=500)
    update = speak(session, job, fresh)
    audio, _ = sf.read(str(project.take_path(update.takes[0][1])), dtype="float32")
    assert len(audio) == len(fresh)  # nothing of the first attempt survives


def test_a_stray_chunk_is_never_spliced_in(project: Project) -> None:
    client = ScriptedClient()
    session = RenderSession(project, ["l1"])
    session.start(client)
    job = client.submitted[0]
    session.handle_event(protocol.AudioChunk(job.job_id, 0, tone(0.2), RATE))
    session.handle_event(protocol.AudioChunk(job.job_id, 1, tone(0.2), RATE))
    session.handle_event(protocol.AudioChunk(job.job_id, 0, tone(0.1), RATE))  # a restart without notice
    session.handle_event(protocol.AudioChunk(job.job_id, 5, tone(0.1), RATE))  # out of order: dropped
    update = session.handle_event(protocol.JobFinished(job.job_id, TIMING))
    assert update.takes[0][1].duration_s == pytest.approx(0.1)


def test_cancel_restores_what_was_there(project: Project) -> None:
    add_fake_take(project, project.lines[0], tone(0.2))
    project.lines[0].status = LineStatus.DONE
    client = ScriptedClient()
    session = RenderSession(project, max_in_flight=2)
    session.start(client)
    update = session.cancel()
    assert update.lines == {"l3", "l4", "l5", "l6"}  # not yet sent: restored at once
    assert client.cancelled == [j.job_id for j in client.submitted]
    assert project.lines[3].status is LineStatus.NOT_RENDERED and not session.finished
    for job in client.submitted:
        session.handle_event(protocol.JobFailed(job.job_id, ErrorCode.CANCELLED, "Cancelled"))
    assert session.finished and session.progress.cancelled == 6 and session.progress.failed == 0
    assert project.lines[0].status is LineStatus.DONE and project.lines[1].status is LineStatus.NOT_RENDERED


def test_failures_are_reported_and_retried(project: Project) -> None:
    client = ScriptedClient()
    session = RenderSession(project, ["l1", "l2"])
    session.start(client)
    first, second = client.submitted
    session.handle_event(protocol.JobFailed(first.job_id, ErrorCode.NOTHING_SPEAKABLE, "Nothing to say"))
    speak(session, second, tone(0.2))
    assert session.finished and [line.id for line in session.failed_lines] == ["l1"]
    line = project.line("l1")
    assert project.status(line) is LineStatus.FAILED and line.error == "E_NOTHING_SPEAKABLE: Nothing to say"
    assert Project.load(project.root).line("l1").error == line.error  # saved too
    update = session.retry_failed()
    assert update.lines == {"l1"} and not session.finished and len(client.submitted) == 3
    speak(session, client.submitted[-1], tone(0.2))
    assert session.finished and session.progress.done == 2 and session.progress.failed == 0
    assert line.error == "" and project.status(line) is LineStatus.DONE


def test_lines_that_cannot_render_fail_before_the_engine(project: Project) -> None:
    project.line("l2").character_id = None
    project.character("rex").clip = None
    project.lines[0].text = "x"
    client = ScriptedClient()
    session = RenderSession(project)
    update = session.start(client)
    assert {j.text for j in client.submitted} == {project.line(i).text for i in ("l1", "l3", "l5")}
    assert project.line("l2").error.startswith("E_NO_CHARACTER: line 2 has no character")
    assert project.line("l4").error.startswith("E_NO_CLIP: Rex has no reference clip")
    assert update.progress.failed == 3
    project.resolve("voices/maya.wav").unlink()
    session = RenderSession(project, ["l1"])
    session.start(client)
    assert project.line("l1").error.startswith("E_CLIP_MISSING") and session.finished


def test_stale_only_and_the_engine_backend(project: Project) -> None:
    for line in project.lines[:4]:
        add_fake_take(project, line, tone(0.2))
    project.line("l2").text = "Changed."
    assert [line.id for line in select_lines(project, stale_only=True)] == ["l2", "l5", "l6"]
    assert [line.id for line in select_lines(project, ["l6", "l1"], stale_only=True)] == ["l6"]
    client = ScriptedClient()
    session = RenderSession(project, stale_only=True)
    session.start(client)
    assert [line.id for line in session.lines] == ["l2", "l5", "l6"]
    speak(session, client.submitted[0], tone(0.1))
    assert project.status(project.line("l2")) is LineStatus.DONE
    # Another backend renders differently: the project follows the engine, so every take is
    # stale (l5 and l6 are still queued in the first session, so they are not taken twice).
    other = RenderSession(project, stale_only=True)
    other.start(ScriptedClient(ready=ready("cosyvoice2")))
    assert project.settings.backend == "cosyvoice2"
    assert [line.id for line in other.lines] == ["l1", "l2", "l3", "l4"]
    with pytest.raises(RenderError, match="already started"):
        session.start(client)


def test_trimmed_voices_use_a_cut_clip(project: Project) -> None:
    project.character("maya").clip_start = 1.0
    client = ScriptedClient()
    RenderSession(project, ["l1"]).start(client)
    assert client.submitted[0].voice.clip_path.startswith(str(project.cache_dir / "clips"))


def test_other_events_are_ignored_and_save_errors_reported(project: Project) -> None:
    def broken_save(p: Project) -> None:
        raise SaveError("disk full")

    client = ScriptedClient()
    session = RenderSession(project, ["l1", "l2"], save=broken_save)
    session.start(client)
    assert not session.handle_event(protocol.JobQueued("someone-else", 0))
    assert not session.handle_event(protocol.AudioChunk("someone-else", 0, tone(0.1), RATE))
    assert not session.handle_event(None)
    update = speak(session, client.submitted[0], tone(0.1))
    assert update.takes and "could not be saved" in update.errors[0]
    assert project.resolve(update.takes[0][1].path).is_file()  # the audio is safe regardless
    update = session.handle_event(protocol.EngineStopped("shutdown"))
    assert session.finished and project.line("l2").error.startswith("E_ENGINE_STOPPED")
    assert not session.handle_event(protocol.EngineStopped("wake"))


def test_a_full_engine_queue_is_retried_later(project: Project) -> None:
    client = ScriptedClient()
    session = RenderSession(project, ["l1", "l2"])
    session.start(client)
    first, second = client.submitted
    update = session.handle_event(protocol.JobFailed(second.job_id, ErrorCode.QUEUE_FULL, "full"))
    assert update.lines == {"l2"} and project.line("l2").status is LineStatus.QUEUED
    speak(session, first, tone(0.1))
    assert client.submitted[-1].job_id == second.job_id  # sent again once ours freed a place
    speak(session, second, tone(0.1))
    assert session.finished and session.progress.done == 2


def test_a_line_rendered_to_be_played_now_is_listened_to(project: Project) -> None:
    client = ScriptedClient()
    session = RenderSession(project, [project.lines[0].id], priority=protocol.Priority.INTERACTIVE, listening=True)
    session.start(client)
    (job,) = client.submitted
    assert job.priority is protocol.Priority.INTERACTIVE and job.listening


def test_a_fit_pass_resubmits_faster_and_only_the_final_take_is_written(project: Project) -> None:
    # l1 runs 0.5-3.5 s: a 3.6 s take overruns its 3 s slot by 20 % (no silence borrowed after it).
    project.settings.fit_borrow_s = 0.0
    client = ScriptedClient()
    session = RenderSession(project, ["l1"], fit=True)
    session.start(client)
    first = client.submitted[0]
    assert first.voice.settings.speed == 1.0
    update = speak(session, first, tone(3.6, rate=RATE))
    assert not update.takes and project.line("l1").status is LineStatus.QUEUED and not session.finished
    faster = client.submitted[1]
    assert faster.job_id != first.job_id and faster.voice.settings.speed > 1.2 and faster.text == first.text
    update = speak(session, faster, tone(2.95, rate=RATE))  # under the rate bound (1.25×), inside the slot
    (line_id, take), = update.takes
    assert line_id == "l1" and session.finished and len(project.line("l1").takes) == 1
    assert take.fit is not None and take.fit.stretch == 1.0 and take.fit.rate == pytest.approx(3.6 / 2.95, abs=1e-3)
    assert take.fit.slot_s == pytest.approx(3.0) and take.duration_s <= 3.0
    assert take.loudness_lufs is not None and take.true_peak_dbtp is not None


def test_cancelling_during_a_fit_pass_restores_the_line(project: Project) -> None:
    add_fake_take(project, project.line("l1"), tone(1.0))
    client = ScriptedClient()
    session = RenderSession(project, ["l1"], fit=True)
    session.start(client)
    speak(session, client.submitted[0], tone(3.6, rate=RATE))
    session.cancel()
    assert client.cancelled == [client.submitted[1].job_id]
    session.handle_event(protocol.JobFailed(client.submitted[1].job_id, ErrorCode.CANCELLED, "cancelled", False, False))
    assert session.finished and project.status(project.line("l1")) is LineStatus.DONE
    assert len(project.line("l1").takes) == 1  # the fit pass wrote nothing
