"""What a backend is, declared once: name, label, capabilities, typed options, environment.

The engine (validating options before it starts), the CLI (``--backend`` choices,
``--backend-option`` parsing and help, ``dubstudio backends``) and the studio (the Settings
form, the "Voices engine" page) all read a :class:`BackendDescriptor` instead of keeping
their own lists. A descriptor imports nothing heavy: reading one never loads torch or Piper.

A bad option value is an :class:`OptionError` (code ``E_BAD_OPTION``) that names the option
and says what it takes, never a ``TypeError`` from a constructor.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.numbers import Range, RangeError
from engine.core.paths import REPO_ROOT
from engine.core.phrases import Phrase
from engine.core.protocol import Capabilities, EngineError, ErrorCode

if TYPE_CHECKING:
    from engine.core.downloads import ValidationReport
    from engine.synthesis.backends.base import Backend

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
OptionValue = bool | int | float | str  # what an option holds once coerced (folders and files as text)


class OptionKind(str, enum.Enum):
    """The type of an option's value; the Settings form picks its widget from it."""

    BOOL = "bool"
    INT = "int"
    FLOAT = "float"
    CHOICE = "choice"
    TEXT = "text"
    FOLDER = "folder"
    FILE = "file"


class OptionPhrase(Phrase):
    """A sentence of an option's refusal, translated in the ``backend options`` context (where the
    options' labels and help are): the CLI sees the English, the studio says it in its language."""

    context: ClassVar[str] = "backend options"


# Why a backend option cannot be used (OptionError's detail) and what a value looks like;
# scripts/translations hands TEMPLATES to lupdate.
OPTION_WHERE = "backend option {option} of {backend}"
BACKEND_WHERE = "backend {backend}"
AT_WHERE = "{where}: {problem}"
EXPECTED = "expected {kind}, got {value}"
EMPTY = "empty: expected {kind}"
NO_SUCH_OPTION = "no such option; {backend} takes {names}"
REQUIRED = "required ({help})"
NOT_AN_ASSIGNMENT = "expected KEY=VALUE, got {value}"
NO_MODEL_FOLDER = "takes no model folder"
UNKNOWN_BACKEND = "unknown backend; known: {names}"
TRUE_OR_FALSE = "true or false"
WHOLE_NUMBER = "a whole number {span}"
NUMBER = "a number {span}"
A_FOLDER = "a folder"
A_FILE = "a file"
TEXT = "text"
TEMPLATES = (OPTION_WHERE, BACKEND_WHERE, AT_WHERE, EXPECTED, EMPTY, NO_SUCH_OPTION, REQUIRED, NOT_AN_ASSIGNMENT,
             NO_MODEL_FOLDER, UNKNOWN_BACKEND, TRUE_OR_FALSE, WHOLE_NUMBER, NUMBER, A_FOLDER, A_FILE, TEXT)


class OptionError(EngineError):
    """A backend option that cannot be used; ``option`` names it ("" for the backend itself).
    The message is an OptionPhrase when ``message`` is one (or any phrase), so the studio says it."""

    def __init__(self, backend: str, option: str, message: str) -> None:
        where = (OptionPhrase(OPTION_WHERE, option=repr(option), backend=backend) if option
                 else OptionPhrase(BACKEND_WHERE, backend=repr(backend)))
        super().__init__(ErrorCode.BAD_OPTION, OptionPhrase(AT_WHERE, where=where, problem=message))
        self.backend = backend
        self.option = option


@dataclass(frozen=True)
class BackendOption:
    """One option a backend takes: its type, default, limits and what it is for.

    ``default=None`` means "not set": the backend decides (for example threads from the core
    count); such an option is left out of the validated options unless given. A number option
    is declared by its :class:`Range` (:meth:`number`), which names it and says whether it is whole.
    """

    name: str
    kind: OptionKind
    label: str
    help: str
    default: OptionValue | None = None
    required: bool = False
    choices: tuple[str, ...] = ()
    range: Range | None = None  # INT and FLOAT: the numbers it takes, refused with E_BAD_OPTION
    pattern: str | None = None  # TEXT: a full-match regular expression
    pattern_hint: str = ""  # TEXT: what the pattern accepts, in words
    # A device fact (engine.synthesis.backends.device.describe) that must be true for the option to do
    # anything: "cuda_available", "fp16_supported", "tensorrt" (installed), "vllm" (installed);
    # the settings form disables the option otherwise.
    needs_device: str = ""
    advanced: bool = False  # tucked under "Advanced" in the Settings form

    @classmethod
    def number(cls, allowed: Range, label: str, help: str, **declared: Any) -> BackendOption:
        """A number option: its name and kind (whole or not) are its range's."""
        return cls(allowed.name, OptionKind.INT if allowed.whole else OptionKind.FLOAT, label, help,
                   range=dataclasses.replace(allowed, code=ErrorCode.BAD_OPTION), **declared)

    def __post_init__(self) -> None:
        if (self.range is not None) != (self.kind in (OptionKind.INT, OptionKind.FLOAT)):
            raise ValueError(f"backend option {self.name}: a number option has a range, no other option does")

    def said_help(self) -> str:
        """The help text as a phrase of the ``backend options`` context (where lupdate has it, from
        the declarations), so a refusal quoting it is said whole; a help with braces stays text."""
        return self.help if "{" in self.help or "}" in self.help else OptionPhrase(self.help)

    def type_hint(self) -> str:
        """What the value looks like, for help texts and error messages."""
        if self.kind is OptionKind.BOOL:
            return OptionPhrase(TRUE_OR_FALSE)
        if self.kind is OptionKind.CHOICE:
            return " | ".join(self.choices)
        if self.range is not None:
            return OptionPhrase(WHOLE_NUMBER if self.range.whole else NUMBER, span=self.range.describe())
        if self.kind is OptionKind.TEXT and self.pattern_hint:
            return self.pattern_hint
        return OptionPhrase({OptionKind.FOLDER: A_FOLDER, OptionKind.FILE: A_FILE}.get(self.kind, TEXT))

    def coerce(self, value: Any, backend: str = "") -> OptionValue:
        """The value as this option's type; strings (from a command line or a settings file)
        are parsed. Raises :class:`OptionError` naming the option when it does not fit."""

        def bad(why: str = "") -> OptionError:
            return OptionError(backend, self.name, why or OptionPhrase(EXPECTED, kind=self.type_hint(), value=repr(value)))

        if self.kind is OptionKind.BOOL:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
                return value.strip().lower() in _TRUE
            raise bad()
        if self.range is not None:
            try:
                return self.range.check(_number_in(value, self.range.whole))
            except RangeError as error:
                raise bad(error.message) from None
        if not isinstance(value, (str, os.PathLike)):
            raise bad()
        text = str(value).strip()
        if not text:
            raise bad(OptionPhrase(EMPTY, kind=self.type_hint()))
        if self.kind is OptionKind.CHOICE and text not in self.choices:
            raise bad()
        if self.kind is OptionKind.TEXT and self.pattern and not re.fullmatch(self.pattern, text):
            raise bad()
        if self.kind in (OptionKind.FOLDER, OptionKind.FILE):
            return str(Path(text).expanduser())
        return text

    def describe(self) -> str:
        """One line for ``--help`` and ``dubstudio backends``."""
        default = "required" if self.required else (
            f"default: {_show(self.default)}" if self.default is not None else "optional")
        return f"{self.name}={self.type_hint()} ({default}): {self.help}"


@dataclass(frozen=True)
class Environment:
    """A Python environment of its own for a backend whose stack stays out of the studio's.

    ``folder_env`` overrides where the build script puts it; ``python_env`` names another
    interpreter outright. The build script writes a stamp file when it finished, so a
    half-built folder does not count as built.
    """

    folder_name: str  # at the repository root
    build_script: str  # relative to the repository root
    python_env: str  # environment variable naming the interpreter
    folder_env: str  # environment variable naming the folder (honoured by the script)
    stamp: str  # written by the script at the end of a successful build
    imports: tuple[str, ...]  # what must import for the environment to be usable
    size_hint: str  # shown before a build: time and disk

    def folder(self) -> Path:
        override = os.environ.get(self.folder_env)
        return Path(override).expanduser() if override else REPO_ROOT / self.folder_name

    def interpreter(self) -> Path | None:
        """The environment's interpreter, or None when it is not built (or not named)."""
        override = os.environ.get(self.python_env)
        if override:
            return Path(override).expanduser()
        candidate = self.folder() / "bin" / "python"
        return candidate if candidate.exists() else None

    def is_built(self) -> bool:
        """Built to the end (the stamp exists), or an interpreter named outright."""
        if os.environ.get(self.python_env):
            return self.interpreter() is not None and Path(os.environ[self.python_env]).exists()
        return (self.folder() / self.stamp).is_file() and self.interpreter() is not None

    def build_command(self) -> list[str]:
        return ["bash", str(REPO_ROOT / self.build_script)]

    def check_command(self, python: str | os.PathLike[str]) -> list[str]:
        """A command that fails (naming the module) when the environment cannot import its stack."""
        return [str(python), "-c", "import " + ", ".join(self.imports)]


@dataclass(frozen=True)
class Combination:
    """Whether options work together, and how (the settings form and ``dubstudio backends``
    show it; a backend reports the working ones in its facts)."""

    options: str  # e.g. "max_batch>1 + load_vllm"
    works: bool
    how: str


@dataclass(frozen=True)
class BackendDescriptor:
    """Everything the studio, the CLI and the engine need to know about a backend."""

    name: str
    label: str
    summary: str
    factory: str  # "module:Class", imported only when an engine creates the backend
    capabilities: Capabilities  # as declared; the loaded backend's may refine them (languages)
    options: tuple[BackendOption, ...]
    environment: Environment | None = None  # None: runs in the studio's own interpreter
    model_option: str | None = None  # the option naming the model folder, when one is needed
    model_validator: str | None = None  # "module:function(folder, options) -> ValidationReport"
    combinations: tuple[Combination, ...] = ()
    licence: str = ""  # the model's and its data's licence, shown wherever the backend is chosen
    # Said to the user before the backend's first use (the studio asks once; the CLI prints it):
    # a voice whose use is restricted (non-commercial data) says so here; "" for none.
    use_notice: str = ""

    @property
    def can_use_gpu(self) -> bool:
        """Whether the backend has options that need a GPU (device facts): it can use one."""
        return any(option.needs_device for option in self.options)

    @property
    def needs_model_folder(self) -> bool:
        return self.model_option is not None and self.option(self.model_option).required

    def option(self, name: str) -> BackendOption:
        for option in self.options:
            if option.name == name:
                return option
        raise OptionError(self.name, name, OptionPhrase(NO_SUCH_OPTION, backend=self.name, names=self.option_names()))

    def option_names(self) -> str:
        return ", ".join(option.name for option in self.options)

    def validate(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options typed and checked, with the defaults filled in.

        Unknown names, values of the wrong type or out of range, and a missing required
        option each raise an :class:`OptionError` naming the option. ``None`` means "not set".
        """
        given = dict(options or {})
        for name in given:
            self.option(name)  # unknown names first: a typo is the likeliest mistake
        result: dict[str, Any] = {}
        for option in self.options:
            value = given.get(option.name)
            if value is None or (isinstance(value, str) and not value.strip() and not option.required):
                if option.required:
                    raise OptionError(self.name, option.name, OptionPhrase(REQUIRED, help=option.said_help()))
                if option.default is not None:
                    result[option.name] = option.default
                continue
            result[option.name] = option.coerce(value, self.name)
        return result

    def parse_assignments(self, items: Iterable[str]) -> dict[str, Any]:
        """``KEY=VALUE`` strings (``--backend-option``) to typed options; raises OptionError."""
        parsed: dict[str, Any] = {}
        for item in items:
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or not key:
                raise OptionError(self.name, key, OptionPhrase(NOT_AN_ASSIGNMENT, value=repr(item)))
            parsed[key] = self.option(key).coerce(value, self.name)
        return parsed

    def engine_python(self, explicit: str | os.PathLike[str] | None = None) -> str | None:
        """The interpreter to run the engine under: ``explicit``, else the backend's built
        environment, else None (this interpreter, for backends without an environment).
        Raises an ``E_ENGINE_START`` error saying how to build a missing environment."""
        if explicit:
            return str(explicit)
        if self.environment is None:
            return None
        python = self.environment.interpreter()
        if python is None:
            raise EngineError(
                ErrorCode.ENGINE_START,
                f"{self.label} runs in its own Python environment, which is not built: build it with "
                f"{self.environment.build_script} (or Settings → Voices engine → Build), or name an interpreter",
            )
        return str(python)

    def backend_class(self) -> type[Backend]:
        module_name, class_name = self.factory.split(":")
        cls: type[Backend] = getattr(importlib.import_module(module_name), class_name)
        return cls

    def create(self, options: Mapping[str, Any] | None = None) -> Backend:
        """Validate the options, then construct the backend (which loads nothing yet)."""
        return self.backend_class()(**self.validate(options))

    def validate_model(self, folder: str | os.PathLike[str], options: Mapping[str, Any] | None = None,
                       deep: bool = False) -> ValidationReport:
        """The model folder's validation report, from the validator ``model_validator`` names."""
        if self.model_validator is None:
            raise OptionError(self.name, "", OptionPhrase(NO_MODEL_FOLDER))
        module_name, function = self.model_validator.split(":")
        validate: Callable[..., ValidationReport] = getattr(importlib.import_module(module_name), function)
        return validate(folder, options=dict(options or {}), deep=deep)

    def describe(self) -> str:
        """A readable block for ``dubstudio backends``."""
        lines = [f"{self.name}: {self.label}", f"  {self.summary}"]
        if self.licence:
            lines.append(f"  licence: {self.licence}")
        if self.environment is not None:
            state = "built" if self.environment.is_built() else "NOT built"
            lines.append(f"  environment: {self.environment.folder()} ({state}; build: "
                         f"{self.environment.build_script}, {self.environment.size_hint})")
        else:
            lines.append("  environment: the studio's own")
        caps = self.capabilities
        features = [name for name, on in (("cloning", caps.cloning), ("cross-lingual", caps.cross_lingual),
                                          ("instructions", caps.instructions), ("streaming", caps.streaming)) if on]
        lines.append(f"  {caps.sample_rate} Hz; languages {', '.join(caps.languages)}; "
                     f"{', '.join(features) or 'no cloning'}; speed {caps.speed.low:g} to {caps.speed.high:g}")
        lines.append("  options (--backend-option KEY=VALUE):")
        lines.extend(f"    {option.describe()}" for option in self.options)
        if self.combinations:
            lines.append("  combinations:")
            lines.extend(f"    {c.options}: {'works' if c.works else 'does not work'}; {c.how}"
                         for c in self.combinations)
        return "\n".join(lines)


def _number_in(value: object, whole: bool) -> object:
    """A number typed as text (a command line, a settings file) as one, a whole one (2.0) as an int
    for a whole range; anything else as it is, for the range to refuse in its words."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return value
    if whole and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
