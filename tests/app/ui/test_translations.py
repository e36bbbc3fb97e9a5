"""The studio in Chinese (issue 31): every user-visible string goes through Qt's translation, the
zh_CN catalogue is complete and up to date with the source, and the error headlines translate.

The catalogue is checked by running the project's own ``scripts/translations`` (pyside6-lupdate
and pyside6-lrelease) on a copy: a string added to app/ without a translation comes out of it
unfinished, which fails here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.core.codes import ErrorCode, QaCode
from engine.core.paths import REPO_ROOT
from tests.app.ui.untranslated import check_source, check_tree

LRELEASE = str(Path(sys.executable).parent / "pyside6-lrelease")
CATALOGUE = REPO_ROOT / "translations" / "dubstudio_zh_CN.ts"
# English is the source language: its catalogue holds only the plural forms of "%n …(s)" strings.
ENGLISH_PLURALS = REPO_ROOT / "translations" / "dubstudio_en.ts"


def messages(path: Path) -> dict[tuple[str, str], list[str]]:
    """(context, source) -> its translation (one string, or the plural forms) in a .ts file."""
    found = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            forms = [form.text or "" for form in translation.iter("numerusform")] or [translation.text or ""]
            if translation.get("type") in ("unfinished", "vanished", "obsolete"):
                forms = []
            found[(name, message.findtext("source", ""))] = forms
    return found


@pytest.mark.parametrize(("source", "kind"), [
    ('label.setText("Rendered")', "a constant"),
    ('QLabel(f"{n} lines")', "an f-string"),
    ('box.setToolTip("Take " + name)', "a concatenation"),
    ('QMessageBox.warning(self, "Export", self.tr("Cannot export"))', "a static dialog's title"),
    ('menu.addAction(icon, "Open")', "an icon's text"),
    ('combo.addItems(["Automatic", self.tr("Off")])', "a list"),
    ('button = QPushButton("Yes" if ok else "No")', "a conditional"),
    ('TIP = "Waiting for the engine"\nbutton.setToolTip(TIP)', "a module constant"),
    ('ActionSpec("open", "Open…", "file", run)', "a declaration table"),
    ('self.tr(f"{n} lines")', "tr() of an f-string"),
    ('messages.say("Saved {}".format(name))', "a format call"),
    ('QCoreApplication.translate("Panel", "%n line(s)", "", len(lines))', "translate() with a count"),
    ('self.text = f"Add character {name}"', "an undo text"),
    ('return Macro(edits, "Cast from library")', "a macro's undo text"),
    ('Phrase("line {order} has no character", order=3)', "a phrase with an undeclared template"),
    ('counted(n, phrases.MOVE_LINE, "Move {count} lines")', "a counted phrase with an undeclared template"),
    ('super().__init__("Take QA: when a take fails", parent)', "a widget's text given to its Qt base"),
    ('box.setToolTip(self.tr("{seconds:.1f} s").format(seconds=s))', "a translated template's numbers in Python's way"),
    ('LABELS = {"loud": "Broadcast (EBU R128)"}\ncombo.addItem(LABELS[key], key)', "an entry of a dict of words"),
    ('LABELS = {"loud": "Broadcast"}\nlabel.setText(LABELS.get(key, ""))', "a dict of words read with get"),
    ('self.slots = whole_spin(ENGINE_SLOTS, special="auto")', "a spin box's text for its lowest value"),
    ('def qa_tooltip(checks):\n    return f"Checked {checks.checked} UTC"', "what a tooltip function returns"),
    ('class QaColumn:\n    def display(self, line):\n        return "Failed"', "a table cell's text"),
])
def test_the_checker_finds_each_kind_of_untranslated_string(source: str, kind: str) -> None:
    assert check_source(source), f"{kind} was not found in {source!r}"


@pytest.mark.parametrize("source", [
    'label.setText(self.tr("Rendered"))',
    'QLabel(self.tr("%n line(s)", "", n))',
    'box.setToolTip(fill(self.tr("Take {name}"), name=name))',
    'LABELS = {"loud": QT_TRANSLATE_NOOP("Dialog", "Broadcast")}\ncombo.addItem(translate("Dialog", LABELS[key]))',
    'COLOURS = {"ok": "#e8f5e9"}\nlabel.setStyleSheet(COLOURS["ok"])',
    'QMessageBox.warning(self, self.tr("Export"), QCoreApplication.translate("codes", headline))',
    'label.setText("…")',  # no words
    'label.setText(f"{seconds:.1f}")',
    'log.warning("engine %s stopped", name)',  # logs stay English
    'TIP = QT_TRANSLATE_NOOP("actions", "Waiting")\nbutton.setToolTip(tr(TIP))',
    'label.setObjectName("cacheSize")',  # not shown
    'self.text = Phrase(phrases.ADD_CHARACTER, name=name)',
    'Macro(edits, self.tr("Cast from library"))',
    'counted(n, phrases.MOVE_LINE, phrases.MOVE_LINES)',
    'def qa_tooltip(checks):\n    return fill(QCoreApplication.translate("QaTooltip", "Checked {when}"), when=checks.checked)',
])
def test_the_checker_leaves_translated_and_unseen_strings(source: str) -> None:
    assert check_source(source) == []


def test_every_user_visible_string_in_app_is_translatable() -> None:
    findings = [str(f) for f in check_tree(REPO_ROOT, "app")]
    assert not findings, "user-visible strings not passed through tr()/translate:\n" + "\n".join(findings)


@pytest.mark.parametrize("catalogue", [CATALOGUE, ENGLISH_PLURALS], ids=lambda path: path.stem)
def test_the_catalogue_is_complete_and_up_to_date(catalogue: Path, tmp_path: Path) -> None:
    committed = messages(catalogue)
    unfinished = [source for (_context, source), forms in committed.items() if not forms or not all(forms)]
    assert not unfinished, f"unfinished or empty entries in {catalogue.name}: {unfinished}"
    for path in (CATALOGUE, ENGLISH_PLURALS):
        shutil.copy(path, tmp_path / path.name)
    run = subprocess.run(["bash", str(REPO_ROOT / "scripts" / "translations")], cwd=REPO_ROOT, text=True,
                         capture_output=True, env={**os.environ, "DUBSTUDIO_TS_DIR": str(tmp_path)}, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    updated = messages(tmp_path / catalogue.name)
    new = sorted(f"{context}: {source}" for (context, source), forms in updated.items() if not forms)
    assert not new, f"strings in app/ with no translation in {catalogue.name} (run scripts/translations, " \
        "translate them):\n" + "\n".join(new)
    gone = sorted(f"{context}: {source}" for context, source in committed.keys() - updated.keys())
    assert not gone, f"entries no longer in the source (run scripts/translations): {gone}"
    assert (tmp_path / catalogue.with_suffix(".qm").name).stat().st_size > 0


def test_every_code_headline_has_its_translation() -> None:
    committed = messages(CATALOGUE)
    for table in (ErrorCode, QaCode):
        for code in table:
            forms = committed.get((table.__name__, code.headline))
            assert forms and forms[0] != code.headline, f"{code.value}: {code.headline!r} is not translated"


def test_a_coded_message_keeps_its_ascii_code_prefix_in_chinese() -> None:
    """The studio finds a message's code by its ASCII "CODE: " (app.project.messages.explain); a
    translation written "{code}：…" showed "E_RECORD：无法从麦克风录音…" raw, with no headline and the
    code first."""
    wrong = [source for (context, source), forms in messages(CATALOGUE).items()
             if source.startswith("{code}: ") and context != "QaTooltip"  # a finding listed, never parsed
             and not all(form.startswith("{code}: ") for form in forms)]
    assert wrong == []


def test_a_headline_is_shown_in_the_interface_language(qapp: object, tmp_path: Path) -> None:
    from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

    from app.project.messages import explain
    from app.ui.language import translated

    compiled = tmp_path / "dubstudio_zh_CN.qm"
    subprocess.run([LRELEASE, "-silent", str(CATALOGUE), "-qm",
                    str(compiled)], check=True)
    translator = QTranslator()
    assert translator.load(QLocale("zh_CN"), "dubstudio", "_", str(tmp_path))
    QCoreApplication.installTranslator(translator)
    try:
        shown = translated(explain("E_NO_CLIP: line 3: Maya has no clip"))
        unknown = translated(explain("E_FROM_A_NEWER_SERVER: something"))
    finally:
        QCoreApplication.removeTranslator(translator)
    assert shown.headline == "该角色还没有参考音频。"
    assert (shown.detail, shown.code) == ("Line 3: Maya has no clip.", "E_NO_CLIP")  # the code stays
    assert unknown.headline == "出现了问题。"


def test_the_language_is_a_declared_setting_chosen_on_the_general_page(settings, sync_runner) -> None:
    from app.ui.settings.dialog import GeneralPage

    assert settings.language == "system"  # the system locale, until the user picks one
    with pytest.raises(ValueError, match="zh_CN"):
        settings.language = "klingon"
    page = GeneralPage(settings, sync_runner)
    assert [page.language.itemData(i) for i in range(page.language.count())] == ["system", "en", "zh_CN"]
    page.language.setCurrentIndex(page.language.findData("zh_CN"))
    page.apply()
    assert settings.language == "zh_CN"
    assert GeneralPage(settings, sync_runner).language.currentData() == "zh_CN"


def test_the_chosen_language_loads_the_studios_and_qts_catalogues(qapp, tmp_path, monkeypatch) -> None:
    from PySide6.QtCore import QCoreApplication, QLocale

    from app.ui.language import TRANSLATIONS_ENV, install_translations

    for catalogue in (CATALOGUE, ENGLISH_PLURALS):
        subprocess.run([LRELEASE, "-silent", str(catalogue), "-qm",
                        str(tmp_path / catalogue.with_suffix(".qm").name)], check=True)
    monkeypatch.setenv(TRANSLATIONS_ENV, str(tmp_path))
    before, installed = QLocale(), []
    try:
        installed = install_translations(qapp, "en")
        assert len(installed) == 1  # English: the plural forms only, the source strings are English
        assert QCoreApplication.translate("Settings", "Language") == "Language"
        for translator in installed:
            QCoreApplication.removeTranslator(translator)
        installed = install_translations(qapp, "zh_CN")
        assert len(installed) == 2  # the studio's and Qt's own (qtbase: the standard buttons)
        assert QCoreApplication.translate("Settings", "Language") == "界面语言"
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
        assert QLocale().name() == "zh_CN"  # numbers and dates follow the chosen language
    finally:
        for translator in installed:
            QCoreApplication.removeTranslator(translator)
        QLocale.setDefault(before)


def test_the_studio_started_under_a_chinese_locale_shows_chinese_menus(tmp_path: Path) -> None:
    """The real program, as a user starts it with LANG=zh_CN.UTF-8 and no language chosen."""
    import json
    import sys

    from app.ui.language import TRANSLATIONS_ENV

    for catalogue in (CATALOGUE, ENGLISH_PLURALS):
        subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "pyside6-lrelease"), "-silent", str(catalogue), "-qm",
                        str(tmp_path / catalogue.with_suffix(".qm").name)], check=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG"))}
    env.update(LANG="zh_CN.UTF-8", QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO_ROOT),
               XDG_CONFIG_HOME=str(tmp_path / "config"),
               HOME=str(tmp_path / "home"), DUBSTUDIO_CACHE_DIR=str(tmp_path / "cache"),
               **{TRANSLATIONS_ENV: str(tmp_path)})
    run = subprocess.run([sys.executable, "-m", "app.cli", "--quit-after-load"], cwd=tmp_path, env=env,
                         text=True, capture_output=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    line = next(text for text in run.stdout.splitlines() if text.startswith("dubstudio: menus: "))
    menus = json.loads(line.removeprefix("dubstudio: menus: "))
    zh = messages(CATALOGUE)
    assert menus[:2] == [zh[("actions", "&File")][0], zh[("actions", "&Edit")][0]] == ["文件(&F)", "编辑(&E)"]
    assert all(any("\u4e00" <= character <= "\u9fff" for character in menu) for menu in menus), menus


def test_a_default_speaker_name_in_every_catalogue_is_known_without_qt() -> None:
    """A transcription in the Chinese studio calls its voices "说话人 1"; the cast library, Cast from
    library and a transcription run again (Qt-free, the CLI too) must know that for a default
    name, never a character's identity: app.project.phrases.SPEAKER_N_TRANSLATED holds every
    catalogue's translation of SPEAKER_N."""
    from app.project import phrases
    from app.project.model import default_speaker_number

    translated = {form for path in sorted((REPO_ROOT / "translations").glob("dubstudio_*.ts"))
                  for form in messages(path).get((phrases.CONTEXT, phrases.SPEAKER_N), [])}
    assert translated and translated <= {phrases.SPEAKER_N, *phrases.SPEAKER_N_TRANSLATED}
    for template in translated:
        assert default_speaker_number(template.format(number=12)) == 12
    assert default_speaker_number("Speaker 3") == 3 and default_speaker_number("  说话人 3 ") == 3
    assert default_speaker_number("Anna") is None and default_speaker_number("Speaker 1 2") is None
