"""Every range is declared once and refused with its declared message (issue 23): the slots
(engine.core.protocol.SLOTS) and a backend's own speed range (its capabilities)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.core.paths import REPO_ROOT
from engine.core.protocol import (
    SLOTS,
    SPEED,
    Capabilities,
    EngineError,
    EngineReady,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    RequestFailed,
    SetSlots,
    SlotsChanged,
    VoiceSettings,
)
from engine.synthesis.backends import COSYVOICE2, COSYVOICE2_SPEED, PIPER
from engine.synthesis.client.local import EngineClient, EngineStartError
from engine.synthesis.client.wire import from_json, to_json
from engine.synthesis.config import EngineConfig
from tests.engine.synthesis.test_scheduler import RATE, VOICE, FakeBackend, Rig


def test_cosyvoice2_declares_its_speed_range_within_the_engines() -> None:
    speed = COSYVOICE2.capabilities.speed
    assert speed is COSYVOICE2_SPEED and (speed.low, speed.high) == (0.5, 2.0)
    assert SPEED.low < speed.low and speed.high < SPEED.high
    assert PIPER.capabilities.speed is SPEED  # Piper speaks at the engine's whole range
    with pytest.raises(ValueError, match="is not from 0.25 to 4"):
        SPEED.narrowed(0.1, 2.0, "a backend")
    assert "speed 0.5 to 2" in COSYVOICE2.describe()  # `dubstudio backends` says it


@pytest.mark.parametrize("speed", [0.49, 2.01, 3.0, SPEED.low, SPEED.high])
def test_a_speed_outside_the_backends_range_is_refused_with_its_range_and_name(speed: float) -> None:
    with pytest.raises(EngineError) as caught:
        VoiceSettings(speed=speed).check(COSYVOICE2_SPEED)
    assert caught.value.code is ErrorCode.BAD_SETTING
    assert caught.value.message == (f"speed must be a number from 0.5 to 2× (1 = the voice's own rate, 2 = twice as fast) "
                                    f"on CosyVoice2-0.5B, got {speed!r}")


def test_the_ends_of_the_backends_range_are_spoken() -> None:
    for speed in (0.5, 1.0, 2.0):
        VoiceSettings(speed=speed).check(COSYVOICE2_SPEED)


class NarrowBackend(FakeBackend):
    """The scheduler tests' backend, declaring CosyVoice2's speed range."""

    @property
    def capabilities(self) -> Capabilities:
        return dataclasses.replace(super().capabilities, speed=COSYVOICE2_SPEED)


def test_the_engine_refuses_a_speed_its_backend_does_not_speak_at_and_serves_the_rest() -> None:
    rig = Rig()
    rig.engine.backend = NarrowBackend(rig.clock)
    rig.engine.submit(Job("B 1", dataclasses.replace(VOICE, settings=VoiceSettings(speed=3.0)), job_id="B"))
    rig.submit("A 1")
    rig.engine.run_ready()
    (refused,) = rig.of(JobFailed)
    assert refused.job_id == "B" and refused.code is ErrorCode.BAD_SETTING and "on CosyVoice2-0.5B" in refused.message
    assert [e.job_id for e in rig.of(JobFinished)] == ["A"]


def test_capabilities_cross_the_network_with_their_speed_range() -> None:
    ready = EngineReady(COSYVOICE2.capabilities, 2, 1, 1.0)
    assert from_json(to_json(ready), EngineReady) == ready
    old_server = to_json(EngineReady(Capabilities("piper", RATE, True, ("en",), False, False, False), 1, 1, 1.0))
    del old_server["backend"]["speed"]  # a server from before the field: the engine's range
    assert from_json(old_server, EngineReady).backend.speed == SPEED


MAX_SLOTS = int(SLOTS.high)


@pytest.mark.parametrize("slots", [0, MAX_SLOTS + 1, 64, 2.0, True, "4"])
def test_slots_outside_the_declared_range_are_refused_never_clamped(slots: Any) -> None:
    with pytest.raises(EngineError) as caught:
        SLOTS.check(slots)
    assert caught.value.code is ErrorCode.BAD_OPTION
    assert caught.value.message == f"slots must be a whole number from 1 to {MAX_SLOTS}, got {slots!r}"
    rig = Rig(slots=2)
    rig.engine.handle(SetSlots(slots))  # a client that did not check: told, and nothing changes
    assert rig.engine.slots == 2
    (failed,) = rig.of(RequestFailed)
    assert failed.code is ErrorCode.BAD_OPTION and failed.message == caught.value.message


def test_the_engine_takes_every_slot_count_up_to_the_maximum() -> None:
    rig = Rig()
    rig.engine.handle(SetSlots(MAX_SLOTS))
    assert rig.engine.slots == MAX_SLOTS and rig.of(SlotsChanged)[-1].slots == MAX_SLOTS


def test_the_client_refuses_slots_out_of_range_before_it_starts_or_sends_anything() -> None:
    client = EngineClient(EngineConfig(slots=MAX_SLOTS + 1))
    with pytest.raises(EngineStartError) as caught:
        client.start()
    assert caught.value.code is ErrorCode.BAD_OPTION and f"from 1 to {MAX_SLOTS}" in str(caught.value)
    assert client.pid is None  # nothing was spawned
    with pytest.raises(EngineError):
        client.set_slots(0)


def test_the_cli_refuses_slots_over_the_maximum_with_the_declared_range(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["say", "Hello.", "--out", str(tmp_path / "x.wav"), "--slots", str(MAX_SLOTS + 1)])
    assert caught.value.code == 2
    assert (f"argument --slots: E_BAD_OPTION: slots must be a whole number from 1 to {MAX_SLOTS}, got {MAX_SLOTS + 1}"
            in capsys.readouterr().err)


def test_the_cli_refuses_a_speed_the_chosen_backend_does_not_speak_at(tmp_path: Path) -> None:
    # No model folder is needed to be told: the speed is refused before any engine starts.
    done = subprocess.run([sys.executable, "-m", "app.cli", "say", "Hello.", "--out", str(tmp_path / "x.wav"),
                           "--backend", "cosyvoice2", "--speed", "3"], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and not (tmp_path / "x.wav").exists()
    assert f"E_BAD_SETTING: {COSYVOICE2_SPEED.refusal(3.0)}" in done.stderr
    helped = subprocess.run([sys.executable, "-m", "app.cli", "say", "--help"], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=120)
    assert "on cosyvoice2 0.5 to 2 only" in " ".join(helped.stdout.split())
