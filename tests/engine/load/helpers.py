"""Hand-made job records for the statistics tests (no engine involved)."""

from __future__ import annotations

from engine.load.records import JobRecord
from engine.load.stats import LevelRun, LevelStats, level_stats


def record(index: int, scheduled: float, first: float | None, end: float, *, level: int = 1, audio: float = 1.0,
           error: str | None = None, warmup: bool = False, chunks: list[tuple[float, float]] | None = None,
           cache: str = "memory", compute: float | None = None) -> JobRecord:
    """A finished job: due at ``scheduled``, first chunk at ``first``, ended at ``end`` (run seconds)."""
    rec = JobRecord(index=index, job_id=f"j{index}", level=level, level_index=0, warmup=warmup, user=None,
                    text_kind="short", language="en", chars=10, voice="v.wav", text="hello", scheduled_s=scheduled,
                    submit_s=scheduled)
    if error is not None:
        rec.fail(end, error, "boom")
        return rec
    for arrival, duration in chunks or ([(first, audio)] if first is not None else []):
        rec.add_chunk(arrival, duration)
    rec.voice_cache = cache
    rec.finish(end, synth_s=end - scheduled, compute_s=compute)
    return rec


def level_of(level: int, first_audios: list[float], *, errors: int = 0, stalls: int = 0,
             index: int = 0) -> LevelStats:
    """A closed-loop level of ``level`` users whose jobs have the given first-audio latencies.

    Jobs go out in rounds of ``level`` (all users at once, as a closed loop starts), each 2 s
    long, so a level with at least as many jobs as users is reached.
    """
    records = []
    for i, latency in enumerate(first_audios):
        t = float(i // level) * 2.0
        if i < stalls:  # two chunks with a gap: one stall each
            chunks = [(t + latency, 0.1), (t + latency + 0.5, 0.1)]
            records.append(record(i, t, None, t + 2.0, level=level, chunks=chunks))
        else:
            records.append(record(i, t, t + latency, t + 2.0, level=level))
    for j in range(errors):
        t = float((len(first_audios) + j) // level) * 2.0
        records.append(record(len(records), t, None, t + 1.0, level=level, error="E_BACKEND"))
    run = LevelRun(level, index, f"{level} users", None, 0.0, 100.0, complete=True)
    return level_stats(run, records, [])
