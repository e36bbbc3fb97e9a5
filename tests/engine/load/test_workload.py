"""Bundled text sets, text files, voice sets and cold-cache clip variants."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from engine.load.workload import (
    KINDS,
    JobSource,
    TextSet,
    VoiceSet,
    WorkloadError,
    bundled_languages,
    classify,
)


def test_bundled_sets_cover_every_kind_in_both_languages() -> None:
    for language in ("en", "zh"):
        texts = TextSet.bundled((language,))
        assert {item.kind for item in texts.items} == set(KINDS)
        assert all(item.language == language for item in texts.items)
        assert len(texts.items) >= 18
    # consecutive jobs alternate kinds, so every level gets a mix
    first = [TextSet.bundled(("en",)).pick(i).kind for i in range(3)]
    assert first == ["short", "medium", "long"]


def test_chinese_set_only_for_backends_that_speak_it() -> None:
    assert bundled_languages(("en",)) == ("en",)
    assert bundled_languages(("zh", "en", "ja")) == ("en", "zh")
    assert bundled_languages(("zh",)) == ("zh",)
    assert bundled_languages(()) == ("en",)


def test_text_file_one_line_each(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    path.write_text("\ufeff# a comment\nHello there.\n\n你好，世界。\n" + "A long line. " * 20 + "\n",
                    encoding="utf-8")
    texts = TextSet.from_file(path)
    assert [item.text for item in texts.items][:2] == ["Hello there.", "你好，世界。"]
    assert [item.language for item in texts.items] == ["", "zh", ""]
    assert [item.kind for item in texts.items] == ["short", "short", "long"]
    assert texts.to_dict()["by_kind"] == {"short": 2, "medium": 0, "long": 1}


def test_text_file_errors_have_codes(tmp_path: Path) -> None:
    with pytest.raises(WorkloadError, match="E_TEXTS: .* does not exist"):
        TextSet.from_file(tmp_path / "missing.txt")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n", encoding="utf-8")
    with pytest.raises(WorkloadError, match="holds no text"):
        TextSet.from_file(empty)
    latin1 = tmp_path / "latin1.txt"  # legacy encodings are decoded, as in script import
    latin1.write_bytes("Un caf\xe9 cr\xe8me, s'il vous pla\xeet.\n".encode("latin-1"))
    assert [item.text for item in TextSet.from_file(latin1).items] == ["Un caf\xe9 cr\xe8me, s'il vous pla\xeet."]
    binary = tmp_path / "binary.txt"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(WorkloadError, match="E_TEXTS: cannot decode"):
        TextSet.from_file(binary)
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(WorkloadError, match="E_TEXTS: .* named pipe"):  # refused, not waited on
        TextSet.from_file(fifo)


def test_classify_by_spoken_length() -> None:
    assert classify("Wait!") == "short"
    assert classify("x" * 100) == "medium"
    assert classify("字" * 70) == "long"


def test_bundled_voices_carry_their_transcripts() -> None:
    voices = VoiceSet.bundled()
    assert len(voices.voices) >= 3
    assert all(v.transcript for v in voices.voices)
    with pytest.raises(WorkloadError, match="E_VOICES"):
        VoiceSet.from_clips(["/nowhere/clip.wav"])


def test_jobs_round_robin_and_carry_the_text_language() -> None:
    source = JobSource(TextSet.bundled(("en", "zh")), VoiceSet.bundled())
    job, item, voice = source.make(1)
    assert job.text == item.text and job.voice.clip_path == voice.clip_path
    assert job.voice.settings.language == item.language
    assert source.make(0)[0].job_id != source.make(0)[0].job_id


def test_cold_jobs_get_new_files_with_the_same_speech(tmp_path: Path) -> None:
    source = JobSource(TextSet.bundled(), VoiceSet.bundled(), cold=True)
    try:
        job_a, _, voice_a = source.make(0)
        a = job_a.voice.clip_path
        b = source.make(len(source.voices.voices))[0].voice.clip_path  # same original voice
        original = source.voices.pick(0).clip_path
        assert voice_a.clip_path == original  # the record names the original clip, not the copy
        assert job_a.voice.transcript == voice_a.transcript
        assert a != b and Path(a).read_bytes() != Path(b).read_bytes()
        data_a, _ = sf.read(a)
        data_o, _ = sf.read(original)
        assert np.allclose(data_a[: len(data_o)], data_o, atol=1e-4)
        assert not data_a[len(data_o):].any()  # only trailing zeros were added
    finally:
        source.close()
    assert not Path(a).exists()
