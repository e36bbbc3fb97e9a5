"""Issue 18's figures: transcribing real multi-speaker recordings into a cast and a timed script.

    .venv/bin/python benchmarks/transcribe.py --pyannote REPO [--held-out] [--long-minutes 10] [--json out.json]
        [--voices RTVC_REPO [--wenet WENET_REPO]] [--only dialogues|meetings|long]

REPO is a git clone of https://github.com/pyannote/pyannote-audio (MIT); the recordings and
their references are read out of its history with ``git show``, nothing is committed here:

- ``sample``: src/pyannote/audio/sample/sample.wav, 30 s of a two-person phone call, with
  sample.rttm (who speaks when) and sample.stm (what they say);
- ``ami-mixture``: tutorials/assets/seriously/mixture.wav at commit 84d5e404, 60 s of an AMI
  meeting (CC BY 4.0) with four speakers (one only says "Mm. Yeah."), its RTTM and each
  speaker's words (text/mixture.*.words_joined.txt at c6057f08);
- ``ami-tst00`` / ``ami-dev00``: tests/data/{tst00,dev00}.wav, 30 s of other AMI meetings
  with their RTTMs (debug.test.rttm, debug.development.rttm); no transcripts;
- with ``--held-out``, the other twelve 30 s AMI excerpts there with RTTMs (tst01, dev01,
  trn00-09; trn00 is stored as tr\u00f1-00). They were held out until issue 32's first stop ran
  them three times; they are tuning recordings now.

With ``--fresh DIARIZEN_REPO --ami-setup SETUP_REPO`` (``--only fresh`` for it alone), the fresh
held-out meeting: example/EN2002a_30s.wav of https://github.com/BUTSpeechFIT/DiariZen (MIT code;
the audio is AMI's, CC BY 4.0), taken as the first 30 s of meeting EN2002a, scored against
only_words/rttms/test/EN2002a.rttm of https://github.com/BUTSpeechFIT/AMI-diarization-setup (from
the AMI manual annotations 1.6.2). With ``--before``, each recording is also transcribed without
the second decoding of speech no line covers (``Options(hear_again=False)``), in the same run.
With ``--cache DIR``, each recording's speakers-step inputs (Whisper's lines, the CAM++ windows)
are saved there as data (.npz, no pickles); a later run with the same DIR runs only the speakers
step on them, in seconds (for tuning the clustering: counts, DER, right share and WER; no clips
or speed, and the same Whisper output for every setting tried).

With ``--voices``, also clean dialogues of real read speech built from single-speaker clips (issue
32): each clip cut in two at its quietest 100 ms near the middle, the speakers taking turns
(A1 B1 C1 A2 B2 C2), 0.7 s apart. The clips: the LibriSpeech (CC BY 4.0) and VCTK (ODC-By)
samples of https://github.com/CorentinJ/Real-Time-Voice-Cloning (``samples/``: 1320, 3575, 6829,
8230, p240, p260; about 5 s each), LibriSpeech 1995-1837-0001 from
https://github.com/wenet-e2e/wenet (``test/resources/``, with ``--wenet``), the bundled voices
and the two French Common Voice clips (CC0) in tests/data/hearing. Six ("t...") were tuned on,
six of other speakers ("h...", one French) held out; for them, the share of the speech heard that
went to the right speaker.

With ``--bed MUSIC --bed-db DB``, the dialogues have that music looped under them, DB under the
speech (15: a film's music bed under its dialogue; 10: a loud one).

For each: the diarization error rate of the script's lines and its parts (missed speech, false
alarm, speaker confusion; 10 ms frames, no collar, overlapped speech counted, speakers mapped one
to one for the least error; ``with_no_words``: the same with the wordless stretches the
transcription kept, as their speakers' speech; ``with_segmented``: also the speech the
segmentation model heard that no span covers, ``Transcription.speaking`` included;
``lines_overlaps`` / ``with_segmented_overlaps``: with the second speakers it heard over them,
``Transcription.overlaps``; all from the same transcription; ``missed_parts``: where the missed
speech of the last went, see :func:`missed_parts`; the speakers without lines the segmentation
model found, ``speakers_without_lines``, are mapped like any), the speaker count found against the
reference's (all speakers, and those with at least 3 s), the word error rate of the script (by
time against the STM; for AMI, concatenated per speaker under the same mapping: cpWER), each
chosen clip's purity (its CAM++ cosine to the rest of its reference speaker's speech against the
best other speaker's, beside the purity the Characters panel shows for it), and the real-time factor (wall clock, and CPU seconds per second of
audio, which other load on the machine does not inflate). Then ``--long-minutes`` of those recordings
end to end (a longer video: more windows) for the real-time factor and the peak memory, next to
the peak after the short files, so growth with length shows (``--only long``: that run alone).
Whisper is loaded as the studio loads it for a transcription, with
:func:`engine.hearing.transcribe.whisper_threads` threads (a core left for the speaker steps,
which run beside it).
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.files import atomic_write
from engine.core.reference import ReferenceClip
from engine.hearing import HearingError, overlap, segmentation, speakers, unheard
from engine.hearing import transcribe as transcribing
from engine.hearing.audio import SAMPLE_RATE, decode_blocks
from engine.hearing.lines import Line, Word
from engine.hearing.qa.wer import normalise_words, word_error_rate
from engine.hearing.transcribe import (
    Options,
    Transcription,
    transcribe_media,
    whisper_threads,
)
from engine.hearing.whisper import load_whisper
from engine.voiceprint.encoder import CamppSpeakerEncoder

MIXTURE_AUDIO = "84d5e40461cf95ddc14ac1753859d7bb65a3e9a6"
MIXTURE_TEXT = "c6057f08fc24bcded882abe5c73e22adec45c3fb"
FRAME_S = 0.01


@dataclass
class Recording:
    name: str
    audio: Path
    turns: list[tuple[float, float, str]]  # (start, end, speaker)
    text_by_time: str | None = None  # the whole transcript in time order
    texts_by_speaker: list[str] | None = None  # each speaker's words, speakers unnamed


def _git_show(repo: Path, spec: str, target: Path) -> Path:
    target.write_bytes(subprocess.run(["git", "-C", str(repo), "show", spec], capture_output=True, check=True).stdout)
    return target


def _rttm(text: str, uri: str | None = None) -> list[tuple[float, float, str]]:
    turns = []
    for row in text.splitlines():
        parts = row.split()
        if parts and parts[0] == "SPEAKER" and (uri is None or parts[1] == uri):
            turns.append((float(parts[3]), float(parts[3]) + float(parts[4]), parts[7]))
    return turns


def recordings(repo: Path, folder: Path, held_out: bool = False) -> list[Recording]:
    def show(spec: str) -> str:
        return subprocess.run(["git", "-C", str(repo), "show", spec], capture_output=True, check=True, text=True).stdout

    sample = Recording("sample (2 speakers, phone)", _git_show(repo, "HEAD:src/pyannote/audio/sample/sample.wav",
                                                                folder / "sample.wav"),
                       _rttm(show("HEAD:src/pyannote/audio/sample/sample.rttm")))
    stm = [row.split(maxsplit=5) for row in show("HEAD:src/pyannote/audio/sample/sample.stm").splitlines() if row]
    sample.text_by_time = " ".join(parts[5] for parts in sorted(stm, key=lambda p: float(p[3])))
    mixture = Recording("ami-mixture (4 speakers, meeting)",
                        _git_show(repo, f"{MIXTURE_AUDIO}:tutorials/assets/seriously/mixture.wav", folder / "mixture.wav"),
                        _rttm(show(f"{MIXTURE_AUDIO}:tutorials/assets/seriously/mixture.rttm")))
    mixture.texts_by_speaker = [show(f"{MIXTURE_TEXT}:tutorials/assets/seriously/text/mixture.{letter}.words_joined.txt")
                                .strip() for letter in "ABCD"]
    found = [sample, mixture]
    excerpts = [("tst00", "debug.test.rttm"), ("dev00", "debug.development.rttm")]
    if held_out:
        excerpts += [("tst01", "debug.test.rttm"), ("dev01", "debug.development.rttm")]
        excerpts += [(f"trn{n:02d}", "debug.train.rttm") for n in range(10)]
    for uri, rttm in excerpts:
        stored = "tr\u00f100" if uri == "trn00" else uri  # so named in that repository
        found.append(Recording(f"ami-{uri} (meeting)", _git_show(repo, f"HEAD:tests/data/{stored}.wav", folder / f"{uri}.wav"),
                               _rttm(show(f"HEAD:tests/data/{rttm}"), uri)))
    return found


def fresh_meetings(diarizen_repo: Path, setup_repo: Path | None, folder: Path) -> list[Recording]:
    """AMI excerpts none of the recordings above comes from (issue 32's fresh held-out set):
    DiariZen's example, the first 30 s of meeting EN2002a (AMI's far-field mix), scored against
    the AMI-diarization-setup reference (words only, from the AMI manual annotations 1.6.2)."""
    if setup_repo is None:
        raise SystemExit("--fresh needs --ami-setup")
    audio = _git_show(diarizen_repo, "HEAD:example/EN2002a_30s.wav", folder / "EN2002a_30s.wav")
    rttm = subprocess.run(["git", "-C", str(setup_repo), "show", "HEAD:only_words/rttms/test/EN2002a.rttm"],
                          capture_output=True, check=True, text=True).stdout
    length = len(decode(audio)) / SAMPLE_RATE
    turns = [(start, min(end, length), who) for start, end, who in _rttm(rttm) if start < length]
    return [Recording("ami-EN2002a-0-30 (fresh, meeting)", audio, turns)]


DIALOGUE_CLIPS = {"1320": "samples/1320_00000.mp3", "3575": "samples/3575_00000.mp3",
                  "6829": "samples/6829_00000.mp3", "8230": "samples/8230_00000.mp3",
                  "p240": "samples/p240_00000.mp3", "p260": "samples/p260_00000.mp3"}
DIALOGUES = {"t2a": ["1320", "8230"], "t2b": ["3575", "6829"], "t3a": ["1320", "6829", "rex"],
             "t3b": ["8230", "3575", "maya"], "t4a": ["3575", "8230", "maya", "rex"], "t4b": ["1320", "6829", "8230", "maya"],
             "h2a": ["p240", "p260"], "h2b": ["fr_17301936", "fr_17767732"], "h2c": ["l1995", "narrator"],
             "h3a": ["p240", "p260", "l1995"], "h3b": ["narrator", "p240", "l1995"], "h4a": ["p240", "p260", "l1995", "narrator"]}
DIALOGUE_GAP_S = 0.7


def _halves(audio: np.ndarray) -> list[np.ndarray]:
    """The clip cut in two at its quietest 100 ms between 35 % and 65 % of it."""
    frame = SAMPLE_RATE // 10
    count = len(audio) // frame
    rms = np.sqrt(np.mean(audio[: count * frame].reshape(count, frame) ** 2, axis=1))
    low, high = int(0.35 * count), int(0.65 * count)
    cut = (low + int(np.argmin(rms[low:high]))) * frame + frame // 2
    return [audio[:cut], audio[cut:]]


def with_bed(audio: np.ndarray, turns: Sequence[tuple[float, float, Any]], bed: np.ndarray, db: float) -> np.ndarray:
    """``audio`` with ``bed`` looped under it ``db`` under the speech's level (the RMS of the
    reference turns), as a film's music sits under its dialogue; scaled down only if it would clip."""
    speech = np.concatenate([audio[int(start * SAMPLE_RATE):int(end * SAMPLE_RATE)] for start, end, _ in turns])
    loop = np.resize(bed, len(audio))
    gain = np.sqrt(np.mean(speech**2) / max(float(np.mean(loop**2)), 1e-12)) * 10 ** (-db / 20)
    mixed = audio + gain * loop
    return (mixed / max(1.0, float(np.abs(mixed).max()) / 0.99)).astype(np.float32)


def dialogues(voices_repo: Path, wenet_repo: Path | None, folder: Path,
              bed: tuple[np.ndarray, float] | None = None) -> list[Recording]:
    """The clean dialogues of real read speech (see the module's docstring); those needing the
    wenet clip are left out without ``--wenet``; with ``bed`` (audio, dB), over that music."""
    import soundfile as sf

    root = Path(__file__).resolve().parents[1]
    sources = {name: _git_show(voices_repo, f"HEAD:{path}", folder / Path(path).name) for name, path in DIALOGUE_CLIPS.items()}
    if wenet_repo is not None:
        sources["l1995"] = _git_show(wenet_repo, "HEAD:test/resources/librispeech-1995-1837-0001.wav", folder / "l1995.wav")
    for name in ("maya", "rex", "narrator"):
        sources[name] = root / "resources" / "voices" / f"{name}.wav"
    for name in ("fr_17301936", "fr_17767732"):
        sources[name] = root / "tests" / "data" / "hearing" / f"{name}.mp3"
    found = []
    for name, voices in DIALOGUES.items():
        if not all(voice in sources for voice in voices):
            continue
        pieces = {voice: _halves(decode(sources[voice])) for voice in voices}
        parts, turns, at = [], [], 0.0
        for half in (0, 1):
            for voice in voices:
                audio = pieces[voice][half]
                turns.append((at, at + len(audio) / SAMPLE_RATE, voice))
                parts += [audio, np.zeros(int(DIALOGUE_GAP_S * SAMPLE_RATE), np.float32)]
                at += len(audio) / SAMPLE_RATE + DIALOGUE_GAP_S
        path = folder / f"dialogue-{name}.flac"
        audio = np.concatenate(parts)
        sf.write(str(path), audio if bed is None else with_bed(audio, turns, *bed), SAMPLE_RATE)
        found.append(Recording(f"{name} ({len(voices)} speakers, dialogue)", path, turns))
    return found


# --- measures ----------------------------------------------------------------------------------


def _frames(turns: Sequence[tuple[float, float, Any]], length: int) -> list[set[Any]]:
    frames: list[set[Any]] = [set() for _ in range(length)]
    for start, end, who in turns:
        for i in range(int(start / FRAME_S), min(length, int(end / FRAME_S))):
            frames[i].add(who)
    return frames


def diarization(reference: list[tuple[float, float, str]], heard: Transcription,
                with_no_words: bool = False, segmented: bool = False, overlaps: bool = False) -> dict[str, float]:
    """The DER and its parts (missed speech, false alarm, speaker confusion), with speakers
    mapped one to one (hypothesis -> reference) for the least error. The hypothesis is the
    script's lines (from first word to last); ``with_no_words`` adds the speech no line covers
    that the transcription kept with a speaker (``Transcription.no_words``), Silero's only unless
    ``segmented`` (then also the segmentation model's, and the edges and pauses of turns it heard,
    ``Transcription.speaking``); ``overlaps`` adds the second speakers the
    segmentation model heard over them (``Transcription.overlaps``)."""
    hypothesis = [(line.start, line.end, line.speaker) for line in heard.lines]
    if with_no_words:
        hypothesis += [(stretch.start, stretch.end, stretch.speaker) for stretch in heard.no_words
                       if segmented or not stretch.by_segmentation]
    if with_no_words and segmented:
        hypothesis += [(stretch.start, stretch.end, stretch.speaker) for stretch in heard.speaking]
    if overlaps:
        hypothesis += [(stretch.start, stretch.end, stretch.speaker) for stretch in heard.overlaps]
    return turns_der(reference, hypothesis)


def turns_der(reference: Sequence[tuple[float, float, str]], hypothesis: Sequence[tuple[float, float, int]]) -> dict[str, float]:
    """The DER and its parts of ``hypothesis`` turns (start, end, speaker number) against the
    reference turns, speakers mapped one to one for the least error (see :func:`diarization`)."""
    from scipy.optimize import linear_sum_assignment

    length = int(max(end for _, end, _ in [*reference, *hypothesis]) / FRAME_S) + 1
    ref, hyp = _frames(reference, length), _frames(hypothesis, length)
    names = sorted({who for _, _, who in reference})
    overlap = np.zeros((max((k for _, _, k in hypothesis), default=-1) + 1, len(names)))
    for r, h in zip(ref, hyp):
        for k in h:
            for who in r:
                overlap[k, names.index(who)] += 1
    rows, cols = linear_sum_assignment(-overlap)
    mapping = {int(k): names[c] for k, c in zip(rows, cols)}
    missed = false_alarm = confused = total = 0
    for r, h in zip(ref, hyp):
        correct = len({mapping.get(k) for k in h} & r)
        missed += max(0, len(r) - len(h))
        false_alarm += max(0, len(h) - len(r))
        confused += min(len(r), len(h)) - correct
        total += len(r)
    parts = {"missed": missed / max(total, 1), "false_alarm": false_alarm / max(total, 1),
             "confusion": confused / max(total, 1)}
    return {"der": sum(parts.values()), **parts}


def missed_parts(reference: list[tuple[float, float, str]], heard: Transcription, inputs: tuple[Any, ...],
                 ungated: Sequence[segmentation.Chunks], windows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Where the missed speech of ``with_segmented_overlaps`` went, as shares of the reference
    speech (they add up to its ``missed``): a second (third) speaker where the hypothesis has one,
    because the segmentation model hears one voice there (``overlap_model_one``), or hears two but
    the second local speaker was given no name (``overlap_unnamed``), or otherwise
    (``overlap_other``); the extra speakers where nobody was given the frame
    (``overlap_nobody_given``); and where nobody was given a frame of one speaker: the model hears
    nobody (``model_nobody``), it hears speech only under the -80 dBFS gate (``gate``), the local
    speaker it hears has no name (``unnamed``), one named speaker is active but the stretch was
    shorter than UNSPANNED_LEAST_S (``short``), two are (``two_named``). ``inputs`` are the
    segmentation step's (transcribe._segmented's arguments); ``ungated`` the segmentation model's
    answer on each window without the gate, and ``windows`` where each window starts
    (``offset_s``)."""
    local_speech, lines, no_words, count, duration_s, means = inputs
    spans = [(line.start, line.end, line.speaker) for line in lines] + \
            [(stretch.start, stretch.end, stretch.speaker) for stretch in no_words]
    joined = segmentation.LocalSpeech.joined(local_speech)
    found = overlap.active_speakers(joined, spans, count, duration_s, means, heard.speakers_without_lines)
    ungated_speech = overlap.active_speakers(
        segmentation.LocalSpeech.joined([segmentation.LocalSpeech.of(chunks, window["offset_s"])
                                         for chunks, window in zip(ungated, windows)]),
        spans, count, duration_s).speech
    length = len(found.speech)
    two, hearing = np.zeros(length), np.zeros(length)
    per_chunk = joined.activity.shape[1]
    for chunk, start in enumerate(joined.starts):
        first = int(round(start / overlap.GRID_S))
        grid = np.arange(first, min(length, first + int(round(per_chunk * segmentation.FRAME_STEP_S / overlap.GRID_S))))
        at = np.minimum(per_chunk - 1, ((grid * overlap.GRID_S - start) / segmentation.FRAME_STEP_S).astype(np.int64))
        hearing[grid] += 1
        two[grid] += joined.activity[chunk][at].sum(axis=1) >= 2
    two_heard = two / np.maximum(hearing, 1) >= overlap.ACTIVE_SHARE
    hypothesis = [(line.start, line.end, line.speaker) for line in heard.lines] + \
                 [(stretch.start, stretch.end, stretch.speaker) for stretch in heard.no_words] + \
                 [(stretch.start, stretch.end, stretch.speaker) for stretch in [*heard.speaking, *heard.overlaps]]
    ref, hyp = _frames(reference, length), _frames(hypothesis, length)
    parts = dict.fromkeys(("overlap_model_one", "overlap_unnamed", "overlap_other", "overlap_nobody_given", "model_nobody",
                           "gate", "unnamed", "short", "two_named"), 0)
    total = 0
    for frame, (r, h) in enumerate(zip(ref, hyp)):
        total += len(r)
        missed = len(r) - len(h)
        if missed <= 0:
            continue
        if h:
            named = int(found.active[frame].sum())
            key = "overlap_model_one" if not two_heard[frame] else "overlap_unnamed" if named < 2 else "overlap_other"
            parts[key] += missed
            continue
        parts["overlap_nobody_given"] += missed - 1
        named = int(found.active[frame].sum())
        key = ("model_nobody" if not ungated_speech[frame] else "gate" if not found.speech[frame]
               else "unnamed" if named == 0 else "short" if named == 1 else "two_named")
        parts[key] += 1
    return {key: round(value / max(total, 1), 3) for key, value in parts.items()}


@contextlib.contextmanager
def _arguments_of(module: Any, name: str) -> Iterator[list[tuple[Any, ...]]]:
    """The arguments each call of ``module.name`` is given while the block runs (the function
    still runs): how the benchmark catches a step's inputs to keep them as data."""
    caught: list[tuple[Any, ...]] = []
    real = getattr(module, name)

    def catching(*args: Any, **kwargs: Any) -> Any:
        bound = inspect.signature(real).bind(*args, **kwargs)
        bound.apply_defaults()
        caught.append(tuple(bound.arguments.values()))
        return real(*args, **kwargs)

    setattr(module, name, catching)
    try:
        yield caught
    finally:
        setattr(module, name, real)


def speakers_heard(reference: list[tuple[float, float, str]], heard: Transcription, least_s: float = 3.0) -> int:
    """The reference speakers with at least ``least_s`` inside the script's lines: the most a
    clustering of those lines could find (speech Whisper did not hear is in no line)."""
    said: dict[str, float] = {}
    for line in heard.lines:
        for start, end, who in reference:
            said[who] = said.get(who, 0.0) + max(0.0, min(end, line.end) - max(start, line.start))
    return sum(1 for seconds in said.values() if seconds >= least_s)


def clip_purity(rec: Recording, heard: Transcription, encoder: CamppSpeakerEncoder, audio: np.ndarray) -> list[dict]:
    """Each chosen clip's CAM++ cosine to its reference speaker's other speech, and to the others',
    beside its score and the purity the Characters panel shows (which should predict own - best_other)."""
    def embed(pieces: list[np.ndarray]) -> np.ndarray:
        joined = np.concatenate(pieces)
        return encoder.embed(ReferenceClip(joined, SAMPLE_RATE, len(joined) / SAMPLE_RATE))

    results = []
    for speaker, found in heard.candidates.items():
        if not found:
            continue
        clip = found[0]
        owner = max({who for _, _, who in rec.turns},
                    key=lambda who: sum(max(0.0, min(e, clip.end) - max(s, clip.start)) for s, e, w in rec.turns if w == who))
        clip_vector = embed([audio[int(clip.start * SAMPLE_RATE): int(clip.end * SAMPLE_RATE)]])
        cosines = {}
        for who in {w for _, _, w in rec.turns}:
            # Their speech outside the clip: each turn less the part the clip covers.
            spans = [(s, min(e, clip.start)) for s, e, w in rec.turns if w == who] + \
                    [(max(s, clip.end), e) for s, e, w in rec.turns if w == who]
            pieces = [audio[int(s * SAMPLE_RATE): int(e * SAMPLE_RATE)] for s, e in spans if e - s > 0.3]
            if sum(len(p) for p in pieces) > SAMPLE_RATE:
                cosines[who] = float(clip_vector @ embed(pieces))
        own = cosines.pop(owner, float("nan"))
        results.append({"speaker": speaker + 1, "reference_speaker": owner, "seconds": round(clip.duration_s, 2),
                        "own": round(own, 3), "best_other": round(max(cosines.values(), default=float("nan")), 3),
                        "score": round(clip.score, 3), "purity": round(clip.purity, 3)})
    return results


def script_wer(rec: Recording, heard: Transcription) -> dict[str, float]:
    """The script's WER against a transcript in time order; against per-speaker texts, cpWER:
    each speaker's words against one found speaker's, paired for the fewest errors."""
    from scipy.optimize import linear_sum_assignment

    found: dict[str, float] = {}
    if rec.text_by_time is not None:
        found["wer"] = word_error_rate(rec.text_by_time, " ".join(line.text for line in heard.lines))
    if rec.texts_by_speaker is not None:
        said = [" ".join(line.text for line in heard.lines if line.speaker == k) for k in range(heard.speaker_count)]
        said += [""] * max(0, len(rec.texts_by_speaker) - len(said))
        counts = [len(normalise_words(text)) for text in rec.texts_by_speaker]
        errors = np.array([[word_error_rate(text, hyp) * count if count else len(normalise_words(hyp))
                            for hyp in said] for text, count in zip(rec.texts_by_speaker, counts)])
        rows, cols = linear_sum_assignment(errors)
        paired = set(cols.tolist())
        unpaired = sum(len(normalise_words(hyp)) for k, hyp in enumerate(said) if k not in paired)  # insertions
        found["cpwer"] = (errors[rows, cols].sum() + unpaired) / max(sum(counts), 1)
    return {key: round(value, 3) for key, value in found.items()}


def decode(path: Path) -> np.ndarray:
    return np.concatenate([block for _, block in decode_blocks(path, None, SAMPLE_RATE)])


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _lines_data(lines: Sequence[Line]) -> list[dict[str, Any]]:
    return [{"speaker": line.speaker, "words": [[w.start, w.end, w.text, w.probability] for w in line.words]}
            for line in lines]


def _lines_of(data: list[dict[str, Any]]) -> list[Line]:
    return [Line([Word(*word) for word in line["words"]], line["speaker"]) for line in data]


def save_inputs(path: Path, heard: Transcription, inputs: tuple[Any, ...],
                unheard_inputs: tuple[Any, ...] | None = None, local_inputs: Sequence[tuple[Any, ...]] = ()) -> None:
    """The speakers step's inputs of one transcription as data (an .npz of arrays and one JSON
    text; no pickles), written atomically: ``inputs`` are speakers_of's arguments,
    ``unheard_inputs`` unheard.with_speakers' (the wordless stretches and their embeddings), and
    ``local_inputs`` each window's transcribe._local_speech arguments (the segmentation model's
    answer, kept whole: its probabilities, so a cached run can read them another way)."""
    lines, parts, windows, part_windows, count = inputs
    meta: dict[str, Any] = {"duration_s": heard.duration_s, "language": heard.language,
                            "language_probability": heard.language_probability, "speakers": count,
                            "lines": _lines_data(lines), "parts": _lines_data(parts)}
    arrays: dict[str, Any] = {}
    for name, found in (("windows", windows), ("part_windows", part_windows)):
        arrays[f"{name}_starts"] = np.asarray(found.starts, dtype=np.float64)
        arrays[f"{name}_ends"] = np.asarray(found.ends, dtype=np.float64)
        arrays[f"{name}_vectors"] = found.embeddings()
    if unheard_inputs is not None:
        stretches, blocks = unheard_inputs[0], [block for block in unheard_inputs[1] if len(block)]
        meta["silent"] = [list(stretch) for stretch in stretches]
        arrays["silent_vectors"] = np.concatenate(blocks) if blocks else np.zeros((0, 0), dtype=np.float32)
    meta["segmented_windows"] = []
    for index, (chunks, audio, offset_s, heard_lines, silent, _) in enumerate(local_inputs):
        meta["segmented_windows"].append({"offset_s": offset_s, "samples": len(audio),
                                          "lines": [[line.start, line.end] for line in heard_lines],
                                          "silent": [list(stretch) for stretch in silent]})
        arrays[f"segmented_{index}_starts"] = chunks.starts
        arrays[f"segmented_{index}_probabilities"] = chunks.probabilities
        if chunks.levels is not None:
            arrays[f"segmented_{index}_levels"] = chunks.levels
    arrays["meta"] = np.array(json.dumps(meta))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    atomic_write(path, lambda handle: handle.write(buffer.getvalue()))


def measure_cached(rec: Recording, path: Path, encoder: CamppSpeakerEncoder) -> dict[str, Any]:
    """One recording's speakers step run again on its cached inputs (:func:`save_inputs`): the
    figures that need only the lines (counts, DER, right share, WER); no clips or speed. Where the
    cache holds the segmentation model's answer, also what it adds (the wordless stretches given
    speakers again, the local speakers' voices embedded again from the recording, the DER variants
    and ``missed_parts``), as the transcription's own steps make them."""
    with np.load(path, allow_pickle=False) as stored:
        meta = json.loads(str(stored["meta"]))
        found = {name: speakers.EmbeddingWindows(stored[f"{name}_starts"].tolist(), stored[f"{name}_ends"].tolist(),
                                                 list(stored[f"{name}_vectors"]))
                 for name in ("windows", "part_windows")}
        silent_vectors = stored.get("silent_vectors", None)
        chunks = [segmentation.Chunks(stored[f"segmented_{index}_starts"], stored[f"segmented_{index}_probabilities"],
                                      stored.get(f"segmented_{index}_levels", None))
                  for index in range(len(meta.get("segmented_windows", [])))]
    lines, labels, windows = speakers.speakers_of(_lines_of(meta["lines"]), _lines_of(meta["parts"]), found["windows"],
                                                  found["part_windows"], meta["speakers"])
    lines, labels, count = speakers.in_speaking_order(lines, labels)
    heard = Transcription(meta["duration_s"], meta["language"], meta["language_probability"], lines, count)
    segmented: dict[str, Any] = {}
    if silent_vectors is not None and chunks:
        silent = [tuple(stretch) for stretch in meta["silent"]]
        no_words = unheard.with_speakers(silent, [silent_vectors], windows.embeddings(), labels, count)
        audio = decode(rec.audio)
        local = []
        for window, window_chunks in zip(meta["segmented_windows"], chunks):
            first = int(round(window["offset_s"] * SAMPLE_RATE))
            part = audio[first: first + window["samples"]]
            spans = [(start - window["offset_s"], end - window["offset_s"])
                     for start, end in [*window["lines"], *window["silent"]]]
            local.append(segmentation.LocalSpeech.of(window_chunks, window["offset_s"],
                                                     overlap.local_voices(window_chunks, part, spans, encoder)))
        means = speakers.centroids(windows.embeddings(), labels, count)
        inputs = (local, lines, no_words, count, heard.duration_s, means)
        heard.no_words, heard.overlaps, heard.speaking, heard.speakers_without_lines = transcribing._segmented(*inputs)
        ungated = [segmentation.Chunks(window_chunks.starts, window_chunks.probabilities) for window_chunks in chunks]
        segmented = {**{name: {key: round(value, 3) for key, value in diarization(rec.turns, heard, *flags).items()}
                            for name, flags in SEGMENTED_VARIANTS.items()},
                     "missed_parts": missed_parts(rec.turns, heard, inputs, ungated, meta["segmented_windows"])}
    der = diarization(rec.turns, heard)
    speech: dict[str, float] = {}
    for start, end, who in rec.turns:
        speech[who] = speech.get(who, 0.0) + end - start
    return {
        "recording": rec.name, "cached": True,
        "duration_s": round(heard.duration_s, 1),
        **{key: round(value, 3) for key, value in der.items()},
        **segmented,
        "speakers_found": heard.speaker_count,
        "speakers_without_lines": heard.speakers_without_lines,
        "speakers_reference": len(speech),
        "speakers_reference_3s": sum(1 for s in speech.values() if s >= 3.0),
        "speakers_heard_3s": speakers_heard(rec.turns, heard),
        "right_share": round(1 - der["confusion"] / max(1e-9, 1 - der["missed"]), 3),
        **script_wer(rec, heard),
    }


def cache_path(folder: Path, model: str, rec: Recording, run: str) -> Path:
    return folder / f"{model}-{re.sub(r'[^A-Za-z0-9]+', '-', rec.name).strip('-')}-{run}.npz"


# The DER with what the segmentation model added (engine.hearing.overlap), from the same
# transcription: (with_no_words, segmented, overlaps) of diarization().
SEGMENTED_VARIANTS = {"lines_overlaps": (False, False, True), "with_segmented": (True, True, False),
                      "with_segmented_overlaps": (True, True, True)}


def measure(rec: Recording, model: Any, encoder: CamppSpeakerEncoder, options: Options,
            cache: Path | None = None) -> dict[str, Any]:
    """One recording transcribed with ``options``: its figures (see the module's docstring);
    the speakers step's inputs saved to ``cache`` when given."""
    started, cpu = time.perf_counter(), time.process_time()
    try:
        with _arguments_of(speakers, "speakers_of") as inputs, _arguments_of(transcribing, "_segmented") as segmented, \
                _arguments_of(unheard, "with_speakers") as unheard_inputs, \
                _arguments_of(transcribing, "_local_speech") as local_inputs:
            heard = transcribe_media(rec.audio, model, encoder, options)
    except HearingError as error:  # two of the AMI excerpts are nearly silent
        return {"recording": rec.name, "error": str(error)}
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if cache is not None:
        save_inputs(cache, heard, inputs[-1], unheard_inputs[-1] if unheard_inputs else None, local_inputs)
    der = diarization(rec.turns, heard)
    timeline = diarization(rec.turns, heard, with_no_words=True)  # Silero's wordless stretches only
    speech: dict[str, float] = {}
    for start, end, who in rec.turns:
        speech[who] = speech.get(who, 0.0) + end - start
    return {
        "recording": rec.name,
        "duration_s": round(heard.duration_s, 1),
        **{key: round(value, 3) for key, value in der.items()},
        "with_no_words": {key: round(value, 3) for key, value in timeline.items()},
        **{name: {key: round(value, 3) for key, value in diarization(rec.turns, heard, *flags).items()}
           for name, flags in SEGMENTED_VARIANTS.items() if options.segmentation},
        **({"missed_parts": missed_parts(rec.turns, heard, segmented[-1],
                                         [segmentation.Chunks(found[0].starts, found[0].probabilities)
                                          for found in local_inputs],
                                         [{"offset_s": found[2]} for found in local_inputs])}
           if options.segmentation and segmented else {}),
        "segmented_s": round(sum(stretch.duration_s for stretch in heard.no_words if stretch.by_segmentation), 1),
        "speaking_s": round(sum(stretch.duration_s for stretch in heard.speaking), 1),
        "overlaps_s": round(sum(stretch.duration_s for stretch in heard.overlaps), 1),
        "no_words_s": round(sum(stretch.duration_s for stretch in heard.no_words if not stretch.by_segmentation), 1),
        "speakers_found": heard.speaker_count,
        "speakers_without_lines": heard.speakers_without_lines,
        "speakers_reference": len(speech),
        "speakers_reference_3s": sum(1 for s in speech.values() if s >= 3.0),
        "speakers_heard_3s": speakers_heard(rec.turns, heard),
        "right_share": round(1 - der["confusion"] / max(1e-9, 1 - der["missed"]), 3),
        **script_wer(rec, heard),
        "rtf": round(seconds / heard.duration_s, 3),
        "cpu_s_per_s": round(cpu / heard.duration_s, 3),
        "clips": clip_purity(rec, heard, encoder, decode(rec.audio)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pyannote", type=Path, required=True, help="a git clone of pyannote/pyannote-audio")
    parser.add_argument("--model", default="base")
    parser.add_argument("--long-minutes", type=float, default=10.0, help="length of the long run (0: none)")
    parser.add_argument("--held-out", action="store_true",
                        help="also the twelve AMI excerpts nothing was tuned on (counts and DER)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--voices", type=Path, default=None,
                        help="a git clone of CorentinJ/Real-Time-Voice-Cloning: also the clean dialogues")
    parser.add_argument("--wenet", type=Path, default=None, help="a git clone of wenet-e2e/wenet (one more voice)")
    parser.add_argument("--only", choices=("dialogues", "meetings", "fresh", "long"), default=None,
                        help="long: only the --long-minutes run (made of the meetings' recordings)")
    parser.add_argument("--before", action="store_true",
                        help="also each recording without the second decoding of speech no line covers")
    parser.add_argument("--fresh", type=Path, default=None,
                        help="a git clone of BUTSpeechFIT/DiariZen: the fresh held-out AMI excerpt (with --ami-setup)")
    parser.add_argument("--ami-setup", type=Path, default=None,
                        help="a git clone of BUTSpeechFIT/AMI-diarization-setup (the AMI references)")
    parser.add_argument("--bed", type=Path, default=None,
                        help="a music file looped under every dialogue (a film's music bed), --bed-db under the speech")
    parser.add_argument("--bed-db", type=float, default=15.0)
    parser.add_argument("--cache", type=Path, default=None,
                        help="a folder for each recording's speakers-step inputs: saved on a first run; a recording "
                             "found there is not transcribed again, only its speakers step is run (seconds)")
    args = parser.parse_args()
    model = load_whisper(args.model, "cpu", whisper_threads())  # as the studio loads it: a core for the speaker steps
    encoder = CamppSpeakerEncoder()
    report: dict[str, Any] = {"model": args.model, "recordings": []}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        recs = [] if args.only in ("dialogues", "fresh") else recordings(args.pyannote, folder, args.held_out)
        if args.voices is not None and args.only not in ("meetings", "fresh"):
            bed = None if args.bed is None else (decode(args.bed), args.bed_db)
            recs += dialogues(args.voices, args.wenet, folder, bed)
        if args.fresh is not None:
            recs += fresh_meetings(args.fresh, args.ami_setup, folder)
        runs = ([("before", Options(hear_again=False))] if args.before else []) + [("now", Options())]
        cached = {(rec.name, name): None if args.cache is None else cache_path(args.cache, args.model, rec, name)
                  for rec in recs for name, _ in runs}
        if any(path is None or not path.exists() for path in cached.values()):
            transcribe_media(recs[0].audio, model, encoder)  # warm-up: model and encoder loaded, not timed
        for rec in [] if args.only == "long" else recs:
            for name, options in runs:
                path = cached[rec.name, name]
                if path is not None and path.exists():
                    row = measure_cached(rec, path, encoder)
                else:
                    row = measure(rec, model, encoder, options, path)
                row["run"] = name
                report["recordings"].append(row)
                print(json.dumps(row), flush=True)
        report["peak_rss_mib_short"] = round(peak_rss_mib(), 1)
        if args.long_minutes > 0:
            import soundfile as sf

            audio = np.concatenate([decode(rec.audio) for rec in recs])
            repeats = int(np.ceil(args.long_minutes * 60 * SAMPLE_RATE / len(audio)))
            long_path = folder / "long.flac"
            with sf.SoundFile(str(long_path), "w", SAMPLE_RATE, 1, format="FLAC") as out:
                for _ in range(repeats):
                    out.write(audio)
            del audio
            started, cpu = time.perf_counter(), time.process_time()
            heard = transcribe_media(long_path, model, encoder, Options())
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            report["long"] = {"duration_s": round(heard.duration_s, 1), "rtf": round(seconds / heard.duration_s, 3),
                              "cpu_s_per_s": round(cpu / heard.duration_s, 3),
                              "lines": len(heard.lines), "speakers_found": heard.speaker_count,
                              "peak_rss_mib": round(peak_rss_mib(), 1)}
            print(json.dumps(report["long"]), flush=True)
    print(json.dumps({"peak_rss_mib_short": report["peak_rss_mib_short"]}))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
