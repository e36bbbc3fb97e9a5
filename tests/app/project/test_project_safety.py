"""Issue 10, files and project data: each example of the report, and its class, as a regression test.

Never touch a file outside the project (or the output the user named), never delete a file the
project did not write, never load what could make a file name or an allocation run wild, and
never report success after losing work.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import (
    CommandStack,
    EditLine,
    ExportError,
    ImportFormatError,
    InvalidValueError,
    PathEscapeError,
    Project,
    ProjectFileError,
    ProjectLockedError,
    SaveError,
)
from app.project.clips import import_clip, trimmed_clip
from app.project.export import (
    MANIFEST,
    export_lines,
    export_mix,
    export_srt,
    export_stems,
    mixdown,
)
from app.project.lock import LOCK_FILE, ProjectLock
from app.project.render import NoVoice, RenderSession, voice_spec
from app.project.script_io import _line_numbers, import_csv, import_script, import_srt
from engine.core.codes import ErrorCode
from engine.core.protocol import AudioChunk, JobFinished, JobStarted

from .conftest import VOICES, add_fake_take, tone
from .test_project_render_session import RATE, TIMING, ScriptedClient

CRAFTED_ID = "../../../tmp/ID_ESCAPE"


def edit_file(project: Project, change) -> None:
    data = json.loads(project.project_file.read_text())
    change(data)
    project.project_file.write_text(json.dumps(data))


def give_takes(project: Project) -> None:
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(0.4, freq=200 + 40 * n))
    project.save()


def outside_folder(tmp_path: Path) -> Path:
    """A folder of someone else's WAVs, which no export may touch."""
    folder = tmp_path / "someone-elses"
    folder.mkdir()
    for name in ("Maya.wav", "Rex.wav", "001_Maya.wav", "keep.wav"):
        sf.write(str(folder / name), np.zeros(10), RATE)
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# --- 1. writing or deleting outside the project ---------------------------------------------------


def test_stems_symlinked_out_of_the_project_delete_and_write_nothing_there(
    project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report: with exports/stems a symlink, render --export stems deleted every .wav there."""
    give_takes(project)
    outside = outside_folder(tmp_path)
    before = snapshot(outside)
    (project.exports_dir / "stems").symlink_to(outside)
    with pytest.raises(PathEscapeError):
        export_stems(project)
    # The same through the command (nothing is stale, so no engine starts; the export runs).
    assert cli_main(["render", str(project.root), "--stale-only", "--export", "stems"]) == 4
    assert "E_PATH_ESCAPE" in capsys.readouterr().err
    assert snapshot(outside) == before


@pytest.mark.parametrize("export", [export_mix, export_stems, export_lines, export_srt])
def test_exports_symlinked_out_of_the_project_are_refused(project: Project, tmp_path: Path, export) -> None:
    """The report: with exports/ a symlink, the mix, lines and SRT went outside the project."""
    give_takes(project)
    outside = outside_folder(tmp_path)
    before = snapshot(outside)
    project.exports_dir.rmdir()
    project.exports_dir.symlink_to(outside)
    with pytest.raises(PathEscapeError) as caught:
        export(project)
    assert caught.value.code is ErrorCode.PATH_ESCAPE
    assert snapshot(outside) == before


def test_a_link_deep_inside_exports_that_leads_out_is_refused(project: Project, tmp_path: Path) -> None:
    give_takes(project)
    outside = outside_folder(tmp_path)
    inner = project.exports_dir / "inner"
    inner.mkdir()
    (inner / "away").symlink_to(outside)
    with pytest.raises(PathEscapeError):
        export_mix(project, project.exports_dir / "inner" / "away" / "deeper")
    assert not (outside / "deeper").exists()
    # A folder the user chose outside the project is theirs to choose.
    chosen = tmp_path / "chosen"
    assert export_mix(project, chosen).files == [(chosen / "mix.wav").resolve()]


def test_exports_only_ever_delete_files_an_export_wrote(project: Project, tmp_path: Path) -> None:
    give_takes(project)
    stems = project.exports_dir / "stems"
    first = export_stems(project)
    assert sorted(p.name for p in first.files) == ["Maya.wav", "Rex.wav"]
    user_file = stems / "Narrator.wav"
    sf.write(str(user_file), np.zeros(10), RATE)
    elsewhere = tmp_path / "linked.wav"
    elsewhere.write_bytes(b"linked")
    manifest = json.loads((stems / MANIFEST).read_text())
    (stems / "Rex.wav").unlink()
    (stems / "Rex.wav").symlink_to(elsewhere)  # a listed name that is now a link: never followed, never deleted
    manifest["files"].append("../../../outside.wav")  # a tampered manifest names a path out
    (stems / MANIFEST).write_text(json.dumps(manifest))
    (tmp_path / "outside.wav").write_bytes(b"outside")
    project.character("maya").name = "Maya Renamed"
    project.character("rex").name = "Rex Renamed"
    second = export_stems(project)
    assert sorted(p.name for p in second.files) == ["Maya_Renamed.wav", "Rex_Renamed.wav"]
    assert not (stems / "Maya.wav").exists()  # ours, stale: removed
    assert user_file.exists() and (stems / "Rex.wav").is_symlink() and elsewhere.read_bytes() == b"linked"
    assert (tmp_path / "outside.wav").read_bytes() == b"outside"
    assert json.loads((stems / MANIFEST).read_text())["files"] == ["Maya_Renamed.wav", "Rex_Renamed.wav"]


def test_a_crafted_character_id_never_loads(project: Project) -> None:
    """The report: id ../../../tmp/ID_ESCAPE plus a trim wrote /tmp/ID_ESCAPE_..._end.wav."""
    def craft(data: dict) -> None:
        data["characters"][0]["id"] = CRAFTED_ID
        data["characters"][0]["clip_start"] = 0.5
        for line in data["lines"]:
            if line["character"] == "maya":
                line["character"] = CRAFTED_ID

    edit_file(project, craft)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_ID and "characters[0]" in str(caught.value)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["lines"][0].update(id=CRAFTED_ID),
        lambda d: d["lines"][0].update(character="../x"),
        lambda d: d["lines"][0].update(takes=[{"id": "a/b", "path": "takes/x.wav"}]),
        lambda d: d["lines"][0].update(chosen_take="..\\x"),
        lambda d: d["characters"][1].update(id=""),
    ],
)
def test_every_id_is_checked_at_load(project: Project, change) -> None:
    edit_file(project, change)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_ID


def test_file_names_built_from_ids_are_sanitised_where_they_are_built(project: Project) -> None:
    """Defence in depth: an id that got past validation in memory still names a file inside."""
    char = project.character("maya")
    char.id = CRAFTED_ID
    char.clip_start = 0.5
    clip = trimmed_clip(project, CRAFTED_ID)
    assert clip is not None and clip.parent == (project.cache_dir / "clips").resolve()
    assert clip.name.startswith("tmp_ID_ESCAPE_")

    line = project.lines[0]
    line.id = CRAFTED_ID
    line.character_id = "rex"
    client = ScriptedClient()
    session = RenderSession(project, [CRAFTED_ID])
    session.start(client)
    job = client.submitted[0]
    session.handle_event(JobStarted(job.job_id, 0.0))
    session.handle_event(AudioChunk(job.job_id, 0, tone(0.3), RATE))
    update = session.handle_event(JobFinished(job.job_id, TIMING))
    (_, take), = update.takes
    assert take.path.startswith("takes/tmp_ID_ESCAPE_") and project.take_path(take).parent == project.takes_dir.resolve()


def test_a_cache_folder_symlinked_out_is_refused(project: Project, tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    project.character("maya").clip_start = 0.5
    project.cache_dir.symlink_to(outside)
    with pytest.raises(PathEscapeError):
        trimmed_clip(project, "maya")
    with pytest.raises(NoVoice, match="E_PATH_ESCAPE"):  # the line fails with the code, not a traceback
        voice_spec(project, "maya")
    assert sorted(p.name for p in outside.iterdir()) == ["001_Maya.wav", "Maya.wav", "Rex.wav", "keep.wav"]


def test_voices_and_takes_symlinked_out_are_refused(project: Project, tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    before = snapshot(outside)
    project.takes_dir.rmdir()
    project.takes_dir.symlink_to(outside)
    client = ScriptedClient()
    session = RenderSession(project, ["l1"])
    session.start(client)
    job = client.submitted[0]
    session.handle_event(AudioChunk(job.job_id, 0, tone(0.3), RATE))
    update = session.handle_event(JobFinished(job.job_id, TIMING))
    assert not update.takes and project.line("l1").error.startswith("E_PATH_ESCAPE")  # the take is refused
    for clip in project.voices_dir.iterdir():
        clip.unlink()
    project.voices_dir.rmdir()
    project.voices_dir.symlink_to(outside)
    with pytest.raises(PathEscapeError):
        import_clip(project, VOICES / "maya.wav")
    with pytest.raises(NoVoice, match="E_PATH_ESCAPE"):  # maya's clip now resolves outside: not read
        voice_spec(project, "maya")
    assert snapshot(outside) == before


# --- 3. project.json that must not load, and failed saves -------------------------------------------


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_at_load(project: Project, constant: str) -> None:
    """The report: NaN in project.json loaded, every save then failed, and render exited 0."""
    text = project.project_file.read_text().replace('"gap_s": 0.3', f'"gap_s": {constant}', 1)
    assert constant in text
    project.project_file.write_text(text)
    with pytest.raises(ProjectFileError, match=f"holds {constant}, which is not a number JSON allows") as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_PROJECT_FILE


@pytest.mark.parametrize("depth", [100_000, 200])
def test_deeply_nested_project_files_give_a_coded_error(project: Project, depth: int) -> None:
    """The report: a project.json nested 100,000 levels deep gave a RecursionError traceback."""
    data = json.loads(project.project_file.read_text())
    data["title"] = "PLACEHOLDER"
    text = json.dumps(data).replace('"PLACEHOLDER"', "[" * depth + "]" * depth)
    project.project_file.write_text(text)
    with pytest.raises(ProjectFileError, match="nested") as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_PROJECT_FILE


def test_project_json_must_be_a_regular_file_inside_the_project(project: Project, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(project.project_file.read_bytes())
    project.project_file.unlink()
    project.project_file.symlink_to(elsewhere)
    with pytest.raises(PathEscapeError):
        Project.load(project.root)
    project.project_file.unlink()
    os.mkfifo(project.project_file)  # no writer will ever come: must be refused, not waited on
    with pytest.raises(ProjectFileError, match="named pipe"):
        Project.load(project.root)


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


# --- 4. times that would make the mix allocate terabytes ------------------------------------------


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda d: d["lines"][0].update(start=1e9), ErrorCode.TIME_RANGE),
        (lambda d: d["lines"][0].update(end=86400.5), ErrorCode.TIME_RANGE),
        (lambda d: d["characters"][0].update(clip_start=1e12), ErrorCode.TIME_RANGE),
        (lambda d: d["settings"].update(gap_s=1e9), ErrorCode.INVALID_VALUE),
        (lambda d: d["characters"][0]["settings"].update(speed=1000), ErrorCode.BAD_SETTING),
    ],
)
def test_out_of_range_numbers_are_refused_at_load(project: Project, change, code: ErrorCode) -> None:
    """The report: a line start of 1e9 made the mix try to allocate 80 TiB."""
    edit_file(project, change)
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert caught.value.code is code


def test_imported_and_edited_times_are_capped_at_24_hours(project: Project, tmp_path: Path) -> None:
    """The report: an SRT time of 99,999,999 h."""
    srt_file = tmp_path / "far.srt"
    srt_file.write_text("1\n00:00:01,000 --> 00:00:02,000\nMaya: hi\n\n2\n99999999:00:00,000 --> 99999999:00:01,000\n"
                        "Rex: far\n")
    with pytest.raises(ImportFormatError, match=r"line 6: subtitle 2: start must be a number from 0 to 86400 s \(24 h\)") as caught:
        import_srt(srt_file, project)
    assert caught.value.code is ErrorCode.TIME_RANGE
    with pytest.raises(ImportFormatError) as caught:
        import_csv(b"character,text,start\nMaya,hi,1000000000\n", project)
    assert caught.value.code is ErrorCode.TIME_RANGE and caught.value.line_no == 2
    with pytest.raises(InvalidValueError) as refused:
        CommandStack(project).push(EditLine("l1", start=1e9))
    assert refused.value.code is ErrorCode.TIME_RANGE
    assert import_csv(b"character,text,start\nMaya,hi,23:59:59.5\n", project).lines[0].start == 86399.5


def test_the_mix_refuses_a_length_it_should_never_allocate(project: Project) -> None:
    give_takes(project)
    project.lines[-1].start = 1e9  # set in memory, past every check: the mix is the last guard
    with pytest.raises(ExportError) as caught:
        mixdown(project)
    assert caught.value.code is ErrorCode.TIME_RANGE and "h long" in str(caught.value)


# --- smaller items --------------------------------------------------------------------------------


def test_importing_a_fifo_is_refused_at_once(project: Project, tmp_path: Path) -> None:
    """The report: importing a FIFO hung (here the suite's timeout would fail the test)."""
    fifo = tmp_path / "script.srt"
    os.mkfifo(fifo)
    with pytest.raises(ImportFormatError, match="named pipe") as caught:
        import_script(fifo, project)
    assert caught.value.code is ErrorCode.NOT_REGULAR_FILE


def test_srt_line_numbers_are_counted_in_one_pass() -> None:
    """The report: 100k cues took 93 s because each cue counted newlines from the top.

    Counted by characters scanned (never by time): one pass scans the text once.
    """
    scanned: list[int] = []

    class CountingText(str):
        def count(self, sub: str, start: int = 0, end: int | None = None) -> int:  # type: ignore[override]
            scanned.append((len(self) if end is None else end) - start)
            return str.count(self, sub, start, end)

    text = CountingText("block\n" * 100_000)
    offsets = range(0, len(text), 60)
    assert _line_numbers(text, offsets)[-1] == 1 + (len(text) - 60) // 6
    assert sum(scanned) <= len(text)


def test_a_big_srt_imports_every_cue_in_order(project: Project, tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from srt_import import make_srt

    source = tmp_path / "big.srt"
    source.write_bytes(make_srt(20_000) + b"\n20001\n00:00:01,000 --> 00:00:00,500\nbackwards\n")
    with pytest.raises(ImportFormatError, match="line 80002: subtitle 20001 ends"):
        import_srt(source, project)  # the error names the right line at the end of a big file
    source.write_bytes(make_srt(20_000))
    result = import_srt(source, project)
    assert len(result.lines) == 20_000 and result.lines[-1].text == "line number 20000 of the script."


# --- 1. the project lock ----------------------------------------------------------------------------


def test_a_second_writer_is_told_who_holds_the_project(project: Project) -> None:
    with ProjectLock.acquire(project.root, "dubstudio render") as lock:
        assert (project.root / LOCK_FILE).exists()
        with pytest.raises(ProjectLockedError) as caught:
            ProjectLock.acquire(project.root, "DubStudio studio")
        assert caught.value.code is ErrorCode.PROJECT_LOCKED
        assert f"dubstudio render (pid {os.getpid()} on " in str(caught.value)
        assert lock.held
    assert not (project.root / LOCK_FILE).exists()
    ProjectLock.acquire(project.root, "again").release()


def test_two_renders_of_one_project_never_run_at_once(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    """The report: two renders of one folder wrote 12 take files while project.json listed 6."""
    with ProjectLock.acquire(project.root, "dubstudio render"):
        assert cli_main(["render", str(project.root)]) == 6
    err = capsys.readouterr().err
    assert "E_PROJECT_LOCKED" in err and "dubstudio render (pid" in err
    assert not list(project.takes_dir.iterdir())


def test_the_lock_of_a_killed_process_is_taken_over(project: Project) -> None:
    script = textwrap.dedent(f"""
        import time
        from app.project.lock import ProjectLock
        lock = ProjectLock.acquire({str(project.root)!r}, "doomed render")
        print("locked", flush=True)
        time.sleep(600)
    """)
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            with pytest.raises(ProjectLockedError, match=f"doomed render \\(pid {holder.pid} "):
                ProjectLock.acquire(project.root, "studio")
        finally:
            holder.send_signal(signal.SIGKILL)
    assert (project.root / LOCK_FILE).exists()  # a dead process cleans nothing up...
    with ProjectLock.acquire(project.root, "studio"):  # ...but its lock is taken over
        assert json.loads((project.root / LOCK_FILE).read_text())["pid"] == os.getpid()


def test_a_lock_that_cannot_be_written_is_a_coded_error_not_a_traceback(project: Project) -> None:
    """On a full disk, render's project lock died with an OSError traceback while writing its holder.

    A real failing write, without root or a full disk: a child process whose file size limit is
    0 bytes can create the (empty) lock file but not write into it (EFBIG).
    """
    script = textwrap.dedent(f"""
        import resource, signal, sys
        from app.cli import main
        from app.project import SaveError
        from app.project.lock import ProjectLock
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
        try:
            ProjectLock.acquire({str(project.root)!r}, "studio")
        except SaveError as error:
            print(error.code.value, error.message, flush=True)
        print("render exit", main(["render", {str(project.root)!r}]), flush=True)
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        ProjectLock.acquire({str(project.root)!r}, "studio").release()  # nothing was left held
        print("locked again", flush=True)
    """)
    before = project.project_file.read_bytes()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    refused, render, again = done.stdout.splitlines()
    assert refused.startswith(f"E_SAVE_FAILED cannot write the project lock {project.root / LOCK_FILE}: File too large")
    assert render == "render exit 2" and "E_SAVE_FAILED: cannot write the project lock" in done.stderr
    assert again == "locked again"
    assert not (project.root / LOCK_FILE).exists() and project.project_file.read_bytes() == before
