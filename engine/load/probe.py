"""Hardware probes: preset load tests that answer "how many people does this machine serve?"

The "Hardware probe: CosyVoice2-0.5B (synthetic weights)" preset runs the real CosyVoice2
code at the released parameter counts (a full-size synthetic model folder, built when
missing: the speech is noise, the work and so the timing are real), steps through
concurrency levels 1, 2, 4, 8, 16 (closed loop, users speaking back to back) and stops at
the first level that misses the objective: the level before it is the machine's capacity.
Its reports name the backend, the model folder's kind (real or synthetic), the device, the
slots, and the torch, CUDA and driver versions.

``dubstudio bench --probe cosyvoice2`` runs it headless; the stress panel offers it as a
preset. Both call :func:`probe_settings` (which may build the model folder: call it off the
GUI thread) and then run a :class:`~engine.load.runner.BenchSession`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.core.codes import ErrorCode
from engine.load.plans import Mode, Plan
from engine.load.runner import BenchSettings
from engine.load.stats import Objective
from engine.synthesis.backends import descriptor
from engine.synthesis.backends.setup import (
    CommandRun,
    OutputLine,
    default_synthetic_folder,
    ensure_synthetic_model,
)
from engine.synthesis.config import EngineConfig


@dataclass(frozen=True)
class ProbePreset:
    """A named probe: which backend and model, which levels, for how long, against what."""

    name: str
    label: str
    backend: str
    synthetic_size: str  # the synthetic model folder built when none is given
    plan: Plan
    objective: Objective


PRESETS: dict[str, ProbePreset] = {
    "cosyvoice2": ProbePreset(
        name="cosyvoice2",
        label="Hardware probe: CosyVoice2-0.5B (synthetic weights)",
        backend="cosyvoice2",
        synthetic_size="full",
        # A minute of back-to-back speech per level gives every user several jobs on a GPU;
        # the first two jobs of a level warm it up. A CPU takes minutes per job at full size,
        # hence the long timeout (a probe on a CPU answers "no", slowly but honestly).
        plan=Plan(mode=Mode.CLOSED, levels=(1, 2, 4, 8, 16), jobs_per_level=None, seconds_per_level=60.0,
                  warmup_jobs=2, job_timeout_s=900.0, stop_after_miss=True),
        objective=Objective(p95_first_audio_s=1.5),
    ),
}


def preset(name: str) -> ProbePreset:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"{ErrorCode.PROBE}: no probe named {name!r}; known: {', '.join(PRESETS)}") from None


def ensure_probe_model(probe: ProbePreset, python: str | None,
                       on_output: Callable[[OutputLine], None] | None = None,
                       hold: Callable[[CommandRun], None] | None = None) -> str:
    """The preset's synthetic model folder (in the user's data folder), built when missing."""
    folder = default_synthetic_folder(probe.synthetic_size)
    ensure_synthetic_model(python or "python", folder, probe.synthetic_size, on_output, hold)
    return str(folder)


def probe_settings(
    probe: ProbePreset,
    *,
    model_dir: str | None = None,
    python: str | None = None,
    backend_options: dict[str, object] | None = None,
    slots: int | None = None,
    plan: Plan | None = None,
    objective: Objective | None = None,
    cache_dir: str | None = None,
    on_output: Callable[[OutputLine], None] | None = None,
    hold: Callable[[CommandRun], None] | None = None,
) -> BenchSettings:
    """The bench settings of a probe, its model folder made ready.

    Without ``model_dir`` the preset's synthetic folder (in the user's data folder) is used,
    built first when missing (about a minute and 4.3 GB for the full size; ``on_output``
    gets the builder's lines, ``hold`` the run so it can be cancelled). A given folder, real
    or synthetic, is used as it is. Raises EngineError for an environment that is not built.
    """
    spec = descriptor(probe.backend)
    engine_python = spec.engine_python(python)
    if model_dir is None:
        model_dir = ensure_probe_model(probe, engine_python, on_output, hold)
    options = dict(backend_options or {})
    if spec.model_option:
        options[spec.model_option] = str(Path(model_dir).expanduser().resolve())
    return BenchSettings(
        engine=EngineConfig(backend=probe.backend, backend_options=spec.validate(options), slots=slots,
                            cache_dir=cache_dir, python=engine_python),
        plan=plan or probe.plan,
        objective=objective or probe.objective,
        probe=probe.name,
    )

