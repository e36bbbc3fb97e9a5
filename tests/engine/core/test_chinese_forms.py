"""Written forms in Chinese text said as words, the same for the Mandarin voice and take QA."""

from __future__ import annotations

import pytest

from engine.core.chinese_forms import said_forms
from engine.hearing.qa.wer import error_rate


@pytest.mark.parametrize(("text", "said"), [
    ("2026-12-07见", "2026年12月7日见"),
    ("2026/1/5", "2026年1月5日"),
    ("1,299.5元", "1299.5元"),
    ("3～5天", "3到5天"),
    ("3-5个工作日", "3到5个工作日"),
    ("2020-2021年", "2020年到2021年"),
    ("比分3:2", "比分3比2"),
    ("打成了3-2", "打成了3比2"),  # a dash from the larger number: a score
    ("气温-3.5℃", "气温负3.5摄氏度"),
    ("跑5km", "跑5公里"),
    ("120 km/h", "120公里每小时"),
    ("打010-1234-5678", "打01012345678"),  # a code in groups: one code
    ("8:30见", "8:30见"),  # a clock time is the time reader's
    ("5G网络", "5G网络"),  # a letter, not a unit
    ("7×24小时", "7乘24小时"),
    ("1+1=2", "1加1等于2"),
    ("1920x1080的屏幕", "1920乘1080的屏幕"),
    ("1.5x速度", "1.5x速度"),  # no number after the sign: not arithmetic
    ("访问www.baidu.com查看", "访问www点baidu点com查看"),
    ("请看https://example.com/help?id=3。", "请看example点com斜杠help。"),  # no scheme, no query
    ("发到wei_2024@qq.com。", "发到wei下划线2024艾特qq点com。"),
])
def test_written_forms_become_what_is_said(text, said):
    assert said_forms(text) == said


def test_a_count_with_separators_is_written_by_the_callers_numeral_writer():
    assert said_forms("卖了12,800件", count=lambda digits: f"<{digits}>") == "卖了<12800>件"


@pytest.mark.parametrize(("line", "heard"), [
    ("会议改到2027-01-15上午。", "会议改到2027年1月15日上午"),
    ("最低气温-5℃", "最低气温负五摄氏度"),
    ("我每天跑5km", "我每天跑五公里"),
    ("快递2～3天到", "快递二到三天到"),
    ("打010-1234-5678", "打01012345678"),
    ("打成了2:1", "打成了2-1"),
    ("我们7×24小时在线", "我们七乘二十四小时在线"),
    ("发邮件到test@qq.com", "发邮件到test艾特qq点com"),
])
def test_take_qa_hears_a_written_form_said_in_words_as_the_line(line, heard):
    assert error_rate(line, heard, "zh") == 0.0
