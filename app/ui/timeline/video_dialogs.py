"""Dialogs for the video: File › New project from video, and the options of File › Export › Video.

Both only collect choices; the work (probing, copying, importing, extracting the guide,
muxing) is the Qt-free code in :mod:`app.project` that ``dubstudio new`` and ``render
--export video`` run too, started by :class:`app.ui.timeline.video_controller.VideoController` off the
GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.project import Project, ProjectError, VideoInfo
from app.project.burned_subtitles import find_font
from app.project.fsutil import safe_filename
from app.project.media import probe_video, with_dialogue_stream
from app.project.script_io import (
    SUBTITLE_EXTENSIONS,
    SUBTITLE_FILE_FILTER,
    ScriptImport,
    has_source_text,
    import_subtitles,
)
from app.project.timecode import format_clock
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.video_export import (
    BURN_TIME_RATIO,
    VideoExportOptions,
    burned_cues,
    default_video_path,
    dub_language,
)
from app.ui.dialog_parts import ok_cancel, problem_label
from app.ui.folders import PROJECTS, Folders
from app.ui.language import (
    TRANSLATOR_NAMES,
    declared,
    fill,
    language_label,
    listed,
    said_error,
    say,
    shown_message,
)
from app.ui.tasks import TaskRunner
from engine.core.codes import ErrorCode
from engine.core.languages import LANGUAGES
from engine.translation.keys import remembered_endpoint
from engine.translation.registry import OPENAI, TRANSLATORS, WHISPER

VIDEOS, SCRIPTS = "videos", "scripts"  # file dialog kinds (app.ui.folders): each remembers its last folder
# A project dubs a video or a recording with no picture (a radio drama, a podcast, a dialogue stem).
SOURCE_FILTER = QT_TRANSLATE_NOOP("VideoController", "Videos and recordings (*.mp4 *.mkv *.mov *.webm *.avi *.m4v *.mpg *.mpeg *.ts *.wav *.flac *.mp3 *.m4a *.aac *.ogg *.opus);;All files (*)")
NO_SUBTITLES, SRT_FILE, TRANSCRIBE = "none", "srt", "transcribe"
PREVIEW_LINES = 3  # lines quoted in the preview before Create


@dataclass(frozen=True)
class NewFromVideo:
    """What the user chose for a new project made from a video."""

    folder: Path
    video: Path
    title: str
    subtitles: Path | None = None  # an SRT, WebVTT or ASS file
    subtitle_stream: int | None = None  # or a stream of the video
    guide: bool = True
    transcribe: bool = False  # or the video's own dialogue, transcribed (app.project.transcription)
    translate_to: str | None = None  # with it: the lines translated into this language, as drafts
    translator: str = WHISPER.name  # by which translator (engine.translation.registry.TRANSLATORS)
    audio_stream: int | None = None  # the audio track holding the dialogue, when the video has several


def describe_video(info: VideoInfo) -> str:
    """``1920×1080 · 25 fps · 2:01 · h264 · 1 audio, 1 subtitle stream``."""
    return VideoWords().video(info)


def _row(*widgets: QWidget) -> QWidget:
    holder = QWidget()
    layout = QHBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    for n, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if n == 0 else 0)
    return holder


class NewFromVideoDialog(QDialog):
    """Chooses a video (or a recording with no picture), where its script comes from, the guide track and the project folder."""

    chosen = Signal(NewFromVideo)  # when OK is pressed with valid choices

    def __init__(self, runner: TaskRunner, folders: Folders, projects_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newFromVideoDialog")
        self.setWindowTitle(self.tr("New project from a video or a recording"))
        self._runner = runner
        self._folders = folders
        self._projects_dir = projects_dir  # where the new project's folder is suggested
        self.info: VideoInfo | None = None

        self.video = QLineEdit()
        self.video.setPlaceholderText(self.tr("a video (MP4, MKV, MOV, WebM…) or a recording (WAV, FLAC, MP3, M4A…)"))
        self.video.editingFinished.connect(lambda: self.set_video(self.video.text()))
        choose_video = QPushButton(self.tr("Choose…"))
        choose_video.clicked.connect(self._choose_video)
        self.facts = QLabel("")
        self.facts.setObjectName("videoFacts")
        self.facts.setWordWrap(True)
        self.subtitles = QComboBox()
        self.subtitles.setObjectName("subtitleSource")
        self.subtitles.currentIndexChanged.connect(self._update)
        self.subtitles.currentIndexChanged.connect(self._preview_script)
        self.srt = QLineEdit()
        self.srt.setPlaceholderText(self.tr("subtitles.srt"))
        self.srt.textChanged.connect(self._update)
        self.srt.textChanged.connect(self._preview_script)
        self.choose_srt = QPushButton(self.tr("Choose…"))
        self.choose_srt.clicked.connect(self._choose_srt)
        self._build_translation()
        self.dialogue = DialogueTrackBox()  # shown when the video has several audio tracks (original, dubs)
        self.guide = QCheckBox(self.tr("Keep the original audio as a guide track"))
        self.guide.setToolTip(self.tr("Extracted once into media/guide.flac: play it under the dub to check timing, or keep it under the dub in the export (Project settings)"))
        self.title = QLineEdit()
        self.folder = QLineEdit()
        self.folder.textChanged.connect(self._update)
        choose_folder = QPushButton(self.tr("Choose…"))
        choose_folder.clicked.connect(self._choose_folder)
        self.preview = QLabel("")  # what the script will hold, before Create
        self.preview.setObjectName("scriptPreview")
        self.preview.setWordWrap(True)
        self.preview.setStyleSheet("color: #444")
        self.problem = problem_label("newFromVideoProblem")

        form = QFormLayout()
        form.addRow(self.tr("Video or audio"), _row(self.video, choose_video))
        form.addRow("", self.facts)
        form.addRow(self.tr("Script from"), self.subtitles)
        form.addRow(self.tr("Subtitle file"), _row(self.srt, self.choose_srt))
        form.addRow("", self.preview)
        form.addRow("", _row(self.translate, self.translator, self.target))
        form.addRow(self.tr("Dialogue track"), self.dialogue)
        form.addRow("", self.guide)
        self._form = form
        form.addRow(self.tr("Title"), self.title)
        form.addRow(self.tr("Project folder"), _row(self.folder, choose_folder))
        self.buttons = ok_cancel(self, self.tr("Create project"), self._accept)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.resize(620, 0)
        self._fill_subtitles()

    # --- choosing -------------------------------------------------------------------------------

    def _choose_video(self) -> None:
        path = self._folders.open_file(self, VIDEOS, self.tr("Choose the video or the recording to dub"),
                                       QCoreApplication.translate("VideoController", SOURCE_FILTER))
        if path:
            self.set_video(path)

    def _choose_srt(self) -> None:
        video = Path(self.video.text().strip()) if self.video.text().strip() else None
        beside = video.parent if video is not None and video.parent.is_dir() else None  # subtitles sit by their video
        path = self._folders.open_file(self, SCRIPTS, self.tr("Choose the subtitles"), SUBTITLE_FILE_FILTER, start=beside)
        if path:
            self.srt.setText(path)
            self.subtitles.setCurrentIndex(self.subtitles.findData(SRT_FILE))

    def _choose_folder(self) -> None:
        folder = self._folders.folder(self, PROJECTS, self.tr("Choose an empty folder for the project"))
        if folder:
            self.folder.setText(folder)

    def set_video(self, path: str | Path) -> None:
        """Probe the video (in the background) and offer its subtitle streams and audio."""
        text = str(path).strip()
        self.video.setText(text)
        if not text:
            return
        source = Path(text)

        def probed(info: VideoInfo) -> None:
            if self.video.text() != text:
                return  # another file was chosen meanwhile
            self.info = info
            self.facts.setText(describe_video(info))
            if not self.title.text():
                self.title.setText(source.stem)
            if not self.folder.text():
                self.folder.setText(str(_free_folder(self._projects_dir, source.stem)))
            self._fill_subtitles()
            beside = subtitles_beside(source)
            if beside is not None and not self.srt.text().strip():  # video.srt beside video.mp4: the script
                self.srt.setText(str(beside))
                self.subtitles.setCurrentIndex(self.subtitles.findData(SRT_FILE))

        def failed(error: BaseException) -> None:
            self.info = None
            self.facts.setText("")
            self.problem.setText(shown_message(str(error)))  # its headline and detail in the studio's language
            self._fill_subtitles()

        self.info = None
        self.problem.setText("")
        self.facts.setText(self.tr("Reading the file…"))
        self._runner.run(lambda: probe_video(source, picture=False), probed, failed)

    def _fill_subtitles(self) -> None:
        self.subtitles.blockSignals(True)
        self.subtitles.clear()
        text_streams = [s for s in self.info.subtitle_streams if s.text] if self.info else []
        for stream in text_streams:
            details = ", ".join(x for x in (stream.codec, stream.language, stream.title) if x)
            self.subtitles.addItem(fill(self.tr("The video's subtitle stream #{index} ({details})"), index=stream.index, details=details), stream.index)
        self.subtitles.addItem(self.tr("A subtitle file (SRT, WebVTT, ASS)"), SRT_FILE)
        if self.info is not None and self.info.audio_streams:
            self.subtitles.addItem(self.tr("Transcribe the dialogue (characters and clips from the voices)"), TRANSCRIBE)
        self.subtitles.addItem(self.tr("Nothing yet (an empty script)"), NO_SUBTITLES)
        # What the user has: a video's own subtitles, else a subtitle file; a recording (no picture)
        # rarely comes with subtitles, so its dialogue is transcribed (a subtitle file beside it
        # is still chosen by set_video).
        recording = self.info is not None and not self.info.has_picture and not text_streams
        self.subtitles.setCurrentIndex(max(0, self.subtitles.findData(TRANSCRIBE)) if recording else 0)
        self.subtitles.blockSignals(False)
        self._preview_script()
        self._fill_dialogue()
        has_audio = bool(self.info and self.info.audio_streams)
        self.guide.setEnabled(has_audio)
        self.guide.setChecked(has_audio)
        self._update()

    def _fill_dialogue(self) -> None:
        """Offer the video's audio tracks when it has several (a client's file with the original
        and a dub); the first is the default, as in ``dubstudio new``."""
        self.dialogue.offer(self.info)
        self._form.setRowVisible(self.dialogue, self.dialogue.count() > 1)

    def _preview_script(self) -> None:
        """Read the chosen subtitle file (in the background) and say what the script will hold."""
        text = self.srt.text().strip()
        if self.subtitles.currentData() != SRT_FILE or not text:
            # Create project waits for the file: say so, and what else there is (it stayed greyed out, unexplained)
            waiting = self.subtitles.currentData() == SRT_FILE and self.info is not None
            self.preview.setText(self.tr("Choose the subtitle file, or take the script from elsewhere in “Script from” "
                                         "(transcribe the dialogue, or start with an empty script)") if waiting else "")
            return
        path = Path(text)
        if not path.is_file():
            self.preview.setText(fill(self.tr("{name}: no such file"), name=path.name))
            return

        def shown(result: ScriptImport) -> None:
            if self.srt.text().strip() == text:
                self.preview.setText(describe_script(result))

        def failed(error: BaseException) -> None:
            if self.srt.text().strip() == text:
                self.preview.setText(fill(self.tr("This file cannot be imported: {error}"), error=said_error(error)))

        self.preview.setText(self.tr("Reading the subtitles…"))
        # An empty project to import into: nothing is written, only the lines and speakers are read.
        self._runner.run(lambda: import_subtitles(path, Project(root=path.parent)), shown, failed)

    def _build_translation(self) -> None:
        """Translate the transcribed lines: by which translator (Whisper into English while it hears,
        or the OpenAI-compatible endpoint last used in Project › Translate…) into which language."""
        self.translate = QCheckBox(self.tr("Translate the lines (drafts to check) with"))
        self.translate.setObjectName("translateLines")
        self.translate.setToolTip(self.tr("Each line keeps the original as its source text and stays a draft until a person accepts it"))
        self.translate.toggled.connect(self._update)
        self.translator = QComboBox()
        self.translator.setObjectName("newTranslator")
        url, model = remembered_endpoint()
        for descriptor in TRANSLATORS.values():
            self.translator.addItem(declared(TRANSLATOR_NAMES, descriptor.label), descriptor.name)
        chat = self.translator.findData(OPENAI.name)
        if url and model:
            self.translator.setItemData(chat, fill(self.tr("{model} at {url}"), model=model, url=url),
                                        Qt.ItemDataRole.ToolTipRole)
        else:  # nothing to send the lines to yet
            self.translator.model().item(chat).setEnabled(False)  # type: ignore[attr-defined]
            self.translator.setItemData(chat, self.tr("Set an endpoint in Project › Translate… first"),
                                        Qt.ItemDataRole.ToolTipRole)
        self.translator.setToolTip(self.tr("Whisper translates into English while it hears (with the bundled base model the English is often wrong: check every line); the endpoint writes any language"))
        self.translator.currentIndexChanged.connect(self._update)
        self.target = QComboBox()
        self.target.setObjectName("newTargetLanguage")
        for code in LANGUAGES:
            self.target.addItem(language_label(code), code)
        self.target.setCurrentIndex(self.target.findData("en"))
        self.target.setToolTip(self.tr("The language the project dubs into: its characters speak it"))

    def _update(self) -> None:
        srt = self.subtitles.currentData() == SRT_FILE
        transcribing = self.subtitles.currentData() == TRANSCRIBE
        self.translate.setEnabled(transcribing)
        self.translator.setEnabled(transcribing and self.translate.isChecked())
        self.target.setEnabled(transcribing and self.translate.isChecked())
        whisper = self.translator.currentData() == WHISPER.name
        for row in range(self.target.count()):  # Whisper writes English only
            item = self.target.model().item(row)  # type: ignore[attr-defined]
            item.setEnabled(not whisper or self.target.itemData(row) in (WHISPER.targets or ()))
        if whisper and self.target.currentData() not in (WHISPER.targets or ()):
            self.target.setCurrentIndex(self.target.findData("en"))
        self.srt.setEnabled(srt)
        self.choose_srt.setEnabled(srt)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self.request() is not None)

    # --- the result -----------------------------------------------------------------------------

    def request(self) -> NewFromVideo | None:
        """The choices, or None while something required is missing."""
        if self.info is None or not self.folder.text().strip():
            return None
        source = self.subtitles.currentData()
        srt = Path(self.srt.text().strip()) if source == SRT_FILE and self.srt.text().strip() else None
        if source == SRT_FILE and srt is None:
            return None
        return NewFromVideo(
            folder=Path(self.folder.text().strip()),
            video=Path(self.video.text().strip()),
            title=self.title.text().strip() or Path(self.video.text()).stem,
            subtitles=srt,
            subtitle_stream=source if isinstance(source, int) else None,
            guide=self.guide.isChecked() and self.guide.isEnabled(),
            transcribe=source == TRANSCRIBE,
            translate_to=str(self.target.currentData()) if source == TRANSCRIBE and self.translate.isChecked() else None,
            translator=str(self.translator.currentData()),
            audio_stream=self.dialogue.chosen(),
        )

    def _accept(self) -> None:
        request = self.request()
        if request is None:
            return
        folder = request.folder
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            self.problem.setText(fill(self.tr("{BAD_PROJECT_FILE}: {folder} is not an empty folder; choose a new one"), BAD_PROJECT_FILE=ErrorCode.BAD_PROJECT_FILE, folder=folder))
            return
        self.chosen.emit(request)
        self.accept()


class DialogueTrackBox(QComboBox):
    """The "Dialogue track" choice of a video with several audio tracks (a client's file with the
    original and a dub): New project from a video and Project › Set video… both offer it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dialogueTrack")
        self.setToolTip(self.tr("The audio track that holds the original dialogue: it is transcribed, kept as the guide track and the music and effects' source, and kept as the export's original audio"))

    def offer(self, info: VideoInfo | None, language: str = "") -> None:
        """The tracks of ``info``; the one tagged with the dialogue's ``language`` chosen, else the first."""
        self.clear()
        streams = info.audio_streams if info else ()
        for stream in streams:
            details = ", ".join(x for x in (stream.language, stream.title, stream.codec) if x)
            self.addItem(fill(self.tr("Audio stream #{index} ({details})"), index=stream.index, details=details),
                         stream.index)
        tagged = with_dialogue_stream(info, language=language).dialogue_stream if info and language else None
        if tagged is not None:
            self.setCurrentIndex(self.findData(tagged))

    def chosen(self) -> int | None:
        """The stream chosen, or None when there was nothing to choose (one track or none)."""
        return int(self.currentData()) if self.count() > 1 else None


class DialogueTrackDialog(QDialog):
    """Project › Set video… with a video of several audio tracks: which holds the dialogue."""

    def __init__(self, video: Path, info: VideoInfo, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dialogueTrackDialog")
        self.setWindowTitle(self.tr("Set video"))
        self.video, self.info = video, info
        self.tracks = DialogueTrackBox()
        self.tracks.offer(info, language)
        form = QFormLayout(self)
        form.addRow(QLabel(fill(self.tr("{name} has several audio tracks: which one holds the dialogue?"), name=video.name)))
        form.addRow(self.tr("Dialogue track"), self.tracks)
        form.addRow(ok_cancel(self))


def subtitles_beside(video: Path) -> Path | None:
    """The subtitles next to a video with its name (``scene.srt``, ``scene.ass`` or ``scene.vtt``
    for ``scene.mp4``, any letter case; an SRT first)."""
    try:
        found = [p for p in video.parent.iterdir() if p.stem == video.stem and p.suffix.lower() in SUBTITLE_EXTENSIONS]
    except OSError:
        return None
    return min(found, key=lambda p: (SUBTITLE_EXTENSIONS.index(p.suffix.lower()), p.name)) if found else None


def describe_script(result: ScriptImport) -> str:
    """The preview before Create: how many lines, who speaks them, and the first few."""
    return VideoWords().script(result)


class VideoWords(QObject):
    """The words of :func:`describe_video` and :func:`describe_script`: a QObject for its tr(),
    from which alone lupdate reads a count's plural forms."""

    def video(self, info: VideoInfo) -> str:
        streams = fill(self.tr("{audio} audio, %n subtitle stream(s)", "", len(info.subtitle_streams)), audio=len(info.audio_streams))
        if not info.has_picture:
            return fill(self.tr("No picture: a recording · {duration} · {streams}; every export but the video"),
                        duration=format_clock(info.duration_s, 0), streams=streams)
        return fill(self.tr("{width}×{height} · {fps} fps · {duration} · {codec} · {streams}"), width=info.width, height=info.height, fps=f"{info.fps:g}", duration=format_clock(info.duration_s, 0),
            codec=info.codec, streams=streams)

    def script(self, result: ScriptImport) -> str:
        counts: dict[str, int] = {}
        names = {char.id: char.name for char in result.characters}
        nobody = self.tr("no character")
        for line in result.lines:
            name = names.get(line.character_id or "", nobody)
            counts[name] = counts.get(name, 0) + 1
        speakers = listed(f"{name} ({n})" for name, n in sorted(
            counts.items(), key=lambda kv: (kv[0] == nobody, -kv[1], kv[0])))
        text = [self.tr("%n line(s), ", "", len(result.lines))
                + fill(self.tr("%n character(s): {speakers}", "", len(result.characters)), speakers=speakers or self.tr("none"))]
        in_time = sorted(result.lines, key=lambda line: float("inf") if line.start is None else line.start)
        for line in in_time[:PREVIEW_LINES]:  # the order the project will have
            who = names.get(line.character_id or "", "—")
            when = format_clock(line.start) if line.start is not None else ""
            text.append(f"{when} {who}: {line.text[:70]}{'…' if len(line.text) > 70 else ''}".strip())
        if result.warnings:
            text.append(fill(self.tr("%n warning(s): {first}", "", len(result.warnings)), first=say(result.warnings[0])))
        return "\n".join(text)


def _free_folder(parent: Path, stem: str) -> Path:
    """``parent/stem``, or ``stem 2``, ``stem 3``… when that is taken."""
    name = safe_filename(stem, "Dub")
    candidate = parent / name
    n = 2
    while candidate.exists():
        candidate = parent / f"{name} {n}"
        n += 1
    return candidate


class VideoExportDialog(QDialog):
    """The options of the finished video: container, audio codec, tracks, burned-in subtitles,
    language. With ``delivery`` they are the options of Export all's video, and OK goes on to
    the folder to deliver into."""

    def __init__(self, project: Project, parent: QWidget | None = None, delivery: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("videoExportDialog")
        self.setWindowTitle(self.tr("Export all: the video") if delivery else self.tr("Export the video"))
        self._project = project
        self._delivery = delivery
        self.container = QComboBox()
        self.container.addItem(self.tr("MP4 (plays everywhere)"), "mp4")
        self.container.addItem(self.tr("MKV (holds any codec)"), "mkv")
        self.codec = QComboBox()
        self.codec.addItem(self.tr("AAC"), "aac")
        self.codec.addItem(self.tr("Opus"), "opus")
        self.keep_original = QCheckBox(self.tr("Add the original audio as a second track"))
        self.keep_original.setEnabled(bool(project.video and project.video.audio_streams))
        self.subtitles = QCheckBox(QCoreApplication.translate("VideoExportDialog", "Add the script as a soft subtitle track"))
        self._build_burn()
        self.language = QLineEdit(dub_language(project, VideoExportOptions()))
        self.language.setMaxLength(3)
        self.language.setToolTip(self.tr("ISO 639-2 code of the dub's language, e.g. eng, fra, deu, spa (und: undetermined)"))
        self.target = QLabel()
        self.target.setObjectName("videoExportTarget")
        self.target.setWordWrap(True)
        self.problem = problem_label()
        for combo in (self.container, self.codec, self.burn):
            combo.currentIndexChanged.connect(self._update)
        self.language.textChanged.connect(self._update)
        self._build_layout()
        self._update()

    def _build_burn(self) -> None:
        """Burned-in subtitles: none, the dub's, or (for a translated script) the original's; and what it costs."""
        self.burn = QComboBox()
        self.burn.setObjectName("burnSubtitles")
        self.burn.addItem(self.tr("None"), "")
        self.burn.addItem(self.tr("In the dub's language"), "target")
        if has_source_text(self._project):
            self.burn.addItem(self.tr("In the original language"), "source")
        self.burn.setToolTip(self.tr("Draw the subtitles into the picture itself, for players and sites that "
                                     "show no subtitle track"))
        self.burn_cost = QLabel(fill(self.tr("The picture is re-encoded (H.264) to draw them: the export takes "
                                        "{low}–{high}× as long (the more, the grainier the picture)."), low=BURN_TIME_RATIO[0], high=BURN_TIME_RATIO[1]))
        self.burn_cost.setObjectName("burnCost")
        self.burn_cost.setWordWrap(True)

    def _build_layout(self) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Container"), self.container)
        form.addRow(self.tr("Dub audio"), self.codec)
        form.addRow("", self.keep_original)
        form.addRow("", self.subtitles)
        form.addRow(self.tr("Burn subtitles into the picture"), self.burn)
        form.addRow("", self.burn_cost)
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Written to"), self.target)
        self.buttons = ok_cancel(self, self.tr("Choose the folder…") if self._delivery else self.tr("Export"))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

    def options(self) -> VideoExportOptions:
        return VideoExportOptions(
            container=self.container.currentData(),
            audio_codec=self.codec.currentData(),
            keep_original=self.keep_original.isChecked() and self.keep_original.isEnabled(),
            subtitles=self.subtitles.isChecked(),
            language=self.language.text().strip().lower(),
            title=f"{self._project.title} (dub)",
            burn_subtitles=self.burn.currentData(),
        )

    def _update(self) -> None:
        options = self.options()
        self.burn_cost.setVisible(bool(options.burn_subtitles))
        name = default_video_path(self._project, options).name
        self.target.setText(fill(self.tr("{name}, in the delivery folder you choose next"), name=name)
                            if self._delivery else str(default_video_path(self._project, options)))
        try:
            options.validate()
            if options.burn_subtitles:  # a font that has every character, or E_FONT_MISSING now rather than later
                find_font([text for _start, _end, text in burned_cues(self._project, options.burn_subtitles)])
        except ProjectError as error:
            self.problem.setText(shown_message(str(error)))
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        self.problem.setText("")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
