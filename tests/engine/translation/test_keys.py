"""Where an endpoint's key is kept: the OS keyring when one is usable, else a file only its owner reads."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from engine.translation import keys


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setattr(keys, "keyring_usable", lambda: False)  # this machine has no keyring either
    return tmp_path / "config"


def test_without_a_keyring_the_key_is_kept_in_a_file_only_its_owner_reads(config: Path) -> None:
    keys.store_key("http://LocalHost:11434/v1/", "sk-one")
    keys.store_key("https://api.example.com/v1", "sk-two")
    path = config / keys.KEYS_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys.load_key("http://localhost:11434/v1") == "sk-one"  # the same endpoint, written differently
    assert keys.load_key("https://api.example.com/v1") == "sk-two"
    assert keys.load_key("https://other.example.com/v1") == ""
    keys.store_key("http://localhost:11434/v1", "")
    assert keys.load_key("http://localhost:11434/v1") == "" and keys.load_key("https://api.example.com/v1") == "sk-two"
    assert "readable by you alone" in keys.where_kept()


def test_a_keys_file_others_could_read_is_made_owner_only(config: Path) -> None:
    keys.store_key("http://localhost:8080/v1", "sk-x")
    path = config / keys.KEYS_FILE
    path.chmod(0o644)
    assert keys.load_key("http://localhost:8080/v1") == "sk-x"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_keyrings_that_keep_nothing_safe_do_not_count() -> None:
    import keyring
    from keyring.backends import fail

    if isinstance(keyring.get_keyring(), fail.Keyring):
        assert not keys.keyring_usable()


def test_the_suite_never_writes_the_users_own_config_folder() -> None:
    # tests/conftest.py: a test's chat server was remembered as the user's translator endpoint.
    import platformdirs

    assert keys.config_dir() != Path(platformdirs.user_config_dir("DubStudio"))
