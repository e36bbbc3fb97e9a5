"""Transcripts by ear: a clip without a transcript gets the words heard in it (the real base model,
a real Mandarin recording), marked as heard, kept across a save; a wrong one is a mismatch."""

from __future__ import annotations

from pathlib import Path

from app.project import Project
from app.project.clips import import_clip
from app.project.qa import fill_missing_transcripts, hear_character_clip
from app.project.sample import copy_sample_project
from engine.hearing.qa.transcripts import mismatch
from engine.hearing.qa.wer import error_rate
from tests.engine.hearing.qa.test_checks import ZH_CLIP, ZH_TEXT


def test_a_clip_without_a_transcript_gets_one_heard_and_marked(tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    typed = {char.id: char.transcript for char in project.characters}
    char = project.make_character("Lin")
    project.characters.append(char)
    char.clip = import_clip(project, ZH_CLIP)
    said = fill_missing_transcripts(project)
    assert len(said) == 1 and said[0].startswith("Lin: transcript heard from the clip")
    assert char.transcript_heard and error_rate(ZH_TEXT, char.transcript, "zh") <= 0.2, char.transcript
    assert all(c.transcript == typed[c.id] and not c.transcript_heard for c in project.characters if c.id in typed)
    project.save()
    again = Project.load(project.root).character(char.id)
    assert again.transcript == char.transcript and again.transcript_heard


def test_a_transcript_that_does_not_match_its_clip_is_a_mismatch(tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    char = project.make_character("Lin")
    project.characters.append(char)
    char.clip = import_clip(project, ZH_CLIP)
    heard = hear_character_clip(project, char.id)
    assert mismatch(ZH_TEXT, heard) is None
    found = mismatch("收到好友从远方寄来的生日礼物。", heard)
    assert found is not None and found.metric == "cer" and "does not match" in str(found)
    char.clip_start = 1.6  # trimmed: the first half of the sentence is gone
    trimmed = hear_character_clip(project, char.id)
    assert mismatch(ZH_TEXT, trimmed) is not None, trimmed.text


def test_new_with_a_voice_clip_without_a_transcript_hears_one(tmp_path: Path, capsys) -> None:
    import shutil

    from app.cli import main as cli_main

    from .media_fixtures import make_video

    clip = tmp_path / "lin.wav"  # no lin.txt beside it
    shutil.copy(ZH_CLIP, clip)
    video = make_video(tmp_path / "plain.mp4")
    code = cli_main(["new", str(tmp_path / "dub"), "--video", str(video), "--voice", f"Lin={clip}",
                     "--recogniser-model", "base"])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    assert "voice: Lin: transcript heard from the clip" in out
    lin = Project.load(tmp_path / "dub").character_by_name("Lin")
    assert lin is not None and lin.transcript_heard and error_rate(ZH_TEXT, lin.transcript, "zh") <= 0.2


def test_a_heard_chinese_transcript_is_written_in_the_projects_script(tmp_path: Path) -> None:
    # Heard with no language set (so no prompt), Whisper base wrote this AISHELL sentence
    # (广州市房地产中介协会分析) as "廣州市佛地产中间协会分析": traditional and simplified in one line.
    from engine.hearing.chinese import in_script

    project = copy_sample_project(tmp_path / "sample")
    char = project.make_character("Lin")
    project.characters.append(char)
    char.clip = import_clip(project, Path(__file__).parents[2] / "data" / "hearing" / "zh_aishell_S0724.flac")
    fill_missing_transcripts(project)
    assert char.transcript.startswith("广州市") and in_script(char.transcript, "simplified") == char.transcript
    project.settings.chinese_script = "traditional"
    heard = hear_character_clip(project, char.id).text
    assert heard.startswith("廣州市") and in_script(heard, "traditional") == heard
