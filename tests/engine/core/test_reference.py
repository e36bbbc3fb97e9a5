"""Reference clips checked as the engine will use them: a named pipe is unreadable at once, not
a hang; a clip over ten minutes is refused unless a trim keeps less; silence or under a second of
speech in the part a trim keeps is refused as the engine refuses that part."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from engine.core.protocol import EngineError, ErrorCode
from engine.core.reference import check_reference_clip, load_reference_clip
from tests.engine.helpers import POSIX_ONLY, VOICES, returns_at_once, tone_clip


@POSIX_ONLY
def test_a_reference_clip_that_is_a_pipe_is_unreadable_not_a_hang(fifo: Path) -> None:
    for check in (load_reference_clip, check_reference_clip):
        error = returns_at_once(lambda: check(fifo))
        assert isinstance(error, EngineError) and error.code is ErrorCode.CLIP_UNREADABLE
        assert "named pipe" in error.message


def test_a_clip_over_the_length_limit_is_refused_by_the_check_render_makes(tmp_path: Path) -> None:
    clip = tone_clip(tmp_path / "long.wav", seconds=601.0, rate=8000)  # 10 min 1 s
    with pytest.raises(EngineError) as raised:
        check_reference_clip(clip)
    assert raised.value.code is ErrorCode.CLIP_TOO_LONG
    check_reference_clip(clip, 0.0, 300.0)  # a trim to 5 min is what the render would use: fine
    check_reference_clip(VOICES / "maya.wav")


def test_the_ready_check_hears_what_the_render_would_refuse_in_the_trimmed_part(tmp_path: Path) -> None:
    """Silence, or under a second of speech, in the part a trim keeps is refused as the engine
    refuses that part (E_CLIP_SILENT, E_CLIP_TOO_SHORT), not only a bad file or length."""
    silent = tmp_path / "silent.wav"
    sf.write(str(silent), np.zeros(16000 * 3, dtype=np.float32), 16000)
    speech, rate = sf.read(str(VOICES / "maya.wav"), dtype="float32")
    short = tmp_path / "short.wav"  # what the render hands the engine for a 0.6 s trim
    sf.write(str(short), speech[: int(0.6 * rate)], rate)
    for path, end, code in ((silent, None, ErrorCode.CLIP_SILENT), (VOICES / "maya.wav", 0.6, ErrorCode.CLIP_TOO_SHORT)):
        with pytest.raises(EngineError) as checked:
            check_reference_clip(path, 0.0, end)
        assert checked.value.code is code
    for path, code in ((silent, ErrorCode.CLIP_SILENT), (short, ErrorCode.CLIP_TOO_SHORT)):
        with pytest.raises(EngineError) as loaded:
            load_reference_clip(path)
        assert loaded.value.code is code


def test_a_tenth_of_a_second_and_nan_samples_are_not_called_silent(tmp_path: Path) -> None:
    """Issue 34: both were E_CLIP_SILENT. The first 0.1 s of a real clip is quiet: too short
    whatever it holds; NaN samples are not audio at all."""
    speech, rate = sf.read(str(VOICES / "maya.wav"), dtype="float32")
    sf.write(str(tmp_path / "tenth.wav"), speech[: rate // 10], rate)
    speech[1000] = np.nan
    sf.write(str(tmp_path / "nan.wav"), speech, rate, subtype="FLOAT")
    for path, code, words in ((tmp_path / "tenth.wav", ErrorCode.CLIP_TOO_SHORT, "is 0.10 s long"),
                              (tmp_path / "nan.wav", ErrorCode.CLIP_UNREADABLE, "not numbers (NaN or infinite)")):
        for check in (load_reference_clip, check_reference_clip):  # the engine's, and the studio's "ready"
            with pytest.raises(EngineError) as caught:
                check(path)
            assert caught.value.code is code and words in caught.value.message


def test_a_recorders_dc_offset_is_removed_before_the_clip_is_trimmed_and_levelled(tmp_path: Path) -> None:
    """A clip recorded with a constant offset (a cheap interface's) kept it: its peak was the
    offset's, so the speech was scaled down, and the trim found no silence to cut."""
    speech, rate = sf.read(str(VOICES / "maya.wav"), dtype="float32")
    padded = np.concatenate([np.zeros(rate, np.float32), speech * 0.5, np.zeros(rate, np.float32)])
    sf.write(str(tmp_path / "clean.wav"), padded, rate)
    sf.write(str(tmp_path / "offset.wav"), padded + np.float32(0.3), rate)
    clean, offset = load_reference_clip(tmp_path / "clean.wav"), load_reference_clip(tmp_path / "offset.wav")
    assert abs(float(np.mean(offset.audio))) < 0.01
    assert abs(len(offset.audio) - len(clean.audio)) < rate // 20  # the silence either side trimmed alike
    assert float(np.sqrt(np.mean(offset.audio ** 2))) > 0.8 * float(np.sqrt(np.mean(clean.audio ** 2)))
