"""Transcripts by ear: what a reference clip says, heard with Whisper, and whether a typed
transcript still matches it.

A cloning backend (CosyVoice2's zero-shot mode) needs the words of every reference clip. A clip
that comes without them (no ``CLIP.txt``, an empty field) gets them heard here; the studio and
the commands mark such a transcript as heard, for a person to check. A transcript that no longer
matches what is heard (the clip was trimmed, or replaced) is worth a warning: cloning from a
wrong transcript makes the voice stumble.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from engine.core.reference import ClipPhrase
from engine.hearing.chinese import DEFAULT_SCRIPT, in_script, is_chinese
from engine.hearing.qa.checks import QaThresholds
from engine.hearing.qa.recognise import AUTO, Transcript, recognise
from engine.hearing.qa.wer import CER, comparable_units, error_rate, metric_for
from engine.hearing.whisper import DEFAULT_MODEL


@dataclass(frozen=True)
class Mismatch:
    """A transcript that does not match its clip: what was heard, and how far apart they are."""

    heard: str
    error: float  # WER or CER (``metric``) of what was heard against the transcript
    metric: str
    limit: float

    def said(self) -> ClipPhrase:
        """The mismatch as a sentence the studio says in its language (the commands print it)."""
        template = CHARACTERS_MISMATCH if self.metric == CER else WORDS_MISMATCH
        return ClipPhrase(template, heard=self.heard, error=self.error, limit=self.limit)

    def __str__(self) -> str:
        return str(self.said())


WORDS_MISMATCH = ("the transcript does not match what is heard in the clip: “{heard}” "
                  "(word error rate {error:.2f}, limit {limit:.2f})")
CHARACTERS_MISMATCH = ("the transcript does not match what is heard in the clip: “{heard}” "
                       "(character error rate {error:.2f}, limit {limit:.2f})")
TEMPLATES = (WORDS_MISMATCH, CHARACTERS_MISMATCH)  # scripts/translations hands them to lupdate


def hear_clip(path: str | os.PathLike[str], language: str = "", model: str = DEFAULT_MODEL,
              chinese_script: str = DEFAULT_SCRIPT) -> Transcript:
    """The words said in the clip at ``path`` (decoded as reference clips are), in the character's
    ``language`` or, when it is not set, the language detected. Raises NotHeard when no model can
    listen, and EngineError (E_CLIP_MISSING, E_CLIP_SILENT...) for a clip that cannot be used.

    Chinese is written in ``chinese_script`` (the project's setting): heard in a detected language,
    with no prompt, Whisper base writes Mandarin in traditional characters, or a mix of both."""
    from engine.core.reference import load_reference_clip

    clip = load_reference_clip(path)
    heard = recognise(clip.audio, clip.sample_rate, language.strip() or AUTO, model)
    return replace(heard, text=in_script(heard.text, chinese_script, heard.language)) if is_chinese(heard.language) else heard


def mismatch(transcript: str, heard: Transcript, thresholds: QaThresholds = QaThresholds()) -> Mismatch | None:
    """A :class:`Mismatch` when ``heard`` is further from ``transcript`` than take QA allows a
    take to be from its line; None when they match (or the transcript has nothing to compare)."""
    if not comparable_units(transcript, heard.language):
        return None
    metric = metric_for(heard.language)
    limit = thresholds.max_cer if metric == CER else thresholds.max_wer
    error = error_rate(transcript, heard.text, heard.language)
    return Mismatch(heard.text, round(error, 3), metric, limit) if error > limit else None
