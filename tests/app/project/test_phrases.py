"""The sentences app/project makes for people are phrases: English as they were, with the template
and arguments the studio needs to say them in its own language (issue 31)."""

from __future__ import annotations

import copy
import pickle

from app.project import phrases
from app.project.phrases import LanguageName, Phrase, counted
from app.project.readiness import CharacterWithoutClip, LineWithoutCharacter, VoiceGaps
from app.project.timing import LineTiming, VoicePace
from app.project.undo import RemoveLines, replace_in_lines
from engine.core.languages import MANDARIN


def test_a_phrase_is_its_english_sentence_and_keeps_its_template() -> None:
    phrase = Phrase(phrases.LIKELY_TOO_LONG, expected=2.94, slot=2.0)
    assert phrase == "Likely too long: about 2.9 s of speech for a 2.00 s slot."
    assert (phrase.template, phrase.arguments) == (phrases.LIKELY_TOO_LONG, {"expected": 2.94, "slot": 2.0})
    for again in (copy.deepcopy(phrase), pickle.loads(pickle.dumps(phrase))):  # undo stacks and workers copy them
        assert again == phrase and again.template == phrase.template and again.arguments == phrase.arguments


def test_counted_picks_the_sentence_for_one_or_many() -> None:
    assert counted(1, phrases.REMOVE_LINE, phrases.REMOVE_LINES) == "Remove line"
    assert counted(3, phrases.REMOVE_LINE, phrases.REMOVE_LINES) == "Remove 3 lines"
    assert RemoveLines(["a", "b"]).text.template == phrases.REMOVE_LINES


def test_readiness_sentences_are_phrases_whose_problems_are_phrases_too() -> None:
    gaps = VoiceGaps((LineWithoutCharacter("l3", 3, "Who said that?"),),
                     (CharacterWithoutClip("maya", "Maya", 1),))
    line, character = gaps.describe()
    assert line == "line 3 has no character: 'Who said that?'"  # the CLI's words, unchanged
    assert character == "character 'Maya' has no reference clip; 1 line waits for it"
    assert isinstance(character, Phrase) and character.arguments["problem"].template == phrases.NO_CLIP


def test_timing_warnings_name_the_language_by_a_phrase_of_its_own() -> None:
    timing = LineTiming(slot_s=1.0, characters=12, words=1, expected_s=2.7, pace=VoicePace(4.5, 0), overlaps=(),
                        rules=MANDARIN)
    too_fast, too_long = timing.warnings()
    assert too_fast.startswith("Too fast to say naturally: 12.0 characters/s (over 9 in Chinese (Mandarin))")
    assert isinstance(too_fast.arguments["language"], LanguageName) and too_long.template == phrases.LIKELY_TOO_LONG


def test_an_undo_text_made_of_a_users_word_keeps_it_as_an_argument(tmp_path) -> None:
    from app.project import Line, Project

    project = Project.create(tmp_path / "p", "T")
    project.lines.extend([Line(id="a", text="the ship"), Line(id="b", text="a ship")])
    command = replace_in_lines(project, "ship", "boat")
    assert command is not None and command.text == "Replace 'ship' in 2 lines"
    assert command.text.arguments == {"count": 2, "find": "ship"}
