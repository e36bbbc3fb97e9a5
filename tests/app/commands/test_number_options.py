"""Numbers given to a command: finite and within their range, or a usage error (exit status 2)
that says which option and why."""

from __future__ import annotations

import re

import pytest

from app.cli import main as cli_main


def test_serve_max_clip_mb_nan_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli_main(["serve", "--max-clip-mb", "nan"])
    assert raised.value.code == 2
    assert "argument --max-clip-mb: E_BAD_OPTION: --max-clip-mb must be a number from 0.001 to 4096 MB, got nan" \
        in capsys.readouterr().err


@pytest.mark.parametrize("args", [
    ["bench", "--seconds", "nan"], ["bench", "--think", "inf"], ["bench", "--timeout", "nan"],
    ["bench", "--objective-p95-first-audio", "nan"], ["serve", "--clip-store-mb", "-1"],
    # variants: other numbers of the same commands
    ["bench", "--rate", "inf"], ["bench", "--warmup", "-1"], ["bench", "--objective-max-error-rate", "nan"],
    ["bench", "--slots", "0"], ["say", "x", "--out", "x.wav", "--engine-start-timeout", "inf"],
    ["serve", "--job-timeout", "nan"], ["serve", "--port", "70000"], ["serve", "--replica-cpus=-inf"],
], ids=lambda args: " ".join(args))
def test_numbers_that_are_not_finite_or_in_range_are_usage_errors(args: list[str],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli_main(args)
    err = capsys.readouterr().err
    assert raised.value.code == 2 and re.search(r"must be a (whole )?number (from|at least) ", err), err
