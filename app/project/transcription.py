"""A project's cast and script from its video's own dialogue (``--transcribe``, the studio's
"Transcribe the dialogue").

:func:`transcribe_project` runs :func:`engine.hearing.transcribe.transcribe_media` over the
project's video, then, as one undoable edit (:class:`ReplaceScript`), makes a character
"Speaker N" (each its own colour) per voice heard, one line per line heard, timed from its
words, and stores the language heard. Each speaker's cleanest stretch is cut from the original
into ``voices/`` with its transcript, so a cloning backend can clone the original actor; the
other candidates are kept in ``media/transcript.json`` for the Characters panel's "Choose from
the video", and what they were found from (each window's CAM++ embedding, the level envelope)
in ``media/voiceprints.npz``, so that :func:`clip_candidates` finds a character's stretches
again from the script as it is now, after Split or Merge. With a translator the lines hold the translation, marked as drafts, and keep the
original in ``source_text``.

Clip files are written before the edit and are not removed by undo (like takes: audio on disk
is not something undo deletes). A failure leaves the project as it was: what the transcription
wrote (its clips, the candidates file) is taken back when a later step fails, in
:func:`hear_project` (a clip or the candidates file refused, a cancel) or by the caller whose
save of the edit fails (:meth:`WrittenFiles.take_back`).

Its length (about 625 lines, a little over the ~600 the project aims at) is one pipeline from a
video to a script whose stages share the request and the clean-up of what they write.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as with_fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from app.project import phrases
from app.project.cast import (
    OFFERS_FILE,
    CastLibrary,
    CastMatch,
    CastMember,
    cast_changes,
    cast_characters,
    clip_copier,
    match_project_characters,
    offers_of,
    offers_text,
    open_library,
)
from app.project.errors import (
    InvalidValueError,
    ProjectError,
    SaveError,
    TranscriptionError,
)
from app.project.fsutil import (
    atomic_write_bytes,
    atomic_write_wav,
    ensure_dir,
    relative_to_root,
    safe_filename,
    unique_path,
)
from app.project.model import (
    PALETTE,
    Character,
    Line,
    default_speaker_number,
    new_id,
    spoken_language,
    validate_line,
)
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.timeline import estimate_duration
from app.project.translation import dub_into, restore_languages
from app.project.undo import Change, Command, CommandStack
from engine.core import files
from engine.core.codes import ErrorCode
from engine.core.languages import (
    LANGUAGES,
    detect_language,
    join_pieces,
    language_code,
    rules_for,
)
from engine.core.numbers import Range, RangeError
from engine.core.protocol import EngineError, VoiceSettings
from engine.hearing import HearingError
from engine.hearing import clips as hearing_clips
from engine.hearing import speakers as hearing_speakers
from engine.hearing.lines import Line as HeardLine
from engine.hearing.lines import Word
from engine.hearing.transcribe import (
    Options,
    Transcription,
    WhisperTranslator,
    transcribe_media,
)
from engine.hearing.whisper import DEFAULT_MODEL

if TYPE_CHECKING:
    from faster_whisper import WhisperModel

    from engine.voiceprint.encoder import VoiceEmbedder

# A stretch chosen by hand as a clip (a line's slot, a region of the original-audio track): as
# long as a clip candidate may be, so that it clones well and holds little but the one voice.
VOICE_REGION = Range("voice clip region", hearing_clips.SHORTEST_CANDIDATE_S, hearing_clips.MAX_CLIP_S, unit="s")
AUTO_CLIP_STEM = "speaker-{number}-original"  # in voices/: the clip a transcription cuts for a voice
CUT_CLIP_STEM = "speaker-{number}-cut"  # a clip just cut, before its voice's name is final (casting renames)
AUTO_CLIP = re.compile(r"voices/speaker-\d+-original(_\d+)?\.wav")  # such a clip's path, as unique_path names it
CANDIDATES_FILE = "transcript.json"  # in media/: every speaker's clip candidates
WORDLESS_KEY = "no_words"  # in media/transcript.json: speech the transcription heard no words in
VOICEPRINTS_FILE = "voiceprints.npz"  # in media/: the windows' embeddings and the level envelope (arrays only)
Progress = Callable[[str, float], None]


@dataclass(frozen=True)
class TranscribeRequest:
    """What to transcribe with: the hearing options, the Whisper model (a name or a folder)."""

    options: Options = Options()
    model: str = DEFAULT_MODEL
    device: str = "auto"
    chinese_script: str | None = None  # how Chinese is written; None: the project's setting
    cast_library: str | None = None  # a cast library folder to cast the speakers found from (app.project.cast)
    # What the voices found are called: SPEAKER_N, or the studio's translation of it ("说话人 {number}").
    speaker_name: str = phrases.SPEAKER_N


@dataclass
class WrittenFiles:
    """What a transcription wrote into the project folder: files it made (the clips) and files it
    replaced with what they held before, so that a failure after them takes them back."""

    root: Path
    made: list[Path] = field(default_factory=list)
    replaced: dict[Path, bytes | None] = field(default_factory=dict)  # None: there was no such file

    def replace_text(self, path: Path, text: str) -> None:
        """Write ``text`` over ``path`` atomically, keeping what a regular file there held."""
        self.replace_bytes(path, text.encode("utf-8"))  # a link or a non-regular file there is refused

    def replace_bytes(self, path: Path, data: bytes) -> None:
        """Write ``data`` over ``path`` atomically, keeping what a regular file there held."""
        try:
            before = files.read_regular_file(path) if path.is_file() and not path.is_symlink() else None
        except files.FileError as error:
            raise SaveError(error.message, error.code) from error
        atomic_write_bytes(path, data, inside=self.root)
        self.replaced.setdefault(path, before)

    def take_back(self) -> None:
        """Remove the files made and put back the ones replaced (best effort: it runs while
        another error is on its way to the user)."""
        for path in self.made:
            path.unlink(missing_ok=True)
        for path, before in self.replaced.items():
            with contextlib.suppress(OSError, ProjectError):
                if before is None:
                    path.unlink(missing_ok=True)
                else:
                    atomic_write_bytes(path, before, inside=self.root)
        self.made.clear()
        self.replaced.clear()


@dataclass
class TranscribedScript:
    """What :func:`transcribe_project` did."""

    transcription: Transcription
    characters: list[Character]
    lines: list[Line]
    command: ReplaceScript  # the edit that puts them in the project (pushed by transcribe_project)
    written: WrittenFiles  # taken back by a caller that cannot keep the edit (its save failed)
    warnings: list[str] = field(default_factory=list)
    cast_matches: list[CastMatch] = field(default_factory=list)  # with a cast library: how each speaker matched
    removed: list[Character] = field(default_factory=list)  # old characters the new script leaves without a voice


class ReplaceScript(Command):
    """The script replaced by a transcription's: old lines out (kept beside the new ones with
    ``keep``), new characters and lines in (by time), the language heard set, and the
    ``dropped`` characters (left without lines, nothing chosen for them by hand) taken out. One
    undo puts the old script and cast back. A line may name a character already in the project
    (a voice that matched it)."""

    def __init__(self, lines: Sequence[Line], characters: Sequence[Character], language: str, *,
                 keep: bool = False, dropped: Sequence[Character] = (), translated_into: str = "",
                 recast: dict[str, dict[str, Any]] | None = None) -> None:
        self.lines, self.characters, self.language, self.keep = list(lines), list(characters), language, keep
        self.dropped_ids = [c.id for c in dropped]
        # Characters already in the project whose voice was heard again and surely is a cast
        # library's character: id -> the fields that make it that character (app.project.cast).
        self.recast = dict(recast or {})
        # Lines translated while heard (Whisper into English): the project then dubs into that
        # language, its characters speaking it, as after any translation (app.project.translation).
        self.translated_into = translated_into
        self.old_lines: list[Line] = []
        self.old_characters: list[Character] = []
        self.old_language = ""
        self.old_target = ""
        self.old_languages: dict[str, str] = {}
        self.text = Phrase(phrases.TRANSCRIBE_DIALOGUE)

    def do(self, project: Project) -> Change:
        known = {c.id for c in project.characters} | {c.id for c in self.characters}
        for line in self.lines:
            if line.character_id not in known or line.character_id in self.dropped_ids:
                raise InvalidValueError(Phrase(phrases.LINE_UNKNOWN_CHARACTER, id=line.id))
            validate_line(line, Phrase(phrases.A_LINE))
        self.old_lines, self.old_language = list(project.lines), project.language
        self.old_characters = list(project.characters)
        project.characters[:] = [with_fields(c, **self.recast[c.id]) if c.id in self.recast else c
                                 for c in project.characters if c.id not in self.dropped_ids] + self.characters
        project.lines[:] = sorted(self.lines + (self.old_lines if self.keep else []), key=lambda line: line.start or 0.0)
        project.language = self.language
        if self.translated_into:
            self.old_target = project.target_language
            self.old_languages = dub_into(project, self.translated_into)
        return Change(frozenset(line.id for line in self.old_lines + self.lines),
                      frozenset(c.id for c in self.characters) | frozenset(self.dropped_ids) | frozenset(self.recast),
                      structure=True, project=True)

    def undo(self, project: Project) -> Change:
        if self.translated_into:
            restore_languages(project, self.old_target, self.old_languages)
        project.characters[:] = self.old_characters
        project.lines[:] = self.old_lines
        project.language = self.old_language
        return Change(frozenset(line.id for line in self.old_lines + self.lines),
                      frozenset(c.id for c in self.characters) | frozenset(self.dropped_ids) | frozenset(self.recast),
                      structure=True, project=True)


def left_without_voice(project: Project, lines: Sequence[Line]) -> list[Character]:
    """The project's characters that a replacing transcription leaves with no line and that a
    transcription made with nothing chosen for them since: named "Speaker N" or holding the
    untrimmed clip a transcription cut (AUTO_CLIP), no other clip, and only the settings a
    transcription gives (a language). A character with a clip chosen by hand (imported, recorded,
    chosen from the video, cast from a library), its own voice settings, or made by hand (another
    name and no clip) is kept, lines or not."""
    speaking = {line.character_id for line in lines}

    def transcribed(character: Character) -> bool:
        auto_clip = character.clip is not None and AUTO_CLIP.fullmatch(character.clip) is not None
        return auto_clip or (character.clip is None and default_speaker_number(character.name) is not None)

    return [c for c in project.characters if c.id not in speaking and transcribed(c) and not c.trimmed
            and c.settings == VoiceSettings(language=c.settings.language)]


def load_model(request: TranscribeRequest) -> WhisperModel:
    """The Whisper model for ``request`` (loaded once per process); E_WHISPER_MODEL_MISSING."""
    from engine.hearing.transcribe import whisper_threads
    from engine.hearing.whisper import load_whisper

    try:
        return load_whisper(request.model, request.device, whisper_threads())  # a core left for the speaker steps
    except EngineError as error:
        raise TranscriptionError(error.message, ErrorCode(error.code.value)) from None


def transcribe_project(
    project: Project,
    stack: CommandStack,
    request: TranscribeRequest = TranscribeRequest(),
    *,
    replace: bool = False,
    keep: bool = False,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    model: WhisperModel | None = None,
    encoder: VoiceEmbedder | None = None,
) -> TranscribedScript:
    """Transcribe the project's video into its characters and script (see the module docstring).

    Refuses a project that has lines unless ``replace`` or ``keep`` (E_SCRIPT_NOT_EMPTY). Raises
    TranscriptionError with the hearing layer's code (E_NO_AUDIO_STREAM, E_NO_SPEECH,
    E_UNKNOWN_LANGUAGE, E_CANCELLED...) before changing anything.
    """
    made = hear_project(project, request, replace=replace, keep=keep, progress=progress, cancel=cancel, model=model,
                        encoder=encoder)
    stack.push(made.command)
    return made


def hear_project(
    project: Project,
    request: TranscribeRequest = TranscribeRequest(),
    *,
    replace: bool = False,
    keep: bool = False,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    model: WhisperModel | None = None,
    encoder: VoiceEmbedder | None = None,
) -> TranscribedScript:
    """:func:`transcribe_project` without the edit: the clips and candidates are written, the
    script is returned as ``command`` for the caller to push (the studio does, on its GUI thread).
    With ``keep`` the old lines stay beside the new ones. A found voice that surely matches a
    character already in the project (:func:`app.project.cast.match_project_characters`) is
    that character: its lines go to it, and no "Speaker N" is added for it."""
    video = project.video_path()
    if video is None:
        raise TranscriptionError(Phrase(phrases.NO_VIDEO_TO_TRANSCRIBE), ErrorCode.NO_AUDIO_STREAM)
    if project.lines and not (replace or keep):
        raise TranscriptionError(Phrase(phrases.SCRIPT_NOT_EMPTY, count=len(project.lines)), ErrorCode.SCRIPT_NOT_EMPTY)
    library = open_library(request.cast_library) if request.cast_library else None  # a bad one fails before any work
    report = progress or (lambda stage, fraction: None)
    if model is None or encoder is None:
        report("loading", 0.0)
    if model is None:
        model = load_model(request)
    if encoder is None:
        from engine.voiceprint.encoder import CamppSpeakerEncoder

        encoder = CamppSpeakerEncoder()
    report("loading", 1.0)
    options = with_fields(request.options, chinese_script=request.chinese_script or project.settings.chinese_script,
                          stream_index=_dialogue_index(project, request.options.stream_index))
    translator = WhisperTranslator(model, cancel) if options.translate_to == WhisperTranslator.target else None
    written = WrittenFiles(project.root)
    try:
        heard = transcribe_media(video, model, encoder, options, translator=translator, progress=progress,
                                 cancel=cancel)
        characters = _speakers_as_characters(project, heard, () if library is None else library.members,
                                             request.speaker_name)
        report("cutting", 0.0)
        clips = _cut_reference_clips(project, video, options.stream_index, heard, characters, cancel, written,
                                     lambda fraction: report("cutting", fraction))
        reused = match_project_characters(project, characters, encoder)
        fresh = [c for c in characters if c.id not in reused]
        for character in characters:  # a voice given to a character it already has needs no second clip
            clip = project.clip_path(character) if character.id in reused else None
            if clip is not None and clip in written.made:
                written.made.remove(clip)
                clip.unlink(missing_ok=True)
        heard_again = list({reused[c.id][0].id: reused[c.id][0] for c in characters if c.id in reused}.values())
        matches, recast = ([], {}) if library is None else _cast_from(project, fresh, heard_again, library, encoder,
                                                                      written, request.speaker_name)
        _name_clips_after_voices(project, {c.id: clips[c.id] for c in fresh if c.id in clips}, fresh, written)
        speaking = [reused[c.id][0] if c.id in reused else c for c in characters]  # each voice's character
        _write_candidates(project, heard, speaking, written)
        _write_voiceprints(project, heard, written)
    except HearingError as error:
        written.take_back()
        raise TranscriptionError(error.message, ErrorCode(error.code.value)) from None
    except BaseException:
        written.take_back()
        raise
    lines = [_line(line, speaking) for line in heard.lines]
    _set_spoken_languages(fresh, lines, heard.language)
    _set_line_languages(lines, heard, speaking)
    dropped = [] if keep else left_without_voice(project, lines)
    command = ReplaceScript(lines, fresh, heard.language, keep=keep, dropped=dropped,
                            translated_into=translator.target if translator is not None else "", recast=recast)
    warnings: list[str] = []
    if not heard.language_sure:
        warnings.append(Phrase(phrases.LANGUAGE_UNSURE, quoted=repr(heard.language),
                               confidence=heard.language_probability))
    warnings += _language_given_against_heard(model, video, options)
    warnings += _english_only(model, request, options)
    warnings += [Phrase(phrases.HEARD_AGAIN, name=c.name, existing=existing.name, score=score)
                 for c in characters if c.id in reused for existing, score in [reused[c.id]]]
    warnings += [Phrase(phrases.LEFT_WITHOUT_VOICE, name=c.name) for c in dropped]
    warnings += [Phrase(phrases.TOO_LITTLE_FOR_A_CLIP, name=c.name, seconds=hearing_clips.SHORTEST_CLIP_S)
                 for c in fresh if c.id not in clips]
    if translator is not None:
        warnings.append(Phrase(phrases.WHISPER_TRANSLATION_DRAFTS, model=_model_label(request.model)))
    return TranscribedScript(heard, fresh, lines, command, written, warnings, matches, dropped)


GIVEN_LANGUAGE_UNHEARD = 0.01  # a given language Whisper's detection puts below this is not the one spoken


def _dialogue_index(project: Project, asked: int | None) -> int | None:
    """The audio stream to hear: the one asked for, else the video's dialogue track."""
    if asked is not None or project.video is None:
        return asked
    dialogue = project.video.dialogue_audio()
    return dialogue.index if dialogue is not None else None


def _language_given_against_heard(model: WhisperModel, video: Path, options: Options) -> list[str]:
    """A warning when the language given (``--language``) is not the one the dialogue sounds like
    surely: Whisper then writes what it hears in the given language, garbage that looks like
    lines (an English video heard with --language zh, the language to dub into, came out as
    它是受到它的… with no word said about it). Judged on the first window, as auto detection is."""
    from engine.hearing.audio import audio_windows
    from engine.hearing.transcribe import language_odds

    given = language_code(options.language.strip())
    if given in ("", "auto"):
        return []
    first = next(iter(audio_windows(video, options.stream_index)), None)
    odds = language_odds(model, first.audio) if first is not None else None
    if not odds:
        return []
    heard = max(odds, key=lambda code: odds[code])
    # Whisper gives a language the speech is in more than 1 %, however accented or short (an
    # English scene: zh 0.0001, en 0.80; a Chinese drama: zh 0.9998).
    if heard == given or odds.get(given, 0.0) >= GIVEN_LANGUAGE_UNHEARD or odds[heard] < 0.5:
        return []
    return [Phrase(phrases.LANGUAGE_GIVEN_NOT_HEARD, given=given, heard=heard, confidence=odds[heard])]


def _english_only(model: WhisperModel, request: TranscribeRequest, options: Options) -> list[str]:
    """A warning when an English-only model (tiny.en) heard a dialogue whose language was not
    given as English: it cannot tell the language, so it says English, 100 % sure, and writes a
    Mandarin scene as "Bye bye. going to a little bit of of bit bit"."""
    if model.model.is_multilingual or language_code(options.language.strip()) == "en":
        return []
    return [Phrase(phrases.ENGLISH_ONLY_MODEL, model=_model_label(request.model))]


def _cast_from(project: Project, characters: Sequence[Character], heard_again: Sequence[Character],
               library: CastLibrary, encoder: VoiceEmbedder, written: WrittenFiles,
               speaker_name: str) -> tuple[list[CastMatch], dict[str, dict[str, Any]]]:
    """The found speakers cast from the library (app.project.cast.cast_characters), each sure
    match's library clip copied into voices/ (taken back with the rest on a failure), the unsure
    ones kept in media/cast_offers.json for the Characters panel to offer. The project's
    characters whose voices were ``heard_again`` are cast with them, unless already named as a
    library character: a transcription run again with a library casts them too (before, it cast
    only new voices and said nothing of the rest). Returns the matches and, per such character
    cast, the fields that make it the library's (for the edit, which undo takes back)."""
    before = [c for c in heard_again if c.clip and not library.names_character(c.name)]
    existing = [with_fields(c) for c in before]  # copies: the project changes only through the edit
    matches = cast_characters(project, [*characters, *existing], library, encoder, clip_copier(project, written.made),
                              speaker_name)
    recast = cast_changes(before, existing)
    offers = offers_of(matches, library.root)
    if offers:
        written.replace_text(ensure_dir(project.media_dir, inside=project.root) / OFFERS_FILE,
                             offers_text(project, offers))
    return matches, recast


def _model_label(model: str) -> str:
    """"Whisper tiny.en" for a declared model, "the Whisper model in FOLDER" for a model folder."""
    from engine.hearing.whisper import WHISPER_MODELS

    return f"Whisper {model}" if model in WHISPER_MODELS else f"the Whisper model in {Path(model).name}"


def _set_spoken_languages(characters: Sequence[Character], lines: Sequence[Line], heard: str) -> None:
    """Each found speaker (still set to the language ``heard``) set to the language their lines
    are written in, where its script is not one ``heard`` uses. A mixed English/Mandarin episode is
    heard as Chinese, and its English speaker's lines come out in English: set to zh, they were
    given to the Chinese voice."""
    for character in characters:
        written = detect_language(" ".join(line.text for line in lines if line.character_id == character.id))
        if (character.settings.language == heard and written in LANGUAGES and heard in LANGUAGES
                and not set(rules_for(written).scripts) & set(rules_for(heard).scripts)):
            character.settings = with_fields(character.settings, language=written)


def _set_line_languages(lines: Sequence[Line], heard: Transcription, characters: Sequence[Character]) -> None:
    """Each line in another language than the one its character ends up with given that language
    (:attr:`Line.language`): a Mandarin speaker's one English sentence is then spoken by the English
    voice, timed, checked and subtitled as English. The line's language is the one it was heard in,
    unless its text is written in a script that language does not use (decoding a turn in Chinese,
    Whisper may still write its English words in Latin letters): then the text's, as
    :func:`_set_spoken_languages` judges a speaker's. A translated line is in the language its
    character is set to; a line its character already speaks in that language keeps None
    (:func:`app.project.model.spoken_language`: a Chinese line of an English character is Chinese
    by its script), as does every line in its character's language."""
    languages = {character.id: character.settings.language for character in characters}
    for line, heard_line in zip(lines, heard.lines, strict=True):
        heard_in = language_code(heard_line.language or heard.language)
        written = detect_language(line.text)
        if heard_line.translation is not None or written not in LANGUAGES:
            continue
        spoken = heard_in if set(rules_for(written).scripts) & set(rules_for(heard_in).scripts) else written
        if spoken in LANGUAGES and spoken != spoken_language(line, languages.get(line.character_id or "", "")):
            line.language = spoken


def _speakers_as_characters(project: Project, heard: Transcription, library_members: Sequence[CastMember] = (),
                            speaker_name: str = phrases.SPEAKER_N) -> list[Character]:
    """"Speaker 1".."Speaker N" (``speaker_name``: in the studio's language), each its own colour
    (the library's colours too, which its characters bring when cast). A number any default name
    in the project or in the cast library holds, in any language, is skipped: a new voice called
    like a library character would share its name with the one cast as that character, and the
    next `cast add` would file its voice under that character's voiceprints."""
    if "{number}" not in speaker_name:  # a translation that lost its number: the names would all be one
        speaker_name = phrases.SPEAKER_N
    held = [c.name for c in project.characters] + [m.character.name for m in library_members]
    taken_numbers = {number for name in held if (number := default_speaker_number(name)) is not None}
    taken = {c.colour.lower() for c in project.characters} | {m.character.colour.lower() for m in library_members}
    colours = [c for c in PALETTE if c not in taken] + [c for c in PALETTE if c in taken]  # fresh ones first
    made: list[Character] = []
    number = 1
    for index in range(heard.speaker_count):
        while number in taken_numbers or project.character_by_name(speaker_name.format(number=number)) is not None:
            number += 1
        made.append(project.make_character(speaker_name.format(number=number), colour=colours[index % len(colours)],
                                           settings=VoiceSettings(language=heard.language)))
        number += 1
    return made


def _line(heard: HeardLine, characters: Sequence[Character]) -> Line:
    translated = heard.translation is not None
    return Line(
        id=new_id(),
        text=heard.translation if heard.translation is not None else heard.text,
        character_id=characters[heard.speaker].id,
        start=round(heard.start, 3),
        end=round(heard.end, 3),
        source_text=heard.text if translated else "",
        draft=translated,
    )


def _cut_reference_clips(project: Project, video: Path, stream_index: int | None, heard: Transcription,
                         characters: Sequence[Character], cancel: threading.Event | None,
                         written: WrittenFiles, cut: Callable[[float], None]) -> dict[str, Path]:
    """Each speaker's best candidate cut into voices/ and set as their clip; the ids given one,
    each with the file cut for it (named by :func:`_name_clips_after_voices` once the names are
    final). ``cut`` is told the share of the clips written."""
    chosen = [(speaker, found[0]) for speaker, found in heard.candidates.items() if found]
    voices = ensure_dir(project.voices_dir, inside=project.root)
    targets = [unique_path(voices, CUT_CLIP_STEM.format(number=speaker + 1), ".wav") for speaker, _ in chosen]

    done: list[Path] = []

    def write(index: int, audio: np.ndarray, rate: int) -> None:
        done.append(atomic_write_wav(targets[index], audio, rate, inside=project.root))
        written.made.append(done[-1])
        cut(len(done) / len(targets))

    hearing_clips.cut_clips(video, stream_index, [(c.start, c.end) for _, c in chosen], write, cancel)
    for (speaker, candidate), target in zip(chosen, targets):
        characters[speaker].clip = relative_to_root(project.root, target)
        characters[speaker].transcript = candidate.text
        characters[speaker].transcript_heard = True  # Whisper's words, not typed: QA treats them so
        characters[speaker].clip_purity = round(candidate.purity, 3)
    return {characters[speaker].id: target for (speaker, _), target in zip(chosen, targets)}


def _name_clips_after_voices(project: Project, cut: dict[str, Path], characters: Sequence[Character],
                             written: WrittenFiles) -> None:
    """Each clip just cut (character id -> file) renamed after its voice's final name: casting
    gives a voice a library character's name, or a new voice the lowest number free ("Speaker 5"
    became "Speaker 3"), and a file named by the transcription's count would name another
    character in the project folder. A default name's number makes ``speaker-N-original.wav``;
    a voice cast as a named character keeps the clip cut for it as ``NAME-original.wav`` (to
    choose instead of the library's). Each move is one rename in voices/ (atomic: the file is
    whole under one name or the other), onto a name no file holds; the character points at it."""
    by_id = {c.id: c for c in characters}
    for character_id, path in cut.items():
        character = by_id[character_id]
        number = default_speaker_number(character.name)
        stem = AUTO_CLIP_STEM.format(number=number) if number is not None else \
            f"{safe_filename(character.name, 'voice')}-original"
        target = unique_path(path.parent, stem, path.suffix)
        os.replace(path, target)
        written.made[written.made.index(path)] = target
        if character.clip == relative_to_root(project.root, path):
            character.clip = relative_to_root(project.root, target)


def _write_candidates(project: Project, heard: Transcription, characters: Sequence[Character],
                      written: WrittenFiles) -> None:
    """Every speaker's clip candidates, by character id, for "Choose from the video", and the
    speech heard with no words (:func:`wordless_stretches`)."""
    data = {
        "language": heard.language,
        "language_probability": round(heard.language_probability, 4),
        "duration_s": round(heard.duration_s, 3),
        "characters": {
            characters[speaker].id: [_candidate_dict(c) for c in found]
            for speaker, found in heard.candidates.items()
        },
        WORDLESS_KEY: [{"start": round(stretch.start, 3), "end": round(stretch.end, 3),
                        "character_id": characters[stretch.speaker].id if stretch.speaker < len(characters) else None}
                       for stretch in heard.no_words],
    }
    target = ensure_dir(project.media_dir, inside=project.root) / CANDIDATES_FILE
    written.replace_text(target, json.dumps(data, indent=1, ensure_ascii=False))


def _candidate_dict(candidate: hearing_clips.Candidate) -> dict[str, Any]:
    return {"start": candidate.start, "end": candidate.end, "text": candidate.text,
            "score": round(candidate.score, 3), "snr_db": round(candidate.snr_db, 1),
            "purity": round(candidate.purity, 3), "clipped": candidate.clipped}


# --- speech with no words ----------------------------------------------------------------------


@dataclass(frozen=True)
class WordlessStretch:
    """A stretch of the original where the transcription heard speech and no words
    (engine.hearing.unheard), with the character whose voice it sounds most like (None: unknown)."""

    start: float
    end: float
    character_id: str | None


def wordless_note(transcription: Transcription) -> Phrase | None:
    """"N stretches of speech had no words (M s): see them on the timeline"; None when every
    stretch of speech gave words."""
    stretches = transcription.no_words
    if not stretches:
        return None
    return Phrase.counted(len(stretches), phrases.WORDLESS_ONE, phrases.WORDLESS_MANY,
                          seconds=sum(stretch.duration_s for stretch in stretches))


def stored_wordless(project: Project) -> list[WordlessStretch]:
    """Every stretch kept in media/transcript.json (covered by a line or not); [] for a project
    transcribed before they were kept, or a damaged file (they only show where to look)."""
    path = project.media_dir / CANDIDATES_FILE
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
        kept = _WORDLESS_READ.get(str(path))
        if kept is None or kept[0] != version:
            data = json.loads(path.read_text(encoding="utf-8"))
            kept = version, [WordlessStretch(float(s["start"]), float(s["end"]),
                                             None if s["character_id"] is None else str(s["character_id"]))
                             for s in data.get(WORDLESS_KEY, [])]
            _WORDLESS_READ.clear()  # one project open at a time: keep only its file
            _WORDLESS_READ[str(path)] = kept
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return []
    return [s for s in kept[1] if 0 <= s.start < s.end]


# The last transcript.json read, by path: (mtime, size) and its stretches; the timeline asks on every edit.
_WORDLESS_READ: dict[str, tuple[tuple[int, int], list[WordlessStretch]]] = {}


def wordless_stretches(project: Project) -> list[WordlessStretch]:
    """The stretches of speech with no words that no line covers now (a line timed over at
    least half of one makes it go away: someone wrote what was said), each with its character
    if the project still has it."""
    timed = [(line.start, line.end) for line in project.lines
             if line.start is not None and line.end is not None and line.end > line.start]
    characters = {character.id for character in project.characters}
    shown = []
    for stretch in stored_wordless(project):
        covered = sum(max(0.0, min(end, stretch.end) - max(start, stretch.start)) for start, end in timed)
        if covered < 0.5 * (stretch.end - stretch.start):
            shown.append(stretch if stretch.character_id in characters else with_fields(stretch, character_id=None))
    return shown


# --- "Choose from the video" ---------------------------------------------------------------------


@dataclass(frozen=True)
class ClipCandidate:
    """A stretch of the original where a character speaks alone, as kept in media/transcript.json."""

    start: float
    end: float
    text: str
    score: float
    snr_db: float
    purity: float


def _write_voiceprints(project: Project, heard: Transcription, written: WrittenFiles) -> None:
    """The windows' embeddings and the level envelope, arrays only (read without pickle)."""
    if heard.windows is None or heard.levels is None:
        return
    rms, clipped = heard.levels.frames()
    buffer = io.BytesIO()
    np.savez_compressed(buffer, starts=np.asarray(heard.windows.starts, dtype=np.float64),
                        ends=np.asarray(heard.windows.ends, dtype=np.float64), vectors=heard.windows.embeddings(),
                        rms=rms, clipped=clipped, frame_s=np.float64(heard.levels.frame_s),
                        frame=np.int64(heard.levels.frame))
    written.replace_bytes(ensure_dir(project.media_dir, inside=project.root) / VOICEPRINTS_FILE, buffer.getvalue())


def clip_candidates(project: Project, character_id: str) -> list[ClipCandidate]:
    """The character's candidates, best first: every stretch of the original where they speak
    alone, found from the script as it is now (so a character made by Split has its own, and a
    merged one all of both), each scored for its noise and for its purity (how much more it
    sounds like this character than like any other; :func:`engine.hearing.clips.clip_purity`).
    A project transcribed before the voiceprints were kept offers the candidates found then;
    [] when the project was not transcribed (or the files are damaged: they only offer
    choices, so nothing depends on them)."""
    found = _candidates_from_voiceprints(project, character_id)
    if found is not None:
        return found
    path = project.media_dir / CANDIDATES_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        stored = data["characters"].get(character_id, [])
        candidates = [ClipCandidate(float(c["start"]), float(c["end"]), str(c["text"]), float(c["score"]),
                                    float(c["snr_db"]), float(c["purity"])) for c in stored]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return []
    return [c for c in candidates if 0 <= c.start < c.end <= c.start + 60]  # a hand-edited span stays a clip


def _candidates_from_voiceprints(project: Project, character_id: str) -> list[ClipCandidate] | None:
    """The candidates found again from media/voiceprints.npz and the project's lines; None
    without a readable file."""
    kept = _kept_voiceprints(project)
    if kept is None:
        return None
    windows, levels = kept
    speaker_of = {character.id: index for index, character in enumerate(project.characters)}
    if character_id not in speaker_of:
        return []
    heard = _heard_lines(project, speaker_of)
    labels = hearing_clips.window_labels(windows, heard)
    found = hearing_clips.candidates(heard, windows, labels, levels, len(project.characters))
    return [ClipCandidate(c.start, c.end, c.text.strip(), c.score, c.snr_db, c.purity)
            for c in found.get(speaker_of[character_id], [])]


def _kept_voiceprints(
        project: Project) -> tuple[hearing_speakers.EmbeddingWindows, hearing_clips.LevelEnvelope] | None:
    """The windows and level envelope kept in media/voiceprints.npz; None without a readable file."""
    path = project.media_dir / VOICEPRINTS_FILE
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            windows = hearing_speakers.EmbeddingWindows(list(map(float, data["starts"])), list(map(float, data["ends"])),
                                                        list(np.asarray(data["vectors"], dtype=np.float32)))
            frame_s, frame = float(data["frame_s"]), int(data["frame"])
            levels = hearing_clips.LevelEnvelope.restored(frame_s, round(frame / frame_s), data["rms"], data["clipped"])
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None
    if len(windows) != len(windows.starts) or len(windows.starts) != len(windows.ends):
        return None
    return windows, levels


def _heard_lines(project: Project, speaker_of: dict[str, int]) -> list[HeardLine]:
    """The project's timed lines as the hearing layer's, by time, each speaker its character's index."""
    timed = sorted((line.start, line.end, speaker_of[line.character_id], line.source_text or line.text)
                   for line in project.lines  # a line without times (it follows the previous one) is in no stretch
                   if line.character_id in speaker_of and line.start is not None and line.end is not None
                   and line.end > line.start)
    return [HeardLine([Word(start, end, " " + text)], speaker) for start, end, speaker, text in timed]


def line_span(project: Project, line_id: str) -> tuple[float, float]:
    """Where a line is in the original: from its start to its end, else to the next line's start,
    else for as long as its text takes to say (as the timeline places it). A line without a start
    has no place in the video to hear (E_INVALID_VALUE)."""
    line = project.line(line_id)
    if line.start is None:
        raise TranscriptionError(Phrase(phrases.NO_START_TO_HEAR, order=project.order_of(line_id)), ErrorCode.INVALID_VALUE)
    if line.end is not None and line.end > line.start:
        return line.start, line.end
    index = project.index_of(line_id)
    following = project.lines[index + 1].start if index + 1 < len(project.lines) else None
    if following is not None and following > line.start:
        return line.start, following
    return line.start, line.start + estimate_duration(line.text, project.spoken_language(line))


def original_audio(project: Project, start: float, end: float,
                   cancel: threading.Event | None = None) -> tuple[np.ndarray, int]:
    """``start``-``end`` seconds of the video's audio (mono, the video's own rate); empty past
    the end of the audio."""
    video = project.video_path()
    if video is None:
        raise TranscriptionError(Phrase(phrases.PROJECT_WITHOUT_VIDEO), ErrorCode.NO_AUDIO_STREAM)
    cut: list[tuple[np.ndarray, int]] = []
    try:
        hearing_clips.cut_clips(video, _dialogue_index(project, None), [(start, end)],
                                lambda _i, audio, rate: cut.append((audio, rate)), cancel)
    except HearingError as error:
        raise TranscriptionError(error.message, ErrorCode(error.code.value)) from None
    return cut[0]


def episode_recording(project: Project, character: Character) -> tuple[np.ndarray, int] | None:
    """The character's own speech in the project's video: its best candidate (Choose from the
    video's first), cut from the original; None in a project not transcribed, or whose video
    cannot be read. A character cast from a cast library has the library's clip, so saving it
    back would teach the library nothing of this episode (app.project.cast.add_characters)."""
    found = clip_candidates(project, character.id)
    if not found or project.video_path() is None:
        return None
    try:
        return original_audio(project, found[0].start, found[0].end)
    except TranscriptionError:
        return None


def cut_candidate(project: Project, character: Character, candidate: ClipCandidate) -> dict[str, Any]:
    """Cut the candidate into voices/ and return the character changes that make it their clip
    (push them as EditCharacter, so choosing is undoable)."""
    return {"clip": _cut_into_voices(project, character, candidate.start, candidate.end), "clip_start": 0.0,
            "clip_end": None, "transcript": candidate.text, "transcript_heard": True,
            "clip_purity": round(candidate.purity, 3)}


def cut_line(project: Project, line_id: str) -> tuple[str, dict[str, Any]]:
    """Cut a line's slot from the video into voices/ as its character's clip: the character's id
    and the changes (push them as EditCharacter, so it is undoable); as :func:`cut_region`."""
    line = project.line(line_id)
    if line.character_id is None:
        raise TranscriptionError(Phrase(phrases.NO_CHARACTER_FOR_AUDIO), ErrorCode.INVALID_VALUE)
    if line.start is None or line.end is None or line.end <= line.start:
        raise TranscriptionError(Phrase(phrases.NO_SPAN_IN_VIDEO), ErrorCode.INVALID_VALUE)
    changes = cut_region(project, line.character_id, line.start, line.end)
    return line.character_id, {**changes, "transcript": line.source_text or line.text, "transcript_heard": False}


def cut_region(project: Project, character_id: str, start: float, end: float) -> dict[str, Any]:
    """Cut ``start``-``end`` of the video (a stretch chosen by hand: a region of the timeline's
    original-audio track, a line's slot) into voices/ as the character's clip; the changes to
    push as EditCharacter (undoable). The stretch must be VOICE_REGION long; its purity is
    measured as a candidate's (:func:`region_purity`, None without the transcription's
    voiceprints), and the transcript is the words of the lines it holds (joined as their language
    writes them: no space inside a run of Chinese)."""
    character = project.character(character_id)
    try:
        VOICE_REGION.check(round(end - start, 3))
    except RangeError as error:
        raise TranscriptionError(error.message, error.code) from None
    purity = region_purity(project, character_id, start, end)
    said = [line.source_text or line.text for line in project.lines
            if line.start is not None and line.end is not None and line.start < end and line.end > start
            and min(line.end, end) - max(line.start, start) >= 0.5 * (line.end - line.start)]
    return {"clip": _cut_into_voices(project, character, start, end), "clip_start": 0.0, "clip_end": None,
            "transcript": join_pieces(text.strip() for text in said), "transcript_heard": False,
            "clip_purity": None if purity is None else round(purity, 3)}


def region_purity(project: Project, character_id: str, start: float, end: float) -> float | None:
    """How much more ``start``-``end`` of the original sounds like the character than like any
    other (engine.hearing.clips.clip_purity over the transcription's windows in it, the speakers
    told by the script as it is now); None without media/voiceprints.npz or windows in it."""
    kept = _kept_voiceprints(project)
    if kept is None:
        return None
    windows = kept[0]
    speaker_of = {character.id: index for index, character in enumerate(project.characters)}
    inside = windows.over(start, end)
    if character_id not in speaker_of or not len(inside):
        return None
    labels = hearing_clips.window_labels(windows, _heard_lines(project, speaker_of))
    embeddings = windows.embeddings()
    sums = hearing_clips.speaker_sums(embeddings, labels, len(project.characters))
    speaker = speaker_of[character_id]
    own_rest = sums[speaker] - embeddings[inside][labels[inside] == speaker].sum(axis=0)
    if np.linalg.norm(own_rest) < 1e-6:  # no other speech of theirs: their voice is this stretch's
        own_rest = embeddings[inside].sum(axis=0)
    return hearing_clips.clip_purity(embeddings[inside], own_rest, np.delete(sums, speaker, axis=0))


def _cut_into_voices(project: Project, character: Character, start: float, end: float) -> str:
    """Write ``start``-``end`` of the video into voices/ (atomically); its path in the project."""
    audio, rate = original_audio(project, start, end)
    voices = ensure_dir(project.voices_dir, inside=project.root)
    target = unique_path(voices, f"{safe_filename(character.name, 'voice')}-original", ".wav")
    atomic_write_wav(target, audio, rate, inside=project.root)
    return relative_to_root(project.root, target)
