"""The studio's video workflows: a new project from a video, setting the video and its guide
track, the client's music-and-effects stem, project settings, and the list of voice gaps after
an import.

The window owns one controller and gives it the open document (or None). Slow steps (probing,
copying a video in, extracting the original audio, importing subtitles, transcribing) run as
operations of the task runner with the same Qt-free functions the ``dubstudio new`` command
uses; while one runs the studio is busy with it (the window's action rules read that), and its
result comes back to the GUI thread, where project changes are pushed as undoable commands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.project import (
    CommandStack,
    EditProject,
    Project,
    SetVideo,
    VideoInfo,
    VoiceGaps,
    phrases,
)
from app.project.media import (
    attach_video,
    extract_guide,
    probe_video,
    with_dialogue_stream,
)
from app.project.music_effects import RemoveStem, import_stem
from app.project.new_project import NewProject, new_project_from_video
from app.project.phrases import Phrase
from app.project.transcription import (
    TranscribedScript,
    TranscribeRequest,
    wordless_note,
)
from app.project.transcription_process import hear_project_apart
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.translation import (
    TranslateError,
    TranslateRequest,
    make_translator,
    translate_project,
)
from app.ui.folders import Folders
from app.ui.language import fill, said_error, say, separator, speaker_name
from app.ui.script.gaps_dialog import VoiceGapsDialog
from app.ui.settings.project_dialog import ProjectSettingsDialog
from app.ui.tasks import Operation, QueryOp, TaskRunner
from app.ui.timeline.transcribe_dialog import TranscribeChoice, TranscribeDialog
from app.ui.timeline.video_clips import TRANSLATING, transcription_progress
from app.ui.timeline.video_dialogs import (
    SOURCE_FILTER,
    VIDEOS,
    DialogueTrackDialog,
    NewFromVideo,
    NewFromVideoDialog,
)
from app.ui.window.document import Document
from engine.core.codes import ErrorCode
from engine.hearing.transcribe import Options
from engine.hearing.whisper import DEFAULT_MODEL
from engine.translation import TranslationError
from engine.translation.chat import Endpoint
from engine.translation.keys import load_key, remembered_endpoint
from engine.translation.registry import WHISPER

STEMS = "stems"  # the file dialog kind of a client's stems (app.ui.folders)
STEM_FILTER = QT_TRANSLATE_NOOP("VideoController", "Audio files (*.wav *.flac *.aif *.aiff *.w64 *.rf64);;All files (*)")


class VideoController(QObject):
    """Runs the video workflows for a window; reports through ``message`` and ``error``."""

    message = Signal(str)  # for the status bar
    error = Signal(str, str)  # title, message (with its error code): worth a dialog
    warning = Signal(str)  # things to fix, kept in the window's Messages list
    notice = Signal(str)  # information worth keeping in the Messages list (not a problem)
    line_chosen = Signal(str)  # the gaps list asks to show a line
    character_chosen = Signal(str)  # … or a character

    def __init__(self, parent: QWidget, runner: TaskRunner, folders: Folders, projects_dir: Path,
                 open_project: Callable[[Path], bool]) -> None:
        super().__init__(parent)
        self._parent = parent
        self._runner = runner
        self._folders = folders
        self._projects_dir = projects_dir
        self._open_project = open_project
        self.document: Document | None = None
        self.dialog: QWidget | None = None  # the dialog open now (tests drive it)
        self._unfinished: NewFromVideoDialog | None = None  # left with Cancel: its fields are kept
        # The Whisper model the studio's settings chose (the window sets it).
        self.transcription_model: Callable[[], str] = lambda: DEFAULT_MODEL

    # --- a new project from a video ----------------------------------------------------------

    def new_from_video(self) -> NewFromVideoDialog:
        """Open the dialog; OK creates the project in the background and opens it. A dialog left
        with Cancel is kept and opened again, with what was filled in, until one creates a project."""
        dialog = self._unfinished
        if dialog is None:
            dialog = self._unfinished = NewFromVideoDialog(self._runner, self._folders, self._projects_dir,
                                                           self._parent)
            dialog.chosen.connect(self.create)
            dialog.accepted.connect(lambda: self._forget(dialog))
        self.dialog = dialog
        dialog.open()
        return dialog

    @staticmethod
    def _chat_request(target: str) -> TranslateRequest:
        """Translation into ``target`` through the endpoint last used in Project › Translate…"""
        url, model = remembered_endpoint()
        if not url or not model:
            raise TranslationError(ErrorCode.TRANSLATOR, "no translation endpoint yet; set one in Project › Translate…")
        return TranslateRequest(target, Endpoint(url, model, load_key(url)))

    def _translate_transcribed(self, project: Project, stack: CommandStack, request: TranslateRequest,
                               operation: Operation) -> list[str]:
        """The transcribed lines translated as drafts (one undoable edit); a translator that fails
        leaves them as transcribed, with a warning, rather than losing the transcription."""
        operation.report_stage(TRANSLATING, 0.0)
        try:
            translator = make_translator(request, operation.token, progress=lambda done, total: operation.report_stage(
                TRANSLATING, done / max(total, 1)))
            stack.push(translate_project(project, request, translator))
        except TranslateError as error:
            if error.code is ErrorCode.CANCELLED:
                raise
            return [fill(self.tr("the lines were not translated ({error}): translate them with Project › Translate…"),
                         error=str(error))]
        return [fill(self.tr("the {language} lines are {model}'s translation, marked as drafts to check"),
                     language=request.target_language, model=request.endpoint.model)]

    def _forget(self, dialog: NewFromVideoDialog) -> None:
        if self._unfinished is dialog:
            self._unfinished = None
        dialog.deleteLater()

    def create(self, request: NewFromVideo) -> None:
        """Make the project (video copied in, subtitles imported, guide extracted) and open it."""
        self.message.emit(fill(self.tr("Creating {folder} from {video}…"), folder=request.folder.name,
                                                                            video=request.video.name))
        hearing = request.translator == WHISPER.name  # Whisper translates while it hears
        transcription = self._transcription_request(Options(translate_to=request.translate_to if hearing else None))
        try:
            chat = None if hearing or not request.translate_to else self._chat_request(request.translate_to)
        except TranslationError as error:
            self.error.emit(self.tr("Cannot translate"), said_error(error))
            return

        def work(operation: Operation) -> NewProject:
            def transcribe(project: Project, stack: CommandStack) -> list[str]:
                heard = hear_project_apart(project, transcription, progress=operation.report_stage,
                                           cancel=operation.token)  # its own process: the GUI never waits
                stack.push(heard.command)
                note = wordless_note(heard.transcription)  # where someone spoke and nothing was written
                warnings = heard.warnings + ([note] if note is not None else [])
                if chat is not None:
                    warnings += self._translate_transcribed(project, stack, chat, operation)
                return warnings

            return new_project_from_video(
                request.folder, request.video, subtitles=request.subtitles, subtitle_stream=request.subtitle_stream,
                use_subtitle_stream=request.subtitle_stream is not None, guide=request.guide, title=request.title,
                make_script=transcribe if request.transcribe else None, dialogue=(request.audio_stream, None),
                picture=False,  # the dialog takes a recording with no picture too
            )

        def done(made: NewProject) -> None:
            if not self._open_project(made.project.root):
                return
            lines = len(made.project.lines)
            source = fill(self.tr(" from {source}"), source=made.subtitles_from) if made.subtitles_from else ""
            if request.transcribe:
                source = fill(self.tr(" transcribed from {video}, %n voice(s)", "", len(made.project.characters)), video=request.video.name)
            warnings = self.tr("; %n warning(s): ", "", len(made.warnings)) + separator().join(say(w) for w in made.warnings[:3])
            self.message.emit(self.tr("New project with %n line(s)", "", lines) + source
                              + (warnings if made.warnings else ""))
            self.show_gaps(made.gaps, self.tr("Importing the subtitles"))

        def failed(error: Exception) -> None:
            self.error.emit(self.tr("Cannot create the project"), said_error(error))

        def cancelled() -> None:
            self.message.emit(self.tr("The transcription was cancelled; no project was made"))

        progress = transcription_progress(self._parent, translating=chat is not None) if request.transcribe else None
        self._runner.start(QueryOp(work, done, failed, cancelled, name=self.tr("creating the project"), progress=progress))

    def transcribe_dialogue(self) -> TranscribeDialog | None:
        """Ask for the speakers, language, model, cast library and (on a project with lines or
        takes) Replace or Keep; Transcribe then runs it as one undoable edit."""
        document = self.document
        if document is None:
            return None
        if document.project.video is None:
            self.error.emit(self.tr("Cannot transcribe"), fill(self.tr(
                "{code}: the project has no video; set one with Project › Set video…"), code=ErrorCode.NO_AUDIO_STREAM))
            return None
        model = self._transcription_request(Options()).model
        dialog = TranscribeDialog(self._parent, document.project, model, self._folders)
        dialog.chosen.connect(lambda choice: self.transcribe(document, choice))
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

    def transcribe(self, document: Document, choice: TranscribeChoice) -> None:
        """Transcribe the document's video as ``choice`` says (replacing or keeping its script)."""
        transcription = TranscribeRequest(Options(language=choice.language, speakers=choice.speakers), choice.model,
                                          cast_library=choice.cast_library, speaker_name=speaker_name())

        def work(operation: Operation) -> TranscribedScript:
            return hear_project_apart(document.project, transcription, replace=not choice.keep, keep=choice.keep,
                                progress=operation.report_stage, cancel=operation.token)

        def done(made: TranscribedScript) -> None:
            if document.push(made.command):
                for match in made.cast_matches:  # which library character, and how sure
                    (self.warning if match.needs_attention else self.notice).emit(say(match.describe()))
                for character in made.removed:  # old characters the new script left without a voice
                    self.warning.emit(say(Phrase(phrases.LEFT_WITHOUT_VOICE, name=character.name)))
                note = wordless_note(made.transcription)  # where someone spoke and nothing was written
                if note is not None:
                    self.warning.emit(say(note))
                self.message.emit(self.tr("Transcribed %n line(s)", "", len(made.lines))
                                  + self.tr(", %n voice(s)", "", len(made.characters))
                                  + "".join(separator() + say(w) for w in made.warnings[:2])
                                  + self.tr(" (Edit › Undo brings the old script back)"))

        def failed(error: Exception) -> None:
            self.error.emit(self.tr("Cannot transcribe the dialogue"), said_error(error))

        def cancelled() -> None:
            self.message.emit(self.tr("The transcription was cancelled; the script is as it was"))

        self._runner.start(QueryOp(work, done, failed, cancelled, name=self.tr("transcribing the dialogue"),
                                   progress=transcription_progress(self._parent)))

    def _transcription_request(self, options: Options) -> TranscribeRequest:
        """The settings' Whisper model, unless it only knows English (then the bundled base)."""
        model = self.transcription_model()
        return TranscribeRequest(options, DEFAULT_MODEL if model.endswith(".en") else model, speaker_name=speaker_name())

    # --- the video and its guide track -----------------------------------------------------------

    def choose_video(self) -> None:
        path = self._folders.open_file(self._parent, VIDEOS, self.tr("Choose the video or recording this project dubs"),
                                       self.tr(SOURCE_FILTER))
        if path:
            self.set_video(Path(path))

    def set_video(self, source: Path) -> None:
        """Use ``source``: probed first (in the background), then, when it holds several audio
        tracks, the user says which holds the dialogue (:class:`DialogueTrackDialog`; the one
        tagged with the project's language is offered first) before anything is copied."""
        document = self.document
        if document is None:
            return
        language = document.project.language

        def probed(info: VideoInfo) -> None:
            if self.document is not document:
                return
            if len(info.audio_streams) < 2:
                self._attach_video(source, None)
                return
            dialog = DialogueTrackDialog(source, info, language, self._parent)
            dialog.accepted.connect(lambda: self._attach_video(source, dialog.tracks.chosen()))
            self.dialog = dialog
            dialog.open()

        def failed(error: BaseException) -> None:
            self.error.emit(self.tr("Cannot use this video"), said_error(error))

        self._runner.run(lambda: probe_video(source, picture=False), probed, failed)

    def _attach_video(self, source: Path, audio_stream: int | None) -> None:
        """Copy ``source`` into the project (its dialogue track ``audio_stream``, None: the first)
        with the dialogue track as the guide, and use it."""
        document = self.document
        if document is None:
            return
        project = document.project
        self.message.emit(fill(self.tr("Adding {name}…"), name=source.name))

        def work(_operation: Operation) -> tuple[VideoInfo, str | None]:
            info = with_dialogue_stream(attach_video(project, source, picture=False), audio_stream)
            # The guide is extracted from the new video through a copy of the project that
            # points at it; the open project changes only on the GUI thread, by the command.
            guide = extract_guide(dataclasses.replace(project, video=info)) if info.audio_streams else None
            return info, guide

        def done(result: tuple[VideoInfo, str | None]) -> None:
            info, guide = result
            if self.document is document and document.push(SetVideo(info, guide)):
                self.message.emit(fill(self.tr("The project now dubs {path}"), path=info.path) + (
                    self.tr(" (original audio kept as the guide track)") if guide else ""))

        def failed(error: Exception) -> None:
            self.error.emit(self.tr("Cannot use this video"), said_error(error))

        self._runner.start(QueryOp(work, done, failed, name=self.tr("adding the video")))

    def add_guide(self) -> None:
        """Extract the video's original audio as the guide track (the video must have audio)."""
        document = self.document
        if document is None or document.project.video is None:
            self.message.emit(fill(self.tr("{code}: the project has no video yet (Project › Set video…)"), code=ErrorCode.NO_VIDEO_STREAM))
            return
        project = document.project
        video = project.video
        self.message.emit(self.tr("Extracting the original audio…"))

        def done(guide: str) -> None:
            if self.document is document and document.push(SetVideo(video, guide)):
                self.message.emit(self.tr("The original audio is the guide track now"))

        def failed(error: Exception) -> None:
            self.error.emit(self.tr("Cannot extract the original audio"), said_error(error))

        self._runner.start(QueryOp(lambda _operation: extract_guide(project), done, failed,
                                   name=self.tr("extracting the original audio")))

    def choose_music_effects(self) -> None:
        path = self._folders.open_file(self._parent, STEMS, self.tr("Choose the client's music-and-effects stem"),
                                       self.tr(STEM_FILTER))
        if path:
            self.import_music_effects(Path(path))

    def import_music_effects(self, stem: Path) -> None:
        """Check the client's M&E stem against the video and keep it in the project (off the GUI
        thread), then put it under the dub: the original audio becomes "music and effects" (undoable)."""
        document = self.document
        if document is None:
            return
        project = document.project
        self.message.emit(fill(self.tr("Checking the stem {name}…"), name=stem.name))

        def done(_kept: Path) -> None:
            if self.document is not document:
                return
            if project.settings.guide_mix != "music-effects":
                document.push(EditProject(guide_mix="music-effects"))
            self.message.emit(fill(self.tr("M&E: client stem {name}, under the dub in the mix and every export"), name=stem.name))

        def failed(error: Exception) -> None:
            self.error.emit(self.tr("Cannot use this music-and-effects stem"), said_error(error))

        self._runner.start(QueryOp(lambda _operation: import_stem(project, stem), done, failed,
                                   name=self.tr("importing the music-and-effects stem")))

    def remove_music_effects(self) -> None:
        """Take the client's M&E stem out of the project (undoable; the file is set aside, not deleted)."""
        document = self.document
        if document is not None and document.push(RemoveStem()):
            self.message.emit(self.tr("The M&E stem is out of the mix; Undo brings it back"))

    # --- settings and gaps --------------------------------------------------------------------

    def edit_settings(self) -> ProjectSettingsDialog | None:
        """Project settings; OK pushes one undoable edit with what changed."""
        document = self.document
        if document is None:
            return None
        dialog = ProjectSettingsDialog(document.project, self._parent, self._runner)

        def accepted() -> None:
            command = dialog.command()
            if command is not None and self.document is document:
                document.push(command)

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

    def show_gaps(self, gaps: VoiceGaps, what: str) -> VoiceGapsDialog | None:
        """List lines without a character and characters without a clip, if there are any."""
        if not gaps:
            return None
        sentences = [say(sentence) for sentence in gaps.describe()]
        self.warning.emit(fill(self.tr("{what} left %n thing(s) to fix before rendering: ", "", len(sentences)), what=what) + separator().join(sentences))
        dialog = VoiceGapsDialog(gaps, what, self._parent)
        dialog.line_chosen.connect(self.line_chosen)
        dialog.character_chosen.connect(self.character_chosen)
        self.dialog = dialog
        dialog.open()
        return dialog


__all__ = ["VideoController"]
