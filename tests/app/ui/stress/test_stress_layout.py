"""The Stress tab's settings column at the studio's default size, in English and in Chinese: no
Browse… button, box or field is cut at the pane's edge (issue 31: the left column's Browse
buttons, 浏览…, were cut in both languages, the column being wider than its pane)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QPoint, QTranslator
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPushButton,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.ui.stress import StressPanel
from engine.core.paths import REPO_ROOT
from engine.synthesis.config import EngineConfig

STUDIO_TAB = (1190, 690)  # the Stress tab's area in the studio's default 1200×760 window


@pytest.fixture(params=["en", "zh_CN"])
def panel(request: pytest.FixtureRequest, qtbot: QtBot, tmp_path: Path) -> Iterator[StressPanel]:
    """The panel built in ``request.param``'s language (the catalogue compiled as bootstrap does)."""
    translator = QTranslator()
    if request.param != "en":
        lrelease = str(Path(sys.executable).parent / "pyside6-lrelease")
        subprocess.run([lrelease, "-silent", str(REPO_ROOT / "translations" / f"dubstudio_{request.param}.ts"),
                        "-qm", str(tmp_path / f"dubstudio_{request.param}.qm")], check=True)
        assert translator.load(QLocale(request.param), "dubstudio", "_", str(tmp_path))
        QCoreApplication.installTranslator(translator)
    try:
        widget = StressPanel(engine_config=EngineConfig(cache_dir=str(tmp_path / "voice-cache")))
        qtbot.addWidget(widget)
        widget.resize(*STUDIO_TAB)
        widget.show()
        qtbot.waitExposed(widget)
        yield widget
        widget.shutdown()
    finally:
        QCoreApplication.removeTranslator(translator)


def _cut(panel: StressPanel) -> list[str]:
    """The visible controls of the settings column whose right edge lies past its pane's."""
    column = panel.findChild(QWidget, "stressSettings")
    assert column is not None
    viewport = column.viewport()  # type: ignore[attr-defined]
    cut = []
    for kind in (QPushButton, QToolButton, QComboBox, QAbstractSpinBox, QLineEdit):
        for control in column.findChildren(kind):
            if control.isVisible() and not isinstance(control.parent(), QAbstractSpinBox):  # a box's own field
                right = control.mapTo(viewport, QPoint(control.width(), 0)).x()
                if right > viewport.width():
                    cut.append(f"{type(control).__name__} {control.objectName() or control.property('text')}: "
                               f"right edge {right} > {viewport.width()}")
    return cut


def test_no_control_of_the_settings_column_is_cut_at_its_edge(qtbot: QtBot, panel: StressPanel) -> None:
    browse = [b for b in panel.findChildren(QPushButton) if b.isVisible() and b.text() in ("Browse…", "浏览…")]
    assert len(browse) >= 2  # the interpreter's and the text file's
    assert _cut(panel) == []
    panel.target.form().advanced_toggle.click()  # the backend's advanced options open
    qtbot.wait(50)
    assert _cut(panel) == []
    panel.target.location.setCurrentIndex(panel.target.location.findData("server"))  # a server's fields
    qtbot.wait(50)
    assert _cut(panel) == []
    # The plots keep most of the width.
    assert panel.plots.width() >= 0.6 * STUDIO_TAB[0]
