"""The studio's language: which translation it loads, the error headlines in it, numbers in its locale.

Qt's own way (docs/translations.md): every user-visible string in ``app/`` goes through ``tr()``
or ``QCoreApplication.translate``; ``pyside6-lupdate`` collects them into
``translations/dubstudio_<lang>.ts`` and ``pyside6-lrelease`` compiles those into the ``.qm``
files loaded here (``scripts/translations``; ``scripts/bootstrap`` and the desktop bundle build
them, they are not committed). Qt's own strings (the standard buttons, the file dialogs) come
from the ``qtbase`` translation that PySide6 ships.

The language follows the system locale unless the General settings page names one; a change
takes effect when the studio starts again (widgets translate their strings once, when built).
"""

from __future__ import annotations

import logging
import os
import string
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFontDatabase

from app.project import phrases
from app.project.messages import FULL_STOP, SEPARATOR, Explained, explain, sentence
from app.project.phrases import Phrase, language_name
from app.project.translatable import QT_TRANSLATE_NOOP
from engine.core.codes import code_named
from engine.core.languages import rules_for
from engine.core.paths import REPO_ROOT

log = logging.getLogger(__name__)

CATALOGUE = "dubstudio"  # translations/dubstudio_zh_CN.qm
SYSTEM = "system"
LIST_SEPARATOR = QT_TRANSLATE_NOOP("messages", ", ")  # between the items of a list inside a sentence
# Where the compiled catalogues are looked for: beside the sources, or at the bundle's root (the
# PyInstaller spec puts them there). DUBSTUDIO_TRANSLATIONS names another folder (tests, packagers).
TRANSLATIONS_ENV = "DUBSTUDIO_TRANSLATIONS"


@dataclass(frozen=True)
class Language:
    """A language the studio can be shown in: the setting's value, its name in itself, its locale."""

    code: str  # the setting's value, and the catalogue's suffix ("zh_CN"); SYSTEM follows the system
    name: str  # in the language itself, so anyone finds their own in the list
    locale: str  # the QLocale name numbers and dates follow ("" for the system's)


# Declared once: the General page lists these, the setting accepts their codes, the loader reads them.
LANGUAGES = (
    Language(SYSTEM, "System", ""),  # the label is translated where it is shown
    Language("en", "English", "en_US"),
    Language("zh_CN", "简体中文", "zh_CN"),
)
LANGUAGE_CODES = tuple(language.code for language in LANGUAGES)
# Writing systems that need a font of their own, by the locale's language.
CJK_WRITING = {
    QLocale.Language.Chinese: QFontDatabase.WritingSystem.SimplifiedChinese,
    QLocale.Language.Japanese: QFontDatabase.WritingSystem.Japanese,
    QLocale.Language.Korean: QFontDatabase.WritingSystem.Korean,
}
# CJK font files a desktop without fontconfig's fallback may have (Debian's fonts-noto-cjk,
# fonts-wqy-microhei; Windows; macOS): added to the application when no family covers the script.
CJK_FONT_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "/System/Library/Fonts/PingFang.ttc",
)


def translations_dir() -> Path:
    """The folder of the compiled catalogues (``dubstudio_<lang>.qm``)."""
    named = os.environ.get(TRANSLATIONS_ENV)
    if named:
        return Path(named)
    bundle = getattr(sys, "_MEIPASS", None)  # the desktop bundle keeps its data files at its root
    return Path(bundle) / "translations" if bundle else REPO_ROOT / "translations"


def ui_locale(choice: str) -> QLocale:
    """The locale the studio is shown in for the General page's ``choice`` (a code of LANGUAGES)."""
    for language in LANGUAGES:
        if language.code == choice and language.locale:
            return QLocale(language.locale)
    return QLocale.system()


def install_translations(app: QCoreApplication, choice: str) -> list[QTranslator]:
    """Load the studio's catalogue and Qt's own for ``choice`` and install them in ``app``; the
    default QLocale becomes that language's, so numbers follow it. Returns the installed
    translators (children of ``app``, which keeps them). English needs only its plural forms
    (``dubstudio_en``); a missing catalogue is logged and the source strings, English, show."""
    locale = ui_locale(choice)
    QLocale.setDefault(locale)
    english = locale.language() in (QLocale.Language.English, QLocale.Language.C)
    if english:
        locale = QLocale(QLocale.Language.English)
    installed = []
    ours = QTranslator(app)
    if ours.load(locale, CATALOGUE, "_", str(translations_dir())):
        app.installTranslator(ours)
        installed.append(ours)
    else:
        log.warning("no %s translation of the studio in %s (run scripts/translations); showing English",
                    locale.name(), translations_dir())
    if english:
        return installed
    qt = QTranslator(app)
    if qt.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        installed.append(qt)
    ensure_font_for(locale)
    return installed


def ensure_font_for(locale: QLocale) -> bool:
    """Whether a font can draw ``locale``'s script; for Chinese, Japanese and Korean a known font
    file is added when no installed family covers it (without one, Qt draws boxes)."""
    writing = CJK_WRITING.get(locale.language())
    if writing is None or QFontDatabase.families(writing):
        return True
    for path in CJK_FONT_FILES:
        if Path(path).is_file() and QFontDatabase.addApplicationFont(path) >= 0:
            return True
    log.warning("no font for %s is installed: install one (Debian: apt install fonts-noto-cjk)",
                QLocale.languageToString(locale.language()))
    return False


def translated(explained: Explained) -> Explained:
    """``explained`` with its headline in the studio's language. Each code table is its own
    translation context (ErrorCode, QaCode), whose strings ``scripts/translations`` collects
    from engine/core/codes.py; a headline without a code is translated in the ``messages``
    context. A detail the engine made as a phrase is said in the studio's language too."""
    member = code_named(explained.code) if explained.code else None
    context = type(member).__name__ if member is not None else "messages"
    detail = explained.detail
    if isinstance(detail, Phrase):  # a detail the engine made from a template (a range's refusal)
        detail = sentence(say(detail), full_stop())
    elif detail.endswith(".") and len(detail) > 1 and unicodedata.east_asian_width(detail[-2]) in ("W", "F"):
        # Said before it crossed a signal, then closed with explain()'s English full stop ("再导出.")
        detail = sentence(detail[:-1], full_stop())
    return Explained(QCoreApplication.translate(context, explained.headline), detail, explained.code)


def full_stop() -> str:
    """The full stop the studio's language writes after a sentence: "{sentence}." / "{sentence}。"."""
    return QCoreApplication.translate("messages", FULL_STOP)


def explained(message: str) -> Explained:
    """``message`` (``"CODE: detail"`` or plain words) explained in the studio's language: the
    headline translated, a detail said and a Chinese one ended with the language's own full stop."""
    return translated(explain(message))


class LocaleFormatter(string.Formatter):
    """``str.format`` that writes numbers the way the studio's locale does: ``{seconds:.1f}`` is
    "1.5" in English and "1,5" in German. As in Python's own, digits are not grouped (a line
    number reads 1234). A spec it does not know (padding, signs) is Python's."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return super().format_field(value, format_spec)
        locale = QLocale()
        locale.setNumberOptions(QLocale.NumberOption.OmitGroupSeparator)
        if format_spec in ("", "d") and isinstance(value, int):
            return locale.toString(value)
        if format_spec in ("", "g") or (format_spec.startswith(".") and format_spec[-1] in "fg"
                                        and format_spec[1:-1].isdigit()):
            kind = format_spec[-1] if format_spec else "g"
            precision = int(format_spec[1:-1]) if len(format_spec) > 1 else 6
            return locale.toString(float(value), kind, precision)
        return super().format_field(value, format_spec)


def fill(template: str, /, *values: Any, **arguments: Any) -> str:
    """``template`` (already translated) filled as ``str.format`` would, numbers in the locale's way:
    ``fill(self.tr("{seconds:.1f} s"), seconds=1.5)`` is "1,5 s" under a German locale."""
    return LocaleFormatter().vformat(template, values, arguments)


def say(text: str) -> str:
    """``text`` in the studio's language: a :class:`~app.project.phrases.Phrase` (a sentence the
    project layer or the commands made) is made again from its translated template, its numbers
    written the locale's way and any phrase among its arguments said in turn; other text is
    shown as it is (a name, a path, a sentence already translated)."""
    if not isinstance(text, Phrase):
        return text
    template = QCoreApplication.translate(text.context, text.template)
    arguments = {name: say(value) if isinstance(value, str) else value for name, value in text.arguments.items()}
    try:
        return fill(template, **arguments)
    except (KeyError, IndexError, ValueError):  # a translation that broke a placeholder: English, whole
        log.warning("the translation of %r does not fit its arguments", text.template)
        return str(text)


def shown_message(message: str) -> str:
    """A message as the studio shows it: a coded one (``"E_NO_CLIP: …"``, also one stored in
    project.json, such as a line's last render error) in words, its headline (and a detail made
    as a phrase) in the studio's language, the code last; any other said as it is."""
    shown = explained(message)
    return str(shown) if shown.code else say(message)


def listed(items: Iterable[str]) -> str:
    """Names or numbers listed in a sentence: "2, 5, 6" in English, "2、5、6" in Chinese."""
    return QCoreApplication.translate("messages", LIST_SEPARATOR).join(items)


def separator() -> str:
    """What the studio's language puts between sentences listed one after another: "; " in English,
    "；" (no space after a full-width mark) in Chinese."""
    return QCoreApplication.translate("messages", SEPARATOR)


def said_error(error: BaseException) -> str:
    """What ``error`` says, in the studio's language: an EngineError whose message is a phrase (a
    range's refusal: ``"E_INVALID_VALUE: …"``), or an error made from a phrase alone
    (``TimeRangeError(refusal)``), is said; any other message is shown as it is."""
    text = str(error)
    if not isinstance(text, Phrase) and len(error.args) == 1 and isinstance(error.args[0], Phrase):
        text = error.args[0]
    return say(text)


# The engine's declaration tables whose names the studio shows, each a translation context of its
# own (scripts/translations hands their names to lupdate): backends' display labels and names
# (``dubstudio backends``), translators' display names, the load report's measures (the Stress
# results table's rows), the hardware probes' names (the Stress tab's presets).
BACKEND_NAMES, TRANSLATOR_NAMES, MEASURE_NAMES, PROBE_NAMES = "backends", "translators", "measures", "probes"
# The backends' options (the Settings form's labels and tooltips) and summaries; the voice cache's words.
OPTION_WORDS, VOICE_WORDS = "backend options", "voices"


def declared(context: str, text: str) -> str:
    """``text``, a name from the engine's declaration table ``context``, in the studio's language."""
    return QCoreApplication.translate(context, text)


def speaker_name() -> str:
    """What the studio calls a voice known only by its number (a transcription's, a cast library's
    default name), in its language: "说话人 {number}"."""
    return QCoreApplication.translate(phrases.CONTEXT, phrases.SPEAKER_N)


def language_label(code: str) -> str:
    """A language of the one table (engine.core.languages) as a list shows it: its name in the
    studio's language and its code, "中文（普通话） (zh)"."""
    return fill(QCoreApplication.translate("languages", "{name} ({code})"), name=say(language_name(rules_for(code))),
                code=code)


def number(value: float, decimals: int = 0) -> str:
    """``value`` written the way the studio's locale writes numbers (separators, decimal mark)."""
    return QLocale().toString(float(value), "f", decimals)
