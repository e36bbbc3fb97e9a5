"""The Settings → Voices engine page against the real CosyVoice environment and model folders."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.ui.engine.device_group import CPU_WARNING
from app.ui.engine.voices_engine_page import VoicesEnginePage
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner, ThreadTaskRunner
from engine.synthesis.backends.cosyvoice_models import SYNTHETIC_BANNER, model_kind
from tests.app.ui.conftest import OFFSCREEN_NOISE
from tests.cosyvoice.test_models import FakeHub

pytestmark = [pytest.mark.cosyvoice, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

TIMEOUT_MS = 300_000


@pytest.fixture
def settings(tmp_path: Path, qapp: object, cosyvoice_python: Path) -> Settings:
    settings = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    settings.engine_backend = "cosyvoice2"
    settings.engine_pythons = {"cosyvoice2": str(cosyvoice_python)}
    return settings


@pytest.fixture
def page(qtbot: QtBot, settings: Settings) -> Iterator[VoicesEnginePage]:
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    yield dialog.voices_engine
    dialog.voices_engine.shutdown()


def test_the_page_shows_the_environment_and_an_honest_cpu_device(page: VoicesEnginePage) -> None:
    assert page.environment_state.text().startswith("Using ")  # the interpreter named in the settings
    assert page.device_label.text() == CPU_WARNING  # no GPU on the build machine
    fp16 = page.form.editor("fp16")
    assert not fp16.isEnabled() and "native half precision" in fp16.toolTip()
    assert page.form.editor("hop_schedule").isEnabled()


def test_validate_reports_the_missing_file_of_a_broken_folder(page: VoicesEnginePage, tiny_model: Path,
                                                               tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(tiny_model, broken)
    (broken / "campplus.onnx").unlink()
    page.model_dir.setText(str(broken))
    assert page.synthetic_banner.isVisibleTo(page) and SYNTHETIC_BANNER in page.synthetic_banner.text()
    page.validate_model()
    report = page.model_report.toPlainText().splitlines()
    assert report[0].startswith(f"✗ {broken}: NOT usable — 1 problem")  # "(s)" without the English catalogue
    assert report[1] == "  ✗ campplus.onnx: missing (the CAM++ speaker encoder)"
    assert report[-1].startswith("What to do: Download…")
    page.model_dir.setText(str(tiny_model))
    page.validate_model()
    assert page.model_report.toPlainText().startswith(f"✓ {tiny_model}: complete, usable")


def test_synthetic_build_streams_its_progress_and_cancels(qtbot: QtBot, settings: Settings, tmp_path: Path) -> None:
    runner = ThreadTaskRunner()
    dialog = SettingsDialog(settings, runner)
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    seen: list[float] = []
    page.progress.valueChanged.connect(lambda value: seen.append(value / 1000))

    target = tmp_path / "tiny"
    page.model_dir.setText(str(target))
    qtbot.waitUntil(lambda: page.synthetic_buttons["tiny"].isEnabled(), timeout=TIMEOUT_MS)
    page.synthetic_buttons["tiny"].click()
    assert page.cancel_button.isEnabled() and not page.backend.isEnabled()
    qtbot.waitUntil(lambda: page.status.text().endswith("done."), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: page.model_report.toPlainText().startswith("✓"), timeout=TIMEOUT_MS)
    assert model_kind(target) == {"kind": "synthetic", "size": "tiny"}
    assert "cosyvoice_synthetic: step 5/5" in page.log.toPlainText()
    assert seen and seen == sorted(seen) and max(seen) >= 0.8  # the steps moved the bar forward
    assert page.synthetic_banner.isVisibleTo(page)

    # A full-size build is cancelled at its first step: nothing is left behind.
    full = tmp_path / "full"
    page.model_dir.setText(str(full))
    page.synthetic_buttons["full"].click()
    qtbot.waitUntil(lambda: "step 1/5" in page.log.toPlainText(), timeout=TIMEOUT_MS)
    page.cancel_button.click()
    qtbot.waitUntil(lambda: page.status.text().endswith("cancelled."), timeout=TIMEOUT_MS)
    assert not full.exists() and not list(tmp_path.glob(".full.*"))
    assert page.synthetic_buttons["full"].isEnabled() and not page.cancel_button.isEnabled()
    dialog.reject()
    runner.wait_idle()  # the device check started with the page may still be running


def test_download_from_a_hub_resumes_then_validates(qtbot: QtBot, settings: Settings, tiny_model: Path,
                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    runner = ThreadTaskRunner()
    dialog = SettingsDialog(settings, runner)
    qtbot.addWidget(dialog)
    page = dialog.voices_engine
    target = tmp_path / "downloaded"
    with FakeHub(tiny_model, cut_once={"flow.pt"}) as hub:
        page.model_dir.setText(str(target))
        page.hub_endpoint.setText(hub.endpoint)
        page.download_button.click()  # the connection drops half-way through flow.pt
        qtbot.waitUntil(lambda: page.download_button.isEnabled(), timeout=TIMEOUT_MS)
        assert page.status.text().startswith("Downloading the model failed"), page.status.text()
        assert "run the same command again to resume" in page.log.toPlainText() or \
            "run the download again to resume" in page.log.toPlainText()
        page.download_button.click()
        qtbot.waitUntil(lambda: page.status.text() == "Downloading the model: done.", timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: page.model_report.toPlainText().startswith("✓"), timeout=TIMEOUT_MS)
        assert [name for name, _ in hub.ranges] == ["flow.pt"]  # resumed, not restarted
        assert " of " in page.log.toPlainText() and "MB, file" in page.log.toPlainText()  # progress lines
    dialog.reject()
    runner.wait_idle()  # the device check started with the page may still be running
