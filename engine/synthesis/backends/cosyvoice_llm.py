"""Continuous batching for the CosyVoice2 LLM: one forward step for every active sequence.

Upstream decodes each request at batch 1 in its own thread (``Qwen2LM.inference_wrapper``).
Here one decoder thread owns every active sequence of a backend, as vLLM's engine loop does:

- A sequence joins between steps with its prefill (its own prompt, batch 1), and its KV cache
  is merged into the batch's padded cache (left padding; a 0 in the attention mask hides the
  pads, and each row keeps its own positions, so RoPE sees the same positions as at batch 1).
- Each step runs the Qwen2 backbone once on the last token of every row, then samples each
  row with that sequence's own ``torch.Generator`` and its own history (top-k / top-p and
  repetition-aware sampling, as upstream's ``ras_sampling``), so a sequence's tokens do not
  depend on which sequences share its batch.
- A sequence leaves at its end of speech, its length limit or its stop, between steps; its
  row is dropped from the cache and the columns no row needs any more are trimmed.

A sequence's tokens go to its :class:`TokenStream`, the same hand-over the per-job LLM
threads of ``max_batch=1`` use, so the hop loop downstream does not know which one filled it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from engine.core.protocol import EngineError, ErrorCode

log = logging.getLogger(__name__)

# Upstream's sampling defaults (CosyVoice2 config: ras_sampling top_p 0.8, top_k 25, win 10, tau_r 0.1).
DEFAULT_SAMPLING = {"top_p": 0.8, "top_k": 25, "win_size": 10, "tau_r": 0.1}


@dataclass
class TokenStream:
    """Speech tokens of one segment, filled by an LLM (a thread, or the batched decoder); the
    job waits on ``ready``."""

    tokens: list[int] = field(default_factory=list)
    done: bool = False
    error: BaseException | None = None
    stop: bool = False
    ready: threading.Condition = field(default_factory=threading.Condition)

    def push(self, token: int) -> bool:
        """Append a token and wake the job; False when the job stopped listening."""
        with self.ready:
            if self.stop:
                return False
            self.tokens.append(token)
            self.ready.notify_all()
            return True

    def head(self, count: int) -> tuple[list[int], bool]:
        """(up to ``count`` first tokens, whether the segment is done); raises the LLM's error
        as E_BACKEND."""
        with self.ready:
            available, done, error = list(self.tokens[:count]), self.done, self.error
        if error is not None:
            raise EngineError(ErrorCode.BACKEND, f"CosyVoice2 LLM failed: {type(error).__name__}: {error}")
        return available, done

    def finish(self, error: BaseException | None = None) -> None:
        with self.ready:
            if error is not None and self.error is None:
                self.error = error
            self.done = True
            self.ready.notify_all()


@dataclass(frozen=True)
class SamplingParams:
    """Upstream's repetition-aware sampling: nucleus (top-p within top-k), and a plain draw from
    the whole distribution when the nucleus pick repeats too often in the recent window."""

    top_p: float = DEFAULT_SAMPLING["top_p"]
    top_k: int = int(DEFAULT_SAMPLING["top_k"])
    win_size: int = int(DEFAULT_SAMPLING["win_size"])
    tau_r: float = DEFAULT_SAMPLING["tau_r"]

    @classmethod
    def of(cls, sampling: Any) -> SamplingParams:
        """The parameters of the model's configured sampling function (a functools.partial)."""
        keywords = dict(getattr(sampling, "keywords", None) or {})
        known = {name: keywords[name] for name in DEFAULT_SAMPLING if name in keywords}
        return cls(**known)


def sample_token(torch: Any, logp: Any, history: list[int], params: SamplingParams, generator: Any) -> int:
    """One token from a row of log-probabilities, drawn with ``generator`` (upstream's algorithm,
    vectorised; upstream draws from the global generator)."""
    probs = logp.float().softmax(dim=0)
    values, indices = probs.sort(descending=True, stable=True)
    before = values.cumsum(0) - values  # probability mass ranked above each candidate
    keep = int(((before < params.top_p) & (torch.arange(len(values), device=values.device) < params.top_k)).sum())
    keep = max(1, keep)
    pick = torch.multinomial(values[:keep].cpu(), 1, replacement=True, generator=generator)
    token = int(indices[int(pick)])
    window = history[-params.win_size:]
    if window.count(token) >= params.win_size * params.tau_r:
        token = int(torch.multinomial(probs.cpu(), 1, replacement=True, generator=generator))
    return token


@dataclass(eq=False)
class Sequence:
    """One segment's decoding: its prompt embedding, length bounds, sampler and output."""

    lm_input: Any  # [1, L, D] upstream's llm input: sos, text, task id, prompt speech tokens
    min_len: int
    max_len: int
    seed: int
    max_tokens: int | None = None  # speech tokens at most (the synthetic model's stop); None: max_len rules
    stream: TokenStream = field(default_factory=TokenStream)
    decoded: list[int] = field(default_factory=list)  # speech tokens handed over: the sampler's history
    last: int = 0  # the token fed back at the next step
    steps: int = 0
    generator: Any = None


class BatchedSpeechLM:
    """The decoder thread of one CosyVoice2 LLM serving every active sequence (see the module)."""

    def __init__(self, torch: Any, llm: Any, device: Any, autocast: Any, max_sequences: int) -> None:
        self.torch = torch
        self.llm = llm
        self.backbone = llm.llm.model.model  # Qwen2Model: the hidden states without the text LM head
        self.device = device
        self.autocast = autocast
        self.max_sequences = max(1, max_sequences)
        self.params = SamplingParams.of(getattr(llm, "sampling", None))
        self.speech_token_size = int(llm.speech_token_size)
        self._lock = threading.Condition()
        self._joining: list[Sequence] = []
        self._active: list[Sequence] = []
        self._cache: Any = None  # DynamicCache, rows in the order of _active
        self._mask: Any = None  # [B, M] 1 where a row has a real position
        self._lengths: list[int] = []  # real positions per row
        self._thread: threading.Thread | None = None
        self.steps = 0  # batched decode steps run (facts for benchmarks)
        self.rows_stepped = 0

    # --- the job side -----------------------------------------------------------------------

    def submit(self, sequence: Sequence) -> TokenStream:
        """Queue a sequence; it joins the batch between two steps."""
        sequence.generator = self.torch.Generator(device="cpu").manual_seed(sequence.seed)
        with self._lock:
            self._joining.append(sequence)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="cosyvoice-llm-batch", daemon=True)
                self._thread.start()
            self._lock.notify_all()
        return sequence.stream

    @property
    def active(self) -> int:
        with self._lock:
            return len(self._active) + len(self._joining)

    # --- the decoder thread -----------------------------------------------------------------

    def _run(self) -> None:
        torch = self.torch
        while True:
            with self._lock:
                while not self._active and not self._joining:
                    self._lock.wait()
                room = self.max_sequences - len(self._active)
                joining, self._joining = self._joining[:room], self._joining[room:]
            try:
                with torch.inference_mode(), self.autocast():
                    for sequence in joining:
                        self._join(sequence)
                    self._drop_finished()
                    if self._active:
                        self._step()
                        self._drop_finished()
            except BaseException as error:  # every sequence in the batch fails with it
                log.exception("batched LLM step failed")
                for sequence in self._active:
                    sequence.stream.finish(error)
                self._active, self._cache, self._mask, self._lengths = [], None, None, []

    def _join(self, sequence: Sequence) -> None:
        """Prefill one sequence alone, sample its first token, and merge its cache into the batch."""
        torch = self.torch
        if sequence.stream.stop:
            sequence.stream.finish()
            return
        try:
            lm_input = sequence.lm_input.to(self.device)
            length = int(lm_input.shape[1])
            out = self.backbone(inputs_embeds=lm_input, attention_mask=torch.ones(1, length, dtype=torch.long,
                                                                                   device=self.device),
                                use_cache=True)
            logp = self.llm.llm_decoder(out.last_hidden_state[:, -1]).log_softmax(dim=-1)
            self._accept(sequence, logp[0])
        except BaseException as error:  # noqa: BLE001 - only this sequence fails
            sequence.stream.finish(error)
            return
        if sequence.stream.done:
            return
        keys = [layer[0] for layer in out.past_key_values]
        values = [layer[1] for layer in out.past_key_values]
        if self._cache is None:
            self._set_cache(keys, values)
            self._mask = torch.ones(1, length, dtype=torch.long, device=self.device)
        else:
            width = max(self._mask.shape[1], length)
            old_keys = [self._left_pad(k, width) for k in self._cache.key_cache]
            old_values = [self._left_pad(v, width) for v in self._cache.value_cache]
            self._set_cache([torch.cat([a, self._left_pad(b, width)]) for a, b in zip(old_keys, keys)],
                            [torch.cat([a, self._left_pad(b, width)]) for a, b in zip(old_values, values)])
            new_mask = torch.zeros(1, width, dtype=torch.long, device=self.device)
            new_mask[:, width - length:] = 1
            self._mask = torch.cat([self._left_pad(self._mask, width), new_mask])
        self._active.append(sequence)
        self._lengths.append(length)

    def _step(self) -> None:
        """One forward step of the backbone for every active row, then per-row sampling."""
        torch = self.torch
        last = torch.tensor([s.last for s in self._active], device=self.device)
        inputs = self.llm.speech_embedding.weight[last].unsqueeze(1)  # [B, 1, D]
        ones = torch.ones(len(self._active), 1, dtype=torch.long, device=self.device)
        self._mask = torch.cat([self._mask, ones], dim=1)
        positions = torch.tensor(self._lengths, device=self.device).unsqueeze(1)
        out = self.backbone(inputs_embeds=inputs, attention_mask=self._mask, position_ids=positions,
                            past_key_values=self._cache, use_cache=True)
        self._cache = out.past_key_values
        logp = self.llm.llm_decoder(out.last_hidden_state[:, -1]).log_softmax(dim=-1)
        self.steps += 1
        self.rows_stepped += len(self._active)
        for row, sequence in enumerate(self._active):
            self._lengths[row] += 1
            try:
                self._accept(sequence, logp[row])
            except BaseException as error:  # noqa: BLE001 - only this sequence fails
                sequence.stream.finish(error)

    def _accept(self, sequence: Sequence, logp: Any) -> None:
        """Sample the sequence's next token; hand it over or end the sequence."""
        if sequence.steps < sequence.min_len:  # no end of speech before the minimum length
            logp = logp.clone()
            logp[self.speech_token_size:] = -float("inf")
        token = sample_token(self.torch, logp, sequence.decoded, self.params, sequence.generator)
        sequence.steps += 1
        if token == self.speech_token_size:
            sequence.stream.finish()
            return
        sequence.last = token  # fed back, as upstream does with its other special tokens too
        if token < self.speech_token_size:
            sequence.decoded.append(token)
            if not sequence.stream.push(token):
                sequence.stream.finish()
                return
        if sequence.steps >= sequence.max_len or (
                sequence.max_tokens is not None and len(sequence.decoded) >= sequence.max_tokens):
            sequence.stream.finish()

    def _drop_finished(self) -> None:
        """Rows whose sequence ended or stopped leave; columns no row needs are trimmed."""
        keep = [row for row, s in enumerate(self._active) if not s.stream.done and not s.stream.stop]
        for sequence in self._active:
            if sequence.stream.stop and not sequence.stream.done:
                sequence.stream.finish()
        if len(keep) == len(self._active):
            return
        if not keep:
            self._active, self._cache, self._mask, self._lengths = [], None, None, []
            return
        index = self.torch.tensor(keep, device=self.device)
        self._active = [self._active[row] for row in keep]
        self._lengths = [self._lengths[row] for row in keep]
        mask = self._mask.index_select(0, index)
        start = int(mask.shape[1] - max(self._lengths))  # each row's real positions are its last ones
        self._mask = mask[:, start:]
        self._set_cache([k.index_select(0, index)[:, :, start:] for k in self._cache.key_cache],
                        [v.index_select(0, index)[:, :, start:] for v in self._cache.value_cache])

    def _left_pad(self, tensor: Any, width: int) -> Any:
        """Zeros before the time axis (the last for masks, the third for K/V) up to ``width``."""
        axis = 1 if tensor.dim() == 2 else 2
        missing = width - tensor.shape[axis]
        if missing <= 0:
            return tensor
        shape = list(tensor.shape)
        shape[axis] = missing
        return self.torch.cat([tensor.new_zeros(shape), tensor], dim=axis)

    def _set_cache(self, keys: list[Any], values: list[Any]) -> None:
        from transformers import DynamicCache

        self._cache = DynamicCache.from_legacy_cache(tuple(zip(keys, values)))
