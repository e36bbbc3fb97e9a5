"""`dubstudio models`: the plug-in models listed, and one downloaded from a local fake hub (a built
ONNX model of the MDX-Net signature standing in the catalogue: no separation weights ship)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from app.cli import main as cli_main
from engine.hearing import separation
from tests.cosyvoice.test_models import FakeHub
from tests.engine.hearing.separation_models import (
    SMALL,
    build_mask_model,
    low_band_mask,
)


def test_list_download_and_a_bad_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    assert cli_main(["models", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in listed] == list(separation.SEPARATION_MODELS)
    assert listed[0]["downloaded"] is False and listed[0]["sha256"] == separation.SEPARATION_MODELS["kim-vocal-2"].sha256
    assert cli_main(["models", "download", "nosuch"]) == 2
    assert "unknown separation model 'nosuch'" in capsys.readouterr().err

    served = tmp_path / "served"
    spec = build_mask_model(served / SMALL.path, dataclasses.replace(SMALL, name="built"), low_band_mask())
    wrong = dataclasses.replace(spec, sha256="0" * 64)
    monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, wrong)
    with FakeHub(served, cut_once=set(), repo=spec.hub_repo) as hub:
        assert cli_main(["models", "download", spec.name, "--hub-endpoint", hub.endpoint]) == 1
        assert "sha256 differs from the declared one" in capsys.readouterr().err
        monkeypatch.setitem(separation.SEPARATION_MODELS, spec.name, spec)
        assert cli_main(["models", "download", spec.name, "--hub-endpoint", hub.endpoint]) == 0
    assert "a built mask model is ready in" in capsys.readouterr().err
    assert cli_main(["models", "list"]) == 0
    assert "built  a built mask model, 0 MB, downloaded" in capsys.readouterr().out


def test_render_refuses_a_model_m_and_e_before_rendering_when_the_model_is_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from app.project import Project
    from app.project.media import attach_video
    from tests.app.project.conftest import make_project
    from tests.app.project.media_fixtures import make_video

    monkeypatch.setenv("DUBSTUDIO_MODELS_DIR", str(tmp_path / "models"))
    project: Project = make_project(tmp_path / "scene")
    project.video = attach_video(project, make_video(tmp_path / "source.mp4", seconds=4.0))
    project.save()
    status = cli_main(["render", str(project.root), "--export", "mix", "--music-effects-from", "model"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "E_SEPARATION_MODEL_MISSING" in err and "dubstudio models download kim-vocal-2" in err
    saved = Project.load(project.root)
    assert (saved.settings.guide_mix, saved.settings.music_effects_source) == ("music-effects", "model")
    assert not any(line.takes for line in saved.lines)  # refused before anything rendered
