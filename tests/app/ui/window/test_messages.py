"""Problems the studio reports stay listed in words, the code as detail; an error dialog reads
in words with the code last (issue 21)."""

from __future__ import annotations

from app.ui.window.main_window import MainWindow
from app.ui.window.notifications import Level


def test_problems_stay_listed_in_words_with_the_code_as_detail(idle_window: MainWindow) -> None:
    idle_window.messages.status("E_CLIP_IMPORT: cannot decode test_clip.srt as audio: not a sound file", 3000)
    note = idle_window.messages.notifications.notifications[0]
    assert note.level is Level.ERROR and note.code == "E_CLIP_IMPORT"
    assert note.headline == "The voice clip could not be imported."
    assert note.detail == "Cannot decode test_clip.srt as audio: not a sound file."
    assert idle_window.messages.badge.text() == "✗ 1 message"  # unseen, counted on the status bar
    assert idle_window.statusBar().currentMessage().startswith("The voice clip could not be imported.")
    idle_window.messages.badge.click()  # opens the list, and the count is seen
    assert idle_window.messages.dock.isVisible() and idle_window.messages.badge.text() == "Messages"
    entry = idle_window.messages.notifications.list.item(0).text()
    assert entry.splitlines()[0] == "✗ The voice clip could not be imported." and "E_CLIP_IMPORT" in entry
    # a long report (an export's summary) is kept whole, never cut at the bar's edge
    summary = "Exported mix: 1 file(s) in /somewhere/exports · 1 take(s) failed QA (filter the script by “Failed QA”)"
    idle_window.messages.notify(summary, Level.WARNING)
    assert idle_window.messages.notifications.list.item(0).text().startswith(f"⚠ {summary}")
    # words without a code are information: listed when asked, not counted as a problem
    idle_window.messages.status("Saved", 3000)
    assert idle_window.messages.notifications.notifications[0].headline.startswith("Exported mix")


def test_an_error_dialog_reads_in_words_with_the_code_last(idle_window: MainWindow) -> None:
    from PySide6.QtWidgets import QMessageBox

    idle_window.messages.error("Cannot import", "E_IMPORT_FORMAT: lines.srt, line 4: malformed timecode line '00:01'")
    box = idle_window.findChildren(QMessageBox, "messageBox")[-1]
    assert box.text() == ("The script file could not be read. lines.srt, line 4: malformed timecode line '00:01'. "
                          "(E_IMPORT_FORMAT)")
    assert idle_window.messages.notifications.notifications[0].code == "E_IMPORT_FORMAT"
