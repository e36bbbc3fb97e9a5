"""Where a batched CosyVoice2 engine's time goes: batch occupancy and seconds per part.

One engine in this process (the real Engine, scheduler, voice cache and backend, on a
synthetic model folder), ``--users`` closed-loop users speaking the bundled English "medium"
lines with the bundled voices. Timers wrap the parts of a batched turn, and each part's
calls are counted by how many jobs (or LLM rows) they held:

- ``llm_step`` (one Qwen2 step for every active sequence) and ``llm_join`` (a prefill);
- ``wait_ready`` (a worker waiting for its head job's tokens), ``flow`` and ``vocode`` calls,
  and ``step_batch`` (a whole batched call);
- why the other queued jobs did not join a batch: not started, tokens not ready, or refused
  because a job in the batch would be late.

It also prints the process's CPU seconds per audio second and torch's intra-op threads.
``--max-batch 1`` profiles the per-job path (its ``token2wav`` calls) for comparison.

``--parts`` instead measures what a batch saves, in CPU seconds of the calling thread (one
intra-op thread, so a busy machine moves the figures little): the flow and the vocoder on
``--max-batch`` rows of one voice at once against the same rows one call each, and the LLM's
CPU per speech token, upstream's batch-1 ``inference`` against the batched decoder at 1 and
at ``--max-batch`` rows.

Run under the CosyVoice environment:
  .venv-cosyvoice/bin/python benchmarks/batching_profile.py --model-dir DIR [--users 4] [--jobs-per-user 2]
      [--max-batch 4] [--slots 2] [--parts]
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

import engine.synthesis.backends.cosyvoice2 as cosyvoice2
from engine.core.protocol import AudioChunk, Event, JobFailed, JobFinished
from engine.load import TextSet, VoiceSet
from engine.load.workload import JobSource
from engine.synthesis.backends import create_backend
from engine.synthesis.backends.cosyvoice_llm import BatchedSpeechLM
from engine.synthesis.batching import Batcher
from engine.synthesis.process import Engine
from engine.synthesis.scheduler import Work
from engine.synthesis.voices import VoiceCache
from engine.voiceprint.encoder import SpeakerEncoder

Size = Callable[[tuple[Any, ...]], int]


class Timers:
    """Seconds and call sizes per part, from wrapped methods and functions."""

    def __init__(self) -> None:
        self.calls: dict[str, list[tuple[float, int]]] = collections.defaultdict(list)
        self.joins: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()

    def wrap(self, owner: Any, name: str, part: str, size: Size | None = None) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                with self._lock:
                    self.calls[part].append((time.perf_counter() - began, size(args) if size else 1))

        setattr(owner, name, timed)

    def watch_joins(self) -> None:
        """Count why each queued job a batch looked at did or did not join it."""
        fits = Batcher._fits

        def counted(batcher: Batcher, work: Work, batch: list[Work], now: float) -> bool:
            joined = fits(batcher, work, batch, now)
            if joined:
                reason = "joined"
            elif not work.is_job or work.payload.state is None:
                reason = "not started"
            elif not batcher.backend.step_ready(work.payload.state):
                reason = "tokens not ready"
            else:
                reason = "would make a job late"
            with self._lock:
                self.joins[reason] += 1
            return joined

        Batcher._fits = counted  # type: ignore[method-assign, assignment]

    def report(self) -> dict[str, Any]:
        parts = {}
        for part, calls in self.calls.items():
            seconds = [s for s, _ in calls]
            parts[part] = {"calls": len(calls), "seconds": round(sum(seconds), 2),
                           "mean_s": round(sum(seconds) / len(seconds), 4),
                           "by_size": dict(sorted(collections.Counter(size for _, size in calls).items()))}
        return {"parts": parts, "joins": dict(self.joins)}


def part_costs(model_dir: str, rows: int) -> dict[str, Any]:
    """CPU seconds of batched against one-by-one calls (see the module docstring)."""
    import resource
    import uuid

    import soundfile as sf
    import torch

    from engine.core.reference import ReferenceClip
    from engine.synthesis.backends.base import VoiceProfile
    from engine.synthesis.backends.cosyvoice_batch import (
        FlowRow,
        VocoderRow,
        flow_mels,
        vocode,
    )

    backend = cosyvoice2.CosyVoice2Backend(model_dir=model_dir, device="cpu", max_batch=rows, threads=1)
    backend.load()
    torch.set_num_threads(1)
    clip = ROOT / "resources" / "voices" / "maya.wav"
    audio, rate = sf.read(clip, dtype="float32")
    arrays, meta = backend.condition(ReferenceClip(audio, rate, len(audio) / rate),
                                     clip.with_suffix(".txt").read_text().strip())
    model_input = backend._model_input(backend._encode("The lighthouse is dark tonight, someone cut the power."),
                                       VoiceProfile("maya", None, arrays, meta), "zero_shot", "")
    generator = torch.Generator().manual_seed(0)
    hops = [FlowRow(torch.randint(0, 6561, (1, 53), generator=generator, dtype=torch.int32),
                    model_input.flow_prompt_speech, model_input.prompt_mel, model_input.embedding, False)
            for _ in range(rows)]
    mels = [VocoderRow(torch.randn(1, 80, 108, generator=generator), torch.zeros(1, 1, 0), seed)
            for seed in range(rows)]

    def cpu_s(call: Callable[[], Any], repeats: int = 3) -> float:
        best = float("inf")
        for _ in range(repeats):
            began = time.thread_time()
            call()
            best = min(best, time.thread_time() - began)
        return round(best, 3)

    def process_cpu_s() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    with torch.inference_mode():
        flow_mels(torch, backend.flow, hops[:1])  # first-call set-up outside the figures
        costs: dict[str, Any] = {
            "flow_one_by_one_s": cpu_s(lambda: [flow_mels(torch, backend.flow, [hop]) for hop in hops]),
            "flow_batched_s": cpu_s(lambda: flow_mels(torch, backend.flow, hops)),
            "vocoder_one_by_one_s": cpu_s(lambda: [vocode(torch, backend.hift, [mel]) for mel in mels]),
            "vocoder_batched_s": cpu_s(lambda: vocode(torch, backend.hift, mels)),
        }
        began = process_cpu_s()
        tokens = sum(1 for _ in backend.llm.inference(
                text=model_input.text, text_len=torch.tensor([model_input.text.shape[1]], dtype=torch.int32),
                prompt_text=model_input.llm_prompt_text,
                prompt_text_len=torch.tensor([model_input.llm_prompt_text.shape[1]], dtype=torch.int32),
                prompt_speech_token=model_input.llm_prompt_speech,
                prompt_speech_token_len=torch.tensor([model_input.llm_prompt_speech.shape[1]], dtype=torch.int32),
                embedding=model_input.embedding, uuid=uuid.uuid4().hex))
        costs["llm_upstream_ms_per_token"] = round(1000 * (process_cpu_s() - began) / tokens, 2)
    decoder = backend._decoder
    assert decoder is not None
    for count in sorted({1, rows}):
        began = process_cpu_s()
        streams = [decoder.submit(backend._sequence(model_input, seed=seed)) for seed in range(count)]
        for stream in streams:
            with stream.ready:
                stream.ready.wait_for(lambda: stream.done, 600)
        tokens = sum(len(stream.tokens) for stream in streams)
        costs[f"llm_batched_{count}_rows_ms_per_token"] = round(1000 * (process_cpu_s() - began) / tokens, 2)
    return {"rows": rows, "prompt_tokens": int(model_input.flow_prompt_speech.shape[1]), **costs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--jobs-per-user", type=int, default=2)
    parser.add_argument("--max-batch", type=int, default=4)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--parts", action="store_true", help="what a batch saves per part, in CPU seconds")
    args = parser.parse_args()
    if args.parts:
        print(json.dumps(part_costs(args.model_dir, args.max_batch), indent=1))
        os._exit(0)  # the batched LLM's daemon thread

    timers = Timers()
    timers.wrap(BatchedSpeechLM, "_step", "llm_step", lambda a: len(a[0]._active))
    timers.wrap(BatchedSpeechLM, "_join", "llm_join")
    timers.wrap(cosyvoice2.CosyVoice2Backend, "wait_ready", "wait_ready")
    timers.wrap(cosyvoice2, "flow_mels", "flow", lambda a: len(a[2]))
    timers.wrap(cosyvoice2, "vocode", "vocode", lambda a: len(a[2]))
    timers.wrap(cosyvoice2.CosyVoice2Backend, "step_batch", "step_batch", lambda a: len(a[1]))
    timers.wrap(cosyvoice2.CosyVoice2Backend, "_token2wav", "token2wav")
    timers.watch_joins()

    backend = create_backend("cosyvoice2", {"model_dir": args.model_dir, "device": "cpu", "max_batch": args.max_batch})
    assert isinstance(backend, cosyvoice2.CosyVoice2Backend)
    backend.load()
    cache_dir = Path(tempfile.mkdtemp(prefix="dubstudio-batching-profile-"))
    cache = VoiceCache(cache_dir, backend, "cosyvoice2", SpeakerEncoder())
    first_audio: dict[str, float] = {}
    samples: collections.Counter[str] = collections.Counter()
    ended: set[str] = set()
    failed: set[str] = set()
    changed = threading.Condition()

    def emit(event: Event) -> None:
        job_id = getattr(event, "job_id", None)
        with changed:
            if isinstance(event, AudioChunk):
                first_audio.setdefault(event.job_id, time.monotonic())
                samples[event.job_id] += len(event.pcm)
            elif isinstance(event, (JobFinished, JobFailed)) and job_id is not None:
                ended.add(job_id)
                if isinstance(event, JobFailed):
                    failed.add(job_id)
                changed.notify_all()

    engine = Engine(backend, cache, emit, args.slots, 64, "cosyvoice2")
    backend.warm_up()
    source = JobSource(TextSet.bundled(("en",), kinds=("medium",)), VoiceSet.bundled())
    for index in range(len(source.voices.voices)):  # every voice prepared before the clock starts
        cache.lookup(source.make(index)[0].voice)
    timers.calls.clear()
    submitted: dict[str, float] = {}

    def user(number: int) -> None:
        for turn in range(args.jobs_per_user):
            job = source.make(number * args.jobs_per_user + turn)[0]
            submitted[job.job_id] = time.monotonic()
            engine.submit(job)
            with changed:
                changed.wait_for(lambda: job.job_id in ended)

    load_before = os.getloadavg()[0]
    began, cpu_began = time.monotonic(), time.process_time()
    users = [threading.Thread(target=user, args=(number,)) for number in range(args.users)]
    for thread in users:
        thread.start()
    for thread in users:
        thread.join()
    wall, cpu = time.monotonic() - began, time.process_time() - cpu_began
    engine.stop()
    audio_s = sum(samples.values()) / cosyvoice2.SAMPLE_RATE
    waits = sorted(first_audio[job] - submitted[job] for job in first_audio)
    decoder = backend._decoder
    print(json.dumps({
        "max_batch": backend.max_batch, "slots": args.slots, "users": args.users, "jobs": len(submitted),
        "failed": len(failed), "wall_s": round(wall, 1), "audio_per_wall_s": round(audio_s / wall, 3),
        "cpu_per_audio_s": round(cpu / audio_s, 3), "first_audio_p50_s": round(waits[len(waits) // 2], 2),
        "torch_threads": backend._torch.get_num_threads(),
        "llm_rows_per_step": round(decoder.rows_stepped / max(1, decoder.steps), 2) if decoder else None,
        "load": [round(load_before, 1), round(os.getloadavg()[0], 1)], **timers.report()}, indent=1))
    source.close()
    shutil.rmtree(cache_dir, ignore_errors=True)
    os._exit(0)  # the engine's daemon threads (the batched LLM's) need no orderly end


if __name__ == "__main__":
    main()
