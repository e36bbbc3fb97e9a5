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


@pytest.mark.parametrize(("text", "said"), [
    ("他是No.1选手", "他是第1选手"),  # the champion, not 诺 and a digit
    ("NO.3球员", "3号球员"),
    ("#3号和№5", "3号和5号"),
    ("排名1st，他是2nd", "排名第1，他是第2"),
    ("一共￥1,200", "一共1200元"),
    ("¥1,200元", "1200元"),  # 元 not said twice
    ("花了¥1.5万", "花了1.5万元"),
    ("US$5、HK$100、NT$500、€20、£5", "5美元、100港元、500新台币、20欧元、5英镑"),
    ("5元/斤", "5元每斤"),
    ("12:30-14:00开会", "12:30到14:00开会"),  # a range of times, not a score
    ("降了5%-10%", "降了5%到10%"),  # not 百分之五负百分之十
    ("降了3-5%", "降了3%到5%"),
    ("@小明 你好", "艾特小明 你好"),
    ("100m²、3㎡、1.5L、500g", "100平方米、3平方米、1.5升、500克"),
    ("5g网络和5g手机", "5g网络和5g手机"),  # a network, not grams
    ("阅读量10万+，18+的内容", "阅读量10万加，18加的内容"),
    ("气温-5~3℃", "气温负5到3摄氏度"),  # a tilde is a range, never a score or a minus
    ("上午9点-11点，3天-5天", "上午9点到11点，3天到5天"),  # the dash after a unit was 负 (minus)
    ("大约~5分钟", "大约~5分钟"),  # "about", not a range
    ("90°角", "90度角"),
    ("+86 138 1234 5678", "8613812345678"),  # a phone number in groups is one code
    ("138 1234 5678", "13812345678"),
    ("分别是100 200 300", "分别是100 200 300"),  # three numbers, not a code
])
def test_signs_a_drama_script_holds_become_what_is_said(text, said):
    assert said_forms(text) == said


@pytest.mark.parametrize(("text", "said"), [
    ("圣诞节是12/25。", "圣诞节是12月25日。"),  # a month and a day, not 二十五分之十二
    ("5/20那天，10/1放假，3/2见", "5月20日那天，10月1日放假，3月2日见"),
    ("3/8那天", "3月8日那天"),  # a small fraction's shape, followed by a word of days
    ("12/25号见", "12月25号见"),  # 号 not said twice
    ("我们24/7营业，客服24/365在线", "我们7天24小时营业，客服365天24小时在线"),  # around the clock
    ("1/2的人，3/4杯水，9/10", "2分之1的人，4分之3杯水，10分之9"),  # small fractions stay fractions
    ("只占1/100", "只占100分之1"),
    ("2026/12/25", "2026年12月25日"),  # a full date is the date rule's
])
def test_a_slash_is_a_date_around_the_clock_or_a_fraction_as_the_line_means(text, said):
    assert said_forms(text) == said


@pytest.mark.parametrize(("text", "said"), [
    ("年薪30W，月入2k，花了1.5k，5w块", "年薪30万，月入2000，花了1500，5万块"),  # chat's k and w in a sum
    ("粉丝10w了", "粉丝10万了"),
    ("4K电视，充电器65W", "4K电视，充电器65W"),  # a resolution and watts stay letters
    ("+1，我也要", "加1，我也要"),  # chat's "me too"
    ("emm，hmm，mmm", "嗯，嗯，嗯"),  # hesitations typed in letters
    ("长5mm，300 mm镜头，我用mm做单位", "长5毫米，300毫米镜头，我用mm做单位"),  # millimetres, not a hesitation
    ("+86 138 1234 5678", "8613812345678"),  # a country code is not said
    ("打0755-88886666", "打075588886666"),  # a landline's area code and its eight digits: one code
])
def test_chats_sums_a_plus_one_and_a_landline_are_said(text, said):
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
    ("他是No.1选手", "他是第一选手"),
    ("一共￥1,200", "一共一千二百元"),
    ("会议12:30-14:00", "会议十二点三十分到十四点"),
    ("降了5%-10%", "降了百分之五到百分之十"),
    ("快打110", "快打幺幺零"),  # 幺 is 1 in a number read digit by digit
    ("电话+86 138 1234 5678", "电话八六幺三八幺二三四五六七八"),
    ("@小明 你好", "艾特小明你好"),
    ("花了¥1.5万", "花了一点五万元"),  # 一点五万 is 15000, not 1 and 五万
    ("US$5一杯", "五美元一杯"),
    ("5元/斤", "五元每斤"),
    ("100m²的房子", "一百平方米的房子"),  # read before NFKC makes it 100m2
    ("90°角", "九十度角"),
    ("排名1st", "排名第一"),
    ("1.5L的水", "一点五升的水"),
    ("涨了５０％", "涨了百分之五十"),
    ("這個東西2個", "这个东西两个"),  # a traditional line heard in simplified
    ("太好了😂", "太好了"),  # an emoji is not said
    ("上午9点-11点开会", "上午九点到十一点开会"),
    ("圣诞节是12/25。", "圣诞节是十二月二十五日"),
    ("我们24/7营业", "我们七天二十四小时营业"),
    ("3/4杯水", "四分之三杯水"),  # a fraction said was a take failed whole
    ("打12306订票", "打幺二三零六订票"),
    ("emmm我想想", "嗯我想想"),  # a hesitation typed in letters is 嗯
    ("年薪30W，月入2k", "年薪三十万，月入两千"),
    ("+1", "加一"),
    ("打0755-88886666", "打零七五五八八八八六六六六"),
    ("太牛了666！yyds！", "太牛了六六六YYDS"),  # chat's number, pinyin initials heard as letters
])
def test_take_qa_hears_a_written_form_said_in_words_as_the_line(line, heard):
    assert error_rate(line, heard, "zh") == 0.0
