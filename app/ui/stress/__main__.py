"""`python -m app.ui.stress`: the Stress panel alone in a window (before or beside the studio)."""

from __future__ import annotations

import multiprocessing
import sys

from PySide6.QtCore import QCoreApplication


def main() -> int:
    multiprocessing.freeze_support()
    from PySide6.QtWidgets import QApplication, QMainWindow

    from app.ui.stress.panel import StressPanel

    app = QApplication.instance() or QApplication(sys.argv)
    window = QMainWindow()
    window.setWindowTitle(QCoreApplication.translate("__main__", "DubStudio — Stress"))
    panel = StressPanel(window)
    window.setCentralWidget(panel)
    window.resize(1400, 900)
    app.aboutToQuit.connect(panel.shutdown)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
