"""Subtitle files as a Chinese drama team gets them (issue 30): each comes in right, or is refused
with a code and a sentence, never half-imported."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.project import CommandStack, ImportFormatError, Project
from app.project.script_io import ScriptImport, import_script
from engine.core.codes import ErrorCode


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project.create(tmp_path / "p", "P")


def imported(tmp_path: Path, project: Project, name: str, text: str, encoding: str = "utf-8") -> ScriptImport:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return import_script(path, project)


def timed(result: ScriptImport) -> list[tuple[float | None, float | None, str]]:
    return [(line.start, line.end, line.text) for line in result.lines]


TWO_CUES = [(1.0, 2.0, "你好。"), (3.0, 4.0, "再见。")]


@pytest.mark.parametrize("text", [
    pytest.param("1\n00:00:01,000 --> 00:00:02,000\n你好。\n\n2\n00:00:03,000 --> 00:00:04,000\n再见。\n", id="plain"),
    pytest.param("00:00:01,000 --> 00:00:02,000\n你好。\n\n00:00:03,000 --> 00:00:04,000\n再见。\n", id="no-numbers"),
    pytest.param("7\n00:00:01,000 --> 00:00:02,000\n你好。\n\n3\n00:00:03,000 --> 00:00:04,000\n再见。\n", id="numbers-out-of-order"),
    pytest.param("1\n00:00:01.000 --> 00:00:02.000\n你好。\n\n2\n00:00:03.000 --> 00:00:04.000\n再见。\n", id="dots"),
    pytest.param("1\r\n00:00:01,000 --> 00:00:02,000\r\n你好。\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n再见。\r\n", id="crlf"),
    pytest.param("1\r00:00:01,000 --> 00:00:02,000\r你好。\r\r2\r00:00:03,000 --> 00:00:04,000\r再见。\r", id="old-mac-cr"),
    pytest.param("1\n00:00:01,000 --> 00:00:02,000\n<font color=\"#ffff00\"><b>你好。</b></font>\n\n2\n00:00:03,000 --> "
                 "00:00:04,000\n<font face=\"黑体\" size=\"20\" color=#00ff00>再见。</font>\n", id="html-and-font-colours"),
    # Two files joined end to end: the second one's byte-order mark stood before its first cue
    # number, which then read as no number (refused as a malformed time line).
    pytest.param("\ufeff1\n00:00:01,000 --> 00:00:02,000\n你好。\n\n\ufeff1\n00:00:03,000 --> 00:00:04,000\n再见。\n",
                 id="bom-in-the-middle"),
    # A fraction of fewer than three digits is tenths or hundredths: srt read 3,5 as 3.005 s.
    pytest.param("1\n00:00:01,0 --> 00:00:02,00\n你好。\n\n2\n00:00:03,0000 --> 00:00:04,0\n再见。\n", id="short-fractions"),
])
def test_an_srt_as_drama_teams_have_them_comes_in_with_its_times(tmp_path: Path, project: Project, text: str) -> None:
    result = imported(tmp_path, project, "ep01.srt", text)
    assert timed(result) == TWO_CUES and result.warnings == []


def test_a_fraction_of_a_second_is_read_as_the_fraction_it_writes(tmp_path: Path, project: Project) -> None:
    result = imported(tmp_path, project, "ep01.srt", "1\n00:00:01,5 --> 00:00:02,25\n你好。\n\n"
                                                     "2\n00:00:03.1234 --> 00:00:04.9\n再见。\n")
    assert timed(result) == [(1.5, 2.25, "你好。"), (3.123, 4.9, "再见。")]


def test_overlapping_cues_and_cues_out_of_time_order_come_in_in_time_order(tmp_path: Path, project: Project) -> None:
    result = imported(tmp_path, project, "ep01.srt", "1\n00:00:05,000 --> 00:00:06,000\n走吧！\n\n"
                      "2\n00:00:01,000 --> 00:00:03,000\n你好。\n\n3\n00:00:02,000 --> 00:00:04,000\n再见。\n")
    CommandStack(project).push(result.command())
    assert [(line.start, line.end, line.text) for line in project.lines] == \
        [(1.0, 3.0, "你好。"), (2.0, 4.0, "再见。"), (5.0, 6.0, "走吧！")]


def test_a_cue_that_lasts_no_time_keeps_its_line_with_its_end_open_and_says_so(tmp_path: Path,
                                                                                project: Project) -> None:
    result = imported(tmp_path, project, "ep01.srt", "1\n00:00:01,000 --> 00:00:01,000\n你好。\n\n"
                                                     "2\n00:00:03,000 --> 00:00:04,000\n再见。\n")
    assert timed(result) == [(1.0, None, "你好。"), (3.0, 4.0, "再见。")]
    assert result.warnings == ["ep01.srt: the cues at 00:00:01,000 last no time; each was kept "
                               "with its end left open (its line may run until the next one)"]


def test_an_ass_keeps_its_dialogue_not_its_comments_nor_its_karaoke_tags(tmp_path: Path, project: Project) -> None:
    text = ("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,SimHei\n\n"
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            "Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,校对：这句再听一遍\n"
            "Dialogue: 0,0:00:01.00,0:00:02.00,Default,小明,0,0,0,,{\\k20}你{\\k30}好{\\kf40}。\n"
            "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\K50}再{\\ko50}见。\n")
    for line_end in ("\n", "\r\n", "\r"):
        result = imported(tmp_path, project, "ep01.ass", text.replace("\n", line_end))
        assert timed(result) == TWO_CUES and [c.name for c in result.characters] == ["小明"]


def test_a_webvtt_with_note_style_and_region_blocks_keeps_its_cues(tmp_path: Path, project: Project) -> None:
    text = ("WEBVTT - 第一集\nKind: captions\nLanguage: zh\n\nSTYLE\n::cue { color: yellow }\n\n"
            "REGION\nid:bottom\nwidth:40%\n\nNOTE 翻译：小王\n校对：小李\n\n"
            "1\n00:00:01.000 --> 00:00:02.000 region:bottom align:start\n<c.yellow>你好。</c>\n\n"
            "00:03.000 --> 00:04.000\n<v 小明>再见。</v>\n\nNOTE 完\n")
    result = imported(tmp_path, project, "ep01.vtt", text)
    assert timed(result) == TWO_CUES and [c.name for c in result.characters] == ["小明"]


def test_a_youtube_sbv_comes_in_and_a_broken_one_is_refused_at_its_line(tmp_path: Path, project: Project) -> None:
    text = "0:00:01.000,0:00:02.000\n小明：你好。\n\n0:00:03.000,0:00:04.000\n再见。\n"
    result = imported(tmp_path, project, "ep01.sbv", text)
    assert timed(result) == TWO_CUES and [c.name for c in result.characters] == ["小明"]
    with pytest.raises(ImportFormatError) as caught:
        imported(tmp_path, project, "ep01.sbv", text.replace("0:00:03.000,", "0:00:03.000 "))
    assert (caught.value.code, caught.value.line_no) == (ErrorCode.IMPORT_FORMAT, 4)
    assert "H:MM:SS.mmm,H:MM:SS.mmm" in str(caught.value)


def test_lrc_lyrics_come_in_each_line_until_the_next_and_a_bilingual_one_is_bilingual(tmp_path: Path,
                                                                                        project: Project) -> None:
    text = ("[ti:第一集 片尾曲]\n[ar:歌手]\n[offset:+500]\n[00:01.50][00:09.50]你<00:02.00>好\n[00:03.50]再见\n"
            "[00:05.5]\n[00:07.50]走吧\n")
    result = imported(tmp_path, project, "song.lrc", text)
    # +500 ms: every line half a second sooner; a stamp with no words ends the line before it.
    assert timed(result) == [(1.0, 3.0, "你好"), (3.0, 5.0, "再见"), (7.0, 9.0, "走吧"), (9.0, None, "你好")]
    bilingual = imported(tmp_path, project, "song.lrc", "[00:01.00]你好\n[00:01.00]Hello\n[00:03.00]再见\n"
                                                        "[00:03.00]Goodbye\n[00:05.00]\n")
    assert bilingual.languages == ("zh", "en")
    assert timed(bilingual.keeping("en")) == [(1.0, 3.0, "Hello"), (3.0, 5.0, "Goodbye")]


@pytest.mark.parametrize(("text", "line_no"), [
    ("[00:01.00]你好\n再见\n", 2),  # a line with no time
    ("[offset:soon]\n[00:01.00]你好\n", 1),
    ("[ti:只有标题]\n", 1),  # nothing timed
])
def test_an_lrc_that_is_not_lyrics_is_refused_whole(tmp_path: Path, project: Project, text: str, line_no: int) -> None:
    with pytest.raises(ImportFormatError) as caught:
        imported(tmp_path, project, "song.lrc", text)
    assert (caught.value.code, caught.value.line_no) == (ErrorCode.IMPORT_FORMAT, line_no)


def test_markup_is_read_as_what_it_stands_for_and_a_less_than_sign_is_kept(tmp_path: Path, project: Project) -> None:
    srt_text = ("1\n00:00:01,000 --> 00:00:02,000\nTom &amp; Jerry &lt;3\n\n"
                "2\n00:00:03,000 --> 00:00:04,000\n3 < 5 and 6 > 4\n")
    assert [line.text for line in imported(tmp_path, project, "a.srt", srt_text).lines] == \
        ["Tom & Jerry <3", "3 < 5 and 6 > 4"]
    vtt_text = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<c.yellow>Tom &amp; Jerry</c> <00:00:01.500>&lt;3\n"
    assert [line.text for line in imported(tmp_path, project, "a.vtt", vtt_text).lines] == ["Tom & Jerry <3"]


def test_an_ass_drawing_is_no_line_to_speak(tmp_path: Path, project: Project) -> None:
    text = ("[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100 0 100{\\p0}\n"
            "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\fad(200,200)}你好{\\p2}m 0 0 l 5 5\n")
    result = imported(tmp_path, project, "a.ass", text)
    assert timed(result) == [(3.0, 4.0, "你好")] and len(result.warnings) == 1


@pytest.mark.parametrize("time_line", ["00:00:01,000 —> 00:00:02,000", "00:00:01,000 → 00:00:02,000",
                                       "-00:00:01,000 --> 00:00:02,000"])
def test_a_time_line_written_wrong_is_refused_at_that_line(tmp_path: Path, project: Project, time_line: str) -> None:
    with pytest.raises(ImportFormatError) as caught:
        imported(tmp_path, project, "a.srt", f"1\n{time_line}\n你好。\n")
    assert (caught.value.code, caught.value.line_no) == (ErrorCode.IMPORT_FORMAT, 2)
    assert time_line in str(caught.value)


@pytest.mark.parametrize("name", ["ep01.srt", "ep01.vtt", "ep01.ass", "ep01.sbv", "song.lrc", "lines.csv", "lines.tsv",
                                  "script.txt"])
@pytest.mark.parametrize("text", ["", "\n\n", " \r\n\t\r\n", "\ufeff\r\n"], ids=["empty", "blank", "spaces", "bom"])
def test_a_file_with_no_text_is_refused_in_every_format_with_a_sentence(tmp_path: Path, project: Project, name: str,
                                                                      text: str) -> None:
    """An empty or all-blank SRT, ASS or CSV came in as no lines, with no word said."""
    with pytest.raises(ImportFormatError) as caught:
        imported(tmp_path, project, name, text)
    assert caught.value.code is ErrorCode.IMPORT_FORMAT
    assert "the file is empty (it holds no text, or only blank lines): nothing to import" in str(caught.value)


@pytest.mark.parametrize(("name", "text"), [("ep01.vtt", "WEBVTT\nKind: captions\n\n"),
                                            ("lines.csv", "character,text,start,end\r\n"),
                                            ("lines.csv", "角色,台词,开始时间,结束时间\r\n\r\n")])
def test_a_file_with_only_its_header_is_refused(tmp_path: Path, project: Project, name: str, text: str) -> None:
    with pytest.raises(ImportFormatError) as caught:
        imported(tmp_path, project, name, text)
    assert "the file holds no lines, only its header: nothing to import" in str(caught.value)


def test_a_chinese_teams_sheet_names_its_columns_in_chinese(tmp_path: Path, project: Project) -> None:
    """Excel saves a Chinese sheet as GBK CSV, its header in Chinese: the header row came in as a line
    (角色 saying 台词) and the columns in the default order."""
    sheet = ("序号,开始时间,结束时间,角色,原文,台词\r\n"
             "1,\"00:00:01,000\",\"00:00:02,000\",小明,Hello.,你好。\r\n2,3,4,小红,Bye.,再见。\r\n")
    result = imported(tmp_path, project, "第一集.csv", sheet, encoding="gbk")
    assert timed(result) == TWO_CUES and [line.source_text for line in result.lines] == ["Hello.", "Bye."]
    assert [c.name for c in result.characters] == ["小明", "小红"]
    taiwanese = imported(tmp_path, project, "第一集.csv", "角色\t臺詞\t開始時間\n小明\t你好。\t1\n", encoding="big5")
    assert [(line.text, line.start) for line in taiwanese.lines] == [("你好。", 1.0)]


def test_an_imports_warnings_name_the_file_not_its_folders(tmp_path: Path, project: Project) -> None:
    srt_text = "1\n00:00:01,000 --> 00:00:02,000\n\n\n2\n00:00:03,000 --> 00:00:03,000\n再见。\n"
    result = imported(tmp_path, project, "ep01.srt", srt_text)
    assert result.warnings == ["ep01.srt, line 2: subtitle 1 has no text; skipped",
                               "ep01.srt: the cues at 00:00:03,000 last no time; each was kept with its end left "
                               "open (its line may run until the next one)"]
    assert all(str(tmp_path) not in warning for warning in result.warnings)


def test_a_chinese_screenplay_comes_in_as_its_lines_and_its_speakers(tmp_path: Path, project: Project) -> None:
    """A script as a Chinese team writes it in Word or WPS: scene headings and △ action lines, names
    in corner brackets or spaced out to line up, a direction after the name (（OS）, (V.O.)), numbered
    lines. Each of these refused the whole file, or made 张 伟 a character apart from 张伟."""
    script = ("第一场 日 内 医院走廊\n△林晓雨推门进来，四处张望。\n「林晓雨」你怎么来了？\n1. 张　伟：我……我担心你。\n"
              "2、林晓雨（OS）：我不能哭。\n1-2 夜 外 街道\n张 伟(V.O.)：别走。\n场景：医院门口\n")
    result = imported(tmp_path, project, "第一集.txt", script, encoding="gbk")
    names = {character.id: character.name for character in result.characters}
    assert [(names[line.character_id or ""], line.text) for line in result.lines] == [
        ("林晓雨", "你怎么来了？"), ("张伟", "我……我担心你。"), ("林晓雨", "（OS）我不能哭。"), ("张伟", "(V.O.) 别走。")]
    assert result.warnings == ["第一集.txt, lines 1, 2, 6, 8: scene headings and action lines (△), which no one "
                               "says; skipped"]


def test_corner_brackets_in_a_subtitle_stay_a_quotation(tmp_path: Path, project: Project) -> None:
    result = imported(tmp_path, project, "ep01.srt", "1\n00:00:01,000 --> 00:00:02,000\n「快走」他喊道。\n\n"
                                                     "2\n00:00:03,000 --> 00:00:04,000\n林晓雨（小声）：别出声。\n")
    assert [line.text for line in result.lines] == ["「快走」他喊道。", "（小声）别出声。"]
    assert [character.name for character in result.characters] == ["林晓雨"]


def test_a_name_before_words_that_open_with_a_number_names_the_speaker(tmp_path: Path, project: Project) -> None:
    """张伟：12306的票… came in with no character, the name inside its text: a digit after the colon
    was taken for a clock time. After an ASCII colon it still is one (at 10:30, Score 3:2)."""
    srt_text = ("1\n00:00:01,000 --> 00:00:02,000\n{\\an8}张伟：12306的票都抢光了……\n\n"
                "2\n00:00:03,000 --> 00:00:04,000\n王总：3点开会。\n\n3\n00:00:05,000 --> 00:00:06,000\nMeet at 10:30.\n\n"
                "4\n00:00:07,000 --> 00:00:08,000\nMeet at 10：30.\n")
    result = imported(tmp_path, project, "ep01.srt", srt_text)
    names = {character.id: character.name for character in result.characters}
    assert [(names.get(line.character_id or ""), line.text) for line in result.lines] == [
        ("张伟", "12306的票都抢光了……"), ("王总", "3点开会。"), (None, "Meet at 10:30."), (None, "Meet at 10：30.")]


def test_a_word_table_saved_as_text_names_each_lines_speaker_by_its_first_cell(tmp_path: Path,
                                                                              project: Project) -> None:
    """Word and WPS save a two-column table (name, words) as text with a tab between the cells: the
    file was refused at its first line ('expected Name: line')."""
    result = imported(tmp_path, project, "台本.txt", "林晓雨\t你好，12306的票买到了吗？\r\n张 伟\t\t买到了。\r\n", encoding="gbk")
    names = {character.id: character.name for character in result.characters}
    assert [(names[line.character_id or ""], line.text) for line in result.lines] == [
        ("林晓雨", "你好，12306的票买到了吗？"), ("张伟", "买到了。")]


def test_what_word_and_wps_leave_in_text_is_read_as_the_break_or_nothing_it_is(tmp_path: Path,
                                                                             project: Project) -> None:
    """A manual line break (Shift+Enter) copied from Word is a vertical tab, a page break a form feed:
    the file was refused as holding a control character. Zero-width spaces and soft hyphens stayed
    inside the lines, invisible."""
    script = "林晓雨：你\u200b好\x0b张伟：嗯\u00ad，好。\x0c\r\n林晓雨：走吧。\r\n"
    result = imported(tmp_path, project, "台本.txt", script)
    assert [line.text for line in result.lines] == ["你好", "嗯，好。", "走吧。"]
    with pytest.raises(ImportFormatError) as caught:  # another control character is still refused
        imported(tmp_path, project, "台本.txt", "林晓雨：你好\x01\n")
    assert caught.value.code is ErrorCode.IMPORT_ENCODING


def test_a_sheets_times_typed_with_a_full_width_ime_are_read(tmp_path: Path, project: Project) -> None:
    """A time typed in a Chinese input method's full-width mode (００：００：０１，５００) was refused as
    a time it cannot read."""
    sheet = "角色\t台词\t开始时间\t结束时间\n林晓雨\t你好。\t００：００：０１，０００\t００：００：０２，０００\n张伟\t再见。\t３\t４．０\n"
    assert timed(imported(tmp_path, project, "第一集.tsv", sheet)) == TWO_CUES


def test_a_dubbing_sheet_timed_in_frames_is_read_by_the_videos_frame_rate(tmp_path: Path, project: Project) -> None:
    """A dubbing studio's sheet writes 00:00:01:12 (frames, as its timecode window shows them): it
    was refused as a time it cannot read. Without a video there is no rate to read frames by."""
    from app.project.model import VideoInfo

    sheet = "角色,台词,入点,出点\n林晓雨,你好。,00:00:01:00,00:00:02:00\n张伟,再见。,00:00:03:00,00:00:03:12\n"
    with pytest.raises(ImportFormatError) as caught:
        imported(tmp_path, project, "台本.csv", sheet)
    assert "counts frames (HH:MM:SS:FF), and the project has no video" in str(caught.value)
    assert caught.value.line_no == 2
    project.video = VideoInfo(path="media/ep01.mp4", duration_s=10.0, fps=25.0, width=160, height=96, codec="h264")
    assert timed(imported(tmp_path, project, "台本.csv", sheet)) == [(1.0, 2.0, "你好。"), (3.0, 3.48, "再见。")]
    with pytest.raises(ImportFormatError) as past:
        imported(tmp_path, project, "台本.csv", sheet.replace("00:00:03:12", "00:00:03:25"))
    assert "counts more frames than a second of the video holds (25 a second)" in str(past.value)


def test_frame_timecodes_are_the_frames_time_and_drop_frame_skips_its_numbers() -> None:
    """A timecode counts frames: at 29.97 non-drop 00:10:00:00 is frame 18000, 600.6 s in (it was
    read as 600 s); drop-frame (;) skips two frame numbers a minute, but each tenth, to keep up
    with the clock, so 00:10:00;00 is 600.0 s and 00:01:00;00 does not exist (it was read as plain
    frames)."""
    from app.project.timecode import parse_frame_timecode

    ntsc = 30000 / 1001
    assert parse_frame_timecode("00:00:03:12", 25.0) == pytest.approx(3.48)
    assert parse_frame_timecode("00:10:00:00", ntsc) == pytest.approx(600.6)
    assert parse_frame_timecode("00:10:00;00", ntsc) == pytest.approx(600.0, abs=0.001)
    assert parse_frame_timecode("01:00:00;00", ntsc) == pytest.approx(3600.0, abs=0.005)  # 3.6 ms an hour behind
    assert parse_frame_timecode("00:01:00;02", ntsc) == pytest.approx(1800 / ntsc)  # the minute's first frame
    assert parse_frame_timecode("00:01:00;00", 25.0) == pytest.approx(60.0)  # ';' at a PAL rate: plain frames
    with pytest.raises(ValueError, match="more frames than a second"):
        parse_frame_timecode("00:01:00;01", ntsc)
    with pytest.raises(ValueError, match="more frames than a second"):
        parse_frame_timecode("00:00:01:25", 25.0)
