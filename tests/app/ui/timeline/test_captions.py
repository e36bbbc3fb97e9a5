"""The video preview captions the line at the playhead, and nothing between lines (issue 21)."""

from __future__ import annotations

from app.ui.window.main_window import MainWindow


def test_the_video_preview_captions_the_line_at_the_playhead(idle_window: MainWindow) -> None:
    doc, timeline = idle_window.document, idle_window.timeline
    assert doc is not None and timeline is not None
    first, second = doc.project.lines[:2]
    assert first.start is not None and second.start is not None and first.end is not None
    timeline.seek(first.start + 0.2)
    assert timeline.preview.caption == first.text
    timeline.seek((first.end + second.start) / 2)  # between the two slots: nothing is said
    assert timeline.preview.caption == ""
    timeline.seek(second.start + 0.1)
    assert timeline.preview.caption == second.text
    grabbed = timeline.preview.grab().toImage()
    assert not grabbed.isNull()
