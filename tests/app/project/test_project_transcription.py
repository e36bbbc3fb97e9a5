"""A project's cast and script from its video's dialogue: `dubstudio new --transcribe`,
`dubstudio transcribe`, undo, clips cut from the original, translation, a render of the result,
and the bad inputs; the real Whisper base model, the real GE2E and CAM++ encoders and real speech."""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.project import AddLines, CommandStack, Line, Project
from app.project.errors import TranscriptionError
from app.project.export import export_srt
from app.project.model import PALETTE
from app.project.sample import copy_sample_project
from app.project.script_io import script_to_csv
from app.project.transcription import (
    CANDIDATES_FILE,
    VOICEPRINTS_FILE,
    TranscribeRequest,
    clip_candidates,
    cut_line,
    line_span,
    transcribe_project,
)
from app.project.undo import SplitCharacter
from engine.core.codes import ErrorCode
from engine.core.reference import load_reference_clip
from engine.hearing.clips import MIN_PURITY
from engine.hearing.qa.wer import normalise_words, word_error_rate
from engine.hearing.transcribe import Options
from engine.voiceprint.encoder import SpeakerEncoder
from tests.engine.hearing.scenes import VOICES, make_scene, music, voice_at, write_video

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder()


@pytest.fixture(scope="module")
def two_voices(tmp_path_factory: pytest.TempPathFactory):
    """`dubstudio new --transcribe` of a two-voice scene: (turns, project, exit status, output)."""
    folder = tmp_path_factory.mktemp("two")
    turns = make_scene(folder / "scene.mp4", ["maya", "rex", "maya", "rex"])
    status = cli_main(["new", str(folder / "project"), "--video", str(folder / "scene.mp4"), "--transcribe"])
    return turns, Project.load(folder / "project"), status


def test_new_transcribe_makes_one_character_per_voice_with_the_lines_by_time(two_voices) -> None:
    turns, project, status = two_voices
    assert status == 0  # every character got a clip: ready to render
    assert [c.name for c in project.characters] == ["Speaker 1", "Speaker 2"]
    assert len({c.colour for c in project.characters}) == 2 and all(c.colour in PALETTE for c in project.characters)
    assert project.language == "en" and project.guide_audio == "media/guide.flac"
    voices_of = {c.id: {voice_at(turns, line.start, line.end) for line in project.lines_of(c.id)}
                 for c in project.characters}
    assert sorted(v for names in voices_of.values() for v in names) == ["maya", "rex"]  # one voice each
    assert [line.start for line in project.lines] == sorted(line.start for line in project.lines)
    for line in project.lines:
        assert line.end > line.start and not line.draft and line.source_text == ""


def test_each_clip_is_cut_from_its_own_character_with_its_transcript(two_voices, encoder: SpeakerEncoder) -> None:
    turns, project, _ = two_voices
    references = {name: encoder.embed(load_reference_clip(VOICES / f"{name}.wav")) for name in ("maya", "rex")}
    candidates = json.loads((project.media_dir / CANDIDATES_FILE).read_text())["characters"]
    for char in project.characters:
        (voice,) = {voice_at(turns, line.start, line.end) for line in project.lines_of(char.id)}
        assert char.clip is not None and char.clip.startswith("voices/")
        clip = load_reference_clip(project.resolve(char.clip))
        embedding = encoder.embed(clip)
        assert max(references, key=lambda name: float(embedding @ references[name])) == voice
        best = candidates[char.id][0]
        assert voice_at(turns, best["start"], best["end"]) == voice and char.transcript == best["text"]
        own_text = next(t.text for t in turns if t.voice == voice)
        assert word_error_rate(own_text, char.transcript) < 0.5


def test_the_transcribed_project_renders(two_voices, tmp_path: Path) -> None:
    _, project, _ = two_voices
    assert cli_main(["render", str(project.root), "--cache-dir", str(tmp_path / "cache")]) == 0
    rendered = Project.load(project.root)
    assert all(rendered.chosen_take(line) is not None for line in rendered.lines)


def test_transcribe_refuses_a_script_unless_replacing_and_undo_brings_it_back(tmp_path: Path) -> None:
    make_scene(tmp_path / "scene.mp4", ["rex", "maya"])
    assert cli_main(["new", str(tmp_path / "project"), "--video", str(tmp_path / "scene.mp4"), "--no-subtitles"]) == 0
    project = Project.load(tmp_path / "project")
    narrator = project.make_character("Narrator")
    CommandStack(project).push(AddLines([Line(id="l1", text="Once upon a time.", character_id=narrator.id)],
                                        characters=[narrator]))
    project.save()
    assert cli_main(["transcribe", str(project.root)]) == 2  # E_SCRIPT_NOT_EMPTY, nothing changed
    assert [line.text for line in Project.load(project.root).lines] == ["Once upon a time."]
    stack = CommandStack(project)
    made = transcribe_project(project, stack, replace=True)
    assert {c.name for c in made.characters} == {"Speaker 1", "Speaker 2"}
    assert [line.id for line in project.lines] == [line.id for line in made.lines]
    stack.undo()
    assert [line.text for line in project.lines] == ["Once upon a time."] and project.language == ""
    assert [c.name for c in project.characters] == ["Narrator"]
    stack.redo()
    assert len(project.characters) == 3 and project.language == "en"


def test_translate_to_english_keeps_the_source_text_and_marks_drafts(tmp_path: Path) -> None:
    make_scene(tmp_path / "scene.mp4", ["fr_17767732", "fr_17301936"])
    assert cli_main(["new", str(tmp_path / "project"), "--video", str(tmp_path / "scene.mp4"), "--transcribe",
                     "--translate-to", "en"]) in (0, 1)
    project = Project.load(tmp_path / "project")
    assert project.language == "fr" and project.lines
    source = " ".join(line.source_text for line in project.lines)
    english = " ".join(line.text for line in project.lines)
    assert all(line.draft and line.source_text for line in project.lines)
    reference = ("Je voulais soumettre cette idée à la réflexion de l'Assemblée nationale. "
                 "J'ai donc l'expérience des années passées, j'en dirai un mot tout à l'heure.")
    assert word_error_rate(reference, source, "fr") < 0.4
    assert {"the", "i", "to", "of", "a"} & set(normalise_words(english))  # English words, not French
    assert not {"je", "des", "la", "cette"} & set(normalise_words(english))
    # The project dubs into English, its voices speaking it: with the characters left speaking the
    # heard language, a Chinese drama's English lines went to the Mandarin voice (zh-baker spelled
    # them out, 18 s takes for 4 s slots) and take QA listened for Chinese.
    assert project.target_language == "en" and {c.settings.language for c in project.characters} == {"en"}


def test_new_translates_into_any_language_through_the_chosen_translator(tmp_path: Path) -> None:
    """new --translate-to zh --translator openai: the real transcription, then the lines through a
    local chat-completions server (a protocol stand-in: no language model runs here)."""
    from tests.engine.translation.chat_server import answer, chat_server

    make_scene(tmp_path / "scene.mp4", ["maya", "rex"])
    with chat_server(lambda asked: answer({n: f"中文{n}" for n in asked.lines})) as server:
        status = cli_main(["new", str(tmp_path / "project"), "--video", str(tmp_path / "scene.mp4"), "--transcribe",
                           "--translate-to", "zh", "--translator", "openai", "--endpoint", server.url,
                           "--translator-model", "scripted"])
    assert status in (0, 1)
    project = Project.load(tmp_path / "project")
    heard = [entry["text"] for asked in server.asked for entry in asked.lines.values()]
    assert project.lines and [line.source_text for line in project.lines] == heard  # Whisper's English, sent
    assert all(line.draft and line.text.startswith("中文") for line in project.lines)
    assert project.language == "en" and project.target_language == "zh"
    assert {c.settings.language for c in project.characters} == {"zh"}


def test_a_translator_that_fails_after_the_transcription_leaves_nothing_behind(tmp_path: Path) -> None:
    """new: no project is left; transcribe: the project as it was (no clips in voices/), exit 8."""
    from tests.engine.translation.chat_server import chat_server

    make_scene(tmp_path / "scene.mp4", ["maya"])
    refuse = lambda asked: (401, {"error": {"message": "invalid api key"}}, {})  # noqa: E731
    with chat_server(refuse) as server:
        translator = ["--translate-to", "ja", "--translator", "openai", "--endpoint", server.url,
                      "--translator-model", "scripted"]
        assert cli_main(["new", str(tmp_path / "made"), "--video", str(tmp_path / "scene.mp4"), "--transcribe",
                         *translator]) == 8
        assert not (tmp_path / "made" / "project.json").exists()
        assert cli_main(["new", str(tmp_path / "project"), "--video", str(tmp_path / "scene.mp4"),
                         "--no-subtitles"]) == 0
        root = tmp_path / "project"
        before = {path.relative_to(root): path.read_bytes() for path in root.rglob("*") if path.is_file()}
        assert cli_main(["transcribe", str(root), *translator]) == 8
    after = {path.relative_to(root): path.read_bytes() for path in root.rglob("*") if path.is_file()}
    assert after == before


def test_no_speech_no_audio_and_a_bad_language_leave_nothing_behind(tmp_path: Path) -> None:
    write_video(tmp_path / "music.mp4", music(10.0), 10.0)
    write_video(tmp_path / "mute.mp4", None, 4.0)
    make_scene(tmp_path / "scene.mp4", ["maya"])
    for video, extra, code in (
        ("music.mp4", [], "E_NO_SPEECH"),
        ("mute.mp4", [], "E_NO_AUDIO_STREAM"),
        ("scene.mp4", ["--language", "klingon"], "E_UNKNOWN_LANGUAGE"),
    ):  # a bad --speakers is a usage error: test_a_speaker_count_that_is_not_a_whole_number_names_its_code…
        target = tmp_path / f"project-{video}-{len(extra)}"
        assert cli_main(["new", str(target), "--video", str(tmp_path / video), "--transcribe", *extra]) == 2, code
        assert not target.exists(), f"{code}: a half-made project was left"


@pytest.mark.parametrize("count, shown", [("nan", "nan"), ("1e1", "10.0"), ("two", "'two'"), ("11", "11")])
def test_a_speaker_count_that_is_not_a_whole_number_names_its_code_and_option(count: str, shown: str,
                                                                             tmp_path: Path) -> None:
    """Issue 34: `new --speakers nan` said `E_INVALID_VALUE: --voice: E_BAD_SPEAKER_COUNT…`."""
    write_video(tmp_path / "v.mp4", None, 1.0)
    for command in (["new", str(tmp_path / "p"), "--video", str(tmp_path / "v.mp4"), "--transcribe"],
                    ["transcribe", str(tmp_path / "p")]):
        result = subprocess.run([sys.executable, "-m", "app.cli", *command, "--speakers", count],
                                capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert result.returncode == 2
        assert result.stderr.strip().splitlines()[-1] == (
            f"dubstudio {command[0]}: error: argument --speakers: E_BAD_SPEAKER_COUNT: speakers must be a whole "
            f"number from 1 to 10 (or auto), got {shown}")
        assert not (tmp_path / "p").exists()


@pytest.fixture(scope="module")
def one_voice_scene(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("scene") / "scene.mp4"
    make_scene(path, ["maya"])
    return path


def project_folder_state(root: Path) -> dict[str, bytes]:
    """Every file of a project folder (links as where they point) and its bytes."""
    return {str(path.relative_to(root)): (os.readlink(path).encode() if path.is_symlink() else path.read_bytes())
            for path in sorted(root.rglob("*")) if path.is_symlink() or path.is_file()}


@pytest.mark.parametrize("fault", ["media/transcript.json is a symbolic link", "project.json is hard-linked"])
def test_a_failed_transcription_leaves_the_project_as_it_was(fault: str, one_voice_scene: Path,
                                                              tmp_path: Path) -> None:
    """Issue 34: a refused media/transcript.json (exit 2) or a failed save (exit 7) left the
    clips it had cut in voices/, and the save failure a new transcript.json."""
    root = tmp_path / "project"
    assert cli_main(["new", str(root), "--video", str(one_voice_scene), "--no-subtitles"]) == 0
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text('{"not": "the project\'s"}')
    if fault == "media/transcript.json is a symbolic link":
        (root / "media" / CANDIDATES_FILE).symlink_to(elsewhere)
        expected = (2, "E_NOT_REGULAR_FILE")
    else:
        (root / "media" / CANDIDATES_FILE).write_text('{"from": "an earlier transcription"}')
        os.link(root / "project.json", tmp_path / "second-name.json")  # the writer refuses to replace it
        expected = (7, "E_NOT_REGULAR_FILE")
    before = project_folder_state(root)
    result = subprocess.run([sys.executable, "-m", "app.cli", "transcribe", str(root), "--replace"],
                            capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert (result.returncode, expected[1] in result.stderr) == (expected[0], True), result.stderr
    assert project_folder_state(root) == before  # no clip left in voices/, the old candidates back
    assert elsewhere.read_text() == '{"not": "the project\'s"}'


def test_the_translation_warning_names_the_model_in_use(one_voice_scene: Path, tmp_path: Path) -> None:
    """Issue 34: with --model tiny.en the warning said the lines were "Whisper base's translation"."""
    assert cli_main(["new", str(tmp_path / "project"), "--video", str(one_voice_scene), "--no-subtitles"]) == 0
    project = Project.load(tmp_path / "project")
    stack = CommandStack(project)
    made = transcribe_project(project, stack, TranscribeRequest(Options(translate_to="en"), "tiny.en"))
    translated = [warning for warning in made.warnings if "translation" in warning]
    assert len(translated) == 1 and translated[0].startswith("the English lines are Whisper tiny.en's translation")
    assert project.target_language == "en" and {c.settings.language for c in project.characters} == {"en"}
    stack.undo()
    assert project.target_language == "" and project.characters == [] and project.lines == []


def test_cancel_leaves_the_script_as_it_was(tmp_path: Path) -> None:
    make_scene(tmp_path / "scene.mp4", ["maya", "rex"])
    assert cli_main(["new", str(tmp_path / "project"), "--video", str(tmp_path / "scene.mp4"), "--no-subtitles"]) == 0
    project = Project.load(tmp_path / "project")
    cancel = threading.Event()
    with pytest.raises(TranscriptionError) as raised:
        transcribe_project(project, CommandStack(project), TranscribeRequest(Options()),
                           progress=lambda stage, fraction: cancel.set(), cancel=cancel)
    assert raised.value.code is ErrorCode.CANCELLED
    assert project.lines == [] and project.characters == [] and not list(project.voices_dir.iterdir())


def test_exports_keep_the_source_text_beside_a_translation(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "project", "Translated")
    speaker = project.make_character("Speaker 1")
    CommandStack(project).push(AddLines([
        Line(id="l1", text="I wanted to submit this idea.", character_id=speaker.id, start=0.5, end=2.0,
             source_text="Je voulais soumettre cette idée.", draft=True),
        Line(id="l2", text="Thank you.", character_id=speaker.id, start=3.0, end=3.5),
    ], characters=[speaker]))
    rows = list(csv.reader(io.StringIO(script_to_csv(project))))
    assert rows[0][-2:] == ["source", "draft"]
    assert rows[1][1] == "I wanted to submit this idea." and rows[1][-2:] == ["Je voulais soumettre cette idée.", "yes"]
    assert rows[2][-2:] == ["", ""]
    delivered = export_srt(project)  # a delivery: no "Name: " before the cues
    assert "Speaker 1:" not in delivered.files[0].read_text(encoding="utf-8")
    result = export_srt(project, names=True)
    names = [path.name for path in result.files]
    assert names == ["script.srt", "script.source.srt"]
    source = (project.exports_dir / "script.source.srt").read_text(encoding="utf-8")
    # 43 characters: wrapped at the 42 of a Latin-script language's subtitle line
    assert "Speaker 1: Je voulais\nsoumettre cette idée." in source and "Speaker 1: Thank you." in source
    project.save()
    reloaded = Project.load(project.root).line("l1")
    assert reloaded.source_text == "Je voulais soumettre cette idée." and reloaded.draft


def test_progress_is_reported_at_each_tenth_and_at_least_every_half_minute() -> None:
    from app.commands.transcribe import StageReport

    now = [0.0]
    out = io.StringIO()
    report = StageReport(out, clock=lambda: now[0])
    for seconds, stage, fraction in ((0, "listening", 0.0), (10, "listening", 0.04), (20, "listening", 0.105),
                                     (45, "listening", 0.15), (50, "listening", 0.16), (80, "listening", 0.17),
                                     (81, "speakers", 0.0), (82, "speakers", 1.0)):
        now[0] = seconds
        report(stage, fraction)
    assert out.getvalue().splitlines() == ["  listening: 0% (0:00)", "  listening: 10% (0:20)",
                                           "  listening: 16% (0:50)", "  listening: 17% (1:20)",
                                           "  speakers: 0% (1:21)", "  speakers: 100% (1:22)"]


def test_choose_from_the_video_offers_every_stretch_and_finds_them_again_after_a_split(two_voices) -> None:
    """Each voice speaks twice: both turns are offered, each that voice's own and pure; a
    character split off (one of the turns) has its own candidates, and the one it left keeps
    only the other turn; undoing the split brings both back."""
    turns, project, _ = two_voices
    assert (project.media_dir / VOICEPRINTS_FILE).is_file()
    for char in project.characters:
        (voice,) = {voice_at(turns, line.start, line.end) for line in project.lines_of(char.id)}
        found = clip_candidates(project, char.id)
        assert len(found) >= 2, found
        assert {voice_at(turns, c.start, c.end) for c in found} == {voice}
        assert all(c.purity >= MIN_PURITY for c in found)
        assert len({next(i for i, t in enumerate(turns) if t.start - 0.5 <= c.start < t.end) for c in found}) >= 2
    stack = CommandStack(project)
    char = project.characters[0]
    (voice,) = {voice_at(turns, line.start, line.end) for line in project.lines_of(char.id)}
    last_turn = [t for t in turns if t.voice == voice][-1]
    moved = [line.id for line in project.lines_of(char.id) if line.start >= last_turn.start - 0.3]
    new = project.make_character("Split off")
    stack.push(SplitCharacter(char.id, moved, new))
    split_found = clip_candidates(project, new.id)
    assert split_found and all(c.start >= last_turn.start - 0.5 for c in split_found)
    kept = clip_candidates(project, char.id)
    assert kept and all(c.end <= last_turn.start + 0.3 for c in kept)
    stack.undo()
    assert len(clip_candidates(project, char.id)) >= 2 and clip_candidates(project, new.id) == []


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_chinese_lines_follow_the_project_s_script_setting_and_the_option(tmp_path: Path) -> None:
    from dataclasses import replace

    from engine.hearing.chinese import SIMPLIFIED, TRADITIONAL, in_script

    make_scene(tmp_path / "zh.mp4", ["zh_aishell_S0724", "zh_paddlespeech"], gap_s=0.7)
    root = tmp_path / "project"
    assert cli_main(["new", str(root), "--video", str(tmp_path / "zh.mp4"), "--transcribe"]) in (0, 1)

    def script() -> str:
        return "".join(line.text for line in Project.load(root).lines)

    assert "广州市" in script() and in_script(script(), SIMPLIFIED) == script()  # the default: simplified
    project = Project.load(root)
    project.settings = replace(project.settings, chinese_script=TRADITIONAL)
    project.save()
    assert cli_main(["transcribe", str(root), "--replace"]) in (0, 1)
    assert "廣州市" in script() and in_script(script(), TRADITIONAL) == script()
    assert cli_main(["transcribe", str(root), "--replace", "--chinese-script", "simplified"]) in (0, 1)
    assert "广州市" in script() and Project.load(root).settings.chinese_script == TRADITIONAL  # for that run only
    # `new` keeps the script it was made in as the project's setting.
    other = tmp_path / "traditional"
    assert cli_main(["new", str(other), "--video", str(tmp_path / "zh.mp4"), "--transcribe",
                     "--chinese-script", "traditional"]) in (0, 1)
    made = Project.load(other)
    assert made.settings.chinese_script == TRADITIONAL and "廣州市" in "".join(line.text for line in made.lines)


def test_an_english_speaker_in_a_mandarin_episode_speaks_english(tmp_path: Path) -> None:
    """A mixed episode (real AISHELL-1 / PaddleSpeech Mandarin and a LibriSpeech man, tests/data/hearing)
    heard as Chinese: the man's lines come out in English, and his character was set to zh, so
    the Chinese voice would have read them."""
    make_scene(tmp_path / "mixed.mp4", ["zh_aishell_S0764", "libri_1688_a", "zh_paddlespeech"], gap_s=0.7)
    assert cli_main(["new", str(tmp_path / "p"), "--video", str(tmp_path / "mixed.mp4"), "--transcribe",
                     "--language", "zh"]) in (0, 1)
    project = Project.load(tmp_path / "p")
    spoken = {c.settings.language: "".join(line.text for line in project.lines_of(c.id)) for c in project.characters}
    assert set(spoken) == {"zh", "en"} and "without telling us" in spoken["en"], spoken


def test_an_english_only_model_on_a_dialogue_not_given_as_english_says_so(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """tiny.en on a real Mandarin scene (AISHELL-1, tests/data/hearing) wrote English-sounding
    words, "heard in en (100% sure)", and said nothing about it."""
    make_scene(tmp_path / "zh.mp4", ["zh_aishell_S0724"])
    assert cli_main(["new", str(tmp_path / "p"), "--video", str(tmp_path / "zh.mp4"), "--transcribe",
                     "--model", "tiny.en"]) in (0, 1)
    assert "Whisper tiny.en hears English only" in capsys.readouterr().out
    assert cli_main(["new", str(tmp_path / "q"), "--video", str(tmp_path / "zh.mp4"), "--transcribe",
                     "--model", "tiny.en", "--language", "en"]) in (0, 1)
    assert "hears English only" not in capsys.readouterr().out  # English given: nothing to warn of


def test_cutting_a_line_s_audio_refuses_without_a_video_a_character_or_times(tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    first = project.lines[0]
    with pytest.raises(TranscriptionError) as no_video:
        cut_line(project, first.id)
    assert no_video.value.code is ErrorCode.NO_AUDIO_STREAM
    first.character_id = None
    with pytest.raises(TranscriptionError, match="no character") as no_character:
        cut_line(project, first.id)
    assert no_character.value.code is ErrorCode.INVALID_VALUE
    assert not project.voices_dir.exists() or not any(project.voices_dir.glob("*-original.wav"))


def test_a_lines_span_of_the_original_is_its_slot(tmp_path: Path) -> None:
    project = copy_sample_project(tmp_path / "sample")
    first, second, last = project.lines[0], project.lines[1], project.lines[-1]
    first.start, first.end, second.start = 1.0, 2.5, 4.0
    assert line_span(project, first.id) == (1.0, 2.5)
    first.end = None  # to the next line's start
    assert line_span(project, first.id) == (1.0, 4.0)
    last.start, last.end = 30.0, None  # nothing after it: as long as its text takes to say
    start, end = line_span(project, last.id)
    assert start == 30.0 and 30.8 <= end < 30.0 + len(last.text)
    first.start = None
    with pytest.raises(TranscriptionError) as refused:
        line_span(project, first.id)
    assert refused.value.code is ErrorCode.INVALID_VALUE and "line 1 has no start time" in refused.value.message


def test_a_given_language_the_dialogue_is_not_in_is_warned_about(one_voice_scene: Path, tmp_path: Path) -> None:
    """An English video transcribed with --language zh (the language to dub into, given by
    mistake) came out as Chinese-looking garbage with no word said about it."""
    assert cli_main(["new", str(tmp_path / "project"), "--video", str(one_voice_scene), "--no-subtitles"]) == 0
    project = Project.load(tmp_path / "project")
    wrong = transcribe_project(project, CommandStack(project), TranscribeRequest(Options(language="zh")))
    said = [warning for warning in wrong.warnings if "sounds like en" in warning]
    assert len(said) == 1 and "heard in zh as asked" in said[0], wrong.warnings
    right = transcribe_project(project, CommandStack(project), TranscribeRequest(Options(language="en")), replace=True)
    assert not [warning for warning in right.warnings if "sounds like" in warning], right.warnings


def test_the_ready_line_is_a_command_to_copy_for_a_folder_with_spaces_and_chinese(
        one_voice_scene: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Chinese team's folder "项目 一": the printed next step left it unquoted (the shell split it
    in two), and a character with one line read "1 lines"."""
    root = tmp_path / "项目 一"
    assert cli_main(["new", str(root), "--video", str(one_voice_scene), "--transcribe"]) == 0
    out = capsys.readouterr().out
    assert "Speaker 1 (#4e79a7): 1 line, clip" in out
    (ready,) = [line for line in out.splitlines() if line.startswith("Ready: ")]
    assert shlex.split(ready.removeprefix("Ready: ")) == ["dubstudio", "render", str(root), "--fit", "--export", "video"]
