"""An event-loop lag probe: how late a periodic timer fires tells how busy the GUI thread is.

A precise timer asks to fire every ``interval_ms``; the time between two firings minus the
interval is the lag a click or a repaint would have suffered at that moment. The stress
panel shows its percentiles so anyone can see the window stays responsive under load.
"""

from __future__ import annotations

import time
from collections import deque

from PySide6.QtCore import QObject, Qt, QTimer

from engine.load.stats import percentile


class LagProbe(QObject):
    def __init__(self, interval_ms: int = 20, keep_s: float = 10.0, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.interval_s = interval_ms / 1000.0
        self._recent: deque[tuple[float, float]] = deque()  # (time, lag seconds) of the last keep_s
        self._keep_s = keep_s
        self._session: list[float] = []  # every lag since reset(): the run's figures
        self._last: float | None = None
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        if not self._timer.isActive():
            self._last = None
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def reset(self) -> None:
        """Start collecting the figures of a new run."""
        self._session.clear()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            lag = max(0.0, now - self._last - self.interval_s)
            self._recent.append((now, lag))
            self._session.append(lag)
            while self._recent and self._recent[0][0] < now - self._keep_s:
                self._recent.popleft()
        self._last = now

    @staticmethod
    def _figures(lags: list[float]) -> dict[str, float] | None:
        if not lags:
            return None
        return {"samples": float(len(lags)), "p50_ms": percentile(lags, 50) * 1000,
                "p99_ms": percentile(lags, 99) * 1000, "max_ms": max(lags) * 1000}

    def recent(self) -> dict[str, float] | None:
        """Lag figures over the last ``keep_s`` seconds (the live display)."""
        return self._figures([lag for _, lag in self._recent])

    def session(self) -> dict[str, float] | None:
        """Lag figures since :meth:`reset` (a whole run)."""
        return self._figures(self._session)
