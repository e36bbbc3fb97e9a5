"""Take QA's reasons are phrases made from templates declared once per code (issue 31): the CLI
keeps their English sentence, the studio says them in its language, and a code without a
template, or a finding made from words written in place, fails here."""

from __future__ import annotations

import pytest

from engine.core.codes import QaCode
from engine.core.phrases import Phrase
from engine.hearing.qa import wording
from engine.hearing.qa.checks import QaThresholds, TakeChecks, judge
from engine.hearing.qa.wording import QaPhrase

EVERY_FAILURE = [  # (changes to a clean measurement, overrun) that make each kind of finding
    ({"wer": 0.9, "transcript": "something else"}, None),
    ({"metric": "cer", "language": "zh", "wer": 0.4}, None),
    ({"clipping": 0.02, "leading_silence_s": 1.2, "inner_silence_s": 2.5, "trailing_silence_s": 3.0}, 0.6),
    ({"resemblance": 0.1, "detected_language": "zh", "language_probability": 0.97}, None),
    ({"leading_silence_s": 3.0, "inner_silence_s": 0.0, "trailing_silence_s": 0.0, "wer": 1.0, "transcript": ""}, None),
    ({"wer": 1.0, "transcript": ""}, None),
    ({"expected_speech_s": 6.0}, None),
    ({"expected_speech_s": 6.0, "wer": 0.5}, None),
    ({"wer": None, "transcript": None, "language": ""}, None),
    ({"wer": None, "transcript": None, "not_checked": "no Whisper model is installed"}, None),
]


def checks(**changes: object) -> TakeChecks:
    base: dict[str, object] = dict(
        checked="2026-01-01T00:00:00+00:00", duration_s=3.0, language="en", recogniser="r", transcript="i told you",
        wer=0.1, clipping=0.0, leading_silence_s=0.05, inner_silence_s=0.3, trailing_silence_s=0.2, resemblance=0.5)
    return TakeChecks(**{**base, **changes})  # type: ignore[arg-type]


def test_every_qa_code_has_its_templates() -> None:
    assert set(wording.TEMPLATES) == set(QaCode)
    assert all(wording.TEMPLATES[code] for code in QaCode)


@pytest.mark.parametrize(("changes", "overrun"), EVERY_FAILURE)
def test_every_finding_is_a_phrase_of_its_codes_templates(changes: dict[str, object], overrun: float | None) -> None:
    findings = judge(checks(**changes), QaThresholds(), overrun_s=overrun).findings
    assert findings
    for finding in findings:
        assert isinstance(finding.message, QaPhrase), finding
        assert finding.message.template in wording.TEMPLATES[QaCode(finding.code)], finding
        for argument in finding.message.arguments.values():  # a phrase inside is declared too
            if isinstance(argument, Phrase):
                assert argument.template in wording.TEMPLATES[QaCode(finding.code)], argument


def test_every_code_is_made_by_some_finding() -> None:
    made = {finding.code for changes, overrun in EVERY_FAILURE
            for finding in judge(checks(**changes), QaThresholds(), overrun_s=overrun).findings}
    assert made == set(QaCode)


def test_the_reasons_keep_their_english_sentences() -> None:
    """The CLI, the logs and saved reports read the phrase as the English sentence it is."""
    reasons = judge(checks(clipping=0.02, leading_silence_s=1.2), QaThresholds(), overrun_s=0.6).reasons
    assert reasons == ["QA_CLIPPING: 2.00% of samples are at full scale (limit 0.10%)",
                       "QA_LEADING_SILENCE: 1.20 s of silence before the speech (limit 1.00 s)",
                       "QA_OVERRUN: the take runs 0.60 s past its slot (limit 0.25 s)"]
    not_checked = judge(checks(wer=None, transcript=None, language=""), QaThresholds()).reasons
    assert not_checked == ["QA_NOT_CHECKED: intelligibility not checked: no recogniser for language “undetermined”"]
