"""The parts of serving that need no Ray: the network encoding of the engine protocol
(engine.synthesis.client.wire), the server's options, and the remote client's errors without a server."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.core.protocol import (
    AudioChunk,
    Capabilities,
    EngineReady,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    JobQueued,
    JobTiming,
    Priority,
    Stats,
    VoicePrepared,
    VoiceSettings,
    VoiceSpec,
)
from engine.synthesis.client.local import EngineStartError
from engine.synthesis.client.remote import (
    RemoteConfig,
    RemoteEngineClient,
    read_token_file,
)
from engine.synthesis.client.wire import (
    WireError,
    dumps,
    encode_frame,
    from_json,
    loads,
    read_frame,
    to_json,
)
from engine.synthesis.config import EngineConfig
from engine.synthesis.serve.config import (
    ServeConfigError,
    ServeOptions,
    is_loopback,
    options_from_config,
    read_token,
    replica_max_ongoing,
)
from tests.engine.helpers import POSIX_ONLY, returns_at_once

JOB = Job("Hello there.", VoiceSpec("/clips/a.wav", "a transcript", VoiceSettings(1.1, -2.0, "softly", "en")),
          Priority.INTERACTIVE, listening=False)


def test_messages_round_trip_through_json() -> None:
    messages = [
        JOB,
        EngineReady(Capabilities("piper", 22050, True, ("en",), False, False, False), 2, 0, 1.5),
        JobQueued("j", 3),
        JobFinished("j", JobTiming(0.1, 0.0, "memory", 0.2, 0.9, 3.2, 2)),
        JobFailed("j", ErrorCode.ENGINE_CRASHED, "gone", retryable=True, resubmitted=True),
        VoicePrepared("r", "key", "miss", 1.2, {"warnings": ["cut"], "f0": 101.5}),
        Stats("r", 0, "piper", 2, 0, 1, 5, 1, 3, 1, 2, 0, 4.5, 60.0),
    ]
    for message in messages:
        assert loads(dumps(message)) == message
        assert json.loads(json.dumps(to_json(message))) == to_json(message)  # plain JSON all the way


@pytest.mark.parametrize("change, complaint", [
    ({"text": 5}, "Job.text: expected a str"),
    ({"priority": 7}, "not a Priority"),
    ({"voice": {"clip_path": "a.wav", "settings": {"speed": "fast"}}}, "speed: expected a number"),
    ({"voice": {"clip_path": "a.wav", "settings": {"speed": True}}}, "speed: expected a number"),
    ({"evil": 1}, "unknown field(s) evil"),
    ({"voice": None}, "Job.voice: expected an object"),
])
def test_a_job_from_the_network_is_checked_field_by_field(change: dict, complaint: str) -> None:
    data = {**to_json(JOB), **change}
    with pytest.raises(WireError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        from_json(data, Job)


def test_only_the_expected_type_and_known_types_decode() -> None:
    with pytest.raises(WireError, match="expected a Job"):
        from_json(to_json(JobQueued("j", 1)), Job)
    with pytest.raises(WireError, match="unknown message type"):
        from_json({"type": "Shutdown"})
    with pytest.raises(WireError, match="does not travel"):
        to_json(AudioChunk("j", 0, np.zeros(3, np.float32), 22050))
    with pytest.raises(WireError, match="not JSON"):
        loads(b"\xff{")


def test_frames_carry_audio_as_raw_float32_and_events_as_json() -> None:
    pcm = np.linspace(-1, 1, 1000, dtype=np.float32)
    events = [JobQueued("j", 0), AudioChunk("j", 0, pcm, 24000, "Hello."), JobFinished("j", JobTiming(0, 0, "miss", 0.1, 0.2, 0.04, 1))]
    stream = io.BytesIO(b"".join(encode_frame(e) for e in events))
    chunk = encode_frame(events[1])
    assert len(chunk) == 9 + len(json.dumps({"job_id": "j", "seq": 0, "sample_rate": 24000, "text": "Hello."},
                                            separators=(",", ":"))) + 4000  # header + meta + raw samples
    got = [read_frame(stream) for _ in events]
    assert read_frame(stream) is None  # a clean end between frames
    assert got[0] == events[0] and got[2] == events[2]
    assert isinstance(got[1], AudioChunk) and got[1].text == "Hello." and got[1].sample_rate == 24000
    np.testing.assert_array_equal(got[1].pcm, pcm)
    got[1].pcm[0] = 0.5  # consumers may change what they get


def test_a_truncated_or_oversized_frame_is_an_error() -> None:
    frame = encode_frame(AudioChunk("j", 0, np.zeros(100, np.float32), 22050))
    with pytest.raises(WireError, match="ended inside a frame"):
        read_frame(io.BytesIO(frame[:-10]))
    with pytest.raises(WireError, match="too large"):
        read_frame(io.BytesIO(b"A" + (2**31).to_bytes(4, "little") + bytes(4)))
    with pytest.raises(WireError, match="unknown frame kind"):
        read_frame(io.BytesIO(b"Z" + bytes(8)))


# --- server options --------------------------------------------------------------------------


def test_a_non_local_bind_needs_a_token() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("studio.lan")
    ServeOptions().validate()  # loopback without a token is fine
    with pytest.raises(ServeConfigError, match="without a token"):
        ServeOptions(host="0.0.0.0").validate()
    ServeOptions(host="0.0.0.0", token="x" * 32).validate()
    with pytest.raises(ServeConfigError, match="both --tls-cert and --tls-key"):
        ServeOptions(tls_cert="cert.pem").validate()
    with pytest.raises(ServeConfigError, match="MIN <= MAX"):
        ServeOptions(autoscale=(3, 2)).validate()
    with pytest.raises(ServeConfigError, match="each backend once"):
        ServeOptions(engines=[EngineConfig(), EngineConfig()]).validate()


def test_token_files_must_be_private_and_long(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("s3cret-but-long-enough-token\n")
    token.chmod(0o600)
    assert read_token(token) == "s3cret-but-long-enough-token"
    token.chmod(0o644)
    with pytest.raises(ServeConfigError, match="chmod 600"):
        read_token(token)
    token.write_text("short")
    token.chmod(0o600)
    with pytest.raises(ServeConfigError, match="at least 16"):
        read_token(token)
    with pytest.raises(ServeConfigError, match="cannot read"):
        read_token(tmp_path / "none")


def test_deployments_are_sized_from_the_engines_slots() -> None:
    options = ServeOptions(slots=3, replicas=2)
    fixed = options.deployment_options(EngineConfig(backend="piper"), cluster_gpus=4)
    # The engine streams 4 jobs per slot by default, and one more per slot waits in its queue.
    assert fixed["num_replicas"] == 2 and fixed["max_ongoing_requests"] == replica_max_ongoing(3, None) == 15
    assert ServeOptions(slots=2).deployment_options(EngineConfig(max_active=3), 0)["max_ongoing_requests"] == 5
    assert fixed["ray_actor_options"]["num_gpus"] == 0  # Piper never uses a GPU
    scaled = ServeOptions(slots=2, autoscale=(1, 4)).deployment_options(EngineConfig(backend="cosyvoice2"), 4)
    assert "num_replicas" not in scaled and scaled["ray_actor_options"]["num_gpus"] == 1
    assert scaled["autoscaling_config"]["target_ongoing_requests"] == 4  # two per slot unless told
    told = ServeOptions(slots=2, autoscale=(1, 4), target_ongoing=7).deployment_options(EngineConfig(), 0)
    assert told["autoscaling_config"]["target_ongoing_requests"] == 7
    assert (scaled["autoscaling_config"]["min_replicas"], scaled["autoscaling_config"]["max_replicas"]) == (1, 4)
    assert ServeOptions().deployment_options(EngineConfig(backend="cosyvoice2"), 0)["ray_actor_options"]["num_gpus"] == 0


def test_a_serve_config_for_a_cluster_needs_a_token_and_known_settings(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("cluster-token-0123456789")
    token.chmod(0o600)
    # `serve run ... key=value` hands every value over as text.
    options = options_from_config({"token_file": str(token), "backends": "piper,cosyvoice2", "slots": "2",
                                   "autoscale": "1,3", "backend_options": {"cosyvoice2": {"fp16": True}}})
    assert [e.backend for e in options.engines] == ["piper", "cosyvoice2"]
    assert options.engines[1].backend_options == {"fp16": True}
    assert (options.slots, options.autoscale, options.token) == (2, (1, 3), "cluster-token-0123456789")
    with pytest.raises(ServeConfigError, match="give token_file"):
        options_from_config({"slots": 2})
    with pytest.raises(ServeConfigError, match="unknown setting"):
        options_from_config({"token_file": str(token), "slot": 2})
    with pytest.raises(ServeConfigError, match="bad setting"):
        options_from_config({"token_file": str(token), "slots": "many"})


def test_serve_refuses_a_public_bind_without_a_token_before_starting_anything() -> None:
    result = subprocess.run([sys.executable, "-m", "app.cli", "serve", "--host", "0.0.0.0"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "refusing to listen on 0.0.0.0 without a token" in result.stderr


# --- the remote client without a server ------------------------------------------------------


def test_remote_client_errors_have_codes(tmp_path: Path) -> None:
    with pytest.raises(EngineStartError) as bad:
        RemoteEngineClient(RemoteConfig("ftp://example")).start()
    assert bad.value.code is ErrorCode.BAD_REQUEST
    with pytest.raises(EngineStartError) as down:  # nothing listens on port 9 of this machine
        RemoteEngineClient(RemoteConfig("http://127.0.0.1:9", connect_timeout_s=5)).start()
    assert down.value.code is ErrorCode.ENGINE_START and "Cannot reach" in str(down.value)
    empty = tmp_path / "token"
    empty.write_text("\n")
    with pytest.raises(EngineStartError) as no_token:
        read_token_file(empty)
    assert no_token.value.code is ErrorCode.UNAUTHORIZED


@POSIX_ONLY
def test_serve_token_file_on_a_fifo_is_refused_at_once(fifo: Path) -> None:
    error = returns_at_once(lambda: read_token(fifo))
    assert isinstance(error, ServeConfigError) and "named pipe" in str(error)


@POSIX_ONLY
def test_a_client_token_file_on_a_fifo_is_refused_at_once(fifo: Path) -> None:
    error = returns_at_once(lambda: read_token_file(fifo))
    assert isinstance(error, EngineStartError) and error.code is ErrorCode.UNAUTHORIZED and "named pipe" in str(error)


@pytest.mark.parametrize("change", [
    {"max_clip_bytes": int(-1 * 2**20)}, {"job_timeout_s": math.nan}, {"clip_store_bytes": -2**20},
    {"replica_cpus": math.nan}, {"port": 70000}, {"max_text_chars": 0},
])
def test_server_limits_must_be_finite_and_in_range(change: dict[str, Any]) -> None:
    with pytest.raises(ServeConfigError):
        ServeOptions(**change).validate()
    ServeOptions().validate()
