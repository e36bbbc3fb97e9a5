"""A speed spin box over the speeds the running backend speaks at (its ``Capabilities.speed``).

A speed stored outside that range (set on another backend, or in a file) stays stored: the box
shows it clamped to the range, marks it and says the engine will refuse it, and gives the stored
speed back until the user picks a speed, by typing or stepping (the clamped value itself
included) — a clamp written back on leaving the box would change a character's voice nobody
asked to change.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox, QWidget

from app.ui.language import fill
from app.ui.spin_boxes import unit_suffix
from engine.core.numbers import Range
from engine.core.protocol import SPEED

OUT_OF_RANGE_STYLE = "QDoubleSpinBox { color: #b00020; }"
NONE_STEP = 0.01  # the value one step below the lowest speed that stands for "no speed of its own"


class SpeedBox(QDoubleSpinBox):
    """A speed in ×, within the backend's range; with ``none_text``, its lowest value means none."""

    def __init__(self, none_text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._none_text = none_text
        self._stored: float | None = None
        self._user_picked = False  # the user changed or typed a value since the stored speed was shown
        self._about = ""  # what the speed is, said before any warning in the tooltip
        self._range = SPEED
        self.setDecimals(2)
        self.setSingleStep(0.05)
        self.setSuffix(unit_suffix(SPEED))
        self.setSpecialValueText(none_text)
        # Typing counts even when it leaves the value as shown (the clamped speed typed out);
        # show_speed's own setValue is silent.
        self.valueChanged.connect(self._pick)
        self.lineEdit().textEdited.connect(self._pick)
        self.set_range(SPEED)

    @property
    def speeds(self) -> Range:
        return self._range

    def set_range(self, speeds: Range) -> None:
        """Offer the speeds ``speeds`` declares, keeping the stored speed as it is."""
        self._range = speeds
        blocked = self.blockSignals(True)  # setting the box is no edit of the stored speed
        self.setRange(speeds.low - NONE_STEP if self._none_text else speeds.low, speeds.high)
        self.blockSignals(blocked)
        self.show_speed(self._stored, self._about)

    def show_speed(self, stored: float | None, about: str) -> None:
        """Show a stored speed (None: the lowest value, "none of its own"); ``about`` is the tooltip."""
        self._stored, self._about = stored, about
        self._user_picked = False
        blocked = self.blockSignals(True)
        self.setValue(self.minimum() if stored is None else self._clamped(stored))
        self.blockSignals(blocked)
        refused = self._refused()
        self.setStyleSheet(OUT_OF_RANGE_STYLE if refused else "")
        self.setToolTip(about if not refused else
                        fill(self.tr("{about}\nStored: {stored:g}×, which the engine will refuse: {refusal}. Pick a speed here to replace it."), about=about, stored=stored, refusal=self._range.refusal(stored)))

    def picked(self) -> float | None:
        """The speed to store: the user's, or the stored one while the user has picked none."""
        if self._refused() and not self._user_picked:
            return self._stored
        return None if self._none_text and self.value() <= self.minimum() else round(self.value(), 2)

    def _pick(self) -> None:
        self._user_picked = True

    def _clamped(self, speed: float) -> float:
        # the range's own ends, not the box's: a "none" box's minimum would read as no speed
        return min(max(speed, self._range.low), self._range.high)

    def _refused(self) -> bool:
        return self._stored is not None and not self._range.holds(self._stored)
