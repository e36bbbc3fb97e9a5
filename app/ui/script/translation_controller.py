"""Translate and Shorten to fit in the studio: the dialog, then the work as a background operation
(app.ui.tasks) with progress and Cancel, then its result as one undoable edit.

The translator runs off the GUI thread and changes nothing: its result comes back as an
:class:`~app.project.translation.ApplyTranslation` that the GUI thread pushes, so a failure or a
Cancel leaves the script as it was, and Edit › Undo takes a translation or a shortening back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog

from app.project.translation import (
    AcceptTranslations,
    ApplyTranslation,
    EditGlossary,
    TranslateRequest,
    kept_translations,
    make_translator,
    shorten_lines,
    translate_project,
)
from app.ui.language import fill
from app.ui.script.shorten_preview import ShortenPreview
from app.ui.script.translate_dialog import TranslateChoice, TranslateDialog
from app.ui.tasks import Operation, ProgressSpec, QueryOp
from app.ui.window_controller import WindowController
from engine.core.codes import ErrorCode
from engine.translation import TranslationError
from engine.translation.chat import Endpoint
from engine.translation.keys import (
    load_key,
    remember_endpoint,
    remembered_endpoint,
    store_key,
)

if TYPE_CHECKING:
    from app.ui.window.document import Document
    from app.ui.window.main_window import MainWindow


class TranslationController(WindowController):
    object_name = "translationController"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.preview: ShortenPreview | None = None  # Shorten to fit's answer, until applied or dismissed

    # --- Translate… ---------------------------------------------------------------------------

    def translate(self) -> None:
        """Project › Translate…: the dialog, then the translation in the background."""
        session = self.window.session
        if session is None:
            return
        dialog = TranslateDialog(self.window, session.project, session.selected())
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            choice = dialog.choice()
        except TranslationError as error:
            self.window.messages.error(self.tr("Cannot translate"), str(error))
            return
        self.start(choice)

    def start(self, choice: TranslateChoice) -> None:
        """Keep the glossary (its own undoable edit), the key and the endpoint, then translate."""
        session = self.window.session
        if session is None:
            return
        document = session.document
        if choice.glossary != session.project.glossary and not document.push(EditGlossary(choice.glossary)):
            return
        endpoint = choice.request.endpoint
        try:
            if choice.new_key is not None:
                store_key(endpoint.base_url, choice.new_key)
        except TranslationError as error:
            self.window.messages.error(self.tr("Cannot keep the API key"), str(error))
            return
        remember_endpoint(endpoint.base_url, endpoint.model)
        request = choice.request
        count = len(request.line_ids) if request.line_ids is not None else len(session.project.lines)

        def work(operation: Operation) -> ApplyTranslation:
            translator = make_translator(request, operation.token,
                                         progress=lambda done, total: operation.report(done / max(total, 1)))
            return translate_project(document.project, request, translator)

        def done(edit: ApplyTranslation) -> None:
            if document.push(edit):
                self.window.messages.notify(self._summary(edit, request.target_language) + self._kept(request))

        self._run(work, done, fill(self.tr("Translating {0} lines into {1}"), count, request.target_language),
                  self.tr("Cannot translate"), self.tr("The translation was cancelled; the script is as it was"))

    # --- Shorten to fit -------------------------------------------------------------------

    def shorten(self) -> None:
        """Edit › Shorten to fit: a shorter wording of each selected line, within its slot."""
        session = self.window.session
        if session is None:
            return
        ids = session.selected()
        if not ids:
            self.window.messages.say(self.tr("Select the lines to shorten first"))
            return
        url, model = remembered_endpoint()
        if not url or not model:
            self.window.messages.error(self.tr("Cannot shorten"), fill(self.tr(
                "{0}: no translation endpoint yet; set one in Project › Translate…"), ErrorCode.TRANSLATOR))
            return
        document = session.document
        try:
            request = TranslateRequest(session.project.target_language or session.project.language or "en",
                                       Endpoint(url, model, load_key(url)))
        except TranslationError as error:
            self.window.messages.error(self.tr("Cannot shorten"), str(error))
            return

        def work(operation: Operation) -> ApplyTranslation:
            translator = make_translator(request, operation.token,
                                         progress=lambda done, total: operation.report(done / max(total, 1)))
            return shorten_lines(document.project, ids, translator, request.target_language)

        def done(edit: ApplyTranslation) -> None:
            preview = ShortenPreview(document.project, edit, self.window)
            preview.accepted.connect(lambda: self._apply_shorter(document, preview))
            preview.finished.connect(preview.deleteLater)
            self.preview = preview
            preview.open()

        self._run(work, done, fill(self.tr("Shortening {0} lines"), len(ids)), self.tr("Cannot shorten"),
                  self.tr("Shortening was cancelled; the lines are as they were"))

    def _apply_shorter(self, document: Document, preview: ShortenPreview) -> None:
        """The ticked lines of the preview in, as one undoable edit."""
        edit = preview.chosen()
        if edit is None:
            self.window.messages.say(self.tr("No line was ticked; the lines are as they were"))
        elif document.push(edit):
            fits = sum(1 for result in edit.results if result.fits)
            budgeted = sum(1 for result in edit.results if result.budget is not None)
            self.window.messages.notify(fill(self.tr(
                "Shortened {0} lines; {1} of {2} with a slot now fit it (Edit › Undo brings the old wording "
                "back)"), len(edit.results), fits, budgeted))

    # --- Accept translation ---------------------------------------------------------------------

    def accept(self) -> None:
        """Edit › Accept translation: the selected drafts read and kept as they are (undoable)."""
        session = self.window.session
        if session is None:
            return
        drafts = [line.id for line in session.project.lines_by_ids(session.selected()) if line.draft]
        if not drafts:
            self.window.messages.say(self.tr("None of the selected lines is a draft translation"))
            return
        if session.document.push(AcceptTranslations(drafts)):
            self.window.messages.say(fill(self.tr("Accepted {0} translations"), len(drafts)))

    # --- shared -------------------------------------------------------------------------------

    def _run(self, work: Callable[[Operation], ApplyTranslation], done: Callable[[ApplyTranslation], None],
             label: str, failed_title: str, cancelled_text: str) -> None:
        def failed(error: Exception) -> None:
            self.window.messages.error(failed_title, str(error))

        def cancelled() -> None:
            self.window.messages.say(cancelled_text)

        progress = ProgressSpec(self.window, self.tr("Translation"), label, self.tr("Cancelling"))
        self.window.runner.start(QueryOp(work, done, failed, cancelled, name=self.tr("translating"),
                                         progress=progress))

    def _summary(self, edit: ApplyTranslation, language: str) -> str:
        budgeted = [result for result in edit.results if result.budget is not None]
        first = sum(1 for result in budgeted if result.budget is not None
                    and (result.first_length or 0) <= result.budget.limit)
        now = sum(1 for result in budgeted if result.fits)
        text = fill(self.tr("Translated {0} lines into {1} as drafts; within their slots: {2} of {3} at first, {4} after "
                       "the shorter retry (Edit › Undo takes it back)"), len(edit.results), language, first, len(budgeted), now)
        missing = edit.missing_terms
        if missing:
            text += fill(self.tr("; {0} lines leave out a glossary term"), len(missing))
        return text

    def _kept(self, request: TranslateRequest) -> str:
        """What "Every line" left as it was: the lines a person already translated (imported with
        their original, or checked)."""
        session = self.window.session
        kept = kept_translations(session.project, request.target_language) \
            if session is not None and request.line_ids is None else []
        return self.tr("; kept %n line(s) already translated by a person (select them to translate them again)", "",
                       len(kept)) if kept else ""

