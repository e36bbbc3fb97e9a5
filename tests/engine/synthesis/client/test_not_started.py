"""A client used before start() says so with a code, instead of failing on a missing pipe."""

import pytest

from engine.core.protocol import EngineError, ErrorCode, Job, VoiceSpec
from engine.synthesis.client.local import EngineClient


@pytest.mark.parametrize("use", [
    lambda client: client.submit(Job(text="Hello.", voice=VoiceSpec("clip.wav"))),
    lambda client: client.cancel("job"),
    lambda client: client.prepare_voice(VoiceSpec("clip.wav")),
    lambda client: client.request_stats(),
    lambda client: client.get_event(timeout=0.01),
])
def test_a_request_before_start_is_refused_with_a_code(use) -> None:
    client = EngineClient()
    with pytest.raises(EngineError) as caught:
        use(client)
    assert caught.value.code is ErrorCode.ENGINE_START
    assert "never started" in str(caught.value)


def test_closing_a_client_never_started_does_nothing() -> None:
    EngineClient().close()
