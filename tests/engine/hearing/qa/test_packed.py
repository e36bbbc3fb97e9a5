"""Hearing takes packed into shared Whisper windows: each take's verdict is the one it gets heard
alone (real Piper takes of the embedded voice, real Whisper base)."""

from __future__ import annotations

import pytest

from engine.hearing.qa import recognise as recognise_module
from engine.hearing.qa.checks import (
    QaThresholds,
    TakeToMeasure,
    judge,
    measure_take,
    measure_takes,
)
from engine.hearing.qa.recognise import (
    CONFIRM_ENV,
    PACK_GAP_S,
    PACK_LIMIT_S,
    recognise_packed,
)
from engine.hearing.whisper import load_whisper
from tests.engine.helpers import QA_LINES, joe_says, packed_window_sizes


@pytest.fixture(scope="module")
def batch() -> list[TakeToMeasure]:
    takes = [joe_says(text) for text in QA_LINES]
    measured = [TakeToMeasure(pcm, rate, text, "en") for (pcm, rate), text in zip(takes, QA_LINES)]
    # Line 4's take is line 2's audio (a swapped take), line 6's take is cut in half.
    swapped = TakeToMeasure(takes[1][0], takes[1][1], QA_LINES[3], "en")
    cut_pcm, cut_rate = takes[5]
    cut = TakeToMeasure(cut_pcm[: cut_pcm.size // 2], cut_rate, QA_LINES[5], "en")
    return [measured[0], measured[1], measured[2], swapped, measured[4], cut]


def summary(checks):
    verdict = judge(checks, QaThresholds())
    return verdict.passed, sorted(finding.code for finding in verdict.findings)


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_a_packed_verdict_is_the_verdict_the_take_gets_alone(batch, monkeypatch):
    monkeypatch.setenv(CONFIRM_ENV, "packed")  # every take packed (alone first, the clean ones are confirmed alone)
    packed_calls = packed_window_sizes(monkeypatch)
    together = measure_takes(batch, None, "base")
    alone = [measure_take(t.pcm, t.sample_rate, t.text, t.language, None, None, "base") for t in batch]
    assert packed_calls == [6]  # all six fit one window
    assert [summary(c) for c in together] == [summary(c) for c in alone]
    verdicts = [summary(c) for c in together]
    assert [passed for passed, _ in verdicts] == [True, True, True, False, True, False]
    assert "QA_UNINTELLIGIBLE" in verdicts[3][1] and "QA_TOO_SHORT" in verdicts[5][1]
    # The clean takes kept the packed hearing: the words are theirs, not a neighbour's.
    for checks, text in zip(together[:3], QA_LINES):
        assert checks.wer == 0.0 and checks.transcript is not None
        assert checks.transcript.rstrip(".,!?").split()[-1].lower() == text.rstrip(".,!?").split()[-1].lower()


def test_packed_words_go_back_to_their_takes(batch):
    heard = recognise_packed([(t.pcm, t.sample_rate) for t in batch[:3]], "en", "base")
    assert [h.text.lower().strip(".,!? ") for h in heard] == [line.lower().strip(".,!? ") for line in QA_LINES[:3]]
    assert all(h.detected_language == "en" for h in heard)


def test_takes_are_packed_in_order_within_one_window(batch):
    take = batch[0]
    seconds = take.pcm.size / take.sample_rate + PACK_GAP_S  # a take and the gap after it
    per_pack = int((PACK_LIMIT_S + PACK_GAP_S) / seconds)  # the last take needs no gap after it
    many = [(take.pcm[: take.pcm.size - n], take.sample_rate) for n in range(2 * per_pack + 1)]
    packs = recognise_module._packs(many)
    assert [len(pack) for pack in packs] == [per_pack, per_pack, 1]
    assert [pcm.size for pack in packs for pcm, _ in pack] == [pcm.size for pcm, _ in many]
    assert all(sum(pcm.size / rate for pcm, rate in pack) + PACK_GAP_S * (len(pack) - 1) <= PACK_LIMIT_S
               for pack in packs)


def test_a_window_is_encoded_once_for_its_language_and_its_words(batch, monkeypatch):
    import faster_whisper

    from engine.hearing.qa.recognise import recognise

    encoded: list[tuple[int, ...]] = []
    real = faster_whisper.WhisperModel.encode

    def counted(self, features):
        encoded.append(tuple(features.shape))
        return real(self, features)

    monkeypatch.setattr(faster_whisper.WhisperModel, "encode", counted)
    load_whisper("base").forget_encodings()  # kept from another test, a window would not be encoded at all
    take = batch[0]
    heard = recognise(take.pcm, take.sample_rate, "en", "base")
    assert heard.language == "en" and heard.text
    assert len(encoded) == 1  # detection and hearing share the one encoding
    encoded.clear()
    load_whisper("base").forget_encodings()
    recognise_packed([(t.pcm, t.sample_rate) for t in batch[:3]], "en", "base")
    assert len(encoded) == 1
