"""Project settings has the target language (issue 31): the language table's entries, the
project's own chosen, and OK's one undoable edit makes the characters speak it."""

from __future__ import annotations

from pathlib import Path

from app.project import Project
from app.ui.settings.project_dialog import ProjectSettingsDialog
from app.ui.window.document import Document
from engine.core.languages import LANGUAGES


def test_the_target_language_is_chosen_in_project_settings(qapp: object, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "p", "T")
    project.characters.append(project.make_character("Maya"))
    document = Document(project)
    dialog = ProjectSettingsDialog(project)
    combo = dialog.target_language
    assert [combo.itemData(i) for i in range(combo.count())] == ["", *LANGUAGES]
    assert combo.currentData() == "" and dialog.command() is None
    assert combo.itemText(combo.findData("zh")) == "Chinese (Mandarin) (zh)"
    combo.setCurrentIndex(combo.findData("zh"))
    dialog.title.setText("Scene 2")
    command = dialog.command()
    assert command is not None and document.push(command)
    assert (project.title, project.target_language, project.characters[0].settings.language) == ("Scene 2", "zh", "zh")
    document.undo()  # the title and the language in one step
    assert (project.title, project.target_language, project.characters[0].settings.language) == ("T", "", "")
    assert ProjectSettingsDialog(project).target_language.currentData() == ""
