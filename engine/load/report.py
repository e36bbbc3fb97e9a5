"""A finished (or stopped) run as a report: JSON, CSV, a terminal table and one HTML page.

The HTML page is self-contained — inline CSS and inline SVG plots, no scripts, no network —
so it can be mailed or attached to a ticket and opened anywhere. docs/bench.md documents
every key of the JSON.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import itertools
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.core.files import atomic_write_text
from engine.core.protocol import BackendName
from engine.load import wording
from engine.load.records import JOB_FIELDS, JobRecord
from engine.load.sampler import ResourceSample
from engine.load.stats import CHANGE_KEYS, SUMMARY_FIELDS, LevelStats, Summary, Verdict
from engine.load.wording import LoadPhrase, joined
from engine.synthesis.backends.cosyvoice_models import synthetic_banner

SCHEMA = "dubstudio.bench/1"
SUMMARY_KEYS = ("mean", "std", "p50", "p90", "p95", "p99", "min", "max")


def _rounded(value: Any) -> Any:
    """Floats to 4 decimals (0.1 ms) recursively: exact enough, and diffable by people."""
    if isinstance(value, float):
        return None if not math.isfinite(value) else round(value, 4)
    if isinstance(value, dict):
        return _rounded_fields(value)
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def _rounded_fields(record: dict[str, Any]) -> dict[str, Any]:
    """:func:`_rounded` over a record's values."""
    return {key: _rounded(value) for key, value in record.items()}


def write_report(path: str | os.PathLike[str], text: str) -> None:
    """Write a report where the user asked: atomically, or streamed into a pipe (``/dev/stdout``)."""
    atomic_write_text(path, text, stream_special=True)


@dataclass
class BenchReport:
    created: str  # ISO 8601 UTC start of the run
    wall_s: float
    stopped: bool
    config: dict[str, Any]
    engine: dict[str, Any]
    machine: dict[str, Any]
    levels: list[LevelStats]
    verdict: Verdict
    jobs: list[JobRecord]
    samples: list[ResourceSample]

    def to_dict(self) -> dict[str, Any]:
        return _rounded_fields({
            "schema": SCHEMA,
            "created": self.created,
            "wall_s": self.wall_s,
            "stopped": self.stopped,
            "config": self.config,
            "engine": self.engine,
            "machine": self.machine,
            "levels": [level.to_dict() for level in self.levels],
            "verdict": self.verdict.to_dict(),
            "jobs": [job.to_dict() for job in self.jobs],
            "samples": [sample.to_dict() for sample in self.samples],
        })

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def levels_csv(self) -> str:
        return levels_csv(self.levels)

    def jobs_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(JOB_FIELDS), lineterminator="\n")
        writer.writeheader()
        for job in self.jobs:
            writer.writerow(_rounded_fields(job.to_dict()))
        return out.getvalue()

    def to_html(self, images: Sequence[tuple[str, bytes]] = ()) -> str:
        return render_html(self, images)

    def write_json(self, path: str | os.PathLike[str]) -> None:
        write_report(path, self.to_json())

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        write_report(path, self.levels_csv())

    def write_jobs_csv(self, path: str | os.PathLike[str]) -> None:
        write_report(path, self.jobs_csv())

    def write_html(self, path: str | os.PathLike[str], images: Sequence[tuple[str, bytes]] = ()) -> None:
        """The page; ``images`` are (caption, PNG bytes) embedded as data URIs (the panel's plots)."""
        write_report(path, self.to_html(images))


# --- what ran ------------------------------------------------------------------------------


def hardware_line(report: BenchReport) -> str:
    """What the run measured, in one line: backend, model kind, device, slots, versions (a phrase:
    the studio says it in its language, also for a report read back from JSON)."""
    engine, machine = report.engine, report.machine
    parts: list[str] = [BackendName(str(engine.get("backend", "?")))]
    if engine.get("model_kind"):
        kind = wording.declared(str(engine["model_kind"]))
        parts.append(LoadPhrase(wording.MODEL_SIZE, kind=kind, size=wording.declared(str(engine["model_size"])))
                     if engine.get("model_size") else LoadPhrase(wording.MODEL_KIND, kind=kind))
    device = str(engine.get("device", "")) or ("cpu" if not machine.get("gpus") else "?")
    if engine.get("gpu_name"):
        device += f" ({engine['gpu_name']}, {engine.get('gpu_memory_gb')} GB)"
    slots = engine.get("slots")
    parts.append(LoadPhrase.counted(slots, wording.DEVICE_SLOT, wording.DEVICE_SLOTS, device=device)
                 if isinstance(slots, int) else LoadPhrase(wording.DEVICE_SLOTS, device=device, count="?"))
    versions = [f"{name} {engine[key]}" for name, key in (("torch", "torch"), ("CUDA", "cuda"), ("driver", "driver"))
                if engine.get(key)]
    if not engine.get("driver") and machine.get("nvidia_driver"):
        versions.append(f"driver {machine['nvidia_driver']}")
    if versions:
        parts.append(", ".join(versions))
    warm_up = engine.get("warm_up") or {}
    if warm_up.get("over") is not None:  # reports from before the engine said when it was warm lack it
        parts.append(LoadPhrase(wording.WARM_UP_OVER if warm_up["over"] else wording.WARM_UP_NOT_OVER,
                                seconds=warm_up["waited_s"]))
    return joined(parts, wording.DOT_LIST)


# --- CSV and the terminal table ------------------------------------------------------------


def _summary_columns(prefix: str, summary: Summary) -> dict[str, Any]:
    return {f"{prefix}_{key}": getattr(summary, key) for key in SUMMARY_KEYS}


def level_row(stats: LevelStats) -> dict[str, Any]:
    """One level flattened into CSV columns."""
    row: dict[str, Any] = {
        "level": stats.level,
        "label": stats.label,
        "offered_rate": stats.offered_rate,
        "complete": stats.complete,
        "jobs": stats.jobs,
        "ok": stats.ok,
        "errors": stats.errors,
        "error_rate": stats.error_rate,
        "errors_by_kind": ";".join(f"{k}={v}" for k, v in stats.errors_by_kind.items()),
        "warmup_jobs": stats.warmup_jobs,
        "duration_s": stats.duration_s,
        "jobs_per_s": stats.jobs_per_s,
        "goodput_jobs": stats.goodput_jobs,
        "goodput_per_s": stats.goodput_per_s,
        "goodput_fraction": stats.goodput_fraction,
        "audio_per_wall_s": stats.audio_per_wall_s,
        "stalls_per_job": stats.stalls_per_job,
        "stalled_s_per_job": stats.stalled_s_per_job,
        "jobs_with_stalls": stats.jobs_with_stalls,
        "cache_hits": stats.cache_hits,
        "cache_misses": stats.cache_misses,
        "first_audio_max_over_p95": stats.first_audio_max_over_p95,
    }
    for name in SUMMARY_FIELDS:
        row.update(_summary_columns(name, getattr(stats, name)))
    for name in ("engine_cpu_pct", "engine_rss_mb", "gpu_util_pct", "gpu_mem_mb"):
        value = getattr(stats, name)
        row[f"{name}_mean"] = None if value is None else value["mean"]
        row[f"{name}_max"] = None if value is None else value["max"]
    for key in CHANGE_KEYS:
        row[f"change_{key}_pct"] = stats.change_vs_first_pct.get(key)
    row["peak_in_flight"] = stats.peak_in_flight
    row["not_reached"] = stats.not_reached or ""
    row["meets_objective"] = stats.meets_objective
    row["objective_misses"] = "; ".join(stats.objective_misses)
    return row


def levels_csv(levels: Sequence[LevelStats]) -> str:
    out = io.StringIO()
    rows = [_rounded(level_row(level)) for level in levels]
    if not rows:
        return ""
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:+.0f}%"


class TableColumn(NamedTuple):
    """A column of the per-level table (terminal, HTML, the stress panel): its header, its
    group in the HTML's header row, how a level fills it, and what it means (tooltips)."""

    header: str
    group: str
    cell: Callable[[LevelStats], str]
    tip: str


TABLE_COLUMNS: list[TableColumn] = [
    TableColumn("level", "", lambda s: s.label + ("" if s.complete else " (stopped)"),
                "Users (closed loop) or arrival rate (open loop) of the level"),
    TableColumn("jobs", "volume", lambda s: str(s.jobs), "Measured jobs that ended (warm-up jobs left out)"),
    TableColumn("in flight", "volume", lambda s: str(s.peak_in_flight),
                "The most jobs submitted and not yet ended at one moment"),
    TableColumn("errors", "volume", lambda s: str(s.errors), "Jobs that failed or timed out"),
    TableColumn("jobs/s", "volume", lambda s: _fmt(s.jobs_per_s), "Successful jobs per second"),
    TableColumn("audio s/s", "volume", lambda s: _fmt(s.audio_per_wall_s),
                "Seconds of speech produced per second of the run"),
    TableColumn("1st audio mean", "first audio (s)", lambda s: _fmt(s.first_audio_s.mean),
                "Time from a job being due to its first audio, mean over the level"),
    TableColumn("p50", "first audio (s)", lambda s: _fmt(s.first_audio_s.p50), "First audio, median: half of the lines started to sound sooner"),
    TableColumn("p90", "first audio (s)", lambda s: _fmt(s.first_audio_s.p90), "First audio, 90th percentile: 90 of every 100 lines started to sound sooner"),
    TableColumn("p95", "first audio (s)", lambda s: _fmt(s.first_audio_s.p95),
                "First audio, 95th percentile: 95 of every 100 lines started to sound sooner (what the objective bounds)"),
    TableColumn("p99", "first audio (s)", lambda s: _fmt(s.first_audio_s.p99), "First audio, 99th percentile: 99 of every 100 lines started to sound sooner"),
    TableColumn("sd", "first audio (s)", lambda s: _fmt(s.first_audio_s.std),
                "Spread of first audio: its standard deviation"),
    TableColumn("max/p95", "first audio (s)", lambda s: _fmt(s.first_audio_max_over_p95),
                "Spread of first audio: how far the worst job lies beyond the p95 (1.00 = not at all)"),
    TableColumn("total mean", "total (s)", lambda s: _fmt(s.total_s.mean), "Time from due to the last audio, mean"),
    TableColumn("p50", "total (s)", lambda s: _fmt(s.total_s.p50), "Whole line, median"),
    TableColumn("p95", "total (s)", lambda s: _fmt(s.total_s.p95), "Whole line, 95th percentile"),
    TableColumn("p99", "total (s)", lambda s: _fmt(s.total_s.p99), "Whole line, 99th percentile"),
    TableColumn("stalls/job", "playback and engine", lambda s: _fmt(s.stalls_per_job),
                "Times per job a listener would have run out of audio"),
    TableColumn("worst gap", "playback and engine", lambda s: _fmt(s.max_gap_s.max),
                "The worst wait for a chunk beyond the audio already delivered, in seconds (> 0 is a stall)"),
    TableColumn("queue p95", "playback and engine", lambda s: _fmt(s.queue_wait_s.p95),
                "Seconds a job waited in the engine's queue, 95th percentile"),
    TableColumn("compute p95", "playback and engine", lambda s: _fmt(s.compute_s.p95),
                "Seconds the engine spent computing a job's pieces, 95th percentile"),
    TableColumn("cpu %", "playback and engine", lambda s: _fmt(None if s.engine_cpu_pct is None
                                                               else s.engine_cpu_pct["mean"], 0),
                "Engine CPU, mean (100 = one core busy)"),
    TableColumn("rss MB", "playback and engine", lambda s: _fmt(None if s.engine_rss_mb is None
                                                                else s.engine_rss_mb["max"], 0),
                "Engine resident memory, highest"),
    TableColumn("gpu %", "playback and engine", lambda s: _fmt(None if s.gpu_util_pct is None
                                                               else s.gpu_util_pct["mean"], 0),
                "GPU utilisation, mean (empty without an NVIDIA GPU)"),
    TableColumn("Δ p95 1st", "vs first level", lambda s: _pct(s.change_vs_first_pct.get("first_audio_p95")),
                "Change of the first-audio p95 against the first level"),
    TableColumn("Δ jobs/s", "vs first level", lambda s: _pct(s.change_vs_first_pct.get("jobs_per_s")),
                "Change of throughput against the first level"),
    TableColumn("goodput", "objective", lambda s: f"{s.goodput_fraction:.0%}" if s.jobs else "–",
                "Goodput: the share of lines that were good enough, i.e. started to sound within the objective and never stalled"),
    TableColumn("goodput/s", "objective", lambda s: _fmt(s.goodput_per_s),
                "Goodput per second: lines per second that started to sound within the objective and never stalled"),
    TableColumn("ok", "objective", lambda s: "no" if not s.meets_objective else "yes" if s.reached else "not reached",
                "Whether the level met the objective"),
]


def table_rows(levels: Sequence[LevelStats]) -> list[list[str]]:
    return [[column.cell(level) for column in TABLE_COLUMNS] for level in levels]


def format_table(levels: Sequence[LevelStats]) -> str:
    """The per-level table as aligned text (latencies in seconds)."""
    headers = [column.header for column in TABLE_COLUMNS]
    rows = table_rows(levels)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines.extend("  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows)
    return "\n".join(lines)


# --- inline SVG charts ---------------------------------------------------------------------

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")


@dataclass
class Series:
    name: str
    points: list[tuple[float, float]]
    color: str
    style: str = "line"  # "line", "dashed" or "points"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 × 10^k apart) covering ``low..high``."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0, 1.0]
    if high <= low:
        high = low + 1.0
    raw = (high - low) / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _tick_text(value: float) -> str:
    return f"{value:g}"


def _series_svg(s: Series, px: Callable[[float], float], py: Callable[[float], float]) -> list[str]:
    """One series drawn: dots alone, or a line (with markers when it has few points)."""
    if not s.points:
        return []
    if s.style == "points":
        return [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{s.color}" fill-opacity="0.7"/>'
                for x, y in s.points]
    path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s.points)
    dash = ' stroke-dasharray="6 4"' if s.style == "dashed" else ""
    parts = [f'<polyline points="{path}" fill="none" stroke="{s.color}" stroke-width="2"{dash}/>']
    if len(s.points) <= 24:  # markers help to read a few levels, and clutter a time series
        parts.extend(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{s.color}"/>' for x, y in s.points)
    return parts


def _legend_svg(series: Sequence[Series], right_x: int) -> list[str]:
    """The legend, right-aligned at ``right_x`` on its own row under the title, so it never covers
    data or level labels."""
    parts: list[str] = []
    legend_x = right_x
    for s in reversed(series):
        legend_x -= 26 + 6 * len(s.name)
        swatch_y = 30
        if s.style == "points":
            parts.append(f'<circle cx="{legend_x + 7}" cy="{swatch_y}" r="3" fill="{s.color}"/>')
        else:
            dash = ' stroke-dasharray="4 3"' if s.style == "dashed" else ""
            parts.append(f'<line x1="{legend_x}" x2="{legend_x + 14}" y1="{swatch_y}" y2="{swatch_y}" '
                         f'stroke="{s.color}" stroke-width="2"{dash}/>')
        parts.append(f'<text x="{legend_x + 18}" y="{swatch_y + 4}" class="legend">{html.escape(s.name)}</text>')
    return parts


def svg_chart(title: str, series: Sequence[Series], x_label: str, y_label: str,
              categories: Sequence[str] | None = None, hlines: Sequence[tuple[float, str]] = (),
              vlines: Sequence[tuple[float, str]] = (), width: int = 660, height: int = 300) -> str:
    """A small line/scatter chart as inline SVG; with ``categories`` x values are their indices."""
    left, right, top, bottom = 56, 16, 44, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [x for s in series for x, _ in s.points] + [x for x, _ in vlines]
    ys = [y for s in series for _, y in s.points] + [y for y, _ in hlines]
    if categories is not None:
        x_low, x_high = -0.5, max(len(categories) - 0.5, 0.5)
        x_ticks: list[float] = list(range(len(categories)))
    else:
        x_low, x_high = (min(xs), max(xs)) if xs else (0.0, 1.0)
        x_ticks = nice_ticks(x_low, x_high)
        x_low, x_high = x_ticks[0], x_ticks[-1]
    y_ticks = nice_ticks(min(0.0, *ys) if ys else 0.0, max(ys) if ys else 1.0)
    y_low, y_high = y_ticks[0], y_ticks[-1]

    def px(x: float) -> float:
        return left + (x - x_low) / ((x_high - x_low) or 1.0) * plot_w

    def py(y: float) -> float:
        return top + plot_h - (y - y_low) / ((y_high - y_low) or 1.0) * plot_h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(title)}">',
             f'<text x="{left}" y="18" class="title">{html.escape(title)}</text>',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" class="frame"/>']
    for tick in y_ticks:
        y = py(tick)
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" class="tick" text-anchor="end">{_tick_text(tick)}</text>')
    for i, tick in enumerate(x_ticks):
        x = px(tick)
        label = categories[i] if categories is not None else _tick_text(tick)
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" class="tick" text-anchor="middle">'
                     f'{html.escape(label)}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">'
                 f'{html.escape(x_label)}</text>')
    parts.append(f'<text x="12" y="{top + plot_h / 2:.0f}" class="axis" text-anchor="middle" '
                 f'transform="rotate(-90 12 {top + plot_h / 2:.0f})">{html.escape(y_label)}</text>')
    for x_value, label in vlines:
        x = px(x_value)
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" class="vline"/>')
        parts.append(f'<text x="{x + 3:.1f}" y="{top + 11}" class="note">{html.escape(label)}</text>')
    for y_value, label in hlines:
        y = py(y_value)
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" class="hline"/>')
        parts.append(f'<text x="{left + plot_w - 4}" y="{y - 4:.1f}" class="note" text-anchor="end">'
                     f'{html.escape(label)}</text>')
    for s in series:
        parts.extend(_series_svg(s, px, py))
    parts.extend(_legend_svg(series, width - right))
    parts.append("</svg>")
    return "".join(parts)


def _level_points(levels: Sequence[LevelStats], value: Callable[[LevelStats], float | None]) -> list[tuple[float, float]]:
    return [(float(i), v) for i, level in enumerate(levels) if (v := value(level)) is not None]


def report_charts(report: BenchReport) -> list[str]:
    """The HTML page's plots, as SVG strings."""
    levels = report.levels
    cats = [level.label for level in levels]
    objective = report.verdict.objective.get("p95_first_audio_s")
    charts = [
        svg_chart("Latency by level", [
            Series("first audio p50", _level_points(levels, lambda s: s.first_audio_s.p50), PALETTE[0]),
            Series("first audio p95", _level_points(levels, lambda s: s.first_audio_s.p95), PALETTE[0], "dashed"),
            Series("total p50", _level_points(levels, lambda s: s.total_s.p50), PALETTE[1]),
            Series("total p95", _level_points(levels, lambda s: s.total_s.p95), PALETTE[1], "dashed"),
        ], "level", "seconds", categories=cats,
            hlines=[(objective, f"objective {objective:g} s")] if objective else ()),
        svg_chart("Throughput by level", [
            Series("jobs/s", _level_points(levels, lambda s: s.jobs_per_s), PALETTE[2]),
            Series("goodput/s", _level_points(levels, lambda s: s.goodput_per_s), PALETTE[2], "dashed"),
            Series("audio s per wall s", _level_points(levels, lambda s: s.audio_per_wall_s), PALETTE[3]),
            Series("stalls per job", _level_points(levels, lambda s: s.stalls_per_job), PALETTE[4], "dashed"),
        ], "level", "per second / per job", categories=cats),
        svg_chart("Queue wait, compute and first audio by level (means)", [
            Series("first audio", _level_points(levels, lambda s: s.first_audio_s.mean), PALETTE[0]),
            Series("queue wait", _level_points(levels, lambda s: s.queue_wait_s.mean), PALETTE[3]),
            Series("compute per job", _level_points(levels, lambda s: s.compute_s.mean), PALETTE[5]),
            Series("worst gap", _level_points(levels, lambda s: s.max_gap_s.max), PALETTE[1], "dashed"),
        ], "level", "seconds", categories=cats, hlines=[(0.0, "gap > 0: a stall")]),
    ]
    done = [job for job in report.jobs if job.end_s is not None and job.status == "ok"]
    starts = [(level.start_s, level.label) for level in levels]
    charts.append(svg_chart("Every job over time (at its end)", [
        Series("first audio", [(j.end_s or 0.0, j.first_audio_s) for j in done if j.first_audio_s is not None],
               PALETTE[0], "points"),
        Series("total", [(j.end_s or 0.0, j.total_s or 0.0) for j in done], PALETTE[1], "points"),
    ], "seconds since start", "seconds", vlines=starts))
    samples = report.samples
    resource_series = [
        Series("engine CPU % (100 = one core)", [(s.t_s, s.cpu_pct) for s in samples if s.cpu_pct is not None],
               PALETTE[0]),
    ]
    if any(s.gpu_util_pct is not None for s in samples):
        resource_series.append(Series("GPU %", [(s.t_s, s.gpu_util_pct) for s in samples
                                                if s.gpu_util_pct is not None], PALETTE[2]))
    charts.append(svg_chart("Engine load", resource_series, "seconds since start", "percent", vlines=starts))
    memory_series = [Series("engine RSS MB", [(s.t_s, s.rss_mb) for s in samples if s.rss_mb is not None],
                            PALETTE[3])]
    if any(s.gpu_mem_mb is not None for s in samples):
        memory_series.append(Series("GPU memory MB", [(s.t_s, s.gpu_mem_mb) for s in samples
                                                      if s.gpu_mem_mb is not None], PALETTE[4]))
    charts.append(svg_chart("Memory", memory_series, "seconds since start", "MB", vlines=starts))
    return charts


# --- the HTML page -------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.verdict{padding:10px 14px;border-radius:6px;background:#eef6ee;border:1px solid #9c9;margin:12px 0}
.verdict.miss{background:#fbeeee;border-color:#d99}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:right}th{background:#f3f3f3}
td.l,th.l{text-align:left}tr.no td{background:#fdf3f3}tr.unreached td{color:#777}
.charts{display:flex;flex-wrap:wrap;gap:12px}
svg{background:#fff;border:1px solid #ddd}
svg .title{font:bold 13px sans-serif}svg .tick{font:11px sans-serif;fill:#555}
svg .axis{font:12px sans-serif;fill:#333}svg .legend{font:11px sans-serif}svg .note{font:10px sans-serif;fill:#777}
svg .frame{fill:none;stroke:#999}svg .grid{stroke:#eee}svg .vline{stroke:#bbb;stroke-dasharray:2 3}
svg .hline{stroke:#d62728;stroke-dasharray:4 3}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{color:#666}dd{margin:0}
details{margin-top:16px}figure{margin:12px 0}img{max-width:100%;border:1px solid #ddd}
"""


def _kv(data: dict[str, Any]) -> str:
    rows = []
    for key, value in data.items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
        rows.append(f"<dt>{html.escape(str(key))}</dt><dd>{html.escape(shown)}</dd>")
    return "<dl>" + "".join(rows) + "</dl>"


def levels_table_html(levels: Sequence[LevelStats]) -> str:
    head = "".join(f'<th{" class=l" if i == 0 else ""} title="{html.escape(c.tip)}">{html.escape(c.header)}</th>'
                   for i, c in enumerate(TABLE_COLUMNS))
    groups = [(name, len(list(run))) for name, run in itertools.groupby(c.group for c in TABLE_COLUMNS)]
    group = "<tr>" + "".join(f'<th colspan={span}>{html.escape(name)}</th>' if name else f"<th class=l colspan={span}></th>"
                             for name, span in groups) + "</tr>"
    body = []
    for level, row in zip(levels, table_rows(levels)):
        cells = "".join(f'<td{" class=l" if i == 0 else ""}>{html.escape(c)}</td>' for i, c in enumerate(row))
        kind = "no" if not level.meets_objective else "yes" if level.reached else "unreached"
        body.append(f'<tr class="{kind}">{cells}</tr>')
    return f'<table id="levels"><thead>{group}<tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _jobs_table_html(jobs: Sequence[JobRecord]) -> str:
    columns = ("index", "level", "warmup", "status", "text_kind", "voice", "voice_cache", "queue_wait_s",
               "compute_s", "first_audio_s", "total_s", "audio_s", "rtf", "chunks", "stalls", "stalled_s",
               "max_gap_s", "error")
    head = "".join(f"<th>{c}</th>" for c in columns)
    rows = []
    for job in jobs:
        data = _rounded(job.to_dict())
        rows.append("<tr>" + "".join(f"<td>{html.escape('' if data[c] is None else str(data[c]))}</td>"
                                     for c in columns) + "</tr>")
    return f'<table id="jobs"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _images_html(images: Sequence[tuple[str, bytes]]) -> str:
    figures = []
    for caption, png in images:
        data = base64.b64encode(png).decode("ascii")
        figures.append(f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    return "".join(figures)


def render_html(report: BenchReport, images: Sequence[tuple[str, bytes]] = ()) -> str:
    engine = report.engine
    plan = report.config.get("plan", {})
    where = (f" on {engine['target']} ({engine.get('replicas_end', engine.get('replicas'))} replicas)"
             if engine.get("target", "local") != "local" else "")
    title = (f"DubStudio bench{where}: {engine.get('backend', '?')}, {engine.get('slots', '?')} slots, "
             f"{plan.get('mode', '?')} loop")
    verdict_class = "verdict" if report.verdict.capacity_level is not None else "verdict miss"
    errors: dict[str, int] = {}
    for level in report.levels:
        for kind, count in level.errors_by_kind.items():
            errors[kind] = errors.get(kind, 0) + count
    error_html = ("<p>No errors.</p>" if not errors else
                  "<table><tr><th class=l>kind</th><th>jobs</th></tr>" + "".join(
                      f"<tr><td class=l>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in errors.items())
                  + "</table>")
    stopped = " The run was stopped before the plan finished." if report.stopped else ""
    warning = synthetic_banner(report.engine)  # a run on random weights says so in every report
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<div>{html.escape(report.created)} · {report.wall_s:.1f} s · {len(report.jobs)} jobs{stopped}</div>",
        f'<div class="hardware">{html.escape(hardware_line(report))}</div>',
        *([f'<div class="verdict miss">{html.escape(warning)}</div>'] if warning else []),
        f'<div class="{verdict_class}"><strong>Verdict.</strong> {html.escape(report.verdict.sentence)}</div>',
        "<h2>Per level</h2>",
        levels_table_html(report.levels),
        "<p>Latencies count from when a job was due (its scheduled arrival in open loop). "
        "Jobs/s counts successful jobs; CPU is the engine process in percent of one core.</p>",
        "<h2>Plots</h2>",
        '<div class="charts">' + "".join(report_charts(report)) + "</div>",
        _images_html(images),
        "<h2>Errors by kind</h2>",
        error_html,
        "<h2>Setup</h2>",
        "<h3>Plan and objective</h3>",
        _kv({**plan, "objective": report.config.get("objective"), "cache": report.config.get("cache")}),
        "<h3>Engine</h3>",
        _kv(engine),
        "<h3>Machine</h3>",
        _kv(report.machine),
        "<h3>Workload</h3>",
        _kv({"texts": report.config.get("texts"), "voices": report.config.get("voices")}),
        f"<details><summary>All {len(report.jobs)} jobs</summary>",
        _jobs_table_html(report.jobs),
        "</details>",
        "</body></html>",
        "",
    ])
