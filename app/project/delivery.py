"""Export all: one delivery folder holding everything a client gets, written all or nothing.

:func:`export_all` makes ``<destination>/<title> delivery/`` with

    mix.wav                 the delivery mix (48 kHz, stereo when the source is, the video's length)
    stems/                  one WAV per character (and the M&E or guide when the mix has one)
    script.srt, script.vtt  subtitles in the dub's language (script.source.*: the original's, when translated)
    script.csv              the script with final durations
    <title>.mp4             the finished video, when the project has one (options: ExportContext.video)
    report.txt              loudness, true peak, overruns, lines left out, fits and QA verdicts

Everything is built in a hidden folder inside the destination (``.<title> delivery.partial-…``)
and renamed into place only when every part is written, so a Cancel (checked between parts
and, in the video, between packets) or a failure leaves nothing but what was there before. An
existing delivery folder is never overwritten: the new one is numbered ("… delivery 2").
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.project import phrases
from app.project.errors import ExportError, OperationCancelled
from app.project.export import (
    MANIFEST,
    ExportResult,
    MixdownAudio,
    delivery_mixdown,
    export_mix,
    export_stems,
    export_subtitles,
)
from app.project.fsutil import bound_to, ensure_dir, safe_filename
from app.project.phrases import Phrase
from app.project.project import Project
from app.project.qa import chosen_verdicts
from app.project.script_io import export_script, write_text_export
from app.project.video_export import check_burnable, default_video_path, export_video

if TYPE_CHECKING:
    from app.project.export_registry import ExportContext

REPORT = "report.txt"


def delivery_folder(project: Project, destination: Path) -> Path:
    """``<destination>/<title> delivery``, numbered past any folder already there."""
    base = f"{safe_filename(project.title, 'dub')} delivery"
    candidate, n = destination / base, 2
    while candidate.exists() or candidate.is_symlink():
        candidate, n = destination / f"{base} {n}", n + 1
    return candidate


def export_all(project: Project, out_dir: Path | None, context: ExportContext) -> ExportResult:
    """Write the delivery folder into ``out_dir`` (default: the project's exports/); returns
    the folder as the one file written, with the mix's loudness, overruns and notes."""
    destination = Path(out_dir).absolute() if out_dir is not None else project.exports_dir
    ensure_dir(destination, bound_to(project.root, destination))
    final = delivery_folder(project, destination)
    building = Path(tempfile.mkdtemp(prefix=f".{final.name}.partial-", dir=destination))
    building.chmod(0o755)  # mkdtemp's 0700 would follow the folder to the client
    mixed: list[MixdownAudio] = []  # made once (a pass over the programme), written three times

    def make_mix(_progress: Callable[[float], None] | None) -> None:
        mixed.append(delivery_mixdown(project, cancelled=context.cancelled))

    steps: list[tuple[float, Callable[[Callable[[float], None] | None], ExportResult | None]]] = [
        (0.1, make_mix),
        (0.1, lambda _p: export_mix(project, building, cancelled=context.cancelled, mixed=mixed[0])),
        (0.1, lambda _p: export_stems(project, building, cancelled=context.cancelled, mixed=mixed[0])),
        (0.05, lambda _p: export_subtitles(project, building, kind="srt", names=context.subtitle_names)),
        (0.05, lambda _p: export_subtitles(project, building, kind="vtt", names=context.subtitle_names)),
        (0.02, lambda _p: ExportResult([export_script(project, building / "script.csv")])),
    ]
    if project.has_picture:
        steps.append((0.58, lambda report: export_video(
            project, building / default_video_path(project, context.video).name, context.video,
            progress=report, cancelled=context.cancelled, mixed=mixed[0])))
    total = sum(weight for weight, _ in steps)
    done = 0.0
    try:
        results: list[ExportResult] = []
        for weight, step in steps:
            if context.cancelled is not None and context.cancelled():
                raise OperationCancelled(Phrase(phrases.DELIVERY_CANCELLED))
            start = done

            def report(fraction: float, start: float = start, weight: float = weight) -> None:
                if context.progress is not None:
                    context.progress((start + weight * fraction) / total)

            result = step(report)
            if result is not None:
                results.append(result)
            done += weight
            report(1.0)
        (building / "stems" / MANIFEST).unlink(missing_ok=True)  # ours to tidy later, not the client's
        write_text_export(building / REPORT, delivery_report(project, results[0]))
        os.rename(building, final)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    if context.progress is not None:
        context.progress(1.0)
    mix = results[0]
    return ExportResult([final], mix.overruns, mix.missing, mix.duration_s, mix.gain, mix.level, mix.limited,
                        mix.fitted, list(dict.fromkeys(note for result in results for note in result.notes)))  # each part may say the same


def delivery_report(project: Project, mix: ExportResult) -> str:
    """The report a client reads beside the files: level, overruns, what is missing, QA."""
    settings = project.settings
    lines = [f"{project.title}: delivery report", ""]
    if mix.level is not None:
        target = settings.loudness_target_lufs
        aim = f"target {target:g} LUFS" if target is not None else "no loudness target"
        lines.append(f"Mix: {mix.duration_s:.3f} s; {mix.level.describe()} ({aim}, ceiling {settings.true_peak_dbtp:g} dBTP)"
                     + ("; the limiter took the peaks down" if mix.limited else ""))
    lines += [f"Note: {note}" for note in mix.notes]
    lines.append(f"Lines without a take (left out): {', '.join(map(str, mix.missing)) or 'none'}")
    lines.append(f"Overruns: {len(mix.overruns) or 'none'}")
    lines += [f"  {overrun.describe()}" for overrun in mix.overruns]
    lines += [f"Line {order}: {what}" for order, what in mix.fitted]
    lines += ["", "QA verdicts of the chosen takes:"]
    verdicts = chosen_verdicts(project)
    for order, line in enumerate(project.lines, 1):
        verdict = verdicts[line.id]
        if project.chosen_take(line) is None:
            state = "no take"
        elif verdict is None:
            state = "not checked"
        else:
            state = {True: "passed", False: "FAILED", None: "not fully checked"}[verdict.passed]
            if verdict.reasons:
                state += f" ({'; '.join(verdict.reasons)})"
        lines.append(f"  line {order}: {state}")
    return "\n".join(lines) + "\n"


def check_delivery(project: Project, context: ExportContext) -> None:
    """What would make the delivery fail, before a render: a bad video option, or subtitles to
    burn in that no installed font can draw."""
    if project.has_picture:
        context.video.validate()
        check_burnable(project, context.video)
    if not project.lines:
        raise ExportError(Phrase(phrases.NO_LINES_TO_DELIVER))
