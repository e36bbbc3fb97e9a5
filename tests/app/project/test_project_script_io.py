"""Script import and export: SRT, CSV/TSV and plain scripts, with their round trips."""

from __future__ import annotations

import codecs
import csv
import sys
from pathlib import Path

import pytest
import srt

from app.cli import main as cli_main
from app.project import CommandStack, ImportFormatError, InvalidValueError, Project
from app.project.script_io import (
    MAX_LINE_CHARS,
    SCRIPT_FORMATS,
    SNIFF_CHARS,
    ScriptFormat,
    _line_numbers,
    decode_text,
    export_script,
    import_csv,
    import_plain,
    import_script,
    import_srt,
    script_format,
    script_format_for,
    script_to_csv,
    script_to_srt,
    split_speaker,
)
from app.project.timeline import build_timeline
from engine.core.codes import ErrorCode

from .conftest import add_fake_take, tone

SRT = """1
00:00:01,000 --> 00:00:02,500
Maya: Café au lait — déjà vu, naïve façade.

2
00:00:02,000 --> 00:00:04,000
[Rex] I heard you
the first time.

3
00:00:05,000 --> 00:00:06,000
<i>Zoë:</i> Où est le théâtre? «Très» bien!

4
00:00:06,500 --> 00:00:07,250
{\\an8}No speaker here.
"""


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def texts(result) -> list[str]:
    return [line.text for line in result.lines]


@pytest.mark.parametrize(
    "encode",
    [
        pytest.param(lambda s: s.encode("utf-8"), id="utf8"),
        pytest.param(lambda s: codecs.BOM_UTF8 + s.encode("utf-8"), id="utf8-bom"),
        pytest.param(lambda s: codecs.BOM_UTF8 + s.replace("\n", "\r\n").encode("utf-8"), id="bom-crlf"),
        pytest.param(lambda s: s.replace("\n", "\r\n").encode("cp1252"), id="cp1252-crlf"),
        pytest.param(lambda s: s.encode("utf-16"), id="utf16-bom"),
        pytest.param(lambda s: s.encode("utf-16-be").join([codecs.BOM_UTF16_BE, b""]), id="utf16be-bom"),
        pytest.param(lambda s: s.replace("\n", "\r").encode("utf-8"), id="cr-only"),
    ],
)
def test_srt_import_handles_encodings_and_line_ends(project: Project, tmp_path: Path, encode) -> None:
    result = import_srt(write(tmp_path, "scene.srt", encode(SRT)), project)
    assert texts(result) == [
        "Café au lait — déjà vu, naïve façade.",
        "I heard you the first time.",
        "Où est le théâtre? «Très» bien!",
        "No speaker here.",
    ]
    speakers = [line.character_id for line in result.lines]
    assert speakers[:2] == ["maya", "rex"]  # existing characters, matched by name
    assert [c.name for c in result.characters] == ["Zoë"]  # a new one for the unknown speaker
    assert speakers[2] == result.characters[0].id and speakers[3] is None
    # Overlapping times are kept exactly as given.
    assert [(line.start, line.end) for line in result.lines] == [(1.0, 2.5), (2.0, 4.0), (5.0, 6.0), (6.5, 7.25)]


def test_srt_import_is_one_undoable_edit(project: Project, tmp_path: Path) -> None:
    stack = CommandStack(project)
    result = import_srt(write(tmp_path, "scene.srt", SRT.encode()), project)
    stack.push(result.command(index=0))
    # Timed cues land by time (1 s and 2 s after the line at 0.5 s), not at the index.
    assert [line.text for line in project.lines[1:3]] == texts(result)[:2]
    assert project.character_by_name("zoë") is not None
    assert stack.undo_text == "Import scene.srt"
    stack.undo()
    assert len(project.lines) == 6 and project.character_by_name("Zoë") is None


@pytest.mark.parametrize(
    "content, line_no, message",
    [
        ("1\n00:00:01,000 --> 00:00:02,000\nHi.\n\n2\n00:00:0x,000 --> 00:00:04,000\nYo.\n", 6, "malformed timecode"),
        ("1\n00:00:01,000 --> 00:00:02,000\nHi.\n\ngarbage\n00:00:0x,000 --> 00:00:04,000\nYo.\n", 6, "malformed timecode"),
        ("hello there\n\n1\n00:00:01,000 --> 00:00:02,000\nHi.\n", 1, "not a valid subtitle"),
        # a time line without digits was swallowed into cue 1 as dialogue ("Hi. 2 banana --> apple Yo.")
        ("1\n00:00:01,000 --> 00:00:02,000\nHi.\n\n2\nbanana --> apple\nYo.\n", 6, "malformed timecode"),
        ("1\n00:00:01,000 --> 00:00:02,000\nHi.\n\n2\n00:00:05,000 --> 00:00:04,000\nBack.\n", 6, "ends .* before it starts"),
        ("just some words\nand more\n", 1, None),
    ],
)
def test_malformed_srt_names_the_line(project: Project, tmp_path: Path, content: str, line_no: int, message: str | None) -> None:
    path = write(tmp_path, "bad.srt", content.replace("\n", "\r\n").encode())
    with pytest.raises(ImportFormatError, match=message) as caught:
        import_srt(path, project)
    assert caught.value.line_no == line_no
    assert f"bad.srt, line {line_no}:" in str(caught.value)
    # times out of order break the rule of every line (validate_line), whatever the format
    times = message == "ends .* before it starts"
    assert caught.value.code is (ErrorCode.TIME_RANGE if times else ErrorCode.IMPORT_FORMAT)


def test_binary_files_and_bad_encodings_are_refused(project: Project, tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError) as caught:
        import_srt(write(tmp_path, "x.srt", bytes(range(256)) * 4), project)
    assert caught.value.code in (ErrorCode.IMPORT_ENCODING, ErrorCode.IMPORT_FORMAT)
    with pytest.raises(ImportFormatError) as caught:
        decode_text(b"\xff\xfe\xfd", encoding="utf-8")
    assert caught.value.code is ErrorCode.IMPORT_ENCODING
    with pytest.raises(ImportFormatError, match="cannot read"):
        import_srt(tmp_path / "missing.srt", project)


def test_speaker_prefixes() -> None:
    assert split_speaker("Maya: Hello") == ("Maya", "Hello")
    assert split_speaker("[Old Tom] Ahoy") == ("Old Tom", "Ahoy")
    assert split_speaker("[Rex]: Ahoy") == ("Rex", "Ahoy")
    assert split_speaker("Dr. No-Name: Hi") == ("Dr. No-Name", "Hi")
    assert split_speaker("李雷：你好") == ("李雷", "你好")
    assert split_speaker("See https://example.com now") == (None, "See https://example.com now")
    assert split_speaker("At 10:30 we leave") == (None, "At 10:30 we leave")
    assert split_speaker("He said this to me: go") == (None, "He said this to me: go")
    assert split_speaker("[Music]") == (None, "[Music]")
    # Chinese scripts: a transliterated name's middle dot, and 【】 brackets (both were spoken as text).
    assert split_speaker("哈利·波特：你好。") == ("哈利·波特", "你好。")
    assert split_speaker("【林晓雨】我不会放弃的。") == ("林晓雨", "我不会放弃的。")
    assert split_speaker("【字幕组】") == (None, "【字幕组】")


# --- CSV / TSV -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, name",
    [
        ("character,text,start,end\nMaya,\"Hi, you.\",1.5,3\nRex,Yo,00:00:04.000,\n", "a.csv"),
        ("Maya,\"Hi, you.\",1.5,3\nRex,Yo,\"00:00:04,000\"\n", "a.csv"),  # no header; SRT-style time
        ("speaker\ttext\tin\tout\nMaya\tHi, you.\t1.5\t3\nRex\tYo\t4\t\n", "a.tsv"),
        ("Text;Character;Start\nHi, you.;Maya;1.5\nYo;Rex;4\n", "a.csv"),
        ("\ufeffcharacter|text|start|end\r\nMaya|Hi, you.|1.5|3\r\n\r\nRex|Yo|4|\r\n", "a.txt"),
    ],
)
def test_csv_variants(project: Project, tmp_path: Path, content: str, name: str) -> None:
    result = import_csv(write(tmp_path, name, content.encode()), project)
    assert texts(result) == ["Hi, you.", "Yo"]
    assert [line.character_id for line in result.lines] == ["maya", "rex"]
    assert result.lines[0].start == 1.5 and result.lines[1].start == 4.0
    assert result.lines[1].end is None


def test_csv_quoted_multiline_and_speaker_in_text(project: Project, tmp_path: Path) -> None:
    content = 'character,text\n,"Maya: Two\nlines"\nNew Guy,Hello\n'
    result = import_csv(write(tmp_path, "m.csv", content.encode()), project)
    assert texts(result) == ["Two\nlines", "Hello"]
    assert result.lines[0].character_id == "maya"
    assert [c.name for c in result.characters] == ["New Guy"]


@pytest.mark.parametrize(
    "content, line_no, message",
    [
        ("character,text,start\nMaya,Hi,1\nRex,Yo,soon\n", 3, "bad start time"),
        ("Maya,Hi\nRex\n", 2, "expected at least 2 columns"),
        ("character,text,start,end\nMaya,Hi,5,4\n", 2, "the row ends .* before it starts"),
        ("character,text\nMaya,\"unterminated\nRex,Yo\n", 2, "malformed CSV row"),
        ('character,text,start\n\n\nMaya,"Hi",1:99\n', 4, "bad start time"),
    ],
)
def test_malformed_csv_names_the_line(project: Project, tmp_path: Path, content: str, line_no: int, message: str) -> None:
    with pytest.raises(ImportFormatError, match=message) as caught:
        import_csv(write(tmp_path, "bad.csv", content.encode()), project)
    assert caught.value.line_no == line_no
    assert f"bad.csv, line {line_no}:" in str(caught.value)


# --- plain scripts ---------------------------------------------------------------------------


def test_plain_script(project: Project, tmp_path: Path) -> None:
    content = "# Scene 1\nMaya: We leave at dawn.\n\n[Rex] Whatever happens.\n   And nobody looks back.\nMAYA: Agreed.\n"
    result = import_plain(write(tmp_path, "scene.txt", content.encode("utf-16")), project)
    assert texts(result) == ["We leave at dawn.", "Whatever happens. And nobody looks back.", "Agreed."]
    assert [line.character_id for line in result.lines] == ["maya", "rex", "maya"]
    assert result.characters == []


def test_malformed_plain_script_names_the_line(project: Project, tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"line 3: expected 'Name: line'") as caught:
        import_plain(write(tmp_path, "s.txt", b"Maya: Hi.\n\nno speaker here\n"), project)
    assert caught.value.line_no == 3
    with pytest.raises(ImportFormatError, match="no script lines"):
        import_plain(write(tmp_path, "e.txt", b"# only a comment\n"), project)


# --- one limit on a line's size, in every format (issue 34) ------------------------------------

LONG = MAX_LINE_CHARS + 1


@pytest.mark.parametrize(
    "name, content, line_no, what",
    [
        ("one.srt", f"1\n00:00:01,000 --> 00:00:02,000\nMaya: {'a' * LONG}\n\n", 3, "the subtitle's text"),
        ("lines.srt", "1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:03,000 --> 00:00:04,000\n"
                      + "word word word\n" * (LONG // 15 + 1), 7, "the subtitle's text"),
        ("one.csv", f"character,text\nMaya,Hi\nRex,{'a' * LONG}\n", 3, "a field"),
        ("quoted.csv", 'character,text\nMaya,"' + "word word\n" * (LONG // 10 + 1) + '"\n', 2, "a field"),
        ("one.txt", f"Maya: Hi.\nRex: {'a' * LONG}\n", 2, "the line"),
        ("wrapped.txt", "Maya: Hi.\n" + "   and on and on\n" * (LONG // 13 + 1),  # each adds " and on and on"
         2 + (MAX_LINE_CHARS - len("Hi.")) // 14, "the line with its continuations"),
    ],
)
def test_a_line_over_the_one_limit_is_refused_in_every_format(project: Project, tmp_path: Path, name: str,
                                                               content: str, line_no: int, what: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An SRT cue had no cap (a 100 MB one took 35 s to become a 104 MB project.json), a CSV field
    was refused by the csv module's own limit (in 13-17 s: the delimiter was sniffed from the whole
    first line), a plain line had none. The SRT is refused before srt parses it."""
    monkeypatch.setattr(srt, "parse", lambda *args, **kwargs: pytest.fail("an oversized file was parsed"))
    with pytest.raises(ImportFormatError) as caught:
        import_script(write(tmp_path, name, content.encode()), project)
    assert caught.value.code is ErrorCode.IMPORT_FORMAT and caught.value.line_no == line_no
    assert f"{name}, line {line_no}: {what}" in str(caught.value)
    assert f"is longer than the {MAX_LINE_CHARS:,} characters one line may hold" in str(caught.value)


def test_a_line_at_the_limit_imports_in_every_format(project: Project, tmp_path: Path) -> None:
    text = "a" * MAX_LINE_CHARS
    for name, content in (("cue.srt", f"1\n00:00:01,000 --> 00:00:02,000\n{text}\n\n"),
                          ("row.csv", f"character,text\nMaya,{text}\n"), ("script.txt", f"Maya:{text}\n")):
        assert texts(import_script(write(tmp_path, name, content.encode()), project)) == [text], name


def test_the_delimiter_is_sniffed_from_the_start_of_the_file_only(project: Project, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    sniffed: list[int] = []
    sniff = csv.Sniffer.sniff
    monkeypatch.setattr(csv.Sniffer, "sniff", lambda self, sample, delimiters=None: (
        sniffed.append(len(sample)), sniff(self, sample, delimiters))[1])
    with pytest.raises(ImportFormatError):
        import_csv(write(tmp_path, "big.csv", f"Maya;{'a' * 4 * MAX_LINE_CHARS}\n".encode()), project)
    assert sniffed and max(sniffed) <= SNIFF_CHARS


def test_import_script_picks_by_extension(project: Project, tmp_path: Path) -> None:
    assert texts(import_script(write(tmp_path, "a.srt", SRT.encode()), project))[0].startswith("Café")
    assert texts(import_script(write(tmp_path, "a.tsv", b"Maya\tHi\n"), project)) == ["Hi"]
    assert texts(import_script(write(tmp_path, "a.script", b"Maya: Hi\n"), project)) == ["Hi"]


# --- export and round trips -------------------------------------------------------------------


def test_srt_export_uses_final_durations_and_round_trips(project: Project, tmp_path: Path) -> None:
    add_fake_take(project, project.line("l1"), tone(2.0))  # timed 0.5-3.5; take is 2 s
    add_fake_take(project, project.line("l3"), tone(1.5))  # untimed: follows l2's end + gap
    text = script_to_srt(project)
    assert text.startswith("1\n00:00:00,500 --> 00:00:02,500\nMaya: Did you see")
    assert "3\n00:00:06,800 --> 00:00:08,300\nMaya: We should tell" in text  # 6.5 + 0.3 gap
    path = export_script(project, tmp_path / "out.srt")
    back = import_srt(path, project)
    assert texts(back) == [line.text for line in project.lines]
    assert [line.character_id for line in back.lines] == [line.character_id for line in project.lines]
    assert back.characters == []
    assert back.lines[0].end == 2.5  # the take's length, not the original slot


def test_csv_export_round_trips_what_the_user_entered(project: Project, tmp_path: Path) -> None:
    project.line("l2").text = 'He said "no", then left.\nTwice.'
    add_fake_take(project, project.line("l1"), tone(1.25))
    csv_text = script_to_csv(project)
    assert csv_text.splitlines()[0] == "character,text,start,end,duration"
    assert csv_text.splitlines()[1].endswith(",00:00:00.500,00:00:03.500,1.250")
    for name in ("out.csv", "out.tsv"):
        back = import_csv(export_script(project, tmp_path / name), project)
        assert texts(back) == [line.text for line in project.lines]
        assert [(line.start, line.end) for line in back.lines] == [(line.start, line.end) for line in project.lines]
        assert [line.character_id for line in back.lines] == [line.character_id for line in project.lines]


def test_a_csv_export_starts_with_a_byte_order_mark_so_excel_reads_chinese(project: Project, tmp_path: Path) -> None:
    # Without the mark, Excel on a Chinese Windows opens UTF-8 as GBK: 林晓雨 comes out as 鏋楁檽闆.
    project.line("l1").text = "第3集，我们终于见面了……"
    for name in ("out.csv", "out.tsv"):
        path = export_script(project, tmp_path / name)
        assert path.read_bytes().startswith("\ufeffcharacter".encode())
        assert texts(import_csv(path, project))[0] == "第3集，我们终于见面了……"


def test_export_refuses_unknown_formats(project: Project, tmp_path: Path) -> None:
    with pytest.raises(Exception, match="use .srt, .vtt, .ass or .csv"):
        export_script(project, tmp_path / "out.docx")


# --- the formats: one declaration read by detection, dialogs and export -------------------------


def _written(project: Project) -> list[tuple[str | None, str]]:
    return [(line.character_id, line.text) for line in project.lines]


@pytest.mark.parametrize("fmt", [f for f in SCRIPT_FORMATS if f.writer is not None], ids=lambda f: f.name)
def test_every_writable_script_format_round_trips(project: Project, tmp_path: Path, fmt: ScriptFormat) -> None:
    for extension in fmt.extensions:
        path = export_script(project, tmp_path / f"out{extension}")
        assert script_format_for(path) is fmt
        back = import_script(path, project)
        assert [(line.character_id, line.text) for line in back.lines] == _written(project)
        assert back.characters == []


def test_a_translated_csv_reimports_with_its_source_text_and_draft_marks(project: Project, tmp_path: Path) -> None:
    project.line("l1").source_text, project.line("l1").draft = "As-tu vu les lumières, hier soir ?", True
    project.line("l2").source_text = "Je les ai vues. Un navire, sans équipage."  # checked: no longer a draft
    for name in ("out.csv", "out.tsv"):
        back = import_script(export_script(project, tmp_path / name), project)
        assert [(line.text, line.source_text, line.draft) for line in back.lines] == [
            (line.text, line.source_text, line.draft) for line in project.lines]
        assert back.lines[0].draft and not back.lines[1].draft and back.lines[2].source_text == ""


def test_a_csv_without_source_or_draft_columns_imports_as_before(project: Project, tmp_path: Path) -> None:
    result = import_csv(write(tmp_path, "a.csv", b"character,text,start\nMaya,Hi,1\n"), project)
    assert [(line.text, line.source_text, line.draft) for line in result.lines] == [("Hi", "", False)]
    headerless = import_csv(write(tmp_path, "b.csv", b"Maya,Hi,1,2,extra,yes\n"), project)
    assert not headerless.lines[0].draft and headerless.lines[0].source_text == ""  # only a header names them


def test_a_bad_draft_mark_is_refused_at_its_row(project: Project, tmp_path: Path) -> None:
    content = "character,text,source,draft\nMaya,Hi,Salut,yes\nRex,Yo,Ouais,perhaps\n"
    with pytest.raises(ImportFormatError, match="bad draft mark 'perhaps'") as caught:
        import_csv(write(tmp_path, "d.csv", content.encode()), project)
    assert caught.value.line_no == 3 and caught.value.code.value == "E_IMPORT_FORMAT"


def test_each_file_dialog_filter_lists_its_format_and_every_extension_is_detected() -> None:
    for fmt in SCRIPT_FORMATS:
        assert fmt.file_filter.startswith(f"{fmt.filter_name} (") and fmt.file_filter.endswith(";;All files (*)")
        offered = fmt.file_filter.split(";;")[0]
        assert all(f"*{extension}" in offered for extension in (*fmt.extensions, *fmt.also_opens))
        assert all(script_format_for(f"scene{extension.upper()}") is fmt for extension in fmt.extensions)
        assert script_format(fmt.name) is fmt
    claimed = [extension for fmt in SCRIPT_FORMATS for extension in fmt.extensions]
    assert len(claimed) == len(set(claimed))  # one format per extension
    assert script_format_for("notes.docx").fallback and [f.fallback for f in SCRIPT_FORMATS].count(True) == 1
    with pytest.raises(InvalidValueError, match="^E_INVALID_VALUE: unknown script format 'docx'; choose from srt, vtt, ass, sbv, lrc, csv, script$"):
        script_format("docx")


def test_srt_line_numbers_are_counted_in_one_pass() -> None:
    """The report: 100k cues took 93 s because each cue counted newlines from the top.

    Counted by characters scanned (never by time): one pass scans the text once.
    """
    scanned: list[int] = []

    class CountingText(str):
        def count(self, sub: str, start: int = 0, end: int | None = None) -> int:  # type: ignore[override]
            scanned.append((len(self) if end is None else end) - start)
            return str.count(self, sub, start, end)

    text = CountingText("block\n" * 100_000)
    offsets = range(0, len(text), 60)
    assert _line_numbers(text, offsets)[-1] == 1 + (len(text) - 60) // 6
    assert sum(scanned) <= len(text)


def test_a_big_srt_imports_every_cue_in_order(project: Project, tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from srt_import import make_srt

    source = tmp_path / "big.srt"
    source.write_bytes(make_srt(20_000) + b"\n20001\n00:00:01,000 --> 00:00:00,500\nbackwards\n")
    with pytest.raises(ImportFormatError, match="line 80002: subtitle 20001 ends"):
        import_srt(source, project)  # the error names the right line at the end of a big file
    source.write_bytes(make_srt(20_000))
    result = import_srt(source, project)
    assert len(result.lines) == 20_000 and result.lines[-1].text == "line number 20000 of the script."


def test_an_srt_with_nul_bytes_is_refused_with_its_line(project: Project, tmp_path: Path, video: Path) -> None:
    srt = tmp_path / "nul.srt"
    srt.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nMaya: Hel\x00lo\n\n")
    with pytest.raises(ImportFormatError) as raised:
        import_srt(srt, project)
    assert raised.value.code is ErrorCode.IMPORT_ENCODING and raised.value.line_no == 3
    assert cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--subtitles", str(srt)]) == 2
    assert not (tmp_path / "dub").exists()


def test_a_csv_with_a_control_character_is_refused(project: Project) -> None:
    with pytest.raises(ImportFormatError, match="U\\+0001"):
        import_csv(b"character,text\nMaya,Hi\x01 there\n", project)


# Chinese subtitle files as they are still often saved: GB18030/GBK on the mainland, Big5 in
# Taiwan and Hong Kong (issue 30). Short ones gave the detector too little to go on.
ZH_SRT = ("1\n00:00:01,000 --> 00:00:03,000\n王经理：这份合同需要您签字。\n\n"
          "2\n00:00:03,500 --> 00:00:05,000\n李秘书：好的，我马上送过去。\n\n"
          "3\n00:00:05,500 --> 00:00:07,000\n你好。\n")
TW_SRT = ("1\n00:00:01,000 --> 00:00:03,000\n王經理：這份合約需要您簽字。\n\n"
          "2\n00:00:03,500 --> 00:00:05,000\n你好嗎？\n")


@pytest.mark.parametrize(("text", "codec", "expected"), [
    pytest.param(ZH_SRT, "gb18030", ["这份合同需要您签字。", "好的，我马上送过去。", "你好。"], id="gb18030"),
    pytest.param(ZH_SRT.replace("\n", "\r\n"), "gbk", ["这份合同需要您签字。", "好的，我马上送过去。", "你好。"], id="gbk-crlf"),
    pytest.param(TW_SRT, "big5", ["這份合約需要您簽字。", "你好嗎？"], id="big5"),
    pytest.param("1\n00:00:01,000 --> 00:00:02,000\n你好。\n", "gb18030", ["你好。"], id="gb18030-one-cue"),
])
def test_chinese_srt_in_legacy_encodings_comes_in_with_the_right_characters(
        project: Project, tmp_path: Path, text: str, codec: str, expected: list[str]) -> None:
    result = import_srt(write(tmp_path, "zh.srt", text.encode(codec)), project)
    assert texts(result) == expected
    names = [c.name for c in result.characters]
    assert names == (["王经理", "李秘书"] if codec != "big5" else ["王經理"]) or len(expected) == 1


# Real short lines with no marks, as a drama's subtitles often are: read as Big5, a GBK file's
# 你好 came out 斕疑, 谢谢你 郅郅斕; UTF-16 without its mark came in as UTF-8 with NULs; 45° in
# GBK was read as EUC-JP (45＜), 38.2℃ as Thai, a Big5 line as cp1252 (§Ú·Q°h).
SHORT_SIMPLIFIED = ["你好 Hello", "我们走吧", "他来了", "谢谢你", "快跑", "对不起", "没关系", "我爱你", "老师早",
                    "出发", "好的", "不要走", "妈妈", "再见", "这道题的角度是45°", "他的体温一直在38.2℃左右。"]
SHORT_TRADITIONAL = ["你好 Hello", "我們走吧", "他來了", "謝謝你", "快跑", "對不起", "沒關係", "我愛你", "這是什麼",
                     "出發", "好的", "不要走", "快點兒", "再見", "我想退貨這雙鞋的尺碼太小了", "現在的AI真厲害連圖都會畫"]


@pytest.mark.parametrize(("codec", "lines"), [
    ("gbk", SHORT_SIMPLIFIED), ("gb18030", SHORT_SIMPLIFIED), ("big5", SHORT_TRADITIONAL),
    ("utf-16-le", SHORT_SIMPLIFIED), ("utf-16-be", SHORT_TRADITIONAL),
    # Korean and Japanese stay theirs: judged by how common their letters are in their language,
    # 안녕하세요 is commoner Korean than its GB18030 reading 救崇窍技夸 is Chinese.
    ("euc_kr", ["안녕하세요", "감사합니다.", "사랑해요", "어디 가요?"]),
    ("euc_jp", ["こんにちは", "ありがとう。", "日本語です"]), ("shift_jis", ["東京へ行きます", "すみません"]),
])
def test_a_short_chinese_file_without_marks_is_read_in_its_own_encoding(codec: str, lines: list[str]) -> None:
    for line in lines:
        cue = f"1\n00:00:01,000 --> 00:00:02,000\n{line}\n"
        assert decode_text(cue.encode(codec)) == cue
        if not codec.startswith("utf-16"):  # 妈妈 alone in UTF-16 is 88 5A 88 5A, GB18030's 衙衙 too
            assert decode_text(line.encode(codec)) == line


# A short Western file read two bytes at a time as Chinese, Japanese or Cyrillic: "Père Noël" came in
# as P半e No泄, "Ça va." as ぺ va., "Cześć." as Cze滄., "Tschüß!" as TschьЯ! (issue 30).
SHORT_WESTERN = {"cp1252": ["Ça va.", "Père Noël", "Tschüß!", "Café!", "¿Qué pasó?", "Olá, João!", "naïve résumé"],
                 "cp1250": ["Cześć.", "Ahoj, jak se máš?", "Szépség", "Może jutro.", "Kraków", "Šťastný"]}


@pytest.mark.parametrize("codec", list(SHORT_WESTERN))
def test_a_short_western_file_is_not_read_as_chinese(codec: str) -> None:
    for line in SHORT_WESTERN[codec]:
        cue = f"1\n00:00:01,000 --> 00:00:02,000\n{line}\n"
        for text in (cue, line):
            read = decode_text(text.encode(codec))
            assert not any(ord(char) >= 0x0400 for char in read), (line, read)  # no Cyrillic, kana or Han
    assert decode_text("Ça va.".encode("cp1252")) == "Ça va." and decode_text("Może jutro.".encode("cp1250")) == "Może jutro."


@pytest.mark.parametrize("codec", ["gb18030", "big5"])
def test_chinese_csv_and_plain_scripts_in_legacy_encodings(project: Project, tmp_path: Path, codec: str) -> None:
    csv_text = "character,text\n王经理,请坐。\n李秘书,好的\n" if codec == "gb18030" else "character,text\n王經理,請坐。\n李秘書,好的\n"
    result = import_csv(write(tmp_path, "zh.csv", csv_text.encode(codec)), project)
    assert texts(result) == [csv_text.split("\n")[1].split(",")[1], "好的"]
    plain = "王经理：明天见。\n" if codec == "gb18030" else "王經理：明天見。\n"
    assert texts(import_plain(write(tmp_path, "zh.txt", plain.encode(codec)), project)) == [plain.split("：")[1].strip()]


def test_undecodable_bytes_are_a_coded_error_never_mojibake(project: Project, tmp_path: Path) -> None:
    # GB18030 text cut by a NUL and stray control bytes: not text in any encoding.
    data = "1\n00:00:01,000 --> 00:00:02,000\n你好。\n".encode("gb18030") + b"\x00\x01\x02\xff\xfe\x03"
    with pytest.raises(ImportFormatError) as caught:
        import_srt(write(tmp_path, "broken.srt", data), project)
    assert caught.value.code is ErrorCode.IMPORT_ENCODING


def test_srt_export_wraps_each_line_at_its_languages_length_and_round_trips(project: Project, tmp_path: Path) -> None:
    from dataclasses import replace

    maya = project.character("maya")
    maya.settings = replace(maya.settings, language="")  # her lines' language from their script
    project.line("l3").text = "这份合同需要您签字，明天之前一定要给我。"
    text = script_to_srt(project)
    cues = {cue.index: cue.content for cue in srt.parse(text)}
    assert cues[1] == "Maya: Did you see the lights\npast the rocks last night?"  # 55 characters over 42
    assert cues[2] == "Rex: I saw them. A ship with no crew."  # fits one line
    assert cues[3] == "Maya：这份合同需要您签字，\n明天之前一定要给我。"  # Chinese: 16 a line, its own colon
    back = import_srt(export_script(project, tmp_path / "out.srt"), project)
    assert texts(back) == [line.text for line in project.lines]  # no space crept into the Chinese


VTT = """WEBVTT
Kind: captions

NOTE a comment block, not dialogue

1
00:00:01.000 --> 00:00:02.500 align:start
<v Maya>Did you see the lights?</v>

00:03.000 --> 00:04.000
Rex: <i>I saw them.</i>
"""

ASS = """[Script Info]
ScriptType: v4.00+

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,not spoken
Dialogue: 0,0:00:01.00,0:00:02.50,Default,Maya,0,0,0,,{\\i1}Did you see\\Nthe lights, then?
Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,Rex: I saw them.
"""


@pytest.mark.parametrize("name, content", [("scene.vtt", VTT), ("scene.ass", ASS)])
def test_vtt_and_ass_import_with_speakers_and_times(project: Project, tmp_path: Path, name: str, content: str) -> None:
    result = import_script(write(tmp_path, name, content.encode()), project)
    assert [(line.start, line.end) for line in result.lines] == [(1.0, 2.5), (3.0, 4.0)]
    assert [project.character_by_name("Maya").id, project.character_by_name("Rex").id] == \
        [line.character_id for line in result.lines]
    assert result.lines[1].text == "I saw them." and result.lines[0].text.startswith("Did you see")
    assert result.characters == []  # Maya and Rex are the project's own


# A Chinese fansub's ASS: dialogue in Default, and on-screen signs and the opening song's lyrics.
SIGNED_ASS = """[Script Info]
ScriptType: v4.00+

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.50,0:00:03.00,标题,,0,0,0,,霸道总裁爱上我 第3集
Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,你怎么来了？
Dialogue: 0,0:00:02.00,0:00:05.00,Default,,0,0,0,,{\\pos(960,120)}顾氏集团
Dialogue: 0,0:00:03.00,0:00:04.00,Default,Maya,0,0,0,,{\\pos(960,900)}我来接你。
Dialogue: 0,0:00:04.00,0:00:06.00,OP_CN,,0,0,0,,{\\k20}爱你在心口难开
Dialogue: 0,0:00:06.00,0:00:07.00,Sign,,0,0,0,,三个月后
Dialogue: 0,0:00:07.00,0:00:08.00,Subtitle,,0,0,0,,走吧。
"""


def test_ass_signs_and_titles_are_not_spoken_and_the_user_is_told(project: Project, tmp_path: Path) -> None:
    result = import_script(write(tmp_path, "drama.ass", SIGNED_ASS.encode()), project)
    # A named line is dialogue wherever it is placed; signs, titles and lyrics are not lines.
    assert [line.text for line in result.lines] == ["你怎么来了？", "我来接你。", "走吧。"]  # a Subtitle style is dialogue
    (warning,) = result.warnings
    assert warning.endswith("drama.ass, lines 6, 8, 10, 11: 4 signs or titles, not dialogue (no name, and placed on "
                            "the picture by \\pos or in a style named for signs, titles or songs); skipped. To dub "
                            "one, give it a name in the Name field")


def test_an_ass_that_places_every_cue_keeps_them_as_dialogue(project: Project, tmp_path: Path) -> None:
    placed = SIGNED_ASS.split("Dialogue:")[0] + "".join(
        f"Dialogue: 0,0:00:0{n}.00,0:00:0{n}.90,Default,,0,0,0,,{{\\pos(960,900)}}第{n}句。\n" for n in range(1, 4))
    result = import_script(write(tmp_path, "placed.ass", placed.encode()), project)
    assert [line.text for line in result.lines] == ["第1句。", "第2句。", "第3句。"] and not result.warnings


@pytest.mark.parametrize("name, content, line_no", [
    ("bad.vtt", "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nHi.\n\n2\nbanana --> apple\nYo.\n", 8),
    ("bad.vtt", "Not a header\n\n00:01.000 --> 00:02.000\nHi.\n", 1),
    ("bad.ass", "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                "Dialogue: 0,0:00:01.00,banana,Default,,0,0,0,,Hi.\n", 3),
])
def test_malformed_vtt_and_ass_name_the_line(project: Project, tmp_path: Path, name: str, content: str,
                                             line_no: int) -> None:
    with pytest.raises(ImportFormatError) as caught:
        import_script(write(tmp_path, name, content.encode()), project)
    assert caught.value.line_no == line_no and caught.value.code is ErrorCode.IMPORT_FORMAT


@pytest.mark.parametrize("suffix", [".vtt", ".ass"])
def test_vtt_and_ass_export_reads_back_as_the_same_script(project: Project, tmp_path: Path, suffix: str) -> None:
    timed = Project.create(tmp_path / "timed", "Timed")
    timed.characters = list(project.characters)
    timed.lines = [line for line in project.lines if line.start is not None and line.end is not None]
    path = export_script(timed, tmp_path / f"out{suffix}")
    back = import_script(path, timed)
    assert [(line.text, line.character_id, line.start, line.end) for line in back.lines] == \
        [(line.text, line.character_id, line.start, line.end) for line in timed.lines]


@pytest.mark.parametrize("encoding", ["utf-8", "big5"])
def test_a_name_in_traditional_characters_is_the_same_character(tmp_path: Path, encoding: str) -> None:
    """A Taiwanese subtitle file's 小紅 is the 小红 the project (or `new --voice 小红=…`) already has."""
    project = Project.create(tmp_path / "p", "P")
    project.characters.append(project.make_character("小红"))
    srt_text = "1\n00:00:01,000 --> 00:00:02,000\n小紅：門票一張五百。\n\n2\n00:00:03,000 --> 00:00:04,000\n小明：好。\n"
    result = import_script(write(tmp_path, "trad.srt", srt_text.encode(encoding)), project)
    assert [c.name for c in result.characters] == ["小明"]
    assert result.lines[0].character_id == project.characters[0].id
    assert project.character_by_name("小紅") is project.character_by_name("小红") is project.characters[0]


# A two-person exchange in one subtitle, each turn on a row opened by a dash, as subtitle guides
# write it; in Chinese with the speakers named, in English without; and an ASS event with a Name.
DASHED_SRT = """1
00:00:01,000 --> 00:00:03,000
-小明：你怎么才来？
-小红：路上堵车了。

2
00:00:04,000 --> 00:00:06,000
- Are you coming?
- In a minute!

3
00:00:07,000 --> 00:00:08,000
-5度的天气你还穿短袖
"""


def test_a_subtitle_of_two_dashed_turns_is_a_line_a_turn(project: Project, tmp_path: Path) -> None:
    result = import_script(write(tmp_path, "dialogue.srt", DASHED_SRT.encode()), project)
    assert texts(result) == ["你怎么才来？", "路上堵车了。", "Are you coming?", "In a minute!", "-5度的天气你还穿短袖"]
    names = {character.id: character.name for character in (*project.characters, *result.characters)}
    assert [names.get(line.character_id or "") for line in result.lines[:2]] == ["小明", "小红"]
    # The cue's time shared by the turns' lengths, back to back.
    assert [(line.start, line.end) for line in result.lines[:4]] == [(1.0, 2.0), (2.0, 3.0), (4.0, 5.111), (5.111, 6.0)]
    ass = ASS.replace("Rex: I saw them.", "- I saw them.\\N- Me too.")
    lines = import_script(write(tmp_path, "scene.ass", ass.encode()), project).lines
    assert [line.text for line in lines[1:]] == ["I saw them.", "Me too."]
    # A bilingual cue's rows, even dashed, stay one line (the other row is its translation).
    bilingual = DASHED_SRT.replace("-小红：路上堵车了。", "-Why are you late?")
    assert texts(import_script(write(tmp_path, "both.srt", bilingual.encode()), project))[0] != "你怎么才来？"


def test_a_delivered_line_too_long_for_two_rows_is_shown_as_cues_in_turn(project: Project) -> None:
    """A 62-character Chinese line (a transcribed one, no marks) was one cue of four rows in the
    delivered SRT and VTT and burned into the picture; a client's QC refuses more than two."""
    from dataclasses import replace

    from app.project.video_export import burned_cues
    from engine.core.languages import detect_language, join_pieces

    maya = project.character("maya")
    maya.settings = replace(maya.settings, language="")  # her lines' language from their script
    line = project.line("l3")
    line.text = "尤其是时间那么我们要投资者就是了解这一点不要清醒这个市场可以快速回来这些退市公司后期又立好了可以快速快速公来包括像前一段时间。"
    (slot,) = [slot for slot in build_timeline(project) if slot.line_id == "l3"]
    every = list(srt.parse(script_to_srt(project, speaker_prefix=False)))
    delivered = [cue for cue in every if detect_language(cue.content) == "zh"]
    assert len(delivered) == 2 and all(len(cue.content.splitlines()) == 2 for cue in delivered)
    assert delivered[0].start.total_seconds() == pytest.approx(slot.start, abs=1e-3)
    assert delivered[0].end == delivered[1].start and delivered[1].end.total_seconds() == pytest.approx(slot.end, abs=1e-3)
    assert join_pieces(row for cue in delivered for row in cue.content.splitlines()) == line.text  # every word, once
    assert [cue.index for cue in every] == list(range(1, len(project.lines) + 2))  # numbered in turn
    assert sum("尤其" in text or "时间。" in text for _s, _e, text in burned_cues(project, "target")) == 2
    saved = [cue for cue in srt.parse(script_to_srt(project)) if "尤其" in cue.content]
    assert len(saved) == 1 and len(saved[0].content.splitlines()) == 5  # a script saved as SRT: one cue a line
