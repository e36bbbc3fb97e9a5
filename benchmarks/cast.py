"""Issue 32's cast-library figures: does a speaker from "episode 2" find their library character,
and does a new speaker find nobody?

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/cast.py --resemblyzer REPO [--tortoise REPO] [--mandarin DIR] [--json out.json]

REPO is a git clone of https://github.com/resemble-ai/Resemblyzer (Apache-2.0); its
``audio_data/`` holds LibriSpeech (CC BY 4.0) read speech: ``librispeech_test-other/`` has 10
speakers with 10 utterances each (different sentences read at different times: other
recordings of the same people), ``librispeech_train-clean-100/`` 251 other speakers with one
utterance each; and ``donald_trump/real/`` twelve clips of one man from different speeches and
interviews (other rooms, microphones and years: the "episodes on other channels" case).
Nothing is copied into this repository.

For each test-other speaker, the library character's clip is their first utterances joined to
at least 8 s (at most 15 s, the length of a transcription's reference clip); each of their other
utterances of 2 s or more is an "episode 2" clip that should match that character. Each
train-clean speaker's utterance is a new voice that should match nobody in the 10-character
library. The thresholds were first picked on the tune half (test-other speakers 1-5,
train-clean speakers 1-125 by name) and reported on the held-out half (the rest).

Two sets of voices recorded in the wild check them (docs/cast.md, *Voices from films and
speeches*): the Trump clips (the first joined to 8 s is a library character beside the ten
readers; the other clips are its episode-2 clips), and with ``--tortoise`` a clone of
https://github.com/neonbjb/tortoise-tts (Apache-2.0), whose ``tortoise/voices/`` hold 2-5 clips
of each of 29 people from films, interviews and audiobooks: each voice with clips left after 8 s
of enrolment is a library character, and every clip of every voice is also tried as a new voice
against the library without that person (``pat``/``pat2`` are one man, ``applejack``/``rainbow``
one actress). Scores are :func:`app.project.cast.match_score` (CAM++ cosine, the encoder
transcription uses).

With ``--mandarin DIR`` (docs/cast.md, *Mandarin voices*), DIR holds clones of the repositories
named in :data:`MANDARIN` (each as ``DIR/<repository name>``); the table says which file is which
person. Speakers with several recordings are library characters (their first recordings joined
towards 8 s, always leaving one for episode 2); a speaker with one long recording is enrolled on
its first 8 s and tried on the rest (one session: reported apart); every recording is also a new
voice against the library without that person. The cross-language rows try the English sets'
voices against the Mandarin library and the Mandarin voices against the English library.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.project.cast import MATCH_THRESHOLD, OFFER_THRESHOLD, match_score
from engine.core.audio_io import read_audio
from engine.core.reference import TRIM_TOP_DB
from engine.core.silence import trim
from engine.voiceprint.encoder import CamppSpeakerEncoder

RATE = 16000
ENROL_MIN_S, ENROL_MAX_S, PROBE_MIN_S = 8.0, 15.0, 2.0
SAME_PERSON = {"pat2": "pat", "rainbow": "applejack"}  # tortoise-tts voices of one person

# Mandarin speakers in public repositories: (speaker, repository, path). Real people only (no
# synthesised prompts, no clip whose speaker could be another entry's); a file two repositories
# share (AISHELL-1's BAC009S0764W0121, 太乙真人's line) is listed once.
_ZHRTVC_AISHELL3 = ("SSB00050112", "SSB00090181", "SSB00110401", "SSB00120415", "SSB00160485", "SSB00180170", "SSB00330433",
                    "SSB00380324", "SSB00430378", "SSB00570140", "SSB00730374", "SSB00800191", "SSB01120364", "SSB01220373",
                    "SSB01330012", "SSB01390308", "SSB01450004", "SSB01490418", "SSB01930310", "SSB01970187", "SSB02000375",
                    "SSB02410470", "SSB02460212", "SSB02610484", "SSB02670376", "SSB02730076", "SSB02870480", "SSB02880065",
                    "SSB02990372", "SSB03070366")
MANDARIN: tuple[tuple[str, str, str], ...] = (
    # two recordings of each of two people (yeyupiaoling/VoiceprintRecognition-Pytorch, Apache-2.0)
    ("yeyu_a", "yeyupiaoling/VoiceprintRecognition-Pytorch", "dataset/a_1.wav"),
    ("yeyu_a", "yeyupiaoling/VoiceprintRecognition-Pytorch", "dataset/a_2.wav"),
    ("yeyu_b", "yeyupiaoling/VoiceprintRecognition-Pytorch", "dataset/b_1.wav"),
    ("yeyu_b", "yeyupiaoling/VoiceprintRecognition-Pytorch", "dataset/b_2.wav"),
    # twenty sentences of one woman (Databaker's Chinese Standard Mandarin corpus, non-commercial)
    *(("biaobei", "KuangDD/zhrtvc", f"data/samples/biaobei/wav/{n:06d}.wav") for n in range(1, 21)),
    # one sentence each of thirty AISHELL-3 speakers (Apache-2.0)
    *((f"aishell3_{u[:7]}", "KuangDD/zhrtvc", f"data/samples/aishell3/wav/{u}.wav") for u in _ZHRTVC_AISHELL3),
    ("aishell1_S0764", "FireRedTeam/FireRedASR", "examples/wav/BAC009S0764W0121.wav"),  # AISHELL-1, Apache-2.0
    ("aishell1_S0724", "wenet-e2e/wenet", "test/resources/aishell-BAC009S0724W0121.wav"),
    ("aidatatang_G0013", "babysor/MockingBird", "data/samples/T0055G0013S0005.wav"),  # CC BY-NC-ND 4.0
    ("firered_IT0011", "FireRedTeam/FireRedASR", "examples/wav/IT0011W0001.wav"),
    ("firered_meeting", "FireRedTeam/FireRedASR", "examples/wav/TEST_MEETING_T0000000001_S00000.wav"),
    ("firered_net", "FireRedTeam/FireRedASR", "examples/wav/TEST_NET_Y0000000000_-KTKHdZ2fb8_S00000.wav"),
    ("firered_hello", "FireRedTeam/FireRedASR2S", "assets/hello_zh.wav"),
    ("podcast_S1", "FireRedTeam/FireRedTTS2", "examples/chat_prompt/zh/S1.flac"),
    ("podcast_S2", "FireRedTeam/FireRedTTS2", "examples/chat_prompt/zh/S2.flac"),
    ("soulx_female", "Soul-AILab/SoulX-Podcast", "example/audios/female_mandarin.wav"),
    ("soulx_male", "Soul-AILab/SoulX-Podcast", "example/audios/male_mandarin.wav"),
    ("live_host_1", "OpenMOSS/MOSS-TTSD", "legacy/v0.7/examples/zh_spk1_moon.wav"),
    ("live_host_2", "OpenMOSS/MOSS-TTSD", "legacy/v0.7/examples/zh_spk2_moon.wav"),
    ("cosy_zero_shot", "FunAudioLLM/CosyVoice", "asset/zero_shot_prompt.wav"),
    ("cosy_cross_lingual", "FunAudioLLM/CosyVoice", "asset/cross_lingual_prompt.wav"),
    ("taiyi_zhenren", "open-mmlab/Amphion", "models/svc/vevosing/wav/taiyizhenren.wav"),  # a film's dub
    ("cai_xukun", "bytedance/MegaTTS3", "assets/Chinese_prompt.wav"),
    ("ma_baoguo", "boson-ai/higgs-audio", "examples/voice_prompts/mabaoguo.wav"),
    ("ding_zhen", "Plachtaa/seed-vc", "examples/reference/dingzhen_0.wav"),
    ("film_narrator", "Plachtaa/seed-vc", "examples/source/source_s3.wav"),
    ("kimi_asr", "MoonshotAI/Kimi-Audio", "test_audios/asr_example.wav"),
    ("rapid_asr", "RapidAI/RapidASR", "python/test_wavs/asr_example_zh.wav"),
    ("spark_ad", "SparkAudio/Spark-TTS", "example/prompt_audio.wav"),
    ("mimo_m", "XiaomiMiMo/MiMo-Audio", "examples/prompt_speech_zh_m.wav"),
    ("mimo_w", "XiaomiMiMo/MiMo-Audio", "examples/prompt_speech_zh_w.wav"),
    ("stepaudio_fear", "stepfun-ai/Step-Audio-EditX", "examples/fear_zh_female_prompt.wav"),
    ("transcribe_cpp", "handy-computer/transcribe.cpp", "samples/zh.wav"),
)


def load(path: Path) -> np.ndarray:
    return read_audio(path, RATE)[0]


class Embedder:
    def __init__(self) -> None:
        self.encoder = CamppSpeakerEncoder(threads=1)

    def __call__(self, audio: np.ndarray) -> np.ndarray:
        return np.asarray(self.encoder.embed_many([audio[: int(ENROL_MAX_S * RATE)]], RATE)[0], dtype=np.float32)

    def enrol(self, clips: list[np.ndarray], leave: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
        """A library character's embedding from the first clips joined to ENROL_MIN_S (leaving at
        least ``leave`` of them); the rest."""
        enrolled: list[np.ndarray] = []
        while len(clips) > leave and sum(len(c) for c in enrolled) < ENROL_MIN_S * RATE:
            enrolled.append(clips.pop(0))
        return self(np.concatenate(enrolled)), clips

    def probes(self, clips: Iterable[np.ndarray]) -> list[np.ndarray]:
        return [self(c) for c in clips if len(c) >= PROBE_MIN_S * RATE]


def same_rows(library: dict[str, np.ndarray], probes: Sequence[tuple[str, np.ndarray]], half: str) -> list[dict]:
    rows = []
    for speaker, vector in probes:
        scores = {name: match_score([library[name]], vector) for name in library}
        best = max(scores, key=lambda n: scores[n])
        rows.append({"kind": "same", "speaker": speaker, "half": half, "own": scores[speaker],
                     "best_other": max(s for n, s in scores.items() if n != speaker),
                     "right": best == speaker, "best": best, "best_score": scores[best]})
    return rows


def new_rows(library: dict[str, np.ndarray], voices: Sequence[tuple[str, np.ndarray]], half: str,
             person: Callable[[str], str] = str) -> list[dict]:
    rows = []
    for name, vector in voices:
        scores = {n: match_score([vec], vector) for n, vec in library.items() if person(n) != person(name)}
        best = max(scores, key=lambda n: scores[n])
        rows.append({"kind": "new", "speaker": name, "half": half, "best": best, "best_score": scores[best]})
    return rows


def summary(rows: list[dict]) -> dict[str, object]:
    same = [r for r in rows if r["kind"] == "same"]
    new = [r for r in rows if r["kind"] == "new"]
    report: dict[str, object] = {}
    if same:
        own = np.array([r["own"] for r in same])
        report |= {
            "same_trials": len(same),
            "same_matched": sum(r["right"] and r["best_score"] >= MATCH_THRESHOLD for r in same) / len(same),
            "same_offered_or_matched": sum(r["right"] and r["best_score"] >= OFFER_THRESHOLD for r in same) / len(same),
            "same_matched_to_wrong_character": sum(not r["right"] and r["best_score"] >= MATCH_THRESHOLD for r in same) / len(same),
            "same_cosine_min_median": [float(own.min()), float(np.median(own))],
            "same_outcomes": {
                "cast right": sum(r["right"] and r["best_score"] >= MATCH_THRESHOLD for r in same),
                "offered": sum(OFFER_THRESHOLD <= r["best_score"] < MATCH_THRESHOLD for r in same),
                "cast wrong": sum(not r["right"] and r["best_score"] >= MATCH_THRESHOLD for r in same),
                "missed": sum(r["best_score"] < OFFER_THRESHOLD for r in same)},
            "same_cosine_quantiles_0_5_50_95": [round(float(np.quantile(own, q)), 3) for q in (0, .05, .5, .95)],
            "same_lowest": [(r["speaker"], round(r["own"], 3)) for r in sorted(same, key=lambda r: r["own"])[:3]],
        }
    if new:
        best = np.array([r["best_score"] for r in new])
        report |= {
            "new_trials": len(new), "new_unmatched": float(np.mean(best < MATCH_THRESHOLD)),
            "new_not_even_offered": float(np.mean(best < OFFER_THRESHOLD)),
            "new_best_cosine_median_max": [float(np.median(best)), float(best.max())],
            "new_outcomes": {"cast": int(np.sum(best >= MATCH_THRESHOLD)),
                             "offered": int(np.sum((best >= OFFER_THRESHOLD) & (best < MATCH_THRESHOLD))),
                             "nobody": int(np.sum(best < OFFER_THRESHOLD))},
            "new_best_cosine_quantiles_50_95_max": [round(float(np.quantile(best, q)), 3) for q in (.5, .95, 1)],
            "new_highest": [(r["speaker"], r.get("best"), round(r["best_score"], 3))
                            for r in sorted(new, key=lambda r: -r["best_score"])[:3]],
        }
    return report


@dataclass
class VoiceSet:
    """One set's rows, its library (name -> embedding) and its voices (name, embedding) to try as
    new voices against another set's library."""

    rows: list[dict]
    library: dict[str, np.ndarray]
    voices: list[tuple[str, np.ndarray]]


def librispeech_rows(embed: Embedder, data: Path) -> VoiceSet:
    speakers = sorted((p for p in (data / "librispeech_test-other").iterdir() if p.is_dir()), key=lambda p: p.name)
    library: dict[str, np.ndarray] = {}
    probes: list[tuple[str, np.ndarray]] = []
    for folder in speakers:
        library[folder.name], rest = embed.enrol([load(p) for p in sorted(folder.glob("*.flac"))])
        probes += [(folder.name, vector) for vector in embed.probes(rest)]
    tune = set(list(library)[:5])
    new_voices = [(p.name, embed(load(p))) for p in sorted((data / "librispeech_train-clean-100").glob("*.flac"))]
    half = len(new_voices) // 2
    rows = [*same_rows(library, [p for p in probes if p[0] in tune], "tune"),
            *same_rows(library, [p for p in probes if p[0] not in tune], "held-out"),
            *new_rows(library, new_voices[:half], "tune"), *new_rows(library, new_voices[half:], "held-out")]
    trump, rest = embed.enrol([load(p) for p in sorted((data / "donald_trump" / "real").glob("*.mp3"))])
    rows += same_rows(library | {"donald_trump": trump}, [("donald_trump", v) for v in embed.probes(rest)], "speeches")
    return VoiceSet(rows, library | {"donald_trump": trump}, new_voices)


def tortoise_rows(embed: Embedder, repo: Path) -> VoiceSet:
    library: dict[str, np.ndarray] = {}
    probes: list[tuple[str, np.ndarray]] = []
    every_clip: list[tuple[str, np.ndarray]] = []
    for folder in sorted(p for p in (repo / "tortoise" / "voices").iterdir() if p.is_dir()):
        clips = [load(p) for p in sorted(folder.glob("*.wav"))]
        if not clips:  # cond_latent_example holds a latent, no recording
            continue
        every_clip += [(folder.name, v) for v in embed.probes(clips)]
        enrolled, rest = embed.enrol(clips)
        if rest:  # a voice with nothing left to try as episode 2 only serves as a new voice
            library[folder.name] = enrolled
            probes += [(folder.name, v) for v in embed.probes(rest)]
    rows = same_rows(library, probes, "films")
    for row in rows:  # another voice of the same person is the right character too
        row["right"] = SAME_PERSON.get(row["best"], row["best"]) == SAME_PERSON.get(row["speaker"], row["speaker"])
    return VoiceSet(rows + new_rows(library, every_clip, "films", person=lambda n: SAME_PERSON.get(n, n)),
                    library, every_clip)


def mandarin_rows(embed: Embedder, clones: Path) -> VoiceSet:
    """:data:`MANDARIN` read from ``clones/<repository name>/<path>``: speakers with several
    recordings ("zh, several recordings"), speakers with one long recording enrolled on its first
    8 s and tried on the rest ("zh, one recording": one session, the easier case), and every
    recording as a new voice ("zh, new voices")."""
    recordings: dict[str, list[np.ndarray]] = {}
    for speaker, repository, path in MANDARIN:  # trimmed as a reference clip is: a long silent tail is no speech
        recordings.setdefault(speaker, []).append(trim(load(clones / repository.split("/")[1] / path), TRIM_TOP_DB))
    library: dict[str, np.ndarray] = {}
    several: list[tuple[str, np.ndarray]] = []
    one_session: list[tuple[str, np.ndarray]] = []
    for speaker, clips in recordings.items():
        if len(clips) > 1:
            library[speaker], rest = embed.enrol(list(clips), leave=1)
            several += [(speaker, v) for v in embed.probes(rest)]
        elif len(clips[0]) >= (ENROL_MIN_S + PROBE_MIN_S) * RATE:
            cut = int(ENROL_MIN_S * RATE)
            library[speaker] = embed(clips[0][:cut])
            one_session += [(speaker, v) for v in embed.probes([trim(clips[0][cut:], TRIM_TOP_DB)])]
    voices = [(speaker, v) for speaker, clips in recordings.items() for v in embed.probes(clips)]
    rows = [*same_rows(library, several, "zh, several recordings"), *same_rows(library, one_session, "zh, one recording"),
            *new_rows(library, voices, "zh, new voices")]
    return VoiceSet(rows, library, voices)


def cross_language_rows(english: list[VoiceSet], mandarin: VoiceSet) -> list[dict]:
    """English voices against the Mandarin library, and Mandarin voices against the English one
    (no one is in both: every best score is a stranger's)."""
    english_library = {name: v for s in english for name, v in s.library.items()}
    return [*new_rows(mandarin.library, [v for s in english for v in s.voices], "en voices, zh library"),
            *new_rows(english_library, mandarin.voices, "zh voices, en library")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--resemblyzer", type=Path, required=True)
    parser.add_argument("--tortoise", type=Path, help="a tortoise-tts clone: voices from films and interviews")
    parser.add_argument("--mandarin", type=Path,
                        help="a folder of clones of the repositories in MANDARIN (DIR/<repository name>)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    embed = Embedder()
    english = [librispeech_rows(embed, args.resemblyzer / "audio_data")]
    if args.tortoise:
        english.append(tortoise_rows(embed, args.tortoise))
    rows = [row for voice_set in english for row in voice_set.rows]
    if args.mandarin:
        mandarin = mandarin_rows(embed, args.mandarin)
        rows += mandarin.rows + cross_language_rows(english, mandarin)
    report: dict[str, object] = {"match_threshold": MATCH_THRESHOLD, "offer_threshold": OFFER_THRESHOLD}
    for half in dict.fromkeys(r["half"] for r in rows):
        report[half] = summary([r for r in rows if r["half"] == half])
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"report": report, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
