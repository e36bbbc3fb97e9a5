"""English as users write it, put in the words it is said before Piper's espeak-ng reads it."""

from __future__ import annotations

import pytest

from engine.core.english_forms import spoken_english


@pytest.mark.parametrize(("written", "said"), [
    ("Dr. Smith lives on Main St. near St. Mary's.", "Doctor Smith lives on Main Street near Saint Mary's."),
    ("Use a tool, e.g. a hammer, i.e. something heavy.", "Use a tool, for example a hammer, that is something heavy."),
    ("Visit St. Louis. We met on Main St. Then we left.", "Visit Saint Louis. We met on Main Street. Then we left."),
    ("Smith vs. Jones", "Smith versus Jones"),
    ("Bring pears, etc. to the park. Bring pears, etc. We eat.",
     "Bring pears, et cetera to the park. Bring pears, et cetera. We eat."),
    ("Room No. 5, I said No. Jan. was here on Jan. 3.", "Room number 5, I said No. Jan. was here on January 3rd."),
])
def test_abbreviations_are_said_in_full_without_a_period_that_would_end_the_sentence(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("$5.99", "5 dollars 99 cents"), ("£3", "3 pounds"), ("€1,200", "1,200 euros"), ("$1", "1 dollar"),
    ("$0.99", "99 cents"), ("$5k", "5 thousand dollars"), ("$2.5m", "2.5 million dollars"),
    ("£1.01", "1 pound 1 penny"), ("$3 billion", "3 billion dollars"),
])
def test_money_is_the_amount_then_its_unit(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("12/07/2026", "December 7th, 2026"),  # the voice is American: month first
    ("25/12/2026", "December 25th, 2026"),  # unless the first number cannot be a month
    ("2026-12-07", "December 7th, 2026"),
    ("Dec. 7", "December 7th"),
    ("on May 21 at 7:45", "on May 21st at 7:45"),
    ("13/13/2026", "13/13/2026"),
    ("12-07-2026 or 25.12.2026", "December 7th, 2026 or December 25th, 2026"),
])
def test_dates_are_said_as_dates(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("the 1990s", "the nineteen nineties"), ("the '90s", "the nineties"), ("the 80s", "the eighties"),
    ("the 1800s", "the eighteen hundreds"), ("the 2000s", "the two thousands"), ("1990", "1990"),
])
def test_decades(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("5km", "5 kilometers"), ("1 kg", "1 kilogram"), ("72°F", "72 degrees Fahrenheit"),
    ("-5°C", "-5 degrees Celsius"), ("60 mph", "60 miles per hour"), ("a 5G phone", "a 5G phone"),
])
def test_units_after_a_number(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("555-123-4567", "5 5 5, 1 2 3, 4 5 6 7"),
    ("(212) 555-0199", "2 1 2, 5 5 5, 0 1 9 9"),
    ("555-0199 or 1-800-555-0100", "5 5 5, 0 1 9 9 or 1, 8 0 0, 5 5 5, 0 1 0 0"),
    ("+44 20 7946 0958 or 555 123 4567", "4 4, 2 0, 7 9 4 6, 0 9 5 8 or 5 5 5, 1 2 3, 4 5 6 7"),
    ("we sold 120 300 and 4000 copies", "we sold 120 300 and 4000 copies"),
    ("a 3-2 win, pages 10-20", "a 3-2 win, pages 10 to 20"),  # under 7 digits: a score, a range
    ("from 1990-2000 and 2020-2021", "from 1990 to 2000 and 2020 to 2021"),  # two groups: a range
])
def test_phone_numbers_are_said_digit_by_digit(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("I love it 😀 so much 👍.", "I love it so much."),
    ("Visit https://www.example.com today.", "Visit www.example.com today."),
    ("Love it #blessed", "Love it hashtag blessed"),
    ("at 1.5x speed", "at 1.5 times speed"),
    ("$5.99/month, 3 times/day, 60 km/h, and/or", "5 dollars 99 cents per month, 3 times per day, "
                                                  "60 kilometers per hour, and/or"),
    ("Open 24/7. Coffee w/ milk, tea w/o sugar.", "Open 24 7. Coffee with milk, tea without sugar."),
    ("Wait—what? Well – no. He said -- nothing.", "Wait, what? Well, no. He said, nothing."),
    ("I don't know... maybe.", "I don't know, maybe."),
    ("I-I-I don't know. STOP RIGHT THERE.", "I-I-I don't know. STOP RIGHT THERE."),
])
def test_emoji_web_addresses_hashtags_and_pauses(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("Wait 5-10 minutes, 9am–5pm, 10:30–11:00.", "Wait 5 to 10 minutes, 9am to 5pm, 10:30 to 11 o'clock."),
    ("at 7:05 or 11:00am", "at 7 oh 5 or 11am"),
    ("a 3-2 win, it was 10-5", "a 3-2 win, it was 10-5"),  # the first the larger: a score
    ("the U.S. and a Ph.D. in A.I. today", "the US and a PhD in AI today"),
    ("He lives in the U.S. Now he is back.", "He lives in the US. Now he is back."),
    ("1/2 cup, 3/4 cup, 2/3 of it", "one half cup, three quarters cup, two thirds of it"),
    ("Closed 12/25, back 10/1, sale on 5/20.", "Closed December 25th, back October 1st, sale on May 20th."),
    ("Call 911, dial 12306, I called 3 times.", "Call 9 1 1, dial 1 2 3 0 6, I called 3 times."),  # not "nine hundred eleven"
    ("Room 302, Flight MU5735, Room 12.", "Room 3 0 2, Flight M U 5 7 3 5, Room 12."),
    ("The CEO of ABC Ltd. He left.", "The CEO of ABC Limited. He left."),
    ("Open 24h, 5 min, 30 secs.", "Open 24 hours, 5 minutes, 30 seconds."),
    ("Wait… really?", "Wait, really?"),
])
def test_times_ranges_initialisms_fractions(written: str, said: str) -> None:
    assert spoken_english(written) == said


@pytest.mark.parametrize(("written", "said"), [
    ("Room １２０３，floor ３。", "Room 1 2 0 3, floor 3."),  # espeak-ng said "Room": the digits were dropped
    ("See you at 3:30，OK？", "See you at 3:30, OK?"),  # the pause and the question were lost
    ("Ｉ ｌｏｖｅ ｙｏｕ！", "I love you!"),
    ("He is No.1 in class.", "He is number 1 in class."),  # was "no dot one"
    ("It costs ￥500.", "It costs 500 yuan."),  # the currency was dropped ("five hundred")
    ("It is 37.5℃ today.", "It is 37.5 degrees Celsius today."),  # the degrees were dropped
    ("Call me at 13812345678.", "Call me at 1 3 8 1 2 3 4 5 6 7 8."),  # was "thirteen billion ..."
])
def test_a_line_typed_on_a_chinese_keyboard_is_read_as_its_ascii(written: str, said: str) -> None:
    assert spoken_english(written) == said
