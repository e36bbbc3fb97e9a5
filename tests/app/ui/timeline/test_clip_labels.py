"""The timeline's clip labels at the default window: words over the clip's rows, not "3 · The ha…"
(issue 34)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics

from app.ui.timeline.drawing import wrapped_label


def test_a_label_wraps_over_the_rows_a_clip_holds_and_only_the_last_is_elided(qapp: object) -> None:
    metrics = QFontMetrics(QFont())
    label = "4 · The harbour master never had to pay our debts, not once in all those years."
    width = metrics.horizontalAdvance("master never had to")
    rows = wrapped_label(metrics, label, width, 3)
    assert len(rows) == 3 and all(metrics.horizontalAdvance(row) <= width for row in rows)
    assert rows[0] == "4 · The harbour" and rows[1] == "master never had to"  # whole words, nothing lost
    assert rows[2].endswith("…") and rows[2].startswith("pay our")  # the rest, elided on the last row
    assert wrapped_label(metrics, "5 · Short.", width, 3) == ["5 · Short."]
    assert " ".join(wrapped_label(metrics, label, width * 4, 3)) == label
