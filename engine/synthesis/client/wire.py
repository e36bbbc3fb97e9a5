"""The engine protocol on a network: JSON for messages, framed raw float32 for audio.

A remote engine (``dubstudio serve``) and its client (:mod:`engine.synthesis.client.remote`) speak the same
dataclasses as the local engine process (:mod:`engine.core.protocol`); only the encoding differs.
Messages become JSON objects that name their type (``{"type": "JobFailed", ...}``), and a
job's stream of events is a sequence of frames, each a 9-byte header and two parts::

    kind (1 byte: b"E" event, b"A" audio) | meta length (uint32 LE) | data length (uint32 LE)
    meta (UTF-8 JSON) | data (raw bytes: little-endian float32 PCM for audio, empty for events)

so audio is never turned into text, and a reader knows every length before it reads.
Decoding checks every field against the dataclass's annotations: a server must be able to
take a Job from any client without trusting it. Stdlib and numpy only: the studio's light
remote client needs nothing else.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import struct
import types
import typing
from typing import Any, BinaryIO, Union

import numpy as np

from engine.core import protocol

HEADER = struct.Struct("<cII")
KIND_EVENT = b"E"
KIND_AUDIO = b"A"
MAX_META_BYTES = 1 << 20  # a frame's JSON part; events are a few hundred bytes
MAX_DATA_BYTES = 64 << 20  # a frame's audio: minutes of float32 at 24 kHz
MEDIA_TYPE = "application/x-dubstudio-frames"

# The message types that cross the network, by the name they carry on it.
WIRE_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    protocol.Job, protocol.VoiceSpec, protocol.VoiceSettings, protocol.Capabilities, protocol.EngineReady, protocol.JobQueued, protocol.JobStarted, protocol.JobTiming, protocol.JobFinished,
    protocol.JobFailed, protocol.VoicePrepared, protocol.RequestFailed, protocol.Stats,
)}


class WireError(ValueError):
    """A message or frame that does not follow this format (the text says what is wrong)."""


# --- JSON ----------------------------------------------------------------------------------


def to_json(message: Any) -> dict[str, Any]:
    """A protocol dataclass as a JSON-able dict that names its type."""
    if type(message).__name__ not in WIRE_TYPES:
        raise WireError(f"{type(message).__name__} does not travel as JSON")
    return {"type": type(message).__name__, **_plain(message)}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def from_json(data: Any, expected: type | None = None) -> Any:
    """The dataclass a :func:`to_json` dict describes; WireError when anything does not fit.

    With ``expected``, anything else is refused too (a server asking for a Job gets a Job).
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WireError("expected a JSON object with a 'type'")
    cls = WIRE_TYPES.get(data["type"])
    if cls is None:
        raise WireError(f"unknown message type {data['type']!r}")
    if expected is not None and cls is not expected:
        raise WireError(f"expected a {expected.__name__}, got a {cls.__name__}")
    return _build(cls, {k: v for k, v in data.items() if k != "type"}, cls.__name__)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, vars(protocol))
    return _HINTS[cls]


def _build(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise WireError(f"{where}: expected an object")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise WireError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    values = {}
    for name, field in fields.items():
        if name in data:
            values[name] = _convert(hints[name], data[name], f"{where}.{name}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise WireError(f"{where}: missing field {name!r}")
    return cls(**values)


def _convert(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _convert(option, value, where)
            except WireError:
                continue
        raise WireError(f"{where}: {value!r} fits none of {hint}")
    if hint is type(None):
        if value is not None:
            raise WireError(f"{where}: expected null")
        return None
    if hint is Any:
        return value
    if origin in (tuple, dict):
        return _convert_container(hint, origin, value, where)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise WireError(f"{where}: {value!r} is not a {hint.__name__}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build(hint, value, where)
    return _convert_scalar(hint, value, where)


def _convert_container(hint: Any, origin: Any, value: Any, where: str) -> Any:
    """A tuple (sent as a list, each item converted) or a dict (taken as it is)."""
    if origin is tuple:
        if not isinstance(value, list):
            raise WireError(f"{where}: expected a list")
        item = typing.get_args(hint)[0]
        return tuple(_convert(item, v, where) for v in value)
    if not isinstance(value, dict):
        raise WireError(f"{where}: expected an object")
    return dict(value)


def _convert_scalar(hint: Any, value: Any, where: str) -> Any:
    """A number, a string or a bool; JSON's true is not a number here."""
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise WireError(f"{where}: expected a number")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise WireError(f"{where}: expected a whole number")
        return value
    if hint in (str, bool):
        if not isinstance(value, hint):
            raise WireError(f"{where}: expected a {hint.__name__}")
        return value
    raise WireError(f"{where}: cannot decode a {hint}")


def dumps(message: Any) -> bytes:
    return json.dumps(to_json(message), separators=(",", ":")).encode()


def loads(raw: bytes, expected: type | None = None) -> Any:
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WireError(f"not JSON: {error}") from None
    return from_json(data, expected)


# --- frames --------------------------------------------------------------------------------


def encode_frame(event: protocol.Event) -> bytes:
    """One event as a frame: AudioChunk as raw float32, anything else as JSON."""
    if isinstance(event, protocol.AudioChunk):
        meta = json.dumps({"job_id": event.job_id, "seq": event.seq, "sample_rate": event.sample_rate,
                           "text": event.text}, separators=(",", ":")).encode()
        data = np.ascontiguousarray(event.pcm, dtype="<f4").tobytes()
        return HEADER.pack(KIND_AUDIO, len(meta), len(data)) + meta + data
    meta = dumps(event)
    return HEADER.pack(KIND_EVENT, len(meta), 0) + meta


def _read_exact(stream: BinaryIO, size: int) -> bytes | None:
    parts: list[bytes] = []
    missing = size
    while missing:
        part = stream.read(missing)
        if not part:
            if missing == size and not parts:
                return None
            raise WireError(f"the stream ended inside a frame ({size - missing} of {size} bytes)")
        parts.append(part)
        missing -= len(part)
    return b"".join(parts)


def read_frame(stream: BinaryIO) -> Any | None:
    """The next event from a byte stream; None at a clean end (between frames)."""
    header = _read_exact(stream, HEADER.size)
    if header is None:
        return None
    kind, meta_len, data_len = HEADER.unpack(header)
    if meta_len > MAX_META_BYTES or data_len > MAX_DATA_BYTES:
        raise WireError(f"frame too large ({meta_len} + {data_len} bytes)")
    meta = _read_exact(stream, meta_len) if meta_len else b""
    data = _read_exact(stream, data_len) if data_len else b""
    if meta is None or data is None:
        raise WireError("the stream ended inside a frame")
    if kind == KIND_EVENT:
        return loads(meta)
    if kind != KIND_AUDIO:
        raise WireError(f"unknown frame kind {kind!r}")
    if data_len % 4:
        raise WireError("audio frame length is not a whole number of float32 samples")
    try:
        info = json.loads(meta)
        pcm = np.frombuffer(data, dtype="<f4").astype(np.float32)  # a writable copy
        return protocol.AudioChunk(str(info["job_id"]), int(info["seq"]), pcm, int(info["sample_rate"]), str(info["text"]))
    except (ValueError, KeyError, TypeError) as error:
        raise WireError(f"bad audio frame header: {error}") from None
