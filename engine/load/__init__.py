"""The stress core: load plans, a runner over the engine client, statistics and reports.

Qt-free, so ``dubstudio bench``, the stress panel and the tests share it. Typical use::

    settings = BenchSettings(plan=Plan(levels=(1, 2, 4), jobs_per_level=10))
    report = BenchSession(settings).run()
    print(format_table(report.levels)); print(report.verdict.sentence)
"""

from engine.core.playback import StallTracker
from engine.load.plans import Arrivals, Mode, Plan, PlanError, WarmupMode
from engine.load.records import JobRecord, count_stalls
from engine.load.report import BenchReport, format_table
from engine.load.runner import (
    BenchError,
    BenchSession,
    BenchSettings,
    JobEnded,
    LevelFinished,
    LevelStarted,
    LoadRunner,
    Progress,
    RunFailed,
    RunFinished,
    RunStarted,
    SampleTaken,
)
from engine.load.sampler import ResourceSample
from engine.load.stats import LevelStats, Objective, Summary, Verdict, percentile
from engine.load.workload import JobSource, TextSet, VoiceSet, WorkloadError

__all__ = [
    "Arrivals", "BenchError", "BenchReport", "BenchSession", "BenchSettings", "JobEnded", "JobRecord",
    "JobSource", "LevelFinished", "LevelStarted", "LevelStats", "LoadRunner", "Mode", "Objective", "Plan",
    "PlanError", "Progress", "ResourceSample", "RunFailed", "RunFinished", "RunStarted", "SampleTaken",
    "StallTracker", "Summary", "TextSet", "Verdict", "VoiceSet", "WarmupMode", "WorkloadError", "count_stalls",
    "format_table", "percentile",
]
