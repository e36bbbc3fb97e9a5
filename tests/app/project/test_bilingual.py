"""Bilingual subtitle files (each cue in two languages, a row each): found, and split into the line
to dub and its original, in SRT, WebVTT and ASS."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.project import Project
from app.project.new_project import new_project_from_video
from app.project.script_io import import_ass, import_srt, import_vtt

BILINGUAL_SRT = (
    "1\n00:00:01,000 --> 00:00:02,500\n小明：你好，我们明天见。\nXiaoming: Hi, see you tomorrow.\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\n<i>好的。</i>\nOK.\n\n"
    "3\n00:00:05,000 --> 00:00:06,000\n走吧！\nLet's go!\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(root=tmp_path / "project")


def test_a_bilingual_srt_is_found_and_split_either_way(project: Project) -> None:
    imported = import_srt(BILINGUAL_SRT.encode("utf-8"), project)
    assert imported.languages == ("zh", "en")  # the upper row's first
    assert [c.name for c in imported.characters] == ["小明"]
    english = imported.keeping("en")
    assert [(line.text, line.source_text) for line in english.lines] == [
        ("Hi, see you tomorrow.", "你好，我们明天见。"), ("OK.", "好的。"), ("Let's go!", "走吧！")]
    chinese = imported.keeping("zh")
    assert [line.text for line in chinese.lines] == ["你好，我们明天见。", "好的。", "走吧！"]
    assert english.lines[0].character_id == imported.lines[0].character_id
    assert [line.start for line in english.lines] == [1.0, 3.0, 5.0]


def test_webvtt_and_ass_bilingual_cues_split_too(project: Project) -> None:
    vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Maya>你好\nHello\n\n00:03.000 --> 00:04.000\n再见\nBye\n"
    imported = import_vtt(vtt.encode("utf-8"), project)
    assert imported.languages == ("zh", "en")
    assert [(line.text, line.source_text) for line in imported.keeping("en").lines] == [("Hello", "你好"), ("Bye", "再见")]
    ass = ("[Script Info]\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
           "Dialogue: 0,0:00:01.00,0:00:02.00,Default,Li,0,0,0,,我们走吧\\N{\\fs12}Let's go\n"
           "Dialogue: 0,0:00:03.00,0:00:04.00,Default,Li,0,0,0,,好的\\NOK\n")
    imported = import_ass(ass.encode("utf-8"), project)
    assert [(line.text, line.source_text) for line in imported.keeping("zh").lines] == [("我们走吧", "Let's go"), ("好的", "OK")]


@pytest.mark.parametrize("srt_text", [
    # two rows of one language: one line, as before
    "1\n00:00:01,000 --> 00:00:02,000\nMaya: Hello there,\nhow are you?\n\n2\n00:00:03,000 --> 00:00:04,000\nFine.\n",
    # a Chinese file that quotes English on a row of its own once in three cues: not bilingual
    "1\n00:00:01,000 --> 00:00:02,000\n他在门口写着\nNo entry\n\n2\n00:00:03,000 --> 00:00:04,000\n我们走吧。\n\n"
    "3\n00:00:05,000 --> 00:00:06,000\n好的。\n",
])
def test_a_file_in_one_language_is_not_bilingual(project: Project, srt_text: str) -> None:
    imported = import_srt(srt_text.encode("utf-8"), project)
    assert imported.languages == ()
    assert imported.keeping("en").lines == imported.lines


def test_new_keeps_the_language_asked_for_and_warns_when_none_is(tmp_path: Path, video: Path) -> None:
    subtitles = tmp_path / "bilingual.srt"
    subtitles.write_text(BILINGUAL_SRT, encoding="utf-8")
    made = new_project_from_video(tmp_path / "kept", video, subtitles=subtitles, keep_language="en")
    assert [line.text for line in made.project.lines] == ["Hi, see you tomorrow.", "OK.", "Let's go!"]
    assert made.project.lines[0].source_text == "你好，我们明天见。"
    assert not any("--keep-language" in warning for warning in made.warnings)  # the file names it too
    # The project dubs Chinese into English: its dub track is tagged English, not "und".
    assert (made.project.target_language, made.project.language) == ("en", "zh")
    assert Project.load(tmp_path / "kept").target_language == "en"
    both = new_project_from_video(tmp_path / "both", video, subtitles=subtitles)
    assert both.project.lines[0].text == "你好，我们明天见。 Xiaoming: Hi, see you tomorrow."  # as before: whole
    assert any("bilingual" in warning and "--keep-language" in warning for warning in both.warnings)


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "utf-16"])
def test_a_row_with_no_letters_is_the_side_that_has_none(project: Project, encoding: str) -> None:
    """7×24小时 over 24/7: the row with no letters is the English, not a second Chinese row (it was
    kept as 7×24小时24/7 with no original)."""
    srt_text = ("1\n00:00:01,000 --> 00:00:02,000\n7×24小时在线\n24/7\n\n"
                "2\n00:00:03,000 --> 00:00:04,000\n第3集\nEpisode 3\n\n"
                "3\n00:00:05,000 --> 00:00:06,000\n我爱你\nI love you\n\n"
                "4\n00:00:07,000 --> 00:00:08,000\n……\n好吧。\nFine.\n")
    imported = import_srt(srt_text.encode(encoding), project)
    assert imported.languages == ("zh", "en")
    chinese = imported.keeping("zh")
    assert [(line.text, line.source_text) for line in chinese.lines] == [
        ("7×24小时在线", "24/7"), ("第3集", "Episode 3"), ("我爱你", "I love you"), ("……好吧。", "Fine.")]
    english = imported.keeping("en")
    assert [(line.text, line.source_text) for line in english.lines][0] == ("24/7", "7×24小时在线")


def test_an_ass_with_a_style_per_language_is_bilingual(project: Project) -> None:
    """双语 ASS as fansubs and subtitle mergers write it: each cue twice, the same times, a Chinese
    style and an English one (the two languages were two lines, both dubbed)."""
    events = [("0:00:01.00", "0:00:02.50", "小明", "你好，我们明天见。", "Hi, see you tomorrow."),
              ("0:00:03.00", "0:00:04.00", "", "好的。", "OK."),
              ("0:00:05.00", "0:00:06.00", "", "走吧！", "Let's go!")]
    ass = ("[Script Info]\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
           + "".join(f"Dialogue: 0,{start},{end},CN,{name},0,0,0,,{chinese}\n"
                     f"Dialogue: 0,{start},{end},EN,,0,0,0,,{{\\fnArial\\fs14}}{english}\n"
                     for start, end, name, chinese, english in events))
    imported = import_ass(ass.encode("utf-8"), project)
    assert imported.languages == ("zh", "en") and len(imported.lines) == 3
    english = imported.keeping("en")
    assert [(line.text, line.source_text) for line in english.lines] == [
        ("Hi, see you tomorrow.", "你好，我们明天见。"), ("OK.", "好的。"), ("Let's go!", "走吧！")]
    assert [c.name for c in imported.characters] == ["小明"]
    assert english.lines[0].character_id == imported.characters[0].id


def test_an_srt_with_a_cue_per_language_at_the_same_times_is_bilingual(project: Project) -> None:
    """Two subtitle tracks merged into one SRT: a cue per language, the same times, either order."""
    srt_text = ("1\n00:00:01,000 --> 00:00:02,000\n你去哪儿？\n\n2\n00:00:01,000 --> 00:00:02,000\nWhere are you going?\n\n"
                "3\n00:00:03,000 --> 00:00:04,000\nTo the station.\n\n4\n00:00:03,000 --> 00:00:04,000\n去车站。\n\n"
                "5\n00:00:05,000 --> 00:00:06,000\n- 走吧。\n\n6\n00:00:05,000 --> 00:00:06,000\n- 好。\n\n"
                "7\n00:00:07,000 --> 00:00:08,000\n到了。\n\n8\n00:00:07,000 --> 00:00:08,000\nWe're here.\n")
    imported = import_srt(srt_text.encode("gb18030"), project)
    assert imported.languages == ("zh", "en")
    assert [(line.text, line.source_text) for line in imported.keeping("zh").lines] == [
        ("你去哪儿？", "Where are you going?"), ("去车站。", "To the station."), ("- 走吧。", ""), ("- 好。", ""),
        ("到了。", "We're here.")]  # two cues of one language at the same times stay two lines


def test_a_line_and_a_sign_in_another_language_at_the_same_times_stay_two_lines(project: Project) -> None:
    """Only a bilingual file's cues are joined across languages: here most cues are Chinese alone."""
    srt_text = ("1\n00:00:01,000 --> 00:00:02,000\n你去哪儿？\n\n2\n00:00:01,000 --> 00:00:02,000\nHOTEL\n\n"
                "3\n00:00:03,000 --> 00:00:04,000\n去车站。\n\n4\n00:00:05,000 --> 00:00:06,000\n走吧。\n")
    imported = import_srt(srt_text.encode("utf-8"), project)
    assert imported.languages == ()
    assert [line.text for line in imported.lines] == ["你去哪儿？", "HOTEL", "去车站。", "走吧。"]
