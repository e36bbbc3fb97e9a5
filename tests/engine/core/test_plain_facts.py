"""A backend's facts cross to the client as plain data (the studio may lack the backend's libraries)."""

from __future__ import annotations

import pickle

import numpy as np

from engine.core.protocol import plain_facts


class LibraryVersion(str):
    """Like torch's TorchVersion: a str subclass that unpickles only where its library is."""


def test_library_types_become_plain_data_that_unpickles_anywhere() -> None:
    facts = {"torch": LibraryVersion("2.9.1"), "gpus": [np.int64(1)], "memory_gb": np.float32(0.5),
             "fp16": np.bool_(True), "combination": ("vllm", LibraryVersion("0.9")), "nested": {"k": None}}
    plain = plain_facts(facts)
    assert plain == {"torch": "2.9.1", "gpus": [1], "memory_gb": 0.5, "fp16": True,
                     "combination": ("vllm", "0.9"), "nested": {"k": None}}
    assert type(plain["torch"]) is str and type(plain["gpus"][0]) is int and type(plain["fp16"]) is bool
    assert LibraryVersion.__name__.encode() not in pickle.dumps(plain)
