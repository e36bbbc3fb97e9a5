from engine.text import FIRST_PIECE_MAX_CHARS, PIECE_MAX_CHARS, is_speakable, split_for_streaming


def test_sentences_become_pieces():
    pieces = split_for_streaming("Hello there. How are you?\nFine!")
    assert [p.text for p in pieces] == ["Hello there.", "How are you?", "Fine!"]
    assert all(p.ends_sentence for p in pieces)


def test_first_piece_is_short_even_for_one_long_sentence():
    sentence = ", ".join(["the quick brown fox jumps over the lazy dog"] * 12) + "."
    pieces = split_for_streaming(sentence)
    assert len(pieces[0].text) <= FIRST_PIECE_MAX_CHARS
    assert all(len(p.text) <= PIECE_MAX_CHARS for p in pieces)
    assert not pieces[0].ends_sentence and pieces[-1].ends_sentence
    assert " ".join(p.text for p in pieces).replace(" ", "") == sentence.replace(" ", "")


def test_long_text_without_punctuation_is_cut_at_spaces():
    text = " ".join(["word"] * 2000)
    pieces = split_for_streaming(text)
    assert sum(len(p.text.split()) for p in pieces) == 2000
    assert all(len(p.text) <= PIECE_MAX_CHARS for p in pieces)


def test_chinese_splits_at_full_stops_and_commas():
    pieces = split_for_streaming("今天天气很好。我们去公园吧！")
    assert [p.text for p in pieces] == ["今天天气很好。", "我们去公园吧！"]


def test_unspeakable_pieces_are_dropped():
    assert not is_speakable("!!! ... ??? 🙂")
    assert is_speakable("R2")
    assert [p.text for p in split_for_streaming("... Hi. !!!")] == ["Hi."]
