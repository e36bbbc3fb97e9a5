"""Finding, checking and downloading CosyVoice2-0.5B model folders (no Qt, no torch).

The studio's model manager (a dialog, later) and ``dubstudio cosyvoice validate|download``
call into this module. Validation reads only file names, sizes, JSON, the YAML text and zip
directories, so it is cheap enough to run whenever a folder is picked, and it names every
missing or mismatched file with what to do about it. ``deep=True`` also opens the two ONNX
models with onnxruntime and checks their input and output signatures.

Downloads use the model hub's own client (huggingface_hub, or modelscope where installed),
which resumes partial files; progress is reported by watching bytes land on disk, so it works
across client versions.
"""

from __future__ import annotations

import json
import re
import time
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.core.downloads import (
    DownloadError,
    Problem,
    ProgressCallback,
    ValidationReport,
    download_from_hub,
)
from engine.core.protocol import EnginePhrase

HF_REPO = "FunAudioLLM/CosyVoice2-0.5B"
MODELSCOPE_REPO = "iic/CosyVoice2-0.5B"
CONFIG = "cosyvoice2.yaml"
BLANK = "CosyVoice-BlankEN"

# Files the backend cannot start without, and why each exists.
REQUIRED = {
    CONFIG: "the model config",
    "llm.pt": "the text-to-speech-token LLM weights",
    "flow.pt": "the flow-matching (token-to-mel) weights",
    "hift.pt": "the HiFT vocoder weights",
    "campplus.onnx": "the CAM++ speaker encoder",
    "speech_tokenizer_v2.onnx": "the speech tokenizer (v2)",
    f"{BLANK}/config.json": "the Qwen2 backbone config",
}
# Needed only with one of upstream's GPU options.
OPTIONAL = {
    "flow.encoder.fp32.zip": "load_jit",
    "flow.encoder.fp16.zip": "load_jit with fp16",
    "flow.decoder.estimator.fp32.onnx": "load_trt",
}
SYNTHETIC_MARKER = "synthetic.json"  # written last by cosyvoice_synthetic.build
SYNTHETIC_BANNER = "random weights: speech is noise; for speed and hardware probes only"
SYNTHETIC_FOLDER = "Synthetic {size} model folder ({folder}): {banner}."  # the studio says it (EnginePhrase)
EXPECTED_CLASSES = ("Qwen2LM", "CausalMaskedDiffWithXvec", "HiFTGenerator")
# Signatures of the two frontend models: (input ranks, output ranks).
ONNX_SIGNATURES = {
    "campplus.onnx": ([3], [2]),
    "speech_tokenizer_v2.onnx": ([3, 1], [2]),
}


def _check_zip(path: Path) -> str | None:
    """torch checkpoints are zip archives: a truncated download has no readable directory."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError) as error:
        return f"not a readable torch checkpoint ({error}); the download is probably incomplete: download it again"
    if not any(name.endswith("data.pkl") for name in names):
        return "a zip file without a torch state dict inside"
    return None


def _check_yaml(text: str, report: ValidationReport) -> None:
    for name in EXPECTED_CLASSES:
        if not re.search(rf"!new:[\w.]*\b{name}\b", text):
            report.problems.append(Problem(CONFIG, f"does not build {name}: not a CosyVoice2 config"))
    rate = re.search(r"^sample_rate:\s*(\d+)", text, re.MULTILINE)
    if rate is None or rate.group(1) != "24000":
        report.problems.append(Problem(CONFIG, "sample_rate is not 24000: not a CosyVoice2 config"))
    hidden = re.search(r"^llm_input_size:\s*(\d+)", text, re.MULTILINE)
    if hidden:
        report.facts["llm_hidden_size"] = int(hidden.group(1))


def _check_backbone(folder: Path, report: ValidationReport) -> None:
    blank = folder / BLANK
    config_path = blank / "config.json"
    if config_path.is_file():
        try:
            config = json.loads(config_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            report.problems.append(Problem(f"{BLANK}/config.json", f"unreadable JSON ({error})"))
            return
        if config.get("model_type") != "qwen2":
            report.problems.append(Problem(f"{BLANK}/config.json",
                                           f"model_type is {config.get('model_type')!r}, expected 'qwen2'"))
        hidden = report.facts.get("llm_hidden_size")
        if hidden is not None and config.get("hidden_size") != hidden:
            report.problems.append(Problem(
                f"{BLANK}/config.json",
                f"hidden_size {config.get('hidden_size')} differs from llm_input_size {hidden} in {CONFIG}",
            ))
        report.facts["backbone_layers"] = config.get("num_hidden_layers")
    weights = [name for name in ("model.safetensors", "pytorch_model.bin") if (blank / name).is_file()]
    if not weights:
        report.problems.append(Problem(f"{BLANK}/model.safetensors", "missing: the Qwen2 backbone is loaded from it"))
    has_bpe = (blank / "vocab.json").is_file() and (blank / "merges.txt").is_file()
    if not has_bpe and not (blank / "tokenizer.json").is_file():
        report.problems.append(Problem(f"{BLANK}/vocab.json",
                                       "missing tokenizer: need vocab.json and merges.txt (or tokenizer.json)"))


def _check_onnx(folder: Path, report: ValidationReport) -> None:
    try:
        import onnxruntime
    except ImportError:
        report.warnings.append(Problem("*.onnx", "onnxruntime is not installed here: signatures not checked"))
        return
    for name, (input_ranks, output_ranks) in ONNX_SIGNATURES.items():
        path = folder / name
        if not path.is_file() or path.stat().st_size == 0:
            continue
        try:
            session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        except Exception as error:  # noqa: BLE001 - any load failure is a broken file
            report.problems.append(Problem(name, f"onnxruntime cannot load it ({str(error)[:200]})"))
            continue
        got_in = [len(item.shape) for item in session.get_inputs()]
        got_out = [len(item.shape) for item in session.get_outputs()[:1]]
        if got_in != input_ranks or got_out != output_ranks:
            report.problems.append(Problem(
                name, f"signature mismatch: inputs of rank {got_in}, output of rank {got_out}; "
                      f"expected inputs {input_ranks}, output {output_ranks}",
            ))


def _check_required(folder: Path, report: ValidationReport) -> None:
    """Every required file is there, not empty, and each checkpoint a readable zip."""
    for name, why in REQUIRED.items():
        path = folder / name
        if not path.is_file():
            hint = ""
            if name == "speech_tokenizer_v2.onnx" and (folder / "speech_tokenizer_v1.onnx").is_file():
                hint = " (only v1 is here: that belongs to CosyVoice 1)"
            report.problems.append(Problem(name, f"missing ({why}){hint}"))
        elif path.stat().st_size == 0:
            report.problems.append(Problem(name, "empty file: download it again"))
        elif name.endswith(".pt"):
            trouble = _check_zip(path)
            if trouble:
                report.problems.append(Problem(name, trouble))


def _check_optional(folder: Path, options: dict[str, Any], report: ValidationReport) -> None:
    """An optional file is a problem when the options use it, else a warning that it is absent."""
    precision = "fp16" if options.get("fp16") else "fp32"
    needed = {f"flow.encoder.{precision}.zip": options.get("load_jit"),
              "flow.decoder.estimator.fp32.onnx": options.get("load_trt")}
    for name, used_by in OPTIONAL.items():
        if (folder / name).is_file():
            continue
        if needed.get(name):
            report.problems.append(Problem(name, f"missing: needed for {used_by}"))
        else:
            report.warnings.append(Problem(name, f"absent (only needed for {used_by})"))


def validate_model_dir(folder: str | Path, options: dict[str, Any] | None = None,
                       deep: bool = False) -> ValidationReport:
    """Check a CosyVoice2-0.5B folder and say precisely what is missing or mismatched.

    ``options`` are the backend's (fp16, load_jit, load_trt): files they need become required.
    """
    folder = Path(folder).expanduser()
    report = ValidationReport(str(folder))
    if not folder.is_dir():
        report.problems.append(Problem(str(folder), "no such folder"))
        return report
    options = options or {}
    if not (folder / CONFIG).is_file():
        for other, what in (("cosyvoice.yaml", "CosyVoice 1 (300M)"), ("cosyvoice3.yaml", "CosyVoice3")):
            if (folder / other).is_file():
                report.problems.append(Problem(other, f"this is a {what} model; this backend needs CosyVoice2-0.5B"))
                return report
    _check_required(folder, report)
    if (folder / CONFIG).is_file():
        _check_yaml((folder / CONFIG).read_text(encoding="utf-8", errors="replace"), report)
    _check_backbone(folder, report)
    _check_optional(folder, options, report)
    leftovers = [str(p.relative_to(folder)) for p in folder.rglob("*.incomplete")]
    if leftovers:
        report.warnings.append(Problem(leftovers[0], f"{len(leftovers)} partial download(s): run the download again"))
    kind = model_kind(folder)
    banner = synthetic_banner(model_facts(folder))
    if banner is not None:
        report.warnings.append(Problem(SYNTHETIC_MARKER, banner))
        report.facts["synthetic"] = True
    report.facts["kind"] = kind
    if deep:
        _check_onnx(folder, report)
    report.facts["size_bytes"] = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return report


def model_kind(folder: str | Path) -> dict[str, Any]:
    """``{"kind": "synthetic", "size": "tiny"|"full"}`` for a folder built with random weights
    (it carries the builder's marker), ``{"kind": "real"}`` for any other, ``{"kind": "missing"}``
    when there is no folder. Reports and the studio's banners say which one ran."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        return {"kind": "missing"}
    marker = folder / SYNTHETIC_MARKER
    if not marker.is_file():
        return {"kind": "real"}
    try:
        size = json.loads(marker.read_text(encoding="utf-8")).get("size", "unknown")
    except (OSError, ValueError, AttributeError):
        size = "unknown"
    return {"kind": "synthetic", "size": str(size)}


def model_facts(folder: str | Path) -> dict[str, Any]:
    """What a model folder is, named as in an engine's facts: model_dir, model_kind, model_size."""
    return {"model_dir": str(folder), **{f"model_{key}": value for key, value in model_kind(folder).items()}}


def synthetic_banner(facts: Mapping[str, Any]) -> str | None:
    """The one warning for a model folder of random weights, from an engine's facts
    (EngineReady.facts, a bench report's engine, :func:`model_facts`); None for any other."""
    if facts.get("model_kind") != "synthetic":
        return None
    return EnginePhrase(SYNTHETIC_FOLDER, size=facts.get("model_size", ""), folder=facts.get("model_dir", ""),
                        banner=EnginePhrase(SYNTHETIC_BANNER))


# --- downloads ---------------------------------------------------------------------------------


def download_model(
    target: str | Path,
    repo_id: str = HF_REPO,
    source: str = "huggingface",
    endpoint: str | None = None,
    revision: str | None = None,
    progress: ProgressCallback | None = None,
    should_stop: Callable[[], bool] | None = None,
    interval_s: float = 0.5,
) -> ValidationReport:
    """Download (or finish downloading) a CosyVoice2 folder into ``target`` and validate it:
    from the Hugging Face hub (resumable; ``endpoint`` for a mirror or a local test server),
    or from ModelScope where its client is installed."""
    if source == "modelscope":
        return _download_modelscope(Path(target).expanduser(), repo_id if repo_id != HF_REPO else MODELSCOPE_REPO,
                                    revision)
    if source != "huggingface":
        raise DownloadError(f"unknown source {source!r}; use huggingface or modelscope")
    return download_from_hub(target, repo_id, validate_model_dir, endpoint=endpoint, revision=revision,
                             progress=progress, should_stop=should_stop, interval_s=interval_s)


def _download_modelscope(target: Path, repo_id: str, revision: str | None) -> ValidationReport:
    try:
        from modelscope import snapshot_download
    except ImportError as error:
        raise DownloadError("modelscope is not installed here; use --source huggingface") from error
    started = time.monotonic()
    snapshot_download(repo_id, revision=revision or "master", local_dir=str(target))
    report = validate_model_dir(target)
    report.facts["download_s"] = round(time.monotonic() - started, 1)
    return report
