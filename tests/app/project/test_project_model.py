"""The project model: folder layout, load/save, safe paths, atomic save, clips, stale detection."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import (
    ClipImportError,
    LineStatus,
    PathEscapeError,
    Project,
    ProjectFileError,
    SaveError,
)
from app.project.clips import import_clip, trimmed_clip
from app.project.fsutil import atomic_write_bytes, check_relative, resolve_inside
from app.project.sample import SAMPLE_PROJECT, copy_sample_project
from engine.core.codes import ErrorCode

from .conftest import VOICES, add_fake_take, tone


def test_create_makes_the_folder_layout_and_round_trips(project: Project) -> None:
    for name in ("project.json", "voices", "takes", "exports"):
        assert (project.root / name).exists()
    assert sorted(p.name for p in project.voices_dir.iterdir()) == ["maya.wav", "rex.wav"]
    line = project.lines[0]
    add_fake_take(project, line, tone(1.0))
    project.save()
    again = Project.load(project.root)
    assert again.to_dict() == project.to_dict()
    assert [line.id for line in again.lines] == ["l1", "l2", "l3", "l4", "l5", "l6"]
    assert again.character("rex").transcript.startswith("Listen to me")
    assert again.chosen_take(again.lines[0]) == project.chosen_take(line)
    assert again.order_of("l3") == 3


def test_a_characters_voice_settings_keep_their_place_in_project_json(project: Project) -> None:
    """One type (engine.core.protocol.VoiceSettings) in memory; in the file the language stays beside
    the settings, as every schema wrote it."""
    maya = project.character("maya")
    maya.settings = replace(maya.settings, speed=1.25, pitch_semitones=-2.0, instruction="softly")
    project.save()
    stored = json.loads((project.root / "project.json").read_text(encoding="utf-8"))["characters"][0]
    assert stored["language"] == "en"
    assert stored["settings"] == {"speed": 1.25, "pitch_semitones": -2.0, "instruction": "softly"}
    assert Project.load(project.root).character("maya").settings == maya.settings


def test_load_accepts_the_project_file_path_and_refuses_other_folders(project: Project, tmp_path: Path) -> None:
    assert Project.load(project.project_file).root == project.root
    with pytest.raises(ProjectFileError, match="not a DubStudio project"):
        Project.load(tmp_path)
    with pytest.raises(ProjectFileError, match="already holds a project"):
        Project.create(project.root)


def test_hand_edited_order_is_honoured(project: Project) -> None:
    data = json.loads(project.project_file.read_text())
    data["lines"][0]["order"] = 99
    project.project_file.write_text(json.dumps(data))
    assert [line.id for line in Project.load(project.root).lines] == ["l2", "l3", "l4", "l5", "l6", "l1"]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(lines="x"), "'lines' has the wrong type"),
        (lambda d: d["lines"][1].update(character="ghost"), "line 2 .* unknown character 'ghost'"),
        (lambda d: d["lines"][1].update(id="l1"), "two lines share an id"),
        (lambda d: d["lines"][0].update(start=-1), r"from 0 to 86400 s \(24 h\)"),
        (lambda d: d["lines"][0].update(status="sleeping"), "unknown status"),
        (lambda d: d["characters"][0].pop("name"), r"characters\[0\]: missing 'name'"),
        (lambda d: d["lines"][0].update(takes=[{"id": "t1", "path": "takes/t1.wav", "variant": -2}]),
         r"lines\[0\].takes\[0\]: variant must be a whole number from 0 to 2147483647, got -2"),
        (lambda d: d["lines"][0].update(takes=[{"id": "t1", "path": "takes/t1.wav", "variant": 1.5}]),
         "'variant' has the wrong type"),
    ],
)
def test_broken_files_fail_with_a_clear_message(project: Project, mutate, message) -> None:
    data = json.loads(project.project_file.read_text())
    mutate(data)
    project.project_file.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError, match=message):
        Project.load(project.root)


def test_a_line_is_checked_at_load_as_on_edit(project: Project) -> None:
    """validate_line: a hand-edited line that ends before it starts is refused at load too."""
    data = json.loads(project.project_file.read_text())
    data["lines"][1].update(start=5.0, end=4.0)
    project.project_file.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError, match=r"lines\[1\] ends \(0:04.000\) before it starts \(0:05.000\)") as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.TIME_RANGE
    data["lines"][1].update(start=4.0, end=4.0, speed=9.0)
    project.project_file.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError, match=r"lines\[1\]: speed must be a number from 0.25 to 4") as caught:
        Project.load(project.root)
    assert caught.value.code is ErrorCode.BAD_SETTING  # a voice setting, as the engine and the CLI refuse it


def test_invalid_json_names_the_line(project: Project) -> None:
    project.project_file.write_text('{\n "title": "x",\n oops\n}')
    with pytest.raises(ProjectFileError, match="line 3"):
        Project.load(project.root)


# --- paths -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["../x.wav", "voices/../../x.wav", "/etc/passwd", "C:\\clips\\a.wav", "\\\\srv\\a.wav", ""])
def test_paths_that_escape_are_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(PathEscapeError) as caught:
        resolve_inside(tmp_path, bad)
    assert caught.value.code is ErrorCode.PATH_ESCAPE


def test_relative_paths_are_normalised(tmp_path: Path) -> None:
    assert check_relative("voices\\a.wav") == "voices/a.wav"
    assert check_relative("./voices//a.wav") == "voices/a.wav"
    assert resolve_inside(tmp_path, "voices/a.wav") == tmp_path.resolve() / "voices" / "a.wav"


def test_symlink_out_of_the_folder_is_refused(project: Project, tmp_path: Path) -> None:
    outside = tmp_path / "outside.wav"
    shutil.copy(VOICES / "maya.wav", outside)
    (project.voices_dir / "link.wav").symlink_to(outside)
    with pytest.raises(PathEscapeError, match="resolves outside"):
        project.resolve("voices/link.wav")


def test_escaping_paths_in_project_json_are_refused_on_load(project: Project) -> None:
    data = json.loads(project.project_file.read_text())
    data["characters"][0]["clip"] = "../../secret.wav"
    project.project_file.write_text(json.dumps(data))
    with pytest.raises(PathEscapeError, match=r"characters\[0\]"):
        Project.load(project.root)


# --- atomic save -----------------------------------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_failed_serialisation_leaves_the_file_alone(project: Project) -> None:
    good = project.project_file.read_bytes()
    project.settings.gap_s = float("nan")  # JSON cannot hold it
    with pytest.raises(SaveError) as caught:
        project.save()
    assert caught.value.code is ErrorCode.SAVE_FAILED
    project.title = object()  # type: ignore[assignment]
    with pytest.raises(SaveError):
        project.save()
    assert project.project_file.read_bytes() == good
    assert _leftovers(project.root) == []


@pytest.mark.parametrize("fail_at", ["fsync", "replace", "write"])
def test_failed_write_never_replaces_a_good_file(project: Project, monkeypatch, fail_at: str) -> None:
    good = project.project_file.read_bytes()
    project.title = "Changed"

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if fail_at == "write":
        real_fdopen = os.fdopen

        class HalfWriter:  # writes a little, then the disk is full
            def __init__(self, handle):
                self.handle = handle

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

            def fileno(self):
                return self.handle.fileno()

            def write(self, data):
                self.handle.write(data[:10])
                self.handle.flush()
                boom()

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(os, fail_at, boom)
    with pytest.raises(SaveError, match="No space left"):
        project.save()
    monkeypatch.undo()
    assert project.project_file.read_bytes() == good
    assert _leftovers(project.root) == []
    project.save()  # and it works again once the disk is fine
    assert Project.load(project.root).title == "Changed"


def test_interrupted_save_cleans_up_and_propagates(project: Project, monkeypatch) -> None:
    good = project.project_file.read_bytes()

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        project.save()
    assert project.project_file.read_bytes() == good
    assert _leftovers(project.root) == []


def test_atomic_write_keeps_permissions(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    atomic_write_bytes(target, b"1")
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    target.chmod(0o640)
    atomic_write_bytes(target, b"2")
    assert target.stat().st_mode & 0o777 == 0o640


def test_transient_statuses_are_not_saved(project: Project) -> None:
    add_fake_take(project, project.lines[0], tone(0.5))
    project.lines[0].status = LineStatus.RENDERING
    project.lines[1].status = LineStatus.QUEUED
    project.save()
    again = Project.load(project.root)
    assert again.lines[0].status is LineStatus.DONE
    assert again.lines[1].status is LineStatus.NOT_RENDERED


# --- clips -----------------------------------------------------------------------------------


def test_import_clip_copies_and_keeps_the_format(project: Project, tmp_path: Path) -> None:
    audio, rate = sf.read(str(VOICES / "maya.wav"))
    flac = tmp_path / "Maya Take (1).flac"
    sf.write(str(flac), audio, rate)
    rel = import_clip(project, flac)
    assert rel == "voices/Maya_Take_1.flac"
    assert project.resolve(rel).read_bytes() == flac.read_bytes()
    assert import_clip(project, flac) == "voices/Maya_Take_1_2.flac"  # never overwrites
    assert import_clip(project, project.resolve(rel)) == rel  # already inside: used in place


def test_import_clip_converts_other_formats_to_wav(project: Project, tmp_path: Path) -> None:
    audio, rate = sf.read(str(VOICES / "rex.wav"))
    odd = tmp_path / "rex.au"
    sf.write(str(odd), np.stack([audio, audio], axis=1), rate, format="AU")
    rel = import_clip(project, odd)
    assert rel == "voices/rex_2.wav"  # voices/rex.wav exists already
    info = sf.info(str(project.resolve(rel)))
    assert (info.format, info.channels, info.samplerate) == ("WAV", 1, rate)


def test_import_clip_refuses_non_audio(project: Project, tmp_path: Path) -> None:
    junk = tmp_path / "notes.wav"
    junk.write_text("this is not audio")
    with pytest.raises(ClipImportError, match="cannot decode notes.wav"):
        import_clip(project, junk)
    with pytest.raises(ClipImportError, match="not found"):
        import_clip(project, tmp_path / "missing.wav")
    assert sorted(p.name for p in project.voices_dir.iterdir()) == ["maya.wav", "rex.wav"]


def test_trimmed_clip_is_cut_once_and_reused(project: Project) -> None:
    maya = project.character("maya")
    assert trimmed_clip(project, "maya") == project.resolve("voices/maya.wav")
    maya.clip_start, maya.clip_end = 1.0, 3.5
    cut = trimmed_clip(project, "maya")
    assert cut is not None and cut.parent == project.cache_dir / "clips"
    assert sf.info(str(cut)).duration == pytest.approx(2.5, abs=1e-3)
    stamp = cut.stat().st_mtime_ns
    assert trimmed_clip(project, "maya") == cut and cut.stat().st_mtime_ns == stamp


# --- stale detection -------------------------------------------------------------------------


def test_line_status_follows_what_changed_since_its_take(project: Project) -> None:
    line = project.lines[0]
    assert project.status(line) is LineStatus.NOT_RENDERED
    add_fake_take(project, line, tone(1.0))
    line.status = LineStatus.DONE
    assert project.status(line) is LineStatus.DONE
    maya = project.character("maya")

    def stale_after(change) -> bool:
        undo = change()
        stale = project.status(line) is LineStatus.STALE
        undo()
        assert project.status(line) is LineStatus.DONE
        return stale

    def set_attr(obj, name, value):
        def apply():
            old = getattr(obj, name)
            setattr(obj, name, value)
            return lambda: setattr(obj, name, old)

        return apply

    assert stale_after(set_attr(line, "text", line.text + " Really?"))
    assert stale_after(set_attr(line, "character_id", "rex"))
    assert stale_after(set_attr(maya, "transcript", "something else"))
    assert stale_after(set_attr(maya, "clip_start", 0.5))
    assert stale_after(set_attr(maya, "clip_end", 4.0))
    assert stale_after(set_attr(maya, "settings", replace(maya.settings, language="fr")))
    assert stale_after(set_attr(maya, "settings", replace(maya.settings, speed=1.2)))
    assert stale_after(set_attr(maya, "settings", replace(maya.settings, pitch_semitones=2)))
    assert stale_after(set_attr(maya, "settings", replace(maya.settings, instruction="whisper")))
    assert stale_after(set_attr(project.settings, "backend", "cosyvoice2"))
    assert stale_after(set_attr(maya, "clip", "voices/rex.wav"))
    # Names, colours and timecodes do not change the audio.
    assert not stale_after(set_attr(maya, "name", "Maya B."))
    assert not stale_after(set_attr(maya, "colour", "#000000"))
    assert not stale_after(set_attr(line, "start", 42.0))
    assert not stale_after(set_attr(line, "text", line.text + "  "))


def test_replacing_the_clip_content_makes_lines_stale(project: Project) -> None:
    line = project.lines[0]
    add_fake_take(project, line, tone(1.0))
    clip = project.resolve("voices/maya.wav")
    audio, rate = sf.read(str(clip))
    sf.write(str(clip), audio * 0.5, rate)
    os.utime(clip, ns=(clip.stat().st_atime_ns, clip.stat().st_mtime_ns + 1_000_000_000))
    assert project.status(line) is LineStatus.STALE
    assert line in project.lines_needing_render()


def test_failed_and_missing_clips(project: Project) -> None:
    line = project.lines[1]
    add_fake_take(project, line, tone(1.0))
    line.status, line.error = LineStatus.FAILED, "E_BACKEND: boom"
    assert project.status(line) is LineStatus.FAILED  # the last attempt failed: say so
    line.status = LineStatus.DONE
    project.resolve("voices/rex.wav").unlink()
    assert project.fingerprint(line) is None
    assert project.status(line) is LineStatus.STALE


def test_sample_project_opens_and_copies(tmp_path: Path) -> None:
    sample = Project.load(SAMPLE_PROJECT)
    assert len(sample.lines) == 6 and {c.name for c in sample.characters} == {"Maya", "Rex"}
    assert all(line.start is not None and line.end is not None for line in sample.lines)
    for char in sample.characters:
        assert sample.clip_path(char).is_file()  # type: ignore[union-attr]
    copy = copy_sample_project(tmp_path / "mine")
    assert copy.root == (tmp_path / "mine").absolute()
    assert [line.text for line in copy.lines] == [line.text for line in sample.lines]
    assert all(copy.status(line) is LineStatus.NOT_RENDERED for line in copy.lines)
    assert (copy.root / "takes").is_dir() and (copy.root / "voices" / "maya.wav").is_file()


def test_a_clip_that_may_hold_another_voice_or_is_short_is_warned_of() -> None:
    from app.project.model import MIN_CLIP_PURITY, clip_warning

    assert clip_warning(0.35, 8.0) is None and clip_warning(None, None) is None
    impure = clip_warning(MIN_CLIP_PURITY - 0.01, 8.0)
    assert impure is not None and "another voice" in impure and "+0.09" in impure
    both = clip_warning(0.02, 3.2)
    assert both is not None and "another voice" in both and "short (3.2 s" in both
