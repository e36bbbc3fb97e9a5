"""The video preview: frames decoded with PyAV on a worker thread, painted on the GUI thread.

The GUI asks for "the frame at time t" as often as it likes (:meth:`FrameDecoder.request` only
stores t and wakes the worker); the worker decodes forward from where it is, seeks only for a
jump (backwards, or further ahead than decoding would take), scales the one frame it will show
to the preview's size with FFmpeg's scaler, and hands a ready ``QImage`` back through a queued
signal. Requests that arrive while it works are coalesced: only the latest time matters. So
the GUI thread never decodes, and a slow decode shows an older frame rather than a stalled
window. FFmpeg's decoding and scaling run without Python's GIL, so the worker does not slow
the event loop down either.

The worker is one of the studio's few threads that is not an operation of :mod:`app.ui.tasks`:
it is a producer loop that lives as long as the preview shows the video, keeping its decoding
position and dropping superseded requests, not a job with an outcome (docs/seams.md).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.language import fill, said_error, say
from engine.core.codes import ErrorCode

if TYPE_CHECKING:
    from av.container import InputContainer
    from av.video.frame import VideoFrame
    from av.video.stream import VideoStream

log = logging.getLogger(__name__)

SEEK_AHEAD_S = 2.0  # further ahead than this, seeking to a keyframe beats decoding forward


class FrameDecoder(QObject):
    """Decodes one video file on its own thread; ``frame_ready(QImage, seconds)`` delivers frames."""

    frame_ready = Signal(QImage, float)
    failed = Signal(str)

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._path = path
        self._wake = threading.Condition()
        self._wanted: float | None = None
        self._size = QSize(320, 180)
        self._stop = False
        self._thread = threading.Thread(target=self._run, name=f"video-decoder:{path.name}", daemon=True)
        self._thread.start()

    def request(self, seconds: float, size: QSize | None = None) -> None:
        """Show the frame at ``seconds`` (scaled to fit ``size``) as soon as it is decoded."""
        with self._wake:
            if size is not None and size.isValid() and not size.isEmpty():
                self._size = QSize(size)
            self._wanted = max(0.0, seconds)
            self._wake.notify()

    def close(self) -> None:
        """Stop the worker and release the file (waits briefly for a decode in progress)."""
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(timeout=5.0)

    # --- the worker ---------------------------------------------------------------------------

    def _run(self) -> None:
        import av

        from engine.core.audio_io import AudioError, open_container
        from engine.core.files import open_regular_file

        try:  # opened by us as a regular file: a named pipe is refused instead of blocking FFmpeg
            handle = open_regular_file(self._path)
        except OSError as error:
            self.failed.emit(fill(self.tr("{code}: cannot read {name}: {error}"), code=ErrorCode.VIDEO_UNREADABLE, name=self._path.name, error=said_error(error)))
            return
        try:
            container = open_container(handle, self._path)
        except AudioError as error:
            handle.close()
            self.failed.emit(fill(self.tr("{code}: cannot read {name}: {error}"), code=ErrorCode.VIDEO_UNREADABLE, name=self._path.name, error=say(error.reason)))
            return
        with handle, container:
            if not container.streams.video:
                self.failed.emit(fill(self.tr("{code}: {name} has no video stream"), code=ErrorCode.NO_VIDEO_STREAM, name=self._path.name))
                return
            stream = container.streams.video[0]
            stream.thread_type = "AUTO"
            reader = _Reader(container, stream)
            shown: tuple[float, QSize] | None = None  # the request last served
            sent: tuple[int | None, QSize] | None = None  # the frame last delivered
            while True:
                with self._wake:
                    while not self._stop and (self._wanted is None or (self._wanted, self._size) == shown):
                        self._wake.wait()
                    if self._stop:
                        return
                    wanted, size = self._wanted, QSize(self._size)
                assert wanted is not None
                try:
                    frame = reader.frame_at(wanted)
                except av.FFmpegError as error:
                    log.warning("decoding %s failed at %.2f s: %s", self._path.name, wanted, error)
                    self.failed.emit(fill(self.tr("{code}: cannot decode {name} at {seconds:.2f} s: {error}"), code=ErrorCode.VIDEO_UNREADABLE, name=self._path.name, seconds=wanted, error=said_error(error)))
                    shown = (wanted, size)
                    continue
                shown = (wanted, size)
                if frame is not None and (frame.pts, size) != sent:  # the same frame again: nothing to send
                    sent = (frame.pts, size)
                    self.frame_ready.emit(_to_image(frame, size), _time(frame))


class _Reader:
    """Sequential decoding with one frame of look-ahead, seeking only for jumps."""

    def __init__(self, container: InputContainer, stream: VideoStream) -> None:
        self._container = container
        self._stream = stream
        self._frames: Iterator[VideoFrame] = iter(())  # the decode generator; empty until the first seek
        self._current: VideoFrame | None = None  # the last frame at or before the wanted time
        self._next: VideoFrame | None = None  # the first frame after it (already decoded)
        self._exhausted = False  # the stream ended after ``_current``

    def _seek(self, seconds: float) -> None:
        assert self._stream.time_base is not None  # FFmpeg gives every demuxed stream one
        self._container.seek(int(seconds / self._stream.time_base), stream=self._stream, backward=True)
        self._frames = self._container.decode(self._stream)
        self._current = self._next = None
        self._exhausted = False

    def frame_at(self, seconds: float) -> VideoFrame | None:
        """The frame on screen at ``seconds`` (the last one when past the end)."""
        current = self._current
        if current is not None and _time(current) <= seconds:
            if self._exhausted or (self._next is not None and seconds < _time(self._next)):
                return current
            if seconds > _time(current) + SEEK_AHEAD_S:
                self._seek(seconds)
        else:
            self._seek(seconds)
        while True:
            if self._next is None:
                self._next = next(self._frames, None)
                if self._next is None:  # the end: keep showing the last frame
                    self._exhausted = True
                    return self._current
            if _time(self._next) > seconds + 1e-6 and self._current is not None:
                return self._current
            self._current, self._next = self._next, None


def _time(frame: VideoFrame) -> float:
    return float(frame.time) if frame.time is not None else 0.0


def _to_image(frame: VideoFrame, size: QSize) -> QImage:
    """The frame as it is shown (turned by its display rotation: a phone's portrait video is
    stored sideways) as RGB scaled to fit ``size`` (aspect kept), by FFmpeg's scaler, off the GUI thread."""
    turns = round(frame.rotation / 90) % 4
    width, height = (frame.height, frame.width) if turns % 2 else (frame.width, frame.height)
    scale = min(size.width() / max(1, width), size.height() / max(1, height))
    out_w, out_h = max(2, int(width * scale) & ~1), max(2, int(height * scale) & ~1)
    stored_w, stored_h = (out_h, out_w) if turns % 2 else (out_w, out_h)
    stored = frame.to_ndarray(format="rgb24", width=stored_w, height=stored_h)
    rgb = np.ascontiguousarray(np.rot90(stored, turns))  # rows may be padded; turned as players turn it
    return QImage(rgb.data, out_w, out_h, 3 * out_w, QImage.Format.Format_RGB888).copy()


class VideoPreview(QWidget):
    """Paints the latest decoded frame, letterboxed on black; says so when there is no video."""

    resized = Signal(QSize)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("videoPreview")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(160, 90)
        self._image: QImage | None = None
        self._message = self.tr("No video")
        self.frame_time: float | None = None  # the time of the frame shown (tests and the benchmark read it)
        self.frames_shown = 0
        self.caption = ""  # the line at the playhead, shown over the picture as a subtitle

    def sizeHint(self) -> QSize:
        return QSize(320, 180)

    def set_message(self, text: str) -> None:
        """Text shown instead of a picture (no video, or why it cannot be shown)."""
        self._message = text
        self._image = None
        self.frame_time = None
        self.update()

    def set_caption(self, text: str) -> None:
        if text != self.caption:
            self.caption = text
            self.update()

    def show_frame(self, image: QImage, seconds: float) -> None:
        self._image = image
        self.frame_time = seconds
        self.frames_shown += 1
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#111"))
        picture = QRectF(self.rect())
        if self._image is not None and not self._image.isNull():
            size = self._image.size().scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio)
            x = (self.width() - size.width()) / 2
            y = (self.height() - size.height()) / 2
            picture = QRectF(x, y, size.width(), size.height())
            painter.drawImage(picture, self._image)
        else:
            painter.setPen(QColor("#9a9a9a"))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self._message)
        if self.caption:
            self._paint_caption(painter, picture)
        painter.end()

    def _paint_caption(self, painter: QPainter, picture: QRectF) -> None:
        """The current line at the picture's foot, white on a dark band, as subtitles read."""
        flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap
        area = picture.adjusted(8, 0, -8, -6)
        bounds = painter.boundingRect(area, flags, self.caption)
        band = bounds.adjusted(-6, -2, 6, 2)
        painter.fillRect(band, QColor(0, 0, 0, 170))
        painter.setPen(QColor("#ffffff"))
        painter.drawText(area, flags, self.caption)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resized.emit(self.size())
