"""Upstream's shared hop against the per-job schedule, and an engine that cannot start.

Upstream keeps the hop length on the shared model and never resets it, so a stream that
follows another one starts with a 50–100-token hop. ``hop_schedule="upstream"`` reproduces
that; the per-job schedule (test_engine_e2e) gives every stream the small first hop.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.protocol import ErrorCode, Job, JobFinished, VoicePrepared
from engine.synthesis.client.local import EngineStartError, collect
from tests.cosyvoice.conftest import first_chunk_samples, start_engine
from tests.engine.helpers import events_until, sample_voice

pytestmark = pytest.mark.cosyvoice

LINE = "The morning light crept over the harbour while the boats came home with their catch."


def test_upstream_mode_reproduces_the_shared_hop(cosyvoice_python: Path, tiny_model: Path,
                                                 tmp_path: Path) -> None:
    client = start_engine(cosyvoice_python, tiny_model, tmp_path / "voices", slots=1, hop_schedule="upstream")
    try:
        voice = sample_voice("maya")
        request_id = client.prepare_voice(voice)
        prepared = events_until(client, lambda e, _: getattr(e, "request_id", None) == request_id, 400)[-1]
        assert isinstance(prepared, VoicePrepared), prepared
        streams = []
        for _ in range(2):
            chunks, end = collect(client, Job(LINE, voice), timeout=400)
            assert isinstance(end, JobFinished), end
            streams.append(chunks)
    finally:
        client.close()
    small = first_chunk_samples(prepared.summary["prompt_tokens"])
    # The first stream after start was the voice's own: preparing it speaks the resemblance
    # sentence. From then on the shared hop has grown, so each job's first chunk waits for 50+
    # tokens (this line has fewer: it arrives only when the whole line is done), where the
    # per-job schedule (test_engine_e2e) gives the small hop to every stream.
    assert prepared.summary["resemblance"] is not None
    for chunks in streams:
        assert len(chunks[0].pcm) > small and len(chunks) == 1


def test_a_broken_model_folder_stops_the_engine_with_the_missing_file(cosyvoice_python: Path, tiny_model: Path,
                                                                      tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for entry in tiny_model.iterdir():
        if entry.name != "flow.pt":
            (broken / entry.name).symlink_to(entry)
    with pytest.raises(EngineStartError) as raised:
        start_engine(cosyvoice_python, broken, tmp_path / "voices", slots=1)
    assert raised.value.code == ErrorCode.ENGINE_START
    assert "flow.pt" in str(raised.value) and "missing" in str(raised.value)
