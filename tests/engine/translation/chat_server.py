"""A chat-completions server on 127.0.0.1 that tests start: it speaks the protocol of Ollama,
llama.cpp's server, vLLM and OpenAI (POST /v1/chat/completions), and answers as a test scripts
it. No language model runs here; these are protocol tests (issue 31 accepts them as such).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Asked:
    """One request the server received: its path, headers and JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def request(self) -> dict[str, Any]:
        """The translator's request (the first user message, JSON)."""
        return dict(json.loads(self.body["messages"][1]["content"]))

    @property
    def lines(self) -> dict[str, dict[str, Any]]:
        return dict(self.request["lines"])

    @property
    def shortening(self) -> bool:
        return "shorter" in self.system


@dataclass(frozen=True)
class Trickle:
    """A body sent a byte every ``delay_s`` (a slow or stuck server that never goes silent)."""

    data: bytes
    delay_s: float


Reply = tuple[int, Any, dict[str, str]]  # status, a JSON-able body (bytes as they are, a Trickle), headers
Script = Callable[[Asked], Reply]


def completion(content: str, finish_reason: str = "stop") -> dict[str, Any]:
    """A chat completion holding ``content``, as the servers send it."""
    return {"id": "chatcmpl-1", "object": "chat.completion", "model": "scripted",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": finish_reason}]}


def answer(texts: dict[str, str]) -> Reply:
    """200 with the model's JSON answer of line number -> text."""
    return 200, completion(json.dumps(texts, ensure_ascii=False)), {}


def each_line(translate: Callable[[str, dict[str, Any], Asked], str]) -> Script:
    """A script answering every line asked with ``translate(number, entry, asked)``."""
    return lambda asked: answer({n: translate(n, entry, asked) for n, entry in asked.lines.items()})


class ChatServer:
    """Start with ``with chat_server(script) as server``; ``server.asked`` holds each request."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.asked: list[Asked] = []
        self.release = threading.Event()  # a script may wait on it (a request held open)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                asked = Asked(self.path, dict(self.headers.items()), json.loads(self.rfile.read(length)))
                server.asked.append(asked)
                status, body, headers = server.script(asked)
                trickle = body if isinstance(body, Trickle) else None
                data = (trickle.data if trickle else body if isinstance(body, bytes)
                        else json.dumps(body, ensure_ascii=False).encode())
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    for start in range(0, len(data), 1 if trickle else len(data) or 1):
                        self.wfile.write(data[start:start + (1 if trickle else len(data))])
                        self.wfile.flush()
                        if trickle and server.release.wait(trickle.delay_s):
                            return
                except OSError:  # the client went away (a cancel, a timeout): nothing to answer
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def requests_of(self, kind: str) -> list[Asked]:
        """The translation requests ("translate") or the shortening ones ("shorten")."""
        return [asked for asked in self.asked if asked.shortening == (kind == "shorten")]


@contextmanager
def chat_server(script: Script) -> Iterator[ChatServer]:
    server = ChatServer(script)
    server.thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.httpd.shutdown()
        server.httpd.server_close()
