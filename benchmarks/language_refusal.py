"""How many Chinese lines Piper's English voice synthesises, through each client (issue 30).

The goal is 0 of N: the engine refuses every job whose language its backend does not declare
(E_LANGUAGE_UNSUPPORTED) before any synthesis. 40 everyday Chinese dialogue lines (names,
numbers, English words inside, traditional characters) go through:

- the engine API (an EngineClient, as the server's replicas and the bench use it);
- ``dubstudio say`` (one engine start per line, so ``--say-lines`` of them);
- ``dubstudio render`` of a project holding the 40 lines and 2 English ones;
- the studio's script table (LinesModel, offscreen Qt): how many lines it flags.

For each client it counts the lines synthesised (audio chunks, a WAV written, a take made) and
the lines refused with the code. The English control lines must still be spoken.

Run: .venv/bin/python benchmarks/language_refusal.py [--say-lines 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
VOICES = ROOT / "resources" / "voices"

CHINESE = (
    "甚至出现交易几乎停滞的情况", "你明天早上八点来接我吧。", "我们去Starbucks喝杯咖啡，好不好？",
    "王经理，这份合同需要您签字。", "别担心，一切都会好起来的！", "這件事我們改天再談。", "你吃饭了吗？",
    "我已经把报告发到你的邮箱了。", "今天的会议改到下午三点。", "李秘书，请帮我订一张去上海的机票。",
    "这个价格太贵了，能便宜一点吗？", "他说他二零一九年就搬走了。", "快点，电影七点半就开始了！",
    "我的手机没电了，借我充一下。", "妈妈，我回来了。", "你为什么不早点告诉我？", "我们公司明年要上市。",
    "这道菜有点辣，你能吃吗？", "对不起，我不是故意的。", "张总今天不在办公室。", "请把门关上，外面太吵了。",
    "我觉得这个方案还需要再改改。", "下雨了，记得带伞。", "他的iPhone昨天丢了。", "我们下周一再见面谈吧。",
    "你听说了吗？小王要结婚了！", "这个月的房租是三千五百块。", "医生说你需要多休息。", "我等了你整整一个小时。",
    "周末我们一起去爬山吧。", "这份文件明天之前必须交。", "你放心，我一定会保密的。", "路上堵车，我可能要晚到。",
    "她在北京大学读研究生。", "我们的航班延误了两个小时。", "谢谢你的帮助，改天请你吃饭。", "我不同意你的看法。",
    "孩子们都睡着了吗？", "这家店的生意越来越好了。", "我们再给他一次机会吧。",
)
ENGLISH = ("Did you see the lights past the rocks last night?", "We should tell the harbour master.")


def engine_api(cache: Path) -> dict[str, Any]:
    from engine.core.protocol import (
        AudioChunk,
        ErrorCode,
        Job,
        JobFailed,
        JobFinished,
        VoiceSpec,
    )
    from engine.synthesis.client.local import EngineClient
    from engine.synthesis.config import EngineConfig

    voice = VoiceSpec(str(VOICES / "maya.wav"), (VOICES / "maya.txt").read_text(encoding="utf-8").strip())
    jobs = [Job(text, voice, listening=False) for text in (*CHINESE, *ENGLISH)]
    client = EngineClient(EngineConfig(slots=2, cache_dir=str(cache)))
    client.start()
    spoken: set[str] = set()
    refused: set[str] = set()
    ended: set[str] = set()
    try:
        for job in jobs:
            client.submit(job)
        while len(ended) < len(jobs):
            event = client.get_event(timeout=600)
            job_id = getattr(event, "job_id", None)
            if isinstance(event, AudioChunk):
                spoken.add(event.job_id)
            elif isinstance(event, JobFailed) and not event.resubmitted:
                ended.add(event.job_id)
                if event.code is ErrorCode.LANGUAGE_UNSUPPORTED:
                    refused.add(event.job_id)
            elif isinstance(event, JobFinished) and job_id is not None:
                ended.add(job_id)
    finally:
        client.close()
    chinese_ids = {job.job_id for job in jobs[: len(CHINESE)]}
    return {"synthesised": len(spoken & chinese_ids), "refused": len(refused & chinese_ids),
            "english_spoken": len(spoken - chinese_ids)}


def say(cache: Path, out: Path, count: int) -> dict[str, Any]:
    dubstudio = shutil.which("dubstudio", path=str(Path(sys.executable).parent))
    assert dubstudio, "the dubstudio console script is not installed in this interpreter's environment"
    written = refused = 0
    codes: list[int] = []
    for n, text in enumerate(CHINESE[:count]):
        wav = out / f"say{n}.wav"
        run = subprocess.run([dubstudio, "say", text, "--voice", str(VOICES / "maya.wav"), "--out", str(wav),
                              "--cache-dir", str(cache)], capture_output=True, text=True, timeout=600)
        codes.append(run.returncode)
        written += wav.exists()
        refused += "E_LANGUAGE_UNSUPPORTED" in run.stderr
    return {"lines": count, "synthesised": written, "refused": refused, "exit_codes": sorted(set(codes))}


def make_project(root: Path) -> Any:
    from app.project import Line, Project
    from app.project.clips import import_clip
    from engine.core.protocol import VoiceSettings

    project = Project.create(root, "Chinese through Piper")
    maya = project.make_character("Maya", clip=import_clip(project, VOICES / "maya.wav"),
                                  transcript=(VOICES / "maya.txt").read_text(encoding="utf-8").strip(),
                                  settings=VoiceSettings(language=""))  # each line's language from its script
    project.characters.append(maya)
    project.lines = [Line(id=f"l{n}", text=text, character_id=maya.id)
                     for n, text in enumerate((*ENGLISH, *CHINESE), 1)]
    project.save()
    return project


def render(cache: Path, root: Path) -> dict[str, Any]:
    from app.project import Project

    project = make_project(root)
    dubstudio = shutil.which("dubstudio", path=str(Path(sys.executable).parent))
    assert dubstudio
    run = subprocess.run([dubstudio, "render", str(project.root), "--no-progress", "--cache-dir", str(cache)],
                         capture_output=True, text=True, timeout=900)
    done = Project.load(project.root)
    chinese = done.lines[len(ENGLISH):]
    flagged_first = f"{len(CHINESE)} lines are in a language piper cannot speak" in run.stderr
    return {"synthesised": sum(1 for line in chinese if line.takes),
            "refused": sum(1 for line in chinese if "E_LANGUAGE_UNSUPPORTED" in line.error),
            "flagged_before_the_first_job": flagged_first, "exit_code": run.returncode,
            "english_spoken": sum(1 for line in done.lines[: len(ENGLISH)] if line.takes)}


def studio(root: Path) -> dict[str, Any]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.ui.script.lines_model import Column, LinesModel
    from app.ui.window.document import Document
    from engine.synthesis.backends import PIPER

    app = QApplication.instance() or QApplication([])
    model = LinesModel(Document(make_project(root)))
    model.set_capabilities(PIPER.capabilities)
    marks = [str(model.index(row, Column.STATUS).data()).startswith("⚠") for row in range(model.rowCount())]
    del app
    return {"flagged": sum(marks[len(ENGLISH):]), "english_flagged": sum(marks[: len(ENGLISH)])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--say-lines", type=int, default=5, help="lines sent through `dubstudio say` (one engine each)")
    parser.add_argument("--json", default=None, help="also write the results as JSON here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        results = {
            "lines": len(CHINESE),
            "engine API": engine_api(folder / "cache"),
            "say": say(folder / "cache", folder, args.say_lines),
            "render": render(folder / "cache", folder / "render"),
            "studio": studio(folder / "studio"),
        }
    print(f"{len(CHINESE)} Chinese lines through Piper (its bundled voice declares en):")
    for client in ("engine API", "say", "render"):
        result = results[client]
        lines = result.get("lines", len(CHINESE))
        print(f"  {client:<11} {result['synthesised']} of {lines} synthesised, {result['refused']} refused with "
              f"E_LANGUAGE_UNSUPPORTED  {({k: v for k, v in result.items() if k not in ('synthesised', 'refused')})}")
    print(f"  {'studio':<11} {results['studio']['flagged']} of {len(CHINESE)} flagged in the script table "
          f"(English flagged: {results['studio']['english_flagged']})")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
