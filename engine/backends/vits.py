"""A Piper voice's VITS graph in two parts, so a sentence's audio is decoded in windows.

Piper's model is one ONNX graph: the text encoder, the duration predictor and the flow make
the sentence's latent frames (about 40 % of a call, on one core whatever the thread count),
then the decoder turns each frame into HOP samples of audio. The graph is split where the
decoder begins. A sentence is encoded once; its audio can then be decoded for any range of
frames, each window with CONTEXT_FRAMES of the latents on either side, so windows join into
exactly the audio a single call makes (measured on joe-medium: 16 frames give identical
samples, 8 frames differ by 8e-5). The first piece's first second of audio is then ready
after the encoder and a fraction of the decoder, half the call, instead of the whole call.

The encoder runs the model's own noise, once per sentence: decoding is deterministic, so the
windows of one sentence agree with each other.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from engine.protocol import EngineError, ErrorCode

if TYPE_CHECKING:
    import onnx
    import onnxruntime

# The decoder's first layer, by the names piper's exporter gives it (PyTorch module scopes in
# the node's name, the parameter's name for its weight): its data input is the split point.
DECODER_FIRST_NODE = "/dec/conv_pre/Conv"
DECODER_FIRST_WEIGHT = "dec.conv_pre.weight"
AUDIO_OUTPUT = "output"
CONTEXT_FRAMES = 16  # latent frames decoded on each side of a window and then dropped


@dataclass(frozen=True)
class Seam:
    """The tensors that pass from the encoder to the decoder."""

    latent: str  # the decoder's framed input: (1, channels, frames)
    conditions: tuple[str, ...]  # its other inputs (a speaker's embedding): passed whole


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
        seam=Seam(latent=first.input[0], conditions=tuple(name for name in crossing if name != first.input[0])),
    )


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

    encoder: "onnxruntime.InferenceSession"
    decoder: "onnxruntime.InferenceSession"


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
