"""The Stress panel: a live load test of the speech engine inside the studio."""

from app.ui.stress.panel import StressPanel

__all__ = ["StressPanel"]
