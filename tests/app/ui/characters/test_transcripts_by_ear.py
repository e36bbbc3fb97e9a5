"""The Characters panel hears a transcript for a clip imported without one (the real base model),
marks it as heard, and warns when a trim parts a typed transcript from its clip."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from app.ui.characters.characters_panel import CharactersPanel
from app.ui.window.document import Document
from engine.hearing.qa.wer import error_rate
from tests.app.ui.characters.test_characters_panel import panel  # noqa: F401 - the fixture (pytest passes it by name)
from tests.engine.hearing.qa.test_checks import ZH_CLIP, ZH_TEXT


def test_an_imported_clip_without_a_transcript_gets_one_heard(panel: tuple[CharactersPanel, Document, list[Any]],
                                                              tmp_path: Path) -> None:
    widget, doc, _ = panel
    clip = tmp_path / "lin.wav"  # no lin.txt beside it
    shutil.copy(ZH_CLIP, clip)
    widget._add()
    new = doc.project.characters[-1]
    assert widget.import_clip_file(str(clip))
    assert new.transcript_heard and error_rate(ZH_TEXT, new.transcript, "zh") <= 0.2, new.transcript
    assert widget.transcript.toPlainText() == new.transcript
    assert widget.transcript_note.text().startswith("Heard from the clip")
    doc.undo()  # hearing is an ordinary edit: undo leaves the clip without words
    assert new.transcript == "" and not new.transcript_heard

    widget.transcript.setPlainText(ZH_TEXT)  # typed: no longer marked as heard
    widget.transcript.committed.emit(ZH_TEXT)
    assert new.transcript == ZH_TEXT and not new.transcript_heard
    assert "⚠" not in widget.transcript_note.text()
    widget._on_trim(1.6, -1.0)  # the first half of the sentence trimmed away
    assert "does not match what is heard" in widget.transcript_note.text(), widget.transcript_note.text()


def test_the_chinese_studio_says_a_clip_s_mismatch_in_chinese(panel: tuple[CharactersPanel, Document, list[Any]],
                                                               chinese: None, tmp_path: Path) -> None:
    """The engine's sentence is English (the commands print it); the panel says it translated."""
    widget, doc, _ = panel
    clip = tmp_path / "lin.wav"
    shutil.copy(ZH_CLIP, clip)
    (tmp_path / "lin.txt").write_text(ZH_TEXT, encoding="utf-8")
    widget._add()
    assert widget.import_clip_file(str(clip))
    widget._on_trim(1.6, -1.0)  # the first half of the sentence trimmed away
    note = widget.transcript_note.text()
    assert "文字稿与参考音频里听到的内容不符" in note and "字错误率" in note and "transcript" not in note, note


def test_the_recogniser_model_is_a_setting_the_general_page_edits(qtbot, tmp_path: Path) -> None:
    from PySide6.QtCore import QSettings

    from app.ui.settings.dialog import GeneralPage
    from app.ui.settings.store import Settings
    from app.ui.tasks import SyncTaskRunner

    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert settings.recogniser_model == "base"
    page = GeneralPage(settings, SyncTaskRunner())
    qtbot.addWidget(page)
    names = [page.recogniser.itemData(i) for i in range(page.recogniser.count())]
    assert names[:2] == ["tiny.en", "base"] and "turbo" in names
    assert "(not downloaded)" in page.recogniser.itemText(names.index("turbo"))
    page.recogniser.setCurrentIndex(names.index("tiny.en"))
    page.apply()
    assert settings.recogniser_model == "tiny.en"
    page._fill_recognisers(str(tmp_path))  # a model folder of one's own
    page.apply()
    assert settings.recogniser_model == str(tmp_path)
