"""Loudness: BS.1770 measurement, true peak between samples, the ceiling, ducking, and a mix
normalised to the project's target (with the guide replaced or ducked under the lines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import Project
from app.project.export import GUIDE_STEM, export_mix, mixdown
from app.project.loudness import (
    apply_ceiling,
    duck_gain,
    integrated_loudness,
    measure,
    true_peak_dbtp,
)

from .conftest import add_fake_take, tone

RATE = 48000
HEARING = Path(__file__).resolve().parents[2] / "data" / "hearing"


def sine(freq: float, seconds: float, amplitude: float, rate: int = RATE, phase: float = 0.0) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (amplitude * np.sin(2 * np.pi * freq * t + phase)).astype(np.float32)


@pytest.mark.parametrize(("recording", "rate"), [("libri_1688_a.flac", 16000), ("libri_3080_b.flac", 48000),
                                                ("fr_17767732.mp3", 44100)])
def test_the_block_meter_measures_what_pyloudnorm_s_meter_does_through_its_public_api(
        recording: str, rate: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # ProgrammeMeter read the K-weighting from pyloudnorm.Meter's private ``_filters``; a release
    # that renames it would have broken every export. Built from the public IIRfilter, it needs
    # nothing private: here a Meter without ``_filters`` measures the same.
    import pyloudnorm

    from app.project.loudness import ProgrammeMeter
    from engine.core.audio_io import read_audio

    speech, _ = read_audio(HEARING / recording, rate)
    programme = np.stack([speech, 0.5 * speech], axis=1)  # real speech, mono and stereo
    expected = [pyloudnorm.Meter(rate).integrated_loudness(data) for data in (speech, programme)]

    class MeterOfAnotherRelease(pyloudnorm.Meter):
        def __getattribute__(self, name: str) -> object:
            if name == "_filters":
                raise AttributeError(name)
            return super().__getattribute__(name)

    monkeypatch.setattr(pyloudnorm, "Meter", MeterOfAnotherRelease)
    for data, loudness in zip((speech, programme), expected):
        meter = ProgrammeMeter(rate, 1 if data.ndim == 1 else 2)
        for start in range(0, len(data), 4096):  # block by block, as an export feeds it
            meter.add(data[start:start + 4096])
        assert meter.loudness() == pytest.approx(loudness, abs=1e-6)


def test_a_full_scale_1khz_sine_measures_minus_3_lufs() -> None:
    # BS.1770's reference: a 0 dBFS 997 Hz sine in one channel reads -3.01 LUFS.
    assert integrated_loudness(sine(997, 3.0, 1.0), RATE) == pytest.approx(-3.01, abs=0.1)
    assert integrated_loudness(sine(997, 3.0, 0.1), RATE) == pytest.approx(-23.01, abs=0.1)
    assert integrated_loudness(np.zeros(RATE * 2, np.float32), RATE) is None  # silence: nothing to gate
    assert integrated_loudness(sine(997, 0.2, 0.5), RATE) is None  # shorter than one 400 ms block


def test_true_peak_sees_peaks_between_samples() -> None:
    # A sine at a quarter of the rate, 45° off: every sample sits at 0.707 of the real peak.
    wave = sine(RATE / 4, 1.0, 1.0, phase=np.pi / 4)
    sample_peak = 20 * np.log10(np.max(np.abs(wave)))
    assert sample_peak == pytest.approx(-3.01, abs=0.05)
    assert true_peak_dbtp(wave, RATE) == pytest.approx(0.0, abs=0.3)
    assert true_peak_dbtp(np.zeros(100, np.float32), RATE) is None


def test_ceiling_brings_the_true_peak_under_the_limit_and_leaves_quiet_audio_alone() -> None:
    loud = sine(440, 2.0, 1.0)
    out, acted = apply_ceiling(loud, RATE, -1.0)
    assert acted and (true_peak_dbtp(out, RATE) or 0) <= -1.0
    quiet = sine(440, 2.0, 0.1)
    same, acted = apply_ceiling(quiet, RATE, -1.0)
    assert not acted and same is quiet


def test_ceiling_takes_off_only_the_peaks_not_the_loudness() -> None:
    """A few peaks over the ceiling in quiet speech: the limiter's own make-up gain once lifted such
    a programme 3-4 LU over its target (CI saw -19.6 LUFS for -23); now only the peaks come down."""
    programme = sine(180, 6.0, 0.08) * (1 + sine(3, 6.0, 1.0))
    programme[RATE : RATE + 100] = 0.99
    before = integrated_loudness(programme, RATE)
    out, acted = apply_ceiling(programme, RATE, -1.0)
    after = integrated_loudness(out, RATE)
    assert acted and (true_peak_dbtp(out, RATE) or 0) <= -1.0
    assert before is not None and after is not None and abs(after - before) < 0.5


def test_duck_gain_fades_down_before_a_line_and_back_after() -> None:
    gain = duck_gain(RATE * 4, RATE, [(1.0, 2.0)], duck_db=-20.0, attack_s=0.1, release_s=0.5)
    at = lambda s: float(gain[int(s * RATE)])  # noqa: E731
    assert at(0.5) == pytest.approx(1.0)
    assert at(0.95) == pytest.approx(10 ** (-10 / 20), rel=0.05)  # halfway down the attack
    assert at(1.5) == pytest.approx(0.1, rel=1e-3)  # -20 dB under the line
    assert at(2.25) == pytest.approx(10 ** (-10 / 20), rel=0.05)  # halfway up the release
    assert at(3.0) == pytest.approx(1.0)
    merged = duck_gain(RATE * 4, RATE, [(1.0, 1.5), (1.6, 2.0)], -20.0, 0.1, 0.5)
    assert float(merged[int(1.55 * RATE)]) < 0.2  # close lines share one dip


def test_mix_is_normalised_to_the_target_with_lines_at_one_level(project: Project) -> None:
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, tone(1.0, amplitude=0.02 if n % 2 else 0.5))  # very uneven takes
    audio = mixdown(project)
    assert audio.level is not None and audio.level.lufs == pytest.approx(-23.0, abs=0.5)
    assert audio.level.peak_dbtp is not None and audio.level.peak_dbtp <= -1.0
    # Each line was brought to the target: a quiet and a loud take now measure alike.
    rate = audio.sample_rate
    first, second = (project.lines[i].start or 0.0 for i in (0, 1))
    a = integrated_loudness(audio.mix[int(first * rate) : int((first + 1.0) * rate)], rate)
    b = integrated_loudness(audio.mix[int(second * rate) : int((second + 1.0) * rate)], rate)
    assert a is not None and b is not None and abs(a - b) < 0.5
    np.testing.assert_allclose(sum(audio.stems.values()), audio.mix, atol=1e-5)  # no limiter needed
    project.settings.loudness_target_lufs = -16.0
    assert mixdown(project).level.lufs == pytest.approx(-16.0, abs=0.5)  # type: ignore[union-attr]


def test_guide_is_left_out_or_ducked_under_the_lines(project: Project, tmp_path: Path) -> None:
    for line in project.lines:
        add_fake_take(project, line, tone(1.0, amplitude=0.3))
    guide = np.stack([sine(1000, 20.0, 0.3, 22050), sine(1000, 20.0, 0.3, 22050)], axis=1)
    project.media_dir.mkdir(exist_ok=True)
    sf.write(str(project.media_dir / "guide.flac"), guide, 22050)
    project.guide_audio = "media/guide.flac"
    replaced = mixdown(project)
    assert replaced.mix.ndim == 1 and GUIDE_STEM not in replaced.stems
    project.settings.guide_mix = "duck"
    ducked = mixdown(project)
    assert ducked.mix.shape[1] == 2 and ducked.mix.shape[0] >= 20 * 22050 - 1
    stem = ducked.stems[GUIDE_STEM]
    level = lambda t: float(np.sqrt(np.mean(stem[int(t * 22050) : int((t + 0.2) * 22050)] ** 2)))  # noqa: E731
    under_line, between = level(1.0), level(18.0)  # line 1 plays from 0.5 s; nothing after ~16 s
    assert 20 * np.log10(under_line / between) == pytest.approx(project.settings.duck_db, abs=1.0)
    assert ducked.level is not None and ducked.level.lufs == pytest.approx(-23.0, abs=0.5)
    result = export_mix(project)
    info = sf.info(str(result.files[0]))  # delivered at 48 kHz, stereo like the guide
    assert info.channels == 2 and info.samplerate == 48000
    assert result.level is not None and result.level.lufs == pytest.approx(ducked.level.lufs, abs=0.1)


def test_target_off_keeps_levels_as_rendered(project: Project) -> None:
    project.settings.loudness_target_lufs = None
    for line in project.lines:
        add_fake_take(project, line, tone(1.0, amplitude=0.25))
    audio = mixdown(project)
    assert audio.gain == 1.0 and float(np.max(np.abs(audio.mix))) == pytest.approx(0.25, abs=1e-3)
    assert measure(audio.mix, audio.sample_rate) == audio.level


def test_a_limited_mix_still_meets_its_target_and_its_stems_still_add_up_to_it(project: Project) -> None:
    """Real speech ducked over an original with a loud clap, to the web target (-16 LUFS): the
    limiter's first stage compressed the speech as well as the clap, so the mix came out at
    -18.3 LUFS here (-17.3 on a test video, its true peak 4 dB under the ceiling), and the
    stems, scaled by the normalising gain only, summed to up to 0.46 away from it."""
    from engine.core.audio_io import read_audio

    speech, rate = read_audio(HEARING / "libri_1688_a.flac", 22050)
    project.lines = project.lines[:2]
    for n, line in enumerate(project.lines):
        add_fake_take(project, line, 0.3 * speech[n * 3 * rate : (n + 1) * 3 * rate])
    original = np.zeros(8 * rate, np.float32)
    original[: len(speech[: 8 * rate])] = 0.05 * speech[: 8 * rate][::-1]  # speech-like, not the lines
    original[int(7.6 * rate) : int(7.6 * rate) + 110] = 0.99  # a clap, after the lines: not ducked
    project.media_dir.mkdir(exist_ok=True)
    sf.write(str(project.media_dir / "guide.flac"), original, rate)
    project.guide_audio = "media/guide.flac"
    project.settings.guide_mix, project.settings.loudness_target_lufs = "duck", -16.0
    mixed = mixdown(project, sample_rate=RATE)
    assert mixed.limited and mixed.level is not None and mixed.level.peak_dbtp is not None
    assert mixed.level.lufs == pytest.approx(-16.0, abs=0.1)
    assert mixed.level.peak_dbtp <= project.settings.true_peak_dbtp
    summed = sum(stem if stem.ndim == 2 else stem[:, None] for stem in mixed.stems.values())
    assert float(np.max(np.abs(summed - mixed.mix.reshape(len(mixed.mix), -1)))) < 1e-4
