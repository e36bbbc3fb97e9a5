"""An English word inside a Mandarin line, said by its English sound in Mandarin syllables.

The zh-baker voice knows only Mandarin syllables. A Latin word inside a Chinese line
(engine/synthesis/mandarin_text.py ``latin_reading``) is said the way a Chinese speaker carries an
English word over: espeak-ng's US English phonemes for it (the espeak-ng inside Piper's package,
which the Piper voice already uses), cut into syllables, each brought to the nearest toned pinyin
syllable the voice has (Zoom zˈuːm: zu1 mu5; Google ɡˈuːɡəl: gu1 ge1 er5). A consonant with no
vowel of its own is said with the weak vowel Mandarin speakers add (the m of Zoom: mu5).

The tables below are the whole rule: one row per English phoneme, no word is listed. Every
syllable is said in the first tone, a lone consonant's in the neutral one: on 20 lines with English
words (benchmarks/data/zh_english_words.txt 1-20, take QA's hearing) raw CER 0.206 so, 0.230 with
unstressed syllables in the fourth tone, 0.256 with stressed ones in the fourth (docs/chinese.md).

Take QA hears such a word by the same rule (:func:`heard_as`, engine/hearing/qa/wer.py): a
recogniser writes a word said so in characters of its sound (meeting 弥丁), which compared letter by
letter was a wrong word.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Collection
from typing import Any

ESPEAK_VOICE = "en-us"
# English consonants (espeak-ng's IPA) before a vowel, as pinyin initials ("" for none).
ONSETS = {
    "p": "p", "b": "b", "t": "t", "d": "d", "k": "k", "ɡ": "g", "f": "f", "v": "w", "θ": "s", "ð": "z",
    "s": "s", "z": "z", "ʃ": "sh", "ʒ": "r", "h": "h", "m": "m", "n": "n", "l": "l", "ɹ": "r", "w": "w",
    "j": "y", "tʃ": "ch", "dʒ": "j", "ɾ": "d", "ŋ": "n", "x": "h", "ʔ": "",
}
# A consonant with no vowel after it, as the syllable a Mandarin speaker says for it.
LONE_CONSONANTS = {
    "p": "pu5", "b": "bu5", "t": "te5", "d": "de5", "k": "ke5", "ɡ": "ge5", "f": "fu5", "v": "fu5",
    "θ": "si5", "ð": "ze5", "s": "si5", "z": "zi5", "ʃ": "shi5", "ʒ": "ri5", "h": "he5", "m": "mu5",
    "n": "en5", "l": "er5", "ɹ": "er5", "w": "wu5", "j": "yi5", "tʃ": "qi5", "dʒ": "zhi5", "ɾ": "de5",
    "ŋ": "en5", "x": "he5",
}
# English vowels as the pinyin finals nearest them, the first that the initial before it makes a
# syllable of (ɛ of Excel: ai, then ei, then a).
VOWELS = {
    "iː": ("i", "ei"), "i": ("i", "ei"), "ɪ": ("i", "ei"), "ᵻ": ("i", "ei"), "eɪ": ("ei", "ai", "ie", "e"),
    "ɛ": ("ai", "ei", "e", "a"), "æ": ("ai", "a"), "ɑː": ("a",), "ɑ": ("a",), "ʌ": ("a",), "ɐ": ("a",),
    "a": ("a",), "ə": ("e", "a"), "ɚ": ("er", "o", "e", "a"), "ɜː": ("e", "o", "a"), "ɜ": ("e", "o", "a"),
    "ɔː": ("ao", "o", "uo"), "ɔ": ("ao", "o", "uo"), "oʊ": ("ou", "uo", "o"), "o": ("o", "uo", "ou"),
    "uː": ("u", "ou"), "u": ("u", "ou"), "ʊ": ("u", "ou"), "aɪ": ("ai", "a"), "aʊ": ("ao",),
    "ɔɪ": ("ao", "o"), "ɪɹ": ("i", "ei"), "ɛɹ": ("ai", "ei"), "ʊɹ": ("u",), "ɔːɹ": ("ao", "o"),
    "ɑːɹ": ("a",), "oːɹ": ("ao", "o"),
}
# Where English has g, k, h or s before i, Mandarin has j, q, x (gi: ji, ki: qi).
_PALATAL = {"g": "j", "k": "q", "h": "x", "s": "x", "sh": "x", "ch": "q"}
# A vowel with no consonant before it, as pinyin writes such a syllable (i: yi, u: wu).
_BARE = {"i": "yi", "u": "wu", "in": "yin", "ing": "ying", "un": "wen", "ong": "weng", "ei": "ei"}
# English "you" (j + u) is Mandarin you, not yu (ü).
_GLIDES = {"yu": "you", "yun": "yong"}
SYLLABLE_TONE = "1"
_PHONEME = re.compile("|".join(sorted((re.escape(p) for p in {*ONSETS, *VOWELS, " "}), key=len, reverse=True)))


@functools.cache
def _espeak() -> tuple[Any, threading.Lock]:
    """Piper's espeak-ng bridge, its data loaded once, and the lock Piper phonemizes under: the
    bridge is one state in the process, which the English voice uses from its own threads."""
    from piper import espeakbridge
    from piper import voice as piper_voice
    from piper.phonemize_espeak import ESPEAK_DATA_DIR

    lock: threading.Lock = piper_voice._ESPEAK_PHONEMIZER_LOCK
    with lock:
        espeakbridge.initialize(str(ESPEAK_DATA_DIR))
    return espeakbridge, lock


@functools.cache
def phonemes(word: str) -> str:
    """espeak-ng's US English IPA for ``word`` (stress and length marks kept)."""
    espeak, lock = _espeak()
    with lock:
        espeak.set_voice(ESPEAK_VOICE)  # each call: the Piper voice sets its own before phonemizing
        clauses = espeak.get_phonemes(word)
    return " ".join(re.sub(r"\([^)]+\)", "", text) for text, _, _ in clauses)  # no language-switch flags


def reading(word: str, syllables: Collection[str]) -> str:
    """``word`` as toned pinyin syllables, space-separated, that the voice (whose toneless
    ``syllables`` these are) can say; "" when espeak-ng gives no sound for it."""
    ipa = phonemes(word)
    units = [match.group() for match in _PHONEME.finditer(ipa)]  # stress and length marks dropped
    said: list[str] = []
    index = 0
    while index < len(units):
        phoneme = units[index]
        following = units[index + 1] if index + 1 < len(units) else ""
        if phoneme == " ":
            index += 1
        elif phoneme in VOWELS:
            syllable, used = _syllable("", phoneme, units[index + 1:], syllables)
            said.append(syllable)
            index += 1 + used
        elif following in VOWELS:
            syllable, used = _syllable(ONSETS[phoneme], following, units[index + 2:], syllables)
            said.append(syllable)
            index += 2 + used
        else:
            said.append(LONE_CONSONANTS.get(phoneme, ""))
            index += 1
    return " ".join(syllable for syllable in said if syllable)


def _nasal(rest: list[str]) -> str:
    """The nasal that ends a syllable (n, ng): the next phoneme, when no vowel follows it."""
    if not rest or rest[0] not in ("n", "ŋ") or len(rest) > 1 and rest[1] in VOWELS:
        return ""
    return "n" if rest[0] == "n" else "ng"


def _syllable(initial: str, vowel: str, rest: list[str], known: Collection[str]) -> tuple[str, int]:
    """The syllable the voice has nearest ``initial`` + ``vowel`` (and the nasal after it, if one
    of its finals takes it), and how many phonemes of ``rest`` it used (0 or 1)."""
    nasal = _nasal(rest)
    finals = VOWELS[vowel]
    with_nasal = tuple(final + nasal for final in finals if nasal and _is_final(final + nasal, known))
    for final in with_nasal + finals:
        for candidate in (_GLIDES.get(initial + final, initial + final), "" if initial else _BARE.get(final, ""),
                          _PALATAL.get(initial, initial) + final):
            if candidate in known:
                return candidate + SYLLABLE_TONE, int(final in with_nasal)
    return _BARE.get(finals[0], finals[0] if finals[0] in known else "e") + SYLLABLE_TONE, 0


def _is_final(final: str, known: Collection[str]) -> bool:
    return any(initial + final in known for initial in ("", "b", "d", "t", "l", "y"))


@functools.cache
def mandarin_syllables() -> frozenset[str]:
    """Every toneless syllable Mandarin has, as pypinyin's dictionary writes its characters' readings."""
    from pypinyin.contrib.tone_convert import to_normal
    from pypinyin.pinyin_dict import pinyin_dict

    toned = {reading for readings in pinyin_dict.values() for reading in readings.split(",")}  # ~1,500 of 41,000
    return frozenset(to_normal(reading) for reading in toned)


# A word of two to five letters with no vowel is said letter by letter: pinyin's initials as Chinese chat
# writes them (yyds 永远的神, xswl, dbq, plmm) and an acronym in small letters (ktv); espeak-ng read yyds
# as one syllable, yi de zi. Not an interjection of h, m and s (hmm, shh), nor a word ending in y (my, why).
_SPELLED_OUT = re.compile(r"(?![hms]+$)(?!.*y$)[b-df-hj-np-tv-z]{2,5}", re.IGNORECASE)


def spelled_out(word: str) -> bool:
    """Whether ``word`` is said letter by letter inside a Chinese line (:data:`_SPELLED_OUT`)."""
    return _SPELLED_OUT.fullmatch(word) is not None


@functools.cache
def heard_as(word: str) -> tuple[str, ...]:
    """``word`` (Latin letters) as the toneless Mandarin syllables it is said in inside a Chinese
    line: what a recogniser's characters for it read as (meeting: mi ting; 弥丁 mi ding); a word
    said letter by letter (:func:`spelled_out`: yyds) as its letters."""
    letters = list(word.upper()) if spelled_out(word) else [word]
    return tuple(re.sub(r"\d", "", syllable) for letter in letters
                 for syllable in reading(letter, mandarin_syllables()).split())
