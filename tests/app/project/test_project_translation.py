"""A project's lines translated through the chat translator (against a local chat-completions
server): applied all at once as one undoable edit, or not at all; the glossary and the target
language stored in project.json, the key never."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from app.project import Project
from app.project.errors import InvalidValueError, ProjectFileError
from app.project.model import Line, LineBudget
from app.project.translation import (
    EditGlossary,
    TranslateError,
    TranslateRequest,
    make_translator,
    shorten_lines,
    translate_project,
)
from app.project.undo import CommandStack
from engine.core.codes import ErrorCode
from engine.core.protocol import VoiceSettings
from engine.translation.chat import Endpoint
from engine.translation.glossary import GlossaryEntry
from engine.translation.lines import Budget, TranslatedLine
from tests.engine.translation.chat_server import Asked, answer, chat_server, completion

SECRET = "sk-project-test-key-42"


def make_project(root: Path) -> Project:
    project = Project.create(root, "Harbour")
    project.language = "zh"
    wei = project.make_character("张伟", settings=VoiceSettings(language="zh"))
    li = project.make_character("李娜")
    project.characters += [wei, li]
    texts = ["今晚灯塔没有亮。", "一定有人切断了电源。", "张伟，快走！", "去龙门。"]
    project.lines += [Line(f"l{n}", text, (wei if n % 2 else li).id, start=2.0 * n, end=2.0 * n + 1.6)
                      for n, text in enumerate(texts, 1)]
    project.save()
    return project


def snapshot(root: Path) -> dict[str, str]:
    return {str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file()}


def request(url: str, **options: Any) -> TranslateRequest:
    return TranslateRequest("en", Endpoint(url, "scripted", SECRET, timeout_s=5), **options)


def english(asked: Asked) -> tuple[int, Any, dict[str, str]]:
    return answer({n: f"EN {entry['text']}" for n, entry in asked.lines.items()})


def run(project: Project, url: str, **options: Any) -> CommandStack:
    stack = CommandStack(project)
    req = request(url, **options)
    translator = make_translator(req)
    translator.backoff_s = 0.01
    stack.push(translate_project(project, req, translator))
    return stack


def test_the_lines_come_in_as_drafts_keeping_their_original_and_one_undo_takes_them_out(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    with chat_server(english) as server:
        stack = run(project, server.url)
    assert [line.text for line in project.lines] == ["EN 今晚灯塔没有亮。", "EN 一定有人切断了电源。", "EN 张伟，快走！",
                                                     "EN 去龙门。"]
    assert [line.source_text for line in project.lines] == ["今晚灯塔没有亮。", "一定有人切断了电源。", "张伟，快走！", "去龙门。"]
    assert all(line.draft for line in project.lines)
    assert project.target_language == "en"
    assert {c.settings.language for c in project.characters} == {"en"}  # the characters follow it
    speakers = [entry.get("speaker") for entry in server.asked[0].lines.values()]
    assert speakers == ["张伟", "李娜", "张伟", "李娜"]
    assert stack.undo_text == "Translate 4 lines"
    stack.undo()
    assert [line.text for line in project.lines] == ["今晚灯塔没有亮。", "一定有人切断了电源。", "张伟，快走！", "去龙门。"]
    assert not any(line.draft or line.source_text for line in project.lines)
    assert project.target_language == "" and project.characters[0].settings.language == "zh"


def test_each_line_goes_with_its_budget_from_the_language_table(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    project.lines[3].end = None  # no slot, no budget
    with chat_server(english) as server:
        run(project, server.url)
        stack = CommandStack(project)
        req = TranslateRequest("zh", Endpoint(server.url, "scripted"))
        stack.push(translate_project(project, req, make_translator(req)))
    sent_en, sent_zh = (list(asked.lines.values()) for asked in server.requests_of("translate"))
    # 1.6 s slots: 14 English letters a second, 4.5 Chinese characters (engine/core/languages.py)
    assert [entry.get("max_letters") for entry in sent_en] == [22, 22, 22, None]
    assert [entry.get("max_characters") for entry in sent_zh] == [7, 7, 7, None]
    assert project.lines[0].budget == LineBudget(7, "characters", 9, True)  # "EN 今晚灯塔没有亮。": 9 over 7
    assert project.lines[3].budget is None


def test_a_translated_line_is_translated_again_from_its_original(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    with chat_server(english) as server:
        run(project, server.url)
        run(project, server.url, line_ids=("l2",))
    assert server.asked[-1].lines == {"1": {"text": "一定有人切断了电源。", "speaker": "李娜", "max_letters": 22}}
    assert project.lines[1].text == "EN 一定有人切断了电源。" and project.lines[1].source_text == "一定有人切断了电源。"
    # the neighbours go as context with the translation they have
    assert server.asked[-1].request["context_before"][0]["translation"] == "EN 今晚灯塔没有亮。"


def test_the_target_language_glossary_and_budgets_are_kept_in_project_json_and_the_key_is_not(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    project = make_project(tmp_path / "p")
    stack = CommandStack(project)
    stack.push(EditGlossary([GlossaryEntry("张伟", "Zhang Wei", "name"), GlossaryEntry("龙门", "Dragon Gate")]))
    with chat_server(english) as server:
        run(project, server.url)
    project.lines[0].budget = LineBudget(6, "letters", 9, True)
    project.save()
    text = project.project_file.read_text(encoding="utf-8")
    assert SECRET not in text and SECRET not in caplog.text
    assert all(SECRET not in path.read_text(errors="replace") for path in project.root.rglob("*") if path.is_file())
    loaded = Project.load(project.root)
    assert loaded.target_language == "en"
    assert loaded.glossary == project.glossary and loaded.glossary[0].kind == "name"
    assert loaded.lines[0].budget == LineBudget(6, "letters", 9, True)
    sent = server.asked[0].request["glossary"]
    assert [entry["target"] for entry in sent] == ["Zhang Wei", "Dragon Gate"]


@pytest.mark.parametrize(("change", "says"), [
    (lambda data: data.update(glossary=[{"source": "", "target": "x"}]), "source wording is empty"),
    (lambda data: data.update(glossary=["张伟"]), "glossary[0]: expected an object"),
    (lambda data: data.update(target_language="english please"), "not a language code"),
    (lambda data: data["lines"][0].update(budget={"limit": 0, "unit": "letters"}), "a budget is a whole number"),
    (lambda data: data["lines"][0].update(budget={"limit": 5, "unit": "syllables"}), "a budget is a whole number"),
])
def test_a_glossary_target_language_or_budget_that_cannot_be_is_refused_at_load(tmp_path: Path, change: Any,
                                                                                  says: str) -> None:
    project = make_project(tmp_path / "p")
    data = json.loads(project.project_file.read_text(encoding="utf-8"))
    change(data)
    project.project_file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    assert says in caught.value.message


def test_a_glossary_edit_that_cannot_be_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    with pytest.raises(InvalidValueError):
        CommandStack(project).push(EditGlossary([GlossaryEntry("张伟", "Zhang Wei"), GlossaryEntry("张伟", "Wei")]))
    assert project.glossary == []


FAILURES = {
    "unreachable": (None, ErrorCode.TRANSLATOR_UNREACHABLE),
    "nonsense": (lambda asked: (200, completion("I cannot help with that."), {}), ErrorCode.TRANSLATION_ANSWER),
    "too few lines": (lambda asked: answer({"1": "one"}), ErrorCode.TRANSLATION_ANSWER),
    "bad key": (lambda asked: (401, {"error": {"message": "invalid api key"}}, {}), ErrorCode.TRANSLATOR_KEY),
    "rate limit": (lambda asked: (429, {}, {"Retry-After": "0"}), ErrorCode.TRANSLATOR_RATE_LIMIT),
    "context": (lambda asked: (400, {"error": {"message": "maximum context length exceeded"}}, {}),
                ErrorCode.TRANSLATION_CONTEXT),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_every_failure_leaves_the_project_unchanged_even_after_some_batches_were_translated(
        tmp_path: Path, failure: str) -> None:
    project = make_project(tmp_path / "p")
    before = snapshot(project.root)
    in_memory = [(line.text, line.source_text, line.draft) for line in project.lines]
    script, code = FAILURES[failure]

    def reply(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        if len(server.asked) == 1:  # the first batch goes through; the failure comes after it
            return english(asked)
        assert script is not None
        return script(asked)

    with chat_server(reply) as server:
        url = server.url if script is not None else "http://127.0.0.1:9/v1"
        with pytest.raises(TranslateError) as caught:
            run(project, url, batch_lines=2)
    assert caught.value.code is code
    assert SECRET not in str(caught.value)
    assert [(line.text, line.source_text, line.draft) for line in project.lines] == in_memory
    assert project.target_language == "" and snapshot(project.root) == before


def test_shorten_to_fit_offers_a_shorter_wording_as_one_undoable_edit(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    project.target_language = "en"
    project.lines[0].text, project.lines[0].source_text, project.lines[0].draft = (
        "Tonight the lighthouse was not lit at all", "今晚灯塔没有亮。", False)
    project.lines[0].budget = LineBudget(20, "letters", 34)
    with chat_server(lambda asked: answer({"1": "The light's out tonight."})) as server:
        translator = make_translator(request(server.url))
        stack = CommandStack(project)
        stack.push(shorten_lines(project, ["l1"], translator))
    asked = server.asked[0]
    assert asked.shortening and asked.lines["1"]["text"] == "Tonight the lighthouse was not lit at all"
    assert asked.lines["1"]["source"] == "今晚灯塔没有亮。"
    line = project.lines[0]
    assert (line.text, line.source_text, line.draft) == ("The light's out tonight.", "今晚灯塔没有亮。", True)
    stack.undo()
    assert project.lines[0].text == "Tonight the lighthouse was not lit at all" and not project.lines[0].draft


def test_whisper_cannot_translate_a_script_and_an_unknown_translator_or_language_is_refused() -> None:
    endpoint = Endpoint("http://127.0.0.1:9/v1", "m")
    for req, code in ((TranslateRequest("en", endpoint, translator="whisper"), ErrorCode.TRANSLATOR),
                      (TranslateRequest("en", endpoint, translator="deepl"), ErrorCode.TRANSLATOR),
                      (TranslateRequest("english", endpoint), ErrorCode.TRANSLATION_TARGET)):
        with pytest.raises(TranslateError) as caught:
            make_translator(req)
        assert caught.value.code is code


def test_the_result_records_each_line_budget_and_fit() -> None:
    result = TranslatedLine("a", "one two three four five", Budget(15, "letters"), 24, True)
    assert (result.length, result.fits) == (19, False)
    assert TranslatedLine("b", "好的", Budget(3, "characters")).fits is True
