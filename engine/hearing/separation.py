"""Dialogue separation by a downloadable model: the soundtrack's music and effects without its voices.

The channel methods (app.project.music_effects) need a 5.1 source, or a stereo one whose music is
not in the centre. A separation model hears the dialogue wherever it sits, in mono too. No
separation weights ship with DubStudio: a model is a plug-in the user downloads through the model
manager (:func:`engine.core.downloads.download_from_hub`: resumable, then checked against the
size and sha256 declared here, a damaged file removed), and it runs on onnxruntime.

**The family: UVR's MDX-Net vocal models in ONNX**, as Ultimate Vocal Remover and
python-audio-separator run them. Their signature, which :class:`SeparationModelSpec` declares
for each model and :class:`Separator` checks against the file before it runs:

- audio: stereo at 44.1 kHz, cut into chunks of ``hop × (dim_t − 1)`` samples;
- input ``[batch, 4, dim_f, dim_t]`` float32: each channel's STFT (``n_fft``, ``hop``, a periodic
  Hann window, centred with reflected ends) as real and imaginary planes, left then right, only
  the lowest ``dim_f`` bins, the lowest three set to zero;
- output: the same for the separated stem (here the voices), which is turned back into audio by
  the inverse STFT (the bins above ``dim_f`` are zero) and scaled by the model's ``compensate``.

The rest (music and effects) is the mix minus the voices. :meth:`Separator.separate` streams: it
takes the audio in blocks of any size and yields the mix and the voices block by block, holding
about two chunks (12 s of a 44.1 kHz model) whatever the length, so a 2 h film never has 2 h of
spectrogram in memory. Chunks overlap by half; of each, the ``n_fft / 2`` samples at either end
(where the STFT saw reflected audio) are dropped and the rest is weighted by a periodic Hann
window, whose halves add up to exactly one, so the overlap-add needs no normalising.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from engine.core.audio_io import file_digest
from engine.core.downloads import (
    DownloadProgress,
    Problem,
    ValidationReport,
    download_from_hub,
)
from engine.core.protocol import EngineError, ErrorCode
from engine.hearing.whisper import models_root, usable_cores

if TYPE_CHECKING:
    import onnxruntime

Audio = npt.NDArray[np.float32]
ZEROED_LOW_BINS = 3  # the MDX-Net models were trained with the lowest bins (under 20 Hz) silenced


@dataclass(frozen=True)
class SeparationModelSpec:
    """A separation model DubStudio offers: where it comes from, what it is, how it is run."""

    name: str  # what a person types: dubstudio models download NAME
    title: str
    separates: str  # what its stem is, in words
    licence: str
    hub_repo: str  # the model hub repository holding it, at a pinned revision
    revision: str
    path: str  # the file inside the repository (and inside the model folder)
    size: int  # bytes
    sha256: str
    sample_rate: int = 44_100
    n_fft: int = 7680
    hop: int = 1024
    dim_f: int = 3072
    dim_t: int = 256
    compensate: float = 1.0  # the voices as the model gives them are scaled by this

    @property
    def size_mb(self) -> int:
        return round(self.size / 1e6)

    @property
    def chunk(self) -> int:
        """Samples per model run: the STFT of this many samples has ``dim_t`` frames."""
        return self.hop * (self.dim_t - 1)

    @property
    def trim(self) -> int:
        """Samples dropped at either end of a chunk: there the STFT saw reflected audio."""
        return self.n_fft // 2

    @property
    def kept(self) -> int:
        """Samples of each chunk that count, weighted by a Hann window; chunks start half of it apart."""
        return self.chunk - 2 * self.trim

    def how_to_get(self) -> str:
        return f"download it: dubstudio models download {self.name} (about {self.size_mb} MB from {self.hub_repo})"


# Kim Vocal 2 (Kimberley Jensen), an MDX-Net vocal model UVR and python-audio-separator offer;
# its numbers are UVR's model data for this file (mdx_n_fft_scale_set 7680, dim_f 3072, dim_t 2**8,
# compensate 1.009). The file is byte-identical in UVR's own release (github.com/TRvlvr/model_repo,
# all_public_uvr_models) and on the hub repository below, pinned to one commit.
SEPARATION_MODELS: dict[str, SeparationModelSpec] = {spec.name: spec for spec in (
    SeparationModelSpec(
        name="kim-vocal-2",
        title="Kim Vocal 2 (MDX-Net)",
        separates="voices (dialogue, singing) from everything else; the rest is the music and effects",
        licence="distributed by the Ultimate Vocal Remover project (MIT) without a licence of its own; "
                "DubStudio ships none of it: each user downloads it",
        hub_repo="Politrees/UVR_resources",
        revision="83719e1e624d07842f914d856722af6f463e88cb",
        path="models/MDXNet/Kim_Vocal_2.onnx",
        size=66_759_214,
        sha256="ce74ef3b6a6024ce44211a07be9cf8bc6d87728cc852a68ab34eb8e58cde9c8b",
        compensate=1.009,
    ),
)}
DEFAULT_SEPARATION_MODEL = "kim-vocal-2"


def separation_spec(name: str) -> SeparationModelSpec:
    """The declared model called ``name``; E_BAD_OPTION naming the choices otherwise."""
    spec = SEPARATION_MODELS.get(name)
    if spec is None:
        raise EngineError(ErrorCode.BAD_OPTION,
                          f"unknown separation model {name!r}; choose one of {', '.join(SEPARATION_MODELS)}")
    return spec


def model_folder(spec: SeparationModelSpec) -> Path:
    """Where ``spec``'s folder is (or would be) in the user's model folder."""
    return models_root() / f"separation-{spec.name}"


def validate_separation_model(spec: SeparationModelSpec, folder: str | Path) -> ValidationReport:
    """Check ``spec``'s file in ``folder`` against its declared size and sha256 (hashed once per
    version of the file); loads nothing."""
    folder = Path(folder).expanduser()
    report = ValidationReport(str(folder))
    path = folder / spec.path
    leftovers = [str(p.relative_to(folder)) for p in folder.rglob("*.incomplete")] if folder.is_dir() else []
    if leftovers:
        report.problems.append(Problem(leftovers[0], "a partial download: run the download again to resume"))
    if not path.is_file():
        if not leftovers:
            report.problems.append(Problem(spec.path, f"missing; {spec.how_to_get()}"))
        return report
    size = path.stat().st_size
    if size != spec.size:
        report.problems.append(Problem(spec.path, f"is {size} bytes, not the declared {spec.size}"))
    elif file_digest(path) != spec.sha256:
        report.problems.append(Problem(spec.path, "its sha256 differs from the declared one: damaged, or not this model"))
    report.facts.update(model=spec.name, size=size, separates=spec.separates)
    return report


def model_available(spec: SeparationModelSpec) -> bool:
    return validate_separation_model(spec, model_folder(spec)).ok


def separation_model_path(spec: SeparationModelSpec, folder: Path | None = None) -> Path:
    """``spec``'s file, checked; E_SEPARATION_MODEL_MISSING saying how to get it otherwise."""
    folder = model_folder(spec) if folder is None else folder
    report = validate_separation_model(spec, folder)
    if not report.ok:
        raise EngineError(ErrorCode.SEPARATION_MODEL_MISSING,
                          f"{spec.title}: {report.summary()}" + ("" if "download it" in report.summary()
                                                                   else f"; {spec.how_to_get()}"))
    return folder / spec.path


def download_separation_model(
    spec: SeparationModelSpec,
    target: str | Path | None = None,
    endpoint: str | None = None,
    progress: Callable[[DownloadProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ValidationReport:
    """Download (or resume downloading) ``spec``'s file into its folder and check it.

    A finished file whose size or sha256 is not the declared one is removed (and the report says
    so): resuming onto it would only keep it wrong. ``endpoint`` points at another hub (a mirror,
    or a local test server).
    """
    folder = Path(target) if target is not None else model_folder(spec)
    report = download_from_hub(folder, spec.hub_repo, lambda path: validate_separation_model(spec, path),
                               endpoint=endpoint, revision=spec.revision, progress=progress,
                               should_stop=should_stop, only=(spec.path,))
    damaged = folder / spec.path
    if not report.ok and damaged.is_file():
        with contextlib.suppress(FileNotFoundError):
            damaged.unlink()
        report.problems.append(Problem(spec.path, "removed; run the download again"))
    return report


# --- running a model ---------------------------------------------------------------------------


def _periodic_hann(length: int) -> Audio:
    return (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(length) / length)).astype(np.float32)


@dataclass(frozen=True)
class SeparatedBlock:
    """A stretch of the input and the voices the model heard in it, both (n, 2) at the model's rate."""

    mix: Audio
    voices: Audio

    @property
    def rest(self) -> Audio:
        """The music and effects: the mix without the voices."""
        return self.mix - self.voices


class Separator:
    """One model file of ``spec``'s signature on onnxruntime, at most ``threads`` (≤ the cores) threads."""

    def __init__(self, path: Path, spec: SeparationModelSpec, threads: int | None = None) -> None:
        if spec.kept <= 0 or spec.kept % 2:
            raise EngineError(ErrorCode.BAD_OPTION, f"{spec.title}: a chunk of {spec.chunk} samples less "
                                                    f"{2 * spec.trim} trimmed leaves no even length to overlap")
        self.spec = spec
        self._session = _open_session(path, spec, threads)
        self._input = self._session.get_inputs()[0].name
        self._window = _periodic_hann(spec.n_fft)
        self._kept_window = _periodic_hann(spec.kept)[:, None]
        # What the inverse STFT divides by: the squared windows of the frames over each sample.
        squares = np.zeros(spec.chunk + spec.n_fft, dtype=np.float32)
        for frame in range(spec.dim_t):
            squares[frame * spec.hop: frame * spec.hop + spec.n_fft] += self._window ** 2
        self._squares = np.maximum(squares[spec.trim: spec.trim + spec.chunk], 1e-8)

    def spectrogram(self, chunk: Audio) -> Audio:
        """The model's input for ``chunk`` ((spec.chunk, 2) samples): [1, 4, dim_f, dim_t]."""
        spec = self.spec
        padded = np.pad(chunk.T, ((0, 0), (spec.trim, spec.trim)), mode="reflect")
        frames = np.lib.stride_tricks.sliding_window_view(padded, spec.n_fft, axis=1)[:, ::spec.hop]
        spectra = np.fft.rfft(frames * self._window, axis=2)[:, :, :spec.dim_f].transpose(0, 2, 1)
        spectra[:, :ZEROED_LOW_BINS] = 0
        planes = np.stack([spectra[0].real, spectra[0].imag, spectra[1].real, spectra[1].imag])
        return planes[None].astype(np.float32)

    def waveform(self, planes: Audio) -> Audio:
        """The audio ((spec.chunk, 2)) of a [1, 4, dim_f, dim_t] spectrogram, the bins above dim_f silent."""
        spec = self.spec
        spectra = np.zeros((2, spec.n_fft // 2 + 1, spec.dim_t), dtype=np.complex64)
        spectra[:, :spec.dim_f] = planes[0, 0::2] + 1j * planes[0, 1::2]
        frames = np.fft.irfft(spectra.transpose(0, 2, 1), n=spec.n_fft, axis=2) * self._window
        out = np.zeros((2, spec.chunk + spec.n_fft), dtype=np.float32)
        for frame in range(spec.dim_t):
            out[:, frame * spec.hop: frame * spec.hop + spec.n_fft] += frames[:, frame]
        return np.ascontiguousarray((out[:, spec.trim: spec.trim + spec.chunk] / self._squares).T)

    def voices(self, chunk: Audio) -> Audio:
        """The voices the model hears in one chunk ((spec.chunk, 2) in and out)."""
        output = self._session.run(None, {self._input: self.spectrogram(chunk)})[0]
        return self.waveform(np.asarray(output, dtype=np.float32)) * np.float32(self.spec.compensate)

    def separate(self, blocks: Iterable[np.ndarray]) -> Iterator[SeparatedBlock]:
        """The mix and its voices, block by block, for audio given in ``blocks`` of any size
        ((n, 2), or (n,) / (n, 1) mono) at the model's rate; as many samples come out as went in.
        Chunks sit at fixed places in the stream, so how the input is cut changes nothing."""
        spec = self.spec
        step, kept, trim = spec.kept // 2, spec.kept, spec.trim
        source = (_stereo(block) for block in blocks)
        start = -step  # where the current chunk's kept part starts, in samples of the input
        held = np.zeros((step + trim, 2), dtype=np.float32)  # the input from start - trim on (silence before 0)
        received, ended = 0, False
        sums = np.zeros((kept, 2), dtype=np.float32)  # the weighted voices over [start, start + kept)
        while not (ended and start >= received):
            pending, waiting = [held], len(held)  # joined once a chunk: small blocks cost no copying each
            while not ended and waiting < spec.chunk:
                block = next(source, None)
                if block is None:
                    ended = True
                else:
                    pending.append(block)
                    waiting, received = waiting + len(block), received + len(block)
            held = np.concatenate(pending) if len(pending) > 1 else held
            chunk = held[:spec.chunk]
            if len(chunk) < spec.chunk:
                chunk = np.concatenate([chunk, np.zeros((spec.chunk - len(chunk), 2), dtype=np.float32)])
            sums += self.voices(chunk)[trim: trim + kept] * self._kept_window
            first, last = max(start, 0), min(start + step, received) if ended else start + step
            if last > first:
                offset = trim + first - start
                yield SeparatedBlock(held[offset: offset + last - first].copy(), sums[first - start: last - start].copy())
            sums = np.concatenate([sums[step:], np.zeros((step, 2), dtype=np.float32)])
            held, start = held[step:], start + step


def _stereo(block: np.ndarray) -> Audio:
    audio = np.asarray(block, dtype=np.float32)
    if audio.ndim == 1:
        audio = audio[:, None]
    if audio.ndim != 2 or audio.shape[1] not in (1, 2):
        raise ValueError(f"audio blocks must be (n,), (n, 1) or (n, 2), not {audio.shape}")
    return np.repeat(audio, 2, axis=1) if audio.shape[1] == 1 else audio


def _open_session(path: Path, spec: SeparationModelSpec, threads: int | None) -> onnxruntime.InferenceSession:
    """An onnxruntime session on ``path``, refused (E_SEPARATION_MODEL_MISSING) unless its input and
    output are [batch, 4, dim_f, dim_t] as ``spec`` declares."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    cores = usable_cores()
    options.intra_op_num_threads = cores if threads is None else max(1, min(threads, cores))
    options.inter_op_num_threads = 1
    try:
        session = onnxruntime.InferenceSession(os.fspath(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types for unreadable models
        raise EngineError(ErrorCode.SEPARATION_MODEL_MISSING,
                          f"onnxruntime cannot load {path.name} as {spec.title}: {error}") from error
    expected = [4, spec.dim_f, spec.dim_t]
    for kind, tensors in (("input", session.get_inputs()), ("output", session.get_outputs())):
        shape = list(tensors[0].shape) if len(tensors) == 1 else []
        fixed = [dim if isinstance(dim, int) else None for dim in shape[1:]]
        if len(shape) != 4 or any(dim is not None and dim != want for dim, want in zip(fixed, expected, strict=True)):
            raise EngineError(ErrorCode.SEPARATION_MODEL_MISSING,
                              f"{path.name} is not a model of {spec.title}'s signature: its {kind} is "
                              f"{[t.shape for t in tensors]}, expected one [batch, {', '.join(map(str, expected))}]")
    return session
