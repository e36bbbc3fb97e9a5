"""Take QA's sentences: why a take failed a check, declared once per code.

Each reason is a :class:`engine.core.phrases.Phrase` of the ``qa`` translation context: the CLI,
the logs and saved reports see the English sentence; the studio says it in its language
(``app.ui.language.say``). :data:`TEMPLATES` maps every :class:`~engine.core.codes.QaCode` to
the templates its findings are made from; ``scripts/translations`` hands them to pyside6-lupdate
and a test fails when a code has none, or a finding uses a template not declared here.
"""

from __future__ import annotations

from typing import ClassVar

from engine.core.codes import QaCode
from engine.core.phrases import Phrase


class QaPhrase(Phrase):
    """A reason of take QA, translated in the ``qa`` context."""

    context: ClassVar[str] = "qa"


SILENT = "the take is silent ({seconds:.2f} s without sound)"
NO_SPEECH = "the recogniser heard no speech (noise, or sound that is not speech)"
MISHEARD_CER = "the recogniser heard “{heard}” (character error rate {rate:.2f}, limit {limit:.2f})"
MISHEARD_WER = "the recogniser heard “{heard}” (word error rate {rate:.2f}, limit {limit:.2f})"
WRONG_LANGUAGE = "the take sounds like “{detected}” (probability {probability:.2f}), not “{expected}”"
TOO_FAST = ("{speech:.2f} s of speech where the text needs about {expected:.2f} s ({ratio:.0%}, minimum "
            "{minimum:.0%}): spoken far too fast")
TOO_SHORT = ("{speech:.2f} s of speech where the text needs about {expected:.2f} s ({ratio:.0%}, minimum "
             "{minimum:.0%}): cut short?")
CLIPPING = "{share:.2%} of samples are at full scale (limit {limit:.2%})"
LEADING_SILENCE = "{seconds:.2f} s of silence before the speech (limit {limit:.2f} s)"
INNER_SILENCE = "{seconds:.2f} s of silence inside the speech (limit {limit:.2f} s)"
TRAILING_SILENCE = "{seconds:.2f} s of silence after the speech (limit {limit:.2f} s)"
OVERRUN = "the take runs {seconds:.2f} s past its slot (limit {limit:.2f} s)"
OVERRUN_WARNING = ("the take runs {seconds:.2f} s past its slot, within the {limit:.2f} s QA allows "
                   "(a warning, not a failure)")
UNLIKE_VOICE = "resemblance to the character's clip is {resemblance:.2f} (minimum {minimum:.2f})"
NOT_CHECKED = "intelligibility not checked: {why}"
NO_RECOGNISER = "no recogniser for language “{language}”"
UNDETERMINED = "undetermined"
# Why the words were not checked (the ``why`` of NOT_CHECKED).
LANGUAGE_UNKNOWN = "the line's language is not set and its text does not say which it is"
NO_WORDS = "the line has no words to compare"
ONLY_INTERJECTIONS = "the line is only interjections (嗯, 啊, hmm…), which the recogniser often leaves unwritten"
ENGLISH_ONLY_MODEL = ("Whisper {model} hears English only; choose the base model (or a larger one) in Settings to "
                      "check “{language}”")
WHISPER_UNKNOWN_LANGUAGE = "Whisper does not know the language “{language}”"

# Every code's templates: a finding of that code is made from one of them.
TEMPLATES: dict[QaCode, tuple[str, ...]] = {
    QaCode.SILENT: (SILENT,),
    QaCode.NO_SPEECH: (NO_SPEECH,),
    QaCode.UNINTELLIGIBLE: (MISHEARD_CER, MISHEARD_WER),
    QaCode.WRONG_LANGUAGE: (WRONG_LANGUAGE,),
    QaCode.TOO_FAST: (TOO_FAST,),
    QaCode.TOO_SHORT: (TOO_SHORT,),
    QaCode.CLIPPING: (CLIPPING,),
    QaCode.LEADING_SILENCE: (LEADING_SILENCE,),
    QaCode.INNER_SILENCE: (INNER_SILENCE,),
    QaCode.TRAILING_SILENCE: (TRAILING_SILENCE,),
    QaCode.OVERRUN: (OVERRUN, OVERRUN_WARNING),
    QaCode.UNLIKE_VOICE: (UNLIKE_VOICE,),
    QaCode.NOT_CHECKED: (NOT_CHECKED, NO_RECOGNISER, UNDETERMINED, LANGUAGE_UNKNOWN, NO_WORDS, ONLY_INTERJECTIONS,
                         ENGLISH_ONLY_MODEL, WHISPER_UNKNOWN_LANGUAGE),
}
