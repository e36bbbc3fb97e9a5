"""Which engine the studio runs: the settings, or the command line's override, or why none."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.ui.main import _parse, engine_override
from app.ui.playback.player import NullOutput
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from app.ui.window.main_window import MainWindow
from engine.synthesis.backends import COSYVOICE2_ENVIRONMENT
from engine.synthesis.config import EngineConfig

ENGINE_TIMEOUT_MS = 120_000


def test_command_line_engine_options_override_the_settings(settings: Settings, tmp_path: Path) -> None:
    assert engine_override(_parse(["project"]), settings) is None  # nothing said: the settings decide
    args = _parse(["--backend", "cosyvoice2", "--model-dir", str(tmp_path), "--engine-python", sys.executable,
                   "project"])
    config = engine_override(args, settings)
    assert config is not None and config.backend == "cosyvoice2" and config.python == sys.executable
    assert config.backend_options["model_dir"] == str(tmp_path.resolve())
    assert config.backend_options["device"] == "auto"  # defaults filled from the descriptor
    # Options the command line does not give come from that backend's settings.
    settings.backend_options = {"cosyvoice2": {"model_dir": "/models/cv2", "fp16": True}}
    config = engine_override(_parse(["--backend", "cosyvoice2", "--engine-python", sys.executable,
                                      "--backend-option", "device=cpu"]), settings)
    assert config is not None
    assert config.backend_options["model_dir"] == "/models/cv2" and config.backend_options["fp16"] is True
    assert config.backend_options["device"] == "cpu"


def test_a_bad_command_line_option_exits_with_its_code(settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        engine_override(_parse(["--backend", "cosyvoice2", "--engine-python", sys.executable]), settings)
    assert caught.value.code == 2 and "needs --model-dir DIR" in capsys.readouterr().err


def test_the_window_says_why_the_settings_engine_cannot_start_and_runs_an_override(
        qtbot: QtBot, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COSYVOICE2_ENVIRONMENT.folder_env, str(tmp_path / "no-env"))
    monkeypatch.delenv(COSYVOICE2_ENVIRONMENT.python_env, raising=False)
    settings.engine_backend = "cosyvoice2"
    settings.backend_options = {"cosyvoice2": {"model_dir": str(tmp_path)}}
    window = MainWindow(settings, SyncTaskRunner(), NullOutput(), projects_dir=tmp_path / "projects")
    qtbot.addWidget(window)
    assert window.engine.label.text() == "Engine: this computer · not set up"
    assert "E_ENGINE_START" in window.statusBar().currentMessage()
    assert "Settings → Voices engine" in window.statusBar().currentMessage()
    assert not window.bridge.running
    window.close()

    override = EngineConfig(backend="piper", slots=1, cache_dir=str(tmp_path / "cache"))
    window = MainWindow(settings, SyncTaskRunner(), NullOutput(), projects_dir=tmp_path / "projects",
                        engine_override=override)
    qtbot.addWidget(window)
    assert window.engine.label.text() == "Engine: this computer · starting…"
    assert window.engine.label.toolTip().startswith("Piper")
    qtbot.waitUntil(lambda: window.bridge.is_ready, timeout=ENGINE_TIMEOUT_MS)
    assert window.engine.label.text().startswith("Engine: this computer · piper · 1 slot")
    assert not window.engine.banner.isVisibleTo(window)
    window.close()
