"""Batch dubbing through the real embedded engine (Piper): takes on disk, statuses, crash
safety, and the headless `dubstudio render` command."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import CommandStack, EditLine, LineStatus, Project, SaveError
from app.project.export import export_mix
from app.project.render import RenderSession, RenderUpdate
from app.project.sample import copy_sample_project
from engine.core.codes import ErrorCode
from engine.core.protocol import EngineRestarted, Event, JobFailed, JobStarted
from engine.synthesis.client.local import EngineClient
from engine.synthesis.config import EngineConfig

from .conftest import make_project

DEADLINE_S = 300.0  # only guards against a hang; nothing asserts on speed


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("voice-cache")


def drive(
    client: EngineClient,
    session: RenderSession,
    on_event: Callable[[Event | None, RenderUpdate], None] | None = None,
) -> list[Event]:
    """Feed engine events to the session until it is finished, as the CLI does."""
    seen: list[Event] = []
    deadline = time.monotonic() + DEADLINE_S
    while not session.finished:
        assert time.monotonic() < deadline, f"render hung; saw {[type(e).__name__ for e in seen[-10:]]}"
        event = client.get_event(timeout=0.5)
        if event is not None:
            seen.append(event)
        update = session.handle_event(event)
        if on_event is not None:
            on_event(event, update)
    return seen


def check_takes_on_disk(project: Project, takes_per_line: int = 1) -> None:
    on_disk = Project.load(project.root)
    for line in on_disk.lines:
        assert on_disk.status(line) is LineStatus.DONE, (line.id, line.error)
        assert len(line.takes) == takes_per_line
        take = on_disk.chosen_take(line)
        assert take is not None and take.backend == "piper" and take.text == line.text
        info = sf.info(str(on_disk.take_path(take)))
        assert info.samplerate == 22050 and info.frames / info.samplerate == pytest.approx(take.duration_s, abs=1e-3)
        assert take.duration_s > 0.4  # real speech, not an empty file


def test_batch_render_of_a_two_character_scene(tmp_path: Path, cache_dir: Path) -> None:
    project = make_project(tmp_path / "scene")
    client = EngineClient(EngineConfig(slots=2, cache_dir=str(cache_dir)))
    client.start()
    try:
        statuses: set[LineStatus] = set()
        session = RenderSession(project)
        session.start(client)
        drive(client, session, lambda ev, up: statuses.update(project.lines[0].status for _ in up.lines))
        assert statuses >= {LineStatus.RENDERING, LineStatus.DONE}
        assert session.progress.done == 6 and session.progress.failed == 0
        check_takes_on_disk(project)
        voices = {project.line(i).takes[0].fingerprint for i in ("l1", "l2")}
        assert len(voices) == 2

        # Editing one line makes just that line stale; a stale-only pass re-renders it.
        stack = CommandStack(project)
        stack.push(EditLine("l4", text="He never listens to anyone."))
        assert [line.id for line in project.lines_needing_render()] == ["l4"]
        again = RenderSession(project, stale_only=True)
        again.start(client)
        drive(client, again)
        line = project.line("l4")
        assert [x.id for x in again.lines] == ["l4"] and len(line.takes) == 2
        assert line.chosen_take == line.takes[-1].id and project.status(line) is LineStatus.DONE
        stack.undo()  # back to the old text: the newest take is now the stale one
        assert project.status(line) is LineStatus.STALE
    finally:
        client.close()
    result = export_mix(project)
    assert result.missing == [] and sf.info(str(result.files[0])).duration > 10.0


def test_killing_the_engine_mid_batch_loses_no_finished_take(tmp_path: Path, cache_dir: Path) -> None:
    project = make_project(tmp_path / "scene")
    for line in project.lines:  # longer lines, so a job is still running when the engine dies
        line.text = f"{line.text} We wait by the harbour until the fog lifts, and then we go."
    project.save()
    client = EngineClient(EngineConfig(slots=1, cache_dir=str(cache_dir)))
    client.start()
    killed: dict[str, object] = {}

    def kill_when_one_is_done(event: Event | None, update: RenderUpdate) -> None:
        if not killed and update.progress.done >= 1 and isinstance(event, JobStarted):
            on_disk = Project.load(project.root)  # what a crash right now would leave
            killed["done_before"] = {
                line.id: [t.id for t in line.takes] for line in on_disk.lines if line.takes
            }
            killed["pid"] = client.pid
            os.kill(client.pid, signal.SIGKILL)

    try:
        session = RenderSession(project)
        session.start(client)
        events = drive(client, session, kill_when_one_is_done)
    finally:
        client.close()
    assert killed, "the batch finished before the engine could be killed"
    done_before = killed["done_before"]
    assert isinstance(done_before, dict) and len(done_before) >= 1
    assert any(isinstance(e, EngineRestarted) for e in events)
    assert client.restarts == 1 and killed["pid"] != client.ready.pid  # type: ignore[union-attr]
    # The job that had just started when the engine died was reported and queued again.
    resubmitted = [e for e in events if isinstance(e, JobFailed) and e.resubmitted]
    assert resubmitted and all(e.job_id in {j for r in events if isinstance(r, EngineRestarted) for j in r.resubmitted}
               for e in resubmitted)
    # Everything rendered after the restart; takes finished before the kill were kept as they were.
    assert session.progress.done == 6 and session.progress.failed == 0
    check_takes_on_disk(project)
    final = Project.load(project.root)
    for line_id, take_ids in done_before.items():
        assert [t.id for t in final.line(line_id).takes] == take_ids
    assert not list(project.takes_dir.glob(".*.tmp"))


def test_render_command_on_the_sample_project(tmp_path: Path, cache_dir: Path, capsys) -> None:
    project = copy_sample_project(tmp_path / "sample")
    project.lines[5].character_id = None  # one line that cannot render: exit code 1
    project.save()
    common = ["--cache-dir", str(cache_dir), "--no-progress"]
    code = cli_main(["render", str(project.root), "--slots", "2", "--export", "mix,srt", "--export", "lines",
                     *common])
    out = capsys.readouterr().err
    assert code == 1, out
    assert "line 6 (no character) cannot render: E_NO_CHARACTER" in out
    assert "Rendered 5 of 6 lines" in out and "1 failed" in out
    assert "[5/6]" in out and "Exported mix: exports/mix.wav" in out
    assert "1 line has no take and was left out: 6" in out
    for name in ("mix.wav", "script.srt", "lines/001_Maya.wav", "lines/005_Maya.wav"):
        assert (project.exports_dir / name).is_file(), name
    reloaded = Project.load(project.root)
    assert [reloaded.status(line) for line in reloaded.lines] == [LineStatus.DONE] * 5 + [LineStatus.FAILED]

    # Nothing stale among lines 1-5: no engine is started at all.
    assert cli_main(["render", str(project.root), "--stale-only", "--lines", "1-5", *common]) == 0
    assert "Nothing to render" in capsys.readouterr().err

    assert cli_main(["render", str(tmp_path / "nope"), *common]) == 2
    assert "E_BAD_PROJECT_FILE" in capsys.readouterr().err
    assert cli_main(["render", str(project.root), "--export", "video", *common]) == 2
    assert cli_main(["render", str(project.root), "--lines", "7", *common]) == 2
    assert "outside 1-6" in capsys.readouterr().err


def test_render_with_qa_checks_each_take_as_it_lands(tmp_path: Path, cache_dir: Path, capsys) -> None:
    project = copy_sample_project(tmp_path / "sample")
    common = ["--cache-dir", str(cache_dir), "--no-progress", "--slots", "1", "--qa"]
    # "The harbour master never had to pay our debts." in Rex's voice: a clean take.
    code = cli_main(["render", str(project.root), "--lines", "4", *common])
    out = capsys.readouterr().err
    assert code == 0, out
    assert "QA line 4 (Rex): passed (WER " in out and "no take failed it" in out  # the line's own metric
    checked = Project.load(project.root)
    take = checked.chosen_take(checked.lines[3])
    assert take is not None and take.qa is not None and take.qa.wer is not None and take.qa.wer <= 0.75
    assert take.qa.resemblance is not None

    # A threshold no take can meet: the new take fails, with its reason, and the exit code says so.
    checked.settings.qa = type(checked.settings.qa)(min_resemblance=0.99)
    checked.save()
    code = cli_main(["render", str(project.root), "--lines", "4", *common])
    out = capsys.readouterr().err
    assert code == 5, out
    assert "QA line 4 (Rex): FAILED" in out and "QA_UNLIKE_VOICE" in out and "1 take failed it" in out
    again = Project.load(project.root)
    assert [t.qa is not None for t in again.lines[3].takes] == [True, True]


def test_a_failed_save_fails_render_instead_of_exiting_0(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report: with saves failing, render printed "Rendered 6 of 6" and exited 0."""
    def disk_full(self: Project) -> None:
        raise SaveError(f"cannot write {self.project_file}: No space left on device", ErrorCode.DISK_FULL)

    monkeypatch.setattr(Project, "save", disk_full)
    code = cli_main(["render", str(project.root), "--lines", "1", "--slots", "1", "--cache-dir", str(tmp_path / "c")])
    err = capsys.readouterr().err
    assert code == 7, err
    assert "E_DISK_FULL" in err and "Rendered 1 of 1" not in err and "not recorded" in err


def test_a_direction_before_the_words_is_not_spoken(tmp_path: Path, cache_dir: Path, capsys) -> None:
    # Scripts write how a line is said before it: （小声）我不会放弃的。, (whispering) …. The voice
    # said the direction too ("whispering the harbour master…"), and QA compared it as words.
    project = copy_sample_project(tmp_path / "sample")
    project.lines[3].text = "(whispering) The harbour master never had to pay our debts."
    project.save()
    code = cli_main(["render", str(project.root), "--lines", "4", "--cache-dir", str(cache_dir), "--no-progress",
                     "--slots", "1", "--qa"])
    assert code == 0, capsys.readouterr().err
    rendered = Project.load(project.root)
    take = rendered.chosen_take(rendered.lines[3])
    assert take is not None and take.text == "The harbour master never had to pay our debts."
    assert take.qa is not None and take.qa.transcript is not None and "whisper" not in take.qa.transcript.lower()
