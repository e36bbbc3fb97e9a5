"""The script table's Fit column flags a fitted take that still runs past its slot (issue 33):
fitting stopped at the total speed-up limit, and the line needs a shorter text or a wider slot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QLocale, Qt

from app.project import Fit, Line
from app.ui.script.lines_model import Column, LinesModel
from app.ui.window.document import Document
from tests.app.project.conftest import add_fake_take, make_project, tone


def over_limit_model(tmp_path: Path) -> LinesModel:
    """Three lines; "over" is fitted at the 1.3x limit and still needs 0.3 s (0.2 s of silence borrowed)."""
    project = make_project(tmp_path / "scene")
    project.lines = [Line("fits", "One line.", "maya", start=0.0, end=2.0),
                     Line("over", "Another line.", "maya", start=5.0, end=6.0),
                     Line("next", "Then this.", "rex", start=6.2, end=8.0)]
    for line, seconds in zip(project.lines, (1.5, 1.5, 1.0)):
        take = add_fake_take(project, line, tone(seconds))
        if line.id != "next":  # fitted at the 1.3x limit: "over" still needs 0.3 s (0.2 s of silence borrowed)
            fitted = replace(take, id=f"{line.id}-fit", fit=Fit(rate=1.25, stretch=1.04, natural_s=1.95, slot_s=1.2))
            project.add_take(line, fitted)
    project.settings.fit_default = True
    return LinesModel(Document(project))


def test_a_fitted_take_over_its_slot_is_flagged_too_long_with_the_seconds_it_needs(tmp_path: Path,
                                                                                  qapp: object) -> None:
    model = over_limit_model(tmp_path)
    fits, over = (model.index(row, Column.FIT) for row in range(2))
    assert fits.data() == "rate 1.25× + stretch 1.04×"
    assert over.data() == "too long +0.30 s"
    tip = over.data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Too long: shorten the text or widen the slot (0.30 s more needed)")
    assert "1.30×" in tip
    assert over.data(Qt.ItemDataRole.ForegroundRole) != fits.data(Qt.ItemDataRole.ForegroundRole)


def test_the_seconds_it_needs_are_written_as_the_studios_locale_writes_numbers(tmp_path: Path, qapp: object) -> None:
    """Under a German locale the column said "too long +0.30 s" where every other figure reads 0,30."""
    before = QLocale()
    QLocale.setDefault(QLocale("de_DE"))
    try:
        model = over_limit_model(tmp_path)  # kept: an index outlives no model
        over = model.index(1, Column.FIT)
        assert over.data() == "too long +0,30 s"
        tip = over.data(Qt.ItemDataRole.ToolTipRole)
        assert "(0,30 s more needed)" in tip and "1,30×" in tip, tip
    finally:
        QLocale.setDefault(before)
