"""The onnxruntime session both speaker encoders (GE2E and CAM++) run in, opened and checked once."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.codes import EngineError, ErrorCode

if TYPE_CHECKING:
    import onnxruntime


def open_encoder_session(model_path: Path, title: str, threads: int, feature: tuple[str, int],
                         embedding: tuple[str, int]) -> onnxruntime.InferenceSession:
    """The encoder ``title`` (e.g. "GE2E") from ``model_path``, its one input ``feature`` (name,
    last dimension) and one output ``embedding`` (name, size) checked; E_BACKEND, saying what to
    do, when the file is missing, damaged or another network."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # The pool stops spinning after each call, so it takes no core from synthesis beside it.
    options.add_session_config_entry("session.force_spinning_stop", "1")
    # Clips differ in length; the arena keeps the largest tensors it has seen for good (GE2E on
    # 40 clips of 1-30 s: RSS +69 MB with it, +45 MB without; Piper's too).
    options.enable_cpu_mem_arena = False
    try:
        session = onnxruntime.InferenceSession(str(model_path), sess_options=options,
                                               providers=["CPUExecutionProvider"])
    except Exception as error:  # a missing or damaged file: onnxruntime raises its own kinds
        raise EngineError(ErrorCode.BACKEND, f"the {title} speaker encoder cannot be loaded from "
                                             f"{model_path} ({error}); reinstall DubStudio") from error
    inputs = [(i.name, i.shape[-1]) for i in session.get_inputs()]
    outputs = [(o.name, o.shape[-1]) for o in session.get_outputs()]
    if inputs != [feature] or outputs != [embedding]:
        raise EngineError(ErrorCode.BACKEND, f"{model_path.name} is not the {title} speaker encoder "
                                             f"(inputs {inputs}, outputs {outputs})")
    return session
