"""The studio's Qt side: widgets, item models over the project, the engine bridge and the player.

Everything that a headless command needs lives outside this package (``app.project``,
``engine``); nothing there imports from here.

How the parts fit (data flows one way: widgets → document/engine → signals → widgets):

    main.py       ``run_studio(argv)``: QApplication, settings, the window
    tasks.py      the one way to run background work: operations with typed callbacks on the GUI thread
    folders.py    where each file dialog opens
    window/       the window, its menus and their rules (actions.py), the open project's
                  session and document (undo), messages, the welcome screen, exports
    script/       the Script tab: the lines table and its columns, takes, delivery, render and QA
    characters/   the Characters tab: voices, clips on a waveform, transcripts, auditions
    timeline/     the timeline over the video, the transport and preview, the video workflows
    engine/       the engine client in a reader QThread (bridge.py), which engine runs, its settings page
    playback/     ring buffer → sounddevice (or a silent clock when there is no device), recording
    settings/     every setting declared once over QSettings; the settings and project dialogs
    stress/       the Stress panel, hosted as a tab
"""
