"""A fit asks a backend for at most the speed it declares (CosyVoice2: 2), then stretches the
rest; it never lowers a character's own speed, which the engine refuses when out of range."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.project import Project
from app.project.render import RenderSession
from engine.core.protocol import EngineReady
from engine.synthesis.backends import COSYVOICE2
from tests.app.project.test_project_render_session import RATE, ScriptedClient, speak

from .conftest import tone


def _cosyvoice_client() -> ScriptedClient:
    return ScriptedClient(ready=EngineReady(COSYVOICE2.capabilities, 2, 1234, 1.0))


@pytest.mark.parametrize("own_speed, asked", [(1.8, 2.0), (1.0, None)])
def test_a_fit_asks_for_no_more_than_the_backends_fastest_speed(project: Project, own_speed: float,
                                                                 asked: float | None) -> None:
    maya = project.character("maya")
    maya.settings = replace(maya.settings, speed=own_speed)
    project.settings.fit_borrow_s = 0.0  # the slot as it is, no silence borrowed after it
    client = _cosyvoice_client()
    session = RenderSession(project, ["l1"], fit=True)
    session.start(client)
    speak(session, client.submitted[0], tone(3.6, rate=RATE))  # 20 % over its 3 s slot
    faster = client.submitted[1].voice.settings.speed
    if asked is None:  # well within the range: the fit's own choice
        assert own_speed < faster < COSYVOICE2.capabilities.speed.high
    else:
        assert faster == asked


def test_a_characters_own_speed_out_of_the_backends_range_is_sent_as_set(project: Project) -> None:
    maya = project.character("maya")
    maya.settings = replace(maya.settings, speed=2.5)  # the engine refuses it (E_BAD_SETTING), naming the range
    client = _cosyvoice_client()
    session = RenderSession(project, ["l1"], fit=True)
    session.start(client)
    assert client.submitted[0].voice.settings.speed == 2.5
    speak(session, client.submitted[0], tone(3.6, rate=RATE))
    assert client.submitted[1].voice.settings.speed == 2.5  # never lowered below what was asked
