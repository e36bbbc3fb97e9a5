"""The script table's columns: each a :class:`LineColumn` that carries its own behaviour.

A column knows its title, width, alignment and header tooltip, what it shows for a line, what an
editor starts from, the undoable edit it makes, its cell tooltip and colour, and whether a click
on its header reorders the script (Picard's item-view columns do the same). :class:`Column` lists
them in order; :class:`~app.ui.script.lines_model.LinesModel` only dispatches a Qt role to the
column, so a new column is one class and one line here.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from PySide6.QtCore import (
    QCoreApplication,
)

from app.project import (
    Character,
    ChooseTake,
    Command,
    EditLine,
    Fit,
    Line,
    LineStatus,
    Project,
    SortLinesByTime,
    phrases,
)
from app.project.messages import explain
from app.project.timecode import format_clock, parse_time
from app.project.translatable import QT_TRANSLATE_NOOP
from app.project.undo import time_order
from app.ui.language import declared, fill, number, say, shown_message, translated
from app.ui.script.line_delivery import FOLLOWS_CHARACTER
from engine.core.codes import QaCode
from engine.core.languages import LANGUAGES
from engine.hearing.qa import wording as qa_wording
from engine.hearing.qa.checks import Finding, TakeChecks
from engine.hearing.qa.wording import QaPhrase

if TYPE_CHECKING:
    from app.ui.script.lines_model import LinesModel


class QaState(str, enum.Enum):
    """What the QA column shows for a line's chosen take."""

    NO_TAKE = ""
    PENDING = "pending"  # not checked yet (being checked, or made before QA existed)
    PASSED = "passed"
    RUNS_LONG = "runs_long"  # passed, but runs past its slot by less than the QA limit: a finding still
    FAILED = "failed"
    UNCHECKED = "unchecked"  # no recogniser for the language; nothing else failed
    ERROR = "error"  # the check itself could not run (unreadable take, checker crashed)


QA_TEXT = {
    QaState.NO_TAKE: "",
    QaState.PENDING: QT_TRANSLATE_NOOP("LinesModel", "Checking…"),
    QaState.PASSED: QT_TRANSLATE_NOOP("LinesModel", "✓ Passed"),
    QaState.RUNS_LONG: QT_TRANSLATE_NOOP("LinesModel", "⚠ Runs long"),
    QaState.FAILED: QT_TRANSLATE_NOOP("LinesModel", "✗ Failed"),
    QaState.UNCHECKED: QT_TRANSLATE_NOOP("LinesModel", "Not checked"),
    QaState.ERROR: QT_TRANSLATE_NOOP("LinesModel", "⚠ QA error"),
}
QA_COLOUR = {
    QaState.PENDING: "#8a8a8a",
    QaState.PASSED: "#3b8a3e",
    QaState.RUNS_LONG: "#b8860b",
    QaState.FAILED: "#d62728",
    QaState.UNCHECKED: "#b8860b",
    QaState.ERROR: "#c45100",
}

STATUS_TEXT = {
    LineStatus.NOT_RENDERED: QT_TRANSLATE_NOOP("LinesModel", "Not rendered"),
    LineStatus.QUEUED: QT_TRANSLATE_NOOP("LinesModel", "Queued"),
    LineStatus.RENDERING: QT_TRANSLATE_NOOP("LinesModel", "Rendering…"),
    LineStatus.DONE: QT_TRANSLATE_NOOP("LinesModel", "Done"),
    LineStatus.FAILED: QT_TRANSLATE_NOOP("LinesModel", "Failed"),
    LineStatus.STALE: QT_TRANSLATE_NOOP("LinesModel", "Stale"),
}
STATUS_COLOUR = {
    LineStatus.NOT_RENDERED: "#8a8a8a",
    LineStatus.QUEUED: "#4e79a7",
    LineStatus.RENDERING: "#f28e2b",
    LineStatus.DONE: "#3b8a3e",
    LineStatus.FAILED: "#d62728",
    LineStatus.STALE: "#b8860b",
}
UNASSIGNED = "—"
WARNING_COLOUR = "#b8860b"  # a timing warning, an overrun within the QA limit
ESTIMATE_COLOUR = "#8a8a8a"  # an expected length, before there is a take
DRAFT_COLOUR = "#7b5ea7"  # a machine translation nobody has checked

# The QA cell names the worst finding, in the order a dubber fixes them; the tooltip has all.
FINDING_LABELS: dict[str, str] = {
    QaCode.SILENT: QT_TRANSLATE_NOOP("LinesModel", "Silent"),
    QaCode.UNINTELLIGIBLE: QT_TRANSLATE_NOOP("LinesModel", "Misheard"),
    QaCode.OVERRUN: QT_TRANSLATE_NOOP("LinesModel", "Too long"),
    QaCode.UNLIKE_VOICE: QT_TRANSLATE_NOOP("LinesModel", "Unlike voice"),
    QaCode.CLIPPING: QT_TRANSLATE_NOOP("LinesModel", "Clipped"),
    QaCode.LEADING_SILENCE: QT_TRANSLATE_NOOP("LinesModel", "Silence"),
    QaCode.INNER_SILENCE: QT_TRANSLATE_NOOP("LinesModel", "Long pause"),
    QaCode.TRAILING_SILENCE: QT_TRANSLATE_NOOP("LinesModel", "Silence"),
}


def worst_first(findings: tuple[Finding, ...]) -> list[Finding]:
    """The failing findings (not the not-checked note), the worst first."""
    order = list(FINDING_LABELS)
    failing = [f for f in findings if f.code != QaCode.NOT_CHECKED]
    return sorted(failing, key=lambda f: order.index(f.code) if f.code in order else len(order))

# A line's own fit choice (Line.fit) as the Fit column edits it: None follows the project.
FIT_CHOICES: dict[str, bool | None] = {"default": None, "on": True, "off": False}
FITTED_COLOUR = "#2f6f3e"


@dataclass(frozen=True)
class LineColumn:
    """One column of the script table: its layout and what it does with a line.

    Layout: title, least width in pixels (0: a column that stretches), alignment, and a
    ``sample`` (its widest usual value): a column with one is sized to it or its title,
    whichever is wider, so the stretching Text (and Source) columns get the room that is left. The base
    shows nothing and edits nothing; each column overrides what it has.
    """

    title: str
    width: int = 0
    right_aligned: bool = False
    sample: str = ""
    header_tip: str | None = None

    editable: ClassVar[bool] = False  # whether write() can change a line

    def display(self, model: LinesModel, line: Line) -> str:
        return ""

    def edit_value(self, model: LinesModel, line: Line) -> str:
        """What an editor starts from: the shown text, unless the column edits an id or a choice."""
        return self.display(model, line)

    def can_edit(self, line: Line) -> bool:
        return self.editable

    def write(self, line: Line, value: object) -> Command | None:
        """The undoable edit that puts ``value`` in the cell, None when it changes nothing;
        ValueError, in words, when the value cannot be read."""
        return None

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        return None

    def colour(self, model: LinesModel, line: Line) -> str | None:
        """The text's colour, when it says something (a status, a warning, a draft)."""
        return None

    def swatch(self, model: LinesModel, line: Line) -> str | None:
        """A colour shown before the text."""
        return None

    def sort(self, lines: Sequence[Line]) -> Command | None:
        """The undoable reorder a click on the header makes, None when it makes none: script
        order is data (a slot ends where the next line starts), so no view-only sorting."""
        return None


class CharacterColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        char = _character(model.project, line)
        return char.name if char is not None else UNASSIGNED

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return line.character_id or ""

    def write(self, line: Line, value: object) -> Command | None:
        new = str(value) if value else None
        return None if new == line.character_id else EditLine(line.id, character_id=new)

    def tooltip(self, model: LinesModel, line: Line) -> str | None:  # the full name, when the column is narrow
        char = _character(model.project, line)
        return char.name if char is not None else QCoreApplication.translate("LinesModel", "No character: double-click to choose one")

    def swatch(self, model: LinesModel, line: Line) -> str | None:
        char = _character(model.project, line)
        return char.colour if char is not None else None


class TextColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        return line.text

    def write(self, line: Line, value: object) -> Command | None:
        if value == line.text:
            return None
        if line.draft:  # the translation was read and corrected: no longer a draft
            return EditLine(line.id, text=str(value), draft=False)
        return EditLine(line.id, text=str(value))

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        if line.draft:
            return fill(QCoreApplication.translate("LinesModel", "{text}\n\nA machine translation to check: editing the text marks it checked."), text=line.text)
        return line.text or None

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return DRAFT_COLOUR if line.draft else None


class SourceColumn(LineColumn):
    """The original a translated line came from (issue 18); the panel shows it when there is one."""

    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        return line.source_text

    def write(self, line: Line, value: object) -> Command | None:
        return None if value == line.source_text else EditLine(line.id, source_text=str(value))

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        budget = line.budget
        if budget is None:
            return line.source_text or None
        unit = (QCoreApplication.translate("LinesModel", "letters") if budget.unit == "letters"
                else QCoreApplication.translate("LinesModel", "characters"))
        fit = (QCoreApplication.translate("LinesModel", "The translation fits its slot: {0} of {1} {2}.")
               if budget.fits(line.text) else
               QCoreApplication.translate("LinesModel", "The translation runs past its slot: {0} {2} for {1} "
                                                        "(Edit › Shorten to fit)."))
        return f"{line.source_text}\n\n" + fill(fit, budget.length(line.text), budget.limit, unit)


@dataclass(frozen=True)
class TimeColumn(LineColumn):
    """A line's own start or end timecode, read as typed (SRT style too) and shown one way."""

    key: str = "start"  # the Line field: "start" or "end"
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        seconds = getattr(line, self.key)
        return format_clock(seconds) if seconds is not None else ""

    def write(self, line: Line, value: object) -> Command | None:
        text = str(value or "").strip()
        seconds = parse_time(text) if text else None
        if seconds == getattr(line, self.key):
            return None
        return EditLine(line.id, start=seconds) if self.key == "start" else EditLine(line.id, end=seconds)


class StartColumn(TimeColumn):
    def sort(self, lines: Sequence[Line]) -> Command | None:
        """Time order, as one undoable step (:class:`SortLinesByTime`): untimed lines stay after
        the line before them. Only this column sorts."""
        in_order = [line.id for line in time_order(lines)] == [line.id for line in lines]
        return None if in_order else SortLinesByTime()


class StatusColumn(LineColumn):
    """The line's render status; ⚠ where the engine's backend cannot speak the line's language."""

    def display(self, model: LinesModel, line: Line) -> str:
        mark = "⚠ " if model.language_gap(line) is not None else ""
        return mark + QCoreApplication.translate("LinesModel", STATUS_TEXT[model.status_of(line)])

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return WARNING_COLOUR if model.language_gap(line) is not None else STATUS_COLOUR[model.status_of(line)]

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        if (gap := model.language_gap(line)) is not None:
            # The refusal says how to fix it, by where the line's language came from (its own or its
            # character's): a fixed sentence here told a line set to its own language to set its character's.
            return QCoreApplication.translate(
                "LinesModel", "The engine's voice cannot speak this line's language: it will not be rendered.") + "\n" + str(
                    replace(translated(explain(gap.problem)), headline=""))  # why, in words, the code last
        status = model.status_of(line)
        if status is LineStatus.FAILED and line.error:
            return shown_message(line.error)
        if status is LineStatus.STALE:
            return QCoreApplication.translate("LinesModel", "Text, character, clip or voice settings changed since this take was rendered.")
        return None


class DurationColumn(LineColumn):
    def display(self, model: LinesModel, line: Line) -> str:
        duration = model.project.duration(line)
        timing = model.timing_of(line)
        mark = "⚠ " if model.duration_colour(line) in (WARNING_COLOUR, STATUS_COLOUR[LineStatus.FAILED]) else ""
        if duration is not None:
            return mark + fill(QCoreApplication.translate("LinesModel", "{seconds:.2f} s"), seconds=duration)
        # Before rendering: the length this voice's pace predicts, so a long line shows early.
        return mark + fill(QCoreApplication.translate("LinesModel", "≈{seconds:.1f} s"), seconds=timing.expected_s) if (
            timing is not None and line.text.strip()) else ""

    def colour(self, model: LinesModel, line: Line) -> str | None:
        return model.duration_colour(line)

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        """The take's overrun, then the pace warnings, then the figures (CPS, WPM, expected length)."""
        timing = model.timing_of(line)
        text: list[str] = []
        over = model.overrun(line)
        placement = model.placement_of(line)
        if over > 0 and placement is not None and placement[1] is not None:
            text.append(fill(QCoreApplication.translate("LinesModel", "The take is {over:.2f} s longer than its slot ({start}–{end})."), over=over, start=format_clock(placement[0]), end=format_clock(placement[1])))
        if timing is not None:
            has_take = model.project.chosen_take(line) is not None
            text += [say(w) for w in timing.warnings() if not (has_take and w.template == phrases.LIKELY_TOO_LONG)]
            if line.text.strip():
                text.append(say(timing.describe()))
        return "\n".join(text) or None


class TakeColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        if not line.takes:
            return ""
        ids = [t.id for t in line.takes]
        number = ids.index(line.chosen_take) + 1 if line.chosen_take in ids else 0
        return fill(QCoreApplication.translate("LinesModel", "{number} of {count}"), number=number or "–", count=len(ids))

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return line.chosen_take or ""

    def can_edit(self, line: Line) -> bool:
        return len(line.takes) >= 2  # one take leaves nothing to choose

    def write(self, line: Line, value: object) -> Command | None:
        return None if not value or value == line.chosen_take else ChooseTake(line.id, str(value))


class QaColumn(LineColumn):
    def display(self, model: LinesModel, line: Line) -> str:
        state = model.qa_state(line)
        verdict = model.verdict_of(line) if state is QaState.FAILED else None
        failing = worst_first(verdict.findings) if verdict else []
        if not failing:
            return QCoreApplication.translate("LinesModel", QA_TEXT[state])
        label = "✗ " + QCoreApplication.translate("LinesModel", FINDING_LABELS.get(failing[0].code, "Failed"))
        return f"{label} +{len(failing) - 1}" if len(failing) > 1 else label

    def colour(self, model: LinesModel, line: Line) -> str | None:
        state = model.qa_state(line)
        return None if state is QaState.NO_TAKE else QA_COLOUR[state]

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        take = model.project.chosen_take(line)
        if take is None:
            return None
        qa_errors = model.document.qa_errors
        if take.qa is None and take.id in qa_errors:
            return qa_error_tooltip(qa_errors[take.id])
        if take.qa is None:
            return QCoreApplication.translate("LinesModel", "This take has not been checked yet; QA runs in the background after each render.")
        verdict = model.verdict_of(line)
        findings = tuple(worst_first(verdict.findings)) + tuple(
            f for f in verdict.findings if f.code == QaCode.NOT_CHECKED) if verdict else ()
        over = model.overrun(line)
        if over > 0 and not any(f.code == QaCode.OVERRUN for f in findings):
            limit = model.project.settings.qa.max_overrun_s
            findings = (Finding(QaCode.OVERRUN, QaPhrase(qa_wording.OVERRUN_WARNING, seconds=over, limit=limit)),
                        ) + findings
        return qa_tooltip(take.qa, findings)


class FitColumn(LineColumn):
    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        fitted = _fitted(model.project, line)
        if fitted is not None and (over := model.overrun(line)) > 0:  # fitting stopped at the limit
            return QCoreApplication.translate("FitColumn", "too long +%1 s").replace("%1", number(over, 2))
        if fitted is not None:  # "rate 1.12×": the column says it is the fit (full text in the tooltip)
            return say(fitted.how())
        if not model.project.wants_fit(line):
            return ""
        timing = model.timing_of(line)  # an open slot (no end, nothing after) leaves the take as it is
        return QCoreApplication.translate("LinesModel", "on render") if timing is not None and timing.slot_s is not None else ""

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return next(key for key, value in FIT_CHOICES.items() if value is line.fit)

    def write(self, line: Line, value: object) -> Command | None:
        if not isinstance(value, str) or value not in FIT_CHOICES or FIT_CHOICES[value] is line.fit:
            return None
        return EditLine(line.id, fit=FIT_CHOICES[value])

    def colour(self, model: LinesModel, line: Line) -> str | None:
        if _fitted(model.project, line) is None:
            return None
        return WARNING_COLOUR if model.overrun(line) > 0 else FITTED_COLOUR

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        project = model.project
        default = QCoreApplication.translate("LinesModel", "on") if project.settings.fit_default else QCoreApplication.translate("LinesModel", "off")
        choice = {None: fill(QCoreApplication.translate("LinesModel", "the project's default ({default})"), default=default),
                  True: QCoreApplication.translate("LinesModel", "always"), False: QCoreApplication.translate("LinesModel", "never")}[line.fit]
        text = [fill(QCoreApplication.translate("LinesModel", "Fit to slot: {choice}. Double-click to change."), choice=choice)]
        fitted = _fitted(project, line)
        if fitted is not None:
            text.insert(0, fill(QCoreApplication.translate("LinesModel", "{fit}: {natural:.2f} s of speech into a {slot:.2f} s slot"), fit=say(fitted.describe()), natural=fitted.natural_s, slot=fitted.slot_s))
            if (over := model.overrun(line)) > 0:
                text.insert(0, QCoreApplication.translate(
                    "FitColumn", "Too long: shorten the text or widen the slot (%1 s more needed). Fitting stops at "
                    "the project's total speed-up limit, %2×.").replace("%1", number(over, 2)).replace(
                    "%2", number(project.settings.fit_max_total, 2)))  # numbers as the studio's locale writes them
        return "\n".join(text)


class LanguageColumn(LineColumn):
    """The line's own language (:attr:`Line.language`): blank where it follows its character (the
    common case), the language's name where it is set, so a Mandarin speaker's one English sentence
    is spoken, timed and checked as English. Edited with a combo of the one language table."""

    editable = True

    def display(self, model: LinesModel, line: Line) -> str:
        return declared("languages", LANGUAGES[line.language].name) if line.language in LANGUAGES else ""

    def edit_value(self, model: LinesModel, line: Line) -> str:
        return line.language or ""

    def write(self, line: Line, value: object) -> Command | None:
        new = str(value) if value else None  # "" is FOLLOWS_CHARACTER
        return None if new == line.language else EditLine(line.id, language=new)

    def tooltip(self, model: LinesModel, line: Line) -> str | None:
        spoken = model.project.spoken_language(line)
        name = declared("languages", LANGUAGES[spoken].name) if spoken in LANGUAGES else spoken
        if line.language is None:  # the editor's first choice, in its words (FOLLOWS_CHARACTER)
            tip = QCoreApplication.translate("LinesModel", "{follows}: spoken in {language}. Double-click to "
                                                           "set another language for this line alone.")
        else:
            tip = QCoreApplication.translate("LinesModel", "This line is spoken in {language}, whatever its "
                                                           "character's language. Double-click to change.")
        return fill(tip, language=name, follows=QCoreApplication.translate("LineDelivery", FOLLOWS_CHARACTER))


def _character(project: Project, line: Line) -> Character | None:
    if line.character_id is None:
        return None
    return next((c for c in project.characters if c.id == line.character_id), None)


def _fitted(project: Project, line: Line) -> Fit | None:
    take = project.chosen_take(line)
    return take.fit if take is not None else None


class Column(enum.IntEnum):
    """The table's columns in order, each a :class:`LineColumn` (``column.spec``). ``Column(n)``
    looks one up by position; the view and the model both read them.

    A line's order number is the vertical header, not a column: it is derived from the row,
    and a column whose every value shifts when a row is inserted would make each insertion
    look like an edit of all the rows below."""

    spec: LineColumn

    # ``Column(n)`` looks a column up by position; the default only tells type checkers so.
    def __new__(cls, position: int, spec: LineColumn | None = None) -> Column:
        member = int.__new__(cls, position)
        member._value_ = position
        if spec is not None:
            member.spec = spec
        return member

    CHARACTER = (0, CharacterColumn(QT_TRANSLATE_NOOP("LinesModel", "Character"), 90))  # sized to the project's names (script_panel)
    TEXT = (1, TextColumn(QT_TRANSLATE_NOOP("LinesModel", "Text")))
    START = (2, StartColumn(QT_TRANSLATE_NOOP("LinesModel", "Start"), 60, True, "00:00.000",
                            QT_TRANSLATE_NOOP("LinesModel", "Click to put the script in time order (one undoable "
                                                            "step)"), key="start"))
    END = (3, TimeColumn(QT_TRANSLATE_NOOP("LinesModel", "End"), 60, True, "00:00.000", key="end"))
    STATUS = (4, StatusColumn(QT_TRANSLATE_NOOP("LinesModel", "Status"), 60, sample="Not rendered"))
    DURATION = (5, DurationColumn(QT_TRANSLATE_NOOP("LinesModel", "Duration"), 60, True, "⚠ ≈10.0 s"))
    TAKE = (6, TakeColumn(QT_TRANSLATE_NOOP("LinesModel", "Take"), 44, sample="2 of 3"))
    QA = (7, QaColumn(QT_TRANSLATE_NOOP("LinesModel", "QA"), 60, sample="✗ Unlike voice"))
    FIT = (8, FitColumn(QT_TRANSLATE_NOOP("LinesModel", "Fit"), 60, sample="stretch 1.08×",  # "rate 1.25× + stretch 1.08×" wraps to two
                        header_tip=QT_TRANSLATE_NOOP("LinesModel", "Fit to slot: speak faster (then time-stretch) when a "
                                                                "take is longer than its slot")))
    # Shown where a line has a language of its own. Sized to the widest name as the Chinese studio
    # writes it (中文（普通话）, which does not wrap); "Chinese (Mandarin)" wraps onto the row's second line.
    LANGUAGE = (9, LanguageColumn(QT_TRANSLATE_NOOP("LinesModel", "Language"), 60, sample="中文（普通话）",
                                  header_tip=QT_TRANSLATE_NOOP("LinesModel", "A line's own language, where it is "
                                                                            "not its character's: the voice, timing "
                                                                            "and QA follow it")))
    # Shown when a line has a source text; it stretches as Text does, the two sharing the room left
    # (at a fixed 240 px the Text column shrank to a word at the default window size).
    SOURCE = (10, SourceColumn(QT_TRANSLATE_NOOP("LinesModel", "Source")))

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def width(self) -> int:
        return self.spec.width

    @property
    def editable(self) -> bool:
        return self.spec.editable

    @property
    def right_aligned(self) -> bool:
        return self.spec.right_aligned

    @property
    def sample(self) -> str:
        return self.spec.sample



def qa_error_tooltip(error: str) -> str:
    """Why a take's QA check could not run, and how to run it again."""
    return fill(QCoreApplication.translate(
        "QaTooltip", "The QA check could not run: {error}\nThe take itself is kept. Check QA again (Render menu or "
        "right-click), or render the line again."), error=say(error))


def finding_text(finding: Finding) -> str:
    """One QA finding as the studio shows it: its code, and its reason in the studio's language
    (the reason is a QaPhrase of engine.hearing.qa.wording)."""
    return fill(QCoreApplication.translate("QaTooltip", "{code}: {reason}"), code=finding.code,
                reason=say(finding.message))


def qa_tooltip(checks: TakeChecks, findings: tuple[Finding, ...]) -> str:
    """The findings first (what to fix), then what was measured (why)."""
    lines = [finding_text(finding) for finding in findings] or [QCoreApplication.translate("QaTooltip", "Passed every check.")]
    lines.append("")
    if checks.wer is not None:
        rate = (QCoreApplication.translate("QaTooltip", "Character error rate {rate:.2f} ({language}); {recogniser} heard “{heard}”") if checks.metric == "cer"
                else QCoreApplication.translate("QaTooltip", "Word error rate {rate:.2f} ({language}); {recogniser} heard “{heard}”"))
        lines.append(fill(rate, rate=checks.wer, language=checks.language, recogniser=checks.recogniser,
                          heard=checks.transcript))
    if checks.expected_speech_s:
        lines.append(fill(QCoreApplication.translate("QaTooltip", "Speech: {speech:.2f} s where the text needs about {expected:.2f} s"),
                          speech=checks.speech_s, expected=checks.expected_speech_s))
    lines.append(fill(QCoreApplication.translate("QaTooltip", "Clipping: {share:.2%} of samples at full scale"), share=checks.clipping))
    lines.append(fill(QCoreApplication.translate("QaTooltip", "Silence: {before:.2f} s before, longest pause {pause:.2f} s, {after:.2f} s after"),
                      before=checks.leading_silence_s, pause=checks.inner_silence_s, after=checks.trailing_silence_s))
    if checks.resemblance is not None:
        lines.append(fill(QCoreApplication.translate("QaTooltip", "Resemblance to the character's clip: {resemblance:.2f} (GE2E cosine, 1 = same voice)"),
                          resemblance=checks.resemblance))
    checked = checks.checked.replace("T", " ")[:16]
    lines.append(fill(QCoreApplication.translate("QaTooltip", "Checked {when} UTC with {recogniser}"), when=checked, recogniser=checks.recogniser)
                 if checks.recogniser else fill(QCoreApplication.translate("QaTooltip", "Checked {when} UTC"), when=checked))
    return "\n".join(lines)
