"""A synthetic CosyVoice2-0.5B model folder: the real layout and classes, random weights.

The real weights cannot be downloaded on the build machines, yet the backend must be tested
on the real CosyVoice code. This module writes a folder in the released layout
(``cosyvoice2.yaml``, ``llm.pt``, ``flow.pt``, ``hift.pt``, ``campplus.onnx``,
``speech_tokenizer_v2.onnx``, ``CosyVoice-BlankEN/``) whose config names upstream's own
classes — at a reduced size (``tiny``, for tests) or at the released size (``full``, for
timing). The ONNX files are stand-ins with the real models' input and output signatures, and
the tokenizer is a byte-level BPE trained here on a built-in English text.

Random weights almost never sample end-of-speech, so the config names :class:`Qwen2LM` below,
a subclass of upstream's LLM that ends speech after a length proportional to the text (about
25 speech tokens per second at a natural speaking rate); everything it computes per token is
upstream's. Run as ``python -m engine.synthesis.backends.cosyvoice_synthetic DIR --size tiny`` inside
the CosyVoice environment (``dubstudio cosyvoice synthetic`` does that).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict, cast

from engine.synthesis.backends.cosyvoice_models import SYNTHETIC_MARKER

SPEECH_TOKEN_RATE = 25.0  # CosyVoice2 speech tokens per second of audio
CHARS_PER_SECOND = 15.0  # English read at ~150 words per minute, spaces and punctuation included
SPEECH_TOKEN_VOCAB = 6561
SIZES = ("tiny", "full")

# A built-in English text for training the tokenizer and calibrating the speaking rate.
_CORPUS = """\
The morning light crept over the harbour while the fishing boats returned with their catch.
She opened the letter slowly, afraid of what it might say, and read it twice before speaking.
Nobody in the village remembered a winter as long and as quiet as that one.
We will need at least three more days to finish the bridge, said the engineer, looking at the river.
Please keep your tickets ready; the train to the coast leaves from platform four in ten minutes.
He laughed, shook his head, and told them the whole story again from the very beginning.
Thank you for calling. All of our agents are busy right now, but your call is important to us.
The old clock in the hall struck midnight, and somewhere upstairs a door closed softly.
If you look to your left, you can see the tower where the king kept his most valuable books.
Why would anyone leave a perfectly good bicycle in the middle of the road on a rainy evening?
I never said it would be easy. I only said it would be worth it, and I still believe that.
The results of the experiment surprised everyone, including the scientists who designed it.
Turn right at the bakery, walk past the school, and you will find the museum on the corner.
Our captain says the storm will pass before dawn, but the sailors are not so sure.
Every summer the children built a small raft and tried to cross the lake before lunch.
Listen carefully: the password changes every hour, and the guards never repeat a word.
What a wonderful surprise! I had no idea you were coming home this weekend.
The company announced a new line of electric cars that can travel further on a single charge.
Meanwhile, in the kitchen, the soup was boiling over and the cat was watching with interest.
Do not worry about the details now; we can talk about them tomorrow over breakfast.
"""
# Sentences the tokenizer never saw, for calibrating the speaking rate on text like a user's.
_HELD_OUT = """\
Hello there, how are you doing today?
The quick brown fox jumps over the lazy dog near the riverbank.
Cancel this job before it finishes, please.
Four voices speaking at once should still sound clear and arrive quickly.
In the final scene, the detective finally reveals who took the painting.
My grandmother grew tomatoes, beans and sunflowers behind her little house.
"""


def _make_qwen2lm() -> type:
    """Upstream's Qwen2LM whose speech ends after ``speech_tokens_per_text_token`` × text tokens.

    Upstream's ``get_model_type`` and checkpoints key on the class name, hence the same name.
    Only the stopping point differs: the tokens are upstream's, sampled by upstream's code.
    Built on first access (see ``__getattr__``) so that importing this module stays cheap.
    """
    from cosyvoice.llm.llm import Qwen2LM as Upstream

    class Qwen2LM(Upstream):  # type: ignore[misc]  # cosyvoice has no type hints: its class is Any
        def __init__(self, *args: Any, speech_tokens_per_text_token: float = 6.0, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.speech_tokens_per_text_token = float(speech_tokens_per_text_token)

        def speech_token_limit(self, text_tokens: int) -> int:
            """Where this model's speech ends; DubStudio's batched decoder reads it too."""
            return max(1, round(text_tokens * self.speech_tokens_per_text_token))

        def inference(self, text: Any, text_len: Any, *args: Any, **kwargs: Any) -> Iterator[int]:
            limit = self.speech_token_limit(int(text_len.reshape(-1)[0]))
            tokens = super().inference(text, text_len, *args, **kwargs)
            try:
                for count, token in enumerate(tokens, start=1):
                    yield token
                    if count >= limit:
                        break
            finally:
                tokens.close()

    Qwen2LM.__module__ = __name__
    Qwen2LM.__qualname__ = "Qwen2LM"
    return Qwen2LM


def __getattr__(name: str) -> Any:
    """``engine.synthesis.backends.cosyvoice_synthetic.Qwen2LM``, named by the synthetic config."""
    if name == "Qwen2LM":
        cls = globals()["Qwen2LM"] = _make_qwen2lm()
        return cls
    raise AttributeError(name)


# --- sizes -----------------------------------------------------------------------------------

# The released Qwen2-0.5B backbone (CosyVoice-BlankEN/config.json).
_QWEN_FULL = dict(
    hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
    num_key_value_heads=2, vocab_size=151936, max_position_embeddings=32768, rope_theta=1000000.0,
    rms_norm_eps=1e-6, tie_word_embeddings=True, max_window_layers=21, sliding_window=32768,
    use_sliding_window=False, hidden_act="silu", torch_dtype="bfloat16",
)
_QWEN_TINY = dict(
    hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
    num_key_value_heads=2, max_position_embeddings=4096, rope_theta=1000000.0, rms_norm_eps=1e-6,
    tie_word_embeddings=True, hidden_act="silu", torch_dtype="float32",
)
# Flow and HiFT sizes; the flow encoder stays 512 wide (upstream hard-codes it in upsampling).
_FLOW = {
    "full": dict(enc_heads=8, enc_units=2048, enc_blocks=6, dec_channels=256, dec_blocks=4,
                 dec_mid_blocks=12, dec_heads=8, dec_head_dim=64),
    "tiny": dict(enc_heads=4, enc_units=256, enc_blocks=1, dec_channels=64, dec_blocks=1,
                 dec_mid_blocks=1, dec_heads=2, dec_head_dim=32),
}
_HIFT = {"full": dict(base_channels=512), "tiny": dict(base_channels=64)}
_BPE_VOCAB = 2000

_YAML = """\
# Synthetic CosyVoice2 config written by DubStudio (engine/synthesis/backends/cosyvoice_synthetic.py):
# upstream's classes with random weights; size {size}. Not a usable voice model.
__set_seed1: !apply:random.seed [1986]
__set_seed2: !apply:numpy.random.seed [1986]
__set_seed3: !apply:torch.manual_seed [1986]

sample_rate: 24000
llm_input_size: {hidden}
llm_output_size: {hidden}
spk_embed_dim: 192
qwen_pretrain_path: ''
token_frame_rate: 25
token_mel_ratio: 2
chunk_size: 25
num_decoding_left_chunks: -1

llm: !new:engine.synthesis.backends.cosyvoice_synthetic.Qwen2LM
    llm_input_size: !ref <llm_input_size>
    llm_output_size: !ref <llm_output_size>
    speech_token_size: 6561
    length_normalized_loss: True
    lsm_weight: 0
    mix_ratio: [5, 15]
    speech_tokens_per_text_token: {ratio:.4f}
    llm: !new:cosyvoice.llm.llm.Qwen2Encoder
        pretrain_path: !ref <qwen_pretrain_path>
    sampling: !name:cosyvoice.utils.common.ras_sampling
        top_p: 0.8
        top_k: 25
        win_size: 10
        tau_r: 0.1

flow: !new:cosyvoice.flow.flow.CausalMaskedDiffWithXvec
    input_size: 512
    output_size: 80
    spk_embed_dim: !ref <spk_embed_dim>
    output_type: 'mel'
    vocab_size: 6561
    input_frame_rate: !ref <token_frame_rate>
    only_mask_loss: True
    token_mel_ratio: !ref <token_mel_ratio>
    pre_lookahead_len: 3
    encoder: !new:cosyvoice.transformer.upsample_encoder.UpsampleConformerEncoder
        output_size: 512
        attention_heads: {enc_heads}
        linear_units: {enc_units}
        num_blocks: {enc_blocks}
        dropout_rate: 0.1
        positional_dropout_rate: 0.1
        attention_dropout_rate: 0.1
        normalize_before: True
        input_layer: 'linear'
        pos_enc_layer_type: 'rel_pos_espnet'
        selfattention_layer_type: 'rel_selfattn'
        input_size: 512
        use_cnn_module: False
        macaron_style: False
        static_chunk_size: !ref <chunk_size>
    decoder: !new:cosyvoice.flow.flow_matching.CausalConditionalCFM
        in_channels: 240
        n_spks: 1
        spk_emb_dim: 80
        cfm_params: !new:omegaconf.DictConfig
            content:
                sigma_min: 1e-06
                solver: 'euler'
                t_scheduler: 'cosine'
                training_cfg_rate: 0.2
                inference_cfg_rate: 0.7
                reg_loss_type: 'l1'
        estimator: !new:cosyvoice.flow.decoder.CausalConditionalDecoder
            in_channels: 320
            out_channels: 80
            channels: [{dec_channels}]
            dropout: 0.0
            attention_head_dim: {dec_head_dim}
            n_blocks: {dec_blocks}
            num_mid_blocks: {dec_mid_blocks}
            num_heads: {dec_heads}
            act_fn: 'gelu'
            static_chunk_size: !ref <chunk_size> * <token_mel_ratio>
            num_decoding_left_chunks: !ref <num_decoding_left_chunks>

hift: !new:cosyvoice.hifigan.generator.HiFTGenerator
    in_channels: 80
    base_channels: {base_channels}
    nb_harmonics: 8
    sampling_rate: !ref <sample_rate>
    nsf_alpha: 0.1
    nsf_sigma: 0.003
    nsf_voiced_threshold: 10
    upsample_rates: [8, 5, 3]
    upsample_kernel_sizes: [16, 11, 7]
    istft_params:
        n_fft: 16
        hop_len: 4
    resblock_kernel_sizes: [3, 7, 11]
    resblock_dilation_sizes: [[1, 3, 5], [1, 3, 5], [1, 3, 5]]
    source_resblock_kernel_sizes: [7, 7, 11]
    source_resblock_dilation_sizes: [[1, 3, 5], [1, 3, 5], [1, 3, 5]]
    lrelu_slope: 0.1
    audio_limit: 0.99
    f0_predictor: !new:cosyvoice.hifigan.f0_predictor.ConvRNNF0Predictor
        num_class: 1
        in_channels: 80
        cond_channels: {base_channels}

get_tokenizer: !name:cosyvoice.tokenizer.tokenizer.get_qwen_tokenizer
    token_path: !ref <qwen_pretrain_path>
    skip_special_tokens: True
allowed_special: 'all'
feat_extractor: !name:matcha.utils.audio.mel_spectrogram
    n_fft: 1920
    num_mels: 80
    sampling_rate: !ref <sample_rate>
    hop_size: 480
    win_size: 1920
    fmin: 0
    fmax: 8000
    center: False
"""


# --- the pieces --------------------------------------------------------------------------------


def _train_tokenizer(blank_dir: Path) -> Any:
    """Train a byte-level BPE on the built-in text and save it as a Qwen2 tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import Qwen2TokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=_BPE_VOCAB, special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    bpe.train_from_iterator(_CORPUS.splitlines() * 4, trainer=trainer)
    tokenizer = Qwen2TokenizerFast(
        tokenizer_object=bpe, eos_token="<|endoftext|>", pad_token="<|endoftext|>",
        unk_token=None, bos_token=None,
    )
    tokenizer.save_pretrained(str(blank_dir))
    return tokenizer


def _speech_tokens_per_text_token(tokenizer: Any) -> float:
    """Speech tokens per text token that make the synthetic speech last as long as real speech."""
    lines = [line for line in _HELD_OUT.splitlines() if line]
    chars = sum(len(line) for line in lines)
    tokens = sum(len(tokenizer(line)["input_ids"]) for line in lines)
    return SPEECH_TOKEN_RATE * (chars / tokens) / CHARS_PER_SECOND


def _save_backbone(blank_dir: Path, size: str, vocab: int) -> None:
    """A randomly initialised Qwen2 backbone where upstream's Qwen2Encoder loads it from."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    if size == "full":
        config = Qwen2Config(**_QWEN_FULL)
    else:
        config = Qwen2Config(vocab_size=(vocab + 63) // 64 * 64, **_QWEN_TINY)
    config.eos_token_id = config.bos_token_id = 0
    torch.manual_seed(0)
    model = Qwen2ForCausalLM(config)
    model.save_pretrained(str(blank_dir), safe_serialization=True)


def _onnx_campplus(path: Path) -> None:
    """Stand-in CAM++: fbank ``[1, T, 80]`` → embedding ``[1, 192]`` (mean over time, projected)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(1)
    weight = numpy_helper.from_array(rng.standard_normal((80, 192)).astype(np.float32) * 0.1, "proj")
    graph = helper.make_graph(
        [
            helper.make_node("ReduceMean", ["input"], ["pooled"], axes=[1], keepdims=0),
            helper.make_node("MatMul", ["pooled", "proj"], ["embedding"]),
        ],
        "campplus_standin",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, "T", 80])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [1, 192])],
        [weight],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def _onnx_speech_tokenizer(path: Path) -> None:
    """Stand-in speech tokenizer v2: log-mel ``[1, 128, T]`` + int32 length → int32 ``[1, T // 4]``.

    Four 100 Hz mel frames make one 25 Hz token, as in the real model; ids lie below 6561.
    """
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2)
    inits = [
        numpy_helper.from_array(rng.standard_normal((128, 1)).astype(np.float32), "proj"),
        numpy_helper.from_array(np.array(997.0, dtype=np.float32), "scale"),
        numpy_helper.from_array(np.array(float(SPEECH_TOKEN_VOCAB), dtype=np.float32), "vocab"),
        numpy_helper.from_array(np.array([1, -1], dtype=np.int64), "out_shape"),
    ]
    nodes = [
        # Pool four frames into one token position: [1, 128, T] -> [1, 128, T // 4].
        helper.make_node("AveragePool", ["feats"], ["pooled"], kernel_shape=[4], strides=[4]),
        helper.make_node("Transpose", ["pooled"], ["frames"], perm=[0, 2, 1]),  # [1, T/4, 128]
        helper.make_node("MatMul", ["frames", "proj"], ["score"]),  # [1, T/4, 1]
        helper.make_node("Abs", ["score"], ["magnitude"]),
        helper.make_node("Mul", ["magnitude", "scale"], ["spread"]),
        helper.make_node("Floor", ["spread"], ["whole"]),
        helper.make_node("Mod", ["whole", "vocab"], ["wrapped"], fmod=1),
        helper.make_node("Cast", ["wrapped"], ["ids3"], to=TensorProto.INT32),
        helper.make_node("Reshape", ["ids3", "out_shape"], ["indices"]),
    ]
    graph = helper.make_graph(
        nodes,
        "speech_tokenizer_v2_standin",
        [
            helper.make_tensor_value_info("feats", TensorProto.FLOAT, [1, 128, "T"]),
            helper.make_tensor_value_info("feats_length", TensorProto.INT32, [1]),
        ],
        [helper.make_tensor_value_info("indices", TensorProto.INT32, [1, "N"])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


BUILD_STEPS = 5


class SyntheticFacts(TypedDict):
    """What a build found, in its marker file and on its last line of output."""

    size: str
    speech_tokens_per_text_token: float
    parameters: dict[str, int]  # by model: llm, flow, hift
    build_s: float
    note: str


def _step(number: int, what: str) -> None:
    """A progress line on stderr ("cosyvoice_synthetic: step 2/5: ..."); stdout keeps the facts."""
    print(f"cosyvoice_synthetic: step {number}/{BUILD_STEPS}: {what}", file=sys.stderr, flush=True)


def build(target: str | os.PathLike[str], size: str = "tiny", force: bool = False) -> SyntheticFacts:
    """Write a synthetic CosyVoice2 folder at ``target`` and return its facts.

    Nothing is written in place: the folder is assembled next to ``target`` and renamed into
    place, so an interrupted build never leaves a half folder that looks complete. An existing
    complete synthetic folder of the same size is kept unless ``force``.
    """
    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}, not {size!r}")
    target = Path(target)
    marker = target / SYNTHETIC_MARKER
    if target.exists():
        if marker.is_file() and not force:
            kept = cast(SyntheticFacts, json.loads(marker.read_text()))  # written by a build like this one
            if kept.get("size") == size:
                return kept
        if not marker.is_file() and any(target.iterdir()):
            raise FileExistsError(f"{target} exists and is not a synthetic CosyVoice2 folder; refusing to overwrite it")
    _step(1, "loading torch and the CosyVoice classes")
    import torch
    from hyperpyyaml import load_hyperpyyaml

    started = time.monotonic()
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        blank = work / "CosyVoice-BlankEN"
        blank.mkdir()
        _step(2, "training the tokenizer")
        tokenizer = _train_tokenizer(blank)
        ratio = _speech_tokens_per_text_token(tokenizer)
        # Upstream adds ~25 special tokens on top of the vocabulary at load time.
        _step(3, f"the Qwen2 backbone ({size})")
        _save_backbone(blank, size, len(tokenizer) + 64)
        sizes = {**_FLOW[size], **_HIFT[size]}
        hidden = _QWEN_FULL["hidden_size"] if size == "full" else _QWEN_TINY["hidden_size"]
        yaml_text = _YAML.format(size=size, hidden=hidden, ratio=ratio, **sizes)
        (work / "cosyvoice2.yaml").write_text(yaml_text)
        _step(4, "the LLM, flow and HiFT weights")
        configs = load_hyperpyyaml(yaml_text, overrides={"qwen_pretrain_path": str(blank)})
        for name in ("llm", "flow", "hift"):
            torch.save(configs[name].state_dict(), work / f"{name}.pt")
        _step(5, "the ONNX frontend models")
        _onnx_campplus(work / "campplus.onnx")
        _onnx_speech_tokenizer(work / "speech_tokenizer_v2.onnx")
        facts: SyntheticFacts = {
            "size": size,
            "speech_tokens_per_text_token": round(ratio, 4),
            "parameters": {
                name: sum(p.numel() for p in configs[name].parameters()) for name in ("llm", "flow", "hift")
            },
            "build_s": 0.0,
            "note": "random weights: the audio is noise; layout, classes and timing are real",
        }
        del configs
        facts["build_s"] = round(time.monotonic() - started, 1)
        (work / SYNTHETIC_MARKER).write_text(json.dumps(facts, indent=2))
        if target.exists():
            shutil.rmtree(target)
        work.chmod(0o755)  # mkdtemp made it private
        os.replace(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build a synthetic CosyVoice2-0.5B model folder.")
    parser.add_argument("directory")
    parser.add_argument("--size", choices=SIZES, default="tiny")
    parser.add_argument("--force", action="store_true", help="rebuild even if the folder is complete")
    args = parser.parse_args(argv)
    try:
        facts = build(args.directory, args.size, args.force)
    except (FileExistsError, ValueError) as error:
        print(f"cosyvoice_synthetic: {error}", file=sys.stderr)
        return 2
    print(json.dumps(facts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
