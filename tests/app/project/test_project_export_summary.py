"""What an export must have before it starts, and its one summary: read from the format's
entry in the registry, so neither the CLI nor the studio names a format."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.project import Project
from app.project.errors import ExportError
from app.project.export import ExportResult
from app.project.export_registry import (
    EXPORTS,
    ExportContext,
    export_format,
    export_summary,
)
from app.project.video_export import VideoExportOptions

from .conftest import add_fake_take, tone


def give_takes(project: Project, but: int | None = None) -> None:
    """A current take for every line (so nothing is left to render), except line number ``but``."""
    for n, line in enumerate(project.lines, 1):
        if n != but:
            add_fake_take(project, line, tone(0.4, freq=200 + 40 * n))
    project.save()


def test_only_the_video_needs_anything_before_it_starts(project: Project) -> None:
    context = ExportContext()
    for fmt in EXPORTS:
        if fmt.name != "video":
            fmt.check(project, context)  # a missing take is reported in the summary, never refused up front
    video = export_format("video")
    with pytest.raises(ExportError, match="has no video"):
        video.check(project, context)
    with pytest.raises(ExportError, match="three-letter"):
        video.check(project, ExportContext(video=VideoExportOptions(language="english")))


def test_the_summary_reads_the_format_not_its_name(project: Project) -> None:
    give_takes(project, but=6)
    mix, csv = export_format("mix"), export_format("csv")
    summary = export_summary(project, mix, mix.run(project, None, ExportContext()), qa_hint="see dubstudio qa")
    assert summary.headline == "Exported mix: exports/mix.wav"
    assert summary.notes[0] == "1 line has no take and was left out: 6"
    several = export_summary(project, mix, ExportResult(files=[], missing=[2, 6]), qa_hint="")
    assert several.notes[0] == "2 lines have no take and were left out: 2, 6"  # it said "2 line(s) have…"
    assert any(note.startswith("loudness: ") and "LUFS" in note for note in summary.notes)
    assert summary.needs_look
    script = export_summary(project, csv, csv.run(project, None, ExportContext()), qa_hint="see dubstudio qa")
    assert script.headline == "Exported csv: exports/script.csv"
    assert (script.notes, script.details, script.needs_look) == ([], [], False)  # the script keeps every line
    delivered = export_summary(project, export_format("all"), ExportResult(files=[project.exports_dir / "Ep delivery"]),
                               qa_hint="")
    assert delivered.headline == "Exported everything into the delivery folder exports/Ep delivery"  # was "Exported all: …"


def test_render_refuses_an_export_that_cannot_start_before_rendering(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["render", str(project.root), "--export", "mix,video"]) == 2  # the project has no video
    err = capsys.readouterr().err
    assert "dubstudio render: --export video: " in err and "E_EXPORT" in err and "has no video" in err
    assert "Starting the engine" not in err and not list(Path(project.root, "takes").glob("*.wav"))


def test_render_prints_each_export_by_its_summary(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    give_takes(project, but=6)
    assert cli_main(["render", str(project.root), "--lines", "1-5", "--stale-only", "--export", "mix,srt"]) == 0
    err = capsys.readouterr().err
    assert "Exported mix: exports/mix.wav\n  1 line has no take and was left out: 6\n  loudness: " in err
    assert "Exported srt: exports/script.srt\n" in err and err.count("left out") == 1
