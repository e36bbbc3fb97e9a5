"""CosyVoice2-0.5B: zero-shot cloning, cross-lingual and instructed synthesis, streamed.

The backend loads upstream's modules (the Qwen2 LLM, the flow-matching decoder, the HiFT
vocoder) from a model folder with the CosyVoice code — the ``cosyvoice`` package installed
in the engine's environment (``scripts/cosyvoice-env``) or a clone named by ``code_dir`` —
and drives them from its own per-job streaming loop instead of upstream's ``model.tts()``:

- The hop schedule lives in each job: every job starts with a small first hop (25 tokens,
  about one second of audio) whatever runs beside it. Upstream keeps the hop on the shared
  model, so every stream after the first starts with 50–100-token hops and a late first
  chunk. ``hop_schedule="upstream"`` reproduces that (and upstream's 0.1 s token polling)
  for comparison figures.
- An LLM thread per job hands tokens to the job through a condition variable: no polling.
  A failing LLM thread fails the job instead of hanging it (upstream loops forever).
- The engine's stop check runs between hops and the LLM thread stops with the job.
- With ``max_batch`` above 1 a job is a state stepped hop by hop (``start`` / ``step_batch``):
  several jobs' hops go through one flow call and one vocoder call
  (:mod:`engine.synthesis.backends.cosyvoice_batch`), and their tokens come from one continuously
  batched LLM (:mod:`engine.synthesis.backends.cosyvoice_llm`) instead of a thread per job; each job's
  audio is what it would be alone. ``max_batch=1`` is the per-job path above.

Conditioning (what the engine caches per clip) is the frontend's features as plain arrays:
prompt text tokens, prompt speech tokens, prompt mel and the CAM++ embedding. Each job
builds its model input for its mode from them, so an instruction is never dropped (upstream's
cached-speaker path loses it).

Its length (about 1060 lines, over the ~600 the project aims at) is upstream's three models driven
by our own per-job streaming loop, batching and hop schedule; it runs only in the CosyVoice
environment and its suite (bash scripts/test-cosyvoice), which is why it was left whole.
"""

from __future__ import annotations

import logging
import math
import os
import re
import sys
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from engine.core.audio_io import resample
from engine.core.protocol import (
    Capabilities,
    EngineError,
    ErrorCode,
    VoiceSettings,
    synthesis_seed,
)
from engine.core.reference import ReferenceClip
from engine.core.text import (
    FIRST_PIECE_CHARS,
    TextPiece,
    is_speakable,
    split_for_streaming,
)
from engine.synthesis.backends import COSYVOICE2, COSYVOICE2_SAMPLE_RATE, OptionError
from engine.synthesis.backends.base import (
    ArraySpec,
    Backend,
    SpokenPiece,
    StopCheck,
    VoiceProfile,
)
from engine.synthesis.backends.cosyvoice_batch import (
    FlowRow,
    VocoderRow,
    batched_job_bytes,
    flow_mels,
    padding_groups,
    vocode,
)
from engine.synthesis.backends.cosyvoice_llm import (
    BatchedSpeechLM,
    Sequence,
    TokenStream,
)

log = logging.getLogger(__name__)

SAMPLE_RATE = COSYVOICE2_SAMPLE_RATE
FIRST_HOP_TOKENS = 25  # the flow's static chunk size: ~1 s of audio at 25 tokens/s
MAX_HOP_TOKENS = 100
HOP_GROWTH = 2
UPSTREAM_POLL_S = 0.1  # upstream's token polling interval, reproduced in "upstream" mode
STOP_CHECK_S = 0.5  # longest wait for a token before the stop check runs again
MEL_CACHE_FRAMES = 8  # HiFT overlap carried between hops (as upstream)
SAMPLES_PER_MEL_FRAME = 480
SPEED_RANGE = (COSYVOICE2.capabilities.speed.low, COSYVOICE2.capabilities.speed.high)  # the engine refuses others
MAX_PROMPT_S = 30.0
SPEECH_TOKEN_VOCAB = 6561  # the speech tokenizer's codes (FSQ, 3^8)
MEL_BINS = 80
CAMPPLUS_DIM = 192
END_OF_PROMPT = "<|endofprompt|>"
# Working memory one concurrent job needs on a GPU beyond the loaded weights (the LLM's KV
# cache, the flow's activations for a hop, the vocoder): an estimate with a wide margin,
# not a measurement (no GPU was at hand); it only sizes the default slot count.
GPU_BYTES_PER_JOB = {"fp32": 1.0 * 2**30, "fp16": 0.6 * 2**30}
GPU_MEMORY_HEADROOM = 0.8  # keep a fifth of the free memory for fragmentation and other processes
# max_batch when not given: on a GPU a batch of B hops costs about one hop (the seeds' curve is
# one stream after another on one device), so batch up to 8, within memory. On the CPU a batch
# of B hops costs about B (benchmarks/batching_profile.py --parts: the flow, 75-85 % of the
# work, 0.94x for 4 rows at once), and benchmarks/batching.py measured the same audio per second
# for the same CPU seconds at 4 users (docs/cosyvoice.md): no reason to leave the per-job path.
DEFAULT_MAX_BATCH = {"cuda": 8, "cpu": 1}
# Padding the flow may add to a batch's real frames: a GPU computes the pads in parallel at
# little cost, a CPU computes every one of them (measured: three voices in one batch on this
# 2-core CPU took the flow 17 % longer than their rows one by one), so it splits more.
FLOW_PADDING = {"cuda": 0.5, "cpu": 0.05}
MAX_LLM_SEQUENCES = 64  # rows the batched LLM steps at once (the engine's admission bounds it first)
# Upstream's Qwen2LM.inference bounds speech to 2-20 speech tokens per text token.
MIN_TOKEN_TEXT_RATIO = 2
MAX_TOKEN_TEXT_RATIO = 20


# --- modes -----------------------------------------------------------------------------------


def script_family(text: str) -> str:
    """The writing system of a text: "han", "kana", "hangul", "latin", "other" or "" (none).

    Used to tell whether the prompt's transcript and the text to speak share a language well
    enough for zero-shot prompting; Chinese and Japanese kanji-only text both count as "han".
    """
    counts: dict[str, int] = {}
    for char in text:
        if not char.isalpha():
            continue
        name = unicodedata.name(char, "")
        if "HIRAGANA" in name or "KATAKANA" in name:
            family = "kana"
        elif "HANGUL" in name:
            family = "hangul"
        elif "CJK" in name:
            family = "han"
        elif "LATIN" in name:
            family = "latin"
        else:
            family = "other"
        counts[family] = counts.get(family, 0) + 1
    if not counts:
        return ""
    if counts.get("kana"):  # Japanese mixes kana with kanji
        return "kana"
    return max(counts, key=lambda key: counts[key])


_LANGUAGE_FAMILY = {"zh": "han", "yue": "han", "ja": "kana", "ko": "hangul"}


def language_family(code: str) -> str:
    """The script family of an ISO language code ("" when none was given)."""
    code = code.strip().lower().split("-")[0].split("_")[0]
    if not code:
        return ""
    return _LANGUAGE_FAMILY.get(code, "latin")


def choose_mode(text: str, prompt_script: str, settings: VoiceSettings) -> str:
    """Map a studio voice onto a CosyVoice2 mode: "instruct", "zero_shot" or "cross_lingual".

    ``prompt_script`` is the script family of the clip's transcript ("" without one). An
    instruction always wins (instruct2 keeps the clip's timbre); a transcript in the script of
    the text (or of ``settings.language``) gives zero-shot; no transcript, or text in another
    script, gives cross-lingual, where the LLM gets no prompt and only the flow hears the clip.
    """
    if settings.instruction.strip():
        return "instruct"
    if not prompt_script:
        return "cross_lingual"
    wanted = language_family(settings.language) or script_family(text)
    if wanted and wanted != prompt_script:
        return "cross_lingual"
    return "zero_shot"


# --- per-job streaming state ------------------------------------------------------------------


class HopSchedule:
    """How many speech tokens each hop turns into audio: small first, then doubling to a cap."""

    def __init__(self, first: int = FIRST_HOP_TOKENS, cap: int = MAX_HOP_TOKENS, growth: int = HOP_GROWTH) -> None:
        self.current = first
        self.cap = cap
        self.growth = growth
        self.lock = threading.Lock()

    def hop(self) -> int:
        with self.lock:
            return self.current

    def advance(self) -> None:
        with self.lock:
            self.current = min(self.cap, self.current * self.growth)


@dataclass
class _VocoderCache:
    """The HiFT overlap of one job: the last mel frames, source excitation and speech."""

    mel: Any = None
    source: Any = None
    speech: Any = None


@dataclass(frozen=True)
class _ModelInput:
    """What one segment's synthesis needs, as torch tensors (batch 1)."""

    text: Any  # [1, N] int32
    llm_prompt_text: Any  # [1, P] int32 (transcript, instruction or nothing)
    llm_prompt_speech: Any  # [1, S] int32 (zero-shot only)
    flow_prompt_speech: Any  # [1, T] int32
    prompt_mel: Any  # [1, 2T, 80] float32
    embedding: Any  # [1, 192] float32


# --- the backend ------------------------------------------------------------------------------


class CosyVoice2Backend(Backend):
    """CosyVoice2-0.5B through upstream's modules with a per-job streaming loop."""

    conditioning_version = "cosyvoice2-1"
    speaker_encoder_id = "campplus-192"  # CosyVoice's own CAM++, computed in condition()
    # Job-level scheduling: each segment's LLM decodes in its own thread whatever the engine
    # does with the stream, so parking a job between hops would save no compute, and more
    # admitted streams would only mean more LLMs decoding at once on the same cores.
    piece_scheduling = False
    conditioning_spec = {
        "prompt_text_tokens": ArraySpec(shape=(None,), kinds="iu", low=0),
        "prompt_speech_tokens": ArraySpec(shape=(None,), kinds="iu", low=0, high=SPEECH_TOKEN_VOCAB - 1,
                                          min_length=1),
        "prompt_mel": ArraySpec(shape=(None, MEL_BINS), min_length=1),
        "speaker_embedding": ArraySpec(shape=(CAMPPLUS_DIM,)),
    }

    def speaker_embedding(self, conditioning: dict[str, np.ndarray]) -> np.ndarray:
        return conditioning["speaker_embedding"]

    def conditioning_problem(self, conditioning: Mapping[str, np.ndarray]) -> str | None:
        """The spec, and the flow's pairing of mel frames with speech tokens."""
        problem = super().conditioning_problem(conditioning)
        if problem is None and self._loaded:
            frames, tokens = len(conditioning["prompt_mel"]), len(conditioning["prompt_speech_tokens"])
            if frames != self.token_mel_ratio * tokens:
                problem = f"prompt_mel has {frames} frames for {tokens} speech tokens (expected {self.token_mel_ratio} each)"
        return problem

    def __init__(
        self,
        model_dir: str,
        code_dir: str | None = None,
        fp16: bool = False,
        load_jit: bool = False,
        load_trt: bool = False,
        load_vllm: bool = False,
        trt_concurrent: int = 1,
        hop_schedule: str = "per_job",
        threads: int | None = None,
        device: str = "auto",
        max_batch: int | None = None,
    ) -> None:
        # Options arrive checked against COSYVOICE2 (engine.synthesis.backends.create_backend).
        self.model_dir = Path(model_dir).expanduser()
        self.code_dir = Path(code_dir).expanduser() if code_dir else None
        self.options = {"fp16": bool(fp16), "load_jit": bool(load_jit), "load_trt": bool(load_trt),
                        "load_vllm": bool(load_vllm)}
        self.trt_concurrent = int(trt_concurrent)
        self.hop_schedule = hop_schedule
        self.threads = threads
        self.requested_device = device
        self.requested_max_batch = max_batch
        self.max_batch = 1  # resolved at load: the option, else the device's default, within memory
        self._decoder: BatchedSpeechLM | None = None  # the batched LLM (max_batch > 1 without vLLM)
        self._shared_hop = HopSchedule()  # used only in "upstream" mode
        self._loaded = False
        self.load_facts: dict[str, Any] = {}

    # --- set-up ---------------------------------------------------------------------------

    @property
    def capabilities(self) -> Capabilities:
        return COSYVOICE2.capabilities

    def facts(self) -> dict[str, Any]:
        return dict(self.load_facts)

    def suggested_slots(self, cores: int) -> int | None:
        """On a GPU: as many jobs as the free memory holds, but no more than cores allow for the
        Python thread that drives each stream; batched, a slot is one batched call of up to
        ``max_batch`` jobs, so fewer slots hold as many jobs. On the CPU: the engine's default."""
        if not self._loaded or self.device.type != "cuda":
            return None
        jobs = self._jobs_that_fit()
        if self.max_batch > 1:
            return max(1, min(jobs // self.max_batch, cores))
        return max(1, min(jobs, 2 * cores))

    def _jobs_that_fit(self) -> int:
        """Concurrent jobs the GPU's free memory holds beside the loaded weights (a GPU only)."""
        free, _total = self._torch.cuda.mem_get_info(self.device)
        return int(free * GPU_MEMORY_HEADROOM // self._bytes_per_job())

    def _bytes_per_job(self) -> int:
        """GPU working memory of one job: the fixed estimate at batch 1; batched, the estimate
        from the loaded model's sizes (cosyvoice_batch.batched_job_bytes)."""
        precision = "fp16" if self.options["fp16"] else "fp32"
        if self.max_batch == 1:
            return int(GPU_BYTES_PER_JOB[precision])
        return batched_job_bytes(self.llm, self.flow, self.hift, 2 if self.options["fp16"] else 4)

    def _import_code(self) -> None:
        """Make the CosyVoice code importable: a clone named by code_dir, else the installed package."""
        if self.code_dir is not None:
            if not (self.code_dir / "cosyvoice").is_dir():
                raise EngineError(ErrorCode.ENGINE_START,
                                  f"code_dir {self.code_dir} holds no 'cosyvoice' package (a CosyVoice clone's root)")
            loaded = sys.modules.get("cosyvoice")
            if loaded is not None and not str(getattr(loaded, "__file__", "") or "").startswith(str(self.code_dir)):
                raise EngineError(ErrorCode.ENGINE_START,
                                  f"another copy of cosyvoice is already imported ({loaded.__file__})")
            for extra in (self.code_dir / "third_party" / "Matcha-TTS", self.code_dir):
                if extra.is_dir() and str(extra) not in sys.path:
                    sys.path.insert(0, str(extra))
        root = logging.getLogger()
        level = root.level
        try:
            import cosyvoice
            import cosyvoice.utils.file_utils  # noqa: F401  (configures logging on import)
            import matcha  # noqa: F401
        except ImportError as error:
            raise EngineError(
                ErrorCode.ENGINE_START,
                f"The CosyVoice code is not importable ({error}); build its environment with "
                "scripts/cosyvoice-env and run the engine with that interpreter, or pass code_dir",
            ) from error
        finally:
            # Upstream sets the root logger to DEBUG, which makes numba log every compilation
            # step (seconds of CPU); keep the engine's level.
            root.setLevel(level)
            logging.getLogger("numba").setLevel(logging.WARNING)

    def load(self) -> None:
        from engine.synthesis.backends.cosyvoice_models import (
            model_facts,
            validate_model_dir,
        )

        started = time.monotonic()
        report = validate_model_dir(self.model_dir, options=self.options)
        if not report.ok:
            raise EngineError(ErrorCode.ENGINE_START, f"CosyVoice2 model folder {self.model_dir}: {report.summary()}")
        self._import_code()
        import torch
        from hyperpyyaml import load_hyperpyyaml

        from engine.synthesis.backends.device import describe, resolve_device

        self._torch = torch
        self.device = resolve_device(torch, self.requested_device)
        device_facts = describe(str(self.device))
        cuda = self.device.type == "cuda"
        if cuda:
            torch.cuda.set_device(self.device)  # upstream's loaders use the current device
        if not cuda and any(self.options.values()):
            # As upstream: these options need CUDA; say so rather than fail.
            log.warning("no CUDA device: fp16, JIT, TensorRT and vLLM are turned off")
            self.options = {name: False for name in self.options}
        if self.options["fp16"] and not device_facts["fp16_supported"]:
            log.warning("fp16 is turned off: %s (compute capability %s) has no native half precision",
                        device_facts["gpu_name"], device_facts["compute_capability"])
            self.options["fp16"] = False
        self.set_slots(1)
        with open(self.model_dir / "cosyvoice2.yaml", encoding="utf-8") as handle:
            configs = load_hyperpyyaml(
                handle, overrides={"qwen_pretrain_path": str(self.model_dir / "CosyVoice-BlankEN")}
            )
        self.sample_rate = int(configs["sample_rate"])
        if self.sample_rate != SAMPLE_RATE:
            raise EngineError(ErrorCode.ENGINE_START, f"expected a 24 kHz CosyVoice2 model, got {self.sample_rate} Hz")
        self._tokenizer = configs["get_tokenizer"]()
        self._allowed_special = configs.get("allowed_special", "all")
        self._feat_extractor = configs["feat_extractor"]
        with torch.inference_mode():
            # Matcha's mel function fills two module-level caches on its first call, one after the
            # other; slots preparing voices at once could see the first filled and not the second
            # (KeyError 'cpu'). One call now fills both before any slot runs.
            self._feat_extractor(torch.zeros(1, SAMPLE_RATE // 10))
        self.llm, self.flow, self.hift = configs["llm"], configs["flow"], configs["hift"]
        self._load_weights()
        self._accelerate()

        self._open_onnx_sessions(cuda)
        self.lookahead = int(self.flow.pre_lookahead_len)
        self.token_mel_ratio = int(self.flow.token_mel_ratio)
        self._number_words = self._number_speller()
        self._start_batching()
        self._loaded = True
        self.load_facts = {
            "load_s": round(time.monotonic() - started, 2),
            **model_facts(self.model_dir),
            "code": str(Path(sys.modules["cosyvoice"].__file__ or "").parent),
            "hop_schedule": self.hop_schedule,
            "max_batch": self.max_batch,
            "llm_batching": ("vllm" if self.options["load_vllm"] else "dubstudio") if self.max_batch > 1 else "none",
            "combinations": [f"{c.options}: {c.how}" for c in COSYVOICE2.combinations if c.works],
            **({"gpu_bytes_per_job": self._bytes_per_job()} if cuda else {}),
            **self.options,
            **device_facts,
        }
        log.info("CosyVoice2 loaded: %s", self.load_facts)

    def _open_onnx_sessions(self, cuda: bool) -> None:
        """The speaker embedding (CAM++) on the CPU, the speech tokenizer on the GPU when one runs."""
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = 1
        self._campplus = onnxruntime.InferenceSession(
            str(self.model_dir / "campplus.onnx"), sess_options=options, providers=["CPUExecutionProvider"]
        )
        providers: list[str | tuple[str, dict[str, int]]] = ["CPUExecutionProvider"]  # a name, or a name and its options
        if cuda and "CUDAExecutionProvider" in onnxruntime.get_available_providers():  # onnxruntime-gpu
            providers.insert(0, ("CUDAExecutionProvider", {"device_id": self.device.index or 0}))
        self._speech_tokenizer = onnxruntime.InferenceSession(
            str(self.model_dir / "speech_tokenizer_v2.onnx"), sess_options=options, providers=providers
        )

    def _start_batching(self) -> None:
        """Resolve max_batch (the option, else the device's default, never past what fits in the
        GPU's memory); above 1, jobs step piece by piece and the LLM decodes in one batch."""
        if self.hop_schedule == "upstream":  # upstream's shared hop is a batch-1 behaviour
            if (self.requested_max_batch or 1) > 1:
                raise OptionError("cosyvoice2", "max_batch", "hop_schedule=upstream runs one job per call; "
                                                             "use max_batch=1 or hop_schedule=per_job")
            self.requested_max_batch = 1
        wanted = self.requested_max_batch or DEFAULT_MAX_BATCH[self.device.type]
        if self.device.type == "cuda" and wanted > 1:
            self.max_batch = wanted  # the per-job estimate depends on batching itself
            fits = self._jobs_that_fit()
            if fits < wanted:
                log.warning("max_batch %d does not fit in the GPU's free memory: %d", wanted, max(1, fits))
            wanted = max(1, min(wanted, fits))
        self.max_batch = int(wanted)
        self.piece_scheduling = self.max_batch > 1
        if self.max_batch > 1 and not self.options["load_vllm"]:
            # vLLM batches the LLM itself; otherwise one decoder thread steps every sequence.
            self._decoder = BatchedSpeechLM(self._torch, self.llm, self.device, self._autocast, MAX_LLM_SEQUENCES)

    def _autocast(self) -> Any:
        return self._torch.autocast("cuda", enabled=self.options["fp16"] and self.device.type == "cuda")

    def _load_weights(self) -> None:
        """Load the three checkpoints strictly, as plain tensors (``weights_only``)."""
        torch = self._torch
        for name, module in (("llm", self.llm), ("flow", self.flow), ("hift", self.hift)):
            state = torch.load(self.model_dir / f"{name}.pt", map_location=self.device, weights_only=True)
            if name == "hift":  # a HiFi-GAN checkpoint prefixes the generator's keys
                state = {key.replace("generator.", ""): value for key, value in state.items()}
            try:
                module.load_state_dict(state, strict=True)
            except RuntimeError as error:
                raise EngineError(ErrorCode.ENGINE_START,
                                  f"{name}.pt does not match cosyvoice2.yaml (code and model snapshot differ?): "
                                  f"{str(error)[:400]}") from error
            module.to(self.device).eval()

    def _accelerate(self) -> None:
        """Upstream's GPU options (JIT flow encoder, TensorRT flow decoder, vLLM), through its own code."""
        if not (self.options["load_jit"] or self.options["load_trt"] or self.options["load_vllm"]):
            return
        from cosyvoice.cli.model import CosyVoice2Model

        model = CosyVoice2Model(self.llm, self.flow, self.hift, self.options["fp16"])
        precision = "fp16" if self.options["fp16"] else "fp32"
        if self.options["load_vllm"]:
            model.load_vllm(str(self.model_dir / "vllm"))
        if self.options["load_jit"]:
            model.load_jit(str(self.model_dir / f"flow.encoder.{precision}.zip"))
        if self.options["load_trt"]:
            model.load_trt(str(self.model_dir / f"flow.decoder.estimator.{precision}.mygpu.plan"),
                           str(self.model_dir / "flow.decoder.estimator.fp32.onnx"), self.trt_concurrent,
                           self.options["fp16"])

    def set_slots(self, slots: int) -> None:
        """Torch's intra-op threads are per process: share the cores among the threads that
        compute at once, the slots and, batched, the one LLM decoder thread beside them."""
        if not hasattr(self, "_torch"):
            return
        computing = max(1, slots) + (1 if self._decoder is not None else 0)
        threads = self.threads or max(1, (os.cpu_count() or 1) // computing)
        self._torch.set_num_threads(threads)

    @staticmethod
    def _number_speller() -> Any:
        try:
            import inflect

            return inflect.engine()
        except ImportError:  # only affects digits in non-Chinese text
            return None

    # --- text -----------------------------------------------------------------------------

    def normalize(self, text: str) -> str:
        """Light text normalisation in the spirit of upstream's frontend (without WeText)."""
        text = re.sub(r"\s+", " ", text.strip())
        if script_family(text) in ("han", "kana"):
            return text
        if self._number_words is not None:
            text = re.sub(r"\d+", lambda m: self._number_words.number_to_words(m.group(0)), text)
        return text

    def _encode(self, text: str) -> list[int]:
        return list(self._tokenizer.encode(text, allowed_special=self._allowed_special))

    def check_text(self, text: str) -> None:
        if not is_speakable(text):
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text has no letters or digits to speak")

    # --- conditioning ---------------------------------------------------------------------

    def condition(self, clip: ReferenceClip, transcript: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The CosyVoice2 frontend's features of a clip, as arrays the engine can cache."""
        import torch
        import torchaudio.compliance.kaldi as kaldi
        import whisper

        if len(clip.audio) / clip.sample_rate > MAX_PROMPT_S:
            raise EngineError(ErrorCode.CLIP_TOO_LONG, f"CosyVoice2 takes prompt clips up to {MAX_PROMPT_S:.0f} s")
        audio16 = resample(clip.audio, clip.sample_rate, 16000)
        audio24 = resample(clip.audio, clip.sample_rate, SAMPLE_RATE)
        with torch.inference_mode():
            speech16 = torch.from_numpy(audio16).unsqueeze(0)
            # Speech tokens: Whisper-style 128-bin log-mel at 16 kHz through the tokenizer model.
            log_mel = whisper.log_mel_spectrogram(speech16, n_mels=128)
            inputs = self._speech_tokenizer.get_inputs()
            speech_tokens = self._speech_tokenizer.run(None, {
                inputs[0].name: log_mel.numpy(),
                inputs[1].name: np.array([log_mel.shape[2]], dtype=np.int32),
            })[0].reshape(-1).astype(np.int32)
            # Speaker embedding: mean-normalised Kaldi fbank at 16 kHz through CAM++.
            fbank = kaldi.fbank(speech16, num_mel_bins=80, dither=0, sample_frequency=16000)
            fbank = fbank - fbank.mean(dim=0, keepdim=True)
            embedding = self._campplus.run(
                None, {self._campplus.get_inputs()[0].name: fbank.unsqueeze(0).numpy()}
            )[0].reshape(-1).astype(np.float32)
            # Prompt mel at 24 kHz, two frames per speech token.
            mel = self._feat_extractor(torch.from_numpy(audio24).unsqueeze(0)).squeeze(0).transpose(0, 1)
            mel = mel.numpy().astype(np.float32)
        token_count = min(mel.shape[0] // self.token_mel_ratio, len(speech_tokens))
        if token_count < 1:
            raise EngineError(ErrorCode.CLIP_TOO_SHORT, "The clip is too short to give CosyVoice2 any speech tokens")
        speech_tokens = speech_tokens[:token_count]
        mel = mel[: self.token_mel_ratio * token_count]
        normalized = self.normalize(transcript) if transcript.strip() else ""
        text_tokens = np.asarray(self._encode(normalized) if normalized else [], dtype=np.int32)
        arrays = {
            "prompt_text_tokens": text_tokens,
            "prompt_speech_tokens": speech_tokens,
            "prompt_mel": mel,
            "speaker_embedding": embedding,
        }
        meta = {
            "encoder": "campplus-192",
            "prompt_tokens": int(token_count),
            "prompt_text_tokens": int(len(text_tokens)),
            "transcript_script": script_family(transcript),
        }
        return arrays, meta

    def _model_input(self, text_tokens: list[int], profile: VoiceProfile, mode: str, instruction: str) -> _ModelInput:
        """Build one segment's input for its mode from the cached features."""
        torch = self._torch
        cond = profile.conditioning
        try:
            speech = torch.from_numpy(np.asarray(cond["prompt_speech_tokens"], dtype=np.int32)).reshape(1, -1)
            mel = torch.from_numpy(np.asarray(cond["prompt_mel"], dtype=np.float32)).reshape(1, -1, MEL_BINS)
            embedding = torch.from_numpy(np.asarray(cond["speaker_embedding"], dtype=np.float32)).reshape(1, -1)
            prompt_text = np.asarray(cond["prompt_text_tokens"], dtype=np.int32)
        except (KeyError, ValueError) as error:
            raise EngineError(ErrorCode.BACKEND, f"The cached voice lacks CosyVoice2 features ({error})") from error
        empty = torch.zeros(1, 0, dtype=torch.int32)
        if mode == "instruct":
            words = self.normalize(instruction)
            if END_OF_PROMPT not in words:
                words = f"{words}{END_OF_PROMPT}"
            llm_text, llm_speech = torch.tensor([self._encode(words)], dtype=torch.int32), empty
        elif mode == "zero_shot":
            llm_text, llm_speech = torch.from_numpy(prompt_text).reshape(1, -1), speech
        else:
            llm_text, llm_speech = empty, empty
        return _ModelInput(
            text=torch.tensor([text_tokens], dtype=torch.int32),
            llm_prompt_text=llm_text,
            llm_prompt_speech=llm_speech,
            flow_prompt_speech=speech,
            prompt_mel=mel,
            embedding=embedding,
        )

    # --- synthesis ------------------------------------------------------------------------

    def _pieces(self, text: str) -> list[TextPiece]:
        """The text's pieces. CosyVoice2 streams within a piece, a hop at a time, so its first
        audio is one hop however long the piece is: the engine's load-dependent first-piece
        budget (``first_piece_chars``) would cut first sentences, and their prosody, for
        nothing. Its pieces keep the idle engine's budget."""
        return split_for_streaming(self.normalize(text), FIRST_PIECE_CHARS)

    def synthesize(self, text: str, profile: VoiceProfile, settings: VoiceSettings,
                   should_stop: StopCheck, first_piece_chars: int = FIRST_PIECE_CHARS,
                   seed: int | None = None) -> Iterator[SpokenPiece]:
        if not self._loaded:
            raise EngineError(ErrorCode.BACKEND, "CosyVoice2 is not loaded")
        if self.max_batch > 1:  # the one-job path of the batched steps
            yield from self._steps_of_one(self.start(text, profile, settings, should_stop, first_piece_chars, seed))
            return
        has_transcript = len(profile.conditioning.get("prompt_text_tokens", ())) > 0
        prompt_script = str(profile.meta.get("transcript_script", "")) if has_transcript else ""
        speed = float(np.clip(settings.speed or 1.0, *SPEED_RANGE))
        spoken = False
        for piece in self._pieces(text):
            if should_stop():
                return
            tokens = self._encode(piece.text)
            if not tokens:
                continue
            mode = choose_mode(piece.text, prompt_script, settings)
            model_input = self._model_input(tokens, profile, mode, settings.instruction)
            for pcm in self._stream(model_input, speed, should_stop):
                if len(pcm):
                    spoken = True
                    yield SpokenPiece(pcm=pcm, text=piece.text)
        if not spoken and not should_stop():
            raise EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text produced no speech")

    def _run_llm(self, model_input: _ModelInput, stream: TokenStream) -> None:
        """The LLM thread of one job: append each speech token and wake the job."""
        torch = self._torch
        autocast = torch.autocast("cuda", enabled=self.options["fp16"] and self.device.type == "cuda"
                                  and not self.options["load_vllm"])
        tokens = None
        try:
            with torch.inference_mode(), autocast:
                tokens = self.llm.inference(
                    text=model_input.text.to(self.device),
                    text_len=torch.tensor([model_input.text.shape[1]], dtype=torch.int32, device=self.device),
                    prompt_text=model_input.llm_prompt_text.to(self.device),
                    prompt_text_len=torch.tensor([model_input.llm_prompt_text.shape[1]], dtype=torch.int32,
                                                 device=self.device),
                    prompt_speech_token=model_input.llm_prompt_speech.to(self.device),
                    prompt_speech_token_len=torch.tensor([model_input.llm_prompt_speech.shape[1]], dtype=torch.int32,
                                                         device=self.device),
                    embedding=model_input.embedding.to(self.device),
                    uuid=uuid.uuid4().hex,
                )
                for token in tokens:
                    with stream.ready:
                        if stream.stop:
                            break
                        stream.tokens.append(int(token))
                        stream.ready.notify()
        except BaseException as error:  # noqa: BLE001 - handed to the job, which fails with it
            stream.error = error
        finally:
            if tokens is not None:
                tokens.close()
            with stream.ready:
                stream.done = True
                stream.ready.notify()

    def _wait_for_tokens(self, stream: TokenStream, needed: Callable[[], int], should_stop: StopCheck) -> None:
        """Block until ``needed()`` tokens exist, the LLM ended, or the job was stopped."""
        if self.hop_schedule == "upstream":
            # Upstream polls every 0.1 s and re-reads the shared hop at each poll.
            while True:
                time.sleep(UPSTREAM_POLL_S)
                with stream.ready:
                    if len(stream.tokens) >= needed() or stream.done or should_stop():
                        return
        count = needed()  # a job's own schedule does not move while it waits
        with stream.ready:
            while len(stream.tokens) < count and not stream.done and not should_stop():
                stream.ready.wait(STOP_CHECK_S)  # woken per token; the timeout only re-checks a stop

    def _stream(self, model_input: _ModelInput, speed: float, should_stop: StopCheck) -> Iterator[np.ndarray]:
        """Stream one segment: LLM tokens → flow mel per hop → HiFT audio with overlap."""
        stream = TokenStream()
        llm_thread = threading.Thread(target=self._run_llm, args=(model_input, stream), name="cosyvoice-llm",
                                      daemon=True)
        llm_thread.start()
        schedule = self._shared_hop if self.hop_schedule == "upstream" else HopSchedule()
        cache = _VocoderCache()
        prompt_len = int(model_input.flow_prompt_speech.shape[1])
        first_hop = schedule.hop()
        # Pad the first hop so prompt + first hop fills whole flow chunks, as the model was trained.
        pad = int(math.ceil(prompt_len / first_hop) * first_hop - prompt_len)
        offset = 0

        def this_hop() -> int:
            return schedule.hop() + (pad if offset == 0 else 0)

        def needed() -> int:
            return offset + this_hop() + self.lookahead

        try:
            while True:
                self._wait_for_tokens(stream, needed, should_stop)
                if should_stop():
                    return
                hop, count = this_hop(), needed()
                available, done = stream.head(count)
                if len(available) >= count:
                    pcm = self._token2wav(available, offset, model_input, cache, speed, finalize=False)
                    offset += hop
                    schedule.advance()  # before the chunk leaves, as upstream does
                    yield pcm
                elif done:
                    break
            with stream.ready:
                tokens = list(stream.tokens)
            if len(tokens) > offset or cache.mel is not None:
                yield self._token2wav(tokens, offset, model_input, cache, speed, finalize=True)
        finally:
            with stream.ready:
                stream.stop = True
            llm_thread.join()

    def _token2wav(self, tokens: list[int], offset: int, model_input: _ModelInput, cache: _VocoderCache,
                   speed: float, finalize: bool) -> np.ndarray:
        """Mel for the tokens after ``offset`` (flow), then audio (HiFT) overlapped with the last hop."""
        torch = self._torch
        from torch.nn import functional as F

        device = self.device
        token = torch.tensor([tokens], dtype=torch.int32, device=device)
        autocast = torch.autocast("cuda", enabled=self.options["fp16"] and device.type == "cuda")
        with torch.inference_mode():
            with autocast:
                mel, _ = self.flow.inference(
                    token=token,
                    token_len=torch.tensor([token.shape[1]], dtype=torch.int32, device=device),
                    prompt_token=model_input.flow_prompt_speech.to(device),
                    prompt_token_len=torch.tensor([model_input.flow_prompt_speech.shape[1]], dtype=torch.int32,
                                                  device=device),
                    prompt_feat=model_input.prompt_mel.to(device),
                    prompt_feat_len=torch.tensor([model_input.prompt_mel.shape[1]], dtype=torch.int32, device=device),
                    embedding=model_input.embedding.to(device),
                    streaming=True,
                    finalize=finalize,
                )
            mel = mel[:, :, offset * self.token_mel_ratio:].float()
            if speed != 1.0 and mel.shape[2] > 1:  # stretch this hop's new frames only
                mel = F.interpolate(mel, size=max(1, round(mel.shape[2] / speed)), mode="linear")
            if cache.mel is not None:
                mel = torch.cat([cache.mel, mel], dim=2)
                source = cache.source
            else:
                source = torch.zeros(1, 1, 0, device=device)
            speech, excitation = self.hift.inference(speech_feat=mel, cache_source=source)
            overlap = MEL_CACHE_FRAMES * SAMPLES_PER_MEL_FRAME
            if cache.speech is not None:  # cross-fade the re-synthesised overlap
                window = torch.from_numpy(np.hamming(2 * overlap).astype(np.float32)).to(speech.device)
                head = speech[:, :overlap] * window[:overlap] + cache.speech[:, -overlap:] * window[overlap:]
                speech = torch.cat([head, speech[:, overlap:]], dim=1)
            if not finalize:
                cache.mel = mel[:, :, -MEL_CACHE_FRAMES:]
                cache.source = excitation[:, :, -overlap:]
                cache.speech = speech[:, -overlap:]
                speech = speech[:, :-overlap]
        samples = cast(npt.NDArray[np.float32], speech.reshape(-1).float().cpu().numpy())  # torch is not installed where mypy runs
        return np.clip(samples, -1.0, 1.0).astype(np.float32)

    # --- batched stepping (max_batch > 1) -------------------------------------------------
    #
    # A job is a _BatchJob; step_batch computes the next hop of several jobs in one flow call
    # and one vocoder call (engine.synthesis.batching chooses which). Their tokens come from the batched
    # LLM (or, with vLLM, from one upstream LLM thread per segment, which vLLM batches).

    def start(self, text: str, profile: VoiceProfile, settings: VoiceSettings, should_stop: StopCheck,
              first_piece_chars: int = FIRST_PIECE_CHARS, seed: int | None = None) -> _BatchJob:
        """A job's state for :meth:`step_batch`; its first segment starts decoding at once.

        ``seed`` (default: :func:`engine.core.protocol.synthesis_seed`) seeds the job's
        token sampling and its vocoder excitation, so its audio does not depend on its batch."""
        if not self._loaded:
            raise EngineError(ErrorCode.BACKEND, "CosyVoice2 is not loaded")
        has_transcript = len(profile.conditioning.get("prompt_text_tokens", ())) > 0
        prompt_script = str(profile.meta.get("transcript_script", "")) if has_transcript else ""
        segments = []
        for piece in self._pieces(text):
            tokens = self._encode(piece.text)
            if tokens:
                mode = choose_mode(piece.text, prompt_script, settings)
                segments.append((piece.text, self._model_input(tokens, profile, mode, settings.instruction)))
        job = _BatchJob(segments=segments, speed=float(np.clip(settings.speed or 1.0, *SPEED_RANGE)),
                        seed=synthesis_seed(profile.key, text, settings) if seed is None else seed,
                        should_stop=should_stop)
        self._begin_segment(job)
        return job

    def step_ready(self, job: _BatchJob) -> bool:
        """Whether the job's next hop can be computed without waiting for the LLM."""
        if job.stream is None or job.finished:
            return True
        with job.stream.ready:
            return job.stream.done or len(job.stream.tokens) >= self._needed(job)

    def wait_ready(self, job: _BatchJob) -> None:
        """Block until :meth:`step_ready` (or the job was stopped)."""
        if job.stream is not None and not job.finished:
            self._wait_for_tokens(job.stream, lambda: self._needed(job), job.should_stop)

    def close(self, job: _BatchJob) -> None:
        """End the job early: its LLM sequence leaves the batch at the next step."""
        job.finished = True
        self._end_segment(job)

    def step_batch(self, jobs: list[_BatchJob]) -> list[SpokenPiece | BaseException | None]:
        """The next piece of every job (None: it has ended; an exception: it failed), with
        the flow and the vocoder each called once for all of them. A failing batched call is
        retried one job at a time, so only the job at fault fails."""
        results: list[SpokenPiece | BaseException | None] = [None] * len(jobs)
        hops: list[tuple[int, _Hop]] = []
        for index, job in enumerate(jobs):
            try:
                hop = self._next_hop(job)
            except BaseException as error:  # noqa: BLE001 - this job fails, the others go on
                self.close(job)
                results[index] = error
                continue
            if hop is not None:
                hops.append((index, hop))
        if not hops:
            return results
        outputs: list[tuple[np.ndarray, _VocoderCache] | None]
        try:
            outputs = list(self._compute_hops([hop for _, hop in hops]))
        except Exception as error:  # noqa: BLE001 - find the job at fault: one at a time
            if len(hops) == 1:
                self.close(hops[0][1].job)
                results[hops[0][0]] = error
                return results
            outputs = []
            for index, hop in hops:
                try:
                    outputs.append(self._compute_hops([hop])[0])
                except Exception as own:  # noqa: BLE001 - only this job fails
                    self.close(hop.job)
                    results[index] = own
                    outputs.append(None)
        for (index, hop), output in zip(hops, outputs):
            if output is not None:
                results[index] = self._after_hop(hop, *output)
        return results

    def _steps_of_one(self, job: _BatchJob) -> Iterator[SpokenPiece]:
        try:
            while True:
                result = self.step_batch([job])[0]
                if result is None:
                    return
                if isinstance(result, BaseException):
                    raise result
                yield result
                if result.last:
                    return
        finally:
            self.close(job)

    def _needed(self, job: _BatchJob) -> int:
        return job.offset + self._this_hop(job) + self.lookahead

    def _this_hop(self, job: _BatchJob) -> int:
        return job.schedule.hop() + (job.pad if job.offset == 0 else 0)

    def _begin_segment(self, job: _BatchJob) -> None:
        """Start decoding the job's next segment (none left: the job has finished)."""
        if job.index >= len(job.segments):
            job.stream, job.finished = None, True
            return
        _, model_input = job.segments[job.index]
        job.schedule, job.cache, job.offset = HopSchedule(), _VocoderCache(), 0
        prompt_len = int(model_input.flow_prompt_speech.shape[1])
        first_hop = job.schedule.hop()
        job.pad = int(math.ceil(prompt_len / first_hop) * first_hop - prompt_len)
        if self._decoder is None:  # vLLM: upstream's LLM per segment, batched inside vLLM
            job.stream = TokenStream()
            job.llm_thread = threading.Thread(target=self._run_llm, args=(model_input, job.stream),
                                              name="cosyvoice-llm", daemon=True)
            job.llm_thread.start()
            return
        job.stream = self._decoder.submit(self._sequence(model_input, job.seed + job.index))

    def _end_segment(self, job: _BatchJob) -> None:
        if job.stream is not None:
            with job.stream.ready:
                job.stream.stop = True
        if job.llm_thread is not None:
            job.llm_thread.join()
            job.llm_thread = None

    def _sequence(self, model_input: _ModelInput, seed: int) -> Sequence:
        """Upstream's LLM input for one segment (Qwen2LM.inference): sos, prompt text + text,
        task id, prompt speech tokens; with upstream's length bounds."""
        torch = self._torch
        llm = self.llm
        with torch.inference_mode():
            text = torch.cat([model_input.llm_prompt_text, model_input.text], dim=1).to(self.device)
            embedded = llm.llm.model.model.embed_tokens(text)
            sos = llm.llm_embedding.weight[llm.sos_eos].reshape(1, 1, -1)
            task = llm.llm_embedding.weight[llm.task_id].reshape(1, 1, -1)
            speech = llm.speech_embedding(model_input.llm_prompt_speech.to(self.device))
            lm_input = torch.cat([sos, embedded, task, speech], dim=1)
        text_len = int(model_input.text.shape[1])
        limit = getattr(llm, "speech_token_limit", None)  # the synthetic model's stop
        return Sequence(lm_input=lm_input, min_len=int(text_len * MIN_TOKEN_TEXT_RATIO),
                        max_len=int(text_len * MAX_TOKEN_TEXT_RATIO), seed=seed,
                        max_tokens=limit(text_len) if limit is not None else None)

    def _next_hop(self, job: _BatchJob) -> _Hop | None:
        """Wait for the job's next hop of tokens; None when the job has ended or was stopped."""
        while not job.finished:
            stream = job.stream
            assert stream is not None
            self._wait_for_tokens(stream, lambda: self._needed(job), job.should_stop)
            if job.should_stop():
                self.close(job)
                return None
            count = self._needed(job)
            available, done = stream.head(count)
            if len(available) >= count:
                return _Hop(job, available, job.offset, self._this_hop(job), False, self._hop_seed(job))
            if done:
                with stream.ready:
                    tokens = list(stream.tokens)
                if len(tokens) > job.offset or job.cache.mel is not None:
                    return _Hop(job, tokens, job.offset, 0, True, self._hop_seed(job))
                self._next_segment(job)  # nothing left to say in this segment
        return None

    @staticmethod
    def _hop_seed(job: _BatchJob) -> int:
        return job.seed + 7919 * (job.hops + 1)  # the vocoder excitation's, one per hop

    def _next_segment(self, job: _BatchJob) -> None:
        self._end_segment(job)
        job.index += 1
        self._begin_segment(job)

    def _compute_hops(self, hops: list[_Hop]) -> list[tuple[np.ndarray, _VocoderCache]]:
        """Flow and vocoder for several jobs' hops at once: the audio of each and its next
        vocoder cache (applied by _after_hop, so a failed call changes no job)."""
        torch = self._torch
        from torch.nn import functional as F

        device = self.device
        rows = []
        for hop in hops:
            model_input = hop.job.segments[hop.job.index][1]
            rows.append(FlowRow(
                tokens=torch.tensor([hop.tokens], dtype=torch.int32, device=device),
                prompt_token=model_input.flow_prompt_speech.to(device),
                prompt_feat=model_input.prompt_mel.to(device),
                embedding=model_input.embedding.to(device),
                finalize=hop.finalize,
            ))
        with torch.inference_mode():
            with self._autocast():
                mels: list[Any] = [None] * len(rows)
                for group in padding_groups([len(r.tokens[0]) + len(r.prompt_token[0]) for r in rows],
                                            FLOW_PADDING[device.type]):
                    for index, mel in zip(group, flow_mels(torch, self.flow, [rows[i] for i in group])):
                        mels[index] = mel
            vocoder_rows = []
            for hop, mel in zip(hops, mels):
                job = hop.job
                mel = mel[:, :, hop.offset * self.token_mel_ratio:].float()
                if job.speed != 1.0 and mel.shape[2] > 1:  # stretch this hop's new frames only
                    mel = F.interpolate(mel, size=max(1, round(mel.shape[2] / job.speed)), mode="linear")
                if job.cache.mel is not None:
                    mel = torch.cat([job.cache.mel, mel], dim=2)
                    source = job.cache.source
                else:
                    source = torch.zeros(1, 1, 0, device=device)
                vocoder_rows.append(VocoderRow(mel=mel, cache_source=source, seed=hop.seed))
            speeches = vocode(torch, self.hift, vocoder_rows)
            outputs = []
            overlap = MEL_CACHE_FRAMES * SAMPLES_PER_MEL_FRAME
            for hop, row, (speech, excitation) in zip(hops, vocoder_rows, speeches):
                cache = hop.job.cache
                if cache.speech is not None:  # cross-fade the re-synthesised overlap
                    window = torch.from_numpy(np.hamming(2 * overlap).astype(np.float32)).to(speech.device)
                    head = speech[:, :overlap] * window[:overlap] + cache.speech[:, -overlap:] * window[overlap:]
                    speech = torch.cat([head, speech[:, overlap:]], dim=1)
                following = _VocoderCache()
                if not hop.finalize:
                    following = _VocoderCache(row.mel[:, :, -MEL_CACHE_FRAMES:], excitation[:, :, -overlap:],
                                              speech[:, -overlap:])
                    speech = speech[:, :-overlap]
                pcm = np.clip(speech.reshape(-1).float().cpu().numpy(), -1.0, 1.0).astype(np.float32)
                outputs.append((pcm, following))
        return outputs

    def _after_hop(self, hop: _Hop, pcm: np.ndarray, following: _VocoderCache) -> SpokenPiece | BaseException:
        """Advance the job past a computed hop; the piece it makes (last when nothing follows)."""
        job = hop.job
        job.cache = following
        job.hops += 1
        text = job.segments[job.index][0]
        if hop.finalize:
            self._next_segment(job)
        else:
            job.offset += hop.hop
            job.schedule.advance()
        job.spoken = job.spoken or len(pcm) > 0
        if job.finished and not job.spoken:
            return EngineError(ErrorCode.NOTHING_SPEAKABLE, "The text produced no speech")
        return SpokenPiece(pcm=pcm, text=text, last=job.finished)


@dataclass(eq=False)
class _BatchJob:
    """One job between batched steps: its segments, the current one's tokens and vocoder cache."""

    segments: list[tuple[str, _ModelInput]]
    speed: float
    seed: int
    should_stop: StopCheck
    index: int = 0  # the segment being spoken
    stream: TokenStream | None = None
    llm_thread: threading.Thread | None = None  # vLLM only
    schedule: HopSchedule = field(default_factory=HopSchedule)
    cache: _VocoderCache = field(default_factory=_VocoderCache)
    offset: int = 0  # tokens of this segment already turned into audio
    pad: int = 0  # the first hop's padding to whole flow chunks
    hops: int = 0  # hops computed, for the vocoder's seeds
    spoken: bool = False
    finished: bool = False


@dataclass(frozen=True)
class _Hop:
    """What one job's next piece needs: its tokens so far, where the new ones start, the hop."""

    job: _BatchJob
    tokens: list[int]
    offset: int
    hop: int
    finalize: bool
    seed: int  # the vocoder excitation's
