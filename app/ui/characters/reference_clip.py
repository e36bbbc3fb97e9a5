"""A character's reference clip on the Characters panel: where it comes from (a file, the
microphone), the waveform with its trim region, its purity and a warning when it may clone
badly, and the decoded audio that "Play reference" plays.

The clip is decoded in the background; what arrives after the user moved on to another
character or clip is dropped, so the waveform never shows the previous character's clip.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QPushButton

from app.project import ProjectError
from app.project.fsutil import safe_filename
from app.project.model import MIN_CLIP_PURITY, MIN_CLIP_WARN_S, clip_warning
from app.project.translatable import QT_TRANSLATE_NOOP
from app.ui.characters.fields import ShownCharacter
from app.ui.characters.waveform import WaveformView
from app.ui.folders import Folders
from app.ui.language import fill, number, said_error
from app.ui.playback.player import read_mono
from app.ui.playback.recorder import Recorder
from engine.core.codes import ErrorCode
from engine.core.languages import join_pieces

AUDIO_FILTER = QT_TRANSLATE_NOOP("ReferenceClip", "Audio files (*.wav *.flac *.ogg *.mp3 *.m4a *.aac *.aif *.aiff "
                                                  "*.opus *.wma);;All files (*)")


class ReferenceClip(QObject):
    """The clip's widgets and life for the character shown. A file or a recording becomes the
    clip through ``import_file(path)``; the file dialog opens in ``folders``' last folder."""

    def __init__(self, shown: ShownCharacter, folders: Folders, import_file: Callable[[str], bool],
                 can_record: bool) -> None:
        super().__init__(shown.owner)
        self._shown = shown
        self._doc = shown.document
        self._folders = folders
        self._import_file = import_file
        self._audio: tuple[str, np.ndarray, int] | None = None  # (clip rel path, pcm, rate)
        self.label = QLabel(self.tr("No reference clip"))
        self.label.setWordWrap(True)
        self.quality = QLabel("")  # the clip's purity, and a warning when it may clone badly
        self.quality.setObjectName("clipQuality")
        self.quality.setWordWrap(True)
        self.import_button = QPushButton(self.tr("Import clip…"))
        self.import_button.clicked.connect(self._import)
        self.from_video_button = QPushButton(self.tr("Choose from the video…"))
        self.from_video_button.setObjectName("chooseFromVideo")
        self.from_video_button.setToolTip(self.tr("Pick this character's cleanest stretch of the original dialogue as the clip"))
        self.recorder = Recorder()
        self.record_button = QPushButton(self.tr("● Record"))
        self.record_button.setObjectName("recordButton")
        self.record_button.clicked.connect(self._toggle_record)
        self.record_button.setEnabled(can_record)
        self.record_button.setToolTip(
            self.tr("Record a reference clip from the microphone")
            if can_record
            else self.tr("No microphone (audio input device) was found")
        )
        self.waveform = WaveformView()
        self.waveform.setObjectName("waveform")
        self.trim_label = QLabel("")

    def show(self, character_id: str | None) -> None:
        """Show the character's clip (decoded in the background when it is not the one shown)."""
        if character_id is None:
            self.label.setText(self.tr("Add a character to give it a voice."))
            self.waveform.set_audio(None, 0, self.tr("Add a character to give it a voice"))
            self.quality.setText("")
            return
        char = self._doc.project.character(character_id)
        self.from_video_button.setText(self._choose_label())
        self.waveform.set_colour(char.colour)
        self.label.setText(char.clip or self.tr("No reference clip: import one (WAV, FLAC, MP3, …)"))
        self._load()

    def _choose_label(self) -> str:
        """The button that picks a stretch of the original: a project made from a recording (a
        radio drama, a podcast) has no video to choose from."""
        source = self._doc.project.video
        return self.tr("Choose from the recording…") if source is not None and not source.has_picture \
            else self.tr("Choose from the video…")

    def trimmed(self) -> tuple[str, np.ndarray, int] | None:
        """What "Play reference" plays: its player key, the trimmed samples and their rate; None
        while no clip is decoded."""
        char = self._shown.character()
        if char is None or self._audio is None:
            return None
        _rel, pcm, rate = self._audio
        start = int(char.clip_start * rate)
        stop = len(pcm) if char.clip_end is None else int(char.clip_end * rate)
        return f"clip:{char.id}:{char.clip_start}", pcm[start:stop], rate

    def _load(self) -> None:
        char = self._shown.character()
        if char is None or not char.clip:
            self._audio = None
            self.waveform.set_audio(None, 0)
            self.trim_label.setText("")
            self.quality.setText("")
            return
        rel = char.clip
        if self._audio is not None and self._audio[0] == rel:
            self._show_trim()
            return
        self._audio = None
        self.waveform.set_audio(None, 0, self.tr("Reading the clip…"))  # never the previous character's clip
        self._show_quality(None)  # the purity now; the length once the clip is read
        path = self._doc.project.resolve(rel)

        def moved_on() -> bool:  # the user chose another character or clip while this one decoded
            now = self._shown.character()
            return now is None or now.clip != rel

        def loaded(result: tuple[np.ndarray, int]) -> None:
            if moved_on():
                return
            pcm, rate = result
            self._audio = (rel, pcm, rate)
            self.waveform.set_audio(pcm, rate)
            self._show_trim()

        def failed(exc: BaseException) -> None:
            if moved_on():
                return
            self.label.setText(fill(self.tr("{rel}: cannot read ({exc})"), rel=rel, exc=said_error(exc)))
            self.waveform.set_audio(None, 0, self.tr("The clip cannot be read: import it again or record one"))

        self._shown.runner.run(lambda: read_mono(path), loaded, failed)

    def _show_trim(self) -> None:
        char = self._shown.character()
        if char is None:
            return
        self.waveform.set_trim(char.clip_start, char.clip_end)
        end = self.waveform.duration if char.clip_end is None else char.clip_end
        self.trim_label.setText(
            fill(self.tr("Using {clip_start:.2f} s – {end:.2f} s of {duration:.2f} s (drag the edges of the highlighted region)"), clip_start=char.clip_start, end=end, duration=self.waveform.duration)
        )
        self._show_quality(end - char.clip_start)

    def _show_quality(self, seconds: float | None) -> None:
        """Show the clip's purity (a clip cut from the video has one) and warn, with why and what
        to do, when clip_warning finds it impure or too short; ``seconds`` (trimmed) or None
        while unknown."""
        char = self._shown.character()
        if char is None or not char.clip:
            self.quality.setText("")
            self.quality.setToolTip("")
            return
        purity = char.clip_purity
        purity_text = "" if purity is None else ("+" if purity >= 0 else "") + number(purity, 2)
        reasons = []
        if clip_warning(purity, None) is not None:
            reasons.append(fill(self.tr("It may hold another voice: its purity {purity} is under {least} (how much "
                                        "more it sounds like this character than like the nearest other)."),
                                purity=purity_text, least=number(MIN_CLIP_PURITY, 2)))
        if clip_warning(None, seconds) is not None and seconds is not None:
            reasons.append(fill(self.tr("It is short: {seconds} s; a clip of {least} s or more clones better."),
                                seconds=number(seconds, 1), least=number(MIN_CLIP_WARN_S)))
        score = fill(self.tr("Purity {purity}"), purity=purity_text) if purity is not None else ""
        # Why and what to do are on the panel itself: a tooltip alone left "⚠ Check this clip" unexplained.
        warning = join_pieces(["⚠", *reasons, fill(self.tr(
            "{choose} picks a longer, cleaner stretch; or import or record another clip."), choose=self._choose_label())]) \
            if reasons else ""
        self.quality.setText("\n".join(filter(None, [warning, score])))
        self.quality.setToolTip(self.tr("Purity: how much more the clip sounds like this character than like "
                                        "the nearest other (from the video)") if score else "")

    def _import(self) -> None:
        path = self._folders.open_file(self._shown.owner, "clips", self.tr("Import a reference clip"), self.tr(AUDIO_FILTER))
        if path:
            self._import_file(path)

    def _toggle_record(self) -> None:
        """First click records from the microphone; the second makes it the character's clip."""
        if not self.recorder.recording:
            try:
                self.recorder.start()
            except Exception as exc:  # noqa: BLE001 - PortAudio reports device problems with many types
                self._doc.error.emit(fill(self.tr("{code}: cannot record from the microphone: {error}"),
                                          code=ErrorCode.RECORD, error=said_error(exc)))
                return
            self.record_button.setText(self.tr("■ Stop recording"))
            return
        self.record_button.setText(self.tr("● Record"))
        char = self._shown.character()
        if char is None:
            self.recorder.stop()
            return
        name = safe_filename(char.name, "voice") + "_recording.wav"
        # Written outside the project, then imported (copied into voices/) like any clip.
        with tempfile.TemporaryDirectory() as tmp:
            try:
                path = self.recorder.stop_to_file(Path(tmp) / name)
            except (ValueError, ProjectError) as exc:
                self._doc.error.emit(said_error(exc))
                return
            self._import_file(str(path))
