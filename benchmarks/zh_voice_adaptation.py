"""Which part of a clip's adaptation costs zh-baker its intelligibility, and what each part buys.

zh-baker's own voice is a woman's (median F0 about 220 Hz). Adapted to a clip, its pieces get the
clip's pitch level and range, a formant ratio and a match EQ (engine/synthesis/backends/
adaptation.py). This speaks the same lines with the clip's adaptation taken apart, one variant per
row: the adaptation as the engine estimates it, then with one part left out or bounded
differently (formant ratios below 1, which the stored conditioning refuses today, were measured
with that bound lowered by hand: docs/chinese.md). For each variant: Whisper base's CER on the lines (as benchmarks/zh_voice.py hears
them, ``--hearing qa`` by default, raw and with homophones folded) and the resemblance to the clip (GE2E cosine, the engine's
resemblance figure, of the lines spoken together). ``--paces`` also speaks the estimate at given
Han syllables a second, as a Chinese clip at that pace would ask of the voice.

Run: OMP_NUM_THREADS=2 .venv/bin/python benchmarks/zh_voice_adaptation.py [--clip male] [--limit N]
     [--sets FILE ...] [--only VARIANT ...] [--paces 6 7 ...] [--drops 0.75 1 ...] [--hearing qa|beam]
     [--json OUT]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.zh_voice import (
    CLIPS,
    HEARINGS,
    SETS,
    folded_error_rate,
    hearing,
    read_lines,
)
from engine.core.protocol import VoiceSettings
from engine.core.reference import load_reference_clip, transcript_beside
from engine.hearing.qa.wer import error_rate
from engine.synthesis import mandarin_text
from engine.synthesis.backends.adaptation import (
    FORMANT_FROM_F0_EXPONENT,
    FORMANT_RATIO_BOUNDS,
    Adaptation,
)
from engine.synthesis.backends.base import VoiceProfile
from engine.synthesis.backends.mandarin import SAMPLE_RATE, MandarinBackend
from engine.voiceprint.encoder import SpeakerEncoder


def variants(estimated: Adaptation, model_f0: float) -> dict[str, Adaptation]:
    """The estimated adaptation and its parts, each a variant to speak."""
    flat = np.zeros_like(estimated.eq_db)
    octave_below = max(estimated.target_f0_hz, model_f0 / 2.0)
    replace = dataclasses.replace
    return {
        "estimated": estimated,
        "plain": Adaptation.neutral(),
        "no EQ": replace(estimated, eq_db=flat),
        "pitch level only": replace(estimated, range_factor=1.0, formant_ratio=1.0, eq_db=flat),
        "no pitch move": replace(estimated, target_f0_hz=model_f0, range_factor=1.0),
        "pitch at most an octave down": replace(estimated, target_f0_hz=octave_below),
        "formants 1": replace(estimated, formant_ratio=1.0),
        "EQ only, no PSOLA": replace(estimated, target_f0_hz=model_f0, range_factor=1.0, formant_ratio=1.0),
        "no pitch range": replace(estimated, range_factor=1.0),
        "range not widened": replace(estimated, range_factor=min(estimated.range_factor, 1.0)),
        "octave down, range not widened": replace(estimated, target_f0_hz=octave_below,
                                                  range_factor=min(estimated.range_factor, 1.0)),
        "formants as the pitch predicts": replace(estimated, formant_ratio=float(np.clip(
            (estimated.target_f0_hz / model_f0) ** FORMANT_FROM_F0_EXPONENT, *FORMANT_RATIO_BOUNDS))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", default="male", choices=sorted(CLIPS))
    parser.add_argument("--limit", type=int, default=20, help="the first N lines of each set")
    parser.add_argument("--sets", nargs="*", type=Path, default=list(SETS[:2]),
                        help="the sets to speak (default: the first two; the later ones are held out)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="only these variants (none: only the --paces ones)")
    parser.add_argument("--paces", nargs="*", type=float, default=[],
                        help="also speak the estimate at these Han syllables a second, as a Chinese clip at "
                             "that pace would ask (before any cap)")
    parser.add_argument("--drops", nargs="*", type=float, default=[],
                        help="also speak the estimate with its pitch at most these octaves below the model's")
    parser.add_argument("--hearing", default=HEARINGS[0], choices=HEARINGS,
                        help="how Whisper hears the lines (benchmarks/zh_voice.py)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    heard_by = hearing(args.hearing, args.threads)
    backend = MandarinBackend()
    backend.load()
    backend.warm_up()
    clip_path = CLIPS[args.clip]
    clip = load_reference_clip(clip_path)
    arrays, meta = backend.condition(clip, transcript_beside(clip_path))
    estimated = Adaptation.from_arrays(arrays)
    model_f0 = backend.calibration().analysis.f0_median_hz
    encoder = SpeakerEncoder()
    reference = encoder.embed(clip)
    lines = [line for path in args.sets for line in read_lines(path)[: args.limit or None]]
    print(json.dumps({"clip": clip_path.name, "model_f0_hz": round(model_f0, 1), **{key: meta[key] for key in (
        "median_f0_hz", "target_f0_hz", "pitch_range_factor", "formant_ratio", "formant_ratio_from", "eq_db",
        "length_scale")}},
        ensure_ascii=False), flush=True)
    model_pace = backend.calibration().phonemes_per_s
    runs = [(name, adaptation, float(arrays["length_scale"])) for name, adaptation in variants(estimated, model_f0).items()
            if args.only is None or name in args.only]
    runs += [(f"pace {pace:g}/s", estimated, model_pace / pace) for pace in args.paces]
    runs += [(f"pitch at most {drop:g} octaves down",
              dataclasses.replace(estimated, target_f0_hz=max(estimated.target_f0_hz, model_f0 * 2.0 ** -drop)),
              float(arrays["length_scale"])) for drop in args.drops]
    results = {}
    for name, adaptation, length_scale in runs:
        profile = VoiceProfile(name, None, {**adaptation.to_arrays(), "length_scale": np.float32(length_scale)})
        raw, folded, spoken, heard_lines = [], [], [], []
        for line in lines:
            audio = np.concatenate([piece.pcm for piece in backend.synthesize(
                line, profile, VoiceSettings(), lambda: False, seed=0)])
            spoken.append(audio)
            heard = heard_by(audio)
            said = mandarin_text.write_times(line)
            raw.append(error_rate(said, heard, "zh", by_reading=False))
            heard_lines.append({"text": line, "heard": heard, "cer": round(raw[-1], 3)})
            folded.append(folded_error_rate(said, heard))
        resemblance = encoder.resemblance(np.concatenate(spoken), SAMPLE_RATE, reference)
        results[name] = {"cer": round(statistics.mean(raw), 3), "cer_homophones_folded": round(statistics.mean(folded), 3),
                         "resemblance": round(resemblance, 3), "rows": heard_lines}
        print(json.dumps({"variant": name, **{key: value for key, value in results[name].items() if key != "rows"}},
                         ensure_ascii=False), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"clip": clip_path.name, "lines": len(lines), "variants": results},
                                        ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
