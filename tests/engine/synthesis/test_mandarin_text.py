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
    ("电话13812345678", "电话幺三八幺二三四五六七八"),  # 1 as yao1 in a code
    ("他是CEO", "他是si1yi1ou1"),  # an acronym: its letters' English names
    ("OK，就这么定了", "ou1kei1，就这么定了"),
    ("ＶＩＰ卡", "wei1ai1pi1卡"),  # full-width letters read as the half-width ones
])
def test_what_is_not_han_is_written_out(text, spoken):
    assert normalise(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("2026-12-07见", "二零二六年十二月七日见"),  # an ISO date, not two negative numbers
    ("2026/1/5", "二零二六年一月五日"),
    ("一共1,299.5元", "一共一千二百九十九点五元"),  # thousands separators
    ("1,234,567人", "一百二十三万四千五百六十七人"),  # a count, not a code read digit by digit
    ("3～5天", "三到五天"),
    ("2020-2021年", "二零二零年到二零二一年"),
    ("比分3:2", "比分三比二"),  # a score, not a clock time
    ("气温-3.5℃", "气温负三点五摄氏度"),
    ("90年代", "九十年代"),  # a decade
    ("90后", "九零后"),  # born in a decade
    ("等了10年", "等了十年"),  # a count of years
    ("100年", "一百年"),
    ("98年3月", "九八年三月"),  # a year: a month follows
    ("08年", "零八年"),  # a year: a leading zero
    ("跑了5km", "跑了五公里"),
    ("2m高", "两米高"),
    ("120km/h", "一百二十公里每小时"),
    ("5G网络", "五ji1网络"),  # a letter, not a unit
    ("一共￥1,200", "一共一千二百元"),  # money with thousands separators, the currency said
    ("涨了５０％", "涨了百分之五十"),  # a full-width percent sign
    ("快打110", "快打幺幺零"),  # a number dialled, digit by digit
    ("请拨打120", "请拨打幺二零"),
    ("打了100下", "打了一百下"),  # a count after 打
    ("他是No.1", "他是第一"),
    ("1.5L", "一点五升"),
    ("她1米65，他1米8", "她一米六五，他一米八"),  # a height's centimetres digit by digit
    ("1080P高清，720p", "一零八零pi1高清，七二零pi1"),  # a resolution
])
def test_written_forms_are_said_as_chinese_says_them(text, spoken):
    assert normalise(text) == spoken


@pytest.mark.parametrize(("word", "said"), [
    ("Zoom", "zu1 mu5"),  # a word by its English sound, a lone consonant with a weak vowel
    ("YouTube", "you1 tu1 bu5"),  # mixed case: still a word, not an acronym
    ("iPhone", "ai1 fou1 en5"),
    ("KTV", "kei1 ti1 wei1"),  # an acronym by its letters' English names
    ("LOL", "ai1 er5 ou1 ai1 er5"),  # ... even where English says it as a word
    ("Wi-Fi", "wai1 fa1"),  # a hyphenated word is one word
    ("E-mail", "yi1 mei1 er5"),
])
def test_an_english_word_is_said_by_its_sound_and_an_acronym_by_its_letters(word, said):
    assert mandarin_text.latin_reading(word) == said


def test_english_is_said_in_syllables_the_voice_has():
    assert syllables(normalise("OK，发个email给CEO。")) == [
        "ou1", "kei1", BREAK, "fa1", "ge4", "yi1", "mei1", "er5", "gei3", "si1", "yi1", "ou1"]
    table = mandarin_text.symbol_table()
    words = ["Starbucks", "Netflix", "Instagram", "Photoshop", "Airbnb", "Excel", "Google", "Uber", "online",
             "meeting", "Word", "Costco", "Slack", "Facebook", "Taobao", "strength", "rhythm", "x-ray",
             "ABCDE", "FGHIJ", "KLMNO", "PQRST", "UVWXY", "Z"]
    for word in words:
        reading = mandarin_text.latin_reading(word).split()
        assert reading, word
        assert all(table.phones(syllable) for syllable in reading), (word, reading)


def test_syllables_carry_tones_and_clause_breaks():
    assert syllables("你好，吧。") == ["ni2", "hao3", BREAK, "ba5"]  # 3-3 becomes 2-3
    assert syllables("，好，") == ["hao3"]  # no break before the first syllable or after the last


def test_an_ellipsis_a_dash_or_a_tilde_inside_a_line_is_a_pause():
    """They were dropped, and the words on either side ran together (嗯我知道了)."""
    assert syllables(normalise("嗯……我知道了。")) == ["n2", BREAK, "wo3", "zhi1", "dao4", "le5"]
    assert syllables(normalise("你——你给我站住！")).count(BREAK) == 1
    assert syllables(normalise("收到～好的…")) == ["shou1", "dao4", BREAK, "hao3", "de5"]  # none at the end


@pytest.mark.parametrize(("text", "spoken"), [
    ("太牛了666！", "太牛了六六六！"),  # chat's numbers as their digits, not 六百六十六
    ("哈哈哈2333", "哈哈哈二三三三"),
    ("这波操作666666，888", "这波操作六六六六六六，八八八"),
    ("999朵玫瑰，888块", "九百九十九朵玫瑰，八百八十八块"),  # a measure word after: a count
    ("emmm我想想，hmm", "嗯我想想，嗯"),  # a hesitation typed in letters
])
def test_chats_numbers_and_hesitations_are_said_as_chat_says_them(text, spoken):
    assert normalise(text) == spoken


def test_pinyin_initials_are_said_letter_by_letter():
    """yyds (永远的神) was read by espeak-ng as one word, yi de zi; an English word keeps its sound."""
    assert normalise("yyds！") == normalise("YYDS！") == "wai1wai1di1ai1si5！"
    assert normalise("xswl") == normalise("XSWL")
    assert normalise("my god") == "mai1 ga1de5" and normalise("hmm") == "嗯"


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


@pytest.mark.parametrize(("text", "said"), [
    ("奶奶", ["nai3", "nai5"]),  # pypinyin: nai3 nai3
    ("妈妈说", ["ma1", "ma5", "shuo1"]),
    ("叔叔好", ["shu1", "shu5", "hao3"]),
    ("你看看", ["ni3", "kan4", "kan5"]),  # a doubled verb too
    ("看一看", ["kan4", "yi5", "kan4"]),
    ("宝贝", ["bao3", "bei4"]),  # nothing doubled, nothing changed
])
def test_a_doubled_kinship_noun_or_verb_has_a_neutral_second_syllable(text, said):
    assert syllables(normalise(text)) == said


@pytest.mark.parametrize(("text", "yi"), [
    ("一天", "yi4"), ("一样", "yi2"), ("一起", "yi4"), ("一个", "yi2"),  # by the next tone
    ("十一点", "yi1"), ("第一名", "yi1"), ("双十一", "yi1"), ("1998年", "yi1"),  # in a number
    ("一月", "yi1"), ("一楼", "yi1"), ("一年级", "yi1"), ("星期一见", "yi1"),  # an ordinal
    ("唯一的", "yi1"), ("万一他来了", "yi1"), ("统一", "yi1"),  # the end of a word
])
def test_yi_is_read_by_its_place(text, yi):
    said = syllables(normalise(text))
    assert [unit for unit in said if unit.startswith("yi")][0] == yi


@pytest.mark.parametrize(("text", "spoken"), [
    ("下午2点", "下午两点"),
    ("2:30", "两点三十分"),
    ("2点15分", "两点十五分"),
    ("2个人", "两个人"),
    ("2年", "两年"),
    ("2.5公里", "二点五公里"),  # a decimal
    ("12点", "十二点"),  # within a number
    ("第2天", "第二天"),  # an ordinal
    ("2年级", "二年级"),
    ("2月2号", "二月二号"),  # a date
])
def test_two_is_liang_as_a_count(text, spoken):
    assert normalise(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("13812345678", "幺三八幺二三四五六七八"),
    ("房间1203", "房间幺二零三"),
    ("尾号0571", "尾号零五七幺"),
    ("1203个", "一千二百零三个"),  # a count is a number
    ("12306的客服说了", "幺二三零六的客服说了"),  # a service number, wherever it stands
    ("我住3楼302，去1203房间，5楼的506室", "我住三楼三零二，去幺二零三房间，五楼的五零六室"),  # rooms, not 三百零二
    ("坐G1234次高铁，MU5735航班，RTX4090", "坐ji1幺二三四次高铁，ai1mu5you1五七三五航班，a1ti1ai1ke5si5四零九零"),
    ("G20峰会，iPhone15", "ji1二十峰会，ai1fou1en5十五"),  # two digits, or after a small letter: a number
    ("这栋楼1000多人，榜单TOP100，GDP2000亿", "这栋楼一千多人，榜单ti1ou1pi1一百，ji1di1pi1两千亿"),  # counts stay counts
    ("有事找10086，或者95588", "有事找幺零零八六，或者九五五八八"),
    ("走了12000步，一共12306个，第10086名，10500元", "走了一万二千步，一共一万二千三百零六个，第一万零八十六名，一万零五百元"),
    ("圣诞节是12/25，我们24/7营业，只要1/2", "圣诞节是十二月二十五日，我们七天二十四小时营业，只要二分之一"),
])
def test_codes_are_read_digit_by_digit_with_yao(text, spoken):
    assert normalise(text) == spoken


@pytest.mark.parametrize(("text", "surname"), [
    ("单老师", "shan4"), ("姓单", "shan4"), ("曾经理", "zeng1"), ("查先生", "zha1"),
    ("区阿姨", "ou1"), ("朴小姐", "piao2"), ("仇大哥", "qiu2"), ("解医生", "xie4"),
])
def test_a_polyphone_surname_is_read_as_a_name_where_the_text_shows_one(text, surname):
    assert surname in syllables(normalise(text))


@pytest.mark.parametrize(("text", "reading"), [
    ("简单", "dan1"), ("曾经", "ceng2"), ("查一下", "cha2"), ("地区", "qu1"), ("解决", "jie3"),
])
def test_the_same_characters_elsewhere_keep_their_usual_reading(text, reading):
    assert reading in syllables(normalise(text))


@pytest.mark.parametrize(("traditional", "simplified"), [
    ("我要2個", "我要2个"),  # 两 as a count before its measure word
    ("房間1203", "房间1203"),  # a code after the word that names it, digit by digit
    ("號碼是1234", "号码是1234"),
    ("下午2點半", "下午2点半"),
    ("我們還你錢", "我们还你钱"),  # 还 huan2 before whom it is given to
    ("哪兒都行，一會兒見", "哪儿都行，一会儿见"),  # erhua as one syllable
    ("單老師說", "单老师说"),  # a surname's reading
])
def test_a_traditional_line_is_read_as_its_simplified_one(traditional, simplified):
    """A zh-Hant script (Taiwan, Hong Kong) says the same words: every reading rule applies to it."""
    assert syllables(normalise(traditional)) == syllables(normalise(simplified))
