"""Nothing outside the project is written or deleted, whatever links lead there: exports, stems,
the cache, voices and takes symlinked out, a take over a hard link, file names built from ids,
project.json itself; a project opened or rendered through a symlinked folder stays inside it.
Many cases are examples from the safety reports (issues 10 and 20), kept as regression tests.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import PathEscapeError, Project, ProjectFileError, SaveError
from app.project.clips import import_clip, trimmed_clip
from app.project.export import (
    MANIFEST,
    export_lines,
    export_mix,
    export_srt,
    export_stems,
)
from app.project.fsutil import atomic_write_wav
from app.project.render import NoVoice, RenderSession, voice_spec
from engine.core.codes import ErrorCode
from engine.core.paths import SAMPLE_PROJECT
from engine.core.protocol import AudioChunk, JobFinished, JobStarted
from tests.engine.helpers import POSIX_ONLY

from .conftest import VOICES, add_fake_take, tone
from .test_project_render_session import RATE, TIMING, ScriptedClient

CRAFTED_ID = "../../../tmp/ID_ESCAPE"


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


@POSIX_ONLY
def test_a_take_over_a_hard_link_is_refused(project: Project, tmp_path: Path) -> None:
    outside = tmp_path / "mine.wav"
    outside.write_bytes(b"mine")
    take = project.root / "takes" / "l1_x.wav"
    take.parent.mkdir(exist_ok=True)
    os.link(outside, take)
    with pytest.raises(SaveError) as raised:
        atomic_write_wav(take, np.zeros(10, dtype=np.float32), 22050, inside=project.root)
    assert raised.value.code is ErrorCode.NOT_REGULAR_FILE and outside.read_bytes() == b"mine"


@POSIX_ONLY
def test_a_project_opened_through_a_symlinked_root_writes_takes_inside(project: Project, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(project.root)
    opened = Project.load(link)
    assert opened.root == project.root.resolve()
    rel = "takes/l1_new.wav"
    atomic_write_wav(opened.resolve(rel), tone(0.5), 22050, inside=opened.root)
    by_link = Project(root=link, title="x")  # a root given as the link itself, as the studio may
    atomic_write_wav(by_link.resolve("takes/l2_new.wav"), tone(0.5), 22050, inside=by_link.root)
    assert (project.root / rel).is_file() and (project.root / "takes/l2_new.wav").is_file()


@POSIX_ONLY
def test_a_render_through_a_symlinked_project_folder_renders(tmp_path: Path) -> None:
    real = tmp_path / "real"
    shutil.copytree(SAMPLE_PROJECT, real)
    link = tmp_path / "link"
    link.symlink_to(real)
    assert cli_main(["render", str(link), "--lines", "1", "--slots", "1", "--no-progress"]) == 0
    line = Project.load(real).lines[0]
    assert line.takes and (real / line.takes[0].path).is_file()
