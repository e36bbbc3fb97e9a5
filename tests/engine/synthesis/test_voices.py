"""Reference clips and the disk cache, without the engine process."""

import json
import os

import numpy as np
import pytest
import soundfile as sf

from engine.core.files import FileError
from engine.core.protocol import EngineError, ErrorCode
from engine.core.reference import (
    MAX_REFERENCE_S,
    ReferenceClip,
    load_reference_clip,
    transcript_beside,
)
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.voices import CorruptCacheEntry, read_profile, write_profile
from engine.voiceprint.encoder import SpeakerEncoder
from tests.engine.helpers import VOICES, tone_clip


def code_of(path):
    with pytest.raises(EngineError) as caught:
        load_reference_clip(path)
    return caught.value.code


def test_sample_clip_is_trimmed_and_normalised():
    clip = load_reference_clip(VOICES / "maya.wav")
    assert clip.sample_rate == 22050
    assert clip.source_duration_s > len(clip.audio) / clip.sample_rate  # leading/trailing pad removed
    assert 0.9 < np.max(np.abs(clip.audio)) <= 0.95 + 1e-6


@pytest.mark.parametrize(
    ("rate", "channels", "subtype"),
    [(48000, 2, "PCM_16"), (8000, 1, "PCM_U8"), (44100, 1, "PCM_24"), (16000, 2, "FLOAT")],
)
def test_common_formats_are_accepted(tmp_path, rate, channels, subtype):
    clip = load_reference_clip(tone_clip(tmp_path / "clip.wav", rate=rate, channels=channels, subtype=subtype))
    assert clip.audio.ndim == 1 and clip.sample_rate == rate


def test_flac_and_ogg_are_accepted(tmp_path):
    for name in ("clip.flac", "clip.ogg"):
        assert load_reference_clip(tone_clip(tmp_path / name)).audio.size > 0


def test_bad_clips_get_specific_codes(tmp_path):
    assert code_of(tmp_path / "absent.wav") == ErrorCode.CLIP_MISSING
    (tmp_path / "folder.wav").mkdir()
    assert code_of(tmp_path / "folder.wav") == ErrorCode.CLIP_MISSING
    (tmp_path / "notes.wav").write_text("this is not audio at all")
    assert code_of(tmp_path / "notes.wav") == ErrorCode.CLIP_UNREADABLE
    corrupt = tmp_path / "corrupt.wav"
    corrupt.write_bytes((VOICES / "maya.wav").read_bytes()[:30] + bytes(range(256)) * 4)
    assert code_of(corrupt) == ErrorCode.CLIP_UNREADABLE
    sf.write(str(tmp_path / "silent.wav"), np.zeros(22050 * 3, dtype=np.float32), 22050)
    assert code_of(tmp_path / "silent.wav") == ErrorCode.CLIP_SILENT
    assert code_of(tone_clip(tmp_path / "short.wav", seconds=0.5)) == ErrorCode.CLIP_TOO_SHORT
    sf.write(str(tmp_path / "empty.wav"), np.zeros(0, dtype=np.float32), 22050)
    assert code_of(tmp_path / "empty.wav") == ErrorCode.CLIP_UNREADABLE


def test_five_minute_clip_is_cut_not_refused(tmp_path):
    clip = load_reference_clip(tone_clip(tmp_path / "long.wav", seconds=300, rate=16000))
    assert len(clip.audio) / clip.sample_rate <= MAX_REFERENCE_S
    assert clip.warnings and "30 s" in clip.warnings[0]


def test_eleven_minute_clip_is_refused(tmp_path):
    path = tmp_path / "huge.wav"
    with sf.SoundFile(str(path), "w", samplerate=8000, channels=1, subtype="PCM_U8") as out:
        block = np.full(8000 * 60, 0.1, dtype=np.float32)
        for _ in range(11):
            out.write(block)
    assert code_of(path) == ErrorCode.CLIP_TOO_LONG


def profile(key="k1"):
    return VoiceProfile(key=key, embedding=np.ones(256, np.float32) / 16,
                        conditioning={"length_scale": np.asarray(np.float32(1.1))}, meta={"median_f0_hz": 120.0})


def test_profile_round_trip_holds_data_only(tmp_path):
    path = tmp_path / "k1.npz"
    write_profile(path, profile())
    loaded = read_profile(path, "k1")
    assert float(loaded.conditioning["length_scale"]) == pytest.approx(1.1)
    assert loaded.meta["median_f0_hz"] == 120.0
    with np.load(path, allow_pickle=False) as data:  # numbers and a JSON string, nothing pickled
        assert all(data[name].dtype.kind in "fU" for name in data.files)
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("damage", ["truncate", "garbage", "wrong_key", "pickled"])
def test_damaged_cache_entries_are_detected(tmp_path, damage):
    path = tmp_path / "k1.npz"
    write_profile(path, profile())
    if damage == "truncate":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "garbage":
        path.write_bytes(b"\0" * 500)
    elif damage == "wrong_key":
        write_profile(path, profile("other"))
    else:
        np.savez(path, embedding=np.array([object()], dtype=object), meta=np.array(json.dumps({})))
    with pytest.raises(CorruptCacheEntry):
        read_profile(path, "k1")


def test_speaker_encoder_embeds_audio_without_a_voice():
    """A hum has no voice for the VAD to keep; the encoder embeds it whole instead of failing
    (take QA embeds whatever a take holds, noise included)."""
    rate = 22050
    hum = (0.3 * np.sin(2 * np.pi * 50 * np.arange(2 * rate) / rate)).astype(np.float32)
    embedding = SpeakerEncoder().embed(ReferenceClip(hum, rate, 2.0))
    assert embedding.shape == (256,) and np.isfinite(embedding).all()
    assert abs(float(np.linalg.norm(embedding)) - 1.0) < 1e-3


def test_transcripts_beside_clips_are_decoded_or_refused_with_a_code(tmp_path):
    """Issue 10: a non-UTF-8 CLIP.txt gave a UnicodeDecodeError traceback."""
    clip = tmp_path / "voice.wav"
    assert transcript_beside(clip) == ""  # no sidecar: no transcript
    sidecar = tmp_path / "voice.txt"
    sidecar.write_bytes("  Voilà, un café crème pour l'été.\n".encode("cp1252"))
    assert transcript_beside(clip) == "Voilà, un café crème pour l'été."
    sidecar.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(FileError) as caught:
        transcript_beside(clip)
    assert caught.value.code is ErrorCode.TEXT_ENCODING
    sidecar.unlink()
    os.mkfifo(sidecar)
    with pytest.raises(FileError) as caught:  # refused at once, not waited on
        transcript_beside(clip)
    assert caught.value.code is ErrorCode.NOT_REGULAR_FILE
