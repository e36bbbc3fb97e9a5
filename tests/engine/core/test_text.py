import pytest

from engine.core.languages import join_pieces, rules_for
from engine.core.text import (
    FIRST_CUT_SLACK,
    FIRST_PIECE_CHARS,
    FIRST_PIECE_MIN_CHARS,
    PIECE_MAX_CHARS,
    control_character,
    first_cut,
    first_piece_chars,
    is_speakable,
    split_for_streaming,
    spoken_text,
    wrap_subtitle,
)


def test_sentences_become_pieces():
    pieces = split_for_streaming("Hello there. How are you?\nFine!")
    assert [p.text for p in pieces] == ["Hello there.", "How are you?", "Fine!"]
    assert all(p.ends_sentence and not p.mid_clause for p in pieces)


def test_first_piece_is_short_even_for_one_long_sentence():
    sentence = ", ".join(["the quick brown fox jumps over the lazy dog"] * 12) + "."
    pieces = split_for_streaming(sentence)
    assert len(pieces[0].text) <= FIRST_PIECE_CHARS
    assert all(len(p.text) <= PIECE_MAX_CHARS for p in pieces)
    assert not pieces[0].ends_sentence and pieces[-1].ends_sentence
    assert " ".join(p.text for p in pieces).replace(" ", "") == sentence.replace(" ", "")


def test_a_first_sentence_within_the_budget_stays_whole_and_later_ones_are_never_cut():
    first = "The lighthouse keeper swore she saw a ship drift past the rocks."  # 64: the idle budget
    later = "Nobody in the harbour town believed a single word of it, not even her own brother."
    pieces = split_for_streaming(f"{first} {later}", first_max=FIRST_PIECE_MIN_CHARS)
    assert [p.text for p in pieces] == ["The lighthouse keeper swore she", "saw a ship drift past the rocks.", later]
    pieces = split_for_streaming(f"{first} {later}", first_max=len(first))
    assert [p.text for p in pieces] == [first, later]


def test_the_cut_prefers_a_clause_mark_that_keeps_a_third_of_the_budget():
    sentence = "If you see my brother at the market, tell him the car is fixed and he can pick it up."
    head, rest, *_ = split_for_streaming(sentence, first_max=40)
    assert head.text == "If you see my brother at the market," and not head.mid_clause  # 36 >= 40 // 3
    assert rest.text == "tell him the car is fixed and he can pick it up." and rest.ends_sentence
    # a clause mark in the first third of the budget is too early: the cut goes between words
    head, *_ = split_for_streaming("Well, I think we ought to leave before the rain gets any heavier.", first_max=32)
    assert head.text == "Well, I think we ought to leave" and head.mid_clause and not head.ends_sentence


def test_a_first_sentence_a_little_over_the_budget_stays_whole():
    question = "Do you remember where we parked the car?"  # 40: within 1.5 x 32
    assert first_cut(question, 32) is None
    assert [p.text for p in split_for_streaming(f"{question} It was here.", first_max=32)] == [question, "It was here."]
    sentence = "Bring the lantern and the rope when you come back down."  # 55 > 1.5 x 32
    length, at_clause = first_cut(sentence, 32)  # type: ignore[misc]
    assert sentence[:length] == "Bring the lantern and the rope" and not at_clause
    assert len(sentence) - length > 32 * (FIRST_CUT_SLACK - 1)


def test_the_budget_shrinks_with_the_streams_sharing_the_slots():
    assert first_piece_chars(streams=1, slots=2) == FIRST_PIECE_CHARS
    assert first_piece_chars(streams=4, slots=2) == FIRST_PIECE_CHARS // 2
    assert first_piece_chars(streams=3, slots=1) == FIRST_PIECE_CHARS  # one slot: a piece always has every core
    assert first_piece_chars(streams=16, slots=16) == FIRST_PIECE_MIN_CHARS
    # Rendered to a file: the first sentence stays whole, however busy the engine.
    long_sentence = "Bring the lantern and the rope when you come back down to the harbour wall tonight."
    budget = first_piece_chars(streams=16, slots=2, listening=False)
    assert [p.text for p in split_for_streaming(long_sentence, first_max=budget)] == [long_sentence]
    assert len(split_for_streaming(long_sentence, first_max=first_piece_chars(streams=16, slots=2))) == 2


def test_long_text_without_punctuation_is_cut_at_spaces():
    text = " ".join(["word"] * 2000)
    pieces = split_for_streaming(text)
    assert sum(len(p.text.split()) for p in pieces) == 2000
    assert all(len(p.text) <= PIECE_MAX_CHARS for p in pieces)


def test_chinese_splits_at_full_stops_and_commas():
    pieces = split_for_streaming("今天天气很好。我们去公园吧！")
    assert [p.text for p in pieces] == ["今天天气很好。", "我们去公园吧！"]


@pytest.mark.parametrize(("text", "pieces"), [
    ("「你好。」他说。", ["「你好。」", "他说。"]),
    ("他问：“你去哪儿？”我说：“回家。”", ["他问：“你去哪儿？”", "我说：“回家。”"]),
    ("真的吗？！我不信。", ["真的吗？！", "我不信。"]),
    ('He said "Stop." Then he left. (Really.) OK.', ['He said "Stop."', "Then he left.", "(Really.)", "OK."]),
])
def test_a_sentence_keeps_the_quotes_and_brackets_that_close_it(text, pieces):
    assert [piece.text for piece in split_for_streaming(text, first_max=200)] == pieces


@pytest.mark.parametrize(("text", "pieces"), [
    ("Dr. Smith lives on Main St. near the park. Then he left.",
     ["Dr. Smith lives on Main St. near the park.", "Then he left."]),
    ("Mr. Jones met Mrs. Lee at 10 a.m. today.", ["Mr. Jones met Mrs. Lee at 10 a.m. today."]),
    ("Smith vs. Jones, Dec. 7. Room No. 5 is ours.", ["Smith vs. Jones, Dec. 7.", "Room No. 5 is ours."]),
    ("Bring pears, etc. to the picnic. Bring pears, etc. We eat at noon.",
     ["Bring pears, etc. to the picnic.", "Bring pears, etc.", "We eat at noon."]),
    ("Well... maybe. I said no. Fine.", ["Well... maybe.", "I said no.", "Fine."]),
    ("Wait… really? Yes.", ["Wait… really?", "Yes."]),
])
def test_an_english_abbreviations_period_ends_no_sentence(text, pieces):
    # Each cut here was a falling voice and a pause in the middle of a sentence ("Dr." alone).
    assert [piece.text for piece in split_for_streaming(text, first_max=200)] == pieces


def test_unspeakable_pieces_are_dropped():
    assert not is_speakable("!!! ... ??? 🙂")
    assert is_speakable("R2")
    assert [p.text for p in split_for_streaming("... Hi. !!!")] == ["Hi."]


def test_each_piece_of_a_cut_first_sentence_is_at_most_about_twice_the_one_before():
    """Its audio then covers the next piece's compute: a short head and a long rest would stall."""
    sentence = ("Sorry I'm late, the bus broke down halfway here and nobody on board knew when the next one "
                "would come, so I walked the last two miles in the rain.")
    pieces = split_for_streaming(sentence, first_max=FIRST_PIECE_MIN_CHARS)
    assert len(pieces[0].text) <= FIRST_PIECE_MIN_CHARS and pieces[-1].ends_sentence
    assert not any(p.ends_sentence for p in pieces[:-1])
    for before, after in zip(pieces, pieces[1:]):
        assert len(after.text) <= FIRST_CUT_SLACK * 2 * len(before.text)
    assert " ".join(p.text for p in pieces) == sentence


def test_control_characters_are_found_and_named() -> None:
    assert control_character("Hel\x00lo") == (3, "U+0000")
    assert control_character("bell\x07") == (4, "U+0007")
    assert control_character("tab\tand\nnew line\r") is None


def test_the_splitter_reads_the_language_tables_marks() -> None:
    """A full stop inside a number or an abbreviation ends nothing; 。 ends a sentence with no
    space after it; the Arabic question mark is a sentence end too; 、 and ， are clause marks."""
    assert [p.text for p in split_for_streaming("It costs 3.5 dollars. Fine.")] == ["It costs 3.5 dollars.", "Fine."]
    assert [p.text for p in split_for_streaming("你好。Hello!")] == ["你好。", "Hello!"]
    assert [p.text for p in split_for_streaming("كيف حالك؟ أنا بخير.")] == ["كيف حالك؟", "أنا بخير."]
    long_zh = "，".join(["我们明天早上八点在公司门口见面"] * 20)
    pieces = split_for_streaming(long_zh, first_max=260)
    assert len(pieces) > 1 and all(len(p.text) <= 260 for p in pieces)
    assert all(p.text.endswith("，") or p is pieces[-1] for p in pieces)  # cut at the clause marks
    assert not any(" " in p.text for p in pieces)  # clauses packed back together without spaces


@pytest.mark.parametrize(("text", "language", "lines"), [
    ("Maya: Did you see the lights past the rocks last night?", "en",
     ["Maya: Did you see the lights", "past the rocks last night?"]),
    ("Maya: We should tell the harbour master.", "en", ["Maya: We should tell the harbour master."]),  # 41 fit
    ("王经理：这份合同需要您签字，明天之前一定要给我。", "zh", ["王经理：这份合同需要您签字，", "明天之前一定要给我。"]),
    ("李秘书：好的，我马上送过去。", "zh", ["李秘书：好的，我马上送过去。"]),  # 14 of 16
    ("王经理：我们去Starbucks喝杯咖啡，好不好？", "zh", ["王经理：我们去Starbucks喝", "杯咖啡，好不好？"]),
    ("今日はいい天気ですね。明日も晴れるでしょう。", "ja", ["今日はいい天気ですね。", "明日も晴れるでしょう。"]),
    # After a full-width mark, before a Latin word or a number too, and after Chinese's doubled
    # dash (both were cut inside a word: 这件|事, 没问|题).
    ("「你好。」他说——这件事7×24小时都要有人管！", "zh", ["「你好。」他说——", "这件事7×24小时都要有人管！"]),
    ("王总：哈哈哈！100%没问题，No.1的团队。", "zh", ["王总：哈哈哈！", "100%没问题，No.1的团队。"]),
    ("哈哈哈！100%没问题，No.1的团队，就这样。", "zh", ["哈哈哈！100%没问题，", "No.1的团队，就这样。"]),
    ("He said no.\nThen he left.", "en", ["He said no.\nThen he left."]),  # the user's own breaks stay
    # Between words, not inside one (before: 小|区, 孩|子, 中华人民共和|国, 一|定; benchmarks/data/zh_dialogue*.txt).
    ("您好，您的快递放在小区门口的丰巢柜里了。", "zh", ["您好，您的快递放在", "小区门口的丰巢柜里了。"]),
    ("这个周末我们带孩子去公园放风筝吧。", "zh", ["这个周末我们带", "孩子去公园放风筝吧。"]),
    ("等一下，中华人民共和国国家博物馆今天开门吗", "zh", ["等一下，中华人民共和国", "国家博物馆今天开门吗"]),
    ("你放心，这件事我一定会帮你查清楚的。", "zh", ["你放心，", "这件事我一定会帮你查清楚的。"]),
])
def test_a_subtitle_wraps_at_its_languages_line_length(text: str, language: str, lines: list[str]) -> None:
    wrapped = wrap_subtitle(text, rules_for(language))
    assert wrapped == lines
    assert join_pieces(wrapped) == text  # the lines join back into the same text


def test_pieces_join_without_a_space_beside_a_full_width_mark() -> None:
    # An ASS or SRT cue broken after Chinese punctuation and before a name or a number.
    assert join_pieces(["你好，", "Tom。"]) == "你好，Tom。"
    assert join_pieces(["他说——", "7点见"]) == "他说——7点见"
    assert join_pieces(["Well —", "then."]) == "Well — then." and join_pieces(["Hello.", "World"]) == "Hello. World"


@pytest.mark.parametrize(("pieces", "joined"), [
    (["这件事", "7×24"], "这件事7×24"),  # a subtitle row broken before a number: no space comes in
    (["这件事", "7×24小时在线"], "这件事7×24小时在线"),
    (["第", "3集"], "第3集"),
    (["一共", "1,200元"], "一共1,200元"),
    (["二〇二四年", "3月5日"], "二〇二四年3月5日"),
    (["他说", "7 days later."], "他说 7 days later."),  # a number starting English words keeps its space
    (["Room 1203", "房间"], "Room 1203 房间"),
])
def test_a_number_inside_chinese_joins_without_a_space(pieces, joined) -> None:
    assert join_pieces(pieces) == joined


def test_a_text_too_long_for_two_lines_keeps_every_word() -> None:
    text = " ".join(["The tide came in early and nobody saw the boat leave the harbour."] * 3)
    wrapped = wrap_subtitle(text, rules_for("en"))
    assert len(wrapped) == 5 and all(len(line) <= 42 for line in wrapped) and join_pieces(wrapped) == text
    chinese = "甚至出现交易几乎停滞的情况" * 4  # 52 characters, no marks: 4 lines of 13
    assert wrap_subtitle(chinese, rules_for("zh")) == ["甚至出现交易几乎停滞的情况"] * 4


@pytest.mark.parametrize(("line", "said"), [
    ("（小声）我不会放弃的。", "我不会放弃的。"),
    ("(Beat) (softly) Go.", "Go."),
    ("[laughs] Right.", "Right."),
    ("（笑声）", "（笑声）"),  # nothing but a direction: left whole
    ("Hello (world).", "Hello (world)."),  # brackets inside the words stay
    ("（这是一个非常非常长的括号里的句子而不是指示）然后呢", "（这是一个非常非常长的括号里的句子而不是指示）然后呢"),
])
def test_a_voice_says_a_line_without_the_directions_before_its_words(line: str, said: str) -> None:
    assert spoken_text(line) == said
