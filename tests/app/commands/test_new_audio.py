"""`dubstudio new --audio`: a recording with no picture (a radio drama, a podcast, a dialogue stem
before the picture is locked) dubbed as a video is, end to end on the command line: transcribed,
cast from a library, subtitled, rendered; only the finished video is refused, in words and a code.
Real speech (LibriSpeech recordings in tests/data/hearing), Whisper base, CAM++ and the embedded voice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.cli import main as cli_main
from app.project import Project
from app.project.media import probe_video
from engine.core.audio_io import audio_info
from tests.engine.hearing.scenes import make_scene

SPEECH = Path(__file__).resolve().parents[3] / "tests" / "data" / "hearing"


def test_a_recording_is_subtitled_transcribed_cast_and_rendered_but_not_made_a_video(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_scene(tmp_path / "episode-1.mp3", ["libri_1688_a", "libri_3080_a"])
    make_scene(tmp_path / "episode-2.flac", ["libri_3080_b", "libri_1688_b"])
    # Given as a video, it is refused, and the message says what to do instead.
    assert cli_main(["new", str(tmp_path / "x"), "--video", str(tmp_path / "episode-1.mp3")]) == 2
    said = capsys.readouterr().err
    assert "E_NO_VIDEO_STREAM" in said and "dub it as audio (dubstudio new --audio)" in said

    # Episode 1 from its subtitles, each voice given its clip; saved to the cast library.
    words = tmp_path / "words.txt"  # a transcript for each clip: Whisper need not hear them
    words.write_text("Words.")
    (tmp_path / "episode-1.srt").write_text("1\n00:00:00,200 --> 00:00:07,000\nHale: I don't think so.\n\n"
                                            "2\n00:00:09,000 --> 00:00:16,000\nMargaret: I knew you would.\n")
    assert cli_main(["new", str(tmp_path / "episode-1"), "--audio", str(tmp_path / "episode-1.mp3"),
                     "--subtitles", str(tmp_path / "episode-1.srt"),
                     "--voice", f"Hale={SPEECH / 'libri_1688_a.flac'}:{words}",
                     "--voice", f"Margaret={SPEECH / 'libri_3080_a.flac'}:{words}"]) == 0
    out = capsys.readouterr().out
    assert "audio: media/episode-1.mp3 (" in out and "no picture" in out and "--export mix" in out
    first = Project.load(tmp_path / "episode-1")
    assert first.video is not None and not first.video.has_picture
    assert [line.text for line in first.lines] == ["I don't think so.", "I knew you would."]
    assert cli_main(["cast", "add", str(tmp_path / "cast"), str(tmp_path / "episode-1")]) == 0

    # Episode 2 transcribed, its voices cast from the library.
    assert cli_main(["new", str(tmp_path / "episode-2"), "--audio", str(tmp_path / "episode-2.flac"),
                     "--transcribe", "--language", "en", "--cast", str(tmp_path / "cast")]) == 0
    second = Project.load(tmp_path / "episode-2")
    assert sorted(c.name for c in second.characters) == ["Hale", "Margaret"] and second.guide_audio
    assert second.video is not None and not second.video.has_picture
    capsys.readouterr()

    # The finished video needs a picture: refused before anything renders, in words and a code.
    assert cli_main(["render", str(tmp_path / "episode-2"), "--export", "video"]) == 2
    said = capsys.readouterr().err
    assert "E_NO_VIDEO_STREAM" in said and "the project has no picture" in said and "audio only" in said
    assert not list((tmp_path / "episode-2" / "takes").glob("*.wav"))
    # The audio exports work, as long as the recording: the stems line up with its dialogue.
    assert cli_main(["render", str(tmp_path / "episode-2"), "--export", "mix,stems"]) == 0
    mix = audio_info(tmp_path / "episode-2" / "exports" / "mix.wav")
    source = probe_video(tmp_path / "episode-2.flac", picture=False).duration_s
    assert abs(mix.frames / mix.sample_rate - source) < 0.05
    assert len(list((tmp_path / "episode-2" / "exports" / "stems").glob("*.wav"))) == 2


def test_a_podcast_s_cover_picture_is_no_picture_to_dub(tmp_path: Path) -> None:
    import av
    from av.stream import Disposition

    with av.open(str(tmp_path / "episode.mp3"), "w") as out:
        sound = out.add_stream("mp3", rate=16000, layout="mono")
        cover = out.add_stream("png")
        cover.width, cover.height, cover.pix_fmt = 32, 32, "rgb24"
        cover.disposition = Disposition.attached_pic
        for packet in [*cover.encode(av.VideoFrame.from_ndarray(np.zeros((32, 32, 3), np.uint8), format="rgb24")),
                       *cover.encode()]:
            out.mux(packet)
        frame = av.AudioFrame.from_ndarray(np.full((1, 48000), 0.1, np.float32), format="flt", layout="mono")
        frame.sample_rate = 16000
        for packet in [*sound.encode(frame), *sound.encode()]:
            out.mux(packet)
    info = probe_video(tmp_path / "episode.mp3", picture=False)
    assert not info.has_picture and abs(info.duration_s - 3.0) < 0.1 and len(info.audio_streams) == 1
