"""The settings dialog, in pages: "Voices engine" (where the engine runs — this computer or a
server — the backend and its set-up) and "General" (engine slots, voice cache, audio output,
autosave).

It edits a :class:`~app.ui.settings.store.Settings` only when the user presses OK, and refuses OK
while an option is invalid (the message names it); the window then restarts the engine if
an engine setting changed (``engine_changed()`` says whether).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.dialog_parts import ok_cancel, problem_label
from app.ui.engine.backend_form import row
from app.ui.engine.voices_engine_page import VoicesEnginePage
from app.ui.language import LANGUAGES, SYSTEM, fill, listed, said_error, shown_message
from app.ui.playback.player import list_devices
from app.ui.settings.store import Option, Settings, cache_size, human_size
from app.ui.spin_boxes import whole_spin
from app.ui.tasks import TaskRunner

SYSTEM_DEFAULT = QT_TRANSLATE_NOOP("SettingsDialog", "System default")
VOICES_ENGINE_PAGE = QT_TRANSLATE_NOOP("SettingsDialog", "Voices engine")
GENERAL_PAGE = QT_TRANSLATE_NOOP("SettingsDialog", "General")


def shown(text: str) -> str:
    """A page's or an entry's name as the dialog shows it (marked above, translated here)."""
    return QCoreApplication.translate("SettingsDialog", text)


def title_of(option: Option[Any]) -> str:
    """A setting's title (declared in store.py, marked for the "Settings" context) as shown."""
    return QCoreApplication.translate("Settings", option.title)


def option_spin_box(option: Option[int], special: str) -> QSpinBox:
    """A spin box over a whole-number setting's declared range; ``special`` names its lowest value."""
    assert option.range is not None, option.name
    return whole_spin(option.range, special)


class GeneralPage(QWidget):
    """Engine slots, the voice cache (its size measured in the background), audio, autosave."""

    def __init__(self, settings: Settings, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self._runner = runner
        self.slots = option_spin_box(Settings.engine_slots, self.tr("Automatic"))
        self.slots.setValue(settings.engine_slots)
        self.slots.setToolTip(self.tr("Automatic: by the cores (at most 4), or by free GPU memory on a GPU"))

        self.output = QComboBox()
        devices = [d.name for d in list_devices("output")]
        self.output.addItem(shown(SYSTEM_DEFAULT))
        self.output.addItems(devices)
        if not devices:  # said on the field itself: a greyed "System default" told nothing
            self.output.setItemText(0, self.tr("None found: playback is silent"))
            self.output.setEnabled(False)
            self.output.setToolTip(self.tr("No audio output device was found; playback is silent."))
        elif settings.output_device in devices:
            self.output.setCurrentText(settings.output_device)

        self.cache = QLineEdit(settings.cache_dir)
        self.cache.setPlaceholderText(str(settings.effective_cache_dir()))
        browse_cache = QPushButton(self.tr("Browse…"))
        browse_cache.clicked.connect(self._browse_cache)
        self.cache_size = QLabel(self.tr("measuring…"))
        self.cache_size.setObjectName("cacheSize")
        self.clear_cache = QPushButton(self.tr("Clear cache"))
        self.clear_cache.setToolTip(self.tr("Delete prepared voices; they are rebuilt on the next use."))
        self.clear_cache.clicked.connect(self._clear_cache)

        self.autosave = option_spin_box(Settings.autosave_s, self.tr("Off"))
        self.autosave.setValue(settings.autosave_s)

        self.recogniser = QComboBox()
        self.recogniser.setObjectName("recogniserModel")
        self.recogniser.setToolTip(self.tr(
            "The Whisper model that checks takes and hears transcripts. base knows every language Whisper does; "
            "tiny.en is faster and English only; larger ones are downloaded with `dubstudio qa --download-model "
            "NAME`. It also transcribes a video's dialogue (an English-only model leaves that to base); a larger "
            "model transcribes, and translates into English, far better than base."))
        self._fill_recognisers(settings.recogniser_model)
        pick_model = QPushButton(self.tr("Folder…"))
        pick_model.setToolTip(self.tr("Use a faster-whisper model folder you have"))
        pick_model.clicked.connect(self._browse_model)
        self.recogniser_problem = problem_label("recogniserProblem")

        self.language = QComboBox()
        self.language.setObjectName("language")
        for language in LANGUAGES:
            self.language.addItem(self.tr("System") if language.code == SYSTEM else language.name, language.code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.language.setToolTip(self.tr("System: the language of your computer's locale."))
        language_note = QLabel(self.tr("Takes effect when the studio starts again."))
        language_note.setObjectName("languageNote")

        form = QFormLayout(self)
        form.addRow(title_of(Settings.language), row(self.language, language_note))
        form.addRow(title_of(Settings.engine_slots), self.slots)
        form.addRow(title_of(Settings.cache_dir), row(self.cache, browse_cache))
        form.addRow(self.tr("Cache size"), row(self.cache_size, self.clear_cache))
        form.addRow(title_of(Settings.output_device), self.output)
        form.addRow(title_of(Settings.autosave_s), self.autosave)
        form.addRow(title_of(Settings.recogniser_model), row(self.recogniser, pick_model))
        form.addRow("", self.recogniser_problem)
        self.refresh_cache_size()

    def _fill_recognisers(self, current: str) -> None:
        """Every declared model (saying which are here) and the chosen folder, if it is one."""
        from engine.hearing.whisper import WHISPER_MODELS, model_available

        self.recogniser.clear()
        for name, spec in WHISPER_MODELS.items():
            here = model_available(name)
            state = ("" if here else self.tr(" (not downloaded)")) if not spec.packaged else (
                "" if here else self.tr(" (missing)"))
            kind = self.tr("multilingual") if spec.multilingual else self.tr("English only")
            self.recogniser.addItem(fill(self.tr("{name}: {kind}, {size} MB{state}"), name=name, kind=kind, size=QLocale().toString(spec.size_mb), state=state), name)
        if current not in WHISPER_MODELS:
            self.recogniser.addItem(fill(self.tr("folder: {current}"), current=current), current)
        self.recogniser.setCurrentIndex(max(0, self.recogniser.findData(current)))

    def _browse_model(self) -> None:
        """A folder is taken only when it holds a faster-whisper model (its files checked in the
        background, nothing loaded): any folder was taken, and take QA and transcription failed on
        it later."""
        from engine.core.downloads import ValidationReport
        from engine.hearing.whisper import validate_whisper_dir

        path = QFileDialog.getExistingDirectory(self, self.tr("A faster-whisper model folder"))
        if not path:
            return

        def checked(report: ValidationReport) -> None:
            if report.ok:
                self.recogniser_problem.setText("")
                self._fill_recognisers(path)
                return
            self.recogniser_problem.setText(fill(self.tr(
                "{folder} is not a faster-whisper model folder ({files}: missing or damaged); the recogniser is "
                "unchanged. Choose the folder that holds the model's files, or download a "
                "model with `dubstudio qa --download-model NAME`."), folder=path,
                files=listed(problem.path for problem in report.problems)))

        self._runner.run(lambda: validate_whisper_dir(path), checked,
                         lambda exc: self.recogniser_problem.setText(said_error(exc)))

    def _cache_path(self) -> Path:
        text = self.cache.text().strip()
        return Path(text) if text else self._settings.effective_cache_dir()

    def refresh_cache_size(self) -> None:
        path = self._cache_path()
        self.cache_size.setText(self.tr("measuring…"))
        self._runner.run(
            lambda: cache_size(path),
            lambda size: self.cache_size.setText(f"{human_size(size)}  ({path})"),
            lambda exc: self.cache_size.setText(fill(self.tr("cannot measure: {reason}"), reason=said_error(exc))),
        )

    def _clear_cache(self) -> None:
        path = self._cache_path()
        self.clear_cache.setEnabled(False)

        def done(_: object) -> None:
            self.clear_cache.setEnabled(True)
            self.refresh_cache_size()

        def failed(exc: BaseException) -> None:
            self.clear_cache.setEnabled(True)
            self.cache_size.setText(fill(self.tr("cannot clear: {reason}"), reason=said_error(exc)))

        from engine.synthesis.voices import clear_cache_folder

        self._runner.run(lambda: clear_cache_folder(path), done, failed)

    def _browse_cache(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Voice cache folder"), str(self._cache_path()))
        if path:
            self.cache.setText(path)
            self.refresh_cache_size()

    def apply(self) -> None:
        s = self._settings
        s.engine_slots = self.slots.value()
        s.cache_dir = self.cache.text().strip()
        s.output_device = "" if self.output.currentIndex() == 0 else self.output.currentText()  # 0: system default
        s.autosave_s = self.autosave.value()
        s.recogniser_model = str(self.recogniser.currentData())
        s.language = str(self.language.currentData())


class SettingsDialog(QDialog):
    """Edits the studio's settings, page by page."""

    def __init__(self, settings: Settings, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setObjectName("settingsDialog")
        self._settings = settings
        self._engine_before = self._engine_values()
        self.voices_engine = VoicesEnginePage(settings, runner)
        self.general = GeneralPage(settings, runner)
        # The fields tests and the window reach for, wherever their page is.
        self.location, self.server_url, self.token = (self.voices_engine.location, self.voices_engine.server_url,
                                                      self.voices_engine.token)
        self.python, self.slots = self.voices_engine.python, self.general.slots
        self.voices_engine.remote_changed.connect(lambda remote: self.general.slots.setEnabled(not remote))
        self.general.slots.setEnabled(not self.voices_engine.is_remote)
        self.pages = QTabWidget()
        self.pages.setObjectName("settingsPages")
        self.pages.addTab(self.voices_engine, shown(VOICES_ENGINE_PAGE))
        self.pages.addTab(self.general, shown(GENERAL_PAGE))
        self.error = problem_label("settingsError")
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(780, 720)

    def show_page(self, title: str) -> None:
        """Show the page named ``title`` (VOICES_ENGINE_PAGE, GENERAL_PAGE)."""
        for index in range(self.pages.count()):
            if self.pages.tabText(index) == shown(title):
                self.pages.setCurrentIndex(index)

    def _engine_values(self) -> tuple[str, str, str, str, dict[str, Any], str, int, str]:
        """Every setting the engine process depends on: location, server URL and token,
        backend, its options (JSON values) and interpreter, slots, voice cache folder."""
        s = self._settings
        backend = s.engine_backend
        return (s.engine_location, s.server_url, s.server_token(), backend, s.options_for(backend),
                s.python_for(backend), s.engine_slots, s.cache_dir)

    def apply(self) -> None:
        """Write the edited values to the settings (raises OptionError for an invalid option)."""
        self.voices_engine.apply()
        self.general.apply()
        self._settings.sync()

    def engine_changed(self) -> bool:
        """Whether an applied change needs a new engine process."""
        return self._engine_values() != self._engine_before

    def accept(self) -> None:
        problem = self.voices_engine.problem()
        if problem is not None:
            self.error.setText(shown_message(problem))
            self.show_page(VOICES_ENGINE_PAGE)
            return
        self.apply()
        self.voices_engine.shutdown()
        super().accept()

    def reject(self) -> None:
        self.voices_engine.shutdown()
        super().reject()
