"""The translator that speaks to an OpenAI-compatible chat-completions endpoint.

Ollama, llama.cpp's server, vLLM and the hosted services all take ``POST {base}/chat/completions``
with a model and messages. The lines go in batches (a scene, cut at long pauses, at most
``batch_lines`` lines), each with the lines around it as context, the glossary entries the batch
uses, and each line's budget. The model must answer one JSON object mapping each line's number to
its translation: an answer that is not JSON, or has too many or too few lines, is asked for again
once, then refused (E_TRANSLATION_ANSWER). A line that leaves out a glossary wording is asked for
again once; one over its budget is asked once for a shorter version. A batch too long for the
model's context is split in two until a single line is (E_TRANSLATION_CONTEXT).

The HTTP is the standard library's, so a request can be aborted from another thread
(:meth:`ChatTranslator.abort` shuts its socket). 429, 5xx, timeouts and dropped connections are
retried with a doubling wait (a server's Retry-After wins); a 401 or 403 is E_TRANSLATOR_KEY at
once. The key goes only into the request's Authorization header: never into an error, a repr or
a log.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.codes import ErrorCode
from engine.core.numbers import Range
from engine.translation import TranslationError, wording
from engine.translation.glossary import GlossaryEntry, entries_in, missing_terms
from engine.translation.lines import SourceLine, TranslatedLine
from engine.translation.wording import TranslationPhrase

TIMEOUT = Range("translator timeout", 1, 3600, unit="s", default=120, code=ErrorCode.TRANSLATOR)
BATCH_LINES = Range("translator batch", 1, 200, whole=True, default=20, code=ErrorCode.TRANSLATOR)
ATTEMPTS = 4  # a request and three retries on 429, 5xx, a timeout or a dropped connection
BACKOFF_S = 1.0  # the first retry's wait, doubled each time
MAX_WAIT_S = 60.0  # the longest wait a server's Retry-After can ask for
CONTEXT_LINES = 3  # lines given around a batch so the translation follows the conversation
SCENE_GAP_S = 4.0  # a pause this long between two lines ends a scene: a batch does not cross it
MAX_ANSWER_BYTES = 4 * 1024 * 1024
CANCEL_POLL_S = 0.1  # how soon a cancel set elsewhere cuts the request in flight
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL)  # reasoning models' preamble (Qwen3, DeepSeek-R1)
_CONTEXT_WORDS = re.compile(r"context|too long|too many tokens|maximum.{0,40}tokens|prompt is too", re.IGNORECASE)

Progress = Callable[[int, int], None]  # (lines done, lines in all)

SYSTEM_TRANSLATE = (
    "You translate a film's dialogue for dubbing. Translate each entry of \"lines\" from {source} into "
    "{target}, as people say it aloud: natural, spoken, in the character's voice. \"context_before\" and "
    "\"context_after\" are the neighbouring lines, for meaning only: do not translate them. A line with "
    "\"language\" is in that language, not {source}: translate it from that one. Always use the "
    "glossary's target wording where its source wording appears. A line with \"max_{unit}\" must fit a "
    "slot in the picture: keep its translation to at most that many {unit} (spaces and punctuation do not "
    "count), shortening the wording, never the meaning. Answer with one JSON object and nothing else: each key a number from \"lines\", each "
    "value that line's translation, every line exactly once."
)
SYSTEM_SHORTEN = (
    "You edit dubbing lines in {target}. Each entry of \"lines\" holds the original (\"source\"), its "
    "current {target} wording (\"text\") and how long it may be (\"max_{unit}\"). Write a shorter {target} "
    "wording of each that keeps its meaning and sounds natural aloud, within its maximum. Always use the "
    "glossary's target wording where its source wording appears. Answer with one JSON object and nothing "
    "else: each key a number from \"lines\", each value that line's shorter wording, every line exactly once. "
    "Spaces and punctuation do not count towards a maximum."
)


@dataclass(frozen=True)
class Endpoint:
    """Where the chat-completions endpoint is, which model it runs, and its key (never shown)."""

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    timeout_s: float = TIMEOUT.default or 120.0

    def validate(self) -> None:
        """E_TRANSLATOR naming what is missing or malformed: an http(s) URL with a host, a model."""
        parts = urllib.parse.urlsplit(self.base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise TranslationError(ErrorCode.TRANSLATOR, TranslationPhrase(wording.BAD_URL, url=repr(self.base_url)))
        if not self.model.strip():
            raise TranslationError(ErrorCode.TRANSLATOR, TranslationPhrase(wording.NO_MODEL))
        if any(ch in self.api_key for ch in "\r\n"):
            raise TranslationError(ErrorCode.TRANSLATOR, TranslationPhrase(wording.KEY_LINE_BREAK))
        TIMEOUT.check(self.timeout_s)

    @property
    def chat_url(self) -> str:
        base = self.base_url.strip().rstrip("/")
        return base if base.endswith("/chat/completions") else f"{base}/chat/completions"


class _Retry(Exception):
    """A request worth trying again: ``code`` is what it becomes when the tries run out."""

    def __init__(self, code: ErrorCode, reason: str, wait_s: float | None = None) -> None:
        super().__init__(reason)
        self.code, self.reason, self.wait_s = code, reason, wait_s


class _BadAnswer(Exception):
    """An answer that is not the JSON object asked for (the reason says how)."""


class ChatTranslator:
    """Translates and shortens lines through one endpoint; see the module docstring."""

    name = "openai"

    def __init__(self, endpoint: Endpoint, *, batch_lines: int = 20, attempts: int = ATTEMPTS,
                 backoff_s: float = BACKOFF_S, cancel: threading.Event | None = None,
                 progress: Progress | None = None) -> None:
        endpoint.validate()
        BATCH_LINES.check(batch_lines)
        self.endpoint, self.batch_lines, self.attempts, self.backoff_s = endpoint, batch_lines, attempts, backoff_s
        self.cancel = cancel if cancel is not None else threading.Event()
        self.progress = progress
        self.requests = 0  # chat requests sent (retries included): the figures count them
        # The socket of the request in flight: http.client lets go of it once the headers are read
        # (the response then holds it), so it is kept here for a cut during the body.
        self._socket: socket.socket | None = None
        self._deadline: float | None = None  # when the request in flight has taken its whole timeout
        self._timed_out = False
        self._lock = threading.Lock()

    # --- the two tasks -----------------------------------------------------------------------

    def translate(self, lines: Sequence[SourceLine], chosen: Collection[str], source_language: str,
                  target_language: str, glossary: Sequence[GlossaryEntry] = ()) -> list[TranslatedLine]:
        """The translations of the lines whose ids are in ``chosen``, in script order; the other
        lines are context only. Raises TranslationError (nothing is returned in part)."""
        done: dict[str, TranslatedLine] = {}
        total = sum(1 for line in lines if line.id in chosen)
        with self._abort_on_cancel():
            for batch in self._batches(lines, chosen):
                self._translate_batch(lines, batch, source_language, target_language, glossary, done)
                if self.progress is not None:
                    self.progress(len(done), total)
        return [done[line.id] for line in lines if line.id in done]

    def shorten(self, lines: Sequence[SourceLine], target_language: str,
                glossary: Sequence[GlossaryEntry] = ()) -> list[TranslatedLine]:
        """A shorter wording of each line's ``current`` text within its budget (the "Shorten to fit"
        action). A line with no budget is asked to be shorter than it is."""
        results: list[TranslatedLine] = []
        with self._abort_on_cancel():
            for start in range(0, len(lines), self.batch_lines):
                self._check_cancel()
                batch = list(lines[start:start + self.batch_lines])
                answers = self._ask_shorter(batch, target_language, glossary)
                for line in batch:
                    text = answers[line.id]
                    first = line.budget.length(line.current) if line.budget is not None else None
                    results.append(TranslatedLine(line.id, text, line.budget, first, True,
                                                  missing_terms(glossary, line.text, text)))
                if self.progress is not None:
                    self.progress(len(results), len(lines))
        return results

    def abort(self) -> None:
        """Cancel from another thread: the request in flight is cut, no further one is sent."""
        self.cancel.set()
        self._cut_request()

    @contextlib.contextmanager
    def _abort_on_cancel(self) -> Iterator[None]:
        """While a task runs, a cancel event set by anyone (the studio's Cancel sets the one it
        handed over) cuts the request in flight, not only the next one; so does the request's
        whole timeout passing (the socket's own timeout bounds each wait, and a server that
        trickles its answer a byte at a time would never trip it)."""
        finished = threading.Event()

        def watch() -> None:
            while not finished.is_set():
                if self.cancel.wait(CANCEL_POLL_S):  # then cut again until the task ends: a request
                    self._cut_request()  # still connecting when the cancel came has no socket yet
                    finished.wait(CANCEL_POLL_S)
                elif self._deadline is not None and time.monotonic() > self._deadline:
                    self._timed_out = True
                    self._cut_request()

        watcher = threading.Thread(target=watch, name="translation-cancel", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            finished.set()
            watcher.join()

    def _cut_request(self) -> None:
        with self._lock:
            sock = self._socket
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    # --- batches -----------------------------------------------------------------------------

    def _batches(self, lines: Sequence[SourceLine], chosen: Collection[str]) -> list[list[int]]:
        """Indexes into ``lines`` of the chosen lines, cut into scenes (at a pause of SCENE_GAP_S or
        an unchosen line between them) of at most ``batch_lines``."""
        batches: list[list[int]] = []
        current: list[int] = []
        for index, line in enumerate(lines):
            if line.id not in chosen:
                if current:
                    batches.append(current)
                current = []
                continue
            previous = lines[current[-1]] if current else None
            pause = (previous is not None and previous.end is not None and line.start is not None
                     and line.start - previous.end >= SCENE_GAP_S)
            if current and (pause or len(current) >= self.batch_lines):
                batches.append(current)
                current = []
            current.append(index)
        if current:
            batches.append(current)
        return batches

    def _translate_batch(self, lines: Sequence[SourceLine], batch: list[int], source_language: str,
                         target_language: str, glossary: Sequence[GlossaryEntry],
                         done: dict[str, TranslatedLine]) -> None:
        self._check_cancel()
        chosen = [lines[i] for i in batch]
        try:
            answers = self._ask_translations(lines, batch, source_language, target_language, glossary, done)
        except TranslationError as error:
            if error.code is not ErrorCode.TRANSLATION_CONTEXT or len(batch) == 1:
                raise
            half = len(batch) // 2  # too long for the model: the same lines in two requests
            self._translate_batch(lines, batch[:half], source_language, target_language, glossary, done)
            self._translate_batch(lines, batch[half:], source_language, target_language, glossary, done)
            return
        forgot = [i for i in batch if missing_terms(glossary, lines[i].text, answers[lines[i].id])]
        if forgot:  # reminded once of the glossary; what is still missing is recorded on the line
            answers.update(self._ask_translations(lines, forgot, source_language, target_language, glossary, done,
                                                  remind=True))
        first_lengths = {line.id: line.budget.length(answers[line.id]) if line.budget else None for line in chosen}
        over = [replace(line, current=answers[line.id]) for line in chosen
                if line.budget is not None and not line.budget.fits(answers[line.id])]
        if over:
            answers.update(self._ask_shorter(over, target_language, glossary))
        shortened = {line.id for line in over}
        for line in chosen:
            text = answers[line.id]
            done[line.id] = TranslatedLine(line.id, text, line.budget, first_lengths[line.id],
                                           line.id in shortened, missing_terms(glossary, line.text, text))

    # --- requests ----------------------------------------------------------------------------

    def _ask_translations(self, lines: Sequence[SourceLine], batch: list[int], source_language: str,
                          target_language: str, glossary: Sequence[GlossaryEntry],
                          done: Mapping[str, TranslatedLine], remind: bool = False) -> dict[str, str]:
        chosen = [lines[i] for i in batch]
        first, last = batch[0], batch[-1]
        before = lines[max(0, first - CONTEXT_LINES):first]
        after = lines[last + 1:last + 1 + CONTEXT_LINES]
        unit = _unit_of(chosen)
        request: dict[str, Any] = {
            "source_language": source_language or "the original's language",
            "target_language": target_language,
            "glossary": [entry.to_dict() for entry in _glossary_for(glossary, before, chosen, after)],
            "context_before": [_context(line, done) for line in before],
            "lines": {str(n): _entry(line) for n, line in enumerate(chosen, 1)},
            "context_after": [_context(line, {}) for line in after],
        }
        if remind:
            request["note"] = ("your last translation of these lines left out the glossary's wording; "
                               "use it exactly")
        system = SYSTEM_TRANSLATE.format(source=source_language or "the original language",
                                         target=target_language, unit=unit)
        return self._ask(system, request, chosen)

    def _ask_shorter(self, lines: Sequence[SourceLine], target_language: str,
                     glossary: Sequence[GlossaryEntry]) -> dict[str, str]:
        unit = _unit_of(lines)
        request = {
            "target_language": target_language,
            "glossary": [entry.to_dict() for entry in _glossary_for(glossary, (), lines, ())],
            "lines": {str(n): {"source": line.text, "text": line.current,
                               f"max_{unit}": _shorter_limit(line, unit)} for n, line in enumerate(lines, 1)},
        }
        return self._ask(SYSTEM_SHORTEN.format(target=target_language, unit=unit), request, lines)

    def _ask(self, system: str, request: Mapping[str, Any], lines: Sequence[SourceLine]) -> dict[str, str]:
        """The model's answer for ``lines`` by line id; one retry when the answer is unusable."""
        numbers = [str(n) for n in range(1, len(lines) + 1)]
        messages = [{"role": "system", "content": system},
                    {"role": "user", "content": json.dumps(request, ensure_ascii=False)}]
        reason = ""
        for _ in range(2):
            content = self._complete(messages)
            try:
                by_number = _parse_answer(content, numbers)
            except _BadAnswer as error:
                reason = str(error)
                messages = messages[:2] + [
                    {"role": "assistant", "content": content[:2000]},
                    {"role": "user", "content": f"That answer cannot be used: {reason}. Answer again with one "
                                                f"JSON object whose keys are exactly {', '.join(numbers)}."}]
                continue
            return {line.id: by_number[number] for line, number in zip(lines, numbers)}
        raise TranslationError(ErrorCode.TRANSLATION_ANSWER,
                               TranslationPhrase(wording.ANSWERED_TWICE, model=repr(self.endpoint.model), reason=reason))

    def _complete(self, messages: list[dict[str, str]]) -> str:
        """One chat completion's text, retried on what may pass (see the module docstring)."""
        body = json.dumps({"model": self.endpoint.model, "messages": messages, "temperature": 0.2,
                           "stream": False}, ensure_ascii=False).encode("utf-8")
        last: _Retry | None = None
        for attempt in range(self.attempts):
            self._check_cancel()
            try:
                status, headers, data = self._post(body)
                return _completion_text(status, headers, data, self.endpoint)
            except _Retry as retry:
                last = retry
                if attempt + 1 < self.attempts:
                    wait = retry.wait_s if retry.wait_s is not None else self.backoff_s * 2 ** attempt
                    if self.cancel.wait(min(wait, MAX_WAIT_S)):
                        self._check_cancel()
        assert last is not None
        raise TranslationError(last.code, TranslationPhrase(wording.AFTER_TRIES, reason=last.reason, tries=self.attempts))

    def _post(self, body: bytes) -> tuple[int, http.client.HTTPMessage, bytes]:
        url = urllib.parse.urlsplit(self.endpoint.chat_url)
        port = url.port or (443 if url.scheme == "https" else 80)
        connection: http.client.HTTPConnection
        if url.scheme == "https":
            connection = http.client.HTTPSConnection(url.hostname or "", port, timeout=self.endpoint.timeout_s,
                                                     context=ssl.create_default_context())
        else:
            connection = http.client.HTTPConnection(url.hostname or "", port, timeout=self.endpoint.timeout_s)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.endpoint.api_key:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key}"
        path = url.path or "/"
        where = f"{url.scheme}://{url.netloc}"
        late = _Retry(ErrorCode.TRANSLATOR_UNREACHABLE,
                      TranslationPhrase(wording.NO_ANSWER_IN_TIME, where=where, seconds=self.endpoint.timeout_s))
        with self._lock:
            self._timed_out = False
            self._deadline = time.monotonic() + self.endpoint.timeout_s
        self.requests += 1
        response: http.client.HTTPResponse | None = None
        try:
            connection.connect()
            with self._lock:
                self._socket = connection.sock
            connection.request("POST", path + (f"?{url.query}" if url.query else ""), body, headers)
            response = connection.getresponse()
            data = response.read(MAX_ANSWER_BYTES + 1)
        except TimeoutError:
            self._check_cancel()
            raise late from None
        except (OSError, http.client.HTTPException) as error:
            self._check_cancel()
            if self._timed_out:
                raise late from None
            why = str(error.strerror or error if isinstance(error, OSError) else error)
            raise _Retry(ErrorCode.TRANSLATOR_UNREACHABLE, TranslationPhrase(wording.CANNOT_REACH, where=where, error=why)) from None
        finally:
            with self._lock:
                self._socket, self._deadline = None, None
            if response is not None:  # it holds the socket once the headers are read
                response.close()
            connection.close()
        self._check_cancel()
        if self._timed_out:  # cut while the answer trickled in: what came is not the whole answer
            raise late
        return response.status, response.headers, data

    def _check_cancel(self) -> None:
        if self.cancel.is_set():
            raise TranslationError(ErrorCode.CANCELLED, TranslationPhrase(wording.CANCELLED))


# --- the request's parts and the answer's checks -----------------------------------------------


def _unit_of(lines: Sequence[SourceLine]) -> str:
    units = {line.budget.unit for line in lines if line.budget is not None}
    return units.pop() if len(units) == 1 else "characters"


def _entry(line: SourceLine) -> dict[str, Any]:
    entry: dict[str, Any] = {"text": line.text}
    if line.speaker:
        entry["speaker"] = line.speaker
    if line.language:
        entry["language"] = line.language
    if line.budget is not None:
        entry[f"max_{line.budget.unit}"] = line.budget.limit
    return entry


def _context(line: SourceLine, done: Mapping[str, TranslatedLine]) -> dict[str, str]:
    context = {"text": line.text}
    if line.speaker:
        context["speaker"] = line.speaker
    translation = done[line.id].text if line.id in done else line.current
    if translation:
        context["translation"] = translation
    return context


def _glossary_for(glossary: Sequence[GlossaryEntry], *groups: Sequence[SourceLine]) -> list[GlossaryEntry]:
    """The entries the lines of ``groups`` use (the whole glossary would crowd the model's context)."""
    text = "\n".join(line.text for group in groups for line in group)
    return entries_in(glossary, text)


def _shorter_limit(line: SourceLine, unit: str) -> int:
    """The budget; for a line with none, fewer than it has now (at least one)."""
    if line.budget is not None:
        return line.budget.limit
    from engine.translation.lines import measure

    return max(1, measure(line.current, unit) * 4 // 5)


def _completion_text(status: int, headers: http.client.HTTPMessage, data: bytes, endpoint: Endpoint) -> str:
    """The text of a chat completion, or the error the answer means."""
    detail = _server_message(data)
    if status in (401, 403):
        raise TranslationError(ErrorCode.TRANSLATOR_KEY, TranslationPhrase(wording.KEY_REFUSED, answer=wording.answer(status, detail)))
    if status == 429:
        raise _Retry(ErrorCode.TRANSLATOR_RATE_LIMIT, TranslationPhrase(wording.RATE_LIMIT, answer=wording.answer(status, detail)),
                     _retry_after(headers))
    if status in (400, 413, 422) and _CONTEXT_WORDS.search(detail):
        raise TranslationError(ErrorCode.TRANSLATION_CONTEXT, TranslationPhrase(wording.CONTEXT_TOO_SMALL, detail=detail))
    if status in (408, 409) or status >= 500:
        raise _Retry(ErrorCode.TRANSLATOR_FAILED, TranslationPhrase(wording.ANSWERED, answer=wording.answer(status, detail)),
                     _retry_after(headers))
    if status != 200:
        raise TranslationError(ErrorCode.TRANSLATOR_FAILED, TranslationPhrase(
            wording.ANSWERED_ELSEWHERE, answer=wording.answer(status, detail), url=endpoint.chat_url,
            model=repr(endpoint.model)))
    if len(data) > MAX_ANSWER_BYTES:
        raise TranslationError(ErrorCode.TRANSLATION_ANSWER, TranslationPhrase(wording.ANSWER_TOO_BIG, limit=MAX_ANSWER_BYTES))
    try:
        choice = json.loads(data.decode("utf-8"))["choices"][0]
        content = choice["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError):
        raise TranslationError(ErrorCode.TRANSLATION_ANSWER, TranslationPhrase(wording.NOT_A_COMPLETION, data=repr(data[:120]))) from None
    if choice.get("finish_reason") == "length":  # the model stopped at its limit: the answer is cut
        raise TranslationError(ErrorCode.TRANSLATION_CONTEXT, TranslationPhrase(wording.CUT_OFF))
    if not isinstance(content, str):
        raise TranslationError(ErrorCode.TRANSLATION_ANSWER, TranslationPhrase(wording.NO_TEXT))
    return content


def _server_message(data: bytes) -> str:
    """The error message a server put in its answer (OpenAI's {"error": {"message"}}), short."""
    text = data[:2000].decode("utf-8", "replace")
    try:
        parsed = json.loads(text)
        error = parsed.get("error", parsed) if isinstance(parsed, dict) else parsed
        message = error.get("message", error) if isinstance(error, dict) else error
        text = str(message)
    except ValueError:
        pass
    return " ".join(text.split())[:200]


def _retry_after(headers: http.client.HTTPMessage) -> float | None:
    value = headers.get("Retry-After", "")
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if 0 <= seconds <= MAX_WAIT_S else None


# Where a line's text is when the model wraps each line in an object of its own.
_TEXT_FIELDS = ("text", "translation", "target")


def _parse_answer(content: str, numbers: Sequence[str]) -> dict[str, str]:
    """The model's JSON object of line number -> text, exactly ``numbers``; _BadAnswer says why not."""
    text = _THINKING.sub("", content).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        answer = json.loads(text)
    except ValueError:
        raise _BadAnswer(f"it is not JSON ({text[:80]!r})") from None
    if isinstance(answer, dict) and len(answer) == 1 and str(next(iter(answer))) not in numbers \
            and isinstance(next(iter(answer.values())), dict):
        answer = next(iter(answer.values()))  # {"lines": {...}} or {"translations": {...}}
    if not isinstance(answer, dict):
        raise _BadAnswer(f"it is JSON but not an object of line numbers ({text[:80]!r})")
    keys = [str(key) for key in answer]
    missing = [n for n in numbers if n not in keys]
    extra = [key for key in keys if key not in numbers]
    if missing or extra:
        raise _BadAnswer(f"{len(keys)} lines for {len(numbers)}" + (f", missing {', '.join(missing)}" if missing else "")
                         + (f", unknown {', '.join(extra[:5])}" if extra else ""))
    result: dict[str, str] = {}
    for key, value in answer.items():
        if isinstance(value, dict):  # {"1": {"text": "..."}}, as small local models answer
            value = next((value[field] for field in _TEXT_FIELDS if isinstance(value.get(field), str)), value)
        if not isinstance(value, str) or not value.strip():
            raise _BadAnswer(f"line {key} is {'empty' if isinstance(value, str) else 'not text'}")
        result[str(key)] = " ".join(value.split())
    return result
