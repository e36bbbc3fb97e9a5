"""Dialogue suppression and M&E quality of the channel-based M&E (app.project.music_effects).

Built mixes with known stems, from the repository's real recordings (resources/voices):
the dialogue is maya.wav panned dead centre; the "music and effects" is a stereo bed made of
real recordings that differ between the channels (rex.wav left, narrator.wav right, and the
pair again 23 ms late and 10 dB down on the opposite side, as a room would return them), at
-6 dB under the dialogue. No music recording with a permissive licence is in the repository,
so the bed is voices: speech-like, wide, uncorrelated. A second bed adds a centre-panned
element (narrator.wav in both channels, as a centred lead instrument or a mono effect would
be) to show what the filter cannot tell from dialogue.

Figures (both channels together):
  dialogue suppression = 10 log10(|D|^2 / |M&E_out - M&E|^2): how far below its input level
                          the dialogue plus everything the filter got wrong lands;
  music SDR            = 10 log10(|M&E|^2 / |M&E_out - M&E|^2).

Run: OMP_NUM_THREADS=1 .venv/bin/python benchmarks/music_effects.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from app.project.music_effects import drop_centre, remove_centre
from engine.core.audio_io import read_audio

VOICES = Path(__file__).resolve().parent.parent / "resources" / "voices"
RATE = 48_000


def _voice(name: str, seconds: float) -> np.ndarray:
    audio, _ = read_audio(VOICES / f"{name}.wav", RATE)
    audio = np.tile(audio, int(np.ceil(seconds * RATE / len(audio))))[: int(seconds * RATE)]
    return audio / np.sqrt(np.mean(audio**2))  # unit RMS


def built_mix(seconds: float = 8.0, centred_element: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(dialogue as (n, 2) centred, M&E as (n, 2)) at RATE."""
    voice = 0.1 * _voice("maya", seconds)
    left, right = _voice("rex", seconds), _voice("narrator", seconds)
    delay = int(0.023 * RATE)
    echo = 10 ** (-10 / 20)
    bed = np.stack([left + echo * np.roll(right, delay), right + echo * np.roll(left, delay)], axis=1)
    if centred_element:
        bed = bed + 0.5 * _voice("narrator", seconds)[::-1, None]  # reversed: not the right channel's words
    bed *= 0.1 * 10 ** (-6 / 20) / np.sqrt(np.mean(bed**2))
    return np.stack([voice, voice], axis=1).astype(np.float32), bed.astype(np.float32)


def figures(dialogue: np.ndarray, bed: np.ndarray, out: np.ndarray) -> tuple[float, float]:
    error = float(np.sum((out - bed) ** 2))
    return 10 * np.log10(float(np.sum(dialogue**2)) / error), 10 * np.log10(float(np.sum(bed**2)) / error)


def main() -> None:
    for centred in (False, True):
        dialogue, bed = built_mix(centred_element=centred)
        out = remove_centre(dialogue + bed, RATE)
        suppression, sdr = figures(dialogue, bed, out)
        untouched_sdr = figures(dialogue, bed, dialogue + bed)[1]
        what = "bed with a centred element" if centred else "wide bed"
        print(f"stereo filter, {what}: dialogue suppression {suppression:.1f} dB, music SDR {sdr:.1f} dB "
              f"(the mix as it is: {untouched_sdr:.1f} dB)")
        voice_only = remove_centre(dialogue, RATE)
        print(f"  the centred voice alone: lowered by {10 * np.log10(np.sum(dialogue**2) / np.sum(voice_only**2)):.1f} dB")
    dialogue, bed = built_mix()
    surround = np.zeros((len(bed), 6), dtype=np.float32)  # FL FR FC LFE BL BR
    surround[:, 0], surround[:, 1], surround[:, 2] = bed[:, 0], bed[:, 1], dialogue[:, 0]
    surround[:, 4], surround[:, 5] = np.roll(bed[:, 0], 4800), np.roll(bed[:, 1], 4800)
    reference = drop_centre(np.where(np.arange(6) == 2, 0, surround), ("FL", "FR", "FC", "LFE", "BL", "BR"))
    out = drop_centre(surround, ("FL", "FR", "FC", "LFE", "BL", "BR"))
    error = float(np.sum((out - reference) ** 2))
    print(f"5.1 drop-centre: residual {error:.3g} (exact: dialogue only in FC)")


if __name__ == "__main__":
    main()
