"""The voice cache trusts nothing it reads back and never fails a job over its own folder (issue 10).

Each case damages a real entry (prepared by the real Piper backend and GE2E encoder), or the
folder itself, and checks that the next lookup rebuilds the voice or keeps it in memory, and
says so once in the log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from engine.core.protocol import Job, JobFinished, VoicePrepared
from engine.synthesis.client.local import EngineClient, collect
from engine.synthesis.config import EngineConfig
from engine.synthesis.voices import VoiceCache, profile_problem, read_profile
from tests.engine.helpers import prepared, sample_voice

VOICE = sample_voice("maya")
OTHER = sample_voice("rex")


@pytest.fixture
def open_cache(piper, encoder) -> Callable[[Path], VoiceCache]:
    """A new cache (empty memory) over a folder, as a restarted engine would open it."""
    return lambda folder: VoiceCache(folder, piper, "piper", encoder)


@pytest.fixture(scope="module")
def prepared_folder(tmp_path_factory, piper, encoder) -> tuple[Path, str]:
    """A cache folder in which the sample voice was prepared, and the entry's file name."""
    folder = tmp_path_factory.mktemp("prepared") / "cache"
    key = VoiceCache(folder, piper, "piper", encoder).prepare(VOICE).profile.key  # written once complete
    return folder, f"{key}.npz"


@pytest.fixture
def entry(tmp_path, prepared_folder) -> Path:
    """The path of the sample voice's entry in a fresh copy of a freshly prepared cache folder
    (prepared once per module: each test damages its own copy)."""
    folder, name = prepared_folder
    shutil.copytree(folder, tmp_path / "cache")
    path = tmp_path / "cache" / name
    assert path.is_file()
    return path


def rewrite(path: Path, change: Callable[[dict[str, np.ndarray]], None]) -> None:
    """Rewrite an entry's arrays (as plain arrays, no pickles) after ``change``."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    change(arrays)
    with path.open("wb") as out:
        np.savez(out, **arrays)


def setter(name: str, value: object) -> Callable[[dict[str, np.ndarray]], None]:
    return lambda arrays: arrays.__setitem__(name, np.asarray(value))


POISONS = {
    "length_scale of 1000": setter("cond__length_scale", np.float32(1000)),  # grew the engine to 24 GB
    "negative length_scale": setter("cond__length_scale", np.float32(-1)),
    "NaN pitch target": setter("cond__adapt_target_f0_hz", np.float32("nan")),
    "formant ratio of 40": setter("cond__adapt_formant_ratio", np.float32(40)),
    "match EQ of 3 bands": setter("cond__adapt_eq_db", np.zeros(3, np.float32)),
    "infinite length_scale": setter("cond__length_scale", np.float32("inf")),
    "length_scale as text": setter("cond__length_scale", "1.0"),
    "length_scale as a vector": setter("cond__length_scale", np.ones(4, np.float32)),
    "missing length_scale": lambda arrays: arrays.pop("cond__length_scale"),
    "an unknown array": setter("cond__surprise", np.zeros(3, np.float32)),
    "NaN embedding": lambda arrays: arrays["embedding"].__setitem__(0, np.nan),
    "2-D embedding": lambda arrays: arrays.__setitem__("embedding", np.ones((16, 16), np.float32)),
    "empty embedding": setter("embedding", np.zeros(0, np.float32)),
    "missing embedding": lambda arrays: arrays.pop("embedding"),
}


# One poison of each kind (out of range, not a number, wrong shape, missing, unknown) by default;
# every one in the slow suite (each rebuild prepares the voice again).
BY_DEFAULT = {"length_scale of 1000", "NaN pitch target", "length_scale as a vector", "missing embedding",
              "an unknown array"}


@pytest.mark.parametrize("poison", [poison if poison in BY_DEFAULT else pytest.param(poison, marks=pytest.mark.slow)
                                    for poison in POISONS])
def test_a_poisoned_entry_is_rebuilt(entry, open_cache, poison, caplog):
    rewrite(entry, POISONS[poison])
    cache = open_cache(entry.parent)
    with caplog.at_level(logging.WARNING, logger="engine.synthesis.voices"):
        found = cache.prepare(VOICE)
    assert found.source == "miss" and cache.counters.rebuilt == 1
    assert profile_problem(found.profile, cache.backend) is None
    assert "rebuilding" in caplog.text
    again = read_profile(entry, found.profile.key)  # the rebuilt entry replaced the poisoned one
    assert profile_problem(again, cache.backend) is None
    assert open_cache(entry.parent).lookup(VOICE).source == "disk"


def test_an_empty_folder_at_the_entry_path_is_replaced(entry, open_cache):
    entry.unlink()
    entry.mkdir()
    cache = open_cache(entry.parent)
    assert cache.prepare(VOICE).source == "miss" and entry.is_file()


def test_a_folder_with_contents_is_left_alone_and_the_voice_kept_in_memory(entry, open_cache, caplog):
    entry.unlink()
    entry.mkdir()
    (entry / "someone's.txt").write_text("not ours")
    cache = open_cache(entry.parent)
    with caplog.at_level(logging.WARNING, logger="engine.synthesis.voices"):
        assert cache.prepare(VOICE).source == "miss"
        assert cache.lookup(VOICE).source == "memory"  # and later jobs go on
    assert (entry / "someone's.txt").read_text() == "not ours"
    assert caplog.text.count("kept in memory only") == 1


def test_a_symlink_at_the_entry_path_is_removed_not_followed(entry, open_cache, tmp_path):
    outside = tmp_path / "outside.npz"
    outside.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(outside)
    cache = open_cache(entry.parent)
    assert cache.prepare(VOICE).source == "miss"
    assert not entry.is_symlink() and entry.is_file()
    assert outside.read_bytes() != b"" and outside.is_file()  # the link's target is untouched


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_at_the_entry_path_is_never_opened(entry, open_cache):
    entry.unlink()
    os.mkfifo(entry)  # reading it would block the job for ever
    cache = open_cache(entry.parent)
    assert cache.prepare(VOICE).source == "miss" and entry.is_file()


@contextlib.contextmanager
def mounted_tmpfs(folder: Path, options: str) -> Iterator[Path]:
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@contextlib.contextmanager
def unwritable_folder(folder: Path) -> Iterator[Path]:
    """A folder nobody may write to: read-only by mode, or (root ignores modes) a read-only mount."""
    if os.geteuid() != 0:
        folder.mkdir()
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    with mounted_tmpfs(folder, "ro,size=1m") as mounted:
        yield mounted


@contextlib.contextmanager
def full_folder(folder: Path) -> Iterator[Path]:
    """A folder on a file system with no space left."""
    if os.geteuid() != 0:
        pytest.skip("filling a file system needs a tmpfs mount (root)")
    with mounted_tmpfs(folder, "size=64k") as mounted:
        with contextlib.suppress(OSError):
            (mounted / "filler").write_bytes(b"\0" * (1 << 20))
        yield mounted


@pytest.mark.parametrize("make", [unwritable_folder, full_folder], ids=["read-only", "full"])
def test_a_folder_that_cannot_be_written_logs_once_and_voices_go_on(tmp_path, open_cache, make, caplog):
    with make(tmp_path / "cache") as folder:
        cache = open_cache(folder)
        with caplog.at_level(logging.WARNING, logger="engine.synthesis.voices"):
            assert cache.prepare(VOICE).source == "miss"
            assert cache.prepare(OTHER).source == "miss"
            assert cache.lookup(VOICE).source == "memory"
        assert caplog.text.count("cannot write to the voice cache folder") == 1
        assert not list(folder.glob("*.npz")) and not list(folder.glob("*.tmp"))


def test_a_cache_folder_that_cannot_be_made_logs_once_and_voices_go_on(tmp_path, open_cache, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("a file where the cache folder's parent should be")
    with caplog.at_level(logging.WARNING, logger="engine.synthesis.voices"):
        cache = open_cache(blocker / "voices")
        assert cache.prepare(VOICE).source == "miss"
        assert cache.prepare(OTHER).source == "miss"
    assert caplog.text.count("cannot make the voice cache folder") == 1
    assert "cannot write" not in caplog.text


def test_piper_declares_the_ranges_its_conditioning_is_built_within(piper):
    problem = piper.conditioning_problem
    good = {**piper.plain_conditioning(), "length_scale": np.asarray(np.float32(1.6))}
    assert problem(good) is None  # the top of its range, read back as float32
    assert "above its maximum 1.6" in (problem({**good, "length_scale": np.asarray(np.float32(1000))}) or "")
    assert "below its minimum 55" in (problem({**good, "adapt_target_f0_hz": np.asarray(np.float32(20))}) or "")
    assert "adapt_eq_db has shape" in (problem({**good, "adapt_eq_db": np.zeros(3, np.float32)}) or "")
    assert "missing length_scale" in (problem({k: v for k, v in good.items() if k != "length_scale"}) or "")


def test_an_engine_rebuilds_a_poisoned_entry_and_speaks_at_a_sane_length(tmp_path, entry):
    """End to end: the example of the issue, a length_scale of 1000 left in the cache folder."""
    rewrite(entry, POISONS["length_scale of 1000"])
    client = EngineClient(EngineConfig(cache_dir=str(entry.parent)))
    try:
        client.start()
        _, end = collect(client, Job("Rex, did you see the lights past the rocks?", VOICE))
        answer = prepared(client, VOICE)  # the rebuilt entry is written once the voice is complete
    finally:
        client.close()
    assert isinstance(end, JobFinished), end
    assert end.timing.voice_cache == "miss" and end.timing.audio_s < 10.0  # not 1000 times its length
    assert isinstance(answer, VoicePrepared), answer
    meta = json.loads(str(np.load(entry, allow_pickle=False)["meta"][()]))
    assert 0.6 <= meta["length_scale"] <= 1.6


def test_a_clips_note_comes_back_from_disk_as_the_phrase_it_was(tmp_path, open_cache):
    """A clip over 30 s of speech is cut, and the voice says so; the note is kept on disk as its
    template and figures, so a restarted engine still hands the studio a phrase to translate."""
    from engine.core.audio_io import read_audio
    from engine.core.files import atomic_write_wav
    from engine.core.reference import CUT, MAX_REFERENCE_S, ClipPhrase

    audio, rate = read_audio(VOICE.clip_path)
    long_clip = atomic_write_wav(tmp_path / "long.wav", np.tile(audio, int(40 * rate / len(audio)) + 1), rate)
    voice = dataclasses.replace(VOICE, clip_path=str(long_clip))
    prepared_now = open_cache(tmp_path / "cache").prepare(voice)
    found_again = open_cache(tmp_path / "cache").prepare(voice)  # a new cache: read from the disk entry
    assert (prepared_now.source, found_again.source) == ("miss", "disk")
    for lookup in (prepared_now, found_again):
        (note,) = lookup.profile.meta["warnings"]
        assert isinstance(note, ClipPhrase) and (note.template, note.arguments) == (CUT, {"seconds": MAX_REFERENCE_S})
        assert note == "clip cut to its first 30 s"  # what the commands print
