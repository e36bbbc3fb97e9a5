"""`dubstudio say`: speak one text through the engine process and write a WAV."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from app.commands.common import (
    add_client_arguments,
    add_recogniser_option,
    check_recogniser_model,
    engine_client_from_args,
    how_many,
    note_use_notices,
)
from app.commands.exit_codes import ExitCode
from engine.core.numbers import number_argument
from engine.core.paths import SAMPLE_VOICES
from engine.core.protocol import PITCH, SPEED, EngineError, ErrorCode
from engine.synthesis.backends import DESCRIPTORS, descriptor

if TYPE_CHECKING:
    from app.commands.common import Subparsers
    from engine.core.protocol import (
        AudioChunk,
        EngineClientProtocol,
        Job,
        JobFinished,
        RequestFailed,
        VoicePrepared,
        VoiceSpec,
    )


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("say", help="speak a text with a character voice and write a WAV")
    parser.add_argument("text", help="the text to speak")
    parser.add_argument("--voice", default=str(SAMPLE_VOICES / "narrator.wav"),
                        help="reference clip of the character (default: the bundled narrator)")
    parser.add_argument("--transcript", default=None,
                        help="what is said in the clip (default: CLIP.txt beside it, else heard from the clip)")
    parser.add_argument("--out", required=True,
                        help="WAV file to write (replaced atomically; a pipe or device such as /dev/stdout "
                             "is streamed into)")
    parser.add_argument("--speed", type=number_argument(SPEED), default=1.0,
                        help=f"speaking rate, {SPEED.describe()}; default 1{_narrower_speeds()}")
    parser.add_argument("--pitch", type=number_argument(PITCH), default=0.0,
                        help=f"extra pitch shift, {PITCH.describe()}; default 0")
    parser.add_argument("--instruction", default="", help="style instruction (backends that support it)")
    parser.add_argument("--language", default="", help="language of the text, e.g. en, zh")
    parser.add_argument("--json", action="store_true", help="print timings as one JSON object")
    add_recogniser_option(parser)
    add_client_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from engine.core.files import FileError, atomic_write_wav
    from engine.core.languages import line_language
    from engine.core.protocol import Job, Priority
    from engine.synthesis.client.local import EngineStartError
    from engine.synthesis.voices import resemblance_text

    checked = _checked_voice(args)
    if isinstance(checked, int):
        return checked
    voice, heard_transcript = checked
    try:
        client = engine_client_from_args(args)
    except EngineStartError as error:
        print(f"dubstudio: {error.code.value}: {error}", file=sys.stderr)
        return ExitCode.ENGINE
    try:
        try:
            client.start()
        except EngineStartError as error:
            print(f"dubstudio: {error.code.value}: {error}", file=sys.stderr)
            return ExitCode.ENGINE
        if client.ready is not None:
            note_use_notices(client.ready.backend.name, [line_language(args.language, args.text)])
        job = Job(args.text, voice, priority=Priority.INTERACTIVE, listening=False)  # written to a file
        spoken = _speak(client, job)
        if isinstance(spoken, int):
            return spoken
    except KeyboardInterrupt:  # Ctrl+C or SIGTERM
        print("dubstudio say: interrupted; nothing was written", file=sys.stderr)
        return ExitCode.INTERRUPTED
    finally:
        client.close()
    rate = spoken.chunks[0].sample_rate
    audio = np.concatenate([chunk.pcm for chunk in spoken.chunks])
    try:
        atomic_write_wav(args.out, audio, rate, stream_special=True)
    except FileError as error:
        print(f"dubstudio: {error}", file=sys.stderr)
        return ExitCode.SAVE_FAILED
    report = _report(args, client, spoken, len(audio) / rate, rate, heard_transcript)
    for warning in report["voice_warnings"]:  # what the studio's Characters panel shows, said here too
        print(f"dubstudio: the voice's clip: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"wrote {report['out']}: {report['audio_s']:.2f} s of audio in {how_many(report['chunks'], 'chunk')}; "
              f"first audio after {report['first_audio_s']:.3f} s, done after {report['total_s']:.3f} s "
              f"(voice cache {report['voice_cache']}); {resemblance_text(report)}")
    return ExitCode.OK


def _checked_voice(args: argparse.Namespace) -> tuple[VoiceSpec, str | None] | int:
    """The voice to speak with and the transcript heard for it (None: it was given or beside the
    clip), or the exit status of a bad input, refused before any engine starts."""
    from engine.core.files import FileError, check_target
    from engine.core.protocol import VoiceSettings, VoiceSpec
    from engine.core.reference import transcript_beside

    try:  # refuse a bad --out (a folder, a symlink, a device to be replaced) before any synthesis
        check_target(Path(args.out).absolute(), stream_special=True)
    except FileError as error:
        print(f"dubstudio: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    try:  # a speed the backend does not speak at: refused before its engine starts
        descriptor(args.backend).capabilities.speed.check(args.speed)
    except EngineError as error:
        print(f"dubstudio: {error.code.value}: {error.message}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    transcript = args.transcript
    if transcript is None:
        try:
            transcript = transcript_beside(args.voice)
        except FileError as error:
            print(f"dubstudio: {error}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    heard_transcript = None
    if not transcript.strip():
        if (status := check_recogniser_model("say", args.recogniser_model)) is not None:
            return status
        heard = _hear(args.voice, args.recogniser_model)
        if isinstance(heard, int):
            return heard
        heard_transcript = transcript = heard
    voice = VoiceSpec(
        clip_path=str(Path(args.voice).resolve()),
        transcript=transcript,
        settings=VoiceSettings(speed=args.speed, pitch_semitones=args.pitch, instruction=args.instruction,
                               language=args.language),
    )
    return voice, heard_transcript


class _Spoken(NamedTuple):
    """What the engine sent for the job, and its answer to the voice's preparation."""

    chunks: list[AudioChunk]
    first_audio_s: float | None
    total_s: float
    finished: JobFinished
    prepared: VoicePrepared | RequestFailed


def _speak(client: EngineClientProtocol, job: Job) -> _Spoken | int:
    """Submit the job and collect its audio, or the exit status of its failure."""
    from engine.core.protocol import (
        AudioChunk,
        JobFailed,
        JobFinished,
        RequestFailed,
        VoicePrepared,
    )

    submitted = client.submit(job)
    # Asked after the job, so the job prepares the voice and never waits for this answer:
    # it comes once the voice's resemblance is measured (and its cache entry written).
    prepare_id = client.prepare_voice(job.voice)
    chunks: list[AudioChunk] = []
    first_audio = None
    total = 0.0
    finished: JobFinished | None = None
    prepared: VoicePrepared | RequestFailed | None = None
    while finished is None or prepared is None:
        event = client.get_event()
        if isinstance(event, AudioChunk) and event.job_id == job.job_id:
            if first_audio is None:
                first_audio = time.monotonic() - submitted
            chunks.append(event)
        elif isinstance(event, JobFailed) and event.job_id == job.job_id:
            if event.resubmitted:
                chunks.clear()
                first_audio = None
                continue
            print(f"dubstudio: {event.code.value}: {event.message}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        elif isinstance(event, JobFinished) and event.job_id == job.job_id:
            total = time.monotonic() - submitted
            finished = event
        elif isinstance(event, (VoicePrepared, RequestFailed)) and event.request_id == prepare_id:
            prepared = event
    return _Spoken(chunks, first_audio, total, finished, prepared)


def _report(args: argparse.Namespace, client: EngineClientProtocol, spoken: _Spoken, audio_s: float, rate: int,
            heard_transcript: str | None) -> dict[str, Any]:
    """The run's figures, as --json prints them."""
    from engine.core.protocol import VoicePrepared

    finished, prepared, total = spoken.finished, spoken.prepared, spoken.total_s
    # The job and the preparation request race for a new voice: whichever comes first prepares
    # it, and the other finds it in memory. Either way this run prepared it: a miss.
    source = "miss" if isinstance(prepared, VoicePrepared) and prepared.cache == "miss" else finished.timing.voice_cache
    return {
        "first_audio_s": round(spoken.first_audio_s or 0.0, 4),
        "total_s": round(total, 4),
        "audio_s": round(audio_s, 4),
        "rtf": round(total / audio_s, 4),
        "sample_rate": rate,
        "chunks": len(spoken.chunks),
        "voice_cache": "hit" if source in ("memory", "disk") else "miss",
        "voice_cache_source": source,
        "voice_prepare_s": finished.timing.voice_prepare_s,
        **resemblance_of(prepared),
        "engine_start_s": round(client.engine_start_s, 4),
        "backend": client.ready.backend.name if client.ready else args.backend,
        "engine": args.engine_url or "local",
        "out": str(Path(args.out).resolve()),
        "transcript_heard": heard_transcript,  # None: the transcript was given or beside the clip
        "voice_warnings": list(prepared.summary.get("warnings", [])) if isinstance(prepared, VoicePrepared) else [],
    }


def _narrower_speeds() -> str:
    """The backends that speak at less than the engine's range, for --speed's help."""
    narrower = [f"{d.name} {d.capabilities.speed.low:g} to {d.capabilities.speed.high:g}"
                for d in DESCRIPTORS.values() if d.capabilities.speed != SPEED]
    return f"; on {', '.join(narrower)} only" if narrower else ""


def resemblance_of(prepared: VoicePrepared | RequestFailed | None) -> dict[str, float | None]:
    """``resemblance`` (the voice's GE2E cosine to its clip) and ``resemblance_plain`` (the
    model's own voice's; None for a cloning backend), or None each when not measured."""
    from engine.core.protocol import VoicePrepared
    from engine.synthesis.voices import RESEMBLANCE_KEYS

    summary = prepared.summary if isinstance(prepared, VoicePrepared) else {}
    return {name: summary.get(name) for name in RESEMBLANCE_KEYS}


# A clip the ear cannot take is one no engine can: refused once, with its code, before an engine starts.
_CLIP_FAULTS = frozenset({ErrorCode.CLIP_MISSING, ErrorCode.CLIP_UNREADABLE, ErrorCode.CLIP_SILENT,
                          ErrorCode.CLIP_TOO_SHORT, ErrorCode.CLIP_TOO_LONG, ErrorCode.CLIP_TOO_LARGE})


def _hear(clip: str, model: str) -> str | int:
    """The clip's words heard by ear (a cloning backend needs them); "" when they cannot be; the
    exit status when the clip itself is at fault (unreadable, silent, too short, ...)."""
    from engine.core.protocol import EngineError
    from engine.hearing.qa.recognise import NotHeard
    from engine.hearing.qa.transcripts import hear_clip

    try:
        heard = hear_clip(clip, model=model).text
    except EngineError as error:
        if error.code in _CLIP_FAULTS:
            print(f"dubstudio: {error.code.value}: {error.message}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        print(f"dubstudio: the clip has no transcript and none could be heard: {error}", file=sys.stderr)
        return ""
    except NotHeard as error:
        print(f"dubstudio: the clip has no transcript and none could be heard: {error}", file=sys.stderr)
        return ""
    print(f"dubstudio: no transcript beside the clip; heard “{heard}” (write it to {Path(clip).with_suffix('.txt').name} "
          "or pass --transcript to correct it)", file=sys.stderr)
    return heard
