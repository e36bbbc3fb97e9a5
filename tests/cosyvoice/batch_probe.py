"""Batched CosyVoice2 against upstream's batch-1 calls, run inside the CosyVoice environment.

``python -m tests.cosyvoice.batch_probe MODEL_DIR`` loads the backend with ``max_batch=4`` on
the CPU and prints one JSON object of measured differences; tests/cosyvoice/test_batching.py
runs it and asserts on them. Each check is teacher-forced or seeded, so the reference is
exact: upstream's modules at batch 1 on the same tokens, prompts and seeds.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[2]
VOICES = ROOT / "resources" / "voices"
LINES = ("Hey, did you see where I left my keys this morning?",
         "No, but check the kitchen, they are usually by the kettle.",
         "Thanks. I will look there right now, before we go.")


def voice(backend: Any, name: str) -> Any:
    from engine.core.reference import ReferenceClip
    from engine.synthesis.backends.base import VoiceProfile

    audio, rate = sf.read(VOICES / f"{name}.wav", dtype="float32")
    arrays, meta = backend.condition(ReferenceClip(audio, rate, len(audio) / rate),
                                     (VOICES / f"{name}.txt").read_text().strip())
    return VoiceProfile(name, None, arrays, meta)


def run_jobs(backend: Any, jobs: list[Any], join_after: dict[int, Any] | None = None,
             close_after: dict[int, int] | None = None) -> list[Any]:
    """Step jobs together until all end: audio per job (an exception for a failed one).

    ``join_after``: step number -> a job that joins the running batch then; ``close_after``:
    job index -> the step after which that job is closed (a cancel)."""
    jobs = list(jobs)
    audio: list[list[np.ndarray]] = [[] for _ in jobs]
    errors: dict[int, BaseException] = {}
    live = list(range(len(jobs)))
    step = 0
    while live or (join_after and any(s >= step for s in join_after)):
        for at, job in sorted((join_after or {}).items()):
            if at == step:
                jobs.append(job)
                audio.append([])
                live.append(len(jobs) - 1)
        results = backend.step_batch([jobs[i] for i in live]) if live else []
        following = []
        for index, result in zip(live, results):
            if isinstance(result, BaseException):
                errors[index] = result
            elif result is not None:
                audio[index].append(result.pcm)
                if not result.last:
                    following.append(index)
        for index, at in (close_after or {}).items():
            if at == step and index in following:
                backend.close(jobs[index])
                following.remove(index)
        live = following
        step += 1
    return [errors.get(i) or (np.concatenate(a) if a else np.zeros(0, np.float32)) for i, a in enumerate(audio)]


def biggest_difference(first: list[Any], second: list[Any]) -> float:
    worst = 0.0
    for a, b in zip(first, second):
        if len(a) != len(b):
            return float("inf")
        if len(a):
            worst = max(worst, float(np.abs(np.asarray(a) - np.asarray(b)).max()))
    return worst


def llm_checks(backend: Any, torch: Any, profiles: list[Any]) -> dict[str, Any]:
    """Tokens of seeded sequences alone, together (joining a running batch), and teacher-forced
    through upstream's forward_one_step with the same sampler and seed."""
    from engine.synthesis.backends.cosyvoice_llm import (
        BatchedSpeechLM,
        SamplingParams,
        sample_token,
    )

    decoder: BatchedSpeechLM = backend._decoder
    inputs = [backend._model_input(backend._encode(line), profile, "zero_shot", "")
              for line, profile in zip(LINES, profiles)]

    def decode(staggered: bool) -> list[list[int]]:
        streams = []
        for index, model_input in enumerate(inputs):
            streams.append(decoder.submit(backend._sequence(model_input, seed=100 + index)))
            if staggered:  # the next one joins once this one is well under way
                with streams[-1].ready:
                    streams[-1].ready.wait_for(lambda: len(streams[-1].tokens) >= 10 or streams[-1].done, 60)
            else:
                with streams[-1].ready:
                    streams[-1].ready.wait_for(lambda: streams[-1].done, 120)
        for stream in streams:
            with stream.ready:
                stream.ready.wait_for(lambda: stream.done, 120)
        return [list(stream.tokens) for stream in streams]

    alone, together = decode(staggered=False), decode(staggered=True)
    # Upstream's batch-1 step on the tokens the batched decoder chose, sampled again.
    llm = backend.llm
    sequence = backend._sequence(inputs[0], seed=100)
    generator = torch.Generator().manual_seed(100)
    params = SamplingParams.of(llm.sampling)
    replayed: list[int] = []
    with torch.inference_mode():
        lm_input, cache = sequence.lm_input, None
        for step in range(len(alone[0])):
            hidden, cache = llm.llm.forward_one_step(
                lm_input, masks=torch.tril(torch.ones((1, lm_input.shape[1], lm_input.shape[1]))).to(torch.bool),
                cache=cache)
            logp = llm.llm_decoder(hidden[:, -1]).log_softmax(dim=-1)[0]
            if step < sequence.min_len:
                logp[llm.speech_token_size:] = -float("inf")
            replayed.append(sample_token(torch, logp, replayed, params, generator))
            lm_input = llm.speech_embedding.weight[alone[0][step]].reshape(1, 1, -1)
    return {"alone": alone, "together": together, "replayed": replayed, "steps": decoder.steps,
            "rows_stepped": decoder.rows_stepped}


def flow_checks(backend: Any, torch: Any, profiles: list[Any]) -> dict[str, Any]:
    """flow_mels on three rows (different prompts, token counts, one final) against upstream."""
    from engine.synthesis.backends.cosyvoice_batch import FlowRow, flow_mels

    rng = np.random.default_rng(0)
    rows = []
    for index, (count, finalize) in enumerate(((31, False), (56, False), (44, True))):
        model_input = backend._model_input(backend._encode(LINES[index]), profiles[index], "zero_shot", "")
        tokens = torch.from_numpy(rng.integers(0, 6561, (1, count)).astype(np.int32))
        rows.append(FlowRow(tokens, model_input.flow_prompt_speech, model_input.prompt_mel, model_input.embedding,
                            finalize))
    with torch.inference_mode():
        batched = flow_mels(torch, backend.flow, rows)
        upstream = [backend.flow.inference(
            token=row.tokens, token_len=torch.tensor([row.tokens.shape[1]], dtype=torch.int32),
            prompt_token=row.prompt_token, prompt_token_len=torch.tensor([row.prompt_token.shape[1]], dtype=torch.int32),
            prompt_feat=row.prompt_feat, prompt_feat_len=torch.tensor([row.prompt_feat.shape[1]], dtype=torch.int32),
            embedding=row.embedding, streaming=True, finalize=row.finalize)[0] for row in rows]
    return {"shapes": [list(m.shape) for m in batched], "upstream_shapes": [list(m.shape) for m in upstream],
            "max_difference": max(float((a - b).abs().max()) for a, b in zip(batched, upstream)),
            "max_value": max(float(m.abs().max()) for m in upstream)}


def vocoder_checks(backend: Any, torch: Any) -> dict[str, Any]:
    """vocode on rows of two lengths, one with a cached source, against upstream's inference."""
    from engine.synthesis.backends.cosyvoice_batch import VocoderRow, vocode

    generator = torch.Generator().manual_seed(1)
    mels = [torch.randn(1, 80, frames, generator=generator) for frames in (58, 58, 42)]
    cached = torch.randn(1, 1, 3840, generator=generator) * 0.01
    rows = [VocoderRow(mels[0], torch.zeros(1, 1, 0), 11), VocoderRow(mels[1], cached, 12),
            VocoderRow(mels[2], torch.zeros(1, 1, 0), 13)]
    with torch.inference_mode():
        batched = vocode(torch, backend.hift, rows)
        upstream = []
        for row in rows:
            torch.manual_seed(row.seed)
            upstream.append(backend.hift.inference(speech_feat=row.mel, cache_source=row.cache_source))
    return {"max_difference": max(float((a[0] - b[0]).abs().max()) for a, b in zip(batched, upstream)),
            "source_difference": max(float((a[1] - b[1]).abs().max()) for a, b in zip(batched, upstream))}


def job_checks(backend: Any, profiles: list[Any]) -> dict[str, Any]:
    """Whole jobs: alone, together, one joining a running batch, one cancelled, one failing."""
    from engine.core.protocol import VoiceSettings

    speeds = (1.0, 1.25, 0.8)

    def start(index: int) -> Any:
        return backend.start(LINES[index], profiles[index], VoiceSettings(speed=speeds[index]), lambda: False,
                             seed=10 + index)

    alone = [run_jobs(backend, [start(i)])[0] for i in range(3)]
    together = run_jobs(backend, [start(i) for i in range(3)])
    joined = run_jobs(backend, [start(0), start(1)], join_after={1: start(2)})
    cancelled = run_jobs(backend, [start(0), start(1), start(2)], close_after={1: 0})
    broken = start(1)
    segment_text, model_input = broken.segments[0]
    broken.segments[0] = (segment_text, type(model_input)(**{**model_input.__dict__,
                                                            "prompt_mel": model_input.prompt_mel[:, :, :40]}))
    failing = run_jobs(backend, [start(0), broken, start(2)])
    return {
        "lengths": [len(a) for a in alone],
        "together": biggest_difference(alone, together),
        "joined": biggest_difference(alone, joined),
        "cancelled_others": biggest_difference([alone[0], alone[2]], [cancelled[0], cancelled[2]]),
        "cancelled_length": len(cancelled[1]), "cancelled_alone_length": len(alone[1]),
        "failing_others": biggest_difference([alone[0], alone[2]], [failing[0], failing[2]]),
        "failing_error": repr(failing[1]) if isinstance(failing[1], BaseException) else None,
    }


def main() -> int:
    import torch

    from engine.synthesis.backends.cosyvoice2 import CosyVoice2Backend

    model_dir = sys.argv[1]
    backend = CosyVoice2Backend(model_dir=model_dir, device="cpu", max_batch=4)
    backend.load()
    profiles = [voice(backend, name) for name in ("maya", "narrator", "rex")]
    facts = {"max_batch": backend.max_batch, "piece_scheduling": backend.piece_scheduling,
             "llm": llm_checks(backend, torch, profiles), "flow": flow_checks(backend, torch, profiles),
             "vocoder": vocoder_checks(backend, torch), "jobs": job_checks(backend, profiles)}
    backend.set_slots(2)
    facts["threads_at_2_slots"] = torch.get_num_threads()
    one = CosyVoice2Backend(model_dir=model_dir, device="cpu", max_batch=1)
    one.load()
    one.set_slots(2)
    facts["max_batch_1"] = {"piece_scheduling": one.piece_scheduling, "decoder": one._decoder is not None,
                            "threads_at_2_slots": torch.get_num_threads()}
    facts["cores"] = os.cpu_count() or 1
    print(json.dumps(facts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
