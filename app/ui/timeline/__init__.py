"""The timeline: the script as clips on one track per character over the video, with a transport.

- :mod:`~app.ui.timeline.scale` and :mod:`~app.ui.timeline.edits`: time to pixels, snapping,
  and what a drag does to the project (no Qt).
- :mod:`~app.ui.timeline.programme`: the dub as the transport plays it (no Qt).
- :mod:`~app.ui.timeline.transport`: play/pause/shuttle through the studio's player.
- :mod:`~app.ui.timeline.video`: frames decoded with PyAV on a worker thread.
- :mod:`~app.ui.timeline.canvas` and :mod:`~app.ui.timeline.panel`: the widgets.
"""

from app.ui.timeline.panel import TimelinePanel

__all__ = ["TimelinePanel"]
