"""The model manager: validating folders and downloading from a hub (a local fake one here)."""

from __future__ import annotations

import hashlib
import http.server
import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core import downloads
from engine.core.downloads import DownloadError, DownloadProgress
from engine.synthesis.backends.cosyvoice_models import (
    download_model,
    validate_model_dir,
)

pytestmark = pytest.mark.cosyvoice

REPO = "FunAudioLLM/CosyVoice2-0.5B"
SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def model_copy(tiny_model: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "model"
    shutil.copytree(tiny_model, copy)
    return copy


def problems(folder: Path, **kwargs) -> list[str]:
    return [str(p) for p in validate_model_dir(folder, **kwargs).problems]


def test_a_complete_folder_validates(tiny_model: Path) -> None:
    report = validate_model_dir(tiny_model, deep=True)
    assert report.ok, report.problems
    assert report.facts["synthetic"] is True
    assert any("load_trt" in str(w) for w in report.warnings)


def test_missing_and_mismatched_files_are_named(model_copy: Path) -> None:
    (model_copy / "campplus.onnx").unlink()
    (model_copy / "CosyVoice-BlankEN" / "model.safetensors").unlink()
    found = problems(model_copy)
    assert any(p.startswith("campplus.onnx: missing") for p in found), found
    assert any("CosyVoice-BlankEN/model.safetensors: missing" in p for p in found), found
    assert len(found) == 2


def test_a_truncated_checkpoint_is_caught(model_copy: Path) -> None:
    llm = model_copy / "llm.pt"
    llm.write_bytes(llm.read_bytes()[: llm.stat().st_size // 2])
    found = problems(model_copy)
    assert len(found) == 1 and found[0].startswith("llm.pt: not a readable torch checkpoint"), found


def test_wrong_model_generation_is_explained(model_copy: Path) -> None:
    (model_copy / "cosyvoice2.yaml").rename(model_copy / "cosyvoice.yaml")
    found = problems(model_copy)
    assert found == ["cosyvoice.yaml: this is a CosyVoice 1 (300M) model; this backend needs CosyVoice2-0.5B"]


def test_a_mismatched_backbone_and_options_are_reported(model_copy: Path) -> None:
    config_path = model_copy / "CosyVoice-BlankEN" / "config.json"
    config = json.loads(config_path.read_text())
    config["hidden_size"] = 896
    config_path.write_text(json.dumps(config))
    found = problems(model_copy, options={"load_jit": True})
    assert any("hidden_size 896 differs from llm_input_size 128" in p for p in found), found
    assert any(p.startswith("flow.encoder.fp32.zip: missing: needed for load_jit") for p in found), found


def test_a_broken_onnx_file_is_caught_by_the_deep_check(model_copy: Path) -> None:
    (model_copy / "speech_tokenizer_v2.onnx").write_bytes(b"not an onnx model")
    assert validate_model_dir(model_copy).ok  # the quick check only looks at presence
    found = problems(model_copy, deep=True)
    assert len(found) == 1 and found[0].startswith("speech_tokenizer_v2.onnx: onnxruntime cannot load it"), found


# --- downloads from a fake hub ---------------------------------------------------------------


class _HubHandler(http.server.BaseHTTPRequestHandler):
    """The fake hub's answers; FakeHub makes a subclass that knows its ``hub``."""

    hub: FakeHub

    def log_message(self, *args: object) -> None:
        pass

    def _file(self) -> str | None:
        prefix = f"/{self.hub.repo}/resolve/{SHA}/"
        if self.path.startswith(prefix):
            name = self.path[len(prefix):]
            return name if name in self.hub.files else None
        return None

    def _headers(self, name: str, status: int, length: int, extra: dict[str, str]) -> None:
        self.send_response(status)
        data = self.hub.files[name]
        self.send_header("X-Repo-Commit", SHA)
        self.send_header("ETag", f'"{hashlib.sha1(data).hexdigest()}"')
        self.send_header("Content-Length", str(length))
        self.send_header("Accept-Ranges", "bytes")
        for key, value in extra.items():
            self.send_header(key, value)
        self.end_headers()

    def do_HEAD(self) -> None:  # http.server's naming
        name = self._file()
        if name is None:
            self.send_error(404)
            return
        self._headers(name, 200, len(self.hub.files[name]), {})

    def do_GET(self) -> None:
        if self.path.startswith(f"/api/models/{self.hub.repo}"):
            body = json.dumps({
                "id": self.hub.repo, "modelId": self.hub.repo, "sha": SHA, "private": False,
                "siblings": [{"rfilename": n, "size": len(d)} for n, d in self.hub.files.items()],
            }).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        name = self._file()
        if name is None:
            self.send_error(404)
            return
        data = self.hub.files[name]
        self.hub.gets.append(name)
        start = 0
        header = self.headers.get("Range")
        if header:
            self.hub.ranges.append((name, header))
            start = int(header.split("=")[1].split("-")[0])
            self._headers(name, 206, len(data) - start,
                          {"Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"})
        else:
            self._headers(name, 200, len(data), {})
        if name in self.hub.cut_once:
            self.hub.cut_once.discard(name)
            self.wfile.write(data[start: start + (len(data) - start) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(data[start:])


class FakeHub:
    """Just enough of the Hugging Face hub's HTTP API for huggingface_hub to download a repo.

    ``cut_once`` names files whose first GET is cut off half way, as a dropped connection.
    """

    def __init__(self, folder: Path, cut_once: set[str], repo: str = REPO) -> None:
        self.repo = repo
        self.files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
        self.cut_once = set(cut_once)
        self.ranges: list[tuple[str, str]] = []
        self.gets: list[str] = []
        handler = type("Handler", (_HubHandler,), {"hub": self})
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hub(tiny_model: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeHub]:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with FakeHub(tiny_model, cut_once={"flow.pt"}) as fake:
        yield fake


def test_download_resumes_a_cut_file_and_validates(hub: FakeHub, tiny_model: Path, tmp_path: Path) -> None:
    target = tmp_path / "downloaded"
    seen: list[DownloadProgress] = []
    with pytest.raises(DownloadError, match="run the download again to resume"):
        download_model(target, repo_id=REPO, endpoint=hub.endpoint, progress=seen.append, interval_s=0.05)
    assert not validate_model_dir(target).ok
    report = download_model(target, repo_id=REPO, endpoint=hub.endpoint, progress=seen.append, interval_s=0.05)
    assert report.ok, report.problems
    assert [name for name, _ in hub.ranges] == ["flow.pt"], hub.ranges  # resumed, not restarted
    for name, data in hub.files.items():
        assert (target / name).read_bytes() == data, name
    assert seen and seen[-1].files_done == seen[-1].files_total == len(hub.files)
    assert seen[-1].done_bytes == seen[-1].total_bytes == sum(len(d) for d in hub.files.values())

    gets = len(hub.gets)
    assert download_model(target, repo_id=REPO, endpoint=hub.endpoint).ok
    assert len(hub.gets) == gets  # nothing fetched again


def test_a_file_gone_between_listing_and_measuring_counts_nothing(tmp_path: Path) -> None:
    """The download renames a partial file while the watcher lists them: a dangling link is
    such a file, listed but gone when its size is asked for."""
    partial = tmp_path / ".cache" / "huggingface" / "download" / "CosyVoice-BlankEN"
    partial.mkdir(parents=True)
    (partial / "kept.incomplete").write_bytes(b"x" * 10)
    (partial / "renamed.incomplete").symlink_to(partial / "gone")
    (tmp_path / "config.json").symlink_to(tmp_path / "gone")
    (tmp_path / "done.bin").write_bytes(b"x" * 5)
    assert downloads._bytes_on_disk(tmp_path, ["config.json", "done.bin", "missing.bin"]) == 15


def test_progress_never_counts_a_file_done_without_its_bytes(hub: FakeHub, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # The watcher's tick measures the disk while the loop finishes files; a slow tick holds that
    # gap open, so a report that paired old bytes with a newer file count would show here.
    measure = downloads._bytes_on_disk

    def slow_tick(target: Path, names: list[str]) -> int:
        measured = measure(target, names)
        if threading.current_thread().name == "model-download-progress":
            time.sleep(0.3)
        return measured

    monkeypatch.setattr(downloads, "_bytes_on_disk", slow_tick)
    hub.cut_once.clear()
    seen: list[DownloadProgress] = []
    assert download_model(tmp_path / "downloaded", repo_id=REPO, endpoint=hub.endpoint, progress=seen.append,
                          interval_s=0.01).ok
    finished = [p for p in seen if p.files_done == p.files_total]
    assert finished and all(p.done_bytes == p.total_bytes for p in finished), finished
    assert seen[-1] == finished[-1]
