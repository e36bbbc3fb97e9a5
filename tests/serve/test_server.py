"""The server end to end: real engines in Ray Serve replicas, reached over HTTPS with a token.

Tests run in this order on one server (conftest.py); the replica kill comes last because the
server needs a while to replace the replica.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.project import Project
from app.project.sample import copy_sample_project
from engine.core.protocol import (
    AudioChunk,
    ErrorCode,
    Job,
    JobFailed,
    JobFinished,
    JobStarted,
    RequestFailed,
    VoicePrepared,
)
from engine.synthesis.client.local import EngineClient, EngineStartError, collect
from engine.synthesis.client.remote import RemoteConfig, RemoteEngineClient
from engine.synthesis.config import EngineConfig
from tests.engine.helpers import ended, events_until, sample_voice
from tests.serve.conftest import MAX_CLIP_MB, MAX_TEXT_CHARS, Server, dubstudio, health

pytestmark = pytest.mark.serve

LONG_TEXT = " ".join(f"This is sentence number {n} of a long line that keeps the engine busy." for n in range(1, 25))


def test_health_is_open_and_everything_else_needs_the_token(server: Server) -> None:
    assert health(server.url, server.ca_file) == {"status": "ok"}
    for token in (None, "wrong-token-wrong-token"):
        with pytest.raises(EngineStartError) as refused:
            server.client(token=token).start()
        assert refused.value.code is ErrorCode.UNAUTHORIZED
    # The job endpoint itself refuses, not just the client's first call.
    connection = http.client.HTTPSConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=30,
                                             context=ssl.create_default_context(cafile=str(server.ca_file)))
    try:
        connection.request("POST", "/v1/jobs", body=b"{}", headers={"Authorization": "Bearer nope"})
        response = connection.getresponse()
        assert response.status == 401
        assert json.loads(response.read())["code"] == ErrorCode.UNAUTHORIZED.value
    finally:
        connection.close()


def test_an_untrusted_certificate_is_refused(server: Server) -> None:
    client = RemoteEngineClient(RemoteConfig(server.url, token=server.token))  # no --engine-ca
    with pytest.raises(EngineStartError) as refused:
        client.start()
    assert refused.value.code is ErrorCode.ENGINE_START
    assert "CERTIFICATE_VERIFY_FAILED" in str(refused.value)


def test_streamed_chunks_match_a_local_run(server: Server, tmp_path: Path) -> None:
    voice = sample_voice("maya")
    text = "The storm is coming. Close the shutters, and bring the lamp inside!"
    client = server.client()
    ready = client.start()
    assert ready.backend.name == "embedded" and ready.slots == 2  # 2 replicas x 1 slot
    remote_chunks, remote_end = collect(client, Job(text, voice), timeout=300)
    assert isinstance(remote_end, JobFinished), remote_end
    with EngineClient(EngineConfig(slots=1, cache_dir=str(tmp_path),
                                   backend_options={"noise_scale": 0.0, "noise_w": 0.0})) as local:
        local_chunks, local_end = collect(local, Job(text, voice), timeout=300)
    assert isinstance(local_end, JobFinished), local_end
    assert [c.text for c in remote_chunks] == [c.text for c in local_chunks]
    assert [c.seq for c in remote_chunks] == list(range(len(local_chunks)))
    assert all(c.pcm.dtype == np.float32 and c.sample_rate == 22050 for c in remote_chunks)
    for mine, theirs in zip(remote_chunks, local_chunks):
        assert mine.pcm.shape == theirs.pcm.shape
        np.testing.assert_allclose(mine.pcm, theirs.pcm, atol=1e-4)


def test_voices_are_uploaded_once_and_prepared_remotely(server: Server) -> None:
    client = server.client()
    client.start()
    voice = sample_voice("rex")
    first = client.prepare_voice(voice)
    again = client.prepare_voice(voice)
    events = events_until(client, lambda e, seen: len([x for x in seen if isinstance(x, VoicePrepared)]) == 2,
                          timeout=300)
    replies = {e.request_id: e for e in events if isinstance(e, VoicePrepared)}
    assert set(replies) == {first, again}
    assert replies[first].voice_key == replies[again].voice_key
    stats = server.stats()
    assert stats["clip_store"]["clips"] >= 1
    # Routing by the clip's hash sends both to the replica that holds the voice: one preparation.
    assert sum(r["cache_misses"] for r in stats["replicas"]) <= len(stats["replicas"]) + 2


def test_bad_input_gets_the_local_engines_codes(server: Server, tmp_path: Path) -> None:
    client = server.client()
    client.start()
    silent = tmp_path / "silent.wav"
    sf.write(str(silent), np.zeros(22050 * 3, dtype=np.float32), 22050)
    from engine.core.protocol import VoiceSpec

    cases = {
        "empty": (Job("   ", sample_voice()), ErrorCode.EMPTY_TEXT),
        "symbols": (Job("... !!! ---", sample_voice()), ErrorCode.NOTHING_SPEAKABLE),
        "missing clip": (Job("Hello.", VoiceSpec(str(tmp_path / "nowhere.wav"))), ErrorCode.CLIP_MISSING),
        "silent clip": (Job("Hello.", VoiceSpec(str(silent))), ErrorCode.CLIP_SILENT),
        "japanese": (Job("今日はとても暑いですね。", sample_voice()), ErrorCode.LANGUAGE_UNSUPPORTED),  # embedded: en, zh
    }
    for name, (job, code) in cases.items():
        _, end = collect(client, job, timeout=300)
        assert isinstance(end, JobFailed) and end.code is code, (name, end)


def test_oversized_text_and_clip_are_refused_with_codes(server: Server, tmp_path: Path) -> None:
    client = server.client()
    client.start()
    _, end = collect(client, Job("word " * (MAX_TEXT_CHARS // 5 + 1), sample_voice()), timeout=60)
    assert isinstance(end, JobFailed) and end.code is ErrorCode.TEXT_TOO_LONG, end
    big = tmp_path / "big.wav"  # 20 s of 44.1 kHz stereo 16-bit: 3.5 MB, over the 1 MB limit
    rng = np.random.default_rng(0)
    sf.write(str(big), rng.uniform(-0.3, 0.3, (44100 * 20, 2)), 44100, subtype="PCM_16")
    assert big.stat().st_size > MAX_CLIP_MB * 2**20
    from engine.core.protocol import VoiceSpec

    _, end = collect(client, Job("Hello.", VoiceSpec(str(big))), timeout=60)
    assert isinstance(end, JobFailed) and end.code is ErrorCode.CLIP_TOO_LARGE, end
    request = client.prepare_voice(VoiceSpec(str(big)))
    failed = events_until(client, lambda e, _: isinstance(e, RequestFailed) and e.request_id == request)[-1]
    assert failed.code is ErrorCode.CLIP_TOO_LARGE


def test_json_nested_too_deeply_is_a_bad_request(server: Server) -> None:
    """Issue 34's serve campaign: 30,000 nested lists (60 KB, within the body limit) made the
    ingress's JSON parser raise RecursionError, answered 500 with a traceback in its log."""
    connection = http.client.HTTPSConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=60,
                                             context=ssl.create_default_context(cafile=str(server.ca_file)))
    try:
        connection.request("POST", "/v1/jobs", body=b"[" * 30_000 + b"]" * 30_000,
                           headers={"Authorization": f"Bearer {server.token}"})
        response = connection.getresponse()
        assert (response.status, json.loads(response.read())["code"]) == (400, ErrorCode.BAD_REQUEST.value)
    finally:
        connection.close()
    assert health(server.url, server.ca_file) == {"status": "ok"}


def test_a_client_gone_before_its_whole_body_leaves_no_traceback(server: Server) -> None:
    """Issue 34's serve campaign: a body cut short by its client raised starlette's ClientDisconnect
    out of the ingress, a traceback in the server's log for every such client."""
    port = int(server.url.rsplit(":", 1)[1])
    context = ssl.create_default_context(cafile=str(server.ca_file))
    heads = server.log.read_text().count("HEAD /v1/clips/")
    with socket.create_connection(("127.0.0.1", port), timeout=30) as plain, \
            context.wrap_socket(plain, server_hostname="127.0.0.1") as sock:
        sock.sendall(f"POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {server.token}\r\n"
                     'Content-Length: 1000\r\n\r\n{"job": '.encode())
        time.sleep(1.0)
    # A request after it, whose access line shows the ingress's log has come this far.
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=60, context=context)
    try:
        connection.request("HEAD", f"/v1/clips/{'0' * 64}", headers={"Authorization": f"Bearer {server.token}"})
        assert connection.getresponse().status == 404
    finally:
        connection.close()
    deadline = time.monotonic() + 60
    while server.log.read_text().count("HEAD /v1/clips/") == heads and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(2.0)  # the worker's error stream is forwarded beside its access lines, not in order with them
    assert "ClientDisconnect" not in server.log.read_text()


def test_cancel_stops_the_engine_job(server: Server) -> None:
    client = server.client()
    client.start()
    before = server.stats()["totals"]
    job = Job(LONG_TEXT, sample_voice("maya"))
    client.submit(job)
    events_until(client, lambda e, _: isinstance(e, AudioChunk) and e.job_id == job.job_id, timeout=300)
    client.cancel(job.job_id)
    end = events_until(client, ended({job.job_id}), timeout=60)[-1]
    assert isinstance(end, JobFailed) and end.code is ErrorCode.CANCELLED
    # The engine itself stopped the job: counted failed (cancelled), never finished, nothing running.
    after = server.wait_stats(lambda s: s["totals"]["running"] == 0
                              and s["totals"]["jobs_failed"] > before["jobs_failed"])
    assert after["totals"]["jobs_finished"] == before["jobs_finished"]


def test_render_of_the_sample_project_through_the_server(server: Server, tmp_path: Path) -> None:
    project_dir = copy_sample_project(tmp_path / "scene").root
    result = subprocess.run(dubstudio("render", str(project_dir), "--no-progress", "--export", "mix", *server.cli()),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    project = Project.load(project_dir)
    assert project.lines and all(project.chosen_take(line) is not None for line in project.lines)
    assert (project_dir / "exports" / "mix.wav").is_file()


def test_say_through_the_server(server: Server, tmp_path: Path) -> None:
    out = tmp_path / "line.wav"
    result = subprocess.run(dubstudio("say", "Meet me at the harbour.", "--out", str(out), "--json", *server.cli()),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["engine"] == server.url and report["backend"] == "embedded"
    audio, rate = sf.read(str(out))
    assert rate == 22050 and len(audio) / rate == pytest.approx(report["audio_s"], abs=0.01)


def test_bench_against_the_server_for_two_levels(server: Server, tmp_path: Path) -> None:
    report_path = tmp_path / "bench.json"
    result = subprocess.run(dubstudio("bench", "--levels", "1,2", "--jobs-per-level", "2", "--warmup", "0",
                                      "--json", str(report_path), "-q", *server.cli()),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(report_path.read_text())
    assert report["engine"]["target"] == server.url
    assert report["engine"]["replicas"] == 2 and report["engine"]["replicas_end"] == 2
    assert report["config"]["engine_url"] == server.url
    levels = report["levels"]
    assert [level["level"] for level in levels] == [1, 2]
    assert all(level["jobs"] == 2 and level["errors"] == 0 for level in levels)
    assert f"the server at {server.url}" in report["verdict"]["sentence"]


def test_a_replica_killed_mid_job_resubmits_or_fails_retryable(server: Server) -> None:
    client = server.client()
    client.start()
    # One voice, so the server routes every job to the replica that holds it; three long jobs keep it
    # busy for several of the 2 s rounds in which replicas publish their stats.
    jobs = [Job(LONG_TEXT, sample_voice("rex")) for _ in range(3)]
    submitted = time.monotonic()
    for job in jobs:
        client.submit(job)
    seen = events_until(client, lambda e, _: isinstance(e, JobStarted), timeout=300)

    def streaming_ours(stats: dict) -> list[dict]:
        """Replicas streaming jobs, by stats published after these jobs went in: older stats may
        still show the previous test's jobs on another replica."""
        since = time.monotonic() - submitted - 0.5  # less the time the stats took to come back
        return [r for r in stats["replicas"] if r["streams"] and r["age_s"] < since]

    victim = max(streaming_ours(server.wait_stats(lambda s: bool(streaming_ours(s)))), key=lambda r: r["streams"])
    os.kill(victim["pid"], signal.SIGKILL)
    seen += events_until(client, ended({job.job_id for job in jobs}), timeout=600)
    failures = [e for e in seen if isinstance(e, JobFailed)]
    assert failures, "the jobs' replica was killed, yet nothing failed"
    assert failures[0].code is ErrorCode.ENGINE_CRASHED and failures[0].retryable and failures[0].resubmitted
    for job in jobs:
        mine = [e for e in seen if getattr(e, "job_id", None) == job.job_id]
        end = mine[-1]
        # Never lost: it finished (after a resubmission if it was hit), or failed for good marked retryable.
        assert isinstance(end, JobFinished) or (isinstance(end, JobFailed) and end.retryable), end
        hit = [e for e in mine if isinstance(e, JobFailed)]
        if hit and isinstance(end, JobFinished):
            after = [e for e in mine[mine.index(hit[-1]):] if isinstance(e, AudioChunk)]
            assert [c.seq for c in after] == list(range(end.timing.chunks))  # a whole new run, from chunk 0
    # Serve brings the replica back (the fixture's teardown checks that no engine outlived the server).
    server.wait_stats(lambda s: len(s["replicas"]) == 2 and victim["replica_id"] not in
                      {r["replica_id"] for r in s["replicas"]}, timeout=300)
