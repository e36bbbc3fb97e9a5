"""The original-audio track's context menu: a stretch dragged over it becomes a character's voice
clip (app.project.transcription.cut_region, cut in the background by the Characters panel and
pushed as one undoable edit); a stretch of speech the transcription heard no words in gets a line
(the script's own add-line, timed over the stretch)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu, QWidget

from app.project.project import Project
from app.project.timecode import format_clock
from app.project.transcription import VOICE_REGION
from app.ui.language import fill, number
from app.ui.timeline.drawing import Wordless


def region_menu(parent: QWidget, project: Project, region: tuple[float, float] | None,
                use: Callable[[str, float, float], None], wordless: Wordless | None = None,
                add_line: Callable[[float, float, str | None], None] | None = None) -> QMenu:
    """The menu for ``region`` (None: nothing chosen yet, the menu says how to choose); each
    character's entry calls ``use(character id, start, end)``. A region shorter or longer than
    a voice clip may be is offered disabled, its tooltip saying why. On a ``wordless`` stretch
    (speech with no words under the click) it first offers "Add a line here", which calls
    ``add_line(start, end, character id)``."""
    menu = QMenu(parent)
    menu.setObjectName("regionMenu")
    menu.setToolTipsVisible(True)
    if wordless is not None and add_line is not None:
        here = menu.addAction(QCoreApplication.translate("RegionMenu", "Add a line here"))
        here.setObjectName("addWordlessLine")
        here.setToolTip(fill(QCoreApplication.translate(
            "RegionMenu", "A line from {start} to {end} for the speech heard here with no words, ready to type "
                          "(undoable)"), start=format_clock(wordless.start), end=format_clock(wordless.end)))
        here.triggered.connect(lambda _checked=False: add_line(wordless.start, wordless.end, wordless.character_id))
        menu.addSeparator()
    if region is None:
        hint = menu.addAction(QCoreApplication.translate("RegionMenu", "Drag over the original audio to choose a stretch for a voice clip"))
        hint.setEnabled(False)
        return menu
    start, end = region
    length = end - start
    choose = menu.addMenu(QCoreApplication.translate("RegionMenu", "Use this region as the voice clip of"))
    choose.setObjectName("useRegion")
    choose.setToolTipsVisible(True)
    for character in project.characters:
        action = choose.addAction(character.name)
        action.setObjectName(f"useRegion:{character.id}")
        action.triggered.connect(lambda _checked=False, cid=character.id: use(cid, start, end))
    span = fill(QCoreApplication.translate("RegionMenu", "{start} – {end} ({seconds} s)"), start=format_clock(start), end=format_clock(end),
                                                        seconds=number(length, 1))
    if not VOICE_REGION.holds(round(length, 3)):
        why = fill(QCoreApplication.translate("RegionMenu", "A voice clip takes {low} to {high} s of speech; this region is {seconds} s"), low=number(VOICE_REGION.low), high=number(VOICE_REGION.high), seconds=number(length, 1))
    elif project.video_path() is None:
        why = QCoreApplication.translate("RegionMenu", "The project has no video to cut the clip from")
    elif not project.characters:
        why = QCoreApplication.translate("RegionMenu", "The project has no character yet")
    else:
        why = ""
    choose.setEnabled(not why)
    choose.menuAction().setToolTip(why or fill(QCoreApplication.translate("RegionMenu", "Cut {span} from the video's audio into voices/ as the clip of the "
                                              "character chosen (undoable)"), span=span))
    return menu
