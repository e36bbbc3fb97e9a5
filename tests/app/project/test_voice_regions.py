"""A stretch of the original chosen by hand as a character's clip (app.project.transcription
cut_region: the timeline's original-audio track, a line's slot), and a replacing transcription
that takes out the characters it leaves without a voice. Real speech (LibriSpeech), the real
Whisper base and CAM++."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.project import CommandStack, EditCharacter, Project
from app.project.errors import TranscriptionError
from app.project.transcription import (
    AUTO_CLIP,
    TranscribeRequest,
    cut_region,
    left_without_voice,
    transcribe_project,
)
from engine.core.audio_io import read_audio
from engine.core.codes import ErrorCode
from engine.core.protocol import VoiceSettings
from engine.hearing.clips import MIN_PURITY
from engine.hearing.transcribe import Options
from tests.app.conftest import TranscribedScene
from tests.engine.hearing.scenes import Turn, make_scene, voice_at


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory, transcribed_scene: TranscribedScene) -> tuple[list[Turn], Path]:
    """`new --transcribe` of two LibriSpeech voices taking turns: (the turns, the project folder)."""
    folder = tmp_path_factory.mktemp("regions")
    turns = transcribed_scene(["libri_1688_a", "libri_3080_a", "libri_1688_b"], folder, "scene.mp4")
    return turns, folder / "p"


def _speaking(project: Project, turns: list[Turn], voice: str) -> str:
    """The id of the character whose lines are ``voice``'s."""
    return next(c.id for c in project.characters
                if {voice_at(turns, line.start or 0.0, line.end or 0.0) for line in project.lines_of(c.id)} == {voice})


def test_a_region_of_one_voice_becomes_the_clip_pure_and_undoable(scene: tuple[list[Turn], Path]) -> None:
    turns, root = scene
    project = Project.load(root)
    stack = CommandStack(project)
    anna = _speaking(project, turns, "libri_3080_a")
    before = project.character(anna).clip
    turn = turns[1]
    changes = cut_region(project, anna, turn.start + 0.2, turn.end - 0.2)
    assert stack.push(EditCharacter(anna, **changes))
    character = project.character(anna)
    assert character.clip != before and not AUTO_CLIP.fullmatch(character.clip or "")
    audio, rate = read_audio(project.resolve(character.clip or ""))
    assert abs(len(audio) / rate - (turn.end - turn.start - 0.4)) < 0.05
    assert character.clip_purity is not None and character.clip_purity >= MIN_PURITY
    assert character.transcript and not character.transcript_heard  # the words of the line it holds
    stack.undo()
    assert project.character(anna).clip == before


def test_a_region_across_two_voices_scores_impure(scene: tuple[list[Turn], Path]) -> None:
    turns, root = scene
    project = Project.load(root)
    anna = _speaking(project, turns, "libri_3080_a")
    pure = cut_region(project, anna, turns[1].start + 0.2, turns[1].end - 0.2)["clip_purity"]
    mixed = cut_region(project, anna, turns[1].end - 4.0, turns[2].start + 4.0)["clip_purity"]
    assert mixed is not None and mixed < MIN_PURITY < pure  # the panel warns "It may hold another voice"


def test_a_region_too_short_or_too_long_is_refused_and_nothing_written(scene: tuple[list[Turn], Path]) -> None:
    _turns, root = scene
    project = Project.load(root)
    clips = sorted(project.voices_dir.iterdir())
    character = project.characters[0].id
    for start, end in ((1.0, 2.5), (0.0, 15.5)):
        with pytest.raises(TranscriptionError, match="voice clip region must be a number from 2 to 15 s") as refused:
            cut_region(project, character, start, end)
        assert refused.value.code is ErrorCode.INVALID_VALUE
    assert sorted(project.voices_dir.iterdir()) == clips


@pytest.mark.slow  # real models for many seconds: scripts/test-slow (CI runs it)
def test_a_replacing_transcription_removes_the_characters_it_leaves_without_a_voice(tmp_path: Path) -> None:
    old = make_scene(tmp_path / "one.mp4", ["libri_1688_a", "libri_3080_a", "libri_1688_b"])
    assert cli_main(["new", str(tmp_path / "p"), "--video", str(tmp_path / "one.mp4"), "--transcribe",
                     "--language", "en"]) == 0
    project = Project.load(tmp_path / "p")
    first, second = project.characters
    narrator = project.make_character("Narrator", settings=VoiceSettings(speed=1.1, language="en"))
    project.characters.append(narrator)  # no lines, but a voice chosen by hand: kept
    video = project.video_path()
    assert video is not None
    gone = project.character(_speaking(project, old, "libri_3080_a"))
    make_scene(video, ["libri_1688_c", "libri_2414_a", "libri_1688_b"])  # a re-cut episode: 3080's voice is gone
    stack = CommandStack(project)
    made = transcribe_project(project, stack, TranscribeRequest(Options(language="en")), replace=True)
    assert [c.id for c in made.removed] == [gone.id]
    names = [c.name for c in project.characters]
    assert gone.name not in names and "Narrator" in names
    assert all(project.lines_of(c.id) for c in project.characters if c.id != narrator.id)
    assert any(f"{gone.name} has no line in the new transcription" in warning for warning in made.warnings)
    stack.undo()
    assert [c.id for c in project.characters] == [first.id, second.id, narrator.id]
    assert left_without_voice(project, []) == [first, second]  # untouched transcribed characters, not Narrator


def test_a_region_of_chinese_lines_joins_their_words_without_spaces_and_has_no_purity_untranscribed(
        tmp_path: Path) -> None:
    from app.project import AddLines, Line

    turns = make_scene(tmp_path / "zh.mp4", ["zh_aishell_S0724", "zh_paddlespeech"])
    assert cli_main(["new", str(tmp_path / "p"), "--video", str(tmp_path / "zh.mp4"), "--no-subtitles"]) == 0
    project = Project.load(tmp_path / "p")
    speaker = project.make_character("说话人")
    middle = (turns[0].start + turns[0].end) / 2
    CommandStack(project).push(AddLines([
        Line(id="a", text="我们明天", character_id=speaker.id, start=turns[0].start, end=middle),
        Line(id="b", text="见面吧。", character_id=speaker.id, start=middle, end=turns[0].end)], characters=[speaker]))
    changes = cut_region(project, speaker.id, turns[0].start, min(turns[0].end, turns[0].start + 15.0))
    assert changes["transcript"] == "我们明天见面吧。"  # one run of Chinese, no space where the lines meet
    assert changes["clip_purity"] is None  # not transcribed: no voiceprints to score it with
    assert project.resolve(changes["clip"]).is_file()


def test_a_voice_named_in_the_chinese_studio_is_known_as_transcribed(tmp_path: Path) -> None:
    # A transcription run again removes the voices it no longer hears that nothing was chosen for
    # since. Before, only "Speaker N" counted as such a name: the Chinese studio's "说话人 2"
    # (with no clip) stayed for ever, as if a person had named it.
    project = Project.create(tmp_path / "p", "p")
    heard = project.make_character("说话人 2", settings=VoiceSettings(language="zh"))
    typed = project.make_character("小红", settings=VoiceSettings(language="zh"))
    project.characters += [heard, typed]
    assert left_without_voice(project, []) == [heard]
