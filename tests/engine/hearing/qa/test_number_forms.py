"""A line's numbers in their other written form (digits or words), and take QA confirming a take
whichever form the line writes: real Whisper base, real zh-baker and joe takes."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hearing.qa.checks import QaThresholds, judge, measure_take
from engine.hearing.qa.number_forms import han_numeral, han_value, number_forms
from engine.hearing.qa.recognise import (
    CONFIRM_MEAN_LOG_PROB,
    CONFIRM_MIN_LOG_PROB,
    Transcript,
    whisper_recogniser,
)
from engine.hearing.qa.wer import error_rate
from tests.engine.helpers import joe_says

PRICE = "这件外套原价八百，现在只要三百五。"  # Whisper base writes 800 and 350
PRICE_IN_ENGLISH = "It costs eight hundred dollars."  # Whisper base writes $800


def test_chinese_numerals_read_as_said():
    assert [han_value(numeral) for numeral in ("八百", "三百五", "一万五", "两千三", "一百零五", "十五", "一九九九")] == \
        ["800", "350", "15000", "2300", "105", "15", "1999"]
    assert [han_numeral(n) for n in (0, 2, 15, 60, 105, 350, 800, 1005, 2000, 10500)] == \
        ["零", "二", "十五", "六十", "一百零五", "三百五十", "八百", "一千零五", "两千", "一万零五百"]


def test_a_lines_numbers_in_digits_and_in_words():
    assert number_forms(PRICE, "zh") == ("这件外套原价800，现在只要350。", PRICE)
    assert number_forms("我们约在下午2点见。", "zh") == ("我们约在下午2点见。", "我们约在下午两点见。")
    assert number_forms("2026年的第一场雪", "zh")[1] == "二零二六年的第一场雪"  # a year digit by digit
    # A lone numeral is a word (together, two people) unless it counts hours, days, yuan...
    assert number_forms("他们两个人从小一起长大，九点半见。", "zh")[0] == "他们两个人从小一起长大，9点半见。"
    assert number_forms("晚上9:30起飞", "zh") == ("晚上9:30起飞", "晚上9:30起飞")
    assert number_forms(PRICE_IN_ENGLISH, "en") == ("It costs 800 dollars.", PRICE_IN_ENGLISH)
    assert number_forms("We met 25 people in 1999.", "en")[1] == "We met twenty-five people in nineteen ninety-nine."
    # A year said in pairs is not one number: left in words.
    assert number_forms("In nineteen ninety we had two hundred and five.", "en")[0] == "In nineteen ninety we had 205."
    assert number_forms("ราคา 800", "th") == ()
    # Units alone are words: a billionaire, "by all means", not 0 or 10000000.
    assert number_forms("他是亿万富翁，千万别告诉他十点的事。", "zh")[0] == "他是亿万富翁，千万别告诉他10点的事。"


def test_the_comparison_reads_a_shortened_number_as_said():
    assert error_rate(PRICE, "这件外套原价800,现在只要350。", "zh") == 0.0


def _verdict(pcm: np.ndarray, rate: int, text: str, language: str, heard: Transcript | None = None) -> object:
    verdict = judge(measure_take(pcm, rate, text, language, None, None, "base", heard=heard), QaThresholds())
    return verdict.passed, sorted(finding.code for finding in verdict.findings)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_take_is_confirmed_whichever_form_its_line_writes_its_numbers_in(zh_baker_says, language):
    if language == "zh":
        (pcm, rate), line, wrong = zh_baker_says(PRICE), PRICE, "这件外套原价九百，现在只要三百五。"
    else:
        pcm, rate = joe_says(PRICE_IN_ENGLISH)
        line, wrong = PRICE_IN_ENGLISH, "It costs nine hundred dollars."
    whisper = whisper_recogniser("base")
    as_written = whisper.score_alone(pcm, rate, language, line, bars=(-99.0, -99.0))[2]  # the line's own form alone
    # Refused in words at English's bars: Whisper writes this number in digits (Mandarin's own
    # least bar, -5.0, lets this line's 八百 through as written too).
    assert not as_written.passes(CONFIRM_MIN_LOG_PROB, CONFIRM_MEAN_LOG_PROB)
    for text in (line, number_forms(line, language)[0]):
        assert whisper.score_alone(pcm, rate, language, text)[2].confirmed, text
        assert whisper.score_packed([pcm], rate, language, [text])[2][0].confirmed, text
    # A take saying 八百 (eight hundred) for a line's 九百 (nine hundred) is not confirmed in any form.
    assert not whisper.score_alone(pcm, rate, language, wrong)[2].confirmed
    assert not whisper.score_packed([pcm], rate, language, [wrong])[2][0].confirmed
    # The verdict of the take heard as written is the one its decoding gives.
    confirmed = Transcript(line, language, whisper.name, language, 1.0, confirmed=True)
    assert _verdict(pcm, rate, line, language, confirmed) == _verdict(pcm, rate, line, language)
