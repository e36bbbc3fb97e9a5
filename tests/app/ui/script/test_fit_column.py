"""The script table's Fit column flags a fitted take that still runs past its slot (issue 33):
fitting stopped at the total speed-up limit, and the line needs a shorter text or a wider slot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt

from app.project import Fit, Line
from app.ui.script.lines_model import Column, LinesModel
from app.ui.window.document import Document
from tests.app.project.conftest import add_fake_take, make_project, tone


def test_a_fitted_take_over_its_slot_is_flagged_too_long_with_the_seconds_it_needs(tmp_path: Path,
                                                                                  qapp: object) -> None:
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
    model = LinesModel(Document(project))
    fits, over = (model.index(row, Column.FIT) for row in range(2))
    assert fits.data() == "rate 1.25× + stretch 1.04×"
    assert over.data() == "too long +0.30 s"
    tip = over.data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Too long: shorten the text or widen the slot (0.30 s more needed)")
    assert "1.30×" in tip
    assert over.data(Qt.ItemDataRole.ForegroundRole) != fits.data(Qt.ItemDataRole.ForegroundRole)
