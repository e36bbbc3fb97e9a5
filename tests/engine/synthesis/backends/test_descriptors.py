"""Backend descriptors: one declaration per backend that the engine, the CLI and the studio read."""

from __future__ import annotations

import inspect
import subprocess
import sys
from typing import Any

import pytest

from app.cli import main
from engine.core.protocol import DEFAULT_BACKEND, ErrorCode
from engine.synthesis.backends import (
    COSYVOICE2,
    DESCRIPTORS,
    PIPER,
    BackendOption,
    OptionError,
    OptionKind,
    create_backend,
)
from engine.synthesis.client.local import EngineClient, EngineStartError
from engine.synthesis.config import EngineConfig

ALL = list(DESCRIPTORS.values())


def _bad_values(option: BackendOption) -> list[Any]:
    """Values of the wrong type or out of range for an option of this kind."""
    if option.kind is OptionKind.BOOL:
        return ["maybe", 2, 0.5]
    if option.range is not None:
        bad: list[Any] = ["many", True, float("nan"), option.range.low - 1, option.range.high + 1]
        if option.range.whole:
            bad.append(1.5)
        return bad
    if option.kind is OptionKind.CHOICE:
        return ["none-of-these", 3]
    blank = ["   "] if option.required else []  # an optional blank field means "not set"
    return [3, ["a"], *blank] + (["not a device"] if option.pattern else [])


def _valid(spec: Any) -> dict[str, Any]:
    """The smallest valid option set: the required ones."""
    return {o.name: "/tmp" for o in spec.options if o.required}


@pytest.mark.parametrize("spec", ALL, ids=lambda s: s.name)
def test_every_bad_value_of_every_option_is_a_coded_error_naming_it(spec: Any) -> None:
    for option in spec.options:
        for value in _bad_values(option):
            with pytest.raises(OptionError) as caught:
                spec.validate({**_valid(spec), option.name: value})
            assert caught.value.code is ErrorCode.BAD_OPTION
            assert caught.value.option == option.name
            assert repr(option.name) in str(caught.value), str(caught.value)


@pytest.mark.parametrize("spec", ALL, ids=lambda s: s.name)
def test_unknown_option_is_named_with_the_known_ones(spec: Any) -> None:
    with pytest.raises(OptionError) as caught:
        spec.validate({**_valid(spec), "fp61": True})
    assert caught.value.option == "fp61" and spec.options[0].name in caught.value.message


@pytest.mark.parametrize("spec", ALL, ids=lambda s: s.name)
def test_options_match_the_backend_constructor(spec: Any) -> None:
    """The descriptor and the class agree, so validated options never raise a TypeError."""
    parameters = inspect.signature(spec.backend_class().__init__).parameters
    declared = {o.name for o in spec.options}
    assert declared == set(parameters) - {"self"}
    for option in spec.options:
        default = parameters[option.name].default
        if not option.required:
            assert default == option.default, option.name


def test_missing_model_folder_is_a_coded_error_not_a_type_error() -> None:
    with pytest.raises(OptionError) as caught:
        create_backend("cosyvoice2", {})
    assert caught.value.code is ErrorCode.BAD_OPTION and caught.value.option == "model_dir"
    assert COSYVOICE2.needs_model_folder and not PIPER.needs_model_folder


def test_strings_are_parsed_and_defaults_filled() -> None:
    options = COSYVOICE2.validate({"model_dir": "~/m", "fp16": "true", "threads": "2", "device": "cuda:1"})
    assert options["fp16"] is True and options["threads"] == 2 and options["device"] == "cuda:1"
    assert options["hop_schedule"] == "per_job" and options["trt_concurrent"] == 1
    assert not options["model_dir"].startswith("~") and "code_dir" not in options
    assert COSYVOICE2.parse_assignments(["load_trt=off", "trt_concurrent=4"]) == {"load_trt": False,
                                                                                    "trt_concurrent": 4}
    assert PIPER.validate({"noise_scale": "0.5"}) == {"noise_scale": 0.5}


def test_unknown_backend_is_a_coded_error() -> None:
    with pytest.raises(OptionError) as caught:
        create_backend("tacotron", {})
    assert caught.value.code is ErrorCode.BAD_OPTION and "piper" in caught.value.message


def test_the_default_backend_is_declared_and_runs_without_a_model_folder() -> None:
    spec = DESCRIPTORS[DEFAULT_BACKEND]
    assert spec.environment is None and not any(option.required for option in spec.options)


def test_descriptors_import_neither_torch_nor_piper() -> None:
    code = ("import sys, engine.synthesis.backends, engine.synthesis.backends.descriptor, app.commands.common; "
            "heavy = [m for m in ('torch', 'piper', 'onnxruntime', 'transformers') if m in sys.modules]; "
            "print(heavy); sys.exit(1 if heavy else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_client_refuses_a_bad_option_before_starting_an_engine() -> None:
    client = EngineClient(EngineConfig(backend="piper", backend_options={"noise_w": "loud"}))
    with pytest.raises(EngineStartError) as caught:
        client.start()
    assert caught.value.code is ErrorCode.BAD_OPTION and "'noise_w'" in str(caught.value)
    assert client.pid is None  # nothing was spawned


@pytest.mark.parametrize("argv, expected", [
    (["--backend-option", "fp16=maybe"], "backend option 'fp16' of embedded: no such option"),  # the default
    (["--backend-option", "noise_scale=9"], "'noise_scale' of embedded: noise_scale must be a number from 0 to 2, got 9.0"),
    (["--backend-option", "noise_scale"], "expected KEY=VALUE"),
    (["--backend", "piper", "--model-dir", "/tmp"], "takes no model folder"),
    (["--backend", "cosyvoice2", "--engine-python", sys.executable], "needs --model-dir DIR"),
    (["--backend", "cosyvoice2", "--model-dir", "/tmp", "--engine-python", sys.executable,
      "--backend-option", "device=gpu"], "'device' of cosyvoice2: expected auto | cpu | cuda | cuda:N"),
])
def test_cli_checks_backend_options_with_a_coded_message(argv: list[str], expected: str, tmp_path: Any,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["say", "Hello.", "--out", str(tmp_path / "x.wav"), "--voice", "resources/voices/maya.wav", *argv])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "E_BAD_OPTION" in err and expected in err and "Traceback" not in err


def test_cli_help_lists_every_backend_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["say", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for spec in ALL:
        assert spec.name in out
        for option in spec.options:
            assert option.name in out
    assert main(["backends", "cosyvoice2"]) == 0
    text = capsys.readouterr().out
    assert "model_dir=a folder (required)" in text and "hop_schedule=per_job | upstream" in text
