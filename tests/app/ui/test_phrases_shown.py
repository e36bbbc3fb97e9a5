"""Sentences made without Qt (app/project, app/commands) are said in the studio's language, with
numbers written the locale's way (issue 31): readiness problems, timing warnings, undo texts and
the lines of an export's report, in Chinese; decimals with a comma under a German locale."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from pytestqt.qtbot import QtBot

from app.project import Line, Project
from app.project.export import ExportResult, Overrun
from app.project.export_registry import export_format, export_summary
from app.project.loudness import Level
from app.project.readiness import voice_gaps
from app.project.timing import line_timings
from app.project.undo import EditLine, RemoveLines
from app.ui.language import fill, say

LATIN_WORD = re.compile(r"\b[a-z]{3,}\b")  # an English word left in a Chinese sentence


@pytest.fixture
def german(qapp: object) -> Iterator[None]:
    before = QLocale()
    QLocale.setDefault(QLocale("de_DE"))
    yield
    QLocale.setDefault(before)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    made = Project.create(tmp_path / "proj", "Test")
    maya = made.make_character("Maya")  # no clip yet
    made.characters.append(maya)
    made.lines.extend([
        Line(id="l1", text="Fifty-four characters of text said in a three second slot.", character_id=maya.id,
             start=0.0, end=3.0),
        Line(id="l2", text="Who said that?"),
    ])
    return made


def chinese_only(sentence: str) -> bool:
    """Chinese, with no English word left (names and codes aside, which the sentences here lack)."""
    return any("\u4e00" <= c <= "\u9fff" for c in sentence) and not LATIN_WORD.search(sentence)


def test_readiness_timing_and_undo_texts_are_said_in_chinese(chinese: None, project: Project) -> None:
    gaps = [say(sentence) for sentence in voice_gaps(project).describe()]
    assert gaps == ["第 2 行台词没有角色：'Who said that?'", "角色 'Maya'还没有参考音频；有 1 行台词在等它配音"]
    warnings = [say(warning) for warning in line_timings(project)["l1"].warnings()]
    assert warnings[0] == "偏快：每秒 19.3 字（英语舒适上限为 17）。"  # the language's name translated too
    assert all(chinese_only(w) for w in warnings)
    assert say(RemoveLines(["l1", "l2"]).text) == "删除 2 行台词"
    assert say(EditLine("l1", start=1.0).text) == "编辑时间码"
    assert chinese_only(say(line_timings(project)["l1"].describe()))  # the figures' tooltip


def test_an_exports_report_is_said_in_chinese(chinese: None, project: Project) -> None:
    result = ExportResult(files=[project.root / "exports" / "mix.wav"], missing=[2], level=Level(-23.04, -1.52),
                          overruns=[Overrun("l1", 1, "Maya", 0.0, 3.5, 3.0, 0.5)])
    summary = export_summary(project, export_format("mix"), result, qa_hint="")
    said = [say(sentence) for sentence in (summary.headline, *summary.notes, *summary.details)]
    assert said[0] == "已导出mix：exports/mix.wav"  # the studio names it by its label: 已导出混音：…
    assert said[1] == "1 行台词没有版本，未导出：2"
    assert said[2] == "响度：-23.0 LUFS，真峰值 -1.5 dBTP（目标 -23 LUFS，上限 -1 dBTP）"
    assert said[3].startswith("仍然超出：第 1 行（Maya）超出时段 0.50 秒")


def test_the_edit_menu_says_the_undo_text_in_chinese(chinese: None) -> None:
    from app.ui.window.actions import ENTRIES, ActionSpec, StudioState

    undo = next(spec for spec in ENTRIES if isinstance(spec, ActionSpec) and spec.name == "undo")
    assert undo.detail is not None
    assert undo.detail(StudioState(project_open=True, undo_text=RemoveLines(["a"]).text)) == "删除台词"


def test_numbers_follow_a_german_locale(german: None, project: Project) -> None:
    """German writes 1,5 where English writes 1.5: in the phrases and in the studio's own templates."""
    warnings = [say(warning) for warning in line_timings(project)["l1"].warnings()]
    assert warnings[0] == "Fast: 19,3 characters/s (comfortable up to 17 in English)."
    level = say(Level(-23.04, -1.52).describe())
    assert level == "-23,0 LUFS, true peak -1,5 dBTP"
    assert fill("≈{seconds:.1f} s, {count} lines", seconds=2.94, count=1234) == "≈2,9 s, 1234 lines"


def test_the_script_tables_duration_follows_a_german_locale(german: None, project: Project) -> None:
    from app.ui.script.lines_model import Column, LinesModel
    from app.ui.window.document import Document

    model = LinesModel(Document(project))
    tip = model.index(0, Column.DURATION).data(Qt.ItemDataRole.ToolTipRole)
    assert "Fast: 19,3 characters/s" in tip and "19.3" not in tip
    assert model.index(0, Column.DURATION).data() == "⚠ ≈3,8 s"  # the expected length, in German


def test_stress_rows_and_backend_names_are_said_in_chinese(chinese: None) -> None:
    """The engine's declaration tables (load report measures, backends, translators) have no Qt;
    the studio shows their names in its language."""
    from app.ui.engine.engine_controller import describe_engine
    from app.ui.stress.panel import MEASURES, measure_label
    from engine.synthesis.config import EngineConfig

    rows = [measure_label(column.header, column.group) for column in MEASURES]
    assert rows[:2] == ["任务数", "进行中"] and "首段音频 p50" in rows and "总时长 p50" in rows
    assert [row for row in rows if row.isascii()] == ["p90", "CPU %", "GPU %"], rows  # symbols stay as they are
    assert describe_engine(EngineConfig(backend="piper")) == "Piper（内置，美式英语 joe）"


def test_fits_cast_matches_and_import_warnings_are_said_in_chinese(chinese: None) -> None:
    from app.project import phrases
    from app.project.cast import MATCH_THRESHOLD, CastMatch
    from app.project.model import Fit
    from app.project.phrases import Phrase

    fit = Fit(rate=1.12, stretch=1.08, natural_s=3.0, slot_s=2.5)
    assert fit.describe() == "fitted: rate 1.12× + stretch 1.08×"  # the CLI's words
    assert say(fit.describe()) == "已适配：语速 1.12× + 时间拉伸 1.08×" and say(fit.how()) == "语速 1.12× + 时间拉伸 1.08×"
    sure = CastMatch("c1", "Ann", "Anna", MATCH_THRESHOLD + 0.05)
    assert say(sure.describe()).startswith("Ann 就是演员库中的 Anna")
    # A voice known only by the number the transcription gave it is not named: that name is gone once cast.
    heard = CastMatch("c1", "说话人 6", "说话人 2", MATCH_THRESHOLD + 0.05)
    assert say(heard.describe()).startswith("演员库中的 说话人 2 在这里说话") and "说话人 6" not in say(heard.describe())
    skipped = Phrase(phrases.SKIPPED_CUE, file="lines.vtt", line=12)
    assert (skipped, say(skipped)) == ("lines.vtt, line 12: the cue has no text; skipped",
                                       "lines.vtt 第 12 行：该字幕条没有文字，已跳过")


def test_the_stress_verdict_is_said_in_chinese_and_stays_english_for_the_report(chinese: None) -> None:
    """The load test's verdict is a phrase of engine/load/wording.py: the HTML report and the CLI
    keep its English sentence, the Stress tab says it in the studio's language, every part of it
    (the objective, what the first failing level missed, the levels' names) included."""
    from engine.load import wording
    from engine.load.stats import Objective, apply_objective, make_verdict
    from engine.load.wording import LoadPhrase
    from tests.engine.load.helpers import level_of

    levels = [level_of(1, [0.5] * 4), level_of(2, [0.9] * 4, index=1), level_of(4, [2.0] * 4, errors=1, index=2)]
    for stats in levels:  # as engine/load/plans.py names a closed loop's levels
        stats.label = LoadPhrase.counted(stats.level, wording.USER, wording.USERS)
    objective = Objective()
    apply_objective(levels, objective)
    verdict = make_verdict(levels, objective, "closed", "piper", 2)

    assert verdict.sentence.startswith("On piper with 2 slots, this machine serves up to 2 concurrent users")
    assert "at 4 users p95 first audio was 2.00 s (> 1.50 s); 1 error in 5 jobs (E_BACKEND ×1)." in verdict.sentence
    said = say(verdict.sentence)
    assert said.startswith("在 Piper（2 个槽位）上，本机在目标之内（首段音频 p95 ≤ 1.50 秒，无错误，无卡顿；"), said
    assert "在 4 个用户时，首段音频 p95 为 2.00 秒（> 1.50 秒）；5 个任务中有 1 个出错（E_BACKEND ×1）。" in said, said
    assert set(LATIN_WORD.findall(said)) <= {"p95", "E_BACKEND"}, said
    embedded = make_verdict(levels, objective, "closed", "embedded", 1).sentence
    assert embedded.startswith("On embedded with 1 slot,") and say(embedded).startswith("在 内置音色（1 个槽位）上，")


def test_the_qa_tooltip_says_every_reason_in_chinese(chinese: None) -> None:
    """The QA column's tooltip and the takes list: each finding's reason (a QaPhrase of
    engine/hearing/qa/wording.py) and what was measured, in the studio's language."""
    from app.ui.script.columns import finding_text, qa_error_tooltip, qa_tooltip
    from engine.hearing.qa.checks import QaThresholds, TakeChecks, judge

    checks = TakeChecks(checked="2026-01-01T00:00:00+00:00", duration_s=3.0, language="en", recogniser="whisper-base",
                        transcript="i told you", wer=0.1, clipping=0.02, leading_silence_s=1.2, inner_silence_s=0.3,
                        trailing_silence_s=0.2, resemblance=0.1, expected_speech_s=6.0)
    findings = judge(checks, QaThresholds(), overrun_s=0.6).findings
    assert [finding_text(f) for f in findings][:2] == ["QA_TOO_FAST：语音 1.60 秒，台词约需 6.00 秒（27%，下限 67%）：语速过快",
                                                      "QA_CLIPPING：2.00% 的采样达到满幅（上限 0.10%）"]
    tip = qa_tooltip(checks, findings)
    assert "该版本超出时段 0.60 秒（上限 0.25 秒）" in tip and "与角色参考音频的相似度为 0.10（下限 0.25）" in tip
    assert "词错误率 0.10（en）；whisper-base 听到的是“i told you”" in tip and "质检于 2026-01-01 00:00 UTC" in tip
    words = set(LATIN_WORD.findall(tip))
    assert words <= {"whisper", "base", "told", "you", "cosine"}, words  # the recogniser, what it heard, GE2E
    assert qa_error_tooltip("E_QA: no model").startswith("质检未能运行：E_QA: no model\n")


def test_a_range_refusal_is_said_in_chinese(chinese: None, project: Project) -> None:
    """A number out of its range (engine/core/numbers.py): the error dialog's headline and its
    detail, and the script table's refusal of a start time past 24 h, in the studio's language."""
    from app.project.messages import explain
    from app.ui.language import translated
    from app.ui.script.lines_model import Column, LinesModel
    from app.ui.window.document import Document
    from engine.core.numbers import RangeError
    from engine.core.protocol import SPEED

    with pytest.raises(RangeError) as refused:
        SPEED.check(9)
    shown = translated(explain(str(refused.value)))
    assert shown.detail == "Speed 必须是从 0.25 到 4×（1 = 音色本身的语速，2 = 两倍速）的数，收到的是 9。", shown
    assert shown.code == "E_BAD_SETTING" and chinese_only(shown.headline)
    document = Document(project)
    said: list[str] = []
    document.error.connect(said.append)
    model = LinesModel(document)
    assert not model.setData(model.index(0, Column.START), "100000")
    assert said and "必须是从 0 到 86400 秒（24 小时）的数" in said[0], said
    assert said[0].startswith("E_INVALID_VALUE: 第 1 行：")
    explained = translated(explain(said[0]))
    assert chinese_only(explained.headline) and explained.code == "E_INVALID_VALUE"


def test_the_engine_measured_and_its_start_up_are_said_in_chinese(chinese: None) -> None:
    """The Stress tab's "measured on" line, the engine inside the verdict and the engine's start-up
    stages: phrases of engine/load/wording.py and engine/core/protocol.py, built from the report's
    facts (so a report read back from its JSON says them too)."""
    import json

    from engine.core.protocol import LOADING, WARMING_UP, BackendName, EnginePhrase
    from engine.load.report import BenchReport, hardware_line
    from engine.load.runner import engine_label
    from engine.load.stats import Objective, make_verdict
    from engine.synthesis.backends.cosyvoice_models import synthetic_banner

    engine = {"backend": "cosyvoice2", "model_kind": "synthetic", "model_size": "full", "device": "cuda:0",
              "gpu_name": "NVIDIA H100", "gpu_memory_gb": 80, "slots": 2, "torch": "2.13.0",
              "warm_up": {"over": True, "waited_s": 1.94}}
    engine = json.loads(json.dumps(engine))  # as a report's JSON holds them
    report = BenchReport("2026-01-01T00:00:00Z", 1.0, False, {}, engine, {"cpu_count": 2}, [],
                         make_verdict([], Objective(), "closed", "cosyvoice2", 2), [], [])
    line = hardware_line(report)
    assert line == ("cosyvoice2 · synthetic full model · cuda:0 (NVIDIA H100, 80 GB), 2 slots · torch 2.13.0 · "
                    "warm-up over before the first level (waited 1.9 s)")  # the CLI's and the HTML report's words
    assert say(line) == ("CosyVoice2 · 合成全尺寸模型 · cuda:0 (NVIDIA H100, 80 GB)，2 个槽位 · torch 2.13.0 · "
                         "预热在第一个级别前完成（等待了 1.9 秒）")
    label = engine_label(engine)
    assert (label, say(label)) == ("cosyvoice2 (synthetic weights, cuda:0)", "CosyVoice2（合成权重，cuda:0）")
    banner = synthetic_banner(engine | {"model_dir": "/models/cosyvoice2-synthetic"})
    assert banner is not None and say(banner) == ("合成的 full 模型文件夹（/models/cosyvoice2-synthetic）：随机权重："
                                                   "生成的语音只是噪声，仅用于测速和硬件探测。")
    stage = EnginePhrase(LOADING, backend=BackendName("embedded"))
    assert (stage, say(stage), say(EnginePhrase(WARMING_UP))) == ("loading embedded", "正在加载 内置音色", "正在预热")


def test_the_engine_status_and_the_stress_presets_are_chinese(chinese: None) -> None:
    from app.ui.engine.engine_status import EngineStatus
    from app.ui.language import PROBE_NAMES, declared
    from app.ui.tasks import SyncTaskRunner
    from engine.core.protocol import OPENING_CACHE, EnginePhrase, EngineStarting
    from engine.load.probe import PRESETS

    status = EngineStatus(SyncTaskRunner())
    status.show_stage(EngineStarting(42, EnginePhrase(OPENING_CACHE), 1.5))
    assert status.text().endswith("正在打开音色缓存…"), status.text()
    assert chinese_only(status.text()), status.text()
    assert [declared(PROBE_NAMES, probe.label) for probe in PRESETS.values()] == ["硬件探测：CosyVoice2-0.5B（合成权重）"]


def test_a_script_files_import_error_is_said_in_chinese(chinese: None, project: Project, tmp_path: Path) -> None:
    """Why a subtitle file cannot be imported: the file and line, and the problem, in the studio's
    language; the code stays for a bug report, the CLI keeps the English sentence."""
    from app.project.errors import ImportFormatError
    from app.project.script_io import script_format
    from app.ui.language import said_error, shown_message

    broken = tmp_path / "lines.srt"
    broken.write_text("1\n00:00:01,000 -> 00:00:02,000\nHello\n", encoding="utf-8")
    with pytest.raises(ImportFormatError) as refused:
        script_format("srt").reader(broken, project)
    english = f"E_IMPORT_FORMAT: {broken}, line 2: malformed timecode line '00:00:01,000 -> 00:00:02,000' " \
              "(expected 'HH:MM:SS,mmm --> HH:MM:SS,mmm')"
    assert str(refused.value) == english
    said = said_error(refused.value)  # what the studio sends to its error dialog
    assert said == (f"E_IMPORT_FORMAT: {broken} 第 2 行：时间码行 '00:00:01,000 -> 00:00:02,000' 格式有误"
                    "（应为 'HH:MM:SS,mmm --> HH:MM:SS,mmm'）"), said
    shown = shown_message(said)
    assert shown.endswith("(E_IMPORT_FORMAT)") and chinese_only(shown.split("。")[0]), shown
    # The detail, Chinese, ends as Chinese ends a sentence: 。 and no English full stop.
    assert "'HH:MM:SS,mmm --> HH:MM:SS,mmm'）。" in shown and "）." not in shown, shown
    ended = shown_message("E_IMPORT_FORMAT: 第 3 行：没有字幕")  # a detail already said, ending in a Han character
    assert ended == "无法读取台本文件。第 3 行：没有字幕。(E_IMPORT_FORMAT)", ended


def test_the_backends_options_form_is_chinese(chinese: None) -> None:
    """The Settings form built from the backends' declarations: every option's label and tooltip."""
    from PySide6.QtWidgets import QLabel

    from app.ui.engine.backend_form import BackendOptionsForm
    from engine.synthesis.backends import descriptor

    for name in ("embedded", "cosyvoice2"):
        form = BackendOptionsForm(descriptor(name))
        labels = [label for label in form.findChildren(QLabel) if label.text()]
        def chinese(text: str) -> bool:
            return any("\u4e00" <= c <= "\u9fff" for c in text)

        assert labels and all(chinese(label.text()) and chinese(label.toolTip()) for label in labels), \
            [(label.text(), label.toolTip()) for label in labels]


def test_a_translators_refusal_is_said_in_chinese(chinese: None) -> None:
    """The translators' errors (engine/translation/wording.py): the CLI's English, the studio's
    Chinese, what the server said kept as it came."""
    from app.ui.language import shown_message
    from engine.translation import TranslationError
    from engine.translation.chat import Endpoint

    with pytest.raises(TranslationError) as refused:
        Endpoint(base_url="ftp://example.org", model="qwen2.5").validate()
    assert str(refused.value) == ("E_TRANSLATOR: the endpoint's base URL must be http(s)://HOST[:PORT]/PATH, "
                                  "got 'ftp://example.org'")
    shown = shown_message(str(refused.value))
    assert "接口的基础地址必须是 http(s)://主机[:端口]/路径，收到的是 'ftp://example.org'。" in shown, shown
    assert shown.endswith("(E_TRANSLATOR)")


def test_an_export_refusal_is_said_in_chinese(chinese: None, project: Project) -> None:
    """Why an export cannot be made (app/project/export*.py, video_export…): the CLI keeps the
    English sentence, the studio's error dialog says the headline and the detail in Chinese."""
    from app.project.errors import ExportError
    from app.project.export import mixdown
    from app.project.video_export import VideoExportOptions, check_video_export
    from app.ui.language import said_error, shown_message

    with pytest.raises(ExportError) as refused:
        mixdown(project)
    assert str(refused.value) == "E_EXPORT: nothing to mix: no line has a rendered take yet"
    shown = shown_message(said_error(refused.value))
    assert "无可混音的内容：还没有任何台词生成了版本" in shown and shown.endswith("(E_EXPORT)"), shown
    assert chinese_only(shown.removesuffix("(E_EXPORT)")), shown

    with pytest.raises(ExportError) as refused:
        check_video_export(project, VideoExportOptions())
    assert str(refused.value) == ("E_EXPORT: the project has no video; add one (dubstudio new --video, "
                                  "or File › New from video)")
    said = said_error(refused.value)
    assert said == "E_EXPORT: 项目没有视频；请添加一个（dubstudio new --video，或 文件 › 从视频新建）", said


def test_a_project_or_video_that_cannot_be_opened_is_said_in_chinese(chinese: None, tmp_path: Path) -> None:
    """Why a project folder or a video cannot be opened (app/project/codec.py, media.py): the CLI's
    English, the studio's Chinese, the file's own name and Python's JSON message kept as they are."""
    from app.project.errors import MediaError, ProjectFileError
    from app.project.media import probe_video
    from app.ui.language import said_error, shown_message

    with pytest.raises(ProjectFileError) as refused:
        Project.load(tmp_path)
    assert str(refused.value) == f"E_BAD_PROJECT_FILE: {tmp_path} is not a DubStudio project (no project.json)"
    said = said_error(refused.value)
    assert said == f"E_BAD_PROJECT_FILE: {tmp_path} 不是 DubStudio 项目（没有 project.json）", said
    assert shown_message(said).endswith("(E_BAD_PROJECT_FILE)")

    from app.project.migrations import CURRENT_SCHEMA

    (tmp_path / "project.json").write_text(f'{{"schema_version": {CURRENT_SCHEMA}, "title": "x", "lines": [1]}}',
                                           encoding="utf-8")
    with pytest.raises(ProjectFileError) as refused:
        Project.load(tmp_path)
    assert str(refused.value).endswith("lines[0]: expected an object"), str(refused.value)
    assert said_error(refused.value).endswith("lines[0]：应为对象"), said_error(refused.value)

    not_a_video = tmp_path / "clip.mp4"
    not_a_video.write_bytes(b"no video in here")
    with pytest.raises(MediaError) as refused:
        probe_video(not_a_video)
    english = str(refused.value)
    assert english.startswith("E_VIDEO_UNREADABLE: cannot read clip.mp4 as a video: "), english
    said = said_error(refused.value)
    assert said.startswith("E_VIDEO_UNREADABLE: 无法将 clip.mp4 作为视频读取："), said


def test_a_glossary_refusal_is_said_in_chinese(chinese: None) -> None:
    """The glossary's and the registry's refusals (engine/translation/wording.py): English for the
    CLI, Chinese in the studio, the team's own wordings kept as written."""
    from app.ui.language import shown_message
    from engine.translation import TranslationError
    from engine.translation.glossary import GlossaryEntry, validate_glossary
    from engine.translation.registry import translator_named

    with pytest.raises(TranslationError) as refused:
        validate_glossary([GlossaryEntry("张伟", "Zhang Wei"), GlossaryEntry("张伟", "Wei Zhang")])
    assert str(refused.value) == "E_INVALID_VALUE: glossary entry 2: '张伟' is already translated as 'Zhang Wei'"
    shown = shown_message(str(refused.value))
    assert "术语表第 2 条：'张伟' 已经译为 'Zhang Wei'" in shown and shown.endswith("(E_INVALID_VALUE)"), shown

    with pytest.raises(TranslationError) as refused:
        validate_glossary([GlossaryEntry(" ", "x")])
    assert str(refused.value) == "E_INVALID_VALUE: glossary entry 1: the source wording is empty"
    assert "术语表第 1 条：原文措辞为空" in shown_message(str(refused.value))

    with pytest.raises(TranslationError) as refused:
        translator_named("babel")
    assert "没有名为 'babel' 的翻译器" in shown_message(str(refused.value))


def test_a_value_the_project_refuses_is_said_in_chinese(chinese: None, project: Project) -> None:
    """A character's clip trim the project refuses (app/project/model.py): English for the CLI and
    the logs, Chinese in the studio, the character's name kept as written."""
    from app.project.errors import InvalidValueError
    from app.project.model import validate_character
    from app.ui.language import said_error

    maya = project.characters[0]
    maya.clip_start, maya.clip_end = 2.0, 1.0
    with pytest.raises(InvalidValueError) as refused:
        validate_character(maya)
    assert str(refused.value) == "E_INVALID_VALUE: Maya's clip trim ends (1.000 s) before it starts (2.000 s)"
    said = said_error(refused.value)
    assert said == "E_INVALID_VALUE: Maya 的参考音频裁剪终点（1.000 秒）早于起点（2.000 秒）", said


def test_a_cast_library_refusal_is_said_in_chinese(chinese: None, project: Project, tmp_path: Path) -> None:
    """The cast library's refusals (app/project/cast.py): English for `dubstudio cast`, Chinese in
    the studio's dialog, the character's name kept as written."""
    from app.project.cast import CastLibrary, character_audio, remove_member
    from app.project.errors import CastLibraryError
    from app.ui.language import said_error, shown_message

    with pytest.raises(CastLibraryError) as refused:
        remove_member(CastLibrary(tmp_path / "cast"), "Zoe")
    assert str(refused.value) == "E_UNKNOWN_ID: the cast library has no character 'Zoe'"
    said = said_error(refused.value)
    assert said == "E_UNKNOWN_ID: 演员库中没有角色 'Zoe'", said

    with pytest.raises(CastLibraryError) as refused:
        character_audio(project, project.characters[0])  # Maya has no clip yet
    assert str(refused.value) == "E_NO_CLIP: Maya has no voice clip to save to the cast library"
    shown = shown_message(said_error(refused.value))
    assert "Maya 没有可保存到演员库的参考音频" in shown and shown.endswith("(E_NO_CLIP)"), shown
    assert chinese_only(shown.removesuffix("(E_NO_CLIP)")), shown


def test_an_edit_or_an_old_project_the_project_refuses_is_said_in_chinese(chinese: None, project: Project) -> None:
    """An edit the project refuses (app/project/undo.py) and an old project.json that cannot be
    brought up to date (app/project/migrations.py): English for the CLI, Chinese in the studio."""
    from app.project.errors import InvalidValueError, MigrationError, UnknownIdError
    from app.project.migrations import migrate
    from app.project.undo import AddCharacter, AddLines
    from app.ui.language import said_error

    with pytest.raises(InvalidValueError) as refused:
        AddCharacter(project.make_character("Maya")).do(project)
    assert str(refused.value) == "E_INVALID_VALUE: a character named 'Maya' already exists"
    said = said_error(refused.value)
    assert said == "E_INVALID_VALUE: 名为 'Maya' 的角色已存在", said

    with pytest.raises(UnknownIdError) as unknown:
        AddLines([Line(id="l9", text="Hello", character_id="nobody")]).do(project)
    assert str(unknown.value) == "E_UNKNOWN_ID: no character with id 'nobody'"
    said = said_error(unknown.value)
    assert said == "E_UNKNOWN_ID: 没有 ID 为 'nobody' 的角色", said

    with pytest.raises(MigrationError) as broken:
        migrate({"schema_version": 2, "lines": [1]})
    assert str(broken.value) == "E_MIGRATION: v2 line 1 must be an object"
    said = said_error(broken.value)
    assert said == "E_MIGRATION: v2 第 1 条台词必须是对象", said
    assert chinese_only(said.removeprefix("E_MIGRATION: ")), said


def test_a_refused_edit_crosses_the_documents_signal_in_chinese(chinese: None, project: Project) -> None:
    """A str subclass does not survive a Qt Signal(str): the document says the refusal before it
    sends it, so the studio's dialog gets the Chinese detail, not the English one."""
    from app.project.undo import AddCharacter
    from app.ui.window.document import Document

    doc = Document(project)
    sent: list[str] = []
    doc.error.connect(sent.append)
    assert not doc.push(AddCharacter(project.make_character("Maya")))
    assert sent == ["E_INVALID_VALUE: 名为 'Maya' 的角色已存在"], sent


def test_a_backend_options_refusal_is_said_in_chinese(chinese: None) -> None:
    """A backend option's refusal (engine/synthesis/backends/descriptor.py, E_BAD_OPTION): the
    CLI's English is unchanged, the studio says where and why in Chinese (names and values kept)."""
    from app.ui.language import said_error
    from engine.synthesis.backends import OptionError, descriptor

    piper = descriptor("piper")
    with pytest.raises(OptionError) as refused:
        piper.parse_assignments(["threads"])
    assert str(refused.value) == "E_BAD_OPTION: backend option 'threads' of piper: expected KEY=VALUE, got 'threads'"
    said = said_error(refused.value)
    assert said == "E_BAD_OPTION: piper 的后端选项 'threads'：应为 KEY=VALUE，收到的是 'threads'", said

    with pytest.raises(OptionError) as refused:
        descriptor("babel")
    said = said_error(refused.value)
    assert said.startswith("E_BAD_OPTION: 后端 'babel'：未知的后端；已知的有：piper, "), said

    with pytest.raises(OptionError) as refused:
        piper.validate({"nosuch": 1})
    said = said_error(refused.value)
    assert said.startswith("E_BAD_OPTION: piper 的后端选项 'nosuch'：没有这个选项；piper 接受的选项有 "), said


def test_a_gone_line_and_a_path_outside_the_project_are_said_in_chinese(chinese: None, project: Project) -> None:
    """The project's own look-ups and path checks (project.py, fsutil.py): a line the studio
    names that is gone (a drag while the project changed) and a clip path leaving the folder."""
    from app.project.errors import PathEscapeError, UnknownIdError
    from app.project.fsutil import check_relative
    from app.ui.language import said_error

    with pytest.raises(UnknownIdError) as gone:
        project.line("l9")
    assert str(gone.value) == "E_UNKNOWN_ID: no line with id 'l9'"
    said = said_error(gone.value)
    assert said == "E_UNKNOWN_ID: 没有 ID 为 'l9' 的台词", said

    with pytest.raises(PathEscapeError) as escaped:
        check_relative("../voices/maya.wav")
    assert str(escaped.value) == "E_PATH_ESCAPE: Path '../voices/maya.wav' points outside the project folder"
    said = said_error(escaped.value)
    assert said == "E_PATH_ESCAPE: 路径 '../voices/maya.wav' 指向项目文件夹之外", said


def test_a_time_the_script_table_cannot_read_is_said_in_chinese(chinese: None, project: Project) -> None:
    """A time typed into the script table that is no time (app/project/timecode.py): the table's
    refusal reaches the error dialog in Chinese, the typed text kept as typed."""
    from app.project.timecode import parse_time
    from app.ui.script.lines_model import Column, LinesModel
    from app.ui.window.document import Document

    with pytest.raises(ValueError, match=r"^time '1:75' has minutes or seconds of 60 or more$"):
        parse_time("1:75")
    document = Document(project)
    said: list[str] = []
    document.error.connect(said.append)
    model = LinesModel(document)
    assert not model.setData(model.index(0, Column.START), "soon")
    assert said == ["E_INVALID_VALUE: 第 1 行：无法读取时间 'soon'（请用秒数或 HH:MM:SS,mmm）"], said


def test_an_edit_that_ends_a_line_before_it_starts_names_the_line_in_chinese(chinese: None, project: Project) -> None:
    """The line an edit's refusal names ("line 1") is a phrase too (app/project/undo.py)."""
    from app.project.errors import InvalidValueError
    from app.ui.language import said_error

    with pytest.raises(InvalidValueError) as refused:
        EditLine("l1", end=1.0, start=2.0).do(project)
    assert str(refused.value) == "E_TIME_RANGE: line 1 ends (0:01.000) before it starts (0:02.000)"
    said = said_error(refused.value)
    assert said == "E_TIME_RANGE: 第 1 条台词 的结束时间（0:01.000）早于开始时间（0:02.000）", said


def test_an_engine_that_cannot_start_is_said_in_chinese(chinese: None, qtbot: QtBot, tmp_path: Path) -> None:
    """The engine bridge says a start failure before its signal: an unknown backend (an
    OptionError inside the client's EngineStartError) reaches the status bar in Chinese."""
    from app.ui.engine.bridge import EngineBridge
    from engine.synthesis.config import EngineConfig

    bridge = EngineBridge(EngineConfig(backend="no-such-backend", cache_dir=str(tmp_path)))
    with qtbot.waitSignal(bridge.start_failed, timeout=60_000) as failed:
        bridge.start()
    said = failed.args[0]
    assert said.startswith("E_BAD_OPTION: 后端 'no-such-backend'：未知的后端；已知的有：piper, "), said


def test_who_holds_a_projects_lock_is_said_in_chinese(chinese: None) -> None:
    """A locked project's holder (app/project/lock.py): the read-only banner and the refusal say
    the process and the host in Chinese, the program's and host's names as they are."""
    from app.project import phrases
    from app.project.lock import describe_holder
    from app.project.phrases import Phrase

    holder = describe_holder({"program": "dubstudio render", "pid": 4242, "host": "studio-pc",
                              "since": "2026-01-01T10:00:00+00:00"})
    assert holder == "dubstudio render (pid 4242 on studio-pc, since 2026-01-01 10:00:00 UTC)"
    assert say(holder) == "dubstudio render（studio-pc 上的进程 4242，自 2026-01-01 10:00:00 UTC 起）", say(holder)
    assert say(describe_holder({})) == "另一个 DubStudio（未知主机 上的进程 ?）", say(describe_holder({}))
    refusal = Phrase(phrases.OPEN_ELSEWHERE, folder="/p", holder=holder)
    assert say(refusal) == "/p 已在 dubstudio render（studio-pc 上的进程 4242，自 2026-01-01 10:00:00 UTC 起） 中打开；请先在那里关闭"


def test_the_language_gates_refusal_and_a_clips_refusal_are_said_in_chinese(chinese: None) -> None:
    """E_LANGUAGE_UNSUPPORTED's detail (the language, where it was read from, the backends that
    speak it) and a reference clip's refusal are phrases of the engine: the studio says them."""
    from app.project.messages import explain
    from app.ui.language import translated
    from engine.core.languages import language_refusal
    from engine.core.reference import TOO_LITTLE_SPEECH, ClipPhrase

    registry = {"piper": ["en"], "zh-baker": ["zh"], "embedded": ["en", "zh"], "cosyvoice2": ["zh", "en"]}
    refusal = language_refusal("我们今天晚上出发。", "", "piper", ["en"], registry)
    assert refusal is not None
    shown = str(translated(explain(str(refusal))))
    # The headline and its detail joined as Chinese writes them: no space after 。
    assert shown.startswith("这个声音说不了这句台词的语言。这句台词是中文（普通话）（zh，依据台词文字的书写系统），Piper 后端说不了（它会说：en）")
    # The backends by their display names, not their ids ("embedded" is 内置音色), listed with 、
    assert "会说这种语言的后端：zh-baker、内置音色、CosyVoice2" in shown and "(E_LANGUAGE_UNSUPPORTED)" in shown
    assert str(refusal).startswith("E_LANGUAGE_UNSUPPORTED: the line is in Chinese (Mandarin) (zh, from its text's")
    assert "backends that speak it: zh-baker, embedded, cosyvoice2." in str(refusal)  # the commands keep the ids
    foreign = language_refusal("We meet in 北京 tomorrow.", "en", "piper", ["en"], {"piper": ["en"], "zh-baker": ["zh"]})
    assert foreign is not None and str(foreign).startswith("E_LANGUAGE_UNSUPPORTED: the line is in English (en) but holds")
    assert say(foreign.message).startswith("这句台词是英语（en），却含有中文（普通话）字符（北京），Piper 音色说不了。"), say(foreign.message)
    short = say(ClipPhrase(TOO_LITTLE_SPEECH, file="maya.wav", seconds=0.42, least=1.0))
    assert short == "参考音频 maya.wav 只有 0.42 秒的语音；至少需要 1 秒"


def test_the_dub_past_the_videos_end_is_said_in_chinese(chinese: None) -> None:
    from app.project import phrases
    from app.project.music_effects import CENTRE_FILTER
    from app.project.phrases import Phrase

    past = Phrase(phrases.DUB_PAST_VIDEO, seconds=7.6)
    assert past == "the dub ran 7.60 s past the end of the video and was cut there"
    assert say(Phrase(phrases.NOTE, note=past)) == "注意：配音超出视频结尾 7.60 秒，已在结尾处截断"
    assert say(Phrase(phrases.MUSIC_EFFECTS_MADE, method=CENTRE_FILTER)) == "M&E：去掉中置成分的立体声混音"


def test_why_a_takes_words_were_not_checked_is_said_in_chinese(chinese: None) -> None:
    from engine.hearing.qa import wording
    from engine.hearing.qa.wording import QaPhrase

    english_only = QaPhrase(wording.ENGLISH_ONLY_MODEL, model="tiny.en", language="de")
    assert say(QaPhrase(wording.NOT_CHECKED, why=english_only)) == (
        "未检查可懂度：Whisper tiny.en 只听得懂英语；要检查“de”，请在设置中选择 base 模型（或更大的模型）")
    assert say(QaPhrase(wording.NOT_CHECKED, why=QaPhrase(wording.NO_WORDS))) == "未检查可懂度：台词中没有可比对的词"


def declared_templates() -> list[tuple[str, str]]:
    """Every (context, template) the engine's and the project layer's tables declare for the
    studio to say: the phrases of app/project/phrases.py and each engine table of templates."""
    from app.project import phrases
    from engine.core import languages, numbers, reference
    from engine.hearing.qa import wording as qa_wording
    from engine.load import wording as load_wording
    from engine.synthesis import voices
    from engine.synthesis.backends.descriptor import TEMPLATES as OPTION_TEMPLATES
    from engine.translation import wording as translation_wording

    found = [("phrases", value) for name, value in vars(phrases).items()
             if name.isupper() and isinstance(value, str) and name != "CONTEXT"]
    found += [("reference clips", t) for t in reference.TEMPLATES]
    found += [("language gate", t) for t in languages.GATE_TEMPLATES]
    found += [("voices", t) for t in voices.TEMPLATES]
    found += [("qa", t) for templates in qa_wording.TEMPLATES.values() for t in templates]
    found += [("load", t) for t in load_wording.TEMPLATES]
    found += [("ranges", t) for t in numbers.TEMPLATES]
    found += [("backend options", t) for t in OPTION_TEMPLATES]
    found += [("translation", t) for t in translation_wording.TEMPLATES]
    return found


def test_every_declared_template_has_a_finished_chinese_translation_with_its_placeholders() -> None:
    """A sentence the studio says from a table must be in the zh_CN catalogue, finished, and keep
    the template's placeholders (a translation that loses one is shown in English instead)."""
    import string
    import xml.etree.ElementTree as ElementTree

    from engine.core.paths import REPO_ROOT

    catalogue = ElementTree.parse(REPO_ROOT / "translations" / "dubstudio_zh_CN.ts")
    finished = {(context.findtext("name"), message.findtext("source")): message.find("translation")
                for context in catalogue.getroot() for message in context.findall("message")}

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    missing, broken = [], []
    for context, template in declared_templates():
        translation = finished.get((context, template))
        if translation is None or translation.get("type") or not translation.text:
            missing.append(f"{context}: {template}")
        elif fields(translation.text) != fields(template):
            broken.append(f"{context}: {template} -> {translation.text}")
    assert not missing, "no finished zh_CN translation:\n" + "\n".join(missing)
    assert not broken, "placeholders differ:\n" + "\n".join(broken)


def test_a_saved_render_error_and_not_checked_reason_are_said_in_chinese_after_a_reload(
        chinese: None, project: Project) -> None:
    """project.json keeps a line's render error and take QA's "not checked" reason as their
    templates beside the English sentence, so a reopened project still says them; a sentence
    stored before (no template beside it), or edited by hand, shows as it is."""
    import json

    from app.ui.language import shown_message
    from engine.core.languages import language_refusal
    from engine.hearing.qa import wording
    from engine.hearing.qa.checks import TakeChecks
    from engine.hearing.qa.wording import QaPhrase

    refusal = language_refusal("我们今天晚上出发。", "", "piper", ["en"], {"piper": ["en"], "zh-baker": ["zh"]})
    assert refusal is not None
    project.lines[1].error = str(refusal)
    project.save()
    stored = json.loads((project.root / "project.json").read_text(encoding="utf-8"))["lines"][1]
    assert stored["error"] == str(refusal)  # the commands and older studios read the English
    reopened = Project.load(project.root)
    shown = shown_message(reopened.lines[1].error)
    assert shown.startswith("这个声音说不了这句台词的语言。这句台词是中文（普通话）"), shown

    checks = TakeChecks(checked="2026-01-01T00:00:00+00:00", duration_s=3.0, language="en", recogniser="whisper-base",
                        transcript=None, wer=None, clipping=0.0, leading_silence_s=0.1, inner_silence_s=0.0,
                        trailing_silence_s=0.1, resemblance=None, not_checked=QaPhrase(wording.NO_WORDS))
    kept = json.loads(json.dumps(checks.to_dict()))
    assert kept["not_checked"] == "the line has no words to compare"
    assert say(TakeChecks.from_dict(kept).not_checked) == "台词中没有可比对的词"

    old = {key: value for key, value in kept.items() if key != "not_checked_phrase"}  # saved before
    assert say(TakeChecks.from_dict(old).not_checked) == kept["not_checked"]
    edited = kept | {"not_checked": "checked by ear"}  # its sentence changed by hand: the hand's words
    assert say(TakeChecks.from_dict(edited).not_checked) == "checked by ear"
