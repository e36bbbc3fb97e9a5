"""Where a translation endpoint's API key is kept: never in project.json, the settings or a log.

The OS keyring (through ``keyring``: the macOS Keychain, Windows' Credential Locker, the Secret
Service on Linux desktops) when one is usable; otherwise a JSON file in DubStudio's config folder
that only its owner can read (created 0600 before anything is written into it, and kept so by the
one writer). Keys are filed by the endpoint's base URL, so each server keeps its own.

The endpoint last used (its URL and model, nothing secret) is remembered beside it in
``translator.json``, so the studio's Translate dialog and ``dubstudio translate`` start from it.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import urllib.parse
from pathlib import Path

from engine.core import files
from engine.core.codes import ErrorCode
from engine.translation import TranslationError, wording
from engine.translation.wording import TranslationPhrase

SERVICE = "DubStudio translator"
KEYS_FILE = "translator-keys.json"
ENDPOINT_FILE = "translator.json"  # the endpoint last used: {"base_url", "model"}
CONFIG_ENV = "DUBSTUDIO_CONFIG_DIR"  # another config folder (tests, portable installs)


def config_dir() -> Path:
    """DubStudio's config folder: $DUBSTUDIO_CONFIG_DIR, else the platform's user config folder."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("DubStudio"))


def endpoint_id(base_url: str) -> str:
    """The name a key is filed under: the URL's scheme, host, port and path, lower-cased host."""
    parts = urllib.parse.urlsplit(base_url.strip())
    return f"{parts.scheme}://{(parts.hostname or '').lower()}{f':{parts.port}' if parts.port else ''}" \
           f"{parts.path.rstrip('/')}"


def keyring_usable() -> bool:
    """Whether an OS keyring is there to keep secrets (not keyring's "fail" or plaintext ones)."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return False
    backend = keyring.get_keyring()
    insecure = ("plaintext", "PlaintextKeyring", "null")
    return not isinstance(backend, fail.Keyring) and getattr(backend, "priority", 0) > 0 and \
        not any(word in type(backend).__name__ for word in insecure)


def where_kept() -> str:
    """Where keys go now, in words (the Translate dialog and the command say it)."""
    return "the system keyring" if keyring_usable() else f"{keys_file()} (readable by you alone)"


def keys_file() -> Path:
    return config_dir() / KEYS_FILE


def store_key(base_url: str, key: str) -> None:
    """Keep ``key`` for the endpoint at ``base_url`` ("" forgets it)."""
    name = endpoint_id(base_url)
    if keyring_usable():
        import keyring

        if key:
            keyring.set_password(SERVICE, name, key)
        else:
            with contextlib.suppress(keyring.errors.PasswordDeleteError):
                keyring.delete_password(SERVICE, name)
        return
    keys = _read_file()
    if key:
        keys[name] = key
    else:
        keys.pop(name, None)
    _write_file(keys)


def load_key(base_url: str) -> str:
    """The key kept for the endpoint at ``base_url``; "" when none is."""
    name = endpoint_id(base_url)
    if keyring_usable():
        import keyring

        return keyring.get_password(SERVICE, name) or ""
    return _read_file().get(name, "")


def remembered_endpoint() -> tuple[str, str]:
    """(base URL, model) of the endpoint last used; ("", "") when none was, or the file is unusable."""
    path = config_dir() / ENDPOINT_FILE
    try:
        data = json.loads(files.read_regular_file(path).decode("utf-8"))
    except (OSError, ValueError):
        return "", ""
    if not isinstance(data, dict):
        return "", ""
    url, model = data.get("base_url", ""), data.get("model", "")
    return (url, model) if isinstance(url, str) and isinstance(model, str) else ("", "")


def remember_endpoint(base_url: str, model: str) -> None:
    """Keep the endpoint's URL and model for next time (best effort: a failure loses only that)."""
    try:
        path = config_dir() / ENDPOINT_FILE
        files.ensure_dir(path.parent)
        files.atomic_write_text(path, json.dumps({"base_url": base_url.strip(), "model": model.strip()}))
    except OSError:
        pass


def _read_file() -> dict[str, str]:
    path = keys_file()
    if not path.exists():
        return {}
    try:
        mode = path.stat().st_mode
        if stat.S_IMODE(mode) & 0o077:  # someone else could read it: tighten it before reading
            os.chmod(path, 0o600)
        data = json.loads(files.read_regular_file(path).decode("utf-8"))
    except (OSError, ValueError) as error:
        raise TranslationError(ErrorCode.READ_FAILED, TranslationPhrase(wording.CANNOT_READ_KEYS, path=path,
                                                                                error=str(error))) from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise TranslationError(ErrorCode.READ_FAILED, TranslationPhrase(wording.NOT_A_KEYS_FILE, path=path))
    return data


def _write_file(keys: dict[str, str]) -> None:
    path = keys_file()
    try:
        files.ensure_dir(path.parent)
        if not path.exists():  # made owner-only before a key is in it; the writer keeps the mode
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        files.atomic_write_text(path, json.dumps(keys, indent=1, sort_keys=True))
    except OSError as error:
        raise TranslationError(ErrorCode.SAVE_FAILED, TranslationPhrase(wording.CANNOT_KEEP_KEY, path=path,
                                                                                error=str(error))) from None
