"""An unsure cast library match (voice cosine 0.40-0.58: named, not applied) offered on the
Characters panel under the character's name, with Accept and Reject.

Accept copies the library character's clip into voices/ in the background, then pushes one
undoable edit that makes the character the library's (name, colour, clip, transcript,
settings); after an undo the offer shows again. Reject forgets the offer (media/cast_offers.json,
written atomically); the character stays as it is.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.project.cast import (
    MATCH_THRESHOLD,
    CastOffer,
    accept_offer,
    pending_offer,
    reject_offer,
)
from app.project.errors import ProjectError
from app.project.model import said_name
from app.project.undo import EditCharacter
from app.ui.characters.fields import FittedRow
from app.ui.language import fill, number, said_error, say, speaker_name
from app.ui.tasks import TaskRunner
from app.ui.window.document import Document


class CastOfferRow(FittedRow):
    """The offer for the character shown (hidden when it has none)."""

    def __init__(self, document: Document, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("castOffer")
        self._doc = document
        self._runner = runner
        self._character_id: str | None = None
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.accept_button = QPushButton(self.tr("Accept"))
        self.accept_button.setObjectName("acceptCastOffer")
        self.accept_button.setToolTip(self.tr("Make this character the cast library's: its name, clip, transcript "
                                              "and settings (undoable)"))
        self.accept_button.clicked.connect(self.accept)
        self.reject_button = QPushButton(self.tr("Reject"))
        self.reject_button.setObjectName("rejectCastOffer")
        self.reject_button.setToolTip(self.tr("Not the same voice: keep this character as it is and stop offering"))
        self.reject_button.clicked.connect(self.reject)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.accept_button)
        layout.addWidget(self.reject_button)
        self.hide()

    def offer(self) -> CastOffer | None:
        """The offer shown now."""
        if self._character_id is None:
            return None
        return pending_offer(self._doc.project, self._character_id)

    def show_for(self, character_id: str | None) -> None:
        self._character_id = character_id
        offer = self.offer()
        self.setVisible(offer is not None)
        if offer is None:
            return
        self.label.setText(fill(self.tr("⚠ This voice may be {name} from the cast library (voice cosine {score}, under "
                                   "the {needed} needed to be sure)"), name=say(said_name(offer.member_name)), score=number(offer.score, 2), needed=number(MATCH_THRESHOLD, 2)))
        self.label.setToolTip(offer.library)
        self.accept_button.setEnabled(True)

    def accept(self) -> None:
        offer, project = self.offer(), self._doc.project
        if offer is None:
            return
        self.accept_button.setEnabled(False)  # one copy of the clip per click

        def accepted(changes: dict[str, Any]) -> None:
            self._doc.push(EditCharacter(offer.character_id, **changes))
            self.show_for(self._character_id)

        def failed(error: BaseException) -> None:
            self.accept_button.setEnabled(True)
            self._doc.error.emit(said_error(error))

        name = speaker_name()  # on the GUI thread: the translation is the studio's
        self._runner.run(lambda: accept_offer(project, offer, name), accepted, failed)

    def reject(self) -> None:
        offer = self.offer()
        if offer is None:
            return
        try:
            reject_offer(self._doc.project, offer.character_id)
        except ProjectError as error:
            self._doc.error.emit(said_error(error))
        self.show_for(self._character_id)
