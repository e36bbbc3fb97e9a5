"""The scorer's Japanese: compared by kana reading, so a word Whisper writes in other kanji or in
kana is the same word, while another line is still another line."""

from __future__ import annotations

import pytest

from engine.hearing.qa.checks import expected_speech_s
from engine.hearing.qa.wer import error_rate, normalise_reading, reads_by_kana


@pytest.mark.parametrize(("script", "heard"), [
    ("この機械が日本語を聞き取れているかどうかを計ります", "この機会が日本語を聞き取れているかどうかをはかります"),  # base, a real take
    ("測ります", "計ります"),  # another kanji, the same reading
    ("じゃあマイクを持って", "じゃあまいくをもって"),  # katakana and kanji heard as hiragana
    ("五十円のパンを買う", "50円のパンを買う。"),  # a number as digits: said the same
    ("一緒に行こう", "いっしょにいこう"),  # a numeral inside a word is read with the word
])
def test_japanese_written_another_way_is_the_same_reading(script: str, heard: str) -> None:
    assert error_rate(script, heard, "ja") == 0.0


def test_the_raw_cer_still_counts_the_written_difference() -> None:
    script, heard = "この機械が日本語を聞き取れているかどうかを計ります", "この機会が日本語を聞き取れているかどうかをはかります"
    assert error_rate(script, heard, "ja", by_reading=False) == pytest.approx(3 / 25)  # 会 for 械, は+か for 計


def test_a_word_heard_as_another_sound_still_counts() -> None:
    assert normalise_reading("マイコ") == list("まいこ")
    assert error_rate("マイク", "マイコ", "ja") == pytest.approx(1 / 3)
    # Real casual takes that base mishears (ReazonSpeech test_ja_1): still wrong by reading.
    assert error_rate("ちゃんと聞こえてんの", "なんて言ってんの?", "ja") > 0.35


def test_another_line_stays_far_by_reading() -> None:
    lines = ["日本語ちゃんと聞き取れてますか", "ちゃんと聞こえてるの", "じゃあマイクを持ってもらって",
             "これはテスト文です", "この機械が日本語をちゃんと聞き取れているかどうかを計ります"]
    nearest = min(error_rate(line, other, "ja") for line in lines for other in lines if other != line)
    assert nearest >= 0.5


def test_only_japanese_is_read_and_the_expected_time_counts_written_characters() -> None:
    assert reads_by_kana("ja") and reads_by_kana("ja-JP") and not reads_by_kana("zh") and not reads_by_kana("en")
    assert error_rate("计划", "計劃", "zh") == 0.0  # Chinese keeps its own folding (simplified)
    # 東京 is read とうきょう (5 kana) but written in 2 characters, which the pace counts.
    assert expected_speech_s("東京", "ja") == pytest.approx(expected_speech_s("二つ", "ja"))
