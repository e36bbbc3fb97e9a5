"""Resource samples of the engine process (psutil) and of NVIDIA GPUs (nvidia-ml-py, when present).

The runner takes a sample every half second from its own thread; each sample costs a few
system calls, so it never disturbs the measurement. The engine's CPU is summed over the
process and its children and given in percent of one core (200 = two cores busy).
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass
from typing import Any

import psutil


@dataclass(frozen=True)
class ResourceSample:
    t_s: float  # seconds since the run started
    cpu_pct: float | None  # engine process + children, percent of one core
    rss_mb: float | None  # engine process + children, resident memory
    gpu_util_pct: float | None  # mean utilisation over the NVIDIA GPUs; None without one
    gpu_mem_mb: float | None  # memory used on the NVIDIA GPUs (all processes)
    in_flight: int  # jobs submitted and not yet ended

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Gpus:
    """NVML handles, or nothing when the library or a GPU is missing (the usual CPU machine)."""

    def __init__(self, probe: bool = True) -> None:  # probe=False: no GPUs, NVML not asked
        self._nvml: Any = None
        self._handles: list[Any] = []
        if not probe:
            return
        try:
            import pynvml

            pynvml.nvmlInit()
            self._handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
            self._nvml = pynvml
        except Exception:  # noqa: BLE001 - NVMLError_LibraryNotFound, driver mismatch, ImportError: no GPU figures
            self._handles = []

    @property
    def present(self) -> bool:
        return bool(self._handles)

    def names(self) -> list[str]:
        if not self.present:
            return []
        return [str(self._nvml.nvmlDeviceGetName(h)) for h in self._handles]

    def driver(self) -> str | None:
        if not self.present:
            return None
        try:
            return str(self._nvml.nvmlSystemGetDriverVersion())
        except Exception:  # noqa: BLE001 - an old driver without the call: the report says "unknown"
            return None

    def sample(self) -> tuple[float | None, float | None]:
        if not self.present:
            return None, None
        try:
            utils = [self._nvml.nvmlDeviceGetUtilizationRates(h).gpu for h in self._handles]
            used = [self._nvml.nvmlDeviceGetMemoryInfo(h).used for h in self._handles]
        except Exception:  # noqa: BLE001 - a GPU fell off the bus mid-run: stop reporting rather than crash
            return None, None
        return sum(utils) / len(utils), sum(used) / 2**20

    def close(self) -> None:
        if self.present:
            with contextlib.suppress(Exception):  # shutting NVML down is best effort
                self._nvml.nvmlShutdown()
            self._handles = []


CHILDREN_EVERY = 10  # list the engine's children every N samples: listing scans all of /proc


class ResourceSampler:
    """Samples one process tree (the engine) and the GPUs; follow restarts with :meth:`watch`.

    ``gpus=False`` leaves this machine's GPUs out: against a server they are not the ones
    doing the work, and showing them would mislead.
    """

    def __init__(self, pid: int | None, gpus: bool = True) -> None:
        self._procs: dict[int, psutil.Process] = {}
        self._root: int | None = None
        self._count = 0
        self._gpus = _Gpus(probe=gpus)
        self.watch(pid)

    @property
    def gpu_names(self) -> list[str]:
        return self._gpus.names()

    @property
    def gpu_driver(self) -> str | None:
        return self._gpus.driver()

    def watch(self, pid: int | None) -> None:
        """Sample ``pid`` (and its children) from now on: the engine was (re)started."""
        self._procs.clear()
        self._root = pid
        self._count = 0
        self._refresh()  # primes cpu_percent: its first reading of a process is always 0

    def _refresh(self) -> None:
        """Re-list the process tree, keeping known processes (their CPU counters continue)."""
        if self._root is None:
            return
        try:
            root = self._procs.get(self._root) or psutil.Process(self._root)
            tree = [root, *root.children(recursive=True)]
        except psutil.Error:
            self._procs = {}
            return
        alive: dict[int, psutil.Process] = {}
        for proc in tree:
            known = self._procs.get(proc.pid)
            if known is None:
                try:
                    proc.cpu_percent(None)
                except psutil.Error:
                    continue
                known = proc
            alive[proc.pid] = known
        self._procs = alive

    def sample(self, t_s: float, in_flight: int) -> ResourceSample:
        self._count += 1
        if self._count % CHILDREN_EVERY == 0:
            self._refresh()
        cpu: float | None = None
        rss: float | None = None
        if self._procs:
            cpu = rss = 0.0
            for proc in list(self._procs.values()):
                try:
                    cpu += proc.cpu_percent(None)
                    rss += proc.memory_info().rss / 2**20
                except psutil.Error:  # exited since the last listing
                    self._procs.pop(proc.pid, None)
        gpu_util, gpu_mem = self._gpus.sample()
        return ResourceSample(t_s, cpu, rss, gpu_util, gpu_mem, in_flight)

    def close(self) -> None:
        self._gpus.close()
