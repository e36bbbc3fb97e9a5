"""A Piper voice's VITS graph in two parts, so a sentence's audio is decoded in windows.

Piper's model is one ONNX graph: the text encoder, the duration predictor and the flow make
the sentence's latent frames (about 40 % of a call, on one core whatever the thread count),
then the decoder turns each frame into HOP samples of audio. The graph is split where the
decoder begins. A sentence is encoded once; its audio can then be decoded for any range of
frames, each window with CONTEXT_FRAMES of the latents on either side, so windows join into
exactly the audio a single call makes (measured on joe-medium: 16 frames give identical
samples, 8 frames differ by 8e-5). The first piece's first second of audio is then ready
after the encoder and a fraction of the decoder, half the call, instead of the whole call.

The model's noise (the duration predictor's and the latent's, RandomNormalLike in the graph)
becomes inputs: tables of normal values, windows of one pool at offsets the caller draws
from a seeded generator (drawing 2^18 values a sentence cost 4 % of the engine's throughput), so a line
spoken again with the same seed is the same take, and one spoken faster changes only by its
durations' scale (fitting a take to its slot relies on it: with fresh noise each call, lengths
varied by 2-4 % between passes). Decoding is deterministic, so the windows of one sentence
agree with each other.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.core.protocol import EngineError, ErrorCode

if TYPE_CHECKING:
    import onnx
    import onnxruntime

# The decoder's first layer, by the names piper's exporter gives it (PyTorch module scopes in
# the node's name, the parameter's name for its weight): its data input is the split point.
DECODER_FIRST_NODE = "/dec/conv_pre/Conv"
DECODER_FIRST_WEIGHT = "dec.conv_pre.weight"
AUDIO_OUTPUT = "output"
CONTEXT_FRAMES = 16  # latent frames decoded on each side of a window and then dropped
# Values in each noise table: a noise longer than its table repeats it (Tile). The latent's
# needs 192 channels x frames: 2^18 cover a 15 s sentence; the durations' needs 2 x phoneme
# ids. The duration predictor's nodes are named by its module scope. The tables are windows
# of one pool of normal values, drawn once per process (9 ms, 4 MB) from a fixed seed.
DURATION_NOISE_PREFIX = "/dp/"
DURATION_NOISE_VALUES = 1 << 12
LATENT_NOISE_VALUES = 1 << 18
NOISE_POOL_VALUES = 1 << 20
NOISE_POOL_SEED = 0


@dataclass(frozen=True)
class Seam:
    """The tensors that pass from the encoder to the decoder."""

    latent: str  # the decoder's framed input: (1, channels, frames)
    conditions: tuple[str, ...]  # its other inputs (a speaker's embedding): passed whole
    noises: tuple[tuple[str, int], ...] = ()  # the encoder's noise inputs and their table lengths

    def noise_feeds(self, noise: np.random.Generator) -> dict[str, np.ndarray]:
        """One sentence's noise tables: windows of the pool at offsets drawn from ``noise``."""
        pool = _noise_pool()
        feeds = {}
        for name, values in self.noises:
            start = int(noise.integers(0, pool.size - values + 1))
            feeds[name] = pool[start:start + values]
        return feeds


@functools.lru_cache(maxsize=1)
def _noise_pool() -> np.ndarray:
    return np.random.default_rng(NOISE_POOL_SEED).standard_normal(NOISE_POOL_VALUES, dtype=np.float32)


@dataclass(frozen=True)
class SplitGraph:
    """The two graphs, serialised (about the model file's size), and their seam."""

    encoder: bytes
    decoder: bytes
    seam: Seam

    def sessions(self, options: onnxruntime.SessionOptions) -> Sessions:
        """Sessions of both graphs, made from files: made from bytes, onnxruntime's Python
        session keeps the bytes for its lifetime (53 MB for joe's encoder)."""
        import onnxruntime

        with tempfile.TemporaryDirectory(prefix="dubstudio-vits-") as scratch:
            made = []
            for name, graph in (("encoder", self.encoder), ("decoder", self.decoder)):
                path = Path(scratch) / f"{name}.onnx"
                path.write_bytes(graph)
                made.append(onnxruntime.InferenceSession(str(path), sess_options=options,
                                                         providers=["CPUExecutionProvider"]))
        return Sessions(*made)


def split_graph(model_path: str) -> SplitGraph:
    """Split a Piper voice where its decoder begins; E_BACKEND when the graph has no such
    layer (not exported by piper's trainer)."""
    import onnx
    from onnx.utils import Extractor

    model = onnx.load(model_path)
    graph = model.graph
    noises = _noise_as_inputs(graph)
    first = next((node for node in graph.node
                  if node.name == DECODER_FIRST_NODE or DECODER_FIRST_WEIGHT in node.input), None)
    if first is None or AUDIO_OUTPUT not in {output.name for output in graph.output}:
        raise EngineError(ErrorCode.BACKEND, f"{model_path} is not a Piper voice: its graph has no VITS decoder "
                                             f"({DECODER_FIRST_NODE}) ending in '{AUDIO_OUTPUT}'")
    decoder_nodes = _downstream(graph, first.input[0])
    produced = {output for node in decoder_nodes for output in node.output}
    constants = {initializer.name for initializer in graph.initializer}
    crossing = sorted({name for node in decoder_nodes for name in node.input
                       if name and name not in produced and name not in constants})
    extractor = Extractor(model)
    return SplitGraph(
        encoder=extractor.extract_model([item.name for item in graph.input], crossing).SerializeToString(),
        decoder=extractor.extract_model(crossing, [AUDIO_OUTPUT]).SerializeToString(),
        seam=Seam(latent=first.input[0], conditions=tuple(name for name in crossing if name != first.input[0]),
                  noises=noises),
    )


def _noise_as_inputs(graph: onnx.GraphProto) -> tuple[tuple[str, int], ...]:
    """Replace each RandomNormalLike(x) with a graph input, a 1-D table of normal values,
    tiled and cut to x's shape (then scaled, shifted and cast as the node's attributes say)."""
    from onnx import TensorProto, helper, numpy_helper

    noises: list[tuple[str, int]] = []
    nodes = []
    for node in graph.node:
        if node.op_type != "RandomNormalLike":
            nodes.append(node)
            continue
        index = len(noises)
        table = f"noise_{index}"
        values = DURATION_NOISE_VALUES if node.name.startswith(DURATION_NOISE_PREFIX) else LATENT_NOISE_VALUES
        noises.append((table, values))
        graph.input.append(helper.make_tensor_value_info(table, TensorProto.FLOAT, [f"noise_{index}_values"]))
        attributes = {attribute.name: helper.get_attribute_value(attribute) for attribute in node.attribute}
        one = f"{table}/one"
        graph.initializer.append(numpy_helper.from_array(np.array([1], np.int64), one))
        graph.initializer.append(numpy_helper.from_array(np.array([0], np.int64), f"{table}/zero"))
        made = [
            helper.make_node("Shape", [node.input[0]], [f"{table}/shape"]),
            helper.make_node("ReduceProd", [f"{table}/shape"], [f"{table}/count"], keepdims=1),
            helper.make_node("Shape", [table], [f"{table}/length"]),
            helper.make_node("Add", [f"{table}/count", f"{table}/length"], [f"{table}/over"]),
            helper.make_node("Sub", [f"{table}/over", one], [f"{table}/over_less_one"]),
            helper.make_node("Div", [f"{table}/over_less_one", f"{table}/length"], [f"{table}/repeats"]),
            helper.make_node("Tile", [table, f"{table}/repeats"], [f"{table}/tiled"]),
            helper.make_node("Slice", [f"{table}/tiled", f"{table}/zero", f"{table}/count"], [f"{table}/cut"]),
        ]
        shaped = f"{table}/shaped"
        made.append(helper.make_node("Reshape", [f"{table}/cut", f"{table}/shape"], [shaped]))
        for op, attribute, neutral in (("Mul", "scale", 1.0), ("Add", "mean", 0.0)):
            if float(attributes.get(attribute, neutral)) != neutral:
                constant = f"{table}/{attribute}"
                graph.initializer.append(numpy_helper.from_array(
                    np.array(attributes[attribute], np.float32), constant))
                made.append(helper.make_node(op, [shaped, constant], [f"{shaped}_{attribute}"]))
                shaped = f"{shaped}_{attribute}"
        made.append(helper.make_node("Cast", [shaped], list(node.output),
                                     to=int(attributes.get("dtype", TensorProto.FLOAT))))
        nodes.extend(made)
    del graph.node[:]
    graph.node.extend(nodes)
    return tuple(noises)


def _downstream(graph: onnx.GraphProto, start: str) -> list[onnx.NodeProto]:
    """The nodes that depend on tensor ``start`` (the graph's nodes are in topological order)."""
    reached = {start}
    found = []
    for node in graph.node:
        if reached.intersection(node.input):
            found.append(node)
            reached.update(node.output)
    return found


@dataclass(frozen=True)
class Sessions:
    """One thread count's sessions of a split voice."""

    encoder: onnxruntime.InferenceSession
    decoder: onnxruntime.InferenceSession


Decode = Callable[[dict[str, np.ndarray]], np.ndarray]  # the decoder's feeds -> its audio


class Speech:
    """One sentence, encoded: its audio decoded by range of frames, on demand, with ``decode``
    (the backend's: it picks the session by the pieces computing at that moment)."""

    def __init__(self, seam: Seam, latents: dict[str, np.ndarray], hop: int, decode: Decode) -> None:
        self._seam = seam
        self._latents = latents
        self._decode = decode
        self.hop = hop
        self.frames = int(latents[seam.latent].shape[-1])

    def frames_for(self, seconds: float, rate: int) -> int:
        """The frames that hold at least ``seconds`` of audio (all of them when it is shorter)."""
        return min(self.frames, int(np.ceil(seconds * rate / self.hop)))

    def audio(self, start: int = 0, end: int | None = None) -> np.ndarray:
        """Frames [start, end) as float32 samples within [-1, 1]."""
        end = self.frames if end is None else end
        if not 0 <= start < end <= self.frames:
            raise ValueError(f"frames {start}..{end} are outside 0..{self.frames}")
        low, high = max(0, start - CONTEXT_FRAMES), min(self.frames, end + CONTEXT_FRAMES)
        feeds = {name: self._latents[name] for name in self._seam.conditions}
        feeds[self._seam.latent] = np.ascontiguousarray(self._latents[self._seam.latent][..., low:high])
        out = self._decode(feeds).reshape(-1)
        if len(out) != (high - low) * self.hop:
            raise EngineError(ErrorCode.BACKEND, f"The voice's decoder made {len(out)} samples for "
                                                 f"{high - low} frames; {self.hop} a frame was expected")
        audio = out[(start - low) * self.hop:(end - low) * self.hop]
        return np.clip(audio, -1.0, 1.0).astype(np.float32)
