"""The load test's sentences (levels, objectives, misses, the verdict), declared once.

Each sentence is an :class:`engine.core.phrases.Phrase` of the ``load`` translation context: the
CLI, the HTML report and the JSON see the English sentence; the Stress tab says it in the
studio's language (``app.ui.language.say``). ``scripts/translations`` hands :data:`TEMPLATES` to
pyside6-lupdate, so every template here is in the catalogues; a template names its arguments and
a translation keeps each name and number format.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from engine.core import phrases
from engine.core.phrases import (
    COMMA_LIST as COMMA_LIST,  # the lists' separator, declared once
)
from engine.core.phrases import Phrase


class LoadPhrase(Phrase):
    """A sentence of the load test, translated in the ``load`` context."""

    context: ClassVar[str] = "load"


# --- a level's name (engine/load/plans.py) ---------------------------------------------------
USER = "{count} user"
USERS = "{count} users"
RATE = "{rate:.2f} jobs/s"
CONCURRENT_USER = "{count} concurrent user"
CONCURRENT_USERS = "{count} concurrent users"
# --- why a level's load never happened (engine/load/stats.py not_reached) ----------------------
FEW_USERS_BUSY = "at most {peak} of its {users} users had a job in flight at once ({submitted} jobs submitted)"
FEW_ARRIVED = ("only {submitted} job(s) arrived; at {label} about {steady:.1f} are in flight at once "
               "(rate × mean latency), so it takes at least {needed}")
# --- the objective and what a level missed -----------------------------------------------------
P95_FIRST_AT_MOST = "p95 first audio ≤ {seconds:.2f} s"
P95_TOTAL_AT_MOST = "p95 total ≤ {seconds:.2f} s"
NO_ERRORS = "no errors"
ERRORS_AT_MOST = "errors ≤ {rate:.1%}"
NO_STALLS = "no stalls"
STALLS_AT_MOST = "≤ {stalls:g} stalls per job"
NO_JOB_FINISHED = "no job finished"
P95_FIRST_WAS = "p95 first audio was {value} (> {limit:.2f} s)"
P95_TOTAL_WAS = "p95 total was {value} (> {limit:.2f} s)"
STALLED = "playback stalled {stalls:.2f} times per job"
SECONDS = "{seconds:.2f} s"
NOT_AVAILABLE = "n/a"
ONE_ERROR = "{count} error in {jobs} jobs ({kinds})"
ERRORS = "{count} errors in {jobs} jobs ({kinds})"
ERROR_KIND = "{kind} ×{count}"
# --- the verdict (engine/load/stats.py make_verdict) -------------------------------------------
THIS_MACHINE = "this machine"
THE_SERVER = "the server at {url}"
ON_SLOT = "On {backend} with {count} slot"
ON_SLOTS = "On {backend} with {count} slots"
SERVES = "serves up to"
KEEPS_UP = "keeps up with arrivals of up to"
HIGHEST_REACHED = "the highest level reached"
HIGHEST_TRIED = "the highest level tried"
STOPPED_EARLY = " (the run was stopped early)"
NO_LEVEL_FINISHED = "The run stopped before any level finished, so there is no capacity verdict."
NO_LEVEL_REACHED = "{prefix}, no level was reached, so there is no capacity verdict."
NO_LEVEL_MET = "{prefix}, no level met the objective on {machine} ({target}): at {level} {misses}."
NO_CAPACITY = ("{prefix}, no capacity can be claimed on {machine} ({target}): the lowest level, {level}, "
               "missed the objective: {misses}.")
EVERY_LEVEL_MET = ("{prefix}, {machine} {served} {capacity}, {highest}{stopped}, within the objective ({target}; "
                   "p95 first audio {p95}); add higher levels to find its limit.")
CAPACITY = ("{prefix}, {machine} {served} {capacity} within the objective ({target}; p95 first audio {p95}); "
            "at {level} {misses}.")
ONE_PASSED_ABOVE = ("{sentence} {levels} met the objective but is not counted: a level that passes above one "
                    "that missed is a lucky sample, not capacity (run again to confirm).")
PASSED_ABOVE = ("{sentence} {levels} met the objective but are not counted: a level that passes above one "
                "that missed is a lucky sample, not capacity (run again to confirm).")
NOT_CLAIMED = "{sentence} Not reached, so not claimed: {levels}; {advice}."
LEVEL_AND_WHY = "{label} ({why})"
MISSED_UNREACHED = "{label} (even though not reached: {why})"
MORE_JOBS_CLOSED = "give them at least as many jobs as users"
MORE_JOBS_OPEN = "hold them for more jobs"
# --- the engine measured (engine/load/runner.py engine_label, engine/load/report.py hardware_line)
ENGINE_DETAILS = "{backend} ({details})"
WEIGHTS = "{kind} weights"
MODEL_KIND = "{kind} model"
MODEL_SIZE = "{kind} {size} model"
MODEL_KINDS = ("real", "synthetic", "missing")  # engine.synthesis.backends.cosyvoice_models.model_kind
MODEL_SIZES = ("tiny", "full", "unknown")
DEVICE_SLOT = "{device}, {count} slot"
DEVICE_SLOTS = "{device}, {count} slots"
WARM_UP_OVER = "warm-up over before the first level (waited {seconds:.1f} s)"
WARM_UP_NOT_OVER = "warm-up not over after {seconds:.0f} s: the first level may include it"
# --- lists -------------------------------------------------------------------------------------
SEMICOLON_LIST = "{first}; {rest}"
DOT_LIST = "{first} · {rest}"

TEMPLATES = (
    USER, USERS, RATE, CONCURRENT_USER, CONCURRENT_USERS, FEW_USERS_BUSY, FEW_ARRIVED,
    P95_FIRST_AT_MOST, P95_TOTAL_AT_MOST, NO_ERRORS, ERRORS_AT_MOST, NO_STALLS, STALLS_AT_MOST,
    NO_JOB_FINISHED, P95_FIRST_WAS, P95_TOTAL_WAS, STALLED, SECONDS, NOT_AVAILABLE, ONE_ERROR, ERRORS,
    ERROR_KIND, THIS_MACHINE, THE_SERVER, ON_SLOT, ON_SLOTS, SERVES, KEEPS_UP, HIGHEST_REACHED,
    HIGHEST_TRIED, STOPPED_EARLY, NO_LEVEL_FINISHED, NO_LEVEL_REACHED, NO_LEVEL_MET, NO_CAPACITY,
    EVERY_LEVEL_MET, CAPACITY, ONE_PASSED_ABOVE, PASSED_ABOVE, NOT_CLAIMED, LEVEL_AND_WHY,
    MISSED_UNREACHED, MORE_JOBS_CLOSED, MORE_JOBS_OPEN, ENGINE_DETAILS, WEIGHTS, MODEL_KIND, MODEL_SIZE,
    *MODEL_KINDS, *MODEL_SIZES, DEVICE_SLOT, DEVICE_SLOTS, WARM_UP_OVER, WARM_UP_NOT_OVER, COMMA_LIST,
    SEMICOLON_LIST, DOT_LIST,
)


def declared(word: str) -> str:
    """``word`` (a model kind or size from an engine's facts) as a phrase when it is one of the
    declared words, else as it is (a newer engine's word shows in English)."""
    return LoadPhrase(word) if word in MODEL_KINDS + MODEL_SIZES else word


def joined(parts: Sequence[str], template: str = COMMA_LIST) -> str:
    """``parts`` as one list ("a, b, c" with :data:`COMMA_LIST`), a phrase whose separators a
    translation may change ("a，b，c"); "" for none."""
    return phrases.joined(LoadPhrase, parts, template)
