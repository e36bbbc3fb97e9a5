"""Slots preparing voices at once on a freshly started CosyVoice2 backend.

Matcha's mel function (the prompt-mel extractor) fills two module-level caches on its first
call, one after the other. Here ``torch.hann_window`` is slowed after the backend loads, which
holds that gap open: a backend that left the first mel call to the slots fails with KeyError.
The check runs inside the CosyVoice environment's interpreter, where the backend lives.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cosyvoice.conftest import ROOT
from tests.engine.helpers import VOICES

pytestmark = pytest.mark.cosyvoice

SCRIPT = """
import sys, threading, time
import torch
from engine.synthesis.backends import create_backend
from engine.core.reference import load_reference_clip

backend = create_backend("cosyvoice2", {"model_dir": sys.argv[1]})
backend.load()
slow_window = torch.hann_window
def hann_window(*args, **kwargs):
    time.sleep(0.3)
    return slow_window(*args, **kwargs)
torch.hann_window = hann_window

clips = [(load_reference_clip(path), open(path[:-4] + ".txt").read()) for path in sys.argv[2:]]
start = threading.Barrier(len(clips))
failures = []
def prepare(clip, transcript):
    start.wait()
    try:
        backend.condition(clip, transcript)
    except Exception as error:
        failures.append(repr(error))
threads = [threading.Thread(target=prepare, args=pair) for pair in clips]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("failures:", failures)
sys.exit(1 if failures else 0)
"""


def test_voices_prepared_at_once_on_a_fresh_backend_all_succeed(cosyvoice_python: Path, tiny_model: Path) -> None:
    clips = [str(VOICES / f"{name}.wav") for name in ("maya", "rex", "narrator")]
    done = subprocess.run([str(cosyvoice_python), "-c", SCRIPT, str(tiny_model), *clips],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "failures: []" in done.stdout
