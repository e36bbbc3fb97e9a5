"""How a studio voice maps onto CosyVoice2's modes (pure logic, no model)."""

from __future__ import annotations

import pytest

from engine.core.protocol import VoiceSettings
from engine.synthesis.backends.cosyvoice2 import (
    HopSchedule,
    choose_mode,
    language_family,
    script_family,
)

pytestmark = pytest.mark.cosyvoice


@pytest.mark.parametrize(
    ("text", "family"),
    [("Hello there", "latin"), ("你好，世界", "han"), ("こんにちは世界", "kana"), ("안녕하세요", "hangul"),
     ("Привет", "other"), ("123 !?", "")],
)
def test_script_family(text: str, family: str) -> None:
    assert script_family(text) == family


def test_language_family_maps_codes() -> None:
    assert language_family("zh") == "han"
    assert language_family("yue") == "han"
    assert language_family("ja-JP") == "kana"
    assert language_family("en") == "latin"
    assert language_family("") == ""


def test_transcript_in_same_language_gives_zero_shot() -> None:
    assert choose_mode("Good morning.", "latin", VoiceSettings()) == "zero_shot"
    assert choose_mode("Good morning.", "latin", VoiceSettings(language="en")) == "zero_shot"


def test_no_transcript_gives_cross_lingual() -> None:
    assert choose_mode("Good morning.", "", VoiceSettings()) == "cross_lingual"


def test_other_language_gives_cross_lingual() -> None:
    assert choose_mode("你好", "latin", VoiceSettings()) == "cross_lingual"
    assert choose_mode("ni hao", "latin", VoiceSettings(language="zh")) == "cross_lingual"


def test_instruction_always_wins() -> None:
    """An instruction is never dropped, with or without a transcript."""
    for script in ("latin", "", "han"):
        assert choose_mode("Good morning.", script, VoiceSettings(instruction="speak softly")) == "instruct"


def test_hop_schedule_starts_small_and_doubles_to_a_cap() -> None:
    schedule = HopSchedule(first=25, cap=100)
    hops = []
    for _ in range(4):
        hops.append(schedule.hop())
        schedule.advance()
    assert hops == [25, 50, 100, 100]
