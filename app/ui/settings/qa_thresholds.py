"""The project's take-QA thresholds as a form group (Project › Project settings).

Each threshold of :class:`~engine.hearing.qa.checks.QaThresholds` gets a spin box within the range the
project file accepts (:data:`~engine.hearing.qa.checks.QA_THRESHOLD_RANGES`), with its unit and a
tooltip saying what it catches; the clipping share is shown in percent of samples, as people
read it. The dialog turns the values into one undoable ``EditProject(qa=...)``; verdicts are
recomputed from the stored measurements, so a change shows at once without listening again.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QWidget,
)

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.dialog_parts import hint_label
from app.ui.spin_boxes import number_spin
from engine.hearing.qa.checks import QA_THRESHOLD_RANGES, QaThresholds

# name -> (label, suffix as shown (None: its range's unit), shown as value × scale, decimals, step,
# what it catches)
FIELDS: dict[str, tuple[str, str | None, float, int, float, str]] = {
    "max_wer": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Word error rate at most"), None, 1.0, 2, 0.05,
                QT_TRANSLATE_NOOP("QaThresholdsBox", "Share of words Whisper heard wrong (0 = every word right): garbled speech, another "
                "line, a take cut short. Languages written with spaces between words.")),
    "max_cer": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Character error rate at most"), None, 1.0, 2, 0.05,
                QT_TRANSLATE_NOOP("QaThresholdsBox", "The same, counted in characters: Chinese, Japanese, Korean, Thai and the like")),
    "min_duration_ratio": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Speech time at least"), " %", 100.0, 0, 5.0,
                           QT_TRANSLATE_NOOP("QaThresholdsBox", "The take's speech time as a share of what its text needs at the voice's pace: "
                           "catches a take spoken far too fast or cut short, which the error rate misses")),
    "min_language_confidence": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Wrong language when detected at"), " %", 100.0, 0, 5.0,
                                QT_TRANSLATE_NOOP("QaThresholdsBox", "A take that sounds like another language than the line's, this sure, fails "
                                "(told the line's language, Whisper would translate it instead)")),
    "max_clipping": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Clipped samples at most"), " %", 100.0, 2, 0.05,
                     QT_TRANSLATE_NOOP("QaThresholdsBox", "Share of samples at full scale; above 0.1 % distortion is audible")),
    "max_leading_silence_s": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Silence before speech at most"), None, 1.0, 2, 0.1,
                              QT_TRANSLATE_NOOP("QaThresholdsBox", "Dead air at the start of a take: a timing problem in a dub")),
    "max_inner_silence_s": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Longest pause at most"), None, 1.0, 2, 0.1,
                            QT_TRANSLATE_NOOP("QaThresholdsBox", "A pause this long inside a take means the model stalled or a gap slipped in")),
    "max_trailing_silence_s": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Silence after speech at most"), None, 1.0, 2, 0.1,
                               QT_TRANSLATE_NOOP("QaThresholdsBox", "Dead air at the end of a take")),
    "max_overrun_s": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Overrun of the slot at most"), None, 1.0, 2, 0.05,
                      QT_TRANSLATE_NOOP("QaThresholdsBox", "How far a take may run past its line's slot before it steps on the next line")),
    "min_resemblance": (QT_TRANSLATE_NOOP("QaThresholdsBox", "Resemblance to the clip at least"), None, 1.0, 2, 0.05,
                        QT_TRANSLATE_NOOP("QaThresholdsBox", "Speaker-embedding similarity (-1 to 1) between the take and the character's clip: "
                        "catches a grossly wrong voice")),
}


class QaThresholdsBox(QGroupBox):
    """Edits a :class:`QaThresholds`; :meth:`thresholds` returns what it shows."""

    def __init__(self, thresholds: QaThresholds, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Take QA: when a take fails"))
        self.setObjectName("qaThresholds")
        self.spins: dict[str, QDoubleSpinBox] = {}
        form = QFormLayout(self)
        for name, (label, suffix, scale, decimals, step, tip) in FIELDS.items():
            spin = number_spin(QA_THRESHOLD_RANGES[name], step, decimals, scale, suffix)
            spin.setObjectName(f"qa_{name}")
            spin.setToolTip(self.tr(tip))
            title = QLabel(self.tr(label))
            title.setToolTip(self.tr(tip))
            form.addRow(title, spin)
            self.spins[name] = spin
        self.defaults_button = QPushButton(self.tr("Defaults"))
        self.defaults_button.setToolTip(self.tr("The measured defaults (docs/qa.md says why each is where it is)"))
        self.defaults_button.clicked.connect(lambda: self.show_thresholds(QaThresholds()))
        hint = hint_label(self.tr("Verdicts follow at once: takes are not listened to again."))
        form.addRow(hint, self.defaults_button)
        self.show_thresholds(thresholds)

    def show_thresholds(self, thresholds: QaThresholds) -> None:
        self._shown = thresholds
        for name, spin in self.spins.items():
            spin.setValue(getattr(thresholds, name) * FIELDS[name][2])

    def thresholds(self) -> QaThresholds:
        """The thresholds as shown. A field left as it was gives back the exact stored value
        (a spin box rounds to its decimals), so an untouched form changes nothing."""
        values = {}
        for name, spin in self.spins.items():
            scale = FIELDS[name][2]
            stored = getattr(self._shown, name)
            shown = round(stored * scale, spin.decimals())
            values[name] = stored if abs(spin.value() - shown) < 1e-9 else spin.value() / scale
        return QaThresholds(**values)
