"""The project model: characters, script lines, takes, settings and the video, and the folder
that holds them.

A project is a folder that can be zipped and shared::

    project.json   the model (app.project.codec writes and reads it), written atomically
    voices/        reference clips, copied in on import so the folder is self-contained
    takes/         every rendered take as WAV, kept when a line is re-rendered
    exports/       mixes, stems, per-line WAVs, subtitles and the finished video
    media/         the video being dubbed (when copied in) and its original audio (guide track)

The model is plain dataclasses with no Qt, so the headless ``dubstudio render`` command and
the studio share it; :class:`app.project.project.Project` holds the parts of one project.
Edits the user makes go through :mod:`app.project.undo` (so they can be undone); only the
render session writes render results (takes, status) directly, because rendered audio on disk
is not something "undo" should delete.
"""

from __future__ import annotations

import datetime as _dt
import enum
import hashlib
import json
import re
import uuid
from dataclasses import dataclass, field

from app.project import phrases
from app.project.errors import InvalidValueError
from app.project.fsutil import check_relative
from app.project.phrases import Phrase
from app.project.timecode import TimeRangeError, check_time, format_clock
from engine.core.chinese_forms import simplified
from engine.core.codes import ErrorCode
from engine.core.languages import LANGUAGES, line_language
from engine.core.numbers import Range, RangeError, ranges
from engine.core.protocol import DEFAULT_BACKEND, SPEED, VoiceSettings, speaking_backend
from engine.hearing.chinese import CHINESE_SCRIPTS, DEFAULT_SCRIPT
from engine.hearing.clips import MIN_CLIP_S, MIN_PURITY
from engine.hearing.qa.checks import QaThresholds, TakeChecks
from engine.translation.lines import UNITS, measure

PROJECT_FILE = "project.json"
VOICES_DIR = "voices"
TAKES_DIR = "takes"
EXPORTS_DIR = "exports"
MEDIA_DIR = "media"
CACHE_DIR = ".cache"  # regenerable files (trimmed clips); safe to leave out of a shared zip

PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
    "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""What an id may be. Ids become parts of file names (``takes/<line>_<take>.wav``), so a crafted
id like ``../../tmp/x`` must never load."""


def new_id() -> str:
    """A short random id; unique enough within one project and readable in project.json."""
    return uuid.uuid4().hex[:12]


def check_id(value: str, what: str) -> str:
    """``value`` when it is a valid id (letters, digits, ``_-``; 1-64); InvalidValueError (E_BAD_ID) otherwise."""
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise InvalidValueError(
            Phrase(phrases.BAD_ID, what=what, value=repr(value)),
            ErrorCode.BAD_ID,
        )
    return value


def now_iso() -> str:
    """Now, in UTC, as ISO 8601 (take timestamps)."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


class LineStatus(str, enum.Enum):
    """What the table shows for a line. STALE is derived, never stored (see Project.status)."""

    NOT_RENDERED = "not_rendered"
    QUEUED = "queued"
    RENDERING = "rendering"
    DONE = "done"
    FAILED = "failed"
    STALE = "stale"


# Statuses a render in progress sets; a file saved mid-render is reopened without them.
TRANSIENT_STATUSES = frozenset({LineStatus.QUEUED, LineStatus.RENDERING})


def name_key(name: str) -> str:
    """What two names of one character share: case and Chinese script aside (小紅 in a Taiwanese
    subtitle file is the 小红 a user types, Maya is MAYA)."""
    return simplified(name.strip()).casefold()


_DEFAULT_NAMES = tuple(re.compile(re.escape(template).replace(re.escape("{number}"), r"(\d+)"), re.IGNORECASE)
                       for template in (phrases.SPEAKER_N, *phrases.SPEAKER_N_TRANSLATED))


def default_speaker_number(name: str) -> int | None:
    """N when ``name`` is the name a transcription gives the N-th voice it finds ("Speaker 2",
    "说话人 2": in any of the studio's languages), else None. Such a name says nothing of who
    speaks: a cast library's "Speaker 1" and a project's are two voices until matched by ear."""
    for pattern in _DEFAULT_NAMES:
        if (found := pattern.fullmatch(name.strip())) is not None:
            return int(found.group(1))
    return None


def same_name(first: str, second: str) -> bool:
    """Whether two names name one character (:func:`name_key`); default names are one name in
    every language ("Speaker 2" is "说话人 2"), as a library made on the command line and the
    Chinese studio's project call one voice."""
    number = default_speaker_number(first)
    if number is not None:
        return number == default_speaker_number(second)
    return name_key(first) == name_key(second)


def default_name_in(name: str, speaker_name: str) -> str:
    """``name`` with a default one said with ``speaker_name`` (SPEAKER_N or the studio's
    translation of it, "说话人 {number}"), its number kept: a real name is who it is, as it was."""
    number = default_speaker_number(name)
    return name if number is None or "{number}" not in speaker_name else speaker_name.format(number=number)


def said_name(name: str) -> str:
    """``name`` to show: a default one as the phrase SPEAKER_N, which the studio says in its language
    (a library's "Speaker 2" is "说话人 2" in the Chinese studio); a real name as it is."""
    number = default_speaker_number(name)
    return name if number is None else Phrase(phrases.SPEAKER_N, number=number)


@dataclass
class Character:
    """A voice: name, colour, reference clip (project-relative) with trim, and settings."""

    id: str
    name: str
    colour: str = PALETTE[0]
    clip: str | None = None  # relative to the project folder, usually voices/<file>
    clip_start: float = 0.0  # trim, seconds into the clip
    clip_end: float | None = None  # None = to the end of the clip
    transcript: str = ""  # what is said in the (trimmed) clip; helps cloning backends
    transcript_heard: bool = False  # the transcript was heard from the clip (engine.hearing.qa.transcripts), not typed
    # How much more the clip, cut from the video, sounds like this character than like any other
    # (engine.hearing.clips.clip_purity, a cosine margin); None for a clip from elsewhere.
    clip_purity: float | None = None
    settings: VoiceSettings = field(default_factory=VoiceSettings)  # speed, pitch, instruction, language

    @property
    def trimmed(self) -> bool:
        return self.clip_start > 0 or self.clip_end is not None


MIN_CLIP_PURITY = MIN_PURITY  # a purer clip is one voice
MIN_CLIP_WARN_S = MIN_CLIP_S  # a shorter reference clip clones worse


def clip_warning(purity: float | None, seconds: float | None) -> str | None:
    """What the Characters panel warns of for a clip of this purity and length (either unknown:
    None), or None when there is nothing to say."""
    problems = []
    if purity is not None and purity < MIN_CLIP_PURITY:
        problems.append(f"it may hold another voice (purity {purity:+.2f}, under {MIN_CLIP_PURITY:.2f})")
    if seconds is not None and seconds < MIN_CLIP_WARN_S:
        problems.append(f"it is short ({seconds:.1f} s; {MIN_CLIP_WARN_S:.0f} s or more clones better)")
    return "The clip " + " and ".join(problems) + "." if problems else None


@dataclass(frozen=True)
class Fit:
    """What fitting a take into its slot did (see app.project.fit).

    ``rate`` is how much faster the re-synthesized speech is than the natural take (its
    natural length over its fitted length, what a listener hears; the engine's speed setting
    that produced it may be a little higher), ``stretch`` the time-stretch factor applied
    after that (1.0 = none; >1 shortens), ``natural_s`` the spoken length before fitting and
    ``slot_s`` the slot it was fitted into. The table and timeline show :meth:`describe`.
    """

    rate: float = 1.0
    stretch: float = 1.0
    natural_s: float = 0.0
    slot_s: float = 0.0

    def describe(self) -> str:
        """``"fitted: rate 1.12×"``, ``"fitted: rate 1.25× + stretch 1.08×"``, or, for a take
        that fitted by running on into the silence after its line, ``"fitted: into the silence"``."""
        return Phrase(phrases.FITTED, how=self.how())

    def how(self) -> Phrase:
        """How the take was fitted, without the "fitted: " before it (the Fit column's text)."""
        if self.rate <= 1.0005 and self.stretch <= 1.0005:
            return Phrase(phrases.FIT_INTO_SILENCE)
        if self.stretch > 1.0005:
            return Phrase(phrases.FIT_RATE_STRETCH, rate=self.rate, stretch=self.stretch)
        return Phrase(phrases.FIT_RATE, rate=self.rate)


@dataclass(frozen=True)
class Take:
    """One rendered version of a line, with the fingerprint of what produced it.

    ``fit`` is set when the take was fitted into its slot (faster rate, maybe a stretch); the
    fingerprint stays the line's own, since fitting follows the slot, not the voice.
    ``loudness_lufs`` is the integrated loudness (ITU-R BS.1770; None when the take is too
    short to measure) and ``true_peak_dbtp`` the 4× oversampled peak, both measured when the
    take is written; the mixer normalises dialogue with them.
    """

    id: str
    path: str  # relative, takes/<line>_<take>.wav
    fingerprint: str  # see render_fingerprint(); "" when unknown (migrated takes)
    created: str = ""  # ISO 8601, UTC
    duration_s: float = 0.0
    sample_rate: int = 0
    backend: str = ""
    text: str = ""  # the text that was spoken, shown when choosing between takes
    fit: Fit | None = None
    loudness_lufs: float | None = None
    true_peak_dbtp: float | None = None
    qa: TakeChecks | None = None  # what take QA measured (app.project.qa); None = not checked yet
    variant: int = 0  # the reading (engine.core.protocol.Job.variant): the same one is the same audio


@dataclass
class Line:
    """One script line. ``status`` holds the last render outcome; use Project.status() to show it."""

    id: str
    text: str
    character_id: str | None = None
    start: float | None = None  # seconds into the video; None = follows the previous line
    end: float | None = None
    takes: list[Take] = field(default_factory=list)
    chosen_take: str | None = None
    status: LineStatus = LineStatus.NOT_RENDERED
    error: str = ""  # the last render error, "CODE: message"
    fit: bool | None = None  # fit the take into its slot; None = the project's default
    # Delivery of this line alone, over the character's: None (and "" for none set) keeps the character's.
    speed: float | None = None
    instruction: str | None = None
    source_text: str = ""  # the line as said in the original, kept when ``text`` is a translation
    draft: bool = False  # a machine translation nobody has checked yet
    budget: LineBudget | None = None  # how much the slot holds, set when the line was translated
    # The language the line is in when not its character's (a Mandarin speaker's one English
    # sentence): a code of engine.core.languages.LANGUAGES; None follows the character.
    language: str | None = None


@dataclass(frozen=True)
class LineBudget:
    """What a translation had to fit: at most ``limit`` ``unit`` (letters or characters) in the
    line's slot, how long the translator's first answer was, and whether it was asked for a
    shorter one. Whether the line fits now is measured on its text as it is (a person may edit it)."""

    limit: int
    unit: str
    first_length: int
    shortened: bool = False

    def length(self, text: str) -> int:
        return measure(text, self.unit)

    def fits(self, text: str) -> bool:
        return self.length(text) <= self.limit


GUIDE_MIXES = ("replace", "music-effects", "duck")
"""How the original audio enters the dub mix: left out (the dub only); its music and effects
under the dub, the original dialogue taken out (app.project.music_effects); or kept whole
under the dialogue, ducked."""

MUSIC_EFFECTS_SOURCES = ("channels", "model")
"""Where the music and effects come from when the project has no client stem: the source's own
channels (its centre dropped or filtered out), or a downloaded separation model
(engine.hearing.separation) that hears the voices and takes them out (app.project.music_effects)."""

LOUDNESS_PRESETS: dict[str, float] = {"ebu-r128": -23.0, "web": -16.0}
"""Named integrated-loudness targets (LUFS): EBU R128 broadcast, and web/streaming."""

PROJECT_SETTING_RANGES = ranges(
    Range("gap_s", 0.0, 60.0, unit="s"),
    Range("fit_max_rate", 1.0, 2.0, unit="×"),
    Range("fit_max_total", 1.0, 2.0, unit="×", hint="(rate and stretch together)"),
    Range("fit_borrow_s", 0.0, 5.0, unit="s"),
    Range("loudness_target_lufs", -40.0, -5.0, unit="LUFS"),
    Range("true_peak_dbtp", -12.0, 0.0, unit="dBTP"),
    Range("guide_gain_db", -60.0, 12.0, unit="dB"),
    Range("duck_db", -60.0, 0.0, unit="dB"),
    Range("duck_attack_s", 0.0, 2.0, unit="s"),
    Range("duck_release_s", 0.0, 5.0, unit="s"),
    code=ErrorCode.INVALID_VALUE,
)
"""The numbers each of :class:`ProjectSettings`' numeric fields takes (its ``validate`` and
the Project settings dialog read them)."""


@dataclass
class ProjectSettings:
    """Per-project settings that affect rendering and export.

    Fit: ``fit_default`` fits every line whose own ``fit`` is None; a fit first re-synthesizes
    faster (up to ``fit_max_rate``, default 1.25×, past which speech sounds rushed), then
    time-stretches the rest, never past ``fit_max_total`` (rate × stretch, default 1.3×); a fitted
    line with an end timecode may first run on into the silence after it, up to ``fit_borrow_s``
    and never past the next line's start (its slot includes that silence). Loudness: dialogue and the mix are normalised to
    ``loudness_target_lufs`` (None = leave levels as rendered) under a true-peak ceiling.
    Guide: with ``guide_mix`` "duck" the original audio plays at ``guide_gain_db`` and dips
    by ``duck_db`` while a line plays, fading over ``duck_attack_s``/``duck_release_s``.
    """

    backend: str = DEFAULT_BACKEND  # the backend takes are expected from; part of the fingerprint
    gap_s: float = 0.3  # silence between lines without timecodes in the mix
    fit_default: bool = False
    fit_max_rate: float = 1.25
    fit_max_total: float = 1.3  # rate x stretch together: past it a line is flagged too long, not squeezed
    fit_borrow_s: float = 0.5  # silence after a line's end a take may run into before the next line
    loudness_target_lufs: float | None = LOUDNESS_PRESETS["ebu-r128"]
    true_peak_dbtp: float = -1.0
    guide_mix: str = "replace"
    music_effects_source: str = "channels"  # MUSIC_EFFECTS_SOURCES, read when guide_mix is "music-effects"
    guide_gain_db: float = 0.0
    duck_db: float = -18.0
    duck_attack_s: float = 0.08
    duck_release_s: float = 0.35
    qa: QaThresholds = field(default_factory=QaThresholds)  # where take QA findings become failures
    chinese_script: str = DEFAULT_SCRIPT  # how transcribed Chinese is written: simplified or traditional

    def validate(self) -> None:
        """Raise InvalidValueError naming the first setting out of its range (with its range's code)."""
        try:
            for name, allowed in PROJECT_SETTING_RANGES.items():
                value = getattr(self, name)
                if value is not None or name != "loudness_target_lufs":
                    allowed.check(value)
            self.qa.validate()
        except RangeError as error:
            raise InvalidValueError(error.message, error.code) from None
        if self.guide_mix not in GUIDE_MIXES:
            raise InvalidValueError(Phrase(phrases.BAD_SETTING_CHOICE, name="guide_mix", choices=", ".join(GUIDE_MIXES),
                                           value=repr(self.guide_mix)))
        if self.music_effects_source not in MUSIC_EFFECTS_SOURCES:
            raise InvalidValueError(Phrase(phrases.BAD_SETTING_CHOICE, name="music_effects_source",
                                           choices=", ".join(MUSIC_EFFECTS_SOURCES),
                                           value=repr(self.music_effects_source)))
        if self.chinese_script not in CHINESE_SCRIPTS:
            raise InvalidValueError(Phrase(phrases.BAD_SETTING_CHOICE, name="chinese_script", choices=", ".join(CHINESE_SCRIPTS),
                                           value=repr(self.chinese_script)))
        if not isinstance(self.fit_default, bool):
            raise InvalidValueError(Phrase(phrases.BAD_FIT_DEFAULT, value=repr(self.fit_default)))


@dataclass(frozen=True)
class AudioStreamInfo:
    """An audio stream of the video, as probed (index is the container's stream index)."""

    index: int
    codec: str
    channels: int
    sample_rate: int
    language: str = ""
    title: str = ""


@dataclass(frozen=True)
class SubtitleStreamInfo:
    """A subtitle stream of the video; only text subtitles (``text``) can be imported."""

    index: int
    codec: str
    text: bool
    language: str = ""
    title: str = ""


@dataclass(frozen=True)
class VideoInfo:
    """The source a project dubs: where it is (project-relative) and what a probe found. A video,
    or a recording with no picture (a radio drama, a podcast, a dialogue stem made before the
    picture is locked: ``dubstudio new --audio``), whose width, height, frame rate and codec are
    0 and "" (:attr:`has_picture`): its sound is the original audio as a video's is.

    The facts are stored so the studio and the exports know the length, frame rate and
    streams without opening the file; :func:`app.project.media.probe_video` fills them.
    """

    path: str  # relative to the project folder (copied into media/, or already inside)
    duration_s: float
    fps: float
    width: int  # as it is shown: a phone's portrait video stored sideways (1920x1080, turned) is 1080x1920
    height: int
    codec: str
    frame_count: int | None = None  # from the container when it says so
    audio_streams: tuple[AudioStreamInfo, ...] = ()
    subtitle_streams: tuple[SubtitleStreamInfo, ...] = ()
    # The audio track that holds the dialogue (a container stream index), when a video carries
    # several (the original and another language's dub); None: the first.
    dialogue_stream: int | None = None

    @property
    def has_picture(self) -> bool:
        """False for an audio-only source: nothing to show, and no finished video to export."""
        return self.width > 0 and self.height > 0

    def dialogue_audio(self) -> AudioStreamInfo | None:
        """The audio track holding the original dialogue: the chosen one, else the first; None
        when the video has no audio. The guide, the transcription, the M&E and the export's
        "Original audio" all come from it."""
        chosen = next((a for a in self.audio_streams if a.index == self.dialogue_stream), None)
        return chosen or (self.audio_streams[0] if self.audio_streams else None)


# --- fingerprints ----------------------------------------------------------------------------


def set_language(line: Line, character_language: str) -> str:
    """The language ``line`` is set in: its own (:attr:`Line.language`), else its character's
    (``character_language``; "" or "auto" when the character has none)."""
    return character_language if line.language is None else line.language


def spoken_language(line: Line, character_language: str) -> str:
    """The language ``line`` is spoken in, the one rule every part reads (the voice that speaks it,
    take QA, timing, subtitles, readiness): the language it is set in (:func:`set_language`), or
    the one its text is written in where that is a script of its own the set language does not
    use (:func:`engine.core.languages.line_language`)."""
    return line_language(set_language(line, character_language), line.text)


def render_fingerprint(text: str, character: Character, clip_digest: str, backend: str,
                       settings: VoiceSettings | None = None) -> str:
    """A hash of everything that decides how a line sounds; ``settings`` is the delivery the
    line is spoken with (default: the character's own, see :meth:`Project.delivery`).

    A take whose fingerprint differs from the line's current one is stale. The character's id
    is included (reassigning a line to another character means another voice even when both
    share a clip); its name and colour are not (renaming changes nothing audible).
    """
    delivery = character.settings if settings is None else settings
    material = {
        "text": text.strip(),
        "character": character.id,
        "clip": clip_digest,
        "transcript": character.transcript.strip(),
        "trim": [round(character.clip_start, 3), None if character.clip_end is None else round(character.clip_end, 3)],
        "speed": round(delivery.speed, 4),
        "pitch": round(delivery.pitch_semitones, 4),
        "instruction": delivery.instruction.strip(),
        "language": delivery.language.strip(),
        "backend": speaking_backend(backend, line_language(delivery.language, text)),
    }
    blob = json.dumps(material, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(blob).hexdigest()[:32]


# --- what every part must satisfy, loaded or edited -------------------------------------------


def validate_character(char: Character) -> None:
    """Everything a character must satisfy, at load and on every edit (InvalidValueError)."""
    check_id(char.id, "character id")
    if char.clip is not None:
        check_relative(char.clip)
    for value, what in ((char.clip_start, "start"), (char.clip_end, "end")):
        if value is not None:
            try:
                check_time(value, f"{char.name}'s clip trim {what}")
            except TimeRangeError as error:
                raise InvalidValueError(error.args[0], ErrorCode.TIME_RANGE) from None  # the range's phrase
    if char.clip_purity is not None and not -2.0 <= char.clip_purity <= 2.0:  # a difference of two cosines
        raise InvalidValueError(Phrase(phrases.BAD_PURITY, name=char.name, value=repr(char.clip_purity)))
    if char.clip_end is not None and char.clip_end < char.clip_start:
        raise InvalidValueError(Phrase(phrases.TRIM_BACKWARDS, name=char.name, end=char.clip_end, start=char.clip_start))
    if char.clip_end is not None and char.clip_end - char.clip_start < 0.1:
        raise InvalidValueError(Phrase(phrases.TRIM_TOO_SHORT, name=char.name))
    if not isinstance(char.settings, VoiceSettings):
        raise InvalidValueError("settings must be a VoiceSettings")
    try:
        char.settings.check()  # the engine's ranges, checked here so a bad value is refused at load
    except RangeError as error:
        raise InvalidValueError(error.message, error.code) from None


def validate_line(line: Line, what: str) -> None:
    """What a line's values must satisfy wherever it comes from: loaded from project.json,
    edited, imported. Each time is one a project may hold and the end is not before the start
    (E_TIME_RANGE); a line's own speed is in the engine's range. InvalidValueError naming
    ``what`` ("line 3", "subtitle 2", "lines[2]") otherwise."""
    for key in ("start", "end"):
        value = getattr(line, key)
        if value is not None:
            try:
                check_time(value, key)
            except TimeRangeError as error:
                raise InvalidValueError(Phrase(phrases.AT_FILE, where=what, problem=error.args[0]), ErrorCode.TIME_RANGE) from None
    if line.start is not None and line.end is not None and line.end < line.start:
        raise InvalidValueError(Phrase(phrases.LINE_BACKWARDS, what=what, end=format_clock(line.end),
                                       start=format_clock(line.start)), ErrorCode.TIME_RANGE)
    if line.speed is not None:
        try:
            SPEED.check(line.speed)
        except RangeError as error:
            raise InvalidValueError(Phrase(phrases.AT_FILE, where=what, problem=error.message), error.code) from None
    budget = line.budget
    if budget is not None and (budget.unit not in UNITS or isinstance(budget.limit, bool)
                               or not isinstance(budget.limit, int) or budget.limit < 1
                               or not isinstance(budget.first_length, int) or budget.first_length < 0):
        raise InvalidValueError(Phrase(phrases.BAD_BUDGET, what=what, units=" or ".join(UNITS), limit=repr(budget.limit),
                                       unit=repr(budget.unit)))
    if line.language is not None and line.language not in LANGUAGES:
        raise InvalidValueError(Phrase(phrases.BAD_LINE_LANGUAGE, what=what, value=repr(line.language),
                                       codes=", ".join(LANGUAGES)))


__all__ = [
    "CACHE_DIR",
    "EXPORTS_DIR",
    "GUIDE_MIXES",
    "LOUDNESS_PRESETS",
    "MEDIA_DIR",
    "PALETTE",
    "PROJECT_FILE",
    "TAKES_DIR",
    "VOICES_DIR",
    "AudioStreamInfo",
    "Character",
    "Fit",
    "Line",
    "LineBudget",
    "LineStatus",
    "ProjectSettings",
    "SubtitleStreamInfo",
    "Take",
    "VideoInfo",
    "new_id",
    "now_iso",
    "render_fingerprint",
    "set_language",
    "spoken_language",
]
