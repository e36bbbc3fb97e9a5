<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>CastController</name>
    <message numerus="yes">
        <location filename="../app/ui/characters/cast_controller.py" line="+117"/>
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n character</numerusform>
            <numerusform>%n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CastLibraryDialog</name>
    <message numerus="yes">
        <location filename="../app/ui/characters/cast_library_dialog.py" line="+113"/>
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n character</numerusform>
            <numerusform>%n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CharactersPanel</name>
    <message numerus="yes">
        <location filename="../app/ui/characters/characters_panel.py" line="+295"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DocumentSession</name>
    <message numerus="yes">
        <location filename="../app/ui/window/document_session.py" line="+461"/>
        <source>Imported %n line(s)</source>
        <translation>
            <numerusform>Imported %n line</numerusform>
            <numerusform>Imported %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source> and %n new character(s) ({names})</source>
        <translation>
            <numerusform> and %n new character ({names})</numerusform>
            <numerusform> and %n new characters ({names})</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>; %n warning(s): </source>
        <translation>
            <numerusform>; %n warning: </numerusform>
            <numerusform>; %n warnings: </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>; %n thing(s) to fix before rendering (listed)</source>
        <translation>
            <numerusform>; %n thing to fix before rendering (listed)</numerusform>
            <numerusform>; %n things to fix before rendering (listed)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+37"/>
        <source>Fit %n line(s) to their slots</source>
        <translation>
            <numerusform>Fit %n line to their slots</numerusform>
            <numerusform>Fit %n lines to their slots</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineController</name>
    <message numerus="yes">
        <location filename="../app/ui/engine/engine_controller.py" line="+153"/>
        <source>The engine stopped unexpectedly and was restarted; %n job(s) queued again</source>
        <translation>
            <numerusform>The engine stopped unexpectedly and was restarted; %n job queued again</numerusform>
            <numerusform>The engine stopped unexpectedly and was restarted; %n jobs queued again</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineStatus</name>
    <message numerus="yes">
        <location filename="../app/ui/engine/engine_status.py" line="+67"/>
        <source>%n slot(s)</source>
        <translation>
            <numerusform>%n slot</numerusform>
            <numerusform>%n slots</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>{url}; %n slot(s) over all replicas; languages: {languages}</source>
        <translation>
            <numerusform>{url}; %n slot over all replicas; languages: {languages}</numerusform>
            <numerusform>{url}; %n slots over all replicas; languages: {languages}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindReplaceDialog</name>
    <message numerus="yes">
        <location filename="../app/ui/script/find_replace.py" line="+68"/>
        <source>Replaced in %n line(s); Edit › Undo takes it back.</source>
        <translation>
            <numerusform>Replaced in %n line; Edit › Undo takes it back.</numerusform>
            <numerusform>Replaced in %n lines; Edit › Undo takes it back.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../app/ui/window/main_window.py" line="+358"/>
        <source>The script already has %n line(s). Replace them with the lines of %1, or add its lines to them?</source>
        <translation>
            <numerusform>The script already has %n line. Replace it with the lines of %1, or add its lines to it?</numerusform>
            <numerusform>The script already has %n lines. Replace them with the lines of %1, or add its lines to them?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NotificationBadge</name>
    <message numerus="yes">
        <location filename="../app/ui/window/notifications.py" line="+173"/>
        <source>{mark} %n message(s)</source>
        <translation>
            <numerusform>{mark} %n message</numerusform>
            <numerusform>{mark} %n messages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RemoveCharacterDialog</name>
    <message numerus="yes">
        <location filename="../app/ui/characters/character_removal.py" line="+73"/>
        <source>{name} speaks %n line(s). What becomes of them?</source>
        <translation>
            <numerusform>{name} speaks %n line. What becomes of it?</numerusform>
            <numerusform>{name} speaks %n lines. What becomes of them?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Give them to</source>
        <translation>
            <numerusform>Give it to</numerusform>
            <numerusform>Give them to</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Remove them too</source>
        <translation>
            <numerusform>Remove it too</numerusform>
            <numerusform>Remove them too</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Keep them without a character (they will not render)</source>
        <translation>
            <numerusform>Keep it without a character (it will not render)</numerusform>
            <numerusform>Keep them without a character (they will not render)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RenderScope</name>
    <message numerus="yes">
        <location filename="../app/ui/window/document_session.py" line="-408"/>
        <source>Rendering %n line(s) ({scope})</source>
        <translation>
            <numerusform>Rendering %n line ({scope})</numerusform>
            <numerusform>Rendering %n lines ({scope})</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>: %n fitted to their slot(s)</source>
        <translation>
            <numerusform>: %n fitted to its slot</numerusform>
            <numerusform>: %n fitted to their slots</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>, line(s) {orders}</source>
        <translation>
            <numerusform>, line {orders}</numerusform>
            <numerusform>, lines {orders}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>; likely too long for their slot(s) without fit: line(s) {orders}</source>
        <translation>
            <numerusform>; likely too long for its slot without fit: line {orders}</numerusform>
            <numerusform>; likely too long for their slots without fit: lines {orders}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StressPanel</name>
    <message numerus="yes">
        <location filename="../app/ui/stress/panel.py" line="+596"/>
        <source>{target}, %n replica(s)</source>
        <translation>
            <numerusform>{target}, %n replica</numerusform>
            <numerusform>{target}, %n replicas</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message numerus="yes">
        <location filename="../app/ui/timeline/panel.py" line="+369"/>
        <source>%n overrun(s)</source>
        <translation>
            <numerusform>%n overrun</numerusform>
            <numerusform>%n overruns</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+52"/>
        <source>Move %n line(s)</source>
        <translation>
            <numerusform>Move %n line</numerusform>
            <numerusform>Move %n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TranscribeDialog</name>
    <message numerus="yes">
        <location filename="../app/ui/timeline/transcribe_dialog.py" line="+118"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n rendered take(s)</source>
        <translation>
            <numerusform>%n rendered take</numerusform>
            <numerusform>%n rendered takes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TranslationController</name>
    <message numerus="yes">
        <location filename="../app/ui/script/translation_controller.py" line="+198"/>
        <source>; kept %n line(s) already translated by a person (select them to translate them again)</source>
        <translation>
            <numerusform>; kept %n line already translated by a person (select it to translate it again)</numerusform>
            <numerusform>; kept %n lines already translated by a person (select them to translate them again)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VideoController</name>
    <message numerus="yes">
        <location filename="../app/ui/timeline/video_controller.py" line="+184"/>
        <source> transcribed from {video}, %n voice(s)</source>
        <translation>
            <numerusform> transcribed from {video}, %n voice</numerusform>
            <numerusform> transcribed from {video}, %n voices</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>; %n warning(s): </source>
        <translation>
            <numerusform>; %n warning: </numerusform>
            <numerusform>; %n warnings: </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>New project with %n line(s)</source>
        <translation>
            <numerusform>New project with %n line</numerusform>
            <numerusform>New project with %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+49"/>
        <source>Transcribed %n line(s)</source>
        <translation>
            <numerusform>Transcribed %n line</numerusform>
            <numerusform>Transcribed %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, %n voice(s)</source>
        <translation>
            <numerusform>, %n voice</numerusform>
            <numerusform>, %n voices</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+157"/>
        <source>{what} left %n thing(s) to fix before rendering: </source>
        <translation>
            <numerusform>{what} left %n thing to fix before rendering: </numerusform>
            <numerusform>{what} left %n things to fix before rendering: </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VideoWords</name>
    <message numerus="yes">
        <location filename="../app/ui/timeline/video_dialogs.py" line="+424"/>
        <source>{audio} audio, %n subtitle stream(s)</source>
        <translation>
            <numerusform>{audio} audio, %n subtitle stream</numerusform>
            <numerusform>{audio} audio, %n subtitle streams</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>%n line(s), </source>
        <translation>
            <numerusform>%n line, </numerusform>
            <numerusform>%n lines, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n character(s): {speakers}</source>
        <translation>
            <numerusform>%n character: {speakers}</numerusform>
            <numerusform>%n characters: {speakers}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n warning(s): {first}</source>
        <translation>
            <numerusform>%n warning: {first}</numerusform>
            <numerusform>%n warnings: {first}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VoiceGapsDialog</name>
    <message numerus="yes">
        <location filename="../app/ui/script/gaps_dialog.py" line="+42"/>
        <source>{what} left %n thing(s) to fix before rendering. Double-click one to go to it (the list stays in Messages).</source>
        <translation>
            <numerusform>{what} left %n thing to fix before rendering. Double-click one to go to it (the list stays in Messages).</numerusform>
            <numerusform>{what} left %n things to fix before rendering. Double-click one to go to it (the list stays in Messages).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VoicesEnginePage</name>
    <message numerus="yes">
        <location filename="../app/ui/engine/voices_engine_page.py" line="+446"/>
        <source>✗ {folder}: NOT usable — %n problem(s)</source>
        <translation>
            <numerusform>✗ {folder}: NOT usable — %n problem</numerusform>
            <numerusform>✗ {folder}: NOT usable — %n problems</numerusform>
        </translation>
    </message>
</context>
</TS>
