"""Batched CosyVoice2 (max_batch > 1) equals unbatched, on the tiny synthetic model.

The backend-level checks run once in the CosyVoice environment (tests/cosyvoice/batch_probe.py)
against upstream's own batch-1 calls; the engine-level ones run through the real engine.

Tolerances: float32 sums in another order (a batch's shapes pick other kernels) move a mel
value by ~2e-6 of values up to ~8, and audio samples by ~1e-7; the bounds below leave room
for other CPUs' kernels, and are far below anything audible (16-bit audio steps by 3e-5).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.core.protocol import AudioChunk, ErrorCode, Job, JobFinished, VoicePrepared
from engine.synthesis.backends import COSYVOICE2, OptionError
from engine.synthesis.client.local import EngineStartError
from tests.cosyvoice.conftest import ROOT, start_engine
from tests.engine.helpers import ended, events_until, sample_voice

pytestmark = pytest.mark.cosyvoice

MEL_TOLERANCE = 1e-4
AUDIO_TOLERANCE = 1e-5
TIMEOUT_S = 400.0


@pytest.fixture(scope="module")
def probe(cosyvoice_python: Path, tiny_model: Path) -> dict[str, Any]:
    done = subprocess.run([str(cosyvoice_python), "-m", "tests.cosyvoice.batch_probe", str(tiny_model)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # upstream's code prints to stdout too


def test_batched_llm_gives_each_sequence_the_tokens_it_gets_alone(probe: dict[str, Any]) -> None:
    llm = probe["llm"]
    assert llm["together"] == llm["alone"]  # the later ones joined a running batch
    assert llm["rows_stepped"] > llm["steps"]  # some steps did decode several sequences
    assert all(len(tokens) > 25 for tokens in llm["alone"])


def test_batched_llm_samples_what_upstreams_batch_1_step_gives(probe: dict[str, Any]) -> None:
    """Teacher-forced: upstream's forward_one_step on the chosen tokens, sampled with the same seed."""
    assert probe["llm"]["replayed"] == probe["llm"]["alone"][0]


def test_batched_flow_equals_upstreams_per_row(probe: dict[str, Any]) -> None:
    flow = probe["flow"]
    assert flow["shapes"] == flow["upstream_shapes"]
    assert flow["max_value"] > 1.0  # the comparison is on real values, not zeros
    assert flow["max_difference"] < MEL_TOLERANCE


def test_batched_vocoder_equals_upstreams_per_row(probe: dict[str, Any]) -> None:
    assert probe["vocoder"]["max_difference"] < AUDIO_TOLERANCE
    assert probe["vocoder"]["source_difference"] == 0.0  # the cached source overwrites the same samples


def test_jobs_together_joining_cancelled_or_failing_leave_the_others_audio_unchanged(probe: dict[str, Any]) -> None:
    jobs = probe["jobs"]
    assert min(jobs["lengths"]) > 24000  # a second of audio at least, over several hops
    assert jobs["together"] < AUDIO_TOLERANCE
    assert jobs["joined"] < AUDIO_TOLERANCE
    assert jobs["cancelled_others"] < AUDIO_TOLERANCE
    assert 0 < jobs["cancelled_length"] < jobs["cancelled_alone_length"]
    assert jobs["failing_others"] < AUDIO_TOLERANCE
    assert jobs["failing_error"] is not None


def test_max_batch_1_keeps_the_per_job_llm_threads(probe: dict[str, Any]) -> None:
    assert probe["max_batch"] == 4 and probe["piece_scheduling"] is True
    assert probe["max_batch_1"] == {"piece_scheduling": False, "decoder": False,
                                    "threads_at_2_slots": max(1, probe["cores"] // 2)}


def test_batched_the_llm_thread_gets_its_share_of_the_cores(probe: dict[str, Any]) -> None:
    """Two slots and the batched decoder thread compute at once: cores ÷ 3 threads each."""
    assert probe["threads_at_2_slots"] == max(1, probe["cores"] // 3)


@pytest.mark.parametrize("value", [0, -1, 65, 1.5, "two", True])
def test_a_bad_max_batch_is_a_bad_option(value: object) -> None:
    with pytest.raises(OptionError) as raised:
        COSYVOICE2.validate({"model_dir": "/models/cv2", "max_batch": value})
    assert raised.value.code == ErrorCode.BAD_OPTION and "max_batch" in raised.value.message


def test_a_bad_max_batch_stops_the_engine_with_bad_option(cosyvoice_python: Path, tiny_model: Path,
                                                          tmp_path: Path) -> None:
    for options in ({"max_batch": 0}, {"max_batch": 4, "hop_schedule": "upstream"}):
        with pytest.raises(EngineStartError) as raised:
            start_engine(cosyvoice_python, tiny_model, tmp_path / "voices", slots=1, **options)
        assert raised.value.code == ErrorCode.BAD_OPTION, options
        assert "max_batch" in str(raised.value)


def test_through_the_engine_a_job_sounds_the_same_alone_and_with_a_job_joining(
        cosyvoice_python: Path, tiny_model: Path, tmp_path: Path) -> None:
    line = "The morning light crept over the harbour while the boats came home with their catch."
    other = "Please keep your tickets ready; the train to the coast leaves in ten minutes."
    client = start_engine(cosyvoice_python, tiny_model, tmp_path / "voices", slots=2, max_batch=4)
    try:
        voice = sample_voice("maya")
        request_id = client.prepare_voice(voice)
        prepared = events_until(client, lambda e, _: getattr(e, "request_id", None) == request_id, TIMEOUT_S)[-1]
        assert isinstance(prepared, VoicePrepared), prepared
        assert client.ready is not None and client.ready.facts["max_batch"] == 4
        alone = Job(line, voice)
        client.submit(alone)
        first = events_until(client, ended({alone.job_id}), TIMEOUT_S)
        again, joining = Job(line, voice), Job(other, sample_voice("rex"))
        client.submit(again)
        seen = events_until(client, lambda e, _: isinstance(e, AudioChunk) and e.job_id == again.job_id,
                            TIMEOUT_S)
        client.submit(joining)  # joins while the first job streams
        seen += events_until(client, ended({again.job_id, joining.job_id}), TIMEOUT_S)
    finally:
        client.close()

    def audio(events: list, job_id: str) -> np.ndarray:
        return np.concatenate([e.pcm for e in events if isinstance(e, AudioChunk) and e.job_id == job_id])

    assert any(isinstance(e, JobFinished) and e.job_id == joining.job_id for e in seen)
    reference, shared = audio(first, alone.job_id), audio(seen, again.job_id)
    assert len(reference) == len(shared) > 24000
    assert float(np.abs(reference - shared).max()) < AUDIO_TOLERANCE
