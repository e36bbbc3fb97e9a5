"""What the take-QA benchmarks (qa_pace.py, qa_render_cost.py) share: the machine pinned to the
target's cores, the sample project repeated, and one render round with QA beside it."""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path

import psutil

from app.project import Line, Project
from app.project.qa import QaWorker, record, request_for
from app.project.render import RenderSession
from app.project.sample import copy_sample_project
from engine.hearing.whisper import DEFAULT_MODEL
from engine.synthesis.client.local import EngineClient

TARGET_CORES = 2  # the machine the studio is sized for


def round_arguments(description: str, rounds: int, repeat: int, order: str) -> argparse.ArgumentParser:
    """The options of a benchmark in rounds of the sample project: --rounds, --repeat,
    --recogniser-model and --json; ``order`` says how the kinds take turns in a round."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=rounds, help=f"rounds of each kind ({order})")
    parser.add_argument("--repeat", type=int, default=repeat, help="copies of the sample script per round")
    parser.add_argument("--recogniser-model", default=DEFAULT_MODEL, help="the Whisper model QA hears with")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    return parser


def pin_to_cores(cores: int) -> int:
    """Pin this process (and the children it starts) to ``cores`` cores when more exist; the
    number of cores it runs on."""
    if hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > cores:
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:cores])  # children inherit it
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def repeated_sample(folder: Path, repeat: int, script: Path | None = None, language: str = "") -> Project:
    """A copy of the sample project in ``folder`` whose script is said ``repeat`` times over;
    with ``script`` (a text file, a line each, "#" comments), its lines are said instead, in
    turn, by the sample's characters, who then speak ``language``."""
    project = copy_sample_project(folder)
    texts = [line.text for line in project.lines]
    if script is not None:
        texts = [text.strip() for text in script.read_text(encoding="utf-8").splitlines()
                 if text.strip() and not text.startswith("#")]
        for character in project.characters:
            character.settings = dataclasses.replace(character.settings, language=language)
    speakers = [line.character_id for line in project.lines]
    project.lines = [Line(id=f"l{n}", text=texts[n % len(texts)], character_id=speakers[n % len(speakers)])
                     for n in range(repeat * len(speakers))]
    return project


def qa_cpu_s(qa: QaWorker | None) -> float:
    """CPU seconds the QA process has used so far (0 without one)."""
    pid = qa.pid if qa is not None else None
    if pid is None:
        return 0.0
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


def render_round(client: EngineClient, project: Project, qa: QaWorker | None,
                 model: str) -> tuple[float, float, list[float], float]:
    """Render every line once: (s to the last take, s to the last verdict, each take's s from
    landing to its verdict, the QA process's CPU seconds)."""
    cpu_before = qa_cpu_s(qa)
    session = RenderSession(project, save=lambda _project: None)  # saving is the same either way
    landed: dict[str, float] = {}
    waits: list[float] = []

    def collect(timeout: float) -> None:
        assert qa is not None
        for outcome in qa.poll(timeout):
            waits.append(time.monotonic() - landed[outcome.take_id])
            record(project, outcome)

    started = time.monotonic()
    session.start(client)
    while not session.finished:
        update = session.handle_event(client.get_event(timeout=0.05))
        for line_id, take in update.takes:
            if qa is not None:
                landed[take.id] = time.monotonic()
                qa.submit(request_for(project, project.line(line_id), take, model))
        if qa is not None:
            collect(0.0)
    rendered = time.monotonic() - started
    while qa is not None and qa.pending:
        collect(0.05)
    if session.failed_lines:
        raise SystemExit(f"lines failed: {[line.error for line in session.failed_lines]}")
    return rendered, time.monotonic() - started, waits, qa_cpu_s(qa) - cpu_before
