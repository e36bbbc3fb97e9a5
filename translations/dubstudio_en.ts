<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../app/ui/window/main_window.py" line="+350"/>
        <source>The script already has %n line(s). Replace them with the lines of %1, or add its lines to them?</source>
        <translation>
            <numerusform>The script already has %n line. Replace it with the lines of %1, or add its lines to it?</numerusform>
            <numerusform>The script already has %n lines. Replace them with the lines of %1, or add its lines to them?</numerusform>
        </translation>
    </message>
</context>
</TS>
