"""Project › Save to cast library, Cast from library and Browse the cast library: a series'
characters kept in a shared folder (app.project.cast) and given back to a new episode by voice.

Both run off the GUI thread (app.ui.tasks). Saving locks the library while it writes (a second
writer waits, then fails with E_CAST_LOCKED); casting copies the library's clips into voices/ in
the background and pushes the renames and settings as one undoable edit on the GUI thread. Every
character's outcome is listed in Messages: which library character, and how sure.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.project.cast import (
    CastMatch,
    add_characters,
    open_library,
    recast_from_library,
    writing,
)
from app.project.undo import EditCharacters
from app.ui.characters.cast_library_dialog import CastLibraryDialog
from app.ui.language import fill, listed, say, speaker_name
from app.ui.tasks import Operation, QueryOp
from app.ui.timeline.transcribe_dialog import CAST_LIBRARIES
from app.ui.window_controller import WindowController

if TYPE_CHECKING:
    from app.ui.window.main_window import MainWindow


class CastController(WindowController):
    object_name = "castController"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.dialog: CastLibraryDialog | None = None  # the library browser open now (tests drive it)

    def _library(self, folder: Path | None, title: str) -> Path | None:
        """``folder``, else the one the user chooses under ``title``; None without a project open
        or when the choice is cancelled."""
        if self.window.session is None:
            return None
        if folder is None:
            chosen = self.window.folders.folder(self.window, CAST_LIBRARIES, title)
            folder = Path(chosen) if chosen else None
        return folder

    def browse_library(self, folder: Path | None = None) -> CastLibraryDialog | None:
        """List a cast library's characters: play their clips, remove one."""
        folder = self._library(folder, self.tr("Choose a cast library folder"))
        if folder is None:
            return None
        dialog = CastLibraryDialog(self.window, folder, self.window.runner, self.window.player.play)
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

    def save_to_library(self, folder: Path | None = None) -> None:
        """Every character that has a clip, saved under its name (a library is made if missing)."""
        folder = self._library(folder, self.tr("Save the cast to a library folder"))
        session = self.window.session
        if folder is None or session is None:
            return
        project = session.project

        def work(_operation: Operation) -> list[tuple[str, str]]:
            from app.project.transcription import episode_recording
            from engine.voiceprint.encoder import CamppSpeakerEncoder

            with writing(folder, "DubStudio (Save to cast library)", create=True) as library:
                return add_characters(library, project, None, CamppSpeakerEncoder(),
                                      lambda character: episode_recording(project, character))

        def done(saved: list[tuple[str, str]]) -> None:
            if not saved:
                self.window.messages.say(self.tr("No character has a voice clip to save yet"))
                return
            added = [name for name, what in saved if what == "added"]
            self.window.messages.notify(fill(self.tr("Saved to the cast library {0}: {1} new, {2} updated ({3})"), folder, len(added), len(saved) - len(added), listed(say(name) for name, _ in saved)))

        def failed(error: Exception) -> None:
            self.window.messages.error(self.tr("Cannot save to the cast library"), str(error))

        self.window.runner.start(QueryOp(work, done, failed, name=self.tr("saving to the cast library")))

    def cast_from_library(self, folder: Path | None = None) -> None:
        """The project's characters matched by voice against a library: sure matches become the
        library's characters (one undoable edit), unsure ones are named, not cast."""
        folder = self._library(folder, self.tr("Choose a cast library folder"))
        session = self.window.session
        if folder is None or session is None:
            return
        document = session.document

        def work(_operation: Operation) -> tuple[list[CastMatch], dict[str, dict[str, Any]]]:
            from engine.voiceprint.encoder import CamppSpeakerEncoder

            return recast_from_library(document.project, open_library(folder), CamppSpeakerEncoder(), speaker_name())

        def done(result: tuple[list[CastMatch], dict[str, dict[str, Any]]]) -> None:
            matches, changes = result
            if changes and not document.push(EditCharacters(changes, self.tr("Cast from library"))):
                return
            for match in matches:  # a sure cast or a new voice is news; an unsure one is to decide
                (self.window.messages.warn if match.needs_attention else self.window.messages.notify)(
                    say(match.describe()))
            if not matches:  # "Cast 0 of 0" would send the user to Messages for nothing
                self.window.messages.notify(fill(self.tr(
                    "Nothing to match against the library {folder}: only a character with a clip, and a name that is "
                    "not already one of the library's, is matched. Give the others a clip first."), folder=folder))
                return
            self.window.messages.notify(fill(self.tr("Cast {cast} of {matched} from the library {folder}; Messages "
                                                     "says how sure each match is"), cast=len(changes),
                                             matched=self.tr("%n character(s)", "", len(matches)), folder=folder))

        def failed(error: Exception) -> None:
            self.window.messages.error(self.tr("Cannot cast from the library"), str(error))

        self.window.runner.start(QueryOp(work, done, failed, name=self.tr("casting from the library")))
