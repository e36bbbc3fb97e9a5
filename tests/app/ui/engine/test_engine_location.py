"""Settings "Engine: this computer | a server (URL, token)" and the status bar's engine label.

The label's round trip is measured against a real HTTP server on loopback (a stand-in for
`dubstudio serve`'s open /health endpoint: the suite without Ray cannot run the real one;
tests/serve drives the studio's client against it).
"""

from __future__ import annotations

import http.server
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.ui.engine.bridge import EngineBridge
from app.ui.engine.engine_controller import studio_engine
from app.ui.engine.engine_status import EngineStatus
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.store import Settings
from app.ui.tasks import SyncTaskRunner
from engine.core.protocol import Capabilities, EngineReady
from engine.synthesis.client.remote import RemoteConfig
from engine.synthesis.config import EngineConfig

READY = EngineReady(Capabilities("piper", 22050, True, ("en",), False, False, False), slots=4, pid=0, start_s=0.5)


class _Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # http.server's spelling
        body = b'{"status": "ok"}'
        self.send_response(200 if self.path == "/health" else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def health_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_the_engine_is_this_computers_until_a_server_is_chosen(settings: Settings) -> None:
    assert settings.engine_location == "local" and settings.server() is None
    assert isinstance(studio_engine(settings), EngineConfig)
    settings.engine_location = "server"
    settings.server_url = "https://gpu.lan:8765"
    settings.set_server_token("team-token-0123456789")
    server = studio_engine(settings)
    assert isinstance(server, RemoteConfig)
    assert (server.url, server.token, server.backend) == ("https://gpu.lan:8765", "team-token-0123456789", "embedded")
    # The token stays out of the settings file, in a file only its owner may read.
    settings.sync()
    assert "team-token" not in Path(settings.file_name).read_text()
    assert stat.S_IMODE(settings.token_file.stat().st_mode) == 0o600
    settings._q.setValue(Settings.engine_location.key, "the moon")
    assert settings.engine_location == "local"  # junk falls back to the default


def test_settings_dialog_switches_between_this_computer_and_a_server(qtbot: QtBot, settings: Settings) -> None:
    dialog = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(dialog)
    assert dialog.location.currentText() == "This computer"
    assert not dialog.server_url.isEnabled() and not dialog.token.isEnabled() and dialog.slots.isEnabled()
    dialog.location.setCurrentIndex(dialog.location.findData("server"))
    assert dialog.server_url.isEnabled() and dialog.token.isEnabled()
    assert not dialog.slots.isEnabled() and not dialog.python.isEnabled()  # the server's administrator decides
    dialog.server_url.setText(" https://gpu.lan:8765 ")
    dialog.token.setText("team-token-0123456789")
    dialog.accept()
    assert dialog.engine_changed()
    assert settings.engine_location == "server" and settings.server_url == "https://gpu.lan:8765"
    assert settings.server_token() == "team-token-0123456789"
    again = SettingsDialog(settings, SyncTaskRunner())
    qtbot.addWidget(again)
    assert again.location.currentData() == "server" and again.token.text() == "team-token-0123456789"


def test_status_shows_a_servers_round_trip_or_that_it_is_unreachable(qtbot: QtBot, health_server: str) -> None:
    label = EngineStatus(SyncTaskRunner())
    qtbot.addWidget(label)
    label.set_target(None)
    label.show_ready(READY)
    assert label.text().startswith("Engine: this computer · piper · 4 slots")
    port = health_server.rsplit(":", 1)[1]
    label.set_target(RemoteConfig(health_server))
    assert label.text() == f"Engine: server 127.0.0.1:{port} · starting…"
    label.show_ready(READY)  # pings at once, then every few seconds
    assert label.rtt_s is not None and label.rtt_s > 0
    assert label.text().startswith(f"Engine: server 127.0.0.1:{port} · piper · 4 slots · ")
    assert label.text().endswith(" ms")
    label.set_target(RemoteConfig("http://127.0.0.1:9"))  # nothing listens there
    label.show_ready(READY)
    assert label.rtt_s is None and label.text().endswith("· unreachable")
    label.show_failed("E_UNAUTHORIZED: A valid bearer token is required")
    assert label.text().endswith("failed to start") and "E_UNAUTHORIZED" in label.toolTip()


def test_a_bad_server_url_is_a_coded_start_failure_not_a_silent_local_engine(qtbot: QtBot, settings: Settings) -> None:
    settings.engine_location = "server"
    settings.server_url = "gpu.lan"  # no scheme
    bridge = EngineBridge(studio_engine(settings))
    with qtbot.waitSignal(bridge.start_failed, timeout=30000) as failed:
        bridge.start()
    assert failed.args[0].startswith("E_BAD_REQUEST: The engine URL must look like http://HOST:PORT")
