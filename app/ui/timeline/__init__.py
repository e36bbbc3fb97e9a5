"""The video and the timeline: the script as clips on one track per character over the video.

- :mod:`~app.ui.timeline.scale` and :mod:`~app.ui.timeline.edits`: time to pixels, snapping,
  and what a drag does to the project (no Qt).
- :mod:`~app.ui.timeline.programme`: the dub as the transport plays it (no Qt).
- :mod:`~app.ui.timeline.transport`: play/pause/shuttle through the studio's player.
- :mod:`~app.ui.timeline.video`: frames decoded with PyAV on a worker thread.
- :mod:`~app.ui.timeline.canvas` and :mod:`~app.ui.timeline.panel`: the widgets.
- :mod:`~app.ui.timeline.video_controller`, :mod:`~app.ui.timeline.video_dialogs` and
  :mod:`~app.ui.timeline.video_clips`: the video workflows (a project from a video, its guide
  track, transcribing its dialogue, choosing clips from it).
"""
