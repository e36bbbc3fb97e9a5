"""Voice preparation in two phases, its resemblance figures and the model data kept on disk (issue 8).

Real Piper model and real GE2E encoder throughout. Where a test must hold the second phase
(embedding, resemblance) back or make it fail, it wraps the real encoder: the gate only decides
*when* the real embedding is computed, never what it is.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.core.protocol import (
    Event,
    Job,
    JobFailed,
    JobFinished,
    PrepareVoice,
    VoicePrepared,
    VoiceSettings,
)
from engine.core.reference import ReferenceClip
from engine.synthesis.backends.piper import PiperBackend
from engine.synthesis.process import Engine
from engine.synthesis.voices import (
    MODELS_FOLDER,
    VoiceCache,
    read_profile,
    resemblance_text,
)
from engine.voiceprint.encoder import SpeakerEncoder
from tests.engine.helpers import sample_voice

MAYA = sample_voice("maya")
WAIT_S = 300.0  # only ever reached when something hangs: the tests wait on events, never on time


class GatedEncoder(SpeakerEncoder):
    """The real encoder, computing nothing until its gate opens (or failing, when told to)."""

    def __init__(self, real: SpeakerEncoder, fail: bool = False) -> None:
        super().__init__()
        self.real = real
        self.gate = threading.Event()
        self.fail = fail
        self.asked = threading.Event()

    def embed(self, clip: ReferenceClip) -> np.ndarray:
        self.asked.set()
        assert self.gate.wait(WAIT_S), "the gate was never opened"
        if self.fail:
            raise RuntimeError("the speaker encoder broke")
        return self.real.embed(clip)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.npz"))


def test_a_prepared_voice_carries_its_resemblance_and_beats_the_plain_voice(tmp_path, piper, encoder):
    cache = VoiceCache(tmp_path, piper, "piper", encoder)
    found = cache.prepare(MAYA)
    meta = found.profile.meta
    assert found.source == "miss" and found.profile.embedding is not None
    assert 0.0 < meta["resemblance"] <= 1.0 and 0.0 < meta["resemblance_plain"] <= 1.0
    # maya is a woman at 260 Hz; the plain voice is the model's man at about 100 Hz
    assert meta["resemblance"] > meta["resemblance_plain"], meta
    assert resemblance_text(meta) == (f"Resemblance to the clip: {meta['resemblance']:.2f} "
                                      f"(plain voice: {meta['resemblance_plain']:.2f})")
    [entry] = entries(tmp_path)  # written complete, figures included
    stored = read_profile(entry, found.profile.key)
    assert stored.meta["resemblance"] == meta["resemblance"]
    reopened = VoiceCache(tmp_path, piper, "piper", encoder).prepare(MAYA)
    assert reopened.source == "disk" and reopened.profile.meta["resemblance_plain"] == meta["resemblance_plain"]


def test_a_cold_voice_speaks_before_its_embedding_exists(tmp_path, piper, encoder):
    gated = GatedEncoder(encoder)
    cache = VoiceCache(tmp_path, piper, "piper", gated)
    found = cache.lookup(MAYA)
    assert found.source == "miss" and found.profile.embedding is None and found.completion is not None
    pieces = list(piper.synthesize("Meet me at the harbour.", found.profile, VoiceSettings(), lambda: False))
    assert np.abs(np.concatenate([piece.pcm for piece in pieces])).max() > 0.05  # real speech
    assert cache.lookup(MAYA).source == "memory"  # a second job gets the same voice at once
    assert not entries(tmp_path)  # nothing half-made on disk
    gated.gate.set()
    complete = cache.prepare(MAYA)
    assert complete.profile.embedding is not None and complete.profile.meta["resemblance"] is not None
    assert len(entries(tmp_path)) == 1


class Heard:
    """The events an in-process engine emitted, kept in order, so none is lost while waiting."""

    def __init__(self) -> None:
        self.events: queue.Queue[Event] = queue.Queue()
        self.seen: list[Event] = []

    def until(self, wanted: Callable[[Event], bool]) -> Event:
        """The first event, already heard or still to come, that ``wanted`` accepts."""
        for event in self.seen:
            if wanted(event):
                return event
        while True:
            event = self.events.get(timeout=WAIT_S)
            self.seen.append(event)
            if wanted(event):
                return event

    def so_far(self) -> list[Event]:
        while not self.events.empty():
            self.seen.append(self.events.get_nowait())
        return self.seen


def run_engine(piper: PiperBackend, cache: VoiceCache) -> tuple[Engine, Heard]:
    heard = Heard()
    return Engine(piper, cache, heard.events.put, slots=1, max_queue=16, backend_name="piper"), heard


def end_of(job: Job) -> Callable[[Event], bool]:
    return lambda event: isinstance(event, (JobFinished, JobFailed)) and event.job_id == job.job_id


def answer_to(request: PrepareVoice) -> Callable[[Event], bool]:
    return lambda event: getattr(event, "request_id", None) == request.request_id


def test_an_engine_job_finishes_while_the_voice_is_still_being_measured(tmp_path, piper, encoder):
    gated = GatedEncoder(encoder)
    engine, heard = run_engine(piper, VoiceCache(tmp_path, piper, "piper", gated))
    try:
        job = Job("The tide is turning, we should go.", MAYA)
        engine.submit(job)
        request = PrepareVoice(MAYA)
        engine.handle(request)
        assert isinstance(heard.until(end_of(job)), JobFinished)
        assert gated.asked.wait(WAIT_S)  # the embedding is asked for, and still held back
        assert not any(answer_to(request)(e) for e in heard.so_far())  # the answer waits for the whole voice
        gated.gate.set()
        prepared = heard.until(answer_to(request))
        assert isinstance(prepared, VoicePrepared) and prepared.summary["resemblance"] is not None
    finally:
        gated.gate.set()
        engine.stop()
        engine.cache.close(WAIT_S)


def test_a_failing_second_phase_neither_fails_the_job_nor_leaves_anyone_waiting(tmp_path, piper, encoder, caplog):
    broken = GatedEncoder(encoder, fail=True)
    broken.gate.set()
    engine, heard = run_engine(piper, VoiceCache(tmp_path, piper, "piper", broken))
    try:
        with caplog.at_level(logging.WARNING, logger="engine.synthesis.voices"):
            job = Job("The tide is turning, we should go.", MAYA)
            engine.submit(job)
            request = PrepareVoice(MAYA)
            engine.handle(request)
            end = heard.until(end_of(job))
            prepared = heard.until(answer_to(request))
    finally:
        engine.stop()
        engine.cache.close(WAIT_S)
    assert isinstance(end, JobFinished)
    assert isinstance(prepared, VoicePrepared)
    assert prepared.summary["resemblance"] is None and prepared.summary["resemblance_plain"] is None
    assert any("resemblance not measured" in w and "the speaker encoder broke" in w
               for w in prepared.summary["warnings"])
    assert resemblance_text(prepared.summary) == "Resemblance to the clip: not measured"
    assert not entries(tmp_path)  # an incomplete voice is never stored: the next engine measures it again
    assert "resemblance not measured" in caplog.text


def model_files(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / MODELS_FOLDER).glob(f"{kind}-*.npz"))


def fresh_piper() -> PiperBackend:
    """A backend as a restarted engine loads it: the same model, nothing measured yet."""
    backend = PiperBackend()
    backend.load()
    return backend


def test_the_calibration_and_plain_embedding_are_kept_and_reused(tmp_path, encoder, monkeypatch):
    first = fresh_piper()
    VoiceCache(tmp_path, first, "piper", encoder).prepare(MAYA)
    [calibration], [plain] = model_files(tmp_path, "model"), model_files(tmp_path, "plain")
    stamps = (calibration.stat().st_mtime_ns, plain.stat().st_mtime_ns)

    second = fresh_piper()
    measured: list[Any] = []
    speak = second._speak

    def counted(*args: Any) -> Any:
        measured.append(args)
        return speak(*args)

    monkeypatch.setattr(second, "_speak", counted)
    cache = VoiceCache(tmp_path, second, "piper", encoder)
    cache.lookup(sample_voice("rex"))  # the first phase: conditioning, from the stored calibration
    assert measured == []  # the model spoke nothing: no calibration text, no plain sentence
    stored = np.load(calibration, allow_pickle=False)["audio"]
    assert np.array_equal(second.calibration().source.pcm, stored)
    complete = cache.prepare(sample_voice("rex"))
    assert complete.profile.meta["resemblance_plain"] is not None
    assert len(measured) == 1  # rex's own resemblance sentence, and nothing else
    assert (calibration.stat().st_mtime_ns, plain.stat().st_mtime_ns) == stamps


CORRUPTIONS: dict[str, Callable[[Path], object]] = {
    "truncated": lambda path: path.write_bytes(path.read_bytes()[:200]),
    "not a zip": lambda path: path.write_bytes(b"definitely not numpy"),
    "NaN in the speech": lambda path: _rewrite(path, "audio", lambda a: np.full_like(a, np.nan)),
    "F0 of a bat": lambda path: _rewrite(path, "f0_median_hz", lambda a: np.float32(40000)),
    "a second of speech": lambda path: _rewrite(path, "audio", lambda a: a[:22050]),
    "an envelope of 3 bins": lambda path: _rewrite(path, "envelope_db", lambda a: np.zeros(3, np.float32)),
}


def _rewrite(path: Path, name: str, change: Callable[[np.ndarray], Any]) -> None:
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: np.array(data[key]) for key in data.files}
    arrays[name] = np.asarray(change(arrays[name]))
    with path.open("wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]  # stubs mistype **kwds


@pytest.fixture(scope="module")
def stored_calibration(tmp_path_factory, piper, encoder) -> Path:
    """A cache folder's calibration file, as the first engine ever run on this model wrote it."""
    folder = tmp_path_factory.mktemp("calibrated")
    VoiceCache(folder, piper, "piper", encoder).prepare(MAYA)
    [calibration] = model_files(folder, "model")
    return calibration


@pytest.mark.parametrize("corruption", [  # a damaged file and damaged contents by default; all in the slow suite
    corruption if corruption in ("truncated", "NaN in the speech") else pytest.param(corruption, marks=pytest.mark.slow)
    for corruption in CORRUPTIONS])
def test_a_damaged_calibration_is_measured_again_and_replaced(tmp_path, stored_calibration, encoder, corruption,
                                                              caplog):
    calibration = tmp_path / MODELS_FOLDER / stored_calibration.name
    calibration.parent.mkdir()
    calibration.write_bytes(stored_calibration.read_bytes())
    CORRUPTIONS[corruption](calibration)
    backend = fresh_piper()
    with caplog.at_level(logging.WARNING, logger="engine.synthesis.voices"):
        found = VoiceCache(tmp_path, backend, "piper", encoder).prepare(sample_voice("rex"))
    assert found.source == "miss" and "rebuilding" in caplog.text
    with np.load(calibration, allow_pickle=False) as data:  # measured again, and sound again
        assert backend.adopt_model_data({name: data[name] for name in data.files if name != "meta"}) is None
