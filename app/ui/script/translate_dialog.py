"""The Translate dialog: which translator, into which language, through which endpoint, with
which glossary, and which lines (Project › Translate…).

The translators and the languages come from their one declaration each
(:data:`engine.translation.registry.TRANSLATORS`, :data:`engine.core.languages.LANGUAGES`); any
other language code can be typed. The endpoint's URL and model start from the one last used, its
key is never shown: a key typed here replaces the one kept (the OS keyring, else a file only the
user reads), and an empty field keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.project import Project
from app.project.translation import TranslateRequest
from app.ui.dialog_parts import ok_cancel
from app.ui.language import TRANSLATOR_NAMES, declared, fill, language_label
from engine.core.languages import LANGUAGES, detect_language, language_code
from engine.translation.chat import TIMEOUT, Endpoint
from engine.translation.glossary import KINDS, GlossaryEntry
from engine.translation.keys import (
    keyring_usable,
    keys_file,
    load_key,
    remembered_endpoint,
)
from engine.translation.registry import OPENAI, TEXT_TRANSLATOR, TRANSLATORS, setting_of

GLOSSARY_COLUMNS = 3  # source, target, kind
W = TypeVar("W", bound=QWidget)


def _named(widget: W, name: str) -> W:
    widget.setObjectName(name)  # what tests and style sheets find it by
    return widget


@dataclass(frozen=True)
class TranslateChoice:
    """What the dialog was accepted with: the request (its endpoint's key filled in), the glossary
    as edited, and a key typed to keep (None: keep the one kept)."""

    request: TranslateRequest
    glossary: list[GlossaryEntry]
    new_key: str | None


def default_target(project: Project) -> str:
    """The language the project most likely dubs into: the one it was given; else the studio's
    own language when the script is in another (a Chinese team dubbing an English video), else
    English. It offered English for an English script too, a translation into itself."""
    if project.target_language:
        return project.target_language
    spoken = language_code(project.language or detect_language(" ".join(line.text for line in project.lines)))
    studio = language_code(QLocale().name())
    return studio if studio in LANGUAGES and studio != spoken else "en"


class TranslateDialog(QDialog):
    def __init__(self, parent: QWidget | None, project: Project, selected: Sequence[str]) -> None:
        super().__init__(parent)
        self.setObjectName("translateDialog")
        self.setWindowTitle(self.tr("Translate the script"))
        self._selected = list(selected)
        url, model = remembered_endpoint()
        self._build_translator_choice()
        self._build_target_language(project)
        self._build_endpoint(url, model)
        self._build_line_choice()
        glossary_buttons = self._build_glossary(project)
        self._build_layout(glossary_buttons)

    def _build_translator_choice(self) -> None:
        self.translator = _named(QComboBox(), "translator")
        for descriptor in TRANSLATORS.values():
            self.translator.addItem(declared(TRANSLATOR_NAMES, descriptor.label), descriptor.name)
            if descriptor.hears:  # Whisper translates while it transcribes, not a script
                index = self.translator.count() - 1
                item = self.translator.model().item(index)  # type: ignore[attr-defined]
                item.setEnabled(False)
                self.translator.setItemData(index, self.tr("Whisper translates into English only, while it "
                                                           "transcribes the video (Project › Transcribe)"),
                                            Qt.ItemDataRole.ToolTipRole)
        self.translator.setCurrentIndex(self.translator.findData(TEXT_TRANSLATOR))

    def _build_target_language(self, project: Project) -> None:
        self.language = _named(QComboBox(), "targetLanguage")
        self.language.setEditable(True)
        for code in LANGUAGES:
            self.language.addItem(language_label(code), code)
        target = default_target(project)
        found = self.language.findData(target)
        if found >= 0:
            self.language.setCurrentIndex(found)
        else:
            self.language.setEditText(target)
        self.language.setToolTip(self.tr("The language the project dubs into; its characters' languages follow it. "
                                         "Type any language code the model can write (pt-BR, vi…)"))

    def _build_endpoint(self, url: str, model: str) -> None:
        self.base_url = _named(QLineEdit(url), "baseUrl")
        self.base_url.setPlaceholderText(setting_of(OPENAI, "base_url").example)
        self.base_url.setToolTip(self.tr("An OpenAI-compatible endpoint up to /v1: Ollama (http://localhost:11434/v1), "
                                         "llama.cpp's server (http://localhost:8080/v1), vLLM, or a hosted one"))
        self.model = _named(QLineEdit(model), "modelName")
        self.model.setPlaceholderText(setting_of(OPENAI, "model").example)
        self.key = _named(QLineEdit(), "apiKey")
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        kept = (self.tr("the system keyring") if keyring_usable()
                else fill(self.tr("{0}, a file only you can read"), keys_file()))
        self.key.setPlaceholderText(self.tr("leave empty to keep the key kept"))
        self.key.setToolTip(fill(self.tr("The key is kept in {0}, never in the project or a log"), kept))
        self.timeout = _named(QSpinBox(), "translatorTimeout")
        self.timeout.setRange(int(TIMEOUT.low), int(TIMEOUT.high))
        self.timeout.setValue(int(TIMEOUT.default or 120))
        self.timeout.setSuffix(self.tr(" s"))

    def _build_line_choice(self) -> None:
        self.all_lines = _named(QRadioButton(self.tr("Every line")), "allLines")
        self.selected_lines = _named(QRadioButton(fill(self.tr("Selected lines: {0}"), len(self._selected))),
                                     "selectedLines")
        self.selected_lines.setEnabled(bool(self._selected))
        (self.selected_lines if self._selected else self.all_lines).setChecked(True)

    def _build_glossary(self, project: Project) -> tuple[QPushButton, QPushButton, QPushButton]:
        self.glossary = _named(QTableWidget(0, GLOSSARY_COLUMNS), "glossary")
        self.glossary.setHorizontalHeaderLabels([self.tr("Original"), self.tr("Translation"), self.tr("Kind")])
        self.glossary.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.glossary.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.glossary.setToolTip(self.tr("Names and terms every line keeps the same: the original wording, the one "
                                         "the translation must use, and whether it is a character's name or a term"))
        for entry in project.glossary:
            self._add_entry(entry)
        add, remove = _named(QPushButton(self.tr("Add")), "addTerm"), QPushButton(self.tr("Remove"))
        add.clicked.connect(lambda: self._add_entry(GlossaryEntry("", "", "term")))
        remove.clicked.connect(self._remove_selected)
        names = _named(QPushButton(self.tr("Add the characters' names")), "addNames")
        names.clicked.connect(lambda: self._add_names(project))
        return add, remove, names

    def _build_layout(self, glossary_buttons: tuple[QPushButton, ...]) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Translator"), self.translator)
        form.addRow(self.tr("Into"), self.language)
        form.addRow(self.tr("Endpoint URL"), self.base_url)
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("API key"), self.key)
        form.addRow(self.tr("Timeout"), self.timeout)
        lines = QHBoxLayout()
        lines.addWidget(self.all_lines)
        lines.addWidget(self.selected_lines)
        form.addRow(self.tr("Lines"), lines)
        buttons_row = QHBoxLayout()
        for button in glossary_buttons:
            buttons_row.addWidget(button)
        buttons_row.addStretch()
        note = QLabel(self.tr("Each line goes with the neighbouring lines and a budget: what its slot holds at the "
                              "language's pace. A line over it is asked once for a shorter version. The translations "
                              "come in as drafts, beside the original; nothing changes unless every line is done."))
        note.setWordWrap(True)
        self.buttons = ok_cancel(self, self.tr("Translate"))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Glossary")))
        layout.addWidget(self.glossary)
        layout.addLayout(buttons_row)
        layout.addWidget(note)
        layout.addWidget(self.buttons)

    # --- the glossary table ----------------------------------------------------------------

    def _add_entry(self, entry: GlossaryEntry) -> None:
        row = self.glossary.rowCount()
        self.glossary.insertRow(row)
        self.glossary.setItem(row, 0, QTableWidgetItem(entry.source))
        self.glossary.setItem(row, 1, QTableWidgetItem(entry.target))
        kind = QComboBox()
        for name in KINDS:
            kind.addItem(self.tr("name") if name == "name" else self.tr("term"), name)
        kind.setCurrentIndex(max(0, kind.findData(entry.kind)))
        self.glossary.setCellWidget(row, 2, kind)

    def _remove_selected(self) -> None:
        for row in sorted({index.row() for index in self.glossary.selectedIndexes()}, reverse=True):
            self.glossary.removeRow(row)

    def _add_names(self, project: Project) -> None:
        """Each character's name not in the glossary yet, to be given its translation."""
        have = {entry.source for entry in self.entries()}
        for character in project.characters:
            if character.name not in have:
                self._add_entry(GlossaryEntry(character.name, "", "name"))

    def entries(self) -> list[GlossaryEntry]:
        """The glossary as the table holds it (rows left wholly empty are dropped)."""
        found = []
        for row in range(self.glossary.rowCount()):
            source, target = (self.glossary.item(row, column) for column in (0, 1))
            kind = self.glossary.cellWidget(row, 2)
            texts = (source.text().strip() if source else "", target.text().strip() if target else "")
            if any(texts):
                found.append(GlossaryEntry(texts[0], texts[1],
                                           kind.currentData() if isinstance(kind, QComboBox) else "term"))
        return found

    # --- the result --------------------------------------------------------------------------

    def target_language(self) -> str:
        text = self.language.currentText().strip()
        index = self.language.findText(text)
        return str(self.language.itemData(index)) if index >= 0 else text.split(" ", 1)[0]

    def choice(self) -> TranslateChoice:
        """The request the dialog describes (its checks happen when it is made: E_TRANSLATOR...)."""
        url = self.base_url.text().strip()
        typed = self.key.text().strip()
        key = typed or (load_key(url) if url else "")
        endpoint = Endpoint(url, self.model.text().strip(), key, timeout_s=float(self.timeout.value()))
        ids = tuple(self._selected) if self.selected_lines.isChecked() else None
        request = TranslateRequest(self.target_language(), endpoint, translator=str(self.translator.currentData()),
                                   line_ids=ids)
        return TranslateChoice(request, self.entries(), typed or None)
