"""The video in the project: probing, bringing it in, subtitle streams, the guide track, and
a new project from a video (the function and the `dubstudio new` command). Videos are made
with PyAV in tmp_path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.cli import main as cli_main
from app.project import MediaError, PathEscapeError, Project, ProjectFileError
from app.project.media import (
    attach_video,
    extract_guide,
    probe_video,
    subtitle_stream_srt,
    with_dialogue_stream,
)
from app.project.new_project import VoiceSource, new_project_from_video
from engine.core.codes import ErrorCode

from .conftest import VOICES
from .media_fixtures import make_video

SUBS = """1
00:00:00,500 --> 00:00:01,800
Maya: The {\\i1}tide{\\i0} is turning.

2
00:00:02,000 --> 00:00:03,200
[Rex] Then we row
out now.

3
00:00:03,400 --> 00:00:03,900
Who said that?
"""


@pytest.fixture(scope="module")
def videos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("videos")
    return {
        "mkv_subs": make_video(folder / "scene.mkv", subtitles_srt=SUBS),
        "mp4": make_video(folder / "plain.mp4"),
        "silent": make_video(folder / "silent.mp4", tone_hz=None),
    }


def test_probe_reads_picture_audio_and_subtitle_streams(videos: dict[str, Path]) -> None:
    info = probe_video(videos["mkv_subs"])
    assert (info.width, info.height, info.fps, info.codec) == (160, 96, 25.0, "h264")
    assert info.duration_s == pytest.approx(4.0, abs=0.05)
    assert [(a.codec, a.channels, a.sample_rate) for a in info.audio_streams] == [("aac", 2, 48000)]
    assert [(s.index, s.text, s.language) for s in info.subtitle_streams] == [(2, True, "eng")]
    plain = probe_video(videos["mp4"])
    assert plain.frame_count == 100 and plain.subtitle_streams == ()
    assert probe_video(videos["silent"]).audio_streams == ()


@pytest.mark.parametrize("rotation, shown", [(90, (96, 160)), (-90, (96, 160)), (180, (160, 96))])
def test_a_video_stored_sideways_is_as_big_as_it_is_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], rotation: int, shown: tuple[int, int]) -> None:
    """A phone stores a portrait video sideways with a display rotation: `new` and the studio said
    160x96 for a picture every player shows 96x160."""
    video = make_video(tmp_path / "phone.mp4", seconds=0.5, rotation=rotation)
    info = probe_video(video)
    assert (info.width, info.height) == shown
    assert cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--no-subtitles"]) == 0
    assert f"({shown[0]}x{shown[1]}, 25 fps" in capsys.readouterr().out


def test_files_that_are_not_videos_are_refused_with_a_code(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 100)
    with pytest.raises(MediaError) as error:
        probe_video(junk)
    assert error.value.code is ErrorCode.VIDEO_UNREADABLE
    with pytest.raises(MediaError) as error:
        probe_video(VOICES / "maya.wav")  # audio only
    assert error.value.code is ErrorCode.NO_VIDEO_STREAM
    with pytest.raises(MediaError, match="not found"):
        probe_video(tmp_path / "missing.mkv")


def test_a_video_that_cannot_be_read_is_named_with_the_reason_not_a_descriptor(tmp_path: Path) -> None:
    """Issue 34: a 0-byte video's message named file descriptor '4', not the file."""
    (tmp_path / "empty.mp4").write_bytes(b"")
    (tmp_path / "junk.mp4").write_bytes(b"not a video at all" * 100)
    for name, reason in (("empty.mp4", "the file is empty (0 bytes)"),
                         ("junk.mp4", "Invalid data found when processing input")):
        with pytest.raises(MediaError) as error:
            probe_video(tmp_path / name)
        assert str(error.value) == f"E_VIDEO_UNREADABLE: cannot read {name} as a video: {reason}"


def test_subtitle_stream_becomes_srt_without_formatting(videos: dict[str, Path]) -> None:
    text = subtitle_stream_srt(videos["mkv_subs"])
    assert "Maya: The tide is turning." in text and "[Rex] Then we row\nout now." in text
    assert "00:00:03,400 --> 00:00:03,900" in text
    with pytest.raises(MediaError) as error:
        subtitle_stream_srt(videos["mp4"])
    assert error.value.code is ErrorCode.SUBTITLE_STREAM and "no text subtitle stream" in str(error.value)
    with pytest.raises(MediaError, match="no subtitle stream #5"):
        subtitle_stream_srt(videos["mkv_subs"], 5)


def test_attach_copies_in_or_uses_a_file_inside_and_never_points_out(tmp_path: Path, videos: dict[str, Path]) -> None:
    project = Project.create(tmp_path / "proj")
    info = attach_video(project, videos["mp4"])
    assert info.path == "media/plain.mp4" and project.resolve(info.path).read_bytes() == videos["mp4"].read_bytes()
    inside = project.root / "footage" / "take1.mp4"
    inside.parent.mkdir()
    inside.write_bytes(videos["mp4"].read_bytes())
    assert attach_video(project, inside, copy=False).path == "footage/take1.mp4"
    with pytest.raises(PathEscapeError, match="outside the project folder"):
        attach_video(project, videos["mp4"], copy=False)
    project.video = info
    project.save()
    again = Project.load(project.root)
    assert again.video == info  # every probed fact survives the round trip


def test_guide_track_is_extracted_once_as_flac(tmp_path: Path, videos: dict[str, Path]) -> None:
    project = Project.create(tmp_path / "proj")
    project.video = attach_video(project, videos["mkv_subs"])
    seen: list[float] = []
    rel = extract_guide(project, progress=seen.append)
    assert rel == "media/guide.flac"
    info = sf.info(str(project.resolve(rel)))
    assert (info.samplerate, info.channels) == (48000, 2) and info.duration == pytest.approx(4.0, abs=0.05)
    assert seen and seen == sorted(seen) and seen[-1] <= 1.0
    silent = Project.create(tmp_path / "silent")
    silent.video = attach_video(silent, videos["silent"])
    with pytest.raises(MediaError) as error:
        extract_guide(silent)
    assert error.value.code is ErrorCode.NO_AUDIO_STREAM


def test_new_project_from_video_and_srt_lists_what_cannot_render(tmp_path: Path, videos: dict[str, Path]) -> None:
    srt = tmp_path / "script.srt"
    srt.write_text(SUBS, encoding="utf-8")
    made = new_project_from_video(tmp_path / "dub", videos["mp4"], subtitles=srt, guide=True,
                                  voices=[VoiceSource("maya", VOICES / "maya.wav")])
    project = Project.load(made.project.root)
    assert project.video is not None and project.video.path == "media/plain.mp4"
    assert project.guide_audio == "media/guide.flac"
    assert [line.start for line in project.lines] == [0.5, 2.0, 3.4]
    maya = project.character_by_name("Maya")
    assert maya is not None and maya.clip == "voices/maya.wav"
    assert maya.transcript == (VOICES / "maya.txt").read_text(encoding="utf-8").strip()  # the sidecar
    assert [c.name for c in made.gaps.characters_without_clip] == ["Rex"]
    assert [g.order for g in made.gaps.lines_without_character] == [3]


def test_new_project_takes_subtitles_from_the_video_stream(tmp_path: Path, videos: dict[str, Path]) -> None:
    made = new_project_from_video(tmp_path / "dub", videos["mkv_subs"],
                                  voices=[VoiceSource("Maya", VOICES / "maya.wav", "custom words"),
                                          VoiceSource("Rex", VOICES / "rex.wav")])
    assert made.subtitles_from == "subtitle stream #2 of scene.mkv"
    assert [line.text for line in made.project.lines] == ["The tide is turning.", "Then we row out now.", "Who said that?"]
    assert made.project.character_by_name("Maya").transcript == "custom words"  # type: ignore[union-attr]
    assert not made.gaps.characters_without_clip and len(made.gaps.lines_without_character) == 1


def test_a_failed_new_project_leaves_nothing_behind(tmp_path: Path, videos: dict[str, Path]) -> None:
    with pytest.raises(MediaError):
        new_project_from_video(tmp_path / "dub", videos["mp4"], subtitle_stream=3)
    assert not (tmp_path / "dub").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(Exception, match="voice for Maya"):
        new_project_from_video(empty, videos["mp4"], voices=[VoiceSource("Maya", tmp_path / "nope.wav")])
    assert list(empty.iterdir()) == []
    (empty / "keep.txt").write_text("mine")
    with pytest.raises(ProjectFileError, match="not an empty folder"):
        new_project_from_video(empty, videos["mp4"])
    assert [p.name for p in empty.iterdir()] == ["keep.txt"]


def test_dubstudio_new_prints_the_gaps_at_once(tmp_path: Path, videos: dict[str, Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    transcript = tmp_path / "rex words.txt"
    transcript.write_text("I saw them.", encoding="cp1252")
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(videos["mkv_subs"]), "--guide",
                     "--voice", f"Rex={VOICES / 'rex.wav'}:{transcript}"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "3 lines from subtitle stream #2 of scene.mkv" in out and "guide track: media/guide.flac" in out
    assert "line 3 has no character: 'Who said that?'" in out
    assert "character 'Maya' has no reference clip; 1 line waits for it" in out
    assert Project.load(tmp_path / "dub").character_by_name("Rex").transcript == "I saw them."  # type: ignore[union-attr]

    assert cli_main(["new", str(tmp_path / "x"), "--video", str(VOICES / "maya.wav")]) == 2
    assert "E_NO_VIDEO_STREAM" in capsys.readouterr().err and not (tmp_path / "x").exists()
    assert cli_main(["new", str(tmp_path / "y"), "--video", str(videos["mp4"]), "--voice", "Maya"]) == 2
    assert "expected NAME=CLIP" in capsys.readouterr().err


def _onset_s(audio: np.ndarray, rate: int) -> float:
    """When the first sound is heard, in seconds."""
    level = np.abs(audio).max(axis=1) if audio.ndim == 2 else np.abs(audio)
    return float(np.argmax(level > 0.05)) / rate


@pytest.mark.parametrize("picture_s, sound_s", [(0.0, 0.5), (1.0, 0.6)])
def test_the_guide_is_timed_from_the_first_picture_when_the_sound_starts_elsewhere(
        tmp_path: Path, picture_s: float, sound_s: float) -> None:
    """A phone's or camera's track that starts 0.5 s after its picture was decoded from its first
    sample, so the guide (and a transcription's lines) came 0.5 s early; one that starts 0.4 s
    before it came 0.4 s late."""
    from engine.core.audio_io import AudioStream

    video = make_video(tmp_path / "late.mp4", seconds=3.0, start_s=picture_s, audio_start_s=sound_s)
    project = Project.create(tmp_path / "proj")
    project.video = attach_video(project, video)
    guide, rate = sf.read(str(project.resolve(extract_guide(project))), always_2d=True)
    lead = sound_s - picture_s
    assert _onset_s(guide, rate) == pytest.approx(max(0.0, lead), abs=0.005)
    assert len(guide) / rate == pytest.approx(3.0 + lead, abs=0.03)  # what plays before the picture is left out
    with AudioStream(video) as stream:  # a window further in (a line's clip, a transcription window) too
        later = np.concatenate(list(stream.blocks(mono=True, start_s=0.25)))
    assert _onset_s(later, 48000) == pytest.approx(max(0.0, lead - 0.25), abs=0.005)


def _rms(path: Path) -> float:
    audio, _rate = sf.read(str(path))
    return float(np.sqrt(np.mean(np.square(audio))))


def test_the_dialogue_track_of_a_video_with_two_is_chosen_tagged_or_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A client's MKV holds a French dub first and the English original second: the guide (and
    the transcription, the M&E, the original audio kept in the export) came from the first, the
    silent dub, whatever language the dialogue was said to be in, and no option chose another."""
    video = make_video(tmp_path / "two.mkv", seconds=2.0, tone_hz=None, audio_tracks=(("fre", None), ("eng", 440.0)))

    def new(name: str, *options: str) -> Project:
        assert cli_main(["new", str(tmp_path / name), "--video", str(video), "--guide", "--no-subtitles",
                         *options]) == 0, capsys.readouterr()
        return Project.load(tmp_path / name)

    tagged = new("tagged", "--language", "en")
    assert "dialogue: audio stream #2 of #1 fre, #2 eng" in capsys.readouterr().out
    assert tagged.video is not None and tagged.video.dialogue_stream == 2  # kept in project.json
    assert _rms(tagged.resolve(tagged.guide_audio or "")) > 0.1
    asked = new("asked", "--language", "en", "--audio-stream", "1")
    assert asked.video is not None and asked.video.dialogue_stream == 1
    assert _rms(asked.resolve(asked.guide_audio or "")) < 0.001
    first = new("first")
    assert first.video is not None and first.video.dialogue_audio() == first.video.audio_streams[0]

    assert cli_main(["new", str(tmp_path / "wrong"), "--video", str(video), "--audio-stream", "7"]) == 2
    assert "E_NO_AUDIO_STREAM" in capsys.readouterr().err and not (tmp_path / "wrong").exists()


@pytest.mark.parametrize("suffix", [".mp4", ".mkv"])
@pytest.mark.parametrize("picture_s", [0.0, 1.0])
def test_a_picture_that_stops_while_its_sound_plays_on_lasts_as_long_as_the_sound(
        tmp_path: Path, suffix: str, picture_s: float) -> None:
    """A still picture over a recording (one frame: an audiogram, a podcast's cover) probed as
    0.04 s long, a picture ending at 1 s over 4 s of sound as 1 s: the mix, stems and dub
    stopped there, with the rest of the dialogue under nothing."""
    from app.project.export import delivery_mixdown

    from .conftest import add_fake_take, make_project, tone

    video = make_video(tmp_path / f"still{suffix}", seconds=4.0, picture_s=picture_s)
    info = probe_video(video)
    assert info.duration_s == pytest.approx(4.0, abs=0.03)
    project = make_project(tmp_path / "scene")
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = attach_video(project, video)
    assert len(delivery_mixdown(project).mix) == round(info.duration_s * 48000)


def test_the_dialogue_track_is_found_by_its_language_tag_in_any_iso_639_form(tmp_path: Path) -> None:
    """FFmpeg and most tools tag tracks "fra", "deu", "zho" (ISO 639-2/T), others "zh-CN" or
    "cmn": none matched `--language fr/de/zh` (only "fre", "ger", "chi" did), so the dialogue fell
    back to the first track."""
    tags = ("eng", "fra", "deu", "zh-CN")
    info = probe_video(make_video(tmp_path / "four.mkv", seconds=0.5, tone_hz=None,
                                  audio_tracks=tuple((tag, None) for tag in tags)))
    assert [a.language for a in info.audio_streams] == list(tags)
    for language, tag in [("fr", "fra"), ("fre", "fra"), ("de", "deu"), ("zh", "zh-CN"), ("zh-TW", "zh-CN")]:
        chosen = with_dialogue_stream(info, language=language).dialogue_audio()
        assert chosen is not None and chosen.language == tag, language


def test_the_video_export_keeps_the_dialogue_track_as_the_original_audio(tmp_path: Path) -> None:
    import av

    from app.project.video_export import VideoExportOptions, export_video

    from .conftest import add_fake_take, make_project, tone

    project = make_project(tmp_path / "scene")
    add_fake_take(project, project.lines[0], tone(1.0))
    video = make_video(tmp_path / "two.mkv", seconds=2.0, tone_hz=None, audio_tracks=(("fre", None), ("eng", 440.0)))
    project.video = with_dialogue_stream(attach_video(project, video), language="en")
    out = export_video(project, None, VideoExportOptions(container="mkv", keep_original=True)).files[0]
    with av.open(str(out)) as container:
        original = container.streams.audio[1]
        level = max(float(np.abs(frame.to_ndarray()).max()) for frame in container.decode(original))
    assert original.metadata["title"] == "Original audio" and level > 0.1  # the English, not the silent dub


@pytest.mark.parametrize("container", ["mp4", "mkv"])
def test_the_original_audio_kept_in_the_export_keeps_its_language_tag(tmp_path: Path, container: str) -> None:
    """A client's MKV with an English and a Mandarin track, dubbed without a transcription (the
    project names no language): the original audio kept in an MP4 was tagged "und"."""
    import av

    from app.project.video_export import VideoExportOptions, export_video

    from .conftest import add_fake_take, make_project, tone

    project = make_project(tmp_path / "scene")
    add_fake_take(project, project.lines[0], tone(1.0))
    video = make_video(tmp_path / "two.mkv", seconds=2.0, tone_hz=None, audio_tracks=(("eng", 440.0), ("chi", None)))
    project.video = attach_video(project, video)
    assert not project.language
    options = VideoExportOptions(container=container, keep_original=True)
    with av.open(str(export_video(project, None, options).files[0])) as out:
        tags = [stream.metadata.get("language") for stream in out.streams.audio]
    assert tags == ["eng", "eng"]  # the dub (its lines' language) and the English original


def test_a_video_cut_short_is_as_long_as_its_picture_and_so_is_the_mix(tmp_path: Path) -> None:
    """An MKV whose copy stopped at two thirds still states its full length: the probe said
    4.02 s for a picture that ends at 2.76 s, and the mix and stems were padded to 4.02 s."""
    from app.project.export import delivery_mixdown

    from .conftest import add_fake_take, make_project, tone

    whole = make_video(tmp_path / "whole.mkv", seconds=4.0)
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 2 // 3])
    shown = probe_video(cut).duration_s
    assert 1.5 < shown < 3.5 and probe_video(whole).duration_s == pytest.approx(4.0, abs=0.03)
    project = make_project(tmp_path / "scene")
    add_fake_take(project, project.lines[0], tone(1.0))
    project.video = attach_video(project, cut)
    assert len(delivery_mixdown(project).mix) == round(shown * 48000)
    late = make_video(tmp_path / "late.mkv", seconds=3.0, start_s=1.0)  # the file states 4 s: its end
    assert probe_video(late).duration_s == pytest.approx(3.0, abs=0.03)
