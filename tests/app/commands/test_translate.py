"""`dubstudio translate` against a local chat-completions server: progress on stderr, the exit
statuses, the key kept apart (never in project.json or the output), and Ctrl+C leaving the
project as it was."""

from __future__ import annotations

import io
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.commands.exit_codes import ExitCode
from app.project import Project
from engine.core.paths import REPO_ROOT
from engine.translation import keys
from tests.app.project.test_project_translation import (
    SECRET,
    english,
    make_project,
    snapshot,
)
from tests.engine.translation.chat_server import Asked, answer, chat_server


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setattr(keys, "keyring_usable", lambda: False)
    for name in ("DUBSTUDIO_TRANSLATOR_URL", "DUBSTUDIO_TRANSLATOR_MODEL", "DUBSTUDIO_TRANSLATOR_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "config"


def translate(project: Path, url: str, *more: str) -> list[str]:
    return ["translate", str(project), "--to", "en", "--endpoint", url, "--model", "scripted", *more]


def test_translate_reports_progress_and_fit_and_saves_the_drafts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    root = make_project(tmp_path / "p").root
    monkeypatch.setenv("DUBSTUDIO_TRANSLATOR_KEY", SECRET)
    with chat_server(english) as server:
        status = main(translate(root, server.url, "--batch", "2"))
    out, err = capsys.readouterr()
    assert status == ExitCode.OK
    assert "translating: 2/4 lines" in err and "translating: 4/4 lines" in err
    assert "Translated 4 lines" in out and "(2 requests)" in out
    assert server.asked[0].headers["Authorization"] == f"Bearer {SECRET}"
    project = Project.load(root)
    assert [line.draft for line in project.lines] == [True] * 4 and project.target_language == "en"
    assert SECRET not in out + err and SECRET not in project.project_file.read_text(encoding="utf-8")


def test_only_the_lines_asked_for_are_translated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_project(tmp_path / "p").root
    with chat_server(english) as server:
        assert main(translate(root, server.url, "--lines", "2-3")) == ExitCode.OK
    assert [line.draft for line in Project.load(root).lines] == [False, True, True, False]
    assert main(translate(root, server.url, "--lines", "7")) == ExitCode.BAD_INPUT
    assert "E_INVALID_VALUE: --lines: '7' is outside 1-4" in capsys.readouterr().err


def test_a_translator_failure_exits_8_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = make_project(tmp_path / "p").root
    before = snapshot(root)
    monkeypatch.setenv("DUBSTUDIO_TRANSLATOR_KEY", SECRET)
    with chat_server(lambda asked: (401, {"error": {"message": "invalid api key"}}, {})) as server:
        assert main(translate(root, server.url)) == ExitCode.TRANSLATOR
    out, err = capsys.readouterr()
    assert "E_TRANSLATOR_KEY" in err and SECRET not in out + err
    assert snapshot(root) == before


def test_without_an_endpoint_it_says_what_it_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_project(tmp_path / "p").root
    assert main(["translate", str(root), "--to", "zh"]) == ExitCode.BAD_INPUT
    assert "E_TRANSLATOR: the openai translator needs an endpoint and a model" in capsys.readouterr().err
    assert main(["translate", str(root), "--to", "zh", "--translator", "whisper", "--endpoint", "http://x/v1",
                 "--model", "m"]) == ExitCode.BAD_INPUT
    assert "E_TRANSLATION_TARGET" in capsys.readouterr().err


def test_set_key_keeps_the_key_apart_and_the_endpoint_for_the_next_run(tmp_path: Path, config: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    root = make_project(tmp_path / "p").root
    with chat_server(english) as server:
        monkeypatch.setattr(sys, "stdin", io.StringIO(SECRET + "\n"))
        assert main(translate(root, server.url, "--lines", "1", "--set-key")) == ExitCode.OK
        assert main(["translate", str(root), "--to", "en", "--lines", "2"]) == ExitCode.OK  # the endpoint last used
    assert [asked.headers["Authorization"] for asked in server.asked] == [f"Bearer {SECRET}"] * 2
    kept = config / keys.KEYS_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and SECRET in kept.read_text()
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert all(SECRET not in path.read_text(errors="replace") for path in root.rglob("*") if path.is_file())


def test_ctrl_c_while_the_server_thinks_leaves_the_project_unchanged(tmp_path: Path, config: Path) -> None:
    root = make_project(tmp_path / "p").root
    before = snapshot(root)
    arrived = threading.Event()

    def hold(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        if len(server.asked) == 1:
            return english(asked)  # the first batch is translated; Ctrl+C comes during the second
        arrived.set()
        server.release.wait(60)
        return answer({})

    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), keys.CONFIG_ENV: str(config)}
    with chat_server(hold) as server:
        command = subprocess.Popen([sys.executable, "-m", "app.cli", *translate(root, server.url, "--batch", "2")],
                                   cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert arrived.wait(60)
        command.send_signal(signal.SIGINT)
        out, err = command.communicate(timeout=60)
    assert command.returncode == ExitCode.INTERRUPTED, err
    assert "translating: 2/4 lines" in err and "interrupted" in err and "Traceback" not in err
    assert snapshot(root) == before


BILINGUAL_SRT = ("1\n00:00:01,000 --> 00:00:02,500\n小明：你怎么才来？\nWhy are you so late?\n\n"
                 "2\n00:00:03,000 --> 00:00:04,500\n小红：路上堵车了。\nThe traffic was terrible.\n\n"
                 "3\n00:00:05,000 --> 00:00:06,500\n小明：下次早点出门。\n")


def bilingual_project(root: Path) -> Path:
    """A project made from a drama's bilingual subtitles, the English rows kept as the script, as
    `new --keep-language en` and the studio's import make it; the third cue has no English row."""
    from app.project.script_io import import_script
    from app.project.translation import SetTargetLanguage
    from app.project.undo import CommandStack

    project = Project.create(root, "Drama")
    subtitles = root.parent / "ep01.srt"
    subtitles.write_text(BILINGUAL_SRT, encoding="utf-8")
    stack = CommandStack(project)
    stack.push(import_script(subtitles, project).keeping("en").command())
    stack.push(SetTargetLanguage("en", original="zh"))
    project.save()
    return project.root


def test_translating_every_line_keeps_the_translation_a_bilingual_file_brought(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The subtitles' own English is a person's translation: `translate --to en` replaced it with a
    machine's draft. Only the line without one is translated; named lines are translated again."""
    root = bilingual_project(tmp_path / "p")
    with chat_server(english) as server:
        assert main(translate(root, server.url)) == ExitCode.OK
    out = capsys.readouterr().out
    assert [entry["text"] for entry in server.asked[0].lines.values()] == ["下次早点出门。"]
    assert "kept 2 lines already translated into en by a person" in out, out
    lines = Project.load(root).lines
    assert [(line.text, line.draft) for line in lines] == [("Why are you so late?", False),
                                                            ("The traffic was terrible.", False),
                                                            ("EN 下次早点出门。", True)]
    with chat_server(english) as server:
        assert main(translate(root, server.url, "--lines", "1")) == ExitCode.OK
    assert Project.load(root).lines[0].text == "EN 你怎么才来？"
    # Into another language, every line goes: its English is no Spanish.
    with chat_server(english) as server:
        into_spanish = translate(root, server.url)
        into_spanish[into_spanish.index("--to") + 1] = "es"
        assert main(into_spanish) == ExitCode.OK
    assert len(server.asked[0].lines) == 3


def test_translating_when_every_line_has_its_translation_says_so(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = bilingual_project(tmp_path / "p")
    project = Project.load(root)
    project.lines[2].source_text, project.lines[2].text = project.lines[2].text, "Leave earlier next time."
    project.save()
    before = snapshot(root)
    with chat_server(english) as server:
        assert main(translate(root, server.url)) == ExitCode.BAD_INPUT
    assert not server.asked and snapshot(root) == before
    assert "every line already holds a translation into English" in capsys.readouterr().err


def test_a_translated_sheet_reimported_keeps_its_translation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A team's sheet with the original beside each translated row (the CSV the studio exports),
    imported into a project that does not say its target language yet: translating into Chinese
    replaced the sheet's Chinese; an English row with no translation yet goes."""
    from app.project.script_io import import_script
    from app.project.undo import CommandStack

    project = Project.create(tmp_path / "p", "Drama")
    sheet = tmp_path / "ep01.csv"
    sheet.write_text("character,text,start,end,source,draft\nMaya,你怎么才来？,1,2,Why are you so late?,\n"
                     "Rex,Traffic was terrible.,3,4,,\n", encoding="utf-8")
    CommandStack(project).push(import_script(sheet, project).command())
    project.save()
    with chat_server(english) as server:
        arguments = translate(project.root, server.url)
        arguments[arguments.index("--to") + 1] = "zh"
        assert main(arguments) == ExitCode.OK
    assert [entry["text"] for entry in server.asked[0].lines.values()] == ["Traffic was terrible."]
    kept, translated = Project.load(project.root).lines
    assert (kept.text, kept.draft) == ("你怎么才来？", False) and translated.draft
