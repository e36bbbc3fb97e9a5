"""A range's check is the only one (issue 29): the same bad value gets the same code and the same
sentence from the command line, from a studio form's validation or commit, from the project
loader (project.json) and from the engine, because each of them calls ``Range.check``.

Each case sends one bad value through every path that takes it; the sentence is the range's own
refusal (``Range.refusal``), so a second check written anywhere with other words fails here.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.cli import main
from app.project import EditCharacter, EditProject, Project
from app.project.errors import ProjectFileError
from app.ui.engine.backend_form import BackendOptionsForm
from app.ui.folders import Folders
from app.ui.script.speed_box import SpeedBox
from app.ui.stress.controls import RunControls
from app.ui.window.document import Document
from engine.core.codes import ErrorCode
from engine.core.numbers import Range
from engine.core.protocol import SLOTS, SPEED, VoiceSettings
from engine.hearing.qa.checks import QA_THRESHOLD_RANGES
from engine.load.plans import LEVEL, PlanError
from engine.synthesis.backends import COSYVOICE2_SPEED, PIPER
from engine.synthesis.client.local import EngineClient, EngineStartError
from engine.synthesis.config import EngineConfig
from engine.synthesis.serve.config import ServeConfigError, ServeOptions
from tests.app.project.conftest import make_project


def refused(allowed: Range, value: object) -> str:
    """What every path says: the range's code, then (after where, for a file) its one sentence."""
    return f"{allowed.code}: {allowed.refusal(value)}"


def cli_refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The command's last line on stderr; a refused number ends it with exit status 2 (argparse's
    usage error as it reads an option, or the command's own refusal)."""
    try:
        status = main(argv)
    except SystemExit as usage:
        status = usage.code
    assert status == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def load_refusal(project: Project, edit: Any) -> ProjectFileError:
    data = json.loads(project.project_file.read_text(encoding="utf-8"))
    edit(data)
    project.project_file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProjectFileError) as caught:
        Project.load(project.root)
    return caught.value


def edit_refusal(qtbot: QtBot, document: Document, command: Any) -> str:
    """What the studio says when a form commits the edit (Document.push, as every form does)."""
    with qtbot.waitSignal(document.error) as error:
        assert not document.push(command)
    message: str = error.args[0]
    return message


def test_a_speed_of_9(qtbot: QtBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sentence = refused(SPEED, 9.0)
    assert sentence == ("E_BAD_SETTING: speed must be a number from 0.25 to 4× (1 = the voice's own rate, "
                        "2 = twice as fast), got 9.0")
    # the command line: say --speed 9, refused as it is read
    assert cli_refusal(["say", "Hello.", "--out", str(tmp_path / "x.wav"), "--speed", "9"], capsys).endswith(
        f"argument --speed: {sentence}")
    # the project loader: a character's speed and a line's own speed in project.json
    project = make_project(tmp_path / "scene")
    for edit, where in ((lambda d: d["characters"][0]["settings"].update(speed=9), "characters[0]"),
                        (lambda d: d["lines"][0].update(speed=9), "lines[0]")):
        project.save()
        error = load_refusal(project, edit)
        assert error.code is ErrorCode.BAD_SETTING and str(error) == sentence.replace(": ", f": {where}: ", 1)
    # the studio: the Characters panel commits a speed as this edit
    document = Document(make_project(tmp_path / "studio"))
    maya = document.project.characters[0]
    assert edit_refusal(qtbot, document, EditCharacter(maya.id, settings=VoiceSettings(speed=9.0))) == sentence


def test_a_speed_the_backend_does_not_speak_at(qtbot: QtBot, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    sentence = refused(COSYVOICE2_SPEED, 3.0)
    assert sentence.endswith("on CosyVoice2-0.5B, got 3.0")
    # the command line: before any engine starts
    assert cli_refusal(["say", "Hello.", "--out", str(tmp_path / "x.wav"), "--backend", "cosyvoice2",
                        "--model-dir", str(tmp_path), "--speed", "3"], capsys) == f"dubstudio: {sentence}"
    # the studio's speed box: a stored speed it cannot offer, and the engine's refusal of it
    box = SpeedBox()
    qtbot.addWidget(box)
    box.set_range(COSYVOICE2_SPEED)
    box.show_speed(3.0, "")
    assert COSYVOICE2_SPEED.refusal(3.0) in box.toolTip()


def test_a_slot_count_out_of_range(qtbot: QtBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for slots in (0, 17):
        sentence = refused(SLOTS, slots)
        # the command line (any command that starts an engine), the engine's client, a server's configuration
        assert cli_refusal(["say", "Hello.", "--out", str(tmp_path / "x.wav"), "--slots", str(slots)],
                           capsys).endswith(f"argument --slots: {sentence}")
        with pytest.raises(EngineStartError) as started:
            EngineClient(EngineConfig(slots=slots)).start()
        assert f"{started.value.code}: {started.value}" == sentence
        with pytest.raises(ServeConfigError) as served:
            ServeOptions(slots=slots).validate()
        assert str(served.value) == sentence


def test_a_backend_option_out_of_range(qtbot: QtBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noise = PIPER.option("noise_scale").range
    assert noise is not None
    sentence = f"E_BAD_OPTION: backend option 'noise_scale' of piper: {noise.refusal(9.0)}"
    # the command line
    assert cli_refusal(["say", "Hello.", "--out", str(tmp_path / "x.wav"), "--backend", "piper",
                        "--backend-option", "noise_scale=9"],
                       capsys) == f"dubstudio: {sentence}"
    # the studio's form (the Settings dialog's and the stress panel's): the value typed into its field
    form = BackendOptionsForm(PIPER)
    qtbot.addWidget(form)
    field = form.editor("noise_scale")
    assert isinstance(field, QLineEdit)
    field.setText("9")
    assert str(form.problem()) == sentence
    # the engine's client, with the options a settings file holds
    with pytest.raises(EngineStartError) as started:
        EngineClient(EngineConfig(backend="piper", backend_options={"noise_scale": 9.0})).start()
    assert f"{started.value.code}: {started.value}" == sentence


def test_a_qa_threshold_out_of_range(qtbot: QtBot, tmp_path: Path) -> None:
    max_wer = QA_THRESHOLD_RANGES["max_wer"]
    sentence = refused(max_wer, 11.5)
    assert sentence == "E_INVALID_VALUE: max_wer must be a number from 0 to 10, got 11.5"
    # the project loader
    project = make_project(tmp_path / "scene")
    error = load_refusal(project, lambda d: d["settings"].setdefault("qa", {}).update(max_wer=11.5))
    assert error.code is ErrorCode.INVALID_VALUE and str(error) == sentence.replace(": ", ": settings.qa: ", 1)
    # the studio: the Project settings dialog commits its thresholds as this edit; NaN too
    document = Document(make_project(tmp_path / "studio"))
    thresholds = document.project.settings.qa
    for value in (11.5, float("nan")):
        assert edit_refusal(qtbot, document, EditProject(qa=dataclasses.replace(thresholds, max_wer=value))) == \
            refused(max_wer, value)


def test_a_load_level_out_of_range(qtbot: QtBot, capsys: pytest.CaptureFixture[str]) -> None:
    sentence = refused(LEVEL, 0)
    assert sentence == "E_PLAN: level must be a whole number from 1 to 10000, got 0"
    # the command line
    assert cli_refusal(["bench", "--levels", "0,2", "-q"], capsys).endswith(f"argument --levels: {sentence}")
    # the stress panel's levels field
    controls = RunControls(Folders())
    qtbot.addWidget(controls)
    controls.levels_edit.setText("0,2")
    with pytest.raises(PlanError) as planned:
        controls.plan()
    assert str(planned.value) == sentence
