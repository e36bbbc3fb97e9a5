"""Clips in formats libsndfile cannot read (AAC in .m4a, Opus in .mka) are decoded by FFmpeg
(PyAV, the decoder the guide track uses), not librosa/audioread (issue 19: no librosa)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
import soundfile as sf

from app.project import ClipImportError, Project
from app.project.clips import import_clip

from .conftest import VOICES, make_project


def encode(path: Path, audio: np.ndarray, rate: int, codec: str) -> None:
    """``audio`` (mono float32) encoded with FFmpeg's ``codec`` into ``path``."""
    with av.open(str(path), "w") as out:
        stream: Any = out.add_stream(codec, rate=rate)  # an audio stream (the stubs give a union)
        stream.layout = "mono"
        frame_size = 1024
        for start in range(0, len(audio), frame_size):
            block = audio[start:start + frame_size]
            frame = av.AudioFrame.from_ndarray(block[None, :].astype(np.float32), format="flt", layout="mono")
            frame.sample_rate = rate
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path / "scene")


@pytest.mark.parametrize("name, codec, rate", [("maya.m4a", "aac", 22050), ("maya.mka", "libopus", 48000)])
def test_a_compressed_clip_is_decoded_to_wav_with_its_speech(project: Project, tmp_path: Path, name: str, codec: str,
                                                             rate: int) -> None:
    speech, speech_rate = sf.read(str(VOICES / "maya.wav"), dtype="float32")
    if rate != speech_rate:
        import soxr

        speech = soxr.resample(speech, speech_rate, rate).astype(np.float32)
    source = tmp_path / name
    encode(source, speech, rate, codec)
    with pytest.raises(sf.LibsndfileError):
        sf.info(str(source))  # the case this path is for: libsndfile cannot read it
    rel = import_clip(project, source)
    assert rel == f"voices/{Path(name).stem}_2.wav"  # voices/maya.wav exists already
    decoded, decoded_rate = sf.read(str(project.resolve(rel)), dtype="float32")
    assert decoded.ndim == 1 and decoded_rate == rate
    assert abs(len(decoded) / rate - len(speech) / rate) < 0.1  # codec padding only
    # the same speech, up to the codec's delay: the loudness envelope matches
    hop = rate // 50
    envelope = [np.sqrt(np.convolve(np.square(x[: len(speech)]), np.ones(hop) / hop, mode="valid"))[::hop]
                for x in (speech, np.pad(decoded, (0, max(0, len(speech) - len(decoded)))))]
    best = max(np.corrcoef(envelope[0][: len(envelope[0]) - shift], envelope[1][shift:])[0, 1] for shift in range(4))
    assert best > 0.95


def test_a_file_ffmpeg_cannot_read_either_is_refused_with_the_reason(project: Project, tmp_path: Path) -> None:
    junk = tmp_path / "notes.m4a"
    junk.write_bytes(b"\x00\x00\x00\x18ftypM4A " + bytes(range(256)) * 4)
    with pytest.raises(ClipImportError, match="cannot decode notes.m4a as audio"):
        import_clip(project, junk)
    assert sorted(p.name for p in project.voices_dir.iterdir()) == ["maya.wav", "rex.wav"]
