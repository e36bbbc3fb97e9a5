"""The translators, declared once: the studio's Translate dialog, ``dubstudio translate`` and
``new --translate-to`` read their names, labels, what each needs and the settings each takes
from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.codes import ErrorCode
from engine.translation import TranslationError, wording
from engine.translation.wording import TranslationPhrase

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")  # BCP 47 as the project stores it: zh, pt-BR


@dataclass(frozen=True)
class TranslatorSetting:
    """One thing a translator needs to be told (an endpoint's URL, its model, its key)."""

    name: str
    label: str
    help: str
    secret: bool = False  # kept by engine.translation.keys, never in project.json, settings or logs
    required: bool = True
    example: str = ""  # what a value looks like (a form's placeholder)


@dataclass(frozen=True)
class TranslatorDescriptor:
    name: str
    label: str
    needs: str  # what it needs, in words
    offline: bool  # works with no network at all
    hears: bool  # translates the audio while transcribing (Whisper), not a project's text
    targets: tuple[str, ...] | None = None  # the languages it writes; None: any the model can
    settings: tuple[TranslatorSetting, ...] = ()

    def check_target(self, language: str) -> str:
        """The target language code, when this translator writes it; E_TRANSLATION_TARGET otherwise."""
        code = language.strip()
        if not LANGUAGE_CODE.match(code):
            raise TranslationError(ErrorCode.TRANSLATION_TARGET,
                                   TranslationPhrase(wording.NOT_A_LANGUAGE_CODE, value=repr(language)))
        if self.targets is not None and code not in self.targets:
            raise TranslationError(ErrorCode.TRANSLATION_TARGET,
                                   TranslationPhrase(wording.TARGETS_ONLY, translator=self.label,
                                                     targets=", ".join(self.targets), code=code))
        return code


WHISPER = TranslatorDescriptor(
    name="whisper",
    label="Whisper (into English, while transcribing)",
    needs="the video's dialogue and a multilingual Whisper model; it translates while it hears",
    offline=True,
    hears=True,
    targets=("en",),
)
OPENAI = TranslatorDescriptor(
    name="openai",
    label="OpenAI-compatible chat endpoint (Ollama, llama.cpp, vLLM, hosted)",
    needs="the endpoint's base URL, a model name and, for hosted endpoints, an API key; offline only with a "
          "server on this computer or network",
    offline=False,
    hears=False,
    settings=(
        TranslatorSetting("base_url", "Base URL",
                          "the endpoint's URL up to /v1: http://localhost:11434/v1 (Ollama), "
                          "http://localhost:8080/v1 (llama.cpp), https://api.openai.com/v1",
                          example="http://localhost:11434/v1"),
        TranslatorSetting("model", "Model", "the model's name as the endpoint knows it (qwen2.5:7b, gpt-4o-mini)",
                          example="qwen2.5:7b"),
        TranslatorSetting("api_key", "API key", "the endpoint's key; local servers need none", secret=True,
                          required=False),
    ),
)
TRANSLATORS = {descriptor.name: descriptor for descriptor in (WHISPER, OPENAI)}


def setting_of(descriptor: TranslatorDescriptor, name: str) -> TranslatorSetting:
    return next(setting for setting in descriptor.settings if setting.name == name)
TEXT_TRANSLATOR = OPENAI.name  # the one that translates a project's text (dubstudio translate's default)


def translator_named(name: str) -> TranslatorDescriptor:
    """The translator called ``name``; E_TRANSLATOR naming the ones there are otherwise."""
    try:
        return TRANSLATORS[name]
    except KeyError:
        raise TranslationError(ErrorCode.TRANSLATOR,
                               TranslationPhrase(wording.NO_TRANSLATOR, name=repr(name),
                                                 names=", ".join(TRANSLATORS))) from None
