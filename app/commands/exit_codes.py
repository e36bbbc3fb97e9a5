"""Every command's exit status: one table, so each number means one thing whichever command ends.

Scripts and CI branch on these numbers; docs/commands.md lists them (a test checks it does).
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """What a command's exit status says. Not every command can end with every status."""

    OK = 0  # everything asked for was done
    # It ran to its end, but part of its work failed: lines not rendered (render), takes that failed
    # QA (qa), characters still without a voice (new, transcribe), a capacity under --fail-under
    # (bench), a model folder that is not usable or could not be made (cosyvoice).
    FAILED = 1
    BAD_INPUT = 2  # bad arguments (argparse's usage errors too), a bad project or input file; nothing was done
    ENGINE = 3  # the engine, the server or its environment did not start, or failed while working
    EXPORT = 4  # an export failed (render --export)
    QA_FAILED = 5  # render --qa: every line rendered, but some takes failed QA
    LOCKED = 6  # another process (the studio, a render) has the project open
    # A result could not be written: project.json (render's takes are in takes/ but not recorded),
    # a bench report.
    SAVE_FAILED = 7
    TRANSLATOR = 8  # the translator could not be reached, refused the key or answered nonsense (translate)
    INTERRUPTED = 130  # Ctrl+C or SIGTERM (see common.run_interruptible), as a shell reports SIGINT
    # Whatever read its output stopped reading (dubstudio cast list --json | head), as a shell
    # reports SIGPIPE; the command itself was not stopped for it.
    OUTPUT_CLOSED = 141


def exit_statuses(*meanings: tuple[ExitCode, str]) -> str:
    """A command's help sentence, "Exit codes: 0 ok, 1 some lines failed, …", its numbers from the table."""
    return "Exit codes: " + ", ".join(f"{code.value} {meaning}" for code, meaning in meanings) + "."
