"""The Mandarin front end: what is not Han becomes words, syllables become the voice's symbols."""

from __future__ import annotations

import pytest

from engine.synthesis import mandarin_text
from engine.synthesis.mandarin_text import (
    BREAK,
    normalise,
    phones,
    syllables,
    symbol_ids,
)


@pytest.mark.parametrize(("text", "spoken"), [
    ("下午3:30开会", "下午三点三十分开会"),
    ("08:05出发", "八点零五分出发"),
    ("10:00见", "十点整见"),
    ("一共¥120", "一共一百二十元"),
    ("打折50%", "打折百分之五十"),
    ("二〇二四年", "二〇二四年"),
    ("2024年3月5日", "二零二四年三月五日"),
    ("电话13812345678", "电话一三八一二三四五六七八"),
    ("他是CEO", "他是xi1yi4ou1"),
    ("OK，就这么定了", "ou1kei1，就这么定了"),
    ("ＶＩＰ卡", "wei1ai4pi4卡"),  # full-width letters read as the half-width ones
])
def test_what_is_not_han_is_written_out(text, spoken):
    assert normalise(text) == spoken


def test_english_is_said_with_its_readings_tones():
    assert syllables(normalise("OK，发个email给CEO。")) == [
        "ou1", "kei1", BREAK, "fa1", "ge4", "yi1", "mei4", "er5", "gei3", "xi1", "yi4", "ou1"]
    every_reading = [*mandarin_text.LETTER_READINGS.values(), *mandarin_text.WORD_READINGS.values()]
    table = mandarin_text.symbol_table()
    assert all(table.phones(syllable) for reading in every_reading for syllable in reading.split())


def test_syllables_carry_tones_and_clause_breaks():
    assert syllables("你好，吧。") == ["ni2", "hao3", BREAK, "ba5"]  # 3-3 becomes 2-3
    assert syllables("，好，") == ["hao3"]  # no break before the first syllable or after the last


def test_phones_follow_the_baker_labels():
    # A syllable's initial ("^" for none) and toned final; #0 within a phrase, the break at a
    # clause mark and before the closing silence (the last syllable said at its full length).
    assert phones(syllables("我问，好吧。")) == ["sil", "^", "uo3", "#0", "^", "uen4", "#3", "h", "ao3", "#0", "b", "a5",
                                            "#3", "sil"]


def test_every_symbol_is_the_voices_own():
    table = mandarin_text.symbol_table()
    ids = symbol_ids("王小明，你给我站住！明天早上8点见，OK？", table)
    assert ids[0] == table.ids["sil"] and ids[-1] == table.ids["eos"]
    assert set(ids) <= set(table.ids.values())
    assert symbol_ids("……！？", table) == []  # nothing to say


def test_a_clips_pace_counts_only_its_han_characters():
    assert mandarin_text.han_count("你好，World！") == 2
    assert mandarin_text.han_count("The lighthouse keeper swore she saw a ship.") == 0


@pytest.mark.parametrize(("text", "said"), [
    ("你跑得真快", ["ni3", "pao3", "de5", "zhen1", "kuai4"]),  # the particle, not de2
    ("我得走了", ["wo3", "dei3", "zou3", "le5"]),  # "must"
    ("得到了", ["de2", "dao4", "le5"]),  # pypinyin's own reading kept
    ("明天还你钱", ["ming2", "tian1", "huan2", "ni3", "qian2"]),  # give back, not hai2
    ("你去哪儿", ["ni3", "qu4", "nar3"]),  # erhua: one syllable
])
def test_polyphones_are_read_in_context(text, said):
    assert syllables(normalise(text)) == said
