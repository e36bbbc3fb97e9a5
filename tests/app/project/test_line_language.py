"""A line in another language than its character's (issue 32): a Mandarin speaker's one English
sentence is spoken by the English voice, timed, checked and subtitled as English; saved, undone,
imported and exported with the script; given by a transcription of a real mixed scene."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.project import CommandStack, EditLine, InvalidValueError, Line, Project
from app.project.clips import import_clip
from app.project.errors import ProjectFileError
from app.project.readiness import language_gaps, spoken_languages
from app.project.script_io import (
    ImportFormatError,
    export_script,
    import_csv,
    script_to_csv,
    script_to_srt,
)
from app.project.timing import line_timings
from engine.core.languages import ENGLISH, MANDARIN
from engine.core.protocol import VoiceSettings
from engine.synthesis.backends import declared_languages
from tests.app.project.conftest import make_project
from tests.engine.hearing.scenes import HEARING_DATA, make_scene

ENGLISH_LINE = "I don't know what you mean."
LIN_CLIP, LIN_TRANSCRIPT = HEARING_DATA / "zh_paddlespeech.flac", "我认为跑步最重要的就是给我带来了身体健康"


def _scene_with_lin(root: Path) -> Project:
    """Maya and Rex (English), and Lin, a Mandarin character with a real Mandarin clip, who says
    one Chinese line and then one whole English sentence (line ``en``), set to English."""
    project = make_project(root)
    lin = project.make_character("Lin", clip=import_clip(project, LIN_CLIP), transcript=LIN_TRANSCRIPT,
                                 settings=VoiceSettings(language="zh"))
    lin.id = "lin"
    project.characters.append(lin)
    project.lines += [Line(id="zh", text="你到底想说什么？", character_id="lin", start=20.0, end=22.0),
                      Line(id="en", text=ENGLISH_LINE, character_id="lin", start=22.5, end=24.5, language="en")]
    project.save()
    return project


def test_a_line_s_own_language_decides_its_voice_timing_subtitles_and_readiness(tmp_path: Path) -> None:
    project = _scene_with_lin(tmp_path / "scene")
    english, chinese = project.line("en"), project.line("zh")
    assert project.spoken_language(english) == "en" and project.spoken_language(chinese) == "zh"
    assert project.delivery(english).language == "en" and project.delivery(chinese).language == "zh"
    # The voice: under the embedded voices, Piper's for the English line, zh-baker's for the Chinese one.
    assert project.fingerprint(english, "embedded") == project.fingerprint(english, "piper")
    assert project.fingerprint(chinese, "embedded") == project.fingerprint(chinese, "zh-baker")
    # Timing at English's pace and limits; the subtitle wrapped as English (42 a line, not 16).
    timings = line_timings(project)
    assert timings["en"].pace.cps == pytest.approx(timings["en"].pace.in_language(ENGLISH).cps)
    assert timings["en"].expected_s < len(ENGLISH_LINE) / MANDARIN.speaking_cps
    assert "Lin: I don't know what you mean." in script_to_srt(project)  # one row: Mandarin's 16 would wrap it
    # Readiness: a backend that speaks only Mandarin is told about the English line alone.
    gaps = language_gaps(project, "zh-baker", ("zh",), declared_languages(), ["en", "zh"])
    assert [(gap.line_id, gap.language) for gap in gaps] == [("en", "en")]
    assert spoken_languages(project, [english, chinese]) == {"en", "zh"}
    # A line set to a language no embedded voice speaks is named before the render, with where its language came from.
    chinese.language = "ja"
    (gap,) = language_gaps(project, "embedded", ("en", "zh"), declared_languages(), ["en", "zh"])
    assert gap.line_id == "zh" and "Japanese (ja, from the line's own language)" in gap.problem
    chinese.language = None
    # Left to its character, the same sentence is Mandarin's: the Chinese voice would read it.
    english.language = None
    assert project.spoken_language(english) == "zh"
    assert project.fingerprint(english, "embedded") == project.fingerprint(english, "zh-baker")


def test_the_language_is_saved_and_an_older_file_opens_unchanged(tmp_path: Path) -> None:
    project = _scene_with_lin(tmp_path / "scene")
    saved = json.loads(project.project_file.read_text(encoding="utf-8"))
    lines = {line["id"]: line for line in saved["lines"]}
    assert lines["en"]["language"] == "en" and "language" not in lines["zh"]  # written only where set
    assert Project.load(project.root).line("en").language == "en"
    # A file written before lines had a language (no key at all) opens with every line its character's.
    for line in saved["lines"]:
        line.pop("language", None)
    project.project_file.write_text(json.dumps(saved), encoding="utf-8")
    old = Project.load(project.root)
    assert all(line.language is None for line in old.lines) and old.spoken_language(old.line("en")) == "zh"
    saved["lines"][0]["language"] = "xx"
    project.project_file.write_text(json.dumps(saved), encoding="utf-8")
    with pytest.raises(ProjectFileError, match="'xx', which is not one the studio knows"):
        Project.load(project.root)


def test_a_language_edit_is_undone_and_a_bad_one_refused(tmp_path: Path) -> None:
    project = _scene_with_lin(tmp_path / "scene")
    stack = CommandStack(project)
    stack.push(EditLine("zh", language="en"))
    assert project.line("zh").language == "en" and stack.undo_text == "Change line language"
    stack.undo()
    assert project.line("zh").language is None
    stack.redo()
    assert project.line("zh").language == "en"
    with pytest.raises(InvalidValueError, match="not one the studio knows"):
        stack.push(EditLine("zh", language="english"))
    assert project.line("zh").language == "en"


def test_a_sheet_keeps_the_line_s_language(tmp_path: Path) -> None:
    project = _scene_with_lin(tmp_path / "scene")
    assert script_to_csv(project).splitlines()[0] == "character,text,start,end,duration,language"
    back = import_csv(export_script(project, tmp_path / "script.tsv"), project)
    assert [line.language for line in back.lines] == [line.language for line in project.lines]
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("角色,台词,语言\nLin,你好。,\nLin,Hello.,EN\n", encoding="utf-8")
    assert [line.language for line in import_csv(sheet, project).lines] == [None, "en"]
    sheet.write_text("character,text,language\nLin,Hello.,English\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="bad language 'English'"):
        import_csv(sheet, project)
    project.line("en").language = None  # no line in another language: the sheet is as before
    assert script_to_csv(project).splitlines()[0] == "character,text,start,end,duration"


def test_an_english_line_of_a_mandarin_character_is_spoken_and_heard_in_english(tmp_path: Path, capsys) -> None:
    """Rendered through the real embedded engine: the take is Piper's (the English voice adapted to
    Lin's Mandarin clip), and take QA's Whisper base hears it in English, its words."""
    project = _scene_with_lin(tmp_path / "scene")
    order = project.order_of("en")
    code = cli_main(["render", str(project.root), "--lines", str(order), "--qa", "--no-progress", "--slots", "1",
                     "--cache-dir", str(tmp_path / "cache")])
    out = capsys.readouterr().err
    assert code == 0, out
    done = Project.load(project.root)
    take = done.chosen_take(done.line("en"))
    assert take is not None and take.backend == "piper", out
    assert take.qa is not None and take.qa.language == "en" and take.qa.metric == "wer", take.qa
    assert {"know", "what", "mean"} <= set(take.qa.transcript.lower().replace("'", " ").replace(".", "").split())


def test_a_transcribed_english_sentence_of_a_mandarin_speaker_gets_its_language(tmp_path: Path, capsys) -> None:
    """A real mixed scene (AISHELL-1 and PaddleSpeech Mandarin, a LibriSpeech English sentence)
    told it has one speaker, as a bilingual actor's scene: the English line is that Mandarin
    character's, and is given English; the Mandarin lines keep their character's language."""
    make_scene(tmp_path / "mixed.flac", ["zh_paddlespeech", "libri_1688_a", "zh_aishell_S0764"], gap_s=0.7)
    assert cli_main(["new", str(tmp_path / "p"), "--audio", str(tmp_path / "mixed.flac"), "--transcribe",
                     "--speakers", "1"]) in (0, 1)
    assert '  a line in en of its own: "I don\'t think' in capsys.readouterr().out
    project = Project.load(tmp_path / "p")
    assert [c.settings.language for c in project.characters] == ["zh"]
    languages = {line.text: line.language for line in project.lines}
    english = [text for text in languages if "without telling us" in text]
    assert english and all(languages[text] == "en" for text in english), languages
    assert [language for text, language in languages.items() if text not in english] == [None, None], languages
    assert {project.spoken_language(line) for line in project.lines} == {"zh", "en"}


def test_a_translated_line_follows_its_character_again(tmp_path: Path) -> None:
    from app.project.translation import ApplyTranslation
    from engine.translation.lines import TranslatedLine

    project = _scene_with_lin(tmp_path / "scene")
    stack = CommandStack(project)
    stack.push(ApplyTranslation([TranslatedLine(id="en", text="我不明白你的意思。")], "zh"))
    assert project.line("en").language is None and project.spoken_language(project.line("en")) == "zh"
    stack.undo()
    assert project.line("en").language == "en" and project.line("en").text == ENGLISH_LINE



def test_the_translator_is_told_the_language_of_a_line_in_another_one(tmp_path: Path) -> None:
    """A Mandarin drama dubbed into Japanese: its English sentence is translated from English."""
    from app.project.translation import source_lines
    from engine.translation.chat import ChatTranslator, Endpoint
    from tests.engine.translation.chat_server import chat_server, each_line

    project = _scene_with_lin(tmp_path / "scene")
    lines = source_lines(project, "ja")
    assert {line.id: line.language for line in lines if line.language} == {"en": "en"}
    with chat_server(each_line(lambda number, entry, asked: "訳")) as server:
        ChatTranslator(Endpoint(server.url, "scripted-model", "sk-test", timeout_s=10)).translate(
            lines, {"zh", "en"}, "zh", "ja")
    (asked,) = server.asked
    assert [entry.get("language") for entry in asked.lines.values()] == [None, "en"]
    assert 'A line with "language" is in that language, not zh' in asked.system
