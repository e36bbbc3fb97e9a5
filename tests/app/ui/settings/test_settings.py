"""Settings: typed values with defaults, persisted through QSettings, robust to junk."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.ui.settings.store import Settings, cache_size, human_size
from engine.synthesis.backends import OptionError
from engine.synthesis.voices import (
    KEY_HEX_DIGITS,
    MODEL_HEX_DIGITS,
    MODELS_FOLDER,
    clear_cache_folder,
)


def test_defaults_when_nothing_stored(settings: Settings) -> None:
    assert settings.engine_backend == "embedded"  # each line by the embedded voice of its language
    assert settings.engine_slots == 0
    assert settings.autosave_s == 60
    assert settings.recent_projects == []


def test_values_round_trip_through_the_file(settings: Settings) -> None:
    settings.engine_slots = 3
    settings.cache_dir = "/tmp/c"
    settings.recent_projects = ["/a", "/b"]
    settings.sync()
    again = Settings(QSettings(settings.file_name, QSettings.Format.IniFormat))
    assert again.engine_slots == 3
    assert isinstance(again.engine_slots, int)
    assert again.cache_dir == "/tmp/c"
    assert again.recent_projects == ["/a", "/b"]


def test_unparseable_value_falls_back_to_default(settings: Settings) -> None:
    settings._q.setValue(Settings.engine_slots.key, "many")
    settings._q.setValue(Settings.recent_projects.key, "{not json")
    assert settings.engine_slots == 0
    assert settings.recent_projects == []


def test_recent_projects_dedup_cap_and_skip_missing(tmp_path: Path, settings: Settings) -> None:
    dirs = [tmp_path / f"p{i}" for i in range(12)]
    for d in dirs:
        d.mkdir()
        settings.add_recent(d)
    settings.add_recent(dirs[3])
    recent = settings.recent_projects
    assert recent[0] == str(dirs[3].resolve())
    assert len(recent) == 10 and len(set(recent)) == 10
    dirs[3].rmdir()
    assert str(dirs[3].resolve()) not in settings.existing_recent()


def test_every_option_declared_once_with_a_title() -> None:
    keys = [o.key for o in Settings.options()]
    assert len(keys) == len(set(keys))
    assert all(o.title for o in Settings.options())


def test_cache_size_and_clear_touch_only_the_caches_own_files(tmp_path: Path) -> None:
    """The cache folder is a setting: "Clear cache" on a folder of the user's deleted everything in it."""
    cache = tmp_path / "cache"
    (cache / "sub").mkdir(parents=True)
    (cache / f"{'a' * KEY_HEX_DIGITS}.npz").write_bytes(b"x" * 1000)  # an entry
    (cache / f".{'b' * KEY_HEX_DIGITS}.npz.k2j4_x.tmp").write_bytes(b"y" * 24)  # a write a killed engine left
    (cache / MODELS_FOLDER).mkdir()  # what is kept per model: a calibration, the plain voice's embedding
    (cache / MODELS_FOLDER / f"model-{'f' * MODEL_HEX_DIGITS}.npz").write_bytes(b"z" * 1000)
    (cache / MODELS_FOLDER / f".plain-{'f' * MODEL_HEX_DIGITS}.npz.q1_w.tmp").write_bytes(b"w" * 24)
    theirs = {
        "holiday.npz": b"mine",
        "notes.txt": b"mine too",
        f"{'c' * KEY_HEX_DIGITS}.npz.bak": b"a copy I made",
        f"sub/{'d' * KEY_HEX_DIGITS}.npz": b"not where the cache writes",
        f"{MODELS_FOLDER}/holiday.npz": b"mine as well",
    }
    for name, data in theirs.items():
        (cache / name).write_bytes(data)
    elsewhere = tmp_path / "elsewhere.npz"
    elsewhere.write_bytes(b"behind a link")
    (cache / f"{'e' * KEY_HEX_DIGITS}.npz").symlink_to(elsewhere)  # an entry's name, but not the cache's file
    assert cache_size(cache) == 2048
    assert human_size(1024) == "1.0 KB"
    clear_cache_folder(cache)
    assert cache_size(cache) == 0
    assert {name: (cache / name).read_bytes() for name in theirs} == theirs
    assert (cache / f"{'e' * KEY_HEX_DIGITS}.npz").is_symlink() and elsewhere.read_bytes() == b"behind a link"
    assert cache_size(tmp_path / "missing") == 0
    clear_cache_folder(tmp_path / "missing")


def test_schema_1_interpreter_moves_to_its_backend_and_junk_backend_falls_back(tmp_path: Path, qapp: object) -> None:
    path = str(tmp_path / "old.ini")
    old = QSettings(path, QSettings.Format.IniFormat)
    old.setValue("meta/schema", 1)
    old.setValue("engine/backend", "cosyvoice2")
    old.setValue("engine/python", "/opt/cv/bin/python")
    old.sync()
    settings = Settings(QSettings(path, QSettings.Format.IniFormat))
    assert settings.python_for("cosyvoice2") == "/opt/cv/bin/python" and settings.python_for("piper") == ""
    assert settings._q.value("engine/python") is None and str(settings._q.value("meta/schema")) == "2"
    settings._q.setValue(Settings.engine_backend.key, "tacotron")
    settings._q.setValue(Settings.backend_options.key, "[1, 2]")
    assert settings.engine_backend == "embedded" and settings.backend_options == {}


def test_engine_config_checks_the_stored_options(settings: Settings) -> None:
    settings.engine_backend = "piper"
    settings.backend_options = {"piper": {"noise_w": "0.3"}}
    config = settings.engine_config()
    assert config.backend == "piper" and config.backend_options == {"noise_w": 0.3} and config.python is None
    settings.backend_options = {"piper": {"noise_w": "lots"}}
    with pytest.raises(OptionError) as caught:
        settings.engine_config()
    assert caught.value.option == "noise_w"
