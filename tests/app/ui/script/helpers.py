"""The script table's tests' starting point (a new project with Maya on her bundled clip) and
their QA runner (the real checker, in the test's process)."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.project import AddCharacter, Character, Project
from app.project.qa import QaOutcome, QaRequest, TakeChecker
from app.ui.window.document import Document
from tests.app.ui.paths import REPO


def document_with_maya(folder: Path, title: str) -> tuple[Document, Character]:
    """A new project in ``folder``, open in a Document, with one character, Maya, whose clip is
    resources/voices/maya.wav copied into the project."""
    project = Project.create(folder, title)
    shutil.copy(REPO / "resources/voices/maya.wav", project.voices_dir / "maya.wav")
    document = Document(project)
    maya = project.make_character("Maya", clip="voices/maya.wav")
    document.push(AddCharacter(maya))
    return document, maya


class InlineQaRunner:
    """Checks each take in this process with the real checker (the studio's runner does the same
    in a low-priority process; here the test need not wait for one). ``held``: the results are
    held back until ``release``, so the test decides when a check that is in flight comes back."""

    def __init__(self, held: bool = False) -> None:
        self._checker = TakeChecker()
        self._held = held
        self._submitted: list[QaRequest] = []
        self._ready: list[QaOutcome] = []

    @property
    def pending(self) -> int:
        return len(self._submitted) + len(self._ready)

    def submit(self, request: QaRequest) -> None:
        self._submitted.append(request)
        if not self._held:
            self.release()

    def release(self) -> None:
        self._ready += [self._checker.check(request) for request in self._submitted]
        self._submitted = []

    def poll(self, timeout: float = 0.0) -> list[QaOutcome]:
        ready, self._ready = self._ready, []
        return ready

    def close(self) -> None:
        self._submitted, self._ready = [], []
