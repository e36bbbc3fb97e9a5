"""engine.core.audio_io on real files: WAVs at the studio's rates, compressed audio and a video made
with PyAV here, pipes and folders, float samples that are not numbers, and the file digest."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
import soundfile as sf
import soxr

from engine.core import audio_io
from engine.core.audio_io import (
    AudioError,
    AudioStream,
    atomic_write_wav,
    audio_info,
    file_digest,
    read_audio,
    resample,
)
from engine.core.files import FileError
from engine.core.paths import RESOURCES
from engine.core.protocol import EngineError
from engine.core.reference import load_reference_clip
from tests.engine.helpers import returns_at_once

TONE_HZ = (440.0, 660.0)  # left and right: their mean keeps both


def stereo_tone(rate: int, seconds: float = 1.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return np.stack([0.5 * np.sin(2 * np.pi * hz * t) for hz in TONE_HZ], axis=1).astype(np.float32)


def peak_hz(audio: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    return float(np.fft.rfftfreq(len(audio), 1 / rate)[np.argmax(spectrum)])


def hears_both_tones(audio: np.ndarray, rate: int) -> bool:
    """Both channels' tones are in the mono sound, each about as strong as the other."""
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    bins = np.fft.rfftfreq(len(audio), 1 / rate)
    levels = [spectrum[np.abs(bins - hz) < 3].max() for hz in TONE_HZ]
    return min(levels) > 0.8 * max(levels) and max(levels) > 0.9 * spectrum.max()


def encode(path: Path, audio: np.ndarray, rate: int, codec: str, video: bool = False) -> Path:
    """``audio`` (frames, channels) float32 through FFmpeg's ``codec`` into ``path``; with
    ``video``, beside a second of tiny black frames (an MP4 to dub)."""
    with av.open(str(path), "w") as out:
        picture: Any = None
        if video:
            picture = out.add_stream("libx264", rate=5)
            picture.width, picture.height, picture.pix_fmt = 64, 48, "yuv420p"
        stream: Any = out.add_stream(codec, rate=rate)
        stream.layout = "stereo" if audio.shape[1] == 2 else "mono"
        if picture is not None:
            for n in range(5):
                frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
                frame.pts = n
                out.mux(picture.encode(frame))
            out.mux(picture.encode(None))
        for start in range(0, len(audio), 1024):
            block = av.AudioFrame.from_ndarray(np.ascontiguousarray(audio[start:start + 1024].T), format="fltp",
                                               layout=stream.layout.name)
            block.sample_rate, block.pts = rate, start
            out.mux(stream.encode(block))
        out.mux(stream.encode(None))
    return path


@pytest.mark.parametrize("source_rate", [22050, 44100, 48000])
@pytest.mark.parametrize("rate", [16000, 22050])
def test_a_stereo_wav_comes_back_mono_at_the_rate_asked_for(tmp_path: Path, source_rate: int, rate: int) -> None:
    stereo = stereo_tone(source_rate)
    path = tmp_path / f"tone{source_rate}.wav"
    sf.write(str(path), stereo, source_rate, subtype="FLOAT")
    audio, got_rate = read_audio(path, rate)
    assert got_rate == rate and audio.dtype == np.float32 and audio.ndim == 1
    assert abs(len(audio) - rate) <= 1  # a second of sound
    # the mean of the channels, through soxr at the callers' quality: the same samples
    expected = stereo.mean(axis=1)
    if source_rate != rate:
        expected = soxr.resample(expected, source_rate, rate, quality="HQ")
    np.testing.assert_array_equal(audio, expected)
    assert hears_both_tones(audio, rate)
    info = audio_info(path)
    assert (info.sample_rate, info.frames, info.channels) == (source_rate, source_rate, 2)
    both, both_rate = read_audio(path, mono=False)
    assert both.shape == (source_rate, 2) and both_rate == source_rate


def test_frames_are_read_from_start_to_stop_of_the_files_own_rate(tmp_path: Path) -> None:
    path = tmp_path / "ramp.wav"
    sf.write(str(path), np.linspace(-0.5, 0.5, 1000, dtype=np.float32), 8000, subtype="FLOAT")
    part, rate = read_audio(path, start=100, stop=300)
    assert rate == 8000 and len(part) == 200
    np.testing.assert_array_equal(part, np.linspace(-0.5, 0.5, 1000, dtype=np.float32)[100:300])


def test_stereo_whose_channels_cancel_out_is_read_as_its_loudest_channel(tmp_path: Path) -> None:
    # One channel's polarity flipped: the mean of the two is silence, the clip was refused as silent.
    speech, rate = read_audio(RESOURCES / "voices" / "rex.wav")
    flipped = tmp_path / "flipped.wav"
    sf.write(str(flipped), np.stack([speech, -0.9 * speech], axis=1), rate, subtype="FLOAT")
    audio, _ = read_audio(flipped)
    np.testing.assert_allclose(audio, speech, atol=1e-6)
    assert load_reference_clip(flipped).source_duration_s == pytest.approx(len(speech) / rate)
    # Ordinary stereo is still the mean of its channels.
    ordinary = tmp_path / "ordinary.wav"
    sf.write(str(ordinary), np.stack([speech, 0.5 * speech], axis=1), rate, subtype="FLOAT")
    np.testing.assert_allclose(read_audio(ordinary)[0], 0.75 * speech, atol=1e-6)


def test_a_wav_whose_recorder_never_filled_in_its_sizes_is_read_to_its_end(tmp_path: Path) -> None:
    # A recording cut off before the recorder went back to the header: RIFF and data sizes 0.
    speech, rate = read_audio(RESOURCES / "voices" / "rex.wav")
    whole = tmp_path / "whole.wav"
    sf.write(str(whole), speech, rate, subtype="PCM_16")
    raw = bytearray(whole.read_bytes())
    data_at = raw.find(b"data")
    raw[4:8] = raw[data_at + 4: data_at + 8] = bytes(4)
    unfilled = tmp_path / "unfilled.wav"
    unfilled.write_bytes(raw)
    audio, got_rate = read_audio(unfilled)
    expected, _ = read_audio(whole)
    assert got_rate == rate and audio_info(unfilled).frames == len(expected)
    np.testing.assert_allclose(audio, expected, atol=1e-4)
    assert load_reference_clip(unfilled).source_duration_s == pytest.approx(len(expected) / rate, abs=0.01)


@pytest.mark.parametrize("name, codec, rate", [("tone.mp3", "libmp3lame", 44100), ("tone.m4a", "aac", 48000),
                                               ("tone.mka", "libopus", 48000)])
def test_compressed_audio_is_decoded_by_ffmpeg(tmp_path: Path, name: str, codec: str, rate: int) -> None:
    path = encode(tmp_path / name, stereo_tone(rate), rate, codec)
    audio, got_rate = read_audio(path, 22050)
    assert got_rate == 22050 and audio.dtype == np.float32 and audio.ndim == 1
    assert 0.95 * 22050 < len(audio) < 1.1 * 22050  # the codec's padding only
    assert hears_both_tones(audio[2000:-2000], 22050)
    info = audio_info(path)
    assert info.sample_rate == rate and info.channels == 2 and info.duration_s == pytest.approx(1.0, abs=0.1)


def test_mp3_has_one_decoder_ffmpeg_though_libsndfile_reads_it_too(tmp_path: Path) -> None:
    path = encode(tmp_path / "tone.mp3", stereo_tone(44100), 44100, "libmp3lame")
    assert sf.info(str(path)).format == "MP3" and "MP3" in audio_io.FFMPEG_FORMATS
    with av.open(str(path)) as container:  # what FFmpeg itself decodes
        converter = av.AudioResampler(format="fltp", layout="stereo", rate=44100)
        blocks = [out.to_ndarray().T for frame in container.decode(audio=0) for out in converter.resample(frame)]
        blocks += [out.to_ndarray().T for out in converter.resample(None)]
    np.testing.assert_array_equal(read_audio(path, mono=False)[0], np.concatenate(blocks))


def test_the_audio_of_a_video_is_read_and_a_video_without_sound_says_so(tmp_path: Path) -> None:
    video = encode(tmp_path / "scene.mp4", stereo_tone(48000), 48000, "aac", video=True)
    audio, rate = read_audio(video, 16000)
    assert rate == 16000 and 0.95 * 16000 < len(audio) < 1.1 * 16000
    with AudioStream(video) as stream:
        assert (stream.sample_rate, stream.channels) == (48000, 2)
        assert stream.duration_s == pytest.approx(1.0, abs=0.1)
        blocks = list(stream.blocks(mono=True, rate=16000))
    streamed = np.concatenate(blocks)
    assert abs(len(streamed) - len(audio)) <= 2  # soxr streaming, as its one-shot call
    np.testing.assert_allclose(streamed[: len(audio)][100:-100], audio[: len(streamed)][100:-100], atol=1e-4)
    with pytest.raises(AudioError) as missing:
        AudioStream(video, stream_index=7)
    assert missing.value.no_stream and "has no audio stream #7" in str(missing.value)

    silent = tmp_path / "silent.mp4"
    with av.open(str(silent), "w") as out:
        picture: Any = out.add_stream("libx264", rate=5)
        picture.width, picture.height, picture.pix_fmt = 64, 48, "yuv420p"
        for n in range(5):
            frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
            frame.pts = n
            out.mux(picture.encode(frame))
        out.mux(picture.encode(None))
    with pytest.raises(AudioError) as none:
        read_audio(silent)
    assert none.value.no_stream


def test_a_named_pipe_and_a_folder_are_refused_at_once_with_their_code(tmp_path: Path) -> None:
    fifo = tmp_path / "clip.wav"
    os.mkfifo(fifo)
    for read in (read_audio, audio_info, file_digest, AudioStream):
        error = returns_at_once(lambda: read(fifo))
        assert isinstance(error, FileError) and error.code.value == "E_NOT_REGULAR_FILE", (read, error)
        assert "named pipe" in error.message
        error = returns_at_once(lambda: read(tmp_path))
        assert isinstance(error, FileError) and error.code.value == "E_NOT_REGULAR_FILE", (read, error)
        assert "folder" in error.message
    with pytest.raises(FileError) as missing:
        read_audio(tmp_path / "nowhere.wav")
    assert missing.value.code.value == "E_READ_FAILED"


def test_a_file_no_decoder_reads_is_an_audio_error_with_the_reason(tmp_path: Path) -> None:
    junk = tmp_path / "notes.wav"
    junk.write_text("this is not audio")
    with pytest.raises(AudioError) as error:
        read_audio(junk)
    assert isinstance(error.value, RuntimeError)  # caught where soundfile's own errors were
    assert error.value.reason == "Invalid data found when processing input" and not error.value.no_stream
    with pytest.raises(AudioError):
        audio_info(junk)


def test_samples_that_are_not_numbers_come_back_as_decoded_and_a_clip_of_them_is_refused(tmp_path: Path) -> None:
    rate = 22050
    audio = (0.3 * np.sin(2 * np.pi * 220 * np.arange(2 * rate) / rate)).astype(np.float32)
    audio[100], audio[200], audio[300] = np.nan, np.inf, -np.inf
    path = tmp_path / "odd.wav"
    sf.write(str(path), audio, rate, subtype="FLOAT")
    decoded, _ = read_audio(path)
    assert np.isnan(decoded[100]) and decoded[200] == np.inf and decoded[300] == -np.inf
    np.testing.assert_array_equal(np.isfinite(decoded), np.isfinite(audio))
    with pytest.raises(EngineError) as refused:
        load_reference_clip(path)
    assert refused.value.code.value == "E_CLIP_UNREADABLE"  # not valid audio, not silent


def test_resample_keeps_the_rate_it_was_given_and_any_channel_count() -> None:
    tone = stereo_tone(44100)
    same = resample(tone, 44100, 44100)
    assert same.dtype == np.float32 and np.shares_memory(same, tone)  # nothing to do, nothing copied
    down = resample(tone, 44100, 22050)
    assert down.shape == (22050, 2)
    np.testing.assert_array_equal(down, soxr.resample(tone, 44100, 22050, quality=audio_io.RESAMPLE_QUALITY))
    assert resample(np.zeros(0, np.float64), 44100, 16000).dtype == np.float32
    assert peak_hz(resample(tone[:, 1], 44100, 16000), 16000) == pytest.approx(TONE_HZ[1], abs=2.0)


def test_a_wav_written_atomically_reads_back(tmp_path: Path) -> None:
    tone = stereo_tone(22050)[:, 0]
    target = atomic_write_wav(tmp_path / "take.wav", tone, 22050)
    back, rate = read_audio(target)
    assert rate == 22050 and np.max(np.abs(back - tone)) < 1e-4  # 16-bit
    assert [p.name for p in tmp_path.iterdir()] == ["take.wav"]  # no temp file left


def test_the_digest_is_the_files_sha256_and_follows_its_changes(tmp_path: Path) -> None:
    path = tmp_path / "clip.wav"
    path.write_bytes(b"first version")
    assert file_digest(path) == hashlib.sha256(b"first version").hexdigest()
    assert file_digest(str(path)) == file_digest(path)  # one entry for one file, however named
    path.write_bytes(b"second, longer version")
    assert file_digest(path) == hashlib.sha256(b"second, longer version").hexdigest()
    link = tmp_path / "link.wav"
    link.symlink_to(path)
    assert file_digest(link) == file_digest(path)
    with pytest.raises(OSError):
        file_digest(tmp_path / "nowhere.wav")


def test_the_digest_cache_stays_small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audio_io, "DIGEST_CACHE_SIZE", 3)
    for n in range(6):
        path = tmp_path / f"clip{n}.wav"
        path.write_bytes(bytes([n]) * 10)
        assert file_digest(path) == hashlib.sha256(bytes([n]) * 10).hexdigest()
    assert len(audio_io._digests) <= 3


@pytest.mark.parametrize("kind", ["mp4", "wav", "flac", "mp3"])
def test_blocks_from_a_start_are_the_same_samples_as_decoded_from_the_beginning(tmp_path: Path, kind: str) -> None:
    """A line late in a long video is played from a seek, not after decoding the hours before it:
    what comes back from ``start_s`` is what a decoding from the start holds there, to the sample
    for PCM and within the codec's own rounding for AAC."""
    from tests.engine.hearing.scenes import write_video

    rate = 22050
    audio = (np.random.default_rng(11).standard_normal(40 * rate) * 0.1).astype(np.float32)
    path = tmp_path / f"noise.{kind}"
    if kind == "mp4":
        write_video(path, audio, 40.0, rate)
    else:
        sf.write(str(path), audio, rate)
    with AudioStream(path) as stream:
        whole = np.concatenate(list(stream.blocks(mono=True)))
    for start_s in (0.5, 7.31, 33.0):
        with AudioStream(path) as stream:
            part = np.concatenate(list(stream.blocks(mono=True, start_s=start_s)))
        at = round(start_s * rate)
        assert len(part) == len(whole) - at
        assert np.abs(part[: 5 * rate] - whole[at: at + 5 * rate]).max() < 1e-4, start_s
    with AudioStream(path) as stream:  # past the end: nothing, not an error
        assert sum(len(block) for block in stream.blocks(mono=True, start_s=41.0)) == 0


def test_a_long_stereo_file_read_mono_holds_little_more_than_its_samples(tmp_path: Path) -> None:
    """The studio reads a 2-hour guide track mono at 24 kHz for its timeline: the downmix squared
    all of it in float64 at once (16 bytes a frame beside the 8 decoded), and the studio peaked
    at 9.5 GB, then, the squares summed by blocks, 4.8 GB holding the decoded stereo beside its
    mean. It is downmixed as it is read."""
    import tracemalloc

    rate = 48_000
    stereo = np.random.default_rng(0).uniform(-0.5, 0.5, (120 * rate, 2)).astype(np.float32)
    sf.write(str(tmp_path / "guide.flac"), stereo, rate, subtype="PCM_16")
    del stereo
    tracemalloc.start()
    try:
        mono, _ = read_audio(tmp_path / "guide.flac", 24_000)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    decoded = 120 * rate * 2 * 4  # the file's samples as float32
    assert len(mono) == 120 * 24_000 and peak < decoded  # the mean and its resampling, never the file whole
