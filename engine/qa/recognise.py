"""Offline speech recognition for checking takes, behind one small interface.

A :class:`Recogniser` turns mono PCM into the words it heard. :func:`recognise` picks the
first registered recogniser that knows the language and returns a :class:`Transcript`, or
None when none does, so a caller can say "not checked" instead of inventing a pass.

Today the one recogniser is pocketsphinx's bundled US English model (CMU Sphinx: small, CPU
only, about ten times faster than real time on one core). A Whisper-class recogniser plugs in
by implementing :class:`Recogniser` and calling :func:`register_recogniser`; registered last
means asked first, so a better model overrides the built-in one for the languages it covers.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from engine.qa.wer import language_code

SILENCE_PEAK = 1e-3  # below -60 dBFS there is nothing to hear


@dataclass(frozen=True)
class Transcript:
    """What a recogniser heard in some audio."""

    text: str  # the words, lower case, separated by single spaces ("" when it heard none)
    language: str  # the language code it listened for ("en")
    recogniser: str  # which model produced it, e.g. "pocketsphinx-5.1.1/en-us"


class Recogniser(Protocol):
    """A speech recogniser: name, languages it knows, and a thread-safe ``transcribe``."""

    @property
    def name(self) -> str:
        """Identifies the model and version, stored with every result it produces."""
        ...

    @property
    def languages(self) -> frozenset[str]:
        """Language codes (``"en"``, ``"fr"``) it can transcribe."""
        ...

    def transcribe(self, pcm: np.ndarray, sample_rate: int) -> str:
        """The words heard in mono float32 ``pcm`` at ``sample_rate``; "" when none."""
        ...


class PocketsphinxRecogniser:
    """pocketsphinx 5 with the US English acoustic model, dictionary and language model it ships.

    The decoder is built on first use (about 0.25 s, some 60 MB) and reused under a lock:
    a pocketsphinx decoder is not thread-safe, and one at a time is all a checker needs.
    """

    SAMPLE_RATE = 16000  # the bundled acoustic model is trained on 16 kHz audio

    def __init__(self) -> None:
        from importlib.metadata import version

        self._name = f"pocketsphinx-{version('pocketsphinx')}/en-us"
        self._decoder: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def languages(self) -> frozenset[str]:
        return frozenset({"en"})

    def transcribe(self, pcm: np.ndarray, sample_rate: int) -> str:
        audio = np.nan_to_num(np.asarray(pcm, dtype=np.float32).reshape(-1))
        if audio.size == 0 or float(np.max(np.abs(audio))) < SILENCE_PEAK:
            return ""  # the decoder "hears" a word or two in digital silence
        if sample_rate != self.SAMPLE_RATE:
            import soxr

            audio = soxr.resample(audio, sample_rate, self.SAMPLE_RATE)
        samples = (np.clip(audio, -1.0, 1.0) * 32767).astype("<i2")
        with self._lock:
            decoder = self._get_decoder()
            decoder.start_utt()
            decoder.process_raw(samples.tobytes(), no_search=False, full_utt=True)
            decoder.end_utt()
            hypothesis = decoder.hyp()
        return " ".join(hypothesis.hypstr.split()) if hypothesis is not None else ""

    def _get_decoder(self) -> Any:  # pocketsphinx ships no type stubs
        if self._decoder is None:
            from pocketsphinx import Decoder

            # logfn silences the model's start-up log, which would otherwise flood stderr.
            self._decoder = Decoder(samprate=self.SAMPLE_RATE, logfn=os.devnull)
        return self._decoder


# Constructing the built-in recogniser is cheap: its decoder loads on first use.
_registry: list[Recogniser] = [PocketsphinxRecogniser()]
_registry_lock = threading.Lock()


def register_recogniser(recogniser: Recogniser) -> None:
    """Make ``recogniser`` the first choice for the languages it knows."""
    with _registry_lock:
        _registry.insert(0, recogniser)


def recogniser_for(language: str) -> Recogniser | None:
    """The recogniser used for ``language`` (an ISO code, any region suffix), or None.

    ``""`` (a character with no language set) means English, the embedded voice's language.
    """
    code = language_code(language) or "en"
    with _registry_lock:
        return next((r for r in _registry if code in r.languages), None)


def recognise(pcm: np.ndarray, sample_rate: int, language: str = "en") -> Transcript | None:
    """Transcribe mono float32 audio; None when no recogniser knows ``language``."""
    recogniser = recogniser_for(language)
    if recogniser is None:
        return None
    text = recogniser.transcribe(pcm, sample_rate)
    return Transcript(text=text, language=language_code(language) or "en", recogniser=recogniser.name)
