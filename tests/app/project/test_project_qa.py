"""Take QA on a project: the checker and its process, stored results, verdicts, `dubstudio qa`.

Takes here are real speech from the embedded model (piper's joe voice), other speech, noise
and silence written as takes; nothing stands in for the recogniser or the speaker encoder.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from app.cli import main as cli_main
from app.project import Project
from app.project.qa import (
    QaOutcome,
    QaWorker,
    ReportRow,
    TakeChecker,
    chosen_verdicts,
    lines_failing_qa,
    record,
    request_for,
    unchecked_takes,
)
from engine.core.codes import ErrorCode
from tests.engine.helpers import joe_says, packed_window_sizes

from .conftest import VOICES, add_fake_take, make_project

OTHER_SPEECH = "My brother bought three apples and a loaf of bread, then walked home in the rain."


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def scene(project: Project) -> Project:
    return with_takes(project)


def with_takes(project: Project) -> Project:
    """Lines 1-4 of the test scene with takes: clean speech, other speech, noise, clean speech
    (line 4 has no slot of its own; line 5 has no take)."""
    lines = project.lines
    clean, rate = joe_says(lines[0].text)
    add_fake_take(project, lines[0], clean, rate)
    other, rate = joe_says(OTHER_SPEECH)
    add_fake_take(project, lines[1], other[: int(2.4 * rate)], rate)  # fits line 2's 2.5 s slot
    noise = (np.random.default_rng(5).standard_normal(2 * rate) * 0.15).astype(np.float32)
    add_fake_take(project, lines[2], noise, rate)
    clean4, rate = joe_says(lines[3].text)
    add_fake_take(project, lines[3], clean4, rate)
    project.save()
    return project


def check_all(project: Project) -> dict[str, QaOutcome]:
    checker = TakeChecker()
    outcomes = {}
    for line, take in unchecked_takes(project):
        outcomes[line.id] = checker.check(request_for(project, line, take))
        record(project, outcomes[line.id])
    return outcomes


def take_digests(project: Project) -> dict[str, str]:
    takes = {line.id: project.chosen_take(line) for line in project.lines}
    return {line_id: digest(project.take_path(t)) for line_id, t in takes.items() if t is not None}


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, dict[str, str]]:
    """The scene checked once (every take heard: seconds of Whisper and CAM++) and saved, for the
    tests that only read its results: (the project as checked, its takes' digests before)."""
    scene = with_takes(make_project(tmp_path_factory.mktemp("checked") / "scene"))
    hashes = take_digests(scene)
    check_all(scene)
    scene.save()
    return scene, hashes


def copy_of(checked: tuple[Project, dict[str, str]], folder: Path) -> Project:
    """The checked scene as saved, in ``folder``, for a test that changes it."""
    return Project.load(shutil.copytree(checked[0].root, folder / "scene"))


def test_clean_speech_passes_and_other_speech_or_noise_fail_for_intelligibility(
        checked: tuple[Project, dict[str, str]]) -> None:
    scene, hashes = checked
    verdicts = chosen_verdicts(scene)
    assert verdicts["l1"] is not None and verdicts["l1"].passed is True, verdicts["l1"]
    assert verdicts["l4"] is not None and verdicts["l4"].passed is True, verdicts["l4"]
    for line_id, code in (("l2", "QA_UNINTELLIGIBLE"), ("l3", "QA_NO_SPEECH")):
        verdict = verdicts[line_id]
        assert verdict is not None and verdict.passed is False
        assert verdict.findings[0].code == code, verdict
    assert verdicts["l5"] is None  # no take
    assert [line.id for line in lines_failing_qa(scene)] == ["l2", "l3"]
    # QA only reads: every take file is byte for byte what it was
    assert take_digests(scene) == hashes


def test_results_are_stored_with_the_take_and_survive_a_reload(checked: tuple[Project, dict[str, str]],
                                                               tmp_path: Path) -> None:
    scene = checked[0]
    again = copy_of(checked, tmp_path)
    take = again.chosen_take(again.lines[0])
    assert take is not None and take.qa is not None and take.qa == scene.chosen_take(scene.lines[0]).qa
    assert take.qa.recogniser.startswith("faster-whisper") and take.qa.resemblance is not None
    assert unchecked_takes(again) == []
    stored = json.loads((scene.root / "project.json").read_text())["lines"][0]["takes"][0]["qa"]
    assert stored["wer"] == take.qa.wer and stored["transcript"] == take.qa.transcript


def test_verdicts_follow_thresholds_and_timecodes_without_listening_again(
        checked: tuple[Project, dict[str, str]], tmp_path: Path) -> None:
    scene = copy_of(checked, tmp_path)
    line = scene.lines[0]
    take = scene.chosen_take(line)
    assert take is not None and chosen_verdicts(scene)["l1"].passed is True
    line.end = (line.start or 0.0) + take.duration_s - 1.0  # the slot now ends a second early
    verdict = chosen_verdicts(scene)["l1"]
    assert verdict is not None and [f.code for f in verdict.findings] == ["QA_OVERRUN"]
    scene.settings.qa = type(scene.settings.qa)(max_overrun_s=2.0)
    assert chosen_verdicts(scene)["l1"].passed is True


def test_a_missing_take_file_is_reported_not_crashed_on(scene: Project) -> None:
    line = scene.lines[0]
    take = scene.chosen_take(line)
    assert take is not None
    scene.take_path(take).unlink()
    outcome = TakeChecker().check(request_for(scene, line, take))
    assert outcome.checks is None and outcome.error.startswith(ErrorCode.TAKE_UNREADABLE)
    assert record(scene, outcome) is None


def test_a_batch_sends_each_take_s_outcome_as_soon_as_it_is_measured(scene: Project, monkeypatch) -> None:
    """The worker's batch (streamed) hands each outcome on the moment its take is measured, not at
    the batch's end, and the outcomes are those of the batch checked in one go."""
    from engine.hearing.qa import checks as qa_checks

    requests = [request_for(scene, line, take) for line, take in unchecked_takes(scene)]
    checker = TakeChecker()
    at_once = checker.check_batch(requests, streamed=True)
    events: list[tuple[str, str]] = []
    real_measure = qa_checks.measure_take
    by_text = {request.text: request.line_id for request in requests}

    def measure_noted(pcm, rate, text, *args, **kwargs):
        checks = real_measure(pcm, rate, text, *args, **kwargs)
        events.append(("measured", by_text[text]))
        return checks

    monkeypatch.setattr(qa_checks, "measure_take", measure_noted)
    sent: list[QaOutcome] = []
    returned = checker.check_batch(requests, streamed=True,
                                   on_outcome=lambda o: (sent.append(o), events.append(("sent", o.line_id))))
    # Each take's outcome goes out right after it is measured, before the next take is.
    assert events == [event for line_id in [o.line_id for o in sent] for event in (("measured", line_id), ("sent", line_id))]
    assert sorted(o.line_id for o in sent) == sorted(r.line_id for r in requests)
    assert returned == [next(o for o in sent if o.line_id == r.line_id) for r in requests]

    def heard(outcome: QaOutcome) -> tuple[object, ...]:
        assert outcome.checks is not None
        return outcome.line_id, outcome.checks.transcript, outcome.checks.wer, outcome.checks.resemblance

    assert [heard(o) for o in returned] == [heard(o) for o in at_once]


def test_a_worker_at_a_lower_priority_checks_at_that_priority(scene: Project) -> None:
    line, take = unchecked_takes(scene)[0]
    worker = QaWorker(niceness=19)  # benchmarks/qa_pace.py's "qa nice 19"
    try:
        worker.submit(request_for(scene, line, take))
        child = psutil.Process(worker._process.pid)
        outcomes = []
        while worker.pending:
            outcomes += worker.poll(timeout=5.0)
        assert outcomes[0].checks is not None and child.nice() == 19
    finally:
        worker.close()


def test_the_worker_checks_in_its_own_process_at_the_render_s_priority_and_recovers_from_a_crash(scene: Project) -> None:
    requests = [request_for(scene, line, take) for line, take in unchecked_takes(scene)]
    worker = QaWorker()
    try:
        worker.submit(requests[0])
        assert worker.pending == 1
        child = psutil.Process(worker._process.pid)
        assert child.pid != os.getpid()
        outcomes = []
        while worker.pending:
            outcomes += worker.poll(timeout=5.0)
        assert [o.line_id for o in outcomes] == ["l1"] and outcomes[0].checks is not None
        # At the render's priority (QA_NICENESS 0): at a lower one verdicts queue behind a render.
        assert child.nice() == psutil.Process().nice()

        # Kill it while it checks the next take: that take is reported, the rest still checked,
        # including one submitted after it died.
        for request in requests[1:3]:
            worker.submit(request)
        child.kill()
        worker._process.join(timeout=30)
        worker.submit(requests[3])
        outcomes = []
        while worker.pending:
            outcomes += worker.poll(timeout=5.0)
        assert sorted(o.line_id for o in outcomes) == ["l2", "l3", "l4"]
        crashed = [o for o in outcomes if o.checks is None]
        assert len(crashed) == 1 and crashed[0].line_id == "l2" and crashed[0].error.startswith(ErrorCode.QA_WORKER)
        assert all(o.checks is not None for o in outcomes if o.line_id != "l2")
    finally:
        worker.close()
    assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE


def test_the_worker_ends_with_its_parent_even_in_the_middle_of_a_check(tmp_path: Path) -> None:
    """A studio or render killed mid-check never leaves its QA process behind (issue 10's rule for
    the engine). The take is five minutes of real speech, which Whisper takes minutes of CPU to
    hear; the parent is killed once the QA process is at work on it. (A named pipe used to hold
    the check; every file we read refuses one at once now.)"""
    import soundfile as sf

    from tests.engine.synthesis.test_lifeline import kill_if_alive, wait_gone

    speech, rate = sf.read(str(VOICES / "narrator.wav"), dtype="float32", always_2d=True)
    long_take = tmp_path / "take.wav"
    sf.write(str(long_take), np.tile(speech[:, 0], int(np.ceil(300 * rate / len(speech)))), rate)
    parent_code = textwrap.dedent(f"""
        import time
        from app.project.qa import QaRequest, QaWorker
        if __name__ == "__main__":
            QaWorker().submit(QaRequest("l1", "t1", {str(long_take)!r}, "Hello there.", "", None))
            print("submitted", flush=True)
            time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", parent_code], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "submitted"
        deadline = time.monotonic() + 120
        while not worker and time.monotonic() < deadline:
            for child in psutil.Process(parent.pid).children():
                if "spawn_main" in " ".join(child.cmdline()):
                    worker = child.pid
            time.sleep(0.1)
        assert worker, "no QA process started"
        deadline = time.monotonic() + 300  # past its imports and the model's load: mid-check
        while sum(psutil.Process(worker).cpu_times()[:2]) < 8.0:
            assert time.monotonic() < deadline, "the QA process never got to work"
            time.sleep(0.2)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=60)
        assert wait_gone(worker), "the QA process outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if parent.stdout is not None:
            parent.stdout.close()
        if worker:
            kill_if_alive(worker)


def test_qa_command_prints_a_table_and_exits_1_on_a_failing_take(scene: Project, capsys) -> None:
    before = {p.name: digest(p) for p in scene.takes_dir.iterdir()}
    project_json = (scene.root / "project.json").read_bytes()
    assert cli_main(["qa", str(scene.root)]) == 1
    out, err = capsys.readouterr()
    assert "FAILED" in out and "passed" in out and "QA_UNINTELLIGIBLE" in out, out
    assert "4 takes checked: 2 passed, 2 failed." in err, out  # the table says which take and why
    # read-only without --save: neither the audio nor project.json changed
    assert {p.name: digest(p) for p in scene.takes_dir.iterdir()} == before
    assert (scene.root / "project.json").read_bytes() == project_json


def test_qa_command_packs_the_takes_as_the_studio_does(scene: Project, monkeypatch, capsys) -> None:
    packs = packed_window_sizes(monkeypatch)
    assert cli_main(["qa", str(scene.root), "--json"]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # A clean take is confirmed alone in its own window when it can be (how sure a 2 s window is of
    # "He never listens." moves with the reading); the takes that are not (the other speech and the
    # noise always) share one window.
    assert len(packs) == 1 and 2 <= packs[0] <= 4, packs
    assert [row["passed"] for row in rows] == [True, False, False, True], rows  # as when heard one by one


def test_qa_command_json_lines_and_save(scene: Project, capsys) -> None:
    assert cli_main(["qa", str(scene.root), "--json", "--lines", "1,3", "--save"]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["line_id"] for row in rows] == ["l1", "l3"]
    keys = {"line_id", "take", "recogniser", "language", "metric", "wer", "transcript", "clipping", "silence_s",
            "overrun_s", "resemblance", "passed", "reasons"}
    assert all(keys <= row.keys() == ReportRow.__required_keys__ for row in rows)  # as declared
    first, third = rows
    assert first["recogniser"].startswith("faster-whisper-") and (first["language"], first["metric"]) == ("en", "wer")
    assert first["passed"] is True and first["reasons"] == [] and first["wer"] <= 0.5
    assert set(first["silence_s"]) == {"leading", "inner", "trailing"} and first["overrun_s"] == 0.0
    assert third["passed"] is False and third["reasons"][0].startswith("QA_NO_SPEECH")  # line 3's take is noise
    assert third["overrun_s"] is None  # line 3 has no slot: nothing to overrun
    saved = Project.load(scene.root)
    assert saved.chosen_take(saved.lines[0]).qa is not None and saved.chosen_take(saved.lines[1]).qa is None


def test_qa_command_passes_a_clean_project_and_refuses_bad_input(scene: Project, tmp_path: Path, capsys) -> None:
    assert cli_main(["qa", str(scene.root), "--lines", "1"]) == 0
    assert cli_main(["qa", str(tmp_path / "nowhere")]) == 2
    assert cli_main(["qa", str(scene.root), "--lines", "9"]) == 2
    assert "outside 1-6" in capsys.readouterr().err


def test_qa_table_keeps_its_columns_with_chinese_names(scene: Project, capsys) -> None:
    # A Chinese name takes two terminal columns a character: padded by characters, every row
    # after it was pushed right (林晓雨 three columns too far).
    import unicodedata

    def columns(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in text)

    for name in ("林晓雨", "欧阳娜娜一二三四"):  # a short name, and one cut to 12 columns
        scene.character(scene.lines[0].character_id or "").name = name
        scene.save()
        assert cli_main(["qa", str(scene.root), "--lines", "1"]) == 0
        header, row = capsys.readouterr().out.splitlines()[:2]
        assert columns(row[:row.index(" en ") + 1]) == header.index("lang"), (header, row)
