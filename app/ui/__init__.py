"""The studio's Qt side: widgets, item models over the project, the engine bridge and the player.

Everything that a headless command needs lives outside this package (``app.project``,
``engine``); nothing there imports from here.

How the parts fit (data flows one way: widgets → document/engine → signals → widgets):

    main.py             ``run_studio(argv)``: QApplication, settings, the window
    main_window.py      the window: wires everything below together, opens and closes projects
    actions.py          every menu command declared once: label, menu, shortcut, enable rule
    document_session.py the open project: its document, panels and controllers; edit, render, import
    engine_controller.py  which engine runs, starting and restarting it, its label and banner
    playback_controller.py  takes, A/B, streams while rendering, auditions through the player
    studio_messages.py  the status bar's messages, the Messages dock, message boxes
    stress_tab.py       the Stress tab, built on first show
    settings.py         every setting declared once (typed, with a default) over QSettings
    document.py         the open project + its undo stack; ``changed``/``render_changed`` signals
    lines_model.py      the script as a QAbstractTableModel (row cache) and its filter proxy
    script_panel.py     table, filters, take chooser, render and playback bar
    characters_panel.py voices: clip import/recording, trim on a waveform, settings, audition
    bridge.py           the engine client in a reader QThread; events become GUI-thread signals
    render_controller.py  app.project's RenderSession fed by the bridge's events
    voices.py           VoiceSpec for a character; what the engine said about each voice
    player.py           ring buffer → sounddevice (or a silent clock when there is no device)
    tasks.py            background work with callbacks on the GUI thread (inline in tests)
    stress/             the Stress panel (another team's), hosted as a tab
"""
