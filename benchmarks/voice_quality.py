"""How well the embedded voice becomes each character: intelligibility, resemblance, cost.

For each reference clip (the bundled voices, and voices synthesised here with espeak-ng across
80-300 Hz median F0: men, women, a child-like voice) the Piper voice speaks texts that are
neither its calibration text nor the clips' texts, three ways:

- plain: the model's own voice, unadapted;
- before: the old method, "tape speed" (the model stretched by the pitch ratio, then resampled
  back; the ratio of the clip's and the model's median F0, within ±12 semitones), kept here to
  measure against. The old engine took the medians from librosa's YIN; without librosa they
  are Praat's, as the current adaptation measures them (engine.synthesis.backends.adaptation);
- after: the current adaptation (engine/synthesis/backends/adaptation.py), applied to the very same
  model output as "plain", so the model's randomness cancels out of the comparison.

Reported per clip: the word error rate of the offline recogniser (Whisper base, engine.hearing.qa)
against the texts; resemblance (GE2E cosine between the clip and the output, the engine's own
speaker encoder) and its gain over plain; the resemblance figures a prepared voice shows in the
studio and `say --json` ("shown", "plain": one render of the fixed resemblance sentence); the
adaptation's cost as a share of the model's time, in wall time ("cost wall", sensitive to the
machine's load) and in CPU time ("cost CPU": the adaptation's own thread CPU against the whole
process's CPU while the model runs, onnxruntime's threads included); and how much the
adaptation adds to the first piece (first audio).

Targets: every clip's WER after <= plain + 0.10; mean resemblance gain >= +0.10; adaptation
cost <= 10 % of model time; first audio grows by <= 10 %.

Run: .venv/bin/python benchmarks/voice_quality.py [--no-before] [--rounds 1] [--json OUT.json]
espeak-ng (a Debian package, independent of the Piper voice) makes the synthetic clips; the
script installs it with apt-get when it is missing and it runs as root.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.protocol import VoiceSettings, VoiceSpec
from engine.core.reference import ReferenceClip, load_reference_clip
from engine.hearing.qa.recognise import recognise
from engine.hearing.qa.wer import word_error_rate
from engine.synthesis.backends.adaptation import Adaptation, adapt_piece, analyse_speech
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.piper import CALIBRATION_TEXT, PiperBackend
from engine.synthesis.voices import VoiceCache
from engine.voiceprint.encoder import SpeakerEncoder

# What the characters say in the benchmark: none of it is in the calibration or clip texts.
TEXTS = [
    "Every morning the baker opens his shop before the sun comes up.",
    "Please close the window, the rain is coming in and the papers on my desk are getting wet.",
    "My brother bought a green bicycle last summer, but he has only ridden it twice.",
    "If you follow the river north for three miles, you will find an old stone bridge.",
    "The children laughed when the dog jumped into the pond to chase a duck.",
    "We should call the doctor tomorrow and ask whether the results have arrived.",
    "She painted the kitchen yellow because it made the small room feel warmer.",
    "Turn left at the church, then keep walking until you reach the market square.",
]
# What the synthetic clips say (about seven seconds each).
CLIP_TEXT = ("The old clock in the hallway stopped at midnight, and for a long while nobody in the house "
             "noticed that time had simply stood still.")
# espeak-ng voices: (label, voice, pitch 0-99, words per minute); median F0 from 80 to about 300 Hz.
ESPEAK_VOICES = [
    ("man, deep", "en-us+m3", 20, 165),
    ("man, British", "en-gb+m7", 30, 165),
    ("man", "en-us", 50, 170),
    ("woman", "en-us+f2", 60, 170),
    ("woman, lively", "en-us+Annie", 50, 170),
    ("woman, high", "en-us+anika", 50, 170),
    ("child-like", "en-us+f4", 99, 185),
]
BUNDLED = ["maya", "rex", "narrator"]
OLD_MAX_SHIFT_SEMITONES = 12.0
RATE = 22050


@dataclass
class Reference:
    label: str
    clip_path: Path
    transcript: str


@dataclass
class Row:
    label: str
    clip_f0_hz: float | None
    formant_ratio: float
    wer_plain: float
    wer_after: float
    resemblance_plain: float
    resemblance_after: float
    adapt_share: float  # adaptation time / model time (wall clock)
    adapt_cpu_share: float  # adaptation CPU (its thread) / model CPU (the whole process while it runs)
    first_piece_growth: float  # adaptation time of the first piece / its model time
    wer_before: float | None = None
    resemblance_before: float | None = None
    before_cost_share: float | None = None  # extra model time the stretch costs
    prep_resemblance: float | None = None
    prep_resemblance_plain: float | None = None
    meta: dict = field(default_factory=dict)


def ensure_espeak() -> str:
    found = shutil.which("espeak-ng")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("voice_quality: installing espeak-ng (Debian) for the synthetic reference clips", flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq", "espeak-ng"], check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        found = shutil.which("espeak-ng")
    if not found:
        sys.exit("voice_quality: espeak-ng is needed for the synthetic clips: apt-get install espeak-ng")
    return found


def references(folder: Path) -> list[Reference]:
    espeak = ensure_espeak()
    found = [Reference(f"bundled {name}", ROOT / "resources" / "voices" / f"{name}.wav",
                       (ROOT / "resources" / "voices" / f"{name}.txt").read_text().strip()) for name in BUNDLED]
    for label, voice, pitch, speed in ESPEAK_VOICES:
        path = folder / f"{voice.replace('+', '_')}_{pitch}.wav"
        subprocess.run([espeak, "-v", voice, "-p", str(pitch), "-s", str(speed), "-w", str(path), CLIP_TEXT],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found.append(Reference(f"espeak {label}", path, CLIP_TEXT))
    return found


def timed_pieces(backend: PiperBackend, profile: VoiceProfile,
                 text: str) -> tuple[list[np.ndarray], list[float], float]:
    """The model's pieces for ``text`` with the wall seconds each took (neutral profile: no
    adaptation), and the process CPU seconds they took in all (onnxruntime's threads included)."""
    pieces, seconds = [], []
    cpu_started = time.process_time()
    started = time.perf_counter()
    for piece in backend.synthesize(text, profile, VoiceSettings(), lambda: False):
        seconds.append(time.perf_counter() - started)
        pieces.append(piece.pcm)
        started = time.perf_counter()
    return pieces, seconds, time.process_time() - cpu_started


def wer_of(texts: list[str], audios: list[np.ndarray]) -> float:
    """Word error rate over all texts together (errors / words)."""
    errors = words = 0.0
    for text, audio in zip(texts, audios):
        heard = recognise(audio, RATE)
        assert heard is not None, "no English recogniser"
        count = len(text.split())
        errors += word_error_rate(text, heard.text) * count
        words += count
    return errors / words


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def embed(encoder: SpeakerEncoder, audio: np.ndarray) -> np.ndarray:
    return encoder.embed(ReferenceClip(audio=audio, sample_rate=RATE, source_duration_s=len(audio) / RATE))


class TapeSpeed:
    """The old adaptation: F0 medians, model stretched by the ratio, then resampled back."""

    def __init__(self, backend: PiperBackend) -> None:
        self.backend = backend
        audio = np.concatenate([p.pcm for p in backend.synthesize(
            " ".join(CALIBRATION_TEXT.split(". ")[:2]), VoiceProfile("plain", np.zeros(1), backend.plain_conditioning()),
            VoiceSettings(), lambda: False)])
        self.model_f0 = analyse_speech(audio, RATE).f0_median_hz

    def ratio(self, clip: ReferenceClip) -> float:
        f0 = analyse_speech(clip.audio, clip.sample_rate).f0_median_hz
        if not np.isfinite(f0):
            return 1.0
        semitones = float(np.clip(12 * np.log2(f0 / self.model_f0), -OLD_MAX_SHIFT_SEMITONES, OLD_MAX_SHIFT_SEMITONES))
        return 2.0 ** (semitones / 12.0)

    def speak(self, text: str, ratio: float, length_scale: float) -> tuple[np.ndarray, float]:
        import soxr

        stretched = {**self.backend.plain_conditioning(), "length_scale": np.asarray(np.float32(length_scale * ratio))}
        started = time.perf_counter()
        audio = np.concatenate([p.pcm for p in self.backend.synthesize(
            text, VoiceProfile("tape", np.zeros(1), stretched), VoiceSettings(), lambda: False)])
        model_s = time.perf_counter() - started
        return soxr.resample(audio, RATE * ratio, RATE).astype(np.float32), model_s


def measure(backend: PiperBackend, encoder: SpeakerEncoder, reference: Reference, tape: TapeSpeed | None,
            rounds: int) -> Row:
    clip = load_reference_clip(reference.clip_path)
    conditioning, meta = backend.condition(clip, reference.transcript)
    adaptation = Adaptation.from_arrays(conditioning)
    length_scale = float(conditioning["length_scale"])
    plain_profile = VoiceProfile("plain", np.zeros(1), {**backend.plain_conditioning(),
                                                         "length_scale": np.asarray(np.float32(length_scale))})
    texts = TEXTS * rounds
    plain_audio, after_audio = [], []
    model_s = adapt_s = model_cpu_s = adapt_cpu_s = 0.0
    first_growth = []
    for text in texts:
        pieces, seconds, cpu_s = timed_pieces(backend, plain_profile, text)
        model_cpu_s += cpu_s
        adapted = []
        for index, (pcm, model_piece_s) in enumerate(zip(pieces, seconds)):
            cpu_started = time.thread_time()  # the adaptation runs on this thread alone
            started = time.perf_counter()
            adapted.append(adapt_piece(pcm, RATE, adaptation))
            spent = time.perf_counter() - started
            adapt_cpu_s += time.thread_time() - cpu_started
            adapt_s += spent
            model_s += model_piece_s
            if index == 0:
                first_growth.append(spent / model_piece_s)
        plain_audio.append(np.concatenate(pieces))
        after_audio.append(np.concatenate(adapted))
    clip_embedding = encoder.embed(clip)
    row = Row(
        label=reference.label,
        clip_f0_hz=meta["median_f0_hz"],
        formant_ratio=meta["formant_ratio"],
        wer_plain=wer_of(texts, plain_audio),
        wer_after=wer_of(texts, after_audio),
        resemblance_plain=cosine(clip_embedding, embed(encoder, np.concatenate(plain_audio))),
        resemblance_after=cosine(clip_embedding, embed(encoder, np.concatenate(after_audio))),
        adapt_share=adapt_s / model_s,
        adapt_cpu_share=adapt_cpu_s / model_cpu_s,
        first_piece_growth=statistics.median(first_growth),
        meta=meta,
    )
    if tape is not None:
        ratio = tape.ratio(clip)
        before_audio, before_model_s = [], 0.0
        for text in texts:
            audio, tape_s = tape.speak(text, ratio, length_scale)
            before_audio.append(audio)
            before_model_s += tape_s
        row.wer_before = wer_of(texts, before_audio)
        row.resemblance_before = cosine(clip_embedding, embed(encoder, np.concatenate(before_audio)))
        row.before_cost_share = before_model_s / model_s - 1.0
    return row


def print_table(rows: list[Row], before: bool) -> None:
    head = f"{'clip':24} {'F0 Hz':>6} {'formant':>7} {'WER plain':>9} "
    head += f"{'before':>7} " if before else ""
    head += f"{'after':>6} {'resemb. plain':>13} "
    head += f"{'before':>7} " if before else ""
    head += f"{'after':>6} {'gain':>6} {'shown':>6} {'plain':>6} {'cost wall':>9} {'cost CPU':>8} {'1st piece':>9}"
    head += f" {'old cost':>8}" if before else ""
    print(head)
    for r in rows:
        f0 = f"{r.clip_f0_hz:.0f}" if r.clip_f0_hz else "-"
        line = f"{r.label:24} {f0:>6} {r.formant_ratio:>7.2f} {r.wer_plain:>9.2f} "
        line += f"{r.wer_before:>7.2f} " if before else ""
        line += f"{r.wer_after:>6.2f} {r.resemblance_plain:>13.3f} "
        line += f"{r.resemblance_before:>7.3f} " if before else ""
        line += (f"{r.resemblance_after:>6.3f} {r.resemblance_after - r.resemblance_plain:>+6.3f} "
                 f"{_figure(r.prep_resemblance):>6} {_figure(r.prep_resemblance_plain):>6} "
                 f"{r.adapt_share:>9.1%} {r.adapt_cpu_share:>8.1%} {r.first_piece_growth:>+9.1%}")
        line += f" {r.before_cost_share:>+8.0%}" if before else ""
        print(line)


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def verdict(rows: list[Row]) -> dict:
    worst = max(r.wer_after - r.wer_plain for r in rows)
    gain = statistics.mean(r.resemblance_after - r.resemblance_plain for r in rows)
    cost = max(r.adapt_share for r in rows)
    cost_cpu = max(r.adapt_cpu_share for r in rows)
    first = max(r.first_piece_growth for r in rows)
    return {
        "worst_wer_over_plain": round(worst, 3), "wer_target_met": worst <= 0.10,
        "mean_resemblance_gain": round(gain, 3), "resemblance_target_met": gain >= 0.10,
        "worst_adaptation_cost_share": round(cost, 4), "cost_target_met": cost <= 0.10,
        "worst_adaptation_cpu_share": round(cost_cpu, 4), "cpu_cost_target_met": cost_cpu <= 0.10,
        "worst_first_piece_growth": round(first, 4), "first_audio_target_met": first <= 0.10,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-before", action="store_true", help="skip the old tape-speed method")
    parser.add_argument("--rounds", type=int, default=1, help="speak the texts this many times per clip")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    backend = PiperBackend()
    backend.load()
    backend.warm_up()  # its imports, as the engine does at start, are not the adaptation's cost
    backend.calibration()
    encoder = SpeakerEncoder()
    tape = None if args.no_before else TapeSpeed(backend)
    with tempfile.TemporaryDirectory() as folder:
        cache = VoiceCache(Path(folder) / "cache", backend, "piper", encoder)
        rows = []
        for reference in references(Path(folder)):
            row = measure(backend, encoder, reference, tape, args.rounds)
            # what the studio and `say` show for this voice (one render of a fixed sentence)
            shown = cache.prepare(VoiceSpec(str(reference.clip_path), reference.transcript)).profile.meta
            row.prep_resemblance, row.prep_resemblance_plain = shown["resemblance"], shown["resemblance_plain"]
            rows.append(row)
            print(f"measured {reference.label}", file=sys.stderr, flush=True)
    print(f"\n{len(TEXTS) * args.rounds} sentences per clip; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    print_table(rows, not args.no_before)
    summary = verdict(rows)
    print("\n" + "\n".join(f"{key}: {value}" for key, value in summary.items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": [r.__dict__ for r in rows], "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
