"""Every code a person or a script can see: one table, each code with the sentence it means.

Errors travel as ``"CODE: detail"`` strings (``str()`` of EngineError, ProjectError, FileError,
HearingError, a failed job, a command's last line) and take QA's verdicts as ``"QA_…: detail"``
findings. Both sides of the process boundary read the codes from here, so the engine, the project
layer, the commands and the studio spell each code once; the studio shows its headline
(:func:`app.project.messages.explain`). The values are stable: tests, scripts and saved reports
match on them. docs/commands.md lists every code with when it happens (a test checks it does).

Two enums, because the two kinds of code mean different things: an :class:`ErrorCode` says
something could not be done; a :class:`QaCode` says a take was made but failed a check.
"""

from __future__ import annotations

import enum

from engine.core.phrases import CODED, Phrase


class _Code(enum.StrEnum):
    """A code whose value is its stable string and which carries a headline for people."""

    headline: str
    # Every detail made with this code says the problem whole (the command line shows a detail
    # alone), so the studio shows such a detail without the headline, which would say it again.
    detail_says_it: bool

    # Looking a code up by value (ErrorCode("E_NO_CLIP")) goes through the enum's metaclass and
    # never reaches __new__; the default only lets type checkers accept that one-argument call.
    def __new__(cls, value: str, headline: str = "", detail_says_it: bool = False) -> _Code:
        if not headline:
            raise TypeError(f"{value} needs a headline")
        member = str.__new__(cls, value)
        member._value_ = value
        member.headline = headline
        member.detail_says_it = detail_says_it
        return member


class ErrorCode(_Code):
    """Why a job, a request, a file operation or a command failed."""

    # A job the engine refuses or fails (engine.synthesis.process, engine.synthesis.voices, the backends).
    EMPTY_TEXT = "E_EMPTY_TEXT", "The line has no text to speak."
    NOTHING_SPEAKABLE = "E_NOTHING_SPEAKABLE", "The line holds nothing a voice can say."
    # The line's language (its character's, else its script's) is not one its backend declares.
    LANGUAGE_UNSUPPORTED = "E_LANGUAGE_UNSUPPORTED", "The voice cannot speak the line's language."
    CLIP_MISSING = "E_CLIP_MISSING", "The character's voice clip is missing."
    CLIP_UNREADABLE = "E_CLIP_UNREADABLE", "The character's voice clip cannot be read."
    CLIP_SILENT = "E_CLIP_SILENT", "The character's voice clip is silent."
    CLIP_TOO_SHORT = "E_CLIP_TOO_SHORT", "The character's voice clip is too short."
    CLIP_TOO_LONG = "E_CLIP_TOO_LONG", "The character's voice clip is too long."
    QUEUE_FULL = "E_QUEUE_FULL", "The engine's queue is full; try again in a moment."
    DUPLICATE_JOB = "E_DUPLICATE_JOB", "That line is already being rendered."
    CANCELLED = "E_CANCELLED", "Cancelled; nothing was written."  # a job, an export, an extraction, a transcription
    ENGINE_CRASHED = "E_ENGINE_CRASHED", "The speech engine stopped unexpectedly."
    ENGINE_START = "E_ENGINE_START", "The speech engine is not running."
    BACKEND = "E_BACKEND", "The voice model failed."
    BAD_REQUEST = "E_BAD_REQUEST", "The engine refused a request."
    # A backend option (or the backend's name) that cannot be used.
    BAD_OPTION = "E_BAD_OPTION", "An engine option cannot be used."
    # A voice setting (speed, pitch) that is not a number in its range.
    BAD_SETTING = "E_BAD_SETTING", "A voice setting is out of range."
    # Only a remote engine (dubstudio serve) and its client raise these.
    TEXT_TOO_LONG = "E_TEXT_TOO_LONG", "The line is too long for one take."
    CLIP_TOO_LARGE = "E_CLIP_TOO_LARGE", "The character's voice clip is too large."
    UNAUTHORIZED = "E_UNAUTHORIZED", "The speech server refused the key."
    SERVER_UNREACHABLE = "E_SERVER_UNREACHABLE", "The speech server cannot be reached."
    JOB_TIMEOUT = "E_JOB_TIMEOUT", "The engine took too long with a line."
    # Take QA and transcription: the Whisper model asked for is not installed, downloaded or intact.
    WHISPER_MODEL_MISSING = "E_WHISPER_MODEL_MISSING", "The speech recogniser's model is missing."
    # Music and effects by a separation model: the model is not downloaded, damaged, or not of its declared signature.
    SEPARATION_MODEL_MISSING = "E_SEPARATION_MODEL_MISSING", "The dialogue-separation model is missing."
    # A client's music-and-effects stem of another length than the video, or too low a rate.
    STEM_MISMATCH = "E_STEM_MISMATCH", "The music-and-effects stem does not fit this video."

    # Files (engine.core.files, the one reader and writer).
    NOT_REGULAR_FILE = "E_NOT_REGULAR_FILE", "A file to write is not a regular file."  # a symlink, folder, device or pipe
    DISK_FULL = "E_DISK_FULL", "The disk is full."  # no space (or quota) left; the old file is untouched
    PATH_ESCAPE = "E_PATH_ESCAPE", "A path in the project points outside its folder."
    # Any other write failure (permissions, a file where a folder should be...).
    SAVE_FAILED = "E_SAVE_FAILED", "The project could not be saved."
    READ_FAILED = "E_READ_FAILED", "A file cannot be read."  # missing or unreadable
    TEXT_ENCODING = "E_TEXT_ENCODING", "A text file's encoding is unknown."  # not text in any encoding we recognise

    # Projects (app.project).
    BAD_PROJECT_FILE = "E_BAD_PROJECT_FILE", "The project file cannot be read."
    SCHEMA_TOO_NEW = "E_SCHEMA_TOO_NEW", "This project was saved by a newer DubStudio."
    MIGRATION = "E_MIGRATION", "This older project could not be brought up to date."
    PROJECT_LOCKED = "E_PROJECT_LOCKED", "The project is open somewhere else."  # another DubStudio process holds it
    UNKNOWN_ID = "E_UNKNOWN_ID", "A line, character or take is gone."
    INVALID_VALUE = "E_INVALID_VALUE", "That value cannot be used."
    # A time that is negative, not a number, beyond 24 h, or a line's end before its start.
    TIME_RANGE = "E_TIME_RANGE", "That time is out of range."
    BAD_ID = "E_BAD_ID", "A name cannot be used as part of a file name."
    CLIP_IMPORT = "E_CLIP_IMPORT", "The voice clip could not be imported."
    IMPORT_FORMAT = "E_IMPORT_FORMAT", "The script file could not be read."
    IMPORT_ENCODING = "E_IMPORT_ENCODING", "The script file's text encoding is unknown."
    EXPORT = "E_EXPORT", "The export could not be made."
    TAKE_UNREADABLE = "E_TAKE_UNREADABLE", "A take's audio file cannot be read."

    # Video (app.project.media, the studio's player).
    VIDEO_UNREADABLE = "E_VIDEO_UNREADABLE", "The video cannot be read."
    # Its details each name the file and say it has no picture (and what to do instead).
    NO_VIDEO_STREAM = "E_NO_VIDEO_STREAM", "The file has no video picture.", True
    NO_AUDIO_STREAM = "E_NO_AUDIO_STREAM", "The video has no sound track."  # a guide track, or a transcription
    SUBTITLE_STREAM = "E_SUBTITLE_STREAM", "The video's subtitles cannot be read."
    # Subtitles burned into the picture (app.project.burned_subtitles): no font draws their characters.
    FONT_MISSING = "E_FONT_MISSING", "No installed font can draw the subtitles."

    # Rendering a project (app.project.render).
    RENDER = "E_RENDER", "Rendering could not start."
    NO_CHARACTER = "E_NO_CHARACTER", "The line has no character, so no voice to speak it."
    NO_CLIP = "E_NO_CLIP", "The character has no voice clip yet."
    NO_AUDIO = "E_NO_AUDIO", "The engine gave no audio for the line."
    ENGINE_STOPPED = "E_ENGINE_STOPPED", "The speech engine stopped."  # before the line was spoken

    # Transcribing a video's dialogue (engine.hearing, app.project.transcription).
    AUDIO_UNREADABLE = "E_AUDIO_UNREADABLE", "The video's sound cannot be read."
    NO_SPEECH = "E_NO_SPEECH", "No speech was heard."  # silence or music only: voice activity detection found none
    UNKNOWN_LANGUAGE = "E_UNKNOWN_LANGUAGE", "The speech recogniser does not know that language."
    BAD_SPEAKER_COUNT = "E_BAD_SPEAKER_COUNT", "That number of speakers cannot be used."
    TRANSLATION_TARGET = "E_TRANSLATION_TARGET", "The dialogue cannot be translated into that language."
    SCRIPT_NOT_EMPTY = "E_SCRIPT_NOT_EMPTY", "The project already has a script."  # transcribing without --replace
    # The studio's transcription process (app.project.transcription_process) ended before it answered.
    TRANSCRIPTION_PROCESS = "E_TRANSCRIPTION_PROCESS", "The transcription stopped unexpectedly."

    # A cast library shared between projects (app.project.cast, dubstudio cast).
    CAST_LIBRARY = "E_CAST_LIBRARY", "The cast library cannot be read."  # missing, not a library, or damaged
    CAST_TOO_NEW = "E_CAST_TOO_NEW", "This cast library was saved by a newer DubStudio."
    CAST_LOCKED = "E_CAST_LOCKED", "Someone else is writing to the cast library."  # still after waiting

    # Translating a project's lines through a translator (engine.translation, dubstudio translate).
    TRANSLATOR = "E_TRANSLATOR", "That translator cannot be used."  # unknown, or missing a setting it needs
    TRANSLATOR_UNREACHABLE = "E_TRANSLATOR_UNREACHABLE", "The translation server cannot be reached."
    TRANSLATOR_KEY = "E_TRANSLATOR_KEY", "The translation server refused the key."  # 401 or 403
    TRANSLATOR_RATE_LIMIT = "E_TRANSLATOR_RATE_LIMIT", "The translation server's rate limit was hit."  # 429, retried
    TRANSLATOR_FAILED = "E_TRANSLATOR_FAILED", "The translation server failed."  # another HTTP error, retried
    TRANSLATION_ANSWER = "E_TRANSLATION_ANSWER", "The translator's answer cannot be used."  # garbled, lines missing
    TRANSLATION_CONTEXT = "E_TRANSLATION_CONTEXT", "The text is too long for the translator's model."

    # Take QA (app.project.qa): a take that could not be checked at all.
    QA_WORKER = "E_QA_WORKER", "The QA check could not run."

    # Load testing (engine.load, dubstudio bench, the Stress tab).
    BENCH = "E_BENCH", "The load test could not run."
    PLAN = "E_PLAN", "The load plan cannot be used."
    TEXTS = "E_TEXTS", "The load test's texts cannot be used."
    VOICES = "E_VOICES", "The load test's voices cannot be used."
    BENCH_VOICE = "E_BENCH_VOICE", "The load test's voices were not ready in time."
    PROBE = "E_PROBE", "That hardware probe cannot be run."
    PROBE_MODEL = "E_PROBE_MODEL", "The hardware probe's model folder could not be made."
    # A job's outcome in a load report, beside the engine's own codes.
    TIMEOUT = "E_TIMEOUT", "A job did not end within the load test's time limit."  # it was cancelled
    SUBMIT = "E_SUBMIT", "The engine client refused a job."  # the submission itself raised
    NO_REPORT = "E_NO_REPORT", "There is no finished run to export yet."

    # The studio alone.
    RECORD = "E_RECORD", "The microphone cannot be recorded from."


class QaCode(_Code):
    """What a take failed in take QA (engine.hearing.qa.checks); NOT_CHECKED is a note, not a failure."""

    SILENT = "QA_SILENT", "The take is silent."
    NO_SPEECH = "QA_NO_SPEECH", "No speech was heard in the take."
    UNINTELLIGIBLE = "QA_UNINTELLIGIBLE", "The words heard are not the line's."
    WRONG_LANGUAGE = "QA_WRONG_LANGUAGE", "The take sounds like another language."
    TOO_FAST = "QA_TOO_FAST", "The take is spoken far too fast."
    TOO_SHORT = "QA_TOO_SHORT", "The take is too short for its words."
    CLIPPING = "QA_CLIPPING", "The take is clipped (too loud)."
    LEADING_SILENCE = "QA_LEADING_SILENCE", "Long silence before the speech."
    INNER_SILENCE = "QA_INNER_SILENCE", "A long pause inside the speech."
    TRAILING_SILENCE = "QA_TRAILING_SILENCE", "Long silence after the speech."
    OVERRUN = "QA_OVERRUN", "The take runs past its slot."
    UNLIKE_VOICE = "QA_UNLIKE_VOICE", "The take does not sound like the character's clip."
    NOT_CHECKED = "QA_NOT_CHECKED", "The words could not be checked."


class EngineError(Exception):
    """An error with a code, raised inside the engine and turned into a failure event.

    Declared beside the codes (and re-exported by engine.core.protocol, where callers import it)
    so that engine.core.numbers' RangeError can be one, below the protocol that declares ranges.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message

    def __str__(self) -> str:
        """``"CODE: message"``; when the message is a Phrase, so is this (the studio says its
        detail in its language: ``app.ui.language.say``)."""
        if isinstance(self.message, Phrase):
            return Phrase(CODED, code=self.code.value, detail=self.message)
        return super().__str__()


def code_named(value: str) -> ErrorCode | QaCode | None:
    """The member whose value is ``value`` ("E_NO_CLIP"), or None for a string that is no code."""
    for table in (ErrorCode, QaCode):
        try:
            return table(value)
        except ValueError:
            continue
    return None
