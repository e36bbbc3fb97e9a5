"""The Stress tab in the studio's tab bar: the stress panel (app.ui.stress), built on first show.

The tab is not tied to a project: it stays while projects come and go. The panel is imported
the first time its tab is shown, so the studio starts without paying for it, and a panel that
fails to load says why in its tab instead of stopping the studio. It starts its own engine
only when a run starts.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.folders import Folders
from app.ui.language import fill, said_error
from engine.synthesis.config import EngineConfig

if TYPE_CHECKING:
    from app.ui.stress import StressPanel

log = logging.getLogger(__name__)

STRESS_TAB = QT_TRANSLATE_NOOP("StressTab", "Stress")


class StressTab(QObject):
    """Adds the Stress tab when the panel is installed, and builds the panel when it is shown."""

    def __init__(self, tabs: QTabWidget, folders: Folders, engine_config: Callable[[], EngineConfig | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tabs = tabs
        self._folders = folders
        self._engine_config = engine_config  # the studio's engine on this computer, if it has one
        self._built = False
        self.panel: StressPanel | None = None  # once built (None when it failed to load)
        if importlib.util.find_spec("app.ui.stress") is not None:
            tabs.addTab(QWidget(), self.tr(STRESS_TAB))  # a placeholder until first shown
            tabs.currentChanged.connect(self._on_tab)

    def follow_engine(self) -> None:
        """The studio's engine changed: the panel starts from it (its own target stays otherwise)."""
        config = self._engine_config()
        if self.panel is not None and config is not None:
            self.panel.set_engine_config(config)

    def shutdown(self) -> None:
        """Stop a run and its engine; the studio is closing."""
        if self.panel is not None:
            self.panel.shutdown()

    def _on_tab(self, index: int) -> None:
        if not self._built and self._tabs.tabText(index) == self.tr(STRESS_TAB):
            self._build(index)

    def _build(self, index: int) -> None:
        self._built = True
        widget: QWidget
        try:
            from app.ui.stress import StressPanel

            widget = self.panel = StressPanel(parent=self._tabs, engine_config=self._engine_config() or EngineConfig(),
                                              folders=self._folders)
        except Exception as exc:  # another team's panel: a failure must not take the studio down
            log.exception("the stress panel failed to load")
            widget = QLabel(fill(self.tr("The stress panel could not be loaded: {exc}"), exc=said_error(exc)))
            widget.setAlignment(Qt.AlignmentFlag.AlignCenter)
        placeholder = self._tabs.widget(index)
        self._tabs.blockSignals(True)
        self._tabs.removeTab(index)
        self._tabs.insertTab(index, widget, self.tr(STRESS_TAB))
        self._tabs.setCurrentIndex(index)
        self._tabs.blockSignals(False)
        if placeholder is not None:
            placeholder.deleteLater()
