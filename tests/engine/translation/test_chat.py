"""The chat-completions translator against a local server that speaks the protocol (no model
runs here: what is tested is what goes into the requests and what is made of the answers)."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import pytest

from engine.core.codes import ErrorCode
from engine.translation import TranslationError
from engine.translation.chat import ChatTranslator, Endpoint
from engine.translation.glossary import GlossaryEntry
from engine.translation.lines import Budget, SourceLine
from tests.engine.translation.chat_server import (
    Asked,
    ChatServer,
    Trickle,
    answer,
    chat_server,
    completion,
    each_line,
)

SECRET = "sk-test-0123456789abcdef"


def translator(server: ChatServer | str, **options: Any) -> ChatTranslator:
    url = server if isinstance(server, str) else server.url
    options.setdefault("backoff_s", 0.01)
    return ChatTranslator(Endpoint(url, "scripted-model", SECRET, timeout_s=options.pop("timeout_s", 10)), **options)


def scene(count: int, *, gap_after: int | None = None, budget: Budget | None = None) -> list[SourceLine]:
    """``count`` lines two seconds apart (a long pause after line ``gap_after``)."""
    lines, start = [], 0.0
    for n in range(1, count + 1):
        lines.append(SourceLine(f"line{n}", f"source {n}", f"Speaker {n % 2 + 1}", budget, start, start + 1.5))
        start += 2.0 + (10.0 if n == gap_after else 0.0)
    return lines


def english(number: str, entry: dict[str, Any], asked: Asked) -> str:
    return f"translated {entry['text']}"


def ids(lines: list[SourceLine]) -> set[str]:
    return {line.id for line in lines}


def test_lines_are_translated_in_scene_batches_with_their_neighbours_as_context() -> None:
    lines = scene(7, gap_after=5)  # scenes 1-5 and 6-7; batches of at most 3 lines
    with chat_server(each_line(english)) as server:
        done = translator(server, batch_lines=3).translate(lines, ids(lines), "zh", "en")
    assert [line.text for line in done] == [f"translated source {n}" for n in range(1, 8)]
    batches = [list(asked.lines.values()) for asked in server.asked]
    assert [[entry["text"] for entry in batch] for batch in batches] == [
        ["source 1", "source 2", "source 3"], ["source 4", "source 5"], ["source 6", "source 7"]]
    second = server.asked[1].request
    # the lines before come with what they were translated as, the lines after as they are
    assert second["context_before"] == [{"text": f"source {n}", "speaker": f"Speaker {n % 2 + 1}",
                                         "translation": f"translated source {n}"} for n in (1, 2, 3)]
    assert [entry["text"] for entry in second["context_after"]] == ["source 6", "source 7"]
    assert second["source_language"] == "zh" and second["target_language"] == "en"
    assert batches[0][0]["speaker"] == "Speaker 2"
    assert server.asked[0].path == "/v1/chat/completions"
    assert server.asked[0].body["model"] == "scripted-model"
    assert server.asked[0].headers["Authorization"] == f"Bearer {SECRET}"


def test_only_the_chosen_lines_are_asked_for_and_the_others_are_context() -> None:
    lines = scene(5)
    with chat_server(each_line(english)) as server:
        done = translator(server).translate(lines, {"line2", "line4"}, "zh", "en")
    assert [line.id for line in done] == ["line2", "line4"]
    assert [list(asked.lines) for asked in server.asked] == [["1"], ["1"]]  # not one scene: line 3 between
    assert [entry["text"] for entry in server.asked[0].request["context_after"]] == ["source 3", "source 4", "source 5"]


def test_each_line_carries_its_budget_and_a_line_over_it_is_asked_once_for_a_shorter_version() -> None:
    budget = Budget(12, "letters")

    def script(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        if asked.shortening:  # the shorter version: line 1 now fits, line 2 still does not
            return answer({"1": "short one", "2": "still far too long for it"})
        return answer({"1": "a translation that is much too long", "2": "one that is also much too long here",
                       "3": "this one fits"})

    lines = scene(3, budget=budget)
    with chat_server(script) as server:
        done = translator(server).translate(lines, ids(lines), "zh", "en")
    assert [entry["max_letters"] for entry in server.asked[0].lines.values()] == [12, 12, 12]
    assert "max_letters" in server.asked[0].system
    shorten = server.requests_of("shorten")
    assert len(shorten) == 1 and len(server.asked) == 2  # asked once, never a third time
    assert shorten[0].lines == {"1": {"source": "source 1", "text": "a translation that is much too long",
                                      "max_letters": 12},
                                "2": {"source": "source 2", "text": "one that is also much too long here",
                                      "max_letters": 12}}
    first, second, third = done
    assert (first.text, first.first_length, first.shortened, first.fits) == ("short one", 29, True, True)
    assert (second.first_length, second.shortened, second.fits, second.length) == (28, True, False, 20)
    assert (third.first_length, third.shortened, third.fits) == (11, False, True)


def test_the_glossary_goes_with_the_lines_that_use_it_and_a_line_that_drops_it_is_reminded_once() -> None:
    glossary = [GlossaryEntry("张伟", "Zhang Wei", "name"), GlossaryEntry("龙门", "Dragon Gate"),
                GlossaryEntry("不用的", "unused")]
    lines = [SourceLine("a", "张伟，快走！", start=0, end=1), SourceLine("b", "去龙门。", start=1.5, end=2.5)]
    calls: list[str] = []

    def script(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        calls.append("remind" if "note" in asked.request else "translate")
        if "note" in asked.request:  # reminded: line b now uses the term
            return answer({"1": "To the Dragon Gate."})
        return answer({"1": "Zhang Wei, go!", "2": "To the gate of dragons."})

    with chat_server(script) as server:
        done = translator(server).translate(lines, {"a", "b"}, "zh", "en", glossary)
    sent = server.asked[0].request["glossary"]
    assert [entry["source"] for entry in sent] == ["张伟", "龙门"]
    assert sent[0] == {"source": "张伟", "target": "Zhang Wei", "kind": "name", "note": ""}
    assert calls == ["translate", "remind"]
    assert list(server.asked[1].lines.values()) == [{"text": "去龙门。"}]
    assert [line.text for line in done] == ["Zhang Wei, go!", "To the Dragon Gate."]
    assert all(not line.missing_terms for line in done)


def test_a_line_that_still_drops_a_glossary_term_says_so() -> None:
    lines = [SourceLine("a", "张伟来了")]
    with chat_server(lambda asked: answer({"1": "Wei is here"})) as server:
        done = translator(server).translate(lines, {"a"}, "zh", "en", [GlossaryEntry("张伟", "Zhang Wei")])
    assert done[0].missing_terms == ("Zhang Wei",) and len(server.asked) == 2


@pytest.mark.parametrize("bad", [
    "Sure! Here are the translations.",  # not JSON
    '{"1": "only one"}',  # too few lines
    '{"1": "one", "2": "two", "3": "three"}',  # too many
    '{"1": "one", "2": ""}',  # an empty line
    '["one", "two"]',  # not an object
])
def test_an_unusable_answer_is_asked_for_again_once_then_refused(bad: str) -> None:
    lines = scene(2)
    with (
        chat_server(lambda asked: (200, completion(bad), {})) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server).translate(lines, ids(lines), "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATION_ANSWER
    assert len(server.asked) == 2
    retry = server.asked[1].body["messages"]
    assert retry[2] == {"role": "assistant", "content": bad} and "cannot be used" in retry[3]["content"]


def test_an_answer_fixed_on_the_second_try_is_used_and_fences_and_thinking_are_read_through() -> None:
    answers = iter(['{"1": "only one"}', '<think>two lines…</think>\n```json\n{"1": "one", "2": "two"}\n```'])
    lines = scene(2)
    with chat_server(lambda asked: (200, completion(next(answers)), {})) as server:
        done = translator(server).translate(lines, ids(lines), "zh", "en")
    assert [line.text for line in done] == ["one", "two"] and len(server.asked) == 2


@pytest.mark.parametrize("wrapped", [
    '{"1": {"text": "one"}, "2": {"translation": "two"}}',  # each line an object, as small local models answer
    '{"lines": {"1": "one", "2": "two"}}',
])
def test_an_answer_with_each_line_or_all_lines_wrapped_in_an_object_is_read(wrapped: str) -> None:
    lines = scene(2)
    with chat_server(lambda asked: (200, completion(wrapped), {})) as server:
        done = translator(server).translate(lines, ids(lines), "zh", "en")
    assert [line.text for line in done] == ["one", "two"] and len(server.asked) == 1


def test_a_one_line_answer_wrapped_as_an_object_is_read() -> None:
    lines = scene(1)
    with chat_server(lambda asked: (200, completion('{"1": {"text": "one"}}'), {})) as server:
        done = translator(server).translate(lines, ids(lines), "zh", "en")
    assert [line.text for line in done] == ["one"] and len(server.asked) == 1


def test_a_wrong_key_is_refused_at_once_without_the_key_in_the_message() -> None:
    error_body = {"error": {"message": f"Incorrect API key provided: {SECRET[:6]}…", "type": "invalid_request_error"}}
    with (
        chat_server(lambda asked: (401, error_body, {})) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATOR_KEY and len(server.asked) == 1
    assert SECRET not in str(caught.value)


def test_the_rate_limit_is_waited_out_and_refused_when_it_lasts() -> None:
    with (
        chat_server(lambda asked: (429, {"error": {"message": "slow down"}}, {"Retry-After": "0"})) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server, attempts=3).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATOR_RATE_LIMIT and len(server.asked) == 3
    assert "slow down" in caught.value.message

    replies = iter([(429, {}, {}), (503, {}, {}), answer({"1": "after the wait"})])
    with chat_server(lambda asked: next(replies)) as server:
        done = translator(server).translate(scene(1), {"line1"}, "zh", "en")
    assert done[0].text == "after the wait" and len(server.asked) == 3


def test_a_server_error_that_lasts_is_refused_after_the_retries() -> None:
    with (
        chat_server(lambda asked: (500, b"internal error", {})) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server, attempts=2).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATOR_FAILED and len(server.asked) == 2


def test_a_server_that_cannot_be_reached_is_refused_after_the_retries() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TranslationError) as caught:
        translator(f"http://127.0.0.1:{port}/v1", attempts=2).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATOR_UNREACHABLE
    assert f"127.0.0.1:{port}" in caught.value.message and SECRET not in str(caught.value)


def test_a_server_that_does_not_answer_in_time_is_refused() -> None:
    def script(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        server.release.wait(5)
        return answer({"1": "too late"})

    with (
        chat_server(script) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server, attempts=1, timeout_s=1).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATOR_UNREACHABLE and "within 1 s" in caught.value.message


def test_a_server_that_trickles_its_answer_is_cut_at_the_timeout() -> None:
    """Each byte comes within the socket's timeout; the request's whole timeout still holds."""
    body = json.dumps(completion('{"1": "slow"}')).encode()
    with chat_server(lambda asked: (200, Trickle(body, 0.2), {})) as server:
        began = time.monotonic()
        with pytest.raises(TranslationError) as caught:
            translator(server, attempts=1, timeout_s=1).translate(scene(1), {"line1"}, "zh", "en")
        waited = time.monotonic() - began
    assert caught.value.code is ErrorCode.TRANSLATOR_UNREACHABLE and "within 1 s" in caught.value.message
    assert waited < len(body) * 0.2 / 2  # not the whole trickle


def test_a_batch_too_long_for_the_context_is_split_and_a_line_too_long_is_refused() -> None:
    too_long = {"error": {"message": "This model's maximum context length is 4096 tokens", "code": "context_length_exceeded"}}

    def script(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        if len(asked.lines) > 2:
            return 400, too_long, {}
        return answer({n: f"t{entry['text']}" for n, entry in asked.lines.items()})

    lines = scene(5)
    with chat_server(script) as server:
        done = translator(server).translate(lines, ids(lines), "zh", "en")
    assert [line.text for line in done] == [f"tsource {n}" for n in range(1, 6)]
    assert [len(asked.lines) for asked in server.asked] == [5, 2, 3, 1, 2]

    with (
        chat_server(lambda asked: (400, too_long, {})) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATION_CONTEXT and "4096" in caught.value.message
    with (
        chat_server(lambda asked: (200, completion('{"1": "cut o', finish_reason="length"), {})) as server,
        pytest.raises(TranslationError) as caught,
    ):
        translator(server).translate(scene(1), {"line1"}, "zh", "en")
    assert caught.value.code is ErrorCode.TRANSLATION_CONTEXT


def test_cancel_cuts_the_request_in_flight() -> None:
    arrived = threading.Event()

    def script(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        arrived.set()
        server.release.wait(30)
        return answer({"1": "never used"})

    with chat_server(script) as server:
        chat = translator(server, timeout_s=60)
        threading.Thread(target=lambda: (arrived.wait(10), chat.abort()), daemon=True).start()
        began = time.monotonic()
        with pytest.raises(TranslationError) as caught:
            chat.translate(scene(1), {"line1"}, "zh", "en")
        waited = time.monotonic() - began
    assert caught.value.code is ErrorCode.CANCELLED
    assert waited < 30  # the 60 s timeout and the 30 s hold were not waited out
    assert len(server.asked) == 1


def test_a_cancel_event_set_elsewhere_cuts_the_request_in_flight_too() -> None:
    """The studio's Cancel sets the event it handed over; it does not call abort()."""
    arrived, cancel = threading.Event(), threading.Event()

    def script(asked: Asked) -> tuple[int, Any, dict[str, str]]:
        arrived.set()
        server.release.wait(30)
        return answer({"1": "never used"})

    with chat_server(script) as server:
        chat = translator(server, timeout_s=60, cancel=cancel)
        threading.Thread(target=lambda: (arrived.wait(10), cancel.set()), daemon=True).start()
        began = time.monotonic()
        with pytest.raises(TranslationError) as caught:
            chat.shorten([SourceLine("a", "好", current="all right")], "en")
        waited = time.monotonic() - began
    assert caught.value.code is ErrorCode.CANCELLED and waited < 30 and len(server.asked) == 1


def test_cancel_between_batches_sends_no_further_request() -> None:
    cancel = threading.Event()
    lines = scene(6)
    with chat_server(each_line(english)) as server:
        chat = translator(server, batch_lines=2, cancel=cancel, progress=lambda done, total: cancel.set())
        with pytest.raises(TranslationError) as caught:
            chat.translate(lines, ids(lines), "zh", "en")
    assert caught.value.code is ErrorCode.CANCELLED and len(server.asked) == 1


def test_shorten_asks_for_a_shorter_wording_of_the_current_text() -> None:
    lines = [SourceLine("a", "我们走吧", budget=Budget(7, "letters"), current="let us go now then"),
             SourceLine("b", "好", current="all right then")]
    with chat_server(lambda asked: answer({"1": "let's go", "2": "okay"})) as server:
        done = translator(server).shorten(lines, "en")
    asked = server.asked[0]
    assert asked.shortening and asked.lines["1"] == {"source": "我们走吧", "text": "let us go now then", "max_letters": 7}
    assert asked.lines["2"]["max_letters"] == 9  # no slot: shorter than its 12 letters now
    assert [(line.text, line.first_length, line.shortened, line.fits) for line in done] == [
        ("let's go", 14, True, True), ("okay", None, True, None)]


def test_the_key_never_shows_in_the_endpoint_or_its_errors() -> None:
    endpoint = Endpoint("http://127.0.0.1:9/v1", "m", SECRET)
    assert SECRET not in repr(endpoint)
    for bad in (Endpoint("ftp://x/v1", "m", SECRET), Endpoint("http://x/v1", " ", SECRET)):
        with pytest.raises(TranslationError) as caught:
            bad.validate()
        assert caught.value.code is ErrorCode.TRANSLATOR and SECRET not in str(caught.value)
