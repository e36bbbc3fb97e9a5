"""Several jobs' hops in one call: CosyVoice2's flow matching and HiFT vocoder, batched.

Upstream's ``CausalMaskedDiffWithXvec.inference`` asserts batch 1 and its Euler solver builds
its classifier-free-guidance pair for one row; ``HiFTGenerator.inference`` draws its source
excitation from the global generator. These functions run the same modules (upstream's
layers and weights, called one level down) for several rows at once:

- **Flow.** Each row is its own prompt plus its own tokens, right-padded to the longest. Every
  layer that sees the time axis is causal or masked (chunk-masked attention, left-padded
  convolutions, masks multiplied in), so a row's real frames come out as at batch 1 — except
  the encoder's look-ahead convolution, which reads the three tokens after a row's end: here
  each row's own look-ahead context (or zeros, on a final hop) is placed right after its last
  real token, where upstream concatenates it. Prompt features, speaker embeddings and lengths
  are per row; the flow's fixed noise is the same prefix for every row, as at batch 1.
- **HiFT.** Its convolutions are not causal, so padding would change a shorter row's last
  frames; rows are grouped by mel length (after the speed stretch most hops of a stream have
  the same length) and each group runs as one batch. A row's source excitation is drawn with
  its own seed, and its cached source from the previous hop overwrites the start, as upstream.

Tests (tests/cosyvoice/test_batching.py) compare each row with upstream's batch-1 calls.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

# Upstream's flow inference runs ten Euler steps (CausalMaskedDiffWithXvec.inference).
FLOW_TIMESTEPS = 10
_SOURCE_RNG = threading.Lock()  # the source module draws from torch's global generator


@dataclass(frozen=True)
class FlowRow:
    """One job's hop for the flow: its prompt, all its tokens so far, and whether it is final."""

    tokens: Any  # [1, N] int32: every token so far, the look-ahead included when not final
    prompt_token: Any  # [1, P] int32
    prompt_feat: Any  # [1, 2P, 80]
    embedding: Any  # [1, 192]
    finalize: bool


@dataclass(frozen=True)
class VocoderRow:
    """One job's hop for HiFT: its mel (cached overlap first), its cached source, its seed."""

    mel: Any  # [1, 80, F]
    cache_source: Any  # [1, 1, S] (S may be 0)
    seed: int


def flow_mels(torch: Any, flow: Any, rows: list[FlowRow], streaming: bool = True) -> list[Any]:
    """The mel of every row (``[1, 80, frames]`` after its prompt), in one batched call."""
    from cosyvoice.utils.mask import add_optional_chunk_mask, make_pad_mask
    from torch.nn import functional as F

    device = rows[0].tokens.device
    lookahead = int(flow.pre_lookahead_len)
    count = len(rows)
    full = [torch.cat([row.prompt_token, row.tokens], dim=1)[0] for row in rows]
    real = [len(tokens) - (0 if row.finalize else lookahead) for tokens, row in zip(full, rows)]
    width = max(real)
    token = torch.zeros(count, width, dtype=torch.long, device=device)
    context_ids = torch.zeros(count, lookahead, dtype=torch.long, device=device)
    has_context = torch.zeros(count, 1, 1, device=device)
    for index, (tokens, length, row) in enumerate(zip(full, real, rows)):
        token[index, :length] = tokens[:length].long().clamp(min=0)
        if not row.finalize:
            context_ids[index] = tokens[length:].long().clamp(min=0)
            has_context[index] = 1.0
    lengths = torch.tensor(real, dtype=torch.int32, device=device)

    embedding = torch.cat([row.embedding for row in rows], dim=0)
    embedding = flow.spk_embed_affine_layer(F.normalize(embedding, dim=1))
    pad_mask = (~make_pad_mask(lengths, width)).unsqueeze(-1).to(embedding)
    xs = flow.input_embedding(token) * pad_mask
    context = flow.input_embedding(context_ids) * has_context

    encoder = flow.encoder
    masks = ~make_pad_mask(lengths, width).unsqueeze(1)
    xs, pos_emb, masks = encoder.embed(xs, masks)
    context, _, _ = encoder.embed(context, torch.ones(count, 1, lookahead, dtype=torch.bool, device=device),
                                  offset=width)
    chunk = encoder.static_chunk_size if streaming else 0
    chunk_masks = add_optional_chunk_mask(xs, masks, False, False, 0, chunk, -1)
    xs = _lookahead(torch, encoder.pre_lookahead_layer, xs, context, real, rows)
    xs = encoder.forward_layers(xs, chunk_masks, pos_emb, masks)
    xs, up_lengths = encoder.up_layer(xs.transpose(1, 2).contiguous(), lengths)
    xs = xs.transpose(1, 2).contiguous()
    up_width = xs.size(1)
    masks = ~make_pad_mask(up_lengths, up_width).unsqueeze(1)
    xs, pos_emb, masks = encoder.up_embed(xs, masks)
    up_chunk = encoder.static_chunk_size * encoder.up_layer.stride if streaming else 0
    chunk_masks = add_optional_chunk_mask(xs, masks, False, False, 0, up_chunk, -1)
    xs = encoder.forward_up_layers(xs, chunk_masks, pos_emb, masks)
    if encoder.normalize_before:
        xs = encoder.after_norm(xs)
    h = flow.encoder_proj(xs)  # [B, T, 80]

    conds = torch.zeros(count, up_width, flow.output_size, device=device, dtype=h.dtype)
    prompt_frames = []
    for index, row in enumerate(rows):
        frames = row.prompt_feat.shape[1]
        conds[index, :frames] = row.prompt_feat[0].to(h.dtype)
        prompt_frames.append(frames)
    mask = (~make_pad_mask(up_lengths, up_width)).to(h).unsqueeze(1)  # [B, 1, T]
    feat = _solve(torch, flow.decoder, h.transpose(1, 2).contiguous(), mask, embedding, conds.transpose(1, 2),
                  streaming)
    return [feat[index:index + 1, :, frames:int(up_lengths[index])].float()
            for index, frames in enumerate(prompt_frames)]


def padding_groups(lengths: list[int], max_padding: float) -> list[list[int]]:
    """Rows (by index) in groups of similar length: a group's padded size (its longest row
    times its rows) exceeds its real size by at most ``max_padding`` of it. Longest first."""
    groups: list[list[int]] = []
    for index in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        if groups:
            group = groups[-1]
            real = sum(lengths[i] for i in group) + lengths[index]
            if lengths[group[0]] * (len(group) + 1) <= (1 + max_padding) * real:
                group.append(index)
                continue
        groups.append([index])
    return groups


def _lookahead(torch: Any, layer: Any, xs: Any, context: Any, real: list[int], rows: list[FlowRow]) -> Any:
    """Upstream's PreLookaheadLayer with each row's context right after its own last token."""
    from torch.nn import functional as F

    count, width, channels = xs.shape
    ahead = layer.pre_lookahead_len
    extended = torch.zeros(count, width + ahead, channels, device=xs.device, dtype=xs.dtype)
    for index, (length, row) in enumerate(zip(real, rows)):
        extended[index, :length] = xs[index, :length]
        if not row.finalize:
            extended[index, length:length + ahead] = context[index]
    outputs = F.leaky_relu(layer.conv1(extended.transpose(1, 2).contiguous()))
    outputs = F.pad(outputs, (layer.conv2.kernel_size[0] - 1, 0), mode="constant", value=0.0)
    outputs = layer.conv2(outputs).transpose(1, 2).contiguous()
    return outputs + xs


def _solve(torch: Any, decoder: Any, mu: Any, mask: Any, spks: Any, cond: Any, streaming: bool) -> Any:
    """Upstream's Euler solver with classifier-free guidance, for B rows at once (2B estimator rows)."""
    frames = mu.size(2)
    x = decoder.rand_noise[:, :, :frames].to(mu.device).to(mu.dtype).expand(mu.size(0), -1, -1).contiguous()
    t_span = torch.linspace(0, 1, FLOW_TIMESTEPS + 1, device=mu.device, dtype=mu.dtype)
    if decoder.t_scheduler == "cosine":
        t_span = 1 - torch.cos(t_span * 0.5 * torch.pi)
    t, dt = t_span[0], t_span[1] - t_span[0]
    mask_in = torch.cat([mask, mask])
    mu_in = torch.cat([mu, torch.zeros_like(mu)])
    spks_in = torch.cat([spks, torch.zeros_like(spks)])
    cond_in = torch.cat([cond, torch.zeros_like(cond)])
    rows = mu.size(0)
    for step in range(1, len(t_span)):
        x_in = torch.cat([x, x])
        t_in = t.reshape(1).expand(2 * rows).contiguous()
        dphi = _estimate(torch, decoder, x_in, mask_in, mu_in, t_in, spks_in, cond_in, streaming)
        dphi, cfg_dphi = dphi[:rows], dphi[rows:]
        x = x + dt * ((1.0 + decoder.inference_cfg_rate) * dphi - decoder.inference_cfg_rate * cfg_dphi)
        t = t + dt
        if step < len(t_span) - 1:
            dt = t_span[step + 1] - t
    return x.float()


def _estimate(torch: Any, decoder: Any, x: Any, mask: Any, mu: Any, t: Any, spks: Any, cond: Any,
              streaming: bool) -> Any:
    """The estimator on all rows; a TensorRT estimator (its plan takes one CFG pair) row by row."""
    if isinstance(decoder.estimator, torch.nn.Module):
        return decoder.estimator(x, mask, mu, t, spks, cond, streaming=streaming)
    rows = x.size(0) // 2
    pairs = []
    for index in range(rows):
        pick = [index, rows + index]
        pairs.append(decoder.forward_estimator(x[pick].contiguous(), mask[pick].contiguous(), mu[pick].contiguous(),
                                               t[pick].contiguous(), spks[pick].contiguous(),
                                               cond[pick].contiguous(), streaming))
    return torch.cat([pair[:1] for pair in pairs] + [pair[1:] for pair in pairs])


def vocode(torch: Any, hift: Any, rows: list[VocoderRow]) -> list[tuple[Any, Any]]:
    """(speech ``[1, N]``, source ``[1, 1, N]``) of every row; rows of equal length in one batch."""
    results: list[tuple[Any, Any] | None] = [None] * len(rows)
    groups: dict[int, list[int]] = {}
    for index, row in enumerate(rows):
        groups.setdefault(int(row.mel.shape[2]), []).append(index)
    for members in groups.values():
        mel = torch.cat([rows[index].mel for index in members], dim=0)
        f0 = hift.f0_predictor(mel)
        upsampled = hift.f0_upsamp(f0[:, None]).transpose(1, 2)  # [B, N, 1]
        sources = []
        for position, index in enumerate(members):
            source = excitation(torch, hift, upsampled[position:position + 1], rows[index].seed)
            cached = rows[index].cache_source
            if cached.shape[2] != 0:
                source[:, :, :cached.shape[2]] = cached
            sources.append(source)
        source = torch.cat(sources, dim=0)
        speech = hift.decode(x=mel, s=source)
        for position, index in enumerate(members):
            results[index] = (speech[position:position + 1], source[position:position + 1])
    return [result for result in results if result is not None]


def excitation(torch: Any, hift: Any, upsampled_f0: Any, seed: int) -> Any:
    """One row's source excitation ``[1, 1, N]`` drawn from ``seed`` (upstream draws from the
    global generator; the global state is restored afterwards)."""
    devices = [upsampled_f0.device] if upsampled_f0.device.type == "cuda" else []
    with _SOURCE_RNG, torch.random.fork_rng(devices=devices):
        torch.manual_seed(seed)
        source, _, _ = hift.m_source(upsampled_f0)
    return source.transpose(1, 2)


# --- GPU memory ----------------------------------------------------------------------------------

# The longest segment a job decodes, for the memory estimate: a 30 s prompt (750 speech tokens)
# plus a long first piece's worth of speech (20 s, 500 tokens) and its text.
WORST_PROMPT_TOKENS = 750
WORST_SPEECH_TOKENS = 500
WORST_TEXT_TOKENS = 120
FLOW_LIVE_TENSORS = 12  # estimator activations alive at once per channel-frame (measured shapes, with margin)
HIFT_LIVE_TENSORS = 4
MEMORY_MARGIN = 1.5  # allocator rounding and the temporaries not counted above


def batched_job_bytes(llm: Any, flow: Any, hift: Any, element_bytes: int) -> int:
    """GPU working memory one job adds to a batch, from the loaded modules' sizes.

    - the LLM's KV cache at the worst segment length (keys and values, every layer);
    - the flow estimator on prompt + speech mel frames, twice for classifier-free guidance:
      its activations and its attention scores (heads × frames², chunk-masked but dense);
    - HiFT on the longest hop (100 tokens plus the cached overlap) at its widest layer.
    """
    config = llm.llm.model.config
    head_dim = config.hidden_size // config.num_attention_heads
    tokens = 1 + WORST_TEXT_TOKENS + 1 + WORST_PROMPT_TOKENS + WORST_SPEECH_TOKENS
    kv = 2 * config.num_hidden_layers * config.num_key_value_heads * head_dim * tokens * element_bytes
    frames = 2 * (WORST_PROMPT_TOKENS + WORST_SPEECH_TOKENS)
    estimator = flow.decoder.estimator
    channels = max(int(p.shape[0]) for p in estimator.parameters() if p.dim() == 3)
    heads = max((int(getattr(m, "heads", 0)) for m in estimator.modules()), default=1) or 1
    flow_bytes = 2 * frames * (FLOW_LIVE_TENSORS * channels + heads * frames) * element_bytes
    hop_samples = (2 * 100 + 8) * 480  # the longest hop with its cached overlap
    widest = max(int(p.shape[0]) for p in hift.parameters() if p.dim() == 3)
    # float32 (HiFT runs outside autocast): a few live tensors as wide as its widest layer, at
    # an eighth of the sample rate (its first upsampling stage)
    hift_bytes = HIFT_LIVE_TENSORS * hop_samples // 8 * widest * 4
    return int(MEMORY_MARGIN * (kv + flow_bytes + hift_bytes))
