"""Reference clips: a character's voice sample, read and checked the same way in every process.

The engine prepares voices from them, the studio checks a clip before a render would refuse it,
and take QA and transcription hear them. Any file :mod:`engine.core.audio_io` reads is accepted
(any rate, stereo, 8-32 bit), downmixed, trimmed of silence, refused when silent, with under
1 s of speech or over 10 minutes, and cut to its first 30 s of speech.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from engine.core.audio_io import AudioError, AudioInfo, audio_info, read_audio
from engine.core.files import FileError, read_text_file
from engine.core.phrases import Phrase
from engine.core.protocol import EngineError, ErrorCode
from engine.core.silence import sound_seconds, trim

MAX_SOURCE_S = 600.0  # refuse longer files outright: nobody means a 10-minute reference
MAX_REFERENCE_S = 30.0  # longer clips are cut: more adds nothing and slows preparation
MIN_SPEECH_S = 1.0
SILENCE_PEAK = 1e-3  # peak below -60 dBFS counts as silence
TRIM_TOP_DB = 40.0
# A constant offset this large (1 % of full scale) is the recorder's, not the voice's: some cheap
# microphones and interfaces add one. Kept, it sets the peak the clip is normalised by and hides
# the silence the trim looks for, so it is removed. A clip's ordinary mean (under 0.1 %) is left as is.
DC_OFFSET_LEAST = 0.01


class ClipPhrase(Phrase):
    """What the checks say about a reference clip (a refusal's detail, a note on a clip they
    accepted), translated in the ``reference clips`` context: the commands print the English, the
    studio says it in its language (``scripts/translations`` hands :data:`TEMPLATES` to lupdate)."""

    context: ClassVar[str] = "reference clips"


CANNOT_DECODE = "Cannot decode {file} as audio ({reason})"
NOT_FOUND = "Reference clip not found: {path}"
CANNOT_READ = "Reference clip: {error}"
HOLDS_NO_AUDIO = "Reference clip holds no audio: {file}"
TOO_SHORT = "Reference clip {file} is {seconds:.2f} s long; at least {least:.0f} s of speech is needed"
TOO_LONG = "Reference clip is {minutes:.2f} min long; use one under {limit:.0f} min (the first {used:.0f} s of speech are used)"
NOT_NUMBERS = "Reference clip {file} is not valid audio: it holds samples that are not numbers (NaN or infinite)"
SILENT = "Reference clip {file} is silent"
TOO_LITTLE_SPEECH = "Reference clip {file} has {seconds:.2f} s of speech; at least {least:.0f} s is needed"
CUT = "clip cut to its first {seconds:.0f} s"  # a note: the clip is used, its first seconds only
TEMPLATES = (CANNOT_DECODE, NOT_FOUND, CANNOT_READ, HOLDS_NO_AUDIO, TOO_SHORT, TOO_LONG, NOT_NUMBERS, SILENT,
             TOO_LITTLE_SPEECH, CUT)


@dataclass(frozen=True)
class ReferenceClip:
    """A decoded reference clip: mono float32, silence trimmed, within the length limits."""

    audio: np.ndarray
    sample_rate: int
    source_duration_s: float  # before trimming
    warnings: tuple[str, ...] = ()  # ClipPhrases


def _clip_error(path: Path, error: FileError | AudioError) -> EngineError:
    """A clip that cannot be read, as the engine's coded error."""
    if isinstance(error, AudioError):
        return EngineError(ErrorCode.CLIP_UNREADABLE, ClipPhrase(CANNOT_DECODE, file=path.name, reason=error.reason))
    if not os.path.exists(path) or os.path.isdir(path):
        return EngineError(ErrorCode.CLIP_MISSING, ClipPhrase(NOT_FOUND, path=str(path)))
    return EngineError(ErrorCode.CLIP_UNREADABLE, ClipPhrase(CANNOT_READ, error=error.message))


def _clip_info(path: Path) -> AudioInfo:
    """The clip's facts; a pipe is refused at once, never waited on."""
    try:
        return audio_info(path)
    except (FileError, AudioError) as error:
        raise _clip_error(path, error) from None


def _read_clip(path: Path, start: int = 0, stop: int | None = None) -> tuple[np.ndarray, int]:
    """The clip's mono samples (frames ``start`` to ``stop``) and their rate."""
    try:
        return read_audio(path, start=start, stop=stop)
    except (FileError, AudioError) as error:
        raise _clip_error(path, error) from error


def _check_clip_info(path: Path, info: AudioInfo, seconds: float | None = None) -> None:
    """``seconds``: the part of the clip that is used (a trim), when not all of it."""
    if info.frames <= 0 or info.sample_rate <= 0:
        raise EngineError(ErrorCode.CLIP_UNREADABLE, ClipPhrase(HOLDS_NO_AUDIO, file=path.name))
    duration = info.duration_s if seconds is None else seconds
    if duration < MIN_SPEECH_S:  # whatever it holds: a tenth of a second of speech is not a voice
        raise EngineError(ErrorCode.CLIP_TOO_SHORT,
                          ClipPhrase(TOO_SHORT, file=path.name, seconds=max(duration, 0.0), least=MIN_SPEECH_S))
    if duration > MAX_SOURCE_S:
        raise EngineError(ErrorCode.CLIP_TOO_LONG, ClipPhrase(TOO_LONG, minutes=duration / 60, limit=MAX_SOURCE_S / 60,
                                                              used=MAX_REFERENCE_S))


def check_reference_clip(path: str | os.PathLike[str], start_s: float = 0.0, end_s: float | None = None) -> None:
    """Every check :func:`load_reference_clip` makes (a regular file, audio a decoder reads,
    not over the length limit, not silent, enough speech) on the part from ``start_s`` to
    ``end_s``: for "ready" checks that must refuse what a render would. Raises EngineError
    with the same codes."""
    path = Path(path)
    info = _clip_info(path)
    used = None if start_s == 0 and end_s is None else min(end_s or info.duration_s, info.duration_s) - start_s
    _check_clip_info(path, info, used)
    first = max(0, int(start_s * info.sample_rate))
    last = info.frames if end_s is None else min(info.frames, int(end_s * info.sample_rate))
    audio, rate = _read_clip(path, first, max(first, last))
    _speech_of(path, audio, rate)


def _speech_of(path: Path, audio: np.ndarray, rate: int) -> np.ndarray:
    """The clip's mono audio trimmed of silence; EngineError when it is silent or holds too little speech."""
    if not np.isfinite(audio).all():
        raise EngineError(ErrorCode.CLIP_UNREADABLE, ClipPhrase(NOT_NUMBERS, file=path.name))
    offset = float(np.mean(audio)) if len(audio) else 0.0
    if abs(offset) >= DC_OFFSET_LEAST:
        audio = audio - np.float32(offset)
    if float(np.max(np.abs(audio), initial=0.0)) < SILENCE_PEAK:
        raise EngineError(ErrorCode.CLIP_SILENT, ClipPhrase(SILENT, file=path.name))
    audio = trim(audio, TRIM_TOP_DB)
    speech_s = sound_seconds(audio, rate, TRIM_TOP_DB)
    if speech_s < MIN_SPEECH_S:
        raise EngineError(ErrorCode.CLIP_TOO_SHORT,
                          ClipPhrase(TOO_LITTLE_SPEECH, file=path.name, seconds=speech_s, least=MIN_SPEECH_S))
    return audio


def load_reference_clip(path: str | os.PathLike[str]) -> ReferenceClip:
    """Decode any audio file (:mod:`engine.core.audio_io`), downmix to mono and trim silence.

    Raises EngineError with a specific code for missing, unreadable, silent, too short and
    too long clips; stereo, any sample rate and 8/16/24/32-bit files are accepted.
    """
    path = Path(path)
    _check_clip_info(path, _clip_info(path))
    data, rate = _read_clip(path)
    source_duration = len(data) / rate
    audio = _speech_of(path, data, rate)
    warnings: tuple[str, ...] = ()
    if len(audio) > MAX_REFERENCE_S * rate:
        audio = audio[: int(MAX_REFERENCE_S * rate)]
        warnings = (ClipPhrase(CUT, seconds=MAX_REFERENCE_S),)
    peak = float(np.max(np.abs(audio)))
    audio = (audio * (0.95 / peak)).astype(np.float32)
    return ReferenceClip(audio=audio, sample_rate=int(rate), source_duration_s=source_duration, warnings=warnings)


def transcript_beside(clip: str | os.PathLike[str]) -> str:
    """The transcript kept beside a clip (``CLIP.txt`` for ``CLIP.wav``), or "" when there is none.

    Transcripts come from many editors, so legacy encodings are decoded like scripts are
    (:func:`engine.core.files.decode_text`); a sidecar that is not a regular file or not text raises
    FileError with E_NOT_REGULAR_FILE or E_TEXT_ENCODING.
    """
    sidecar = Path(clip).with_suffix(".txt")
    if not os.path.lexists(sidecar):
        return ""
    return read_text_file(sidecar).strip()
