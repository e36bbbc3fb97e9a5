"""Speech the transcription heard no words in (issue 32): kept in media/transcript.json with the
character each stretch sounds like, read back (an older file without them reads as none), hidden
once a line covers it, and said in one line by the CLI.

The stretches are written as data: real speech that the real Whisper still gives no words on a
second decoding could not be made on demand (reversed and distorted real speech were given
hallucinated words), and the engine's own tests cover how they are found
(tests/engine/hearing/test_transcribe_unheard.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from app.commands.transcribe import print_result, print_wordless
from app.project import AddLines, CommandStack, Line, Project
from app.project.transcription import (
    CANDIDATES_FILE,
    ReplaceScript,
    TranscribedScript,
    WordlessStretch,
    WrittenFiles,
    _speakers_as_characters,
    _write_candidates,
    clip_candidates,
    stored_wordless,
    wordless_note,
    wordless_stretches,
)
from engine.hearing.transcribe import Transcription
from engine.hearing.unheard import Unheard


def transcribed_with_stretches(root: Path) -> tuple[Project, Transcription]:
    """A project with two characters and the transcription output of a scene in which Whisper
    heard no words in two stretches (one of each voice)."""
    project = Project.create(root, "Wordless")
    for name in ("Speaker 1", "Speaker 2"):
        project.characters.append(project.make_character(name))
    project.lines = [Line(id="l1", text="Hello there.", character_id=project.characters[0].id, start=0.5, end=2.0)]
    project.save()
    heard = Transcription(12.0, "en", 0.98, [], 2, no_words=[Unheard(3.2, 5.0, 1), Unheard(7.0, 8.25, 0)])
    _write_candidates(project, heard, project.characters, WrittenFiles(project.root))
    return project, heard


def test_the_stretches_are_kept_with_their_characters_and_read_back(tmp_path: Path) -> None:
    project, _ = transcribed_with_stretches(tmp_path / "p")
    first, second = project.characters
    stored = json.loads((project.media_dir / CANDIDATES_FILE).read_text(encoding="utf-8"))["no_words"]
    assert stored == [{"start": 3.2, "end": 5.0, "character_id": second.id},
                      {"start": 7.0, "end": 8.25, "character_id": first.id}]
    again = Project.load(project.root)
    assert wordless_stretches(again) == [WordlessStretch(3.2, 5.0, second.id), WordlessStretch(7.0, 8.25, first.id)]


def test_an_older_transcript_without_them_reads_as_none_and_keeps_its_candidates(tmp_path: Path) -> None:
    project, _ = transcribed_with_stretches(tmp_path / "p")
    path = project.media_dir / CANDIDATES_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["no_words"]
    data["characters"] = {project.characters[0].id: [{"start": 0.5, "end": 4.0, "text": "Hello there.", "score": 0.9,
                                                       "snr_db": 30.0, "purity": 0.4, "clipped": 0.0}]}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert wordless_stretches(project) == []
    assert [c.text for c in clip_candidates(project, project.characters[0].id)] == ["Hello there."]
    path.write_text("{not json", encoding="utf-8")  # damaged: nothing to show, nothing fails
    assert stored_wordless(project) == []


def test_a_line_over_a_stretch_hides_it_and_undo_shows_it_again(tmp_path: Path) -> None:
    project, _ = transcribed_with_stretches(tmp_path / "p")
    second = project.characters[1]
    stack = CommandStack(project)
    stack.push(AddLines([Line(id="l2", text="", character_id=second.id, start=3.2, end=5.0)], by_time=True))
    assert [s.start for s in wordless_stretches(project)] == [7.0]
    assert [line.id for line in project.lines] == ["l1", "l2"]
    stack.push(AddLines([Line(id="l3", text="Hm.", start=8.0, end=8.5)], by_time=True))  # a fifth of it: still shown
    assert [s.start for s in wordless_stretches(project)] == [7.0]
    stack.undo()
    stack.undo()
    assert [s.start for s in wordless_stretches(project)] == [3.2, 7.0]


def test_a_stretch_of_a_character_no_longer_in_the_project_has_none(tmp_path: Path) -> None:
    project, _ = transcribed_with_stretches(tmp_path / "p")
    del project.characters[1]
    assert wordless_stretches(project)[0] == WordlessStretch(3.2, 5.0, None)


def test_the_cli_says_how_much_speech_had_no_words_in_one_line(tmp_path: Path) -> None:
    project, heard = transcribed_with_stretches(tmp_path / "p")
    made = TranscribedScript(heard, [], [], ReplaceScript([], [], "en"), WrittenFiles(project.root))
    err = io.StringIO()
    print_wordless(made, err)
    assert err.getvalue() == "2 stretches of speech had no words (3.0 s): see them on the timeline\n"
    note = wordless_note(heard)
    assert note is not None and note.arguments["count"] == 2 and abs(note.arguments["seconds"] - 3.05) < 1e-9
    heard.no_words = heard.no_words[:1]
    assert str(wordless_note(heard)) == "1 stretch of speech had no words (1.8 s): see it on the timeline"
    heard.no_words = []
    err = io.StringIO()
    print_wordless(made, err)
    assert wordless_note(heard) is None and err.getvalue() == ""


def test_a_speaker_with_no_lines_is_counted_but_is_no_character(tmp_path: Path) -> None:
    """A third voice the segmentation model heard with no line (speaker 2, after the two with
    lines): the CLI counts it apart, no character is made for it, and its speech with no words is
    kept with no character (the timeline shows it as no one's)."""
    project = Project.create(tmp_path / "p", "Lineless")
    heard = Transcription(30.0, "en", 0.98, [], 2, no_words=[Unheard(3.2, 5.0, 2), Unheard(7.0, 8.25, 0)],
                          speakers_without_lines=1)
    characters = _speakers_as_characters(project, heard)
    assert [c.name for c in characters] == ["Speaker 1", "Speaker 2"] and heard.speakers_heard == 3
    _write_candidates(project, heard, characters, WrittenFiles(project.root))
    stored = json.loads((project.media_dir / CANDIDATES_FILE).read_text(encoding="utf-8"))["no_words"]
    assert [stretch["character_id"] for stretch in stored] == [None, characters[0].id]
    out = io.StringIO()
    print_result(TranscribedScript(heard, characters, [], ReplaceScript([], [], "en"), WrittenFiles(project.root)), out)
    assert "2 speakers and 1 with no lines, 30.0 s" in out.getvalue()
