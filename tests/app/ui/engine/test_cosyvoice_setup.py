"""Setting CosyVoice2 up shows its steps as they come, with the raw log behind Details (issue 21)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner


def test_the_cosyvoice_setup_shows_steps_with_the_raw_log_behind_details(
        qtbot: QtBot, settings: Settings, tmp_path: Path) -> None:
    import sys
    from types import SimpleNamespace

    from app.ui.settings.dialog import SettingsDialog
    from engine.synthesis.backends.setup import CommandRun

    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    page.backend.setCurrentIndex(page.backend.findData("cosyvoice2"))
    assert not page.cancel_button.isVisibleTo(page) and not page.details.isVisibleTo(page)  # nothing runs
    script = ("import warnings; print('/x/site-packages/torch/nn.py:12: FutureWarning: weight_norm is deprecated'); "
              "print('step 1/2: building the tokenizer'); print('{\"model\": \"tiny\", \"layers\": 2}'); "
              "print('step 2/2: writing the weights')")
    done: list[bool] = []
    page._start(CommandRun([sys.executable, "-c", script], page._emit), "Building the synthetic tiny model",
                lambda: done.append(True))
    assert done and page.status.text() == "Building the synthetic tiny model: done."
    assert page.step.text() == "step 2/2: writing the weights"  # the last step, not the JSON or the warning
    assert page.details.isVisibleTo(page) and not page.log.isVisibleTo(page)  # the raw log waits behind Details
    assert "FutureWarning" in page.log.toPlainText()
    page.details.click()
    assert page.log.isVisibleTo(page)
    assert not page.cancel_button.isVisibleTo(page)  # idle again
    folder = tmp_path / "synthetic"
    folder.mkdir()
    (folder / "synthetic.json").write_text('{"size": "tiny"}')
    page._show_report(str(folder), SimpleNamespace(ok=True, problems=[], warnings=[]))
    assert page.model_report.toPlainText() == (
        f"✓ {folder}: complete, usable for speed and hardware probes only: its speech is noise")
    dialog.reject()
