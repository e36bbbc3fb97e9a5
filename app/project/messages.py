"""Problems in words: one table from every error and QA code to a sentence for people.

Errors travel as ``"CODE: detail"`` strings (``str(ProjectError)``, engine failures, QA findings).
The studio shows :func:`explain`'s headline, the detail under it, and the code last, for a bug
report or a search; the CLI keeps printing the plain string. A code missing here still shows,
under a headline that says what kind of problem it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADLINES: dict[str, str] = {
    # projects and files
    "E_NOT_A_PROJECT": "This folder is not a DubStudio project.",
    "E_BAD_PROJECT_FILE": "The project file cannot be read.",
    "E_SCHEMA_TOO_NEW": "This project was saved by a newer DubStudio.",
    "E_MIGRATION": "This older project could not be brought up to date.",
    "E_PATH_ESCAPE": "A path in the project points outside its folder.",
    "E_SAVE_FAILED": "The project could not be saved.",
    "E_NOT_REGULAR_FILE": "A file to write is not a regular file.",
    "E_DISK_FULL": "The disk is full.",
    "E_PROJECT_LOCKED": "The project is open somewhere else.",
    "E_UNKNOWN_ID": "A line, character or take is gone.",
    "E_INVALID_VALUE": "That value cannot be used.",
    "E_TIME_RANGE": "That time is out of range.",
    "E_BAD_ID": "A name cannot be used as part of a file name.",
    "E_CANCELLED": "Cancelled; nothing was written.",
    # clips, imports and exports
    "E_CLIP_IMPORT": "The voice clip could not be imported.",
    "E_IMPORT_FORMAT": "The script file could not be read.",
    "E_IMPORT_ENCODING": "The script file's text encoding is unknown.",
    "E_EXPORT": "The export could not be made.",
    "E_VIDEO_UNREADABLE": "The video cannot be read.",
    "E_NO_VIDEO_STREAM": "The file has no video picture.",
    "E_NO_AUDIO_STREAM": "The video has no sound track.",
    "E_SUBTITLE_STREAM": "The video's subtitles cannot be read.",
    "E_TAKE_UNREADABLE": "A take's audio file cannot be read.",
    # rendering
    "E_RENDER": "Rendering could not start.",
    "E_NO_CHARACTER": "The line has no character, so no voice to speak it.",
    "E_NO_CLIP": "The character has no voice clip yet.",
    "E_EMPTY_TEXT": "The line has no text to speak.",
    "E_NOTHING_SPEAKABLE": "The line holds nothing a voice can say.",
    "E_TEXT_TOO_LONG": "The line is too long for one take.",
    "E_CLIP_MISSING": "The character's voice clip is missing.",
    "E_CLIP_UNREADABLE": "The character's voice clip cannot be read.",
    "E_CLIP_SILENT": "The character's voice clip is silent.",
    "E_CLIP_TOO_SHORT": "The character's voice clip is too short.",
    "E_CLIP_TOO_LONG": "The character's voice clip is too long.",
    "E_CLIP_TOO_LARGE": "The character's voice clip is too large.",
    "E_BAD_SETTING": "A voice setting is out of range.",
    "E_QUEUE_FULL": "The engine's queue is full; try again in a moment.",
    "E_DUPLICATE_JOB": "That line is already being rendered.",
    "E_JOB_TIMEOUT": "The engine took too long with a line.",
    # the engine
    "E_ENGINE_START": "The speech engine is not running.",
    "E_ENGINE_CRASHED": "The speech engine stopped unexpectedly.",
    "E_ENGINE_STOPPED": "The speech engine stopped.",
    "E_BACKEND": "The voice model failed.",
    "E_BAD_REQUEST": "The engine refused a request.",
    "E_BAD_OPTION": "An engine option cannot be used.",
    "E_UNAUTHORIZED": "The speech server refused the key.",
    "E_SERVER_UNREACHABLE": "The speech server cannot be reached.",
    # take QA
    "E_QA_WORKER": "The QA check could not run.",
    "QA_SILENT": "The take is silent.",
    "QA_UNINTELLIGIBLE": "The words heard are not the line's.",
    "QA_OVERRUN": "The take runs past its slot.",
    "QA_CLIPPING": "The take is clipped (too loud).",
    "QA_UNLIKE_VOICE": "The take does not sound like the character's clip.",
    "QA_LEADING_SILENCE": "Long silence before the speech.",
    "QA_INNER_SILENCE": "A long pause inside the speech.",
    "QA_TRAILING_SILENCE": "Long silence after the speech.",
    "QA_NOT_CHECKED": "The words could not be checked.",
}

_CODED = re.compile(r"^((?:E|QA)_[A-Z0-9_]+):\s*(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Explained:
    """A problem for people: a headline, what happened in detail, and the code ("" if none)."""

    headline: str
    detail: str
    code: str

    def __str__(self) -> str:
        return " ".join(part for part in (self.headline, self.detail, f"({self.code})" if self.code else "") if part)


def explain(message: str) -> Explained:
    """``"E_NO_CLIP: line 3: Maya has no clip"`` -> headline from the table, the rest as detail."""
    text = message.strip()
    match = _CODED.match(text)
    if match is None:
        return Explained(text, "", "")
    code, detail = match.group(1), match.group(2).strip()
    headline = HEADLINES.get(code)
    if headline is None:
        headline = "A take did not pass a check." if code.startswith("QA_") else "Something went wrong."
    return Explained(headline, _sentence(detail), code)


def _sentence(detail: str) -> str:
    """The detail as a sentence: a capital first letter (unless it starts with a name such as
    ``lines.srt``, which keeps its case) and a full stop."""
    if not detail:
        return ""
    if detail.split()[0].isalpha():
        detail = detail[0].upper() + detail[1:]
    return detail if detail[-1] in ".!?…)”\"" else detail + "."
