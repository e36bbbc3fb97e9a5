"""The first piece sized for first audio: the budget follows the engine's load, the real model's
first piece ends where engine.core.text decided, and the take joins there without a click or a pause
longer than the ones inside a sentence."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.protocol import VoiceSettings
from engine.core.silence import sound_intervals
from engine.core.text import (
    FIRST_PIECE_CHARS,
    FIRST_PIECE_MIN_CHARS,
    PIECE_MAX_CHARS,
    split_for_streaming,
)
from engine.synthesis.backends.adaptation import (
    EQ_BAND_CENTRES_HZ,
    NEUTRAL_F0_HZ,
    Adaptation,
)
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.piper import (
    CLAUSE_PAUSE_S,
    CUT_EDGE_SILENCE_S,
    FIRST_CUT_QUIET_DB,
    PiperBackend,
)
from tests.engine.synthesis.test_scheduler import Rig

# A character's voice: pitch, range, formants and EQ all moved, so the join is through PSOLA and EQ.
ADAPTED = VoiceProfile("adapted", None, {
    **Adaptation(NEUTRAL_F0_HZ, NEUTRAL_F0_HZ * 1.6, 1.2, 1.1, np.linspace(-4, 4, len(EQ_BAND_CENTRES_HZ),
                                                                            dtype=np.float32)).to_arrays(),
    "length_scale": np.asarray(np.float32(1.0))}, {})


def test_the_budget_is_chosen_by_the_jobs_sharing_the_slots() -> None:
    rig = Rig(slots=2)
    rig.submit("A 1 1 1")
    rig.engine.run_ready(1)  # A's first turn: nobody else admitted
    rig.submit("B 1 1")
    rig.engine.run_ready()
    assert rig.backend.first_piece_chars == {"A": FIRST_PIECE_CHARS, "B": FIRST_PIECE_CHARS // 2}
    assert FIRST_PIECE_CHARS // 2 >= FIRST_PIECE_MIN_CHARS


def test_a_job_nobody_listens_to_keeps_its_first_sentence_whole_under_load() -> None:
    rig = Rig(slots=2)
    rig.submit("A 1 1 1")
    rig.engine.run_ready(1)
    rig.submit("R 1 1", listening=False)  # a take rendered to a file, beside an audition
    rig.engine.run_ready()
    assert rig.backend.first_piece_chars == {"A": FIRST_PIECE_CHARS, "R": PIECE_MAX_CHARS}


def _join_silence_s(take: np.ndarray, at: int, rate: int) -> float:
    """The silence spanning sample ``at`` in 20 ms frames (0 when ``at`` is inside a sound)."""
    frame = int(0.02 * rate)
    intervals = sound_intervals(take, FIRST_CUT_QUIET_DB, frame=frame, hop=frame // 4)
    before = max((end for start, end in intervals if end <= at), default=0)
    after = min((start for start, end in intervals if start >= at), default=len(take))
    return 0.0 if any(start < at < end for start, end in intervals) else (after - before) / rate


@pytest.mark.parametrize("text, head, pause_s", [
    ("If the train is delayed again, we'll miss the start of the film and Jo will never forgive us.",
     "If the train is delayed again,", CLAUSE_PAUSE_S),
    ("That's the third time this week the printer has jammed on me!", "That's the third time this week", 0.0),
])
def test_a_cut_first_sentence_joins_without_a_click_or_a_long_gap(piper: PiperBackend, text: str, head: str,
                                                                   pause_s: float) -> None:
    budget = FIRST_PIECE_MIN_CHARS
    assert split_for_streaming(text, budget)[0].text == head
    chunks = list(piper.synthesize(text, ADAPTED, VoiceSettings(), lambda: False, first_piece_chars=budget))
    heads = [chunk for chunk in chunks if chunk.text == head]  # one or two chunks (cut in a pause)
    assert 1 <= len(heads) <= 2 and chunks[:len(heads)] == heads
    assert chunks[len(heads)].text == text[len(head):].strip() and chunks[-1].last
    take = np.concatenate([chunk.pcm for chunk in chunks])
    at = sum(len(chunk.pcm) for chunk in heads)
    rate = piper.sample_rate
    steps = np.abs(np.diff(take))
    # Continuous: both sides of the join are in silence, and the step across it is far below speech's.
    assert abs(take[at - 1]) < 1e-3 and abs(take[at]) < 1e-3
    assert abs(take[at] - take[at - 1]) <= np.percentile(steps, 50)
    # No hesitation: the model's own silence is kept only on the edges, plus the clause pause;
    # one 20 ms frame of slack on each side for where the frames fall.
    assert _join_silence_s(take, at, rate) <= 2 * CUT_EDGE_SILENCE_S + pause_s + 2 * 0.02


def test_the_seed_is_the_jobs_reading_and_a_bad_variant_is_refused() -> None:
    from engine.core.protocol import ErrorCode, JobFailed, VoiceSettings, synthesis_seed

    rig = Rig(slots=1)
    rig.submit("A 1")
    rig.submit("B 1", variant=3)
    rig.submit("C 1", variant=-1)
    rig.submit("D 1", variant=True)  # type: ignore[arg-type]
    rig.engine.run_ready()
    assert rig.backend.seeds == {"A": synthesis_seed("fake", "A 1", VoiceSettings(), 0),
                                 "B": synthesis_seed("fake", "B 1", VoiceSettings(), 3)}
    refused = {event.job_id: event for event in rig.of(JobFailed)}
    assert set(refused) == {"C", "D"} and all(event.code is ErrorCode.BAD_REQUEST for event in refused.values())
    assert "variant must be a whole number" in refused["C"].message
    # The speed does not change the reading; the text, the settings and the variant do.
    slow, fast = VoiceSettings(speed=1.0), VoiceSettings(speed=1.4)
    assert synthesis_seed("v", "Hi.", slow) == synthesis_seed("v", "Hi.", fast)
    assert len({synthesis_seed("v", "Hi.", slow), synthesis_seed("v", "Hi!", slow), synthesis_seed("w", "Hi.", slow),
                synthesis_seed("v", "Hi.", VoiceSettings(pitch_semitones=2)), synthesis_seed("v", "Hi.", slow, 1)}) == 5
