"""Importing and exporting scripts: SRT, WebVTT, ASS/SSA, SBV, LRC, CSV/TSV and plain ``Name: line`` scripts.

Importers never modify the project: they return a :class:`ScriptImport` (new lines plus the
characters they need) whose :meth:`ScriptImport.command` is one undoable edit, so a bad import
is a single Ctrl+Z away. Speakers are matched to existing characters by name (ignoring case);
unknown names become new characters without a clip.

Files come from many tools, so decoding is forgiving: UTF-8 with or without BOM, UTF-16/32
with BOM (UTF-16 without one too), a BOM left inside a file by joining two, CRLF or CR line ends, and legacy encodings (cp1252, latin-1, GB18030/GBK, Big5, ...)
detected by charset-normalizer, each reading scored by how common its characters are
(:func:`engine.core.files.decode_text`: a short GBK file is not read as Korean). Structure is not guessed: malformed input raises :class:`ImportFormatError`
naming the file and the line, and so does a line over :data:`MAX_LINE_CHARS` in any format,
found by size before the file is parsed.

Every script format is declared once in :data:`SCRIPT_FORMATS` (name, label, extensions,
reader, writer): the import menu, the file dialogs' filters, detection by extension and
:func:`export_script` read it.

Its length (about 1,100 lines, over the ~600 the project aims at) is one importer and one exporter
per format of the registry (SRT, WebVTT, ASS/SSA, SBV and LRC (read only), CSV/TSV, Name: line
text) and the one decoder of legacy encodings they share.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import functools
import html
import io
import math
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import srt

from app.project import phrases
from app.project.bilingual import bilingual_pair, split_rows
from app.project.errors import ExportError, ImportFormatError, InvalidValueError
from app.project.fsutil import atomic_write_text, bound_to
from app.project.model import PALETTE, Character, Line, name_key, new_id, validate_line
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.timecode import (
    TimeRangeError,
    format_timecode,
    is_frame_timecode,
    parse_frame_timecode,
    parse_time,
)
from app.project.timeline import build_timeline
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.undo import AddLines
from engine.core import files
from engine.core.codes import ErrorCode
from engine.core.languages import (
    HAN,
    LANGUAGES,
    UNDETERMINED,
    detect_language,
    join_pieces,
    language_code,
    line_language,
    rules_for,
)
from engine.core.text import control_character, wrap_subtitle

Source = str | os.PathLike[str] | bytes
"""A path, or the raw bytes of a file (the UI may hand over a drop or paste)."""

# "[Maya] Hello" / "[Maya]: Hello" / "【林晓雨】你好" (Chinese scripts' own brackets)
_BRACKET_SPEAKER = re.compile(r"^\s*(?:\[([^\[\]\n]{1,40})\]|【([^【】\n]{1,40})】)\s*[:：]?\s*(.*)$", re.S)
# "Maya: Hello" — a name starts with a letter, has at most 4 words; not a URL or a clock time.
# A transliterated name is split by a middle dot: 哈利·波特 (U+00B7, and the katakana U+30FB).
# A direction may follow the name, before the colon: 林晓雨（OS）：, 张伟(V.O.)：, 王总（画外音）： (kept before
# the words, as a direction is: not spoken). After a full-width colon the words may open with a digit
# (张伟：12306的票…, 王总：3点开会); after an ASCII one a digit is a clock time or a score (at 10:30, Score 3:2).
_COLON_SPEAKER = re.compile(r"^\s*([^\W\d_][\w .'’\-·・\u3000]{0,39}?)\s*([（(][^（）()\n]{1,12}[)）])?\s*(?::(?!//)(?!\d)|(?<!\d)：)"
                            r"\s*(.+)$", re.S)
# A Chinese script's name in corner brackets before its words (「林晓雨」你怎么来了？): only in a plain
# script, where every line has a speaker (in a subtitle 「快走」他喊道 is a quotation); a name has no marks.
_CORNER_SPEAKER = re.compile(r"^\s*[「『]([^「」『』\s，。！？、…：:,.!?]{1,12})[」』]\s*[:：]?\s*(\S.*)$", re.S)
# What a plain script holds that no one says: a scene heading (第一场 日 内 医院, 1-2 夜 外 街道, 场景：…)
# and an action line (△林晓雨推门进来。), as Chinese screenplays write them; a line's number (1. 、 1、).
# A name and its words in two cells of a Word or WPS table saved as text: parted by a tab (林晓雨\t你好).
_TAB_SPEAKER = re.compile(r"^\s*([^\W\d_][^\t:：]{0,39}?)\s*\t+\s*(\S.*)$", re.S)
_NOT_SAID = re.compile(r"^\s*(?:[△▲]|第[一二三四五六七八九十百零\d]+[场場集幕]|\d+\s*[-－—]\s*\d+\s|[场場]景\s*[:：])")
_LINE_NUMBER = re.compile(r"^\s*\d{1,4}\s*[.．、)）]\s*(?=\S)")
# A time line inside a cue's text: srt swallows a block whose time line it cannot read into the
# cue before it. Digits by the arrow, or a line that is nothing but "word --> word"
# ("banana --> apple"): either way a broken time line, never dialogue to speak.
_ARROW = re.compile(r"\d\s*-->|-->\s*\d|^\s*\S+\s*-->\s*\S+\s*$")
# Not to be spoken: <i>, </font>, <c.yellow>, a VTT word time <00:00:01.500>, {\an8}; and an ASS
# drawing ({\p1}m 0 0 l 100 0{\p0}: a shape's outline, in letters). A "<" that opens no tag stays
# ("3 < 5 and 6 > 4").
_TAGS = re.compile(r"<(?:/?[^\W\d_][^<>]{0,39}|/?\d[\d:.]{3,15})>"
                   r"|\{[^}]*\\p[1-9][^}]*\}.*?(?:\{[^}]*\\p0[^}]*\}|$)|\{\\[^}]*\}", re.M)

MAX_LINE_CHARS = 128 * 1024
"""The most characters one imported line may hold, in every format: an SRT cue's text, a CSV
field, a plain script's line with its continuations. No dialogue comes near it; a broken file
does (a missing blank line or an unclosed quote swallows the rest of the file into one line), and
is refused by size before it is parsed, rather than filling project.json. It was the CSV
reader's own limit (the csv module's default), and only its."""


@dataclass
class ScriptImport:
    """The result of an import, not yet applied to the project."""

    lines: list[Line]
    characters: list[Character]  # characters to create (speakers the project did not have)
    warnings: list[str] = field(default_factory=list)
    source: str = ""
    rows: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a subtitle line's rows, by line id

    @functools.cached_property
    def languages(self) -> tuple[str, ...]:
        """The two languages of a bilingual subtitle file, each cue a row in each (see
        :mod:`app.project.bilingual`); () for any other file."""
        return bilingual_pair(self.rows.values())

    def keeping(self, language: str) -> ScriptImport:
        """The import with each bilingual line's rows in ``language`` as its text and the other
        rows as its original (``source_text``); a line with no row in ``language`` stays whole, and
        so does every line of a file that is not bilingual in ``language``."""
        if language not in self.languages:
            return self
        lines = []
        for line in self.lines:
            # Each language's row may name the speaker again ("Xiaoming: Hi"): the name is the line's character.
            rows = [split_speaker(row)[1] or row for row in self.rows.get(line.id, ())]
            text, original = split_rows(rows, language)
            lines.append(dataclasses.replace(line, text=text, source_text=original) if text and original else line)
        return dataclasses.replace(self, lines=lines)

    @property
    def timed(self) -> bool:
        """Whether any imported line has a start timecode (then it is placed by time)."""
        return any(line.start is not None for line in self.lines)

    def command(self, index: int | None = None) -> AddLines:
        """One undoable command that adds the lines and the new characters.

        Timed lines (subtitles, CSV with times) are merged into the script by their start
        times, so the script stays in time order wherever the cursor is; untimed scripts are
        inserted at ``index`` (None = at the end).
        """
        name = Path(self.source).name if self.source else "script"
        return AddLines(self.lines, index, self.characters, text=Phrase(phrases.IMPORT, name=name), by_time=self.timed)


_WORD_PROCESSOR_MARKS = str.maketrans({"\x0b": "\n", "\x0c": "\n", "\u200b": None, "\u00ad": None, "\u2060": None})


def decode_text(data: bytes, source: str = "input", encoding: str | None = None) -> str:
    """Decode a text file's bytes and normalise line ends to ``\\n``.

    ``encoding`` forces a codec; otherwise BOMs, then strict UTF-8, then charset-normalizer
    decide. Raises ImportFormatError (E_IMPORT_ENCODING) when nothing fits.
    """
    try:
        text = data.decode(encoding) if encoding else files.decode_text(data)
    except (ValueError, LookupError) as error:  # UnicodeDecodeError is a ValueError
        raise ImportFormatError(
            Phrase(phrases.CANNOT_DECODE, encoding=encoding or Phrase(phrases.TEXT), error=str(error)),
            source=source,
            code=ErrorCode.IMPORT_ENCODING,
        ) from error
    # A byte-order mark anywhere: files joined end to end keep each one's (a cue number after it
    # no longer reads as one); as a zero-width space inside a line it is nothing to say either.
    text = text.replace("\ufeff", "")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # What Word and WPS leave in text copied or saved from them: a manual line break (Shift+Enter) as
    # a vertical tab and a page break as a form feed, each a break between lines (the file was refused
    # as holding a control character); zero-width spaces and soft hyphens, nothing to say or show.
    text = text.translate(_WORD_PROCESSOR_MARKS)
    if (control := control_character(text)) is not None:
        offset, name = control
        raise ImportFormatError(
            Phrase(phrases.CONTROL_CHARACTER, name=name),
            line_no=text.count("\n", 0, offset) + 1, source=source, code=ErrorCode.IMPORT_ENCODING,
        )
    return text


def file_label(name: str) -> str:
    """How an import's warning names its file: the name alone, as the user chose it (the folders
    above it say nothing about the cues, and made a warning a line of path); "input" for bytes."""
    return Path(name).name if name and name != "input" else "input"


def _read(source: Source, encoding: str | None) -> tuple[str, str]:
    """(decoded text, display name) of a path or raw bytes; a file with no text in it (empty, or
    blank lines only) is refused in every format, rather than imported as no lines, unsaid."""
    if isinstance(source, (bytes, bytearray)):
        return _with_text(decode_text(bytes(source), "input", encoding), "input"), ""
    path = Path(source)
    try:
        data = files.read_regular_file(path)  # a named pipe is refused, not waited on for ever
    except files.FileError as error:
        not_a_file = error.code is ErrorCode.NOT_REGULAR_FILE
        raise ImportFormatError(
            error.message, source=path, code=ErrorCode.NOT_REGULAR_FILE if not_a_file else None
        ) from error
    return _with_text(decode_text(data, str(path), encoding), str(path)), str(path)


def _with_text(text: str, shown: str) -> str:
    if not text.strip():
        raise ImportFormatError(Phrase(phrases.EMPTY_SCRIPT_FILE), source=shown)
    return text


def split_speaker(text: str) -> tuple[str | None, str]:
    """Split ``"Maya: hi"``, ``"[Maya] hi"`` or ``"【Maya】hi"`` into ``("Maya", "hi")``; ``(None, text)`` otherwise."""
    match = _BRACKET_SPEAKER.match(text)
    if match and match.group(3).strip():
        return (match.group(1) or match.group(2)).strip(), match.group(3).strip()
    match = _COLON_SPEAKER.match(text)
    if match and len(match.group(1).split()) <= 4:
        direction, words = match.group(2), match.group(3).strip()
        return compact_name(match.group(1)), join_pieces([direction, words]) if direction else words
    return None, text.strip()


def compact_name(name: str) -> str:
    """A name as its character is called: a Chinese name spaced out to line up with longer ones in a
    Word or WPS script (张 伟, 张　伟) is 张伟; a Latin name keeps its spaces (Mary Jane)."""
    name = name.strip()
    return re.sub(f"(?<=[{HAN}])[ \u3000]+(?=[{HAN}])", "", name)


# A subtitle holding two speakers' exchange writes each turn on its own row opened by a dash
# ("- Hi." / "- Bye."; "-小明：你好" / "-小红：再见"), as subtitle guides ask for a two-person cue.
_DIALOGUE_DASH = re.compile(r"^\s*[-‐–—－]\s*(?=\S)")


def _dialogue_turns(rows: Sequence[str]) -> list[str] | None:
    """The turns of a cue whose every row (two or more) opens with a dialogue dash, the dashes
    off; None for any other cue, and for one whose rows are in two languages (a bilingual
    cue's row and its translation are one line)."""
    if len(rows) < 2 or not all(_DIALOGUE_DASH.match(row) for row in rows):
        return None
    turns = [_DIALOGUE_DASH.sub("", row, count=1).strip() for row in rows]
    return turns if len({detect_language(turn) for turn in turns}) == 1 else None


class _Builder:
    """Collects lines, resolving speaker names to existing or new characters."""

    def __init__(self, project: Project, default_character: str | None) -> None:
        self.project = project
        self.lines: list[Line] = []
        self.new_characters: list[Character] = []
        self.warnings: list[str] = []
        self.rows: dict[str, tuple[str, ...]] = {}
        self.zero_length: list[float] = []  # the starts of cues that end as they start
        self._by_name: dict[str, str] = {name_key(c.name): c.id for c in project.characters}
        self.default_id = self.character_id(default_character) if default_character else None

    def character_id(self, name: str) -> str:
        key = name_key(name)
        found = self._by_name.get(key)
        if found is None:
            used = {c.colour for c in (*self.project.characters, *self.new_characters)}
            count = len(self.project.characters) + len(self.new_characters)
            colour = next((c for c in PALETTE if c not in used), PALETTE[count % len(PALETTE)])
            char = Character(id=new_id(), name=name.strip(), colour=colour)
            self.new_characters.append(char)
            found = self._by_name[key] = char.id
        return found

    def add(self, speaker: str | None, text: str, start: float | None = None, end: float | None = None,
            source_text: str = "", draft: bool = False, language: str | None = None) -> Line:
        char_id = self.character_id(speaker) if speaker else self.default_id
        line = Line(id=new_id(), text=text, character_id=char_id, start=start, end=end, source_text=source_text,
                    draft=draft, language=language)
        self.lines.append(line)
        return line

    def add_cue(self, speaker: str | None, rows: list[str], start: float, end: float | None, *,
                name_in_text: bool = True) -> None:
        """A subtitle cue's line: its rows joined, kept apart too (a bilingual file's cue is split
        by language afterwards, :meth:`ScriptImport.keeping`), a speaker's name written before
        the text taken off its first row. A cue of dialogue turns (:func:`_dialogue_turns`) is a
        line a turn, the cue's time shared by the turns' lengths."""
        if end is not None and end > start and (turns := _dialogue_turns(rows)):
            self._add_turns(turns, None if name_in_text else speaker, start, end)
            return
        if speaker is not None and name_in_text:
            first = split_speaker(rows[0])[1]
            rows = [first, *rows[1:]] if first else rows[1:]
        if end == start:  # shown for no time at all: when its line ends is not known, so it stays open
            self.zero_length.append(start)
        self.rows[self.add(speaker, join_pieces(rows), start, None if end == start else end).id] = tuple(rows)

    def _add_turns(self, turns: list[str], speaker: str | None, start: float, end: float) -> None:
        """Each turn a line of its own, named where its row names a speaker (else ``speaker``), in
        a share of ``start``-``end`` as long as its text's share of the cue's."""
        said = [split_speaker(turn) for turn in turns]
        lengths = [max(1, len(body)) for _, body in said]
        at = start
        for (name, body), length in zip(said, lengths, strict=True):
            until = at + (end - start) * length / sum(lengths)
            if body:
                self.rows[self.add(name or speaker, body, round(at, 3), round(until, 3)).id] = (body,)
            at = until

    def result(self, source: str) -> ScriptImport:
        if self.zero_length:
            self.warnings.append(Phrase(phrases.ZERO_LENGTH_CUES, file=file_label(source),
                                        times=_listed(list(map(format_timecode, self.zero_length)))))
        video = self.project.video
        past = [line.start for line in self.lines if video is not None and line.start is not None
                and max(line.start, line.end or 0.0) > video.duration_s]
        if past and video is not None:  # the exports cut them there (subtitle_cues); said now, not at delivery
            self.warnings.append(Phrase(phrases.CUES_PAST_VIDEO, file=file_label(source),
                                        times=_listed(list(map(format_timecode, past))), end=video.duration_s))
        if not self.lines and not self.warnings:  # a header with nothing under it (WEBVTT, a CSV's column names)
            raise ImportFormatError(Phrase(phrases.NO_LINES_IN_FILE), source=source or None)
        lines, rows = self._cues_joined_across_languages()
        used = {line.character_id for line in lines} | {self.default_id}
        characters = [character for character in self.new_characters if character.id in used]
        return ScriptImport(lines, characters, self.warnings, source, rows)

    def _cues_joined_across_languages(self) -> tuple[list[Line], dict[str, tuple[str, ...]]]:
        """The lines and their rows, where a bilingual file writes a cue's two languages as two cues
        at the same times (an ASS style per language, two subtitle tracks merged) each such pair one
        cue with a row in each. In a file that is not bilingual so joined, the cues stay apart (a
        line and a sign in another language at the same times are two lines)."""
        lines: list[Line] = []
        rows = dict(self.rows)
        for line in self.lines:
            before = lines[-1] if lines else None
            if (before is not None and before.id in rows and line.id in rows
                    and (before.start, before.end) == (line.start, line.end)
                    and _two_languages(before.text, line.text)):
                rows[before.id] = (*rows[before.id], *rows.pop(line.id))
                lines[-1] = dataclasses.replace(before, text=join_pieces(rows[before.id]))
            else:
                lines.append(line)
        if len(lines) == len(self.lines) or not bilingual_pair(rows.values()):
            return self.lines, self.rows
        return lines, rows


def _two_languages(text: str, other: str) -> bool:
    languages = {detect_language(text), detect_language(other)}
    return len(languages) == 2 and UNDETERMINED not in languages


def _too_long(what: str, line_no: int, shown: str) -> ImportFormatError:
    return ImportFormatError(f"{what} is longer than the {MAX_LINE_CHARS:,} characters one line may hold; is a blank "
                             "line or a closing quote missing before it?", line_no=line_no, source=shown)


def _check_times(start: float | None, end: float | None, what: str, line_no: int | None, shown: str) -> None:
    """A cue's or row's times by the rules of every line (validate_line), refused at its line in the file."""
    try:
        validate_line(Line(id="", text="", start=start, end=end), what)
    except InvalidValueError as error:
        raise ImportFormatError(error.message, line_no=line_no, source=shown, code=error.code) from None


# --- SRT --------------------------------------------------------------------------------------


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _line_numbers(text: str, offsets: Iterable[int]) -> list[int]:
    """1-based line numbers of increasing ``offsets``, counting each newline once (linear)."""
    numbers: list[int] = []
    line, counted_to = 1, 0
    for offset in offsets:
        line += text.count("\n", counted_to, offset)
        counted_to = offset
        numbers.append(line)
    return numbers


def _overlong_cue(text: str) -> tuple[int, int] | None:
    """The offset and length of the first cue text over MAX_LINE_CHARS, if any. Cues are the
    stretches between blank lines, found with str.find: a 100 MB cue is refused in a fraction of
    a second, where srt's lazy pattern took half a minute to accept it."""
    start = 0
    while start < len(text):
        end = text.find("\n\n", start)
        end = len(text) if end < 0 else end
        if end - start > MAX_LINE_CHARS:
            body = start
            for _ in range(2):  # the index and the time line come before the text
                newline = text.find("\n", body, end)
                body = end if newline < 0 else newline + 1
            if end - body > MAX_LINE_CHARS:
                return body, end - body
        start = end + 2
    return None


def _subtitle_rows(content: str, markup: bool = False) -> list[str]:
    """A cue's rows without tags: joined (:func:`join_pieces`: a space, none inside a Chinese
    sentence) they are the line's text. ``markup``: the text escapes & and < as HTML does
    (WebVTT must, SRT often does: "Tom &amp; Jerry"), so the escapes are read."""
    text = _TAGS.sub("", content)
    if markup:
        text = html.unescape(text).replace("\u00a0", " ")  # &nbsp; is a space to say
    return [part.strip() for part in text.split("\n") if part.strip()]


_CLOCK_TIME = re.compile(r"\d+[:：]\d\d[:：]\d\d")


def _srt_error(text: str, error: srt.SRTParseError, shown: str) -> ImportFormatError:
    """Point at the broken timecode line if the unparsed block has one, else its first line."""
    first_line = _line_of(text, error.expected_start)
    # Up to the end of the line where srt found its next block: "-00:00:01,000 --> …" is matched
    # from its first digit, so the unmatched part ends at the minus sign.
    line_end = text.find("\n", error.actual_start)
    lines = text[error.expected_start:len(text) if line_end < 0 else line_end].split("\n")
    for k, raw in enumerate(lines):
        if "-->" in raw or _CLOCK_TIME.search(raw):  # "00:00:01,000 —> 00:00:02,000", "-00:00:01,000 --> …"
            return ImportFormatError(
                Phrase(phrases.MALFORMED_SRT_TIME, quoted=repr(raw.strip()[:60])),
                line_no=first_line + k,
                source=shown,
            )
    k = next((k for k, raw in enumerate(lines) if raw.strip()), 0)
    return ImportFormatError(
        Phrase(phrases.NOT_A_BLOCK, quoted=repr(lines[k].strip()[:60])),
        line_no=first_line + k,
        source=shown,
    )


# A timecode's fraction of a second on an SRT timing line ("00:00:03,5", "00:00:03.50",
# "00:00:03,5000"): srt reads its digits as milliseconds (3,5 as 3.005 s), so it is written as
# the milliseconds it means first. Only on a line with an arrow: a line of text is left alone.
_SRT_TIMING_LINE = re.compile(r"^[^\n]*-[ -] *>[^\n]*$", re.M)
_SRT_FRACTION = re.compile(r"(\d+[:：]\d+[:：]\d+)[,.，．。](\d+)")


def _in_milliseconds(timing: re.Match[str]) -> str:
    def milliseconds(stamp: re.Match[str]) -> str:
        fraction = stamp.group(2)
        return f"{stamp.group(1)},{round(int(fraction) * 10 ** (3 - len(fraction))):03d}"

    return _SRT_FRACTION.sub(milliseconds, timing.group())


def import_srt(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
    default_character: str | None = None,
) -> ScriptImport:
    """Read an SRT file: one line per subtitle, times as given (overlaps kept).

    ``Name: text`` and ``[Name] text`` prefixes pick the character; multi-line subtitles are
    joined with spaces and formatting tags (``<i>``, ``{\\an8}``) dropped, since they would
    otherwise be spoken. Subtitles whose text is empty are skipped with a warning.
    """
    text, name = _read(source, encoding)
    shown = name or "input"
    if (overlong := _overlong_cue(text)) is not None:
        offset, length = overlong
        raise _too_long(f"the subtitle's text ({length:,} characters)", _line_of(text, offset), shown)
    text = _SRT_TIMING_LINE.sub(_in_milliseconds, text)
    try:
        subtitles = list(srt.parse(text))
    except srt.SRTParseError as error:
        raise _srt_error(text, error, shown) from error
    # srt.parse does not say where each block was; its own regex finds the timecode lines.
    # (Counted in one pass: counting from the top for each block made 100k cues take 93 s.)
    positions = _line_numbers(text, (m.start(2) for m in srt.SRT_REGEX.finditer(text)))
    if not subtitles and text.strip():
        raise ImportFormatError(Phrase(phrases.NO_SUBTITLES), line_no=1, source=shown)
    builder = _Builder(project, default_character)
    for n, sub in enumerate(subtitles):
        line_no = positions[n] if n < len(positions) else None
        start, end = sub.start.total_seconds(), sub.end.total_seconds()
        _check_times(start, end, f"subtitle {sub.index}", line_no, shown)
        for k, raw in enumerate(sub.content.split("\n")):
            if _ARROW.search(raw):  # srt swallows a broken block into the previous one's text
                raise ImportFormatError(
                    Phrase(phrases.MALFORMED_SRT_TIME, quoted=repr(raw.strip()[:60])),
                    line_no=None if line_no is None else line_no + 1 + k,
                    source=shown,
                )
        rows = _subtitle_rows(sub.content, markup=True)
        speaker, body = split_speaker(join_pieces(rows))
        if not body:
            builder.warnings.append(Phrase(phrases.SKIPPED_SUBTITLE, file=file_label(name), line=line_no, index=sub.index))
            continue
        builder.add_cue(speaker, rows, start, end)
    return builder.result(name)


# --- WebVTT and ASS ---------------------------------------------------------------------------

_VTT_TIME = r"(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})"
_VTT_TIMING = re.compile(rf"^\s*{_VTT_TIME}\s+-->\s+{_VTT_TIME}(?:\s.*)?$")
_VTT_VOICE = re.compile(r"^\s*<v(?:\.[^\s>]*)?\s+([^>]{1,40})>")  # <v Maya> or <v.loud Maya>
_VTT_SKIPPED_BLOCKS = ("NOTE", "STYLE", "REGION")


def _vtt_seconds(hours: str | None, minutes: str, seconds: str, millis: str) -> float:
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds) + int(millis) / 1000


def _blocks(text: str) -> Iterator[tuple[int, list[str]]]:
    """The blank-line separated blocks of ``text`` with the 1-based line number each starts at."""
    block: list[str] = []
    start = 1
    for number, raw in enumerate(text.split("\n"), 1):
        if raw.strip():
            if not block:
                start = number
            block.append(raw)
        elif block:
            yield start, block
            block = []
    if block:
        yield start, block


def import_vtt(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
    default_character: str | None = None,
) -> ScriptImport:
    """Read a WebVTT file: one line per cue, times as given. The speaker comes from a voice
    tag (``<v Maya>``) or a ``Name:`` prefix; NOTE, STYLE and REGION blocks and tags are dropped.
    A broken time line is refused at its line number, as in SRT."""
    text, name = _read(source, encoding)
    shown = name or "input"
    if (overlong := _overlong_cue(text)) is not None:
        offset, length = overlong
        raise _too_long(f"the cue's text ({length:,} characters)", _line_of(text, offset), shown)
    if not text.lstrip("\ufeff").startswith("WEBVTT"):
        raise ImportFormatError(Phrase(phrases.NOT_WEBVTT), line_no=1, source=shown)
    builder = _Builder(project, default_character)
    for first, block in list(_blocks(text))[1:]:  # the first block is the header
        if block[0].split(" ")[0] in _VTT_SKIPPED_BLOCKS:
            continue
        timing = next((k for k, raw in enumerate(block[:2]) if "-->" in raw), None)
        if timing is None:
            raise ImportFormatError(Phrase(phrases.NOT_A_CUE, quoted=repr(block[0].strip()[:60])), line_no=first,
                                    source=shown)
        line_no = first + timing
        match = _VTT_TIMING.match(block[timing])
        if match is None:
            raise ImportFormatError(Phrase(phrases.MALFORMED_VTT_TIME, quoted=repr(block[timing].strip()[:60])),
                                    line_no=line_no, source=shown)
        start, end = _vtt_seconds(*match.groups()[:4]), _vtt_seconds(*match.groups()[4:])
        _check_times(start, end, f"cue at line {line_no}", line_no, shown)
        content = block[timing + 1:]
        for k, raw in enumerate(content):
            if _ARROW.search(raw):
                raise ImportFormatError(Phrase(phrases.MALFORMED_VTT_TIME, quoted=repr(raw.strip()[:60])),
                                        line_no=line_no + 1 + k, source=shown)
        voice = _VTT_VOICE.match(content[0]) if content else None
        rows = _subtitle_rows("\n".join(content), markup=True)
        cleaned = join_pieces(rows)
        speaker, body = (voice.group(1).strip(), cleaned) if voice else split_speaker(cleaned)
        if not body:
            builder.warnings.append(Phrase(phrases.SKIPPED_CUE, file=file_label(name), line=line_no))
            continue
        builder.add_cue(speaker, rows, start, end, name_in_text=not voice)
    return builder.result(name)


_ASS_TIME = re.compile(r"^\s*(\d+):([0-5]\d):([0-5]\d)[.,](\d{1,3})\s*$")
_ASS_BREAKS = re.compile(r"\\[Nn]")
# A sign or title (on-screen text, a song's lyrics, credits) in an ASS file, not dialogue: a
# Dialogue event with no Name that is placed on the picture (\pos, \move) or in a style named
# for one (Sign, Title, OP, ED, Song, Staff; 注释, 标题, 歌词, as Chinese fansubs name them; a
# Subtitle style is dialogue).
_ASS_PLACED = re.compile(r"\{[^}]*\\(?:pos|move)\(")
_SIGN_STYLE = re.compile(r"sign|(?<!sub)title|^op\b|^ed\b|^op[_\-\d]|^ed[_\-\d]|song|kara|staff|credit|logo|note"
                         r"|注释|註釋|标题|標題|片名|歌词|歌詞|屏幕|字幕组|字幕組|说明|說明|制作|製作", re.I)
ASS_FIELDS = ("Layer", "Start", "End", "Style", "Name", "MarginL", "MarginR", "MarginV", "Effect", "Text")


def _ass_seconds(value: str, line_no: int, shown: str) -> float:
    match = _ASS_TIME.match(value)
    if match is None:
        raise ImportFormatError(Phrase(phrases.MALFORMED_ASS_TIME, quoted=repr(value.strip()[:30])), line_no=line_no,
                                source=shown)
    hours, minutes, seconds, fraction = match.groups()
    return int(hours) * 3600 + int(minutes) * 60 + int(seconds) + float(f"0.{fraction}")


@dataclass(frozen=True)
class _AssCue:
    line_no: int
    speaker: str | None
    rows: list[str]
    start: float
    end: float
    named: bool  # the speaker came from the Name field
    sign: str  # "style" (a sign's style), "placed" (by \pos or \move) or "" (dialogue)


def _add_ass_cues(builder: _Builder, cues: list[_AssCue], shown: str) -> None:
    """The cues that are dialogue as lines; the signs and titles skipped, with one warning naming
    their lines. Cues placed on the picture are signs beside dialogue that is not placed; in a
    file that places every cue they are its dialogue."""
    placed_dialogue = not any(cue.sign == "" for cue in cues)
    signs = [cue.line_no for cue in cues if cue.sign == "style" or cue.sign == "placed" and not placed_dialogue]
    skipped = set(signs)
    for cue in cues:
        if cue.line_no not in skipped:
            builder.add_cue(cue.speaker, cue.rows, cue.start, cue.end, name_in_text=not cue.named)
    if signs:
        builder.warnings.append(phrases.counted(len(signs), phrases.SKIPPED_SIGN, phrases.SKIPPED_SIGNS,
                                                file=file_label(shown), lines=_listed(signs)))


def import_ass(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
    default_character: str | None = None,
) -> ScriptImport:
    """Read an ASS or SSA file's [Events]: one line per Dialogue, the speaker from its Name
    field (else a ``Name:`` prefix), override tags (``{\\i1}``) dropped and ``\\N`` breaks joined.
    A sign or title with no Name (placed by ``\\pos``, or in a Sign, Title, OP or 注释 style) is
    no line to speak: skipped, and a warning names its lines."""
    text, name = _read(source, encoding)
    shown = name or "input"
    builder = _Builder(project, default_character)
    section, columns = "", list[str]()
    cues: list[_AssCue] = []
    for line_no, raw in enumerate(text.split("\n"), 1):
        stripped = raw.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped.lower()
            continue
        if section != "[events]" or ":" not in stripped:
            continue
        kind, _, rest = stripped.partition(":")
        if kind == "Format":
            columns = [column.strip() for column in rest.split(",")]
            continue
        if kind != "Dialogue":
            continue  # Comment, Picture, Sound...
        if "Text" not in columns or "Start" not in columns or "End" not in columns:
            raise ImportFormatError(Phrase(phrases.DIALOGUE_BEFORE_FORMAT), line_no=line_no, source=shown)
        if len(rest) > MAX_LINE_CHARS:
            raise _too_long(f"the dialogue line ({len(rest):,} characters)", line_no, shown)
        values = [value.strip() for value in rest.split(",", len(columns) - 1)]
        if len(values) < len(columns):
            raise ImportFormatError(Phrase(phrases.DIALOGUE_FIELDS, found=len(values), expected=len(columns)),
                                    line_no=line_no, source=shown)
        field_of = dict(zip(columns, values))
        start = _ass_seconds(field_of["Start"], line_no, shown)
        end = _ass_seconds(field_of["End"], line_no, shown)
        _check_times(start, end, f"dialogue at line {line_no}", line_no, shown)
        rows = _subtitle_rows(_ASS_BREAKS.sub("\n", field_of["Text"]).replace("\\h", " "))
        content = join_pieces(rows)
        named = field_of.get("Name", "")
        speaker, body = (named, content) if named else split_speaker(content)
        if not body:
            builder.warnings.append(Phrase(phrases.SKIPPED_DIALOGUE, file=file_label(name), line=line_no))
            continue
        sign = "" if named else "style" if _SIGN_STYLE.search(field_of.get("Style", "")) else \
            "placed" if _ASS_PLACED.search(field_of["Text"]) else ""
        cues.append(_AssCue(line_no, speaker, rows, start, end, bool(named), sign))
    _add_ass_cues(builder, cues, shown)
    if not builder.lines and not builder.warnings and text.strip():
        raise ImportFormatError(Phrase(phrases.NO_DIALOGUE), line_no=1, source=shown)
    return builder.result(name)


# --- YouTube SBV and LRC lyrics ---------------------------------------------------------------

_SBV_TIME = r"(\d+):([0-5]\d):([0-5]\d)\.(\d{3})"
_SBV_TIMING = re.compile(rf"^\s*{_SBV_TIME}\s*,\s*{_SBV_TIME}\s*$")


def import_sbv(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
    default_character: str | None = None,
) -> ScriptImport:
    """Read a YouTube SBV file: blocks of ``H:MM:SS.mmm,H:MM:SS.mmm`` and the cue's rows. A block
    whose first line is no such time is refused at its line; names and tags as in SRT."""
    text, name = _read(source, encoding)
    shown = name or "input"
    if (overlong := _overlong_cue(text)) is not None:
        offset, length = overlong
        raise _too_long(f"the cue's text ({length:,} characters)", _line_of(text, offset), shown)
    builder = _Builder(project, default_character)
    for line_no, block in _blocks(text):
        match = _SBV_TIMING.match(block[0])
        if match is None:
            raise ImportFormatError(Phrase(phrases.MALFORMED_SBV_TIME, quoted=repr(block[0].strip()[:60])),
                                    line_no=line_no, source=shown)
        start, end = _vtt_seconds(*match.groups()[:4]), _vtt_seconds(*match.groups()[4:])
        _check_times(start, end, f"cue at line {line_no}", line_no, shown)
        rows = _subtitle_rows("\n".join(block[1:]))
        speaker, body = split_speaker(join_pieces(rows))
        if not body:
            builder.warnings.append(Phrase(phrases.SKIPPED_CUE, file=file_label(name), line=line_no))
            continue
        builder.add_cue(speaker, rows, start, end)
    if not builder.lines and not builder.warnings:
        raise ImportFormatError(Phrase(phrases.NO_SUBTITLES), line_no=1, source=shown)
    return builder.result(name)


_LRC_STAMP = re.compile(r"\[(\d+):([0-5]?\d)(?:[.:](\d{1,3}))?\]")
_LRC_TAG = re.compile(r"^\s*\[([a-z#]+):([^\]]*)\]\s*$", re.I)  # [ti:Title], [offset:+250], [#:comment]
_LRC_WORD_TIME = re.compile(r"<\d+:\d+(?:[.:]\d+)?>")  # enhanced LRC: each word's time


def _lrc_line(raw: str, line_no: int, shown: str) -> tuple[list[float], str]:
    """The times a lyric line starts at (its stamps) and its words without word times."""
    starts, position = [], 0
    while (stamp := _LRC_STAMP.match(raw, position)) is not None:
        minutes, seconds, fraction = stamp.groups()
        starts.append(int(minutes) * 60 + int(seconds) + float(f"0.{fraction or 0}"))
        position = stamp.end()
    if not starts:
        raise ImportFormatError(Phrase(phrases.MALFORMED_LRC_LINE, quoted=repr(raw.strip()[:60])),
                                line_no=line_no, source=shown)
    if len(raw) - position > MAX_LINE_CHARS:
        raise _too_long(f"the lyric ({len(raw) - position:,} characters)", line_no, shown)
    return starts, _LRC_WORD_TIME.sub("", raw[position:]).strip()


def import_lrc(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
    default_character: str | None = None,
) -> ScriptImport:
    """Read LRC lyrics: ``[mm:ss.xx]words`` lines (several stamps before one line each start it),
    each line lasting until the next stamp (the last one's end left open); ``[ti:…]`` tags are
    read past, ``[offset:±ms]`` moves every time earlier (+) or later (-) as players do, word
    times (``<mm:ss.xx>``) are dropped. Any other line is refused at its line number."""
    text, name = _read(source, encoding)
    shown = name or "input"
    offset_s = 0.0
    stamped: list[tuple[float, int, str]] = []  # (start, the line in the file, the words), in the file's order
    for line_no, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        if (tag := _LRC_TAG.match(raw)) is not None:
            if tag.group(1).lower() == "offset":
                try:
                    offset_s = int(tag.group(2).strip()) / 1000
                except ValueError:
                    raise ImportFormatError(Phrase(phrases.MALFORMED_LRC_LINE, quoted=repr(raw.strip()[:60])),
                                            line_no=line_no, source=shown) from None
            continue
        starts, words = _lrc_line(raw, line_no, shown)
        stamped += [(start, line_no, words) for start in starts]
    # Lines at the same time are one cue's rows (a Chinese lyric file writes each line's
    # translation under it with the same stamp): bilingual, as a subtitle cue of two rows is.
    by_start: dict[float, list[tuple[int, str]]] = {}
    for start, line_no, words in stamped:
        by_start.setdefault(start, []).append((line_no, words))  # in the file's order
    starts = sorted(by_start)
    builder = _Builder(project, default_character)
    for n, start in enumerate(starts):
        at_start = by_start[start]
        rows = _subtitle_rows("\n".join(words for _line_no, words in at_start))
        speaker, body = split_speaker(join_pieces(rows))
        if not body:
            continue  # a stamp with no words ends the line before it
        line_no = at_start[0][0]
        end = starts[n + 1] - offset_s if n + 1 < len(starts) else None
        _check_times(max(0.0, start - offset_s), end, f"the lyric at line {line_no}", line_no, shown)
        builder.add_cue(speaker, rows, max(0.0, start - offset_s), end)
    if not builder.lines:
        raise ImportFormatError(Phrase(phrases.NO_LYRICS), line_no=1, source=shown)
    return builder.result(name)


def _ass_time(seconds: float) -> str:
    centis = round(seconds * 100)
    return f"{centis // 360_000}:{centis // 6000 % 60:02d}:{centis // 100 % 60:02d}.{centis % 100:02d}"


def script_to_ass(project: Project, *, speaker_prefix: bool = False, gap_s: float | None = None,
                  source: bool = False, notes: list[str] | None = None) -> str:
    """The script as ASS (Advanced SubStation Alpha), the same cues as :func:`script_to_srt`: each
    Dialogue's speaker in its Name field (not shown on screen; ``speaker_prefix`` also puts
    "Name: " in the text), its rows joined by ``\\N``, one Default style."""
    rows = [
        "[Script Info]", f"Title: {project.title}".replace("\n", " "), "ScriptType: v4.00+", "WrapStyle: 0",
        "PlayResX: 1920", "PlayResY: 1080", "",
        "[V4+ Styles]",
        "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, "
        "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, "
        "MarginR, MarginV, Encoding",
        "Style: Default,Arial,64,&H00FFFFFF,&H000000FF,&H00000000,&H64000000,0,0,0,0,100,100,0,0,1,3,1,2,60,60,50,1",
        "", "[Events]", "Format: " + ", ".join(ASS_FIELDS),
    ]
    for order, start, end, content, speaker in subtitle_cues(project, speaker_prefix, gap_s, source, notes):
        del order  # ASS has no cue numbers
        name = speaker.replace(",", " ")  # a comma would end the Name field
        text = "\\N".join(row.replace("{", "(").replace("}", ")") for row in content.splitlines())
        rows.append(f"Dialogue: 0,{_ass_time(start)},{_ass_time(end)},Default,{name},0,0,0,,{text}")
    return "\n".join(rows) + "\n"


# --- CSV / TSV --------------------------------------------------------------------------------

# A Chinese team's sheet names its columns in Chinese (角色, 台词, 开始时间, 原文), simplified or
# traditional (臺詞, 開始時間): without them its header row came in as a line, 角色 saying 台词.
_COLUMN_ALIASES = {
    "character": {"character", "speaker", "name", "role", "voice", "actor", "char",
                  "角色", "人物", "说话人", "說話人", "角色名", "配音角色"},
    "text": {"text", "line", "dialogue", "dialog", "content", "subtitle", "script",
             "台词", "臺詞", "台詞", "对白", "對白", "文本", "内容", "內容", "字幕", "译文", "譯文"},
    "start": {"start", "start_time", "starttime", "in", "begin", "from", "start (s)",
              "开始", "開始", "开始时间", "開始時間", "入点", "入點", "起始时间", "起始時間"},
    "end": {"end", "end_time", "endtime", "out", "stop", "to", "end (s)",
            "结束", "結束", "结束时间", "結束時間", "出点", "出點"},
    "source": {"source", "source_text", "original", "原文"},  # what a translated line was in the original
    "draft": {"draft", "草稿"},
    "language": {"language", "lang", "语言", "語言"},  # a line's own language (Line.language), a code
}
# A draft cell: "yes" marks a machine translation to check (what the export writes), empty is checked.
DRAFT_MARKS: dict[str, bool] = {"yes": True, "y": True, "true": True, "1": True, "x": True,
                                "": False, "no": False, "n": False, "false": False, "0": False}
DRAFT_YES = "yes"
TAB_SEPARATED = (".tsv", ".tab")
SNIFF_CHARS = 64 * 1024  # the delimiter is guessed from the first 20 lines within this many characters


def _sniff_dialect(text: str, name: str) -> type[csv.Dialect] | csv.Dialect:
    if name.lower().endswith(TAB_SEPARATED):
        return csv.excel_tab
    lines = text[:SNIFF_CHARS].split("\n")[:20]  # the Sniffer's patterns took 9 s over a 20 MB first line
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=",\t;|")
    except csv.Error:
        first = next((ln for ln in lines if ln.strip()), "")
        return csv.excel_tab if "\t" in first else csv.excel


def _header_map(row: list[str]) -> dict[str, int] | None:
    cells = [cell.strip().casefold() for cell in row]
    mapping: dict[str, int] = {}
    for key, aliases in _COLUMN_ALIASES.items():
        for n, cell in enumerate(cells):
            if cell in aliases and key not in mapping:
                mapping[key] = n
    return mapping if "text" in mapping else None


def _csv_dialect(text: str, name: str, delimiter: str | None) -> type[csv.Dialect] | csv.Dialect:
    """The delimiter given, else the one sniffed from ``, ; | TAB``."""
    if delimiter:
        class _Given(csv.excel):
            pass

        _Given.delimiter = delimiter
        return _Given
    return _sniff_dialect(text, name)


def _csv_rows(text: str, dialect: type[csv.Dialect] | csv.Dialect, shown: str) -> Iterator[tuple[int, list[str]]]:
    """The rows that are not blank, each with the line it starts on."""
    reader = csv.reader(io.StringIO(text), dialect, strict=True)
    row_start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            if str(error).startswith("field larger than field limit"):  # stopped as it passed the limit
                raise _too_long("a field", row_start, shown) from None
            raise ImportFormatError(Phrase(phrases.MALFORMED_CSV_ROW, error=str(error)), line_no=row_start,
                                    source=shown) from error
        line_no, row_start = row_start, reader.line_num + 1
        if any(cell.strip() for cell in row):
            yield line_no, row


def _sheet_time(raw: str, project: Project) -> float:
    """A sheet's time cell: :func:`parse_time`'s forms, or a frame timecode read by the video's
    frame rate."""
    if not is_frame_timecode(raw):
        return parse_time(raw)
    if project.video is None or not project.video.fps:
        raise ValueError(Phrase(phrases.FRAMES_WITHOUT_VIDEO, text=repr(raw)))
    return parse_frame_timecode(raw, project.video.fps)


def _add_csv_row(builder: _Builder, row: list[str], columns: dict[str, int], line_no: int, shown: str) -> None:
    """One row as a line (a row without text is skipped with a warning)."""

    def cell(key: str) -> str:
        index = columns.get(key) if columns else None
        return row[index].strip() if index is not None and index < len(row) else ""

    if "character" in columns and len(row) <= columns["text"]:
        raise ImportFormatError(
            Phrase(phrases.TOO_FEW_COLUMNS, expected=columns["text"] + 1, found=len(row)),
            line_no=line_no,
            source=shown,
        )
    body = cell("text")
    times: list[float | None] = []
    for key in ("start", "end"):
        raw = unicodedata.normalize("NFKC", cell(key))  # typed with a full-width IME: ００：００：０１，５００
        try:
            times.append(_sheet_time(raw, builder.project) if raw else None)
        except ValueError as error:
            code = ErrorCode.TIME_RANGE if isinstance(error, TimeRangeError) else None
            refusal = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], Phrase) else str(error)
            raise ImportFormatError(Phrase(phrases.BAD_START_TIME if key == "start" else phrases.BAD_END_TIME,
                                           error=refusal), line_no=line_no, source=shown, code=code) from None
    start, end = times
    _check_times(start, end, "the row", line_no, shown)
    if not body:
        builder.warnings.append(Phrase(phrases.SKIPPED_ROW, file=file_label(shown), line=line_no))
        return
    mark = cell("draft").casefold()
    if mark not in DRAFT_MARKS:
        raise ImportFormatError(Phrase(phrases.BAD_DRAFT_MARK, quoted=repr(cell("draft")[:20]), yes=DRAFT_YES),
                                line_no=line_no, source=shown)
    language = language_code(cell("language")) or None
    if language is not None and language not in LANGUAGES:
        raise ImportFormatError(Phrase(phrases.BAD_LANGUAGE_CELL, quoted=repr(cell("language")[:20]),
                                       codes=", ".join(LANGUAGES)), line_no=line_no, source=shown)
    speaker = cell("character") or None
    if speaker is None:
        speaker, body = split_speaker(body)
    builder.add(speaker, body, start, end, source_text=cell("source"), draft=DRAFT_MARKS[mark], language=language)


def import_csv(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
    delimiter: str | None = None,
    default_character: str | None = None,
) -> ScriptImport:
    """Read CSV/TSV: columns character, text and optionally start and end.

    A header row is optional (recognised by a ``text`` column and friends; its column names
    then decide the order, and only with one are ``source``, ``draft`` and ``language`` read: the
    original a translated line came from, whether it is still a draft, and the line's own language
    when not its character's, as the export writes them).
    The delimiter is sniffed from ``, ; | TAB`` unless given. Times are seconds or
    ``HH:MM:SS,mmm``. Blank rows are skipped.
    """
    text, name = _read(source, encoding)
    shown = name or "input"
    dialect = _csv_dialect(text, name, delimiter)
    csv.field_size_limit(MAX_LINE_CHARS)  # the csv module's limit is process-wide; CSV is read only here
    builder = _Builder(project, default_character)
    columns: dict[str, int] | None = None
    for line_no, row in _csv_rows(text, dialect, shown):
        if columns is None:
            columns = _header_map(row)
            if columns is not None:
                continue
            columns = {"character": 0, "text": 1, "start": 2, "end": 3}
        _add_csv_row(builder, row, columns, line_no, shown)
    return builder.result(name)


# --- plain scripts ----------------------------------------------------------------------------


def import_plain(
    source: Source,
    project: Project,
    *,
    encoding: str | None = None,
) -> ScriptImport:
    """Read a plain script: ``Name: line`` (or ``[Name] line``) per line.

    Blank lines and lines starting with ``#`` are ignored; an indented line continues the
    previous one (screenplay-style wrapping). Any other line without a speaker is an error,
    because silently giving it to nobody would lose who says it.
    """
    text, name = _read(source, encoding)
    shown = name or "input"
    builder = _Builder(project, None)
    not_said: list[int] = []
    for line_no, raw in enumerate(text.split("\n"), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if _NOT_SAID.match(raw):
            not_said.append(line_no)
            continue
        raw = _LINE_NUMBER.sub("", raw, count=1)
        if raw[:1].isspace() and builder.lines:
            previous = builder.lines[-1]
            previous.text = f"{previous.text} {raw.strip()}"
            if len(previous.text) > MAX_LINE_CHARS:
                raise _too_long("the line with its continuations", line_no, shown)
            continue
        speaker, body = split_speaker(raw)
        named = _CORNER_SPEAKER.match(raw) or _TAB_SPEAKER.match(raw) if speaker is None else None
        if named is not None and len(named.group(1).split()) <= 4:
            speaker, body = compact_name(named.group(1)), named.group(2).strip()
        if speaker is None:
            raise ImportFormatError(
                Phrase(phrases.EXPECTED_NAME_LINE, quoted=repr(raw.strip()[:60])), line_no=line_no, source=shown
            )
        if len(body) > MAX_LINE_CHARS:
            raise _too_long(f"the line ({len(body):,} characters)", line_no, shown)
        builder.add(speaker, body)
    if not builder.lines:
        raise ImportFormatError(Phrase(phrases.NO_SCRIPT_LINES), source=shown)
    if not_said:
        builder.warnings.append(phrases.counted(len(not_said), phrases.SKIPPED_HEADING, phrases.SKIPPED_HEADINGS,
                                                file=file_label(name), lines=_listed(not_said)))
    return builder.result(name)


# --- export -----------------------------------------------------------------------------------


def _speaker_name(project: Project, line: Line) -> str:
    if line.character_id is None:
        return ""
    return project.character(line.character_id).name


def subtitle_cues(project: Project, speaker_prefix: bool, gap_s: float | None, source: bool,
                  notes: list[str] | None = None) -> list[tuple[int, float, float, str, str]]:
    """(order, start, end, wrapped text, speaker) of every line, timed by the shared timeline.
    Without ``speaker_prefix`` (a delivery) a line too long for its language's two rows is shown
    as several cues in turn, two rows each (:func:`_pages`), all with the line's order.

    With a video, no cue runs past its end (a client's QC refuses a subtitle after the last
    picture): a cue that ends after it ends there, one that starts at or after it is left out;
    ``notes`` (an export's) gets one sentence for each, naming the lines."""
    cues = []
    by_id = {line.id: line for line in project.lines}
    video_end = project.video.duration_s if project.video is not None else math.inf
    cut: list[int] = []
    dropped: list[int] = []
    for slot in build_timeline(project, gap_s):
        if slot.start >= video_end:
            dropped.append(slot.order)
            continue
        if slot.end > video_end:
            cut.append(slot.order)
        line = by_id[slot.line_id]
        speaker = _speaker_name(project, line)
        text = (line.source_text or line.text) if source else line.text
        # Wrapped to the line length of the text's language (42 in English, 16 in Chinese): the
        # line's own (app.project.model.spoken_language), the original dialogue's for its source text.
        rules = rules_for(line_language(project.language, text) if source else project.spoken_language(line))
        # The name as the language writes it: "Maya: text", "林晓雨：台词" (its own colon, no space).
        colon = dict(rules.own_marks).get(":", ":") + (" " if rules.spaced else "")
        content = f"{speaker}{colon}{text}" if speaker_prefix and speaker else text
        rows = wrap_subtitle(content, rules)
        end = min(slot.end, video_end)
        if speaker_prefix:  # a script saved as subtitles: one cue a line, so it imports back as the same lines
            cues.append((slot.order, slot.start, end, "\n".join(rows), speaker))
            continue
        for start, page_end, page in _pages(rows, rules.subtitle_lines, slot.start, end):
            cues.append((slot.order, start, page_end, "\n".join(page), speaker))
    if notes is not None:
        for orders, phrase in ((cut, phrases.CUES_CUT_AT_VIDEO_END), (dropped, phrases.CUES_AFTER_VIDEO_END)):
            if orders:
                notes.append(Phrase(phrase, orders=_listed(orders), end=video_end))
    return cues


def _pages(rows: list[str], most: int, start: float, end: float) -> list[tuple[float, float, list[str]]]:
    """A delivered cue's rows, ``most`` at a time (two in every language's guide: a client's QC
    refuses a third), one after another over ``start``-``end``, each for a time in proportion to
    its characters: a 62-character Chinese line showed as one cue of four rows over the picture."""
    pages = [rows[at:at + most] for at in range(0, len(rows), most)]
    if len(pages) == 1:
        return [(start, end, rows)]
    sizes = [sum(len(row) for row in page) for page in pages]
    bounds = [start]
    for size in sizes[:-1]:
        bounds.append(round(bounds[-1] + (end - start) * size / sum(sizes), 3))
    bounds.append(end)
    return [(bounds[n], bounds[n + 1], page) for n, page in enumerate(pages)]


def _listed(items: Sequence[object], shown: int = 10) -> str:
    """Line numbers or times for a sentence: the first ``shown``, then an ellipsis."""
    return ", ".join(map(str, items[:shown])) + (", …" if len(items) > shown else "")


def script_to_srt(project: Project, *, speaker_prefix: bool = True, gap_s: float | None = None,
                  source: bool = False, notes: list[str] | None = None) -> str:
    """The script as SRT, timed by the shared timeline (final durations from takes).

    With ``speaker_prefix`` each subtitle reads ``Name: text`` so importing it back restores
    the characters (a script saved as SRT); a delivered subtitle file leaves it out. With
    ``source`` the subtitles hold each line's source text (the original a translation came
    from; the line's text where it has none), timed the same.
    """
    subtitles = [srt.Subtitle(index=number, start=_timedelta(start), end=_timedelta(end), content=content)
                 for number, (_order, start, end, content, _speaker)
                 in enumerate(subtitle_cues(project, speaker_prefix, gap_s, source, notes), 1)]
    return cast(str, srt.compose(subtitles, reindex=False))  # srt is untyped


def script_to_vtt(project: Project, *, speaker_prefix: bool = False, gap_s: float | None = None,
                  source: bool = False, notes: list[str] | None = None) -> str:
    """The script as WebVTT, the same cues as :func:`script_to_srt` (without names by default)."""
    blocks = ["WEBVTT\n"]
    cues = subtitle_cues(project, speaker_prefix, gap_s, source, notes)
    for number, (_order, start, end, content, _speaker) in enumerate(cues, 1):
        # A blank line ends a cue and "-->" starts a timing line: neither may be in the text.
        text = "\n".join(part for part in content.replace("-->", "->").splitlines() if part.strip())
        blocks.append(f"{number}\n{_vtt_time(start)} --> {_vtt_time(end)}\n{text}\n")
    return "\n".join(blocks)


def _vtt_time(seconds: float) -> str:
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def _timedelta(seconds: float) -> datetime.timedelta:
    return datetime.timedelta(milliseconds=round(seconds * 1000))


def script_to_csv(project: Project, *, delimiter: str = ",") -> str:
    """The script as CSV with a header: character, text, start, end, duration (and source,
    draft when a line was translated: its original text beside it, for a translator; and language
    when a line is in another language than its character's, :attr:`Line.language`).

    start/end are the lines' own timecodes (empty when unset), so a CSV round trip keeps
    exactly what the user entered; duration is the chosen take's, for reference.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    translated = has_source_text(project)
    own_languages = any(line.language for line in project.lines)
    writer.writerow(["character", "text", "start", "end", "duration"] + (["source", "draft"] if translated else [])
                    + (["language"] if own_languages else []))
    for line in project.lines:
        duration = project.duration(line)
        writer.writerow(
            [
                _speaker_name(project, line),
                line.text,
                "" if line.start is None else format_timecode(line.start, "."),
                "" if line.end is None else format_timecode(line.end, "."),
                "" if duration is None else f"{duration:.3f}",
            ]
            + ([line.source_text, DRAFT_YES if line.draft else ""] if translated else [])
            + ([line.language or ""] if own_languages else [])
        )
    return buffer.getvalue()


def has_source_text(project: Project) -> bool:
    """Whether any line keeps an original beside its text (a transcription's translation)."""
    return any(line.source_text for line in project.lines)


def write_text_export(path: str | os.PathLike[str], text: str, *, inside: Path | None = None) -> Path:
    """Write an export atomically as UTF-8 (no BOM); returns the path written."""
    return atomic_write_text(Path(path), text, inside=inside)


def export_script(project: Project, path: str | os.PathLike[str]) -> Path:
    """Write the script to ``path`` in the format its extension names (see :data:`SCRIPT_FORMATS`)."""
    fmt = script_format_for(path)
    suffix = Path(path).suffix.lower()
    if fmt.writer is None:
        *others, last = [f.extensions[0] for f in SCRIPT_FORMATS if f.writer is not None]
        writable = f"{', '.join(others)} or {last}"
        raise ExportError(Phrase(phrases.CANNOT_EXPORT_SCRIPT_AS, suffix=suffix or Phrase(phrases.NO_EXTENSION), writable=writable))
    inside = bound_to(project.root, Path(path))  # in the project folder: must stay inside it
    return write_text_export(path, fmt.writer(project, suffix), inside=inside)


# --- the formats ------------------------------------------------------------------------------

Reader = Callable[..., ScriptImport]  # (source, project, *, encoding=None, ...) -> ScriptImport
Writer = Callable[[Project, str], str]  # (project, the file's extension) -> the file's text


@dataclass(frozen=True)
class ScriptFormat:
    """A script file format: the file names it is picked by, its label, how to read it and,
    where it can be written, how to write it. The import menu, the file dialogs' filters,
    detection by extension and :func:`export_script` all read :data:`SCRIPT_FORMATS`."""

    name: str  # "srt": the studio's import action is import_<name>
    label: str  # the import menu's words
    filter_name: str  # the file dialog's words for these files
    extensions: tuple[str, ...]  # lower case with the dot; detection by extension reads these
    reader: Reader
    writer: Writer | None = None
    also_opens: tuple[str, ...] = ()  # in its own dialog only: names detection gives to another format
    fallback: bool = False  # read a file whose extension no format claims

    @property
    def file_filter(self) -> str:
        """The Qt file-dialog filter, e.g. ``Subtitles (*.srt);;All files (*)``: a file named
        otherwise is still read as this format when the user picks it here."""
        patterns = " ".join(f"*{extension}" for extension in (*self.extensions, *self.also_opens))
        return f"{self.filter_name} ({patterns});;All files (*)"


# Excel reads a CSV without a byte-order mark in the system's legacy code page (GBK on a Chinese
# Windows), so every Chinese line of the file came out garbled; with the mark it reads UTF-8.
_UTF8_BOM = "\ufeff"


def _csv_text(project: Project, suffix: str) -> str:
    return _UTF8_BOM + script_to_csv(project, delimiter="\t" if suffix in TAB_SEPARATED else ",")


SCRIPT_FORMATS: tuple[ScriptFormat, ...] = (
    ScriptFormat("srt", QT_TRANSLATE_NOOP("formats", "Subtitles (SRT)…"), "Subtitles", (".srt",), import_srt,
                 lambda project, _suffix: script_to_srt(project)),
    ScriptFormat("vtt", QT_TRANSLATE_NOOP("formats", "Subtitles (WebVTT)…"), "WebVTT subtitles", (".vtt",), import_vtt,
                 lambda project, _suffix: script_to_vtt(project, speaker_prefix=True)),
    ScriptFormat("ass", QT_TRANSLATE_NOOP("formats", "Subtitles (ASS/SSA)…"), "ASS or SSA subtitles", (".ass", ".ssa"), import_ass,
                 lambda project, _suffix: script_to_ass(project)),
    ScriptFormat("sbv", QT_TRANSLATE_NOOP("formats", "Subtitles (YouTube SBV)…"), "YouTube SBV subtitles", (".sbv",),
                 import_sbv),
    ScriptFormat("lrc", QT_TRANSLATE_NOOP("formats", "Lyrics (LRC)…"), "LRC lyrics", (".lrc",), import_lrc),
    # Spreadsheets save tab-separated text as .txt, so the CSV dialog offers those too.
    ScriptFormat("csv", QT_TRANSLATE_NOOP("formats", "CSV / TSV…"), "CSV or TSV", (".csv", *TAB_SEPARATED), import_csv, _csv_text,
                 also_opens=(".txt",)),
    ScriptFormat("script", QT_TRANSLATE_NOOP("formats", "Plain script (Name: line)…"), "Script", (".txt", ".md", ".fountain"), import_plain,
                 fallback=True),
)


def script_format_for(path: str | os.PathLike[str]) -> ScriptFormat:
    """The format a file's extension names; the fallback (plain script) for any other."""
    suffix = Path(path).suffix.lower()
    return next((f for f in SCRIPT_FORMATS if suffix in f.extensions), next(f for f in SCRIPT_FORMATS if f.fallback))


def script_format(name: str) -> ScriptFormat:
    """The format called ``name`` ("srt", "csv", "script")."""
    for fmt in SCRIPT_FORMATS:
        if fmt.name == name:
            return fmt
    raise InvalidValueError(Phrase(phrases.UNKNOWN_SCRIPT_FORMAT, name=repr(name),
                                      choices=", ".join(f.name for f in SCRIPT_FORMATS)))


SUBTITLE_FORMATS = ("srt", "vtt", "ass", "sbv")
"""The formats of timed subtitles, which a new project's ``--subtitles`` file may be in."""
SUBTITLE_EXTENSIONS = tuple(extension for f in SCRIPT_FORMATS if f.name in SUBTITLE_FORMATS for extension in f.extensions)
SUBTITLE_FILE_FILTER = f"Subtitles ({' '.join('*' + extension for extension in SUBTITLE_EXTENSIONS)});;All files (*)"


TIMED_SHEETS = ("csv",)
"""A sheet whose rows may carry times (character, text, start, end): a new project's
``--subtitles`` may be one too, as a team's Excel export is (it was read as SRT and refused)."""


def import_subtitles(source: str | os.PathLike[str], project: Project) -> ScriptImport:
    """Read a subtitle file as its extension names it (SRT, WebVTT, ASS/SSA, SBV, or a CSV/TSV
    sheet); any other name (字幕.txt) is read as SRT, the commonest, whose parser then names the
    line it cannot read."""
    suffix = Path(source).suffix.lower()
    fmt = next((f for f in SCRIPT_FORMATS if f.name in (*SUBTITLE_FORMATS, *TIMED_SHEETS) and suffix in f.extensions),
               script_format("srt"))
    return fmt.reader(source, project)


def import_script(source: str | os.PathLike[str], project: Project, **options: object) -> ScriptImport:
    """Read a script file with the importer its extension names (see :func:`script_format_for`)."""
    return script_format_for(source).reader(source, project, **options)
