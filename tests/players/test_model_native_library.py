"""Choosing between the binding's own llama.cpp libraries and a ``make llama-native`` build.

The build itself (compiling ggml's CPU backend, ~5 minutes) is not part of the suite; a
"build" here is a folder with copies of the wheel's own libraries and a ``build.json``,
which is all the choice looks at.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from players.models.local_runtime import cache_dir
from players.models.native_compat import patched_library_dir
from players.models.native_library import ENV, MANIFEST, NativeLibraryError, choose

SPEC = importlib.util.find_spec("llama_cpp_py_sync")
WHEEL_DIR = Path(SPEC.origin).parent if SPEC is not None and SPEC.origin else None
ROOT = Path(__file__).resolve().parents[2]
BINDING = "llama-cpp-py-sync 0.1"


def fake_wheel(folder: Path, libllama: bytes) -> Path:
    folder.mkdir(parents=True)
    (folder / "libllama.so").write_bytes(libllama)
    return folder


def fake_build(folder: Path, libllama: bytes, binding: str = BINDING) -> Path:
    fake_wheel(folder, libllama)
    manifest = {"binding": binding, "ggml_cpu_source": "llama.cpp b1 (test)"}
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def test_without_a_build_the_wheel_serves(tmp_path: Path) -> None:
    wheel = fake_wheel(tmp_path / "wheel", b"lib v1")
    choice = choose(wheel, BINDING, {}, default_dir=tmp_path / "absent")
    assert choice.directory is None
    assert not choice.skipped
    assert choice.engine_suffix == ""  # what is recorded for the default stays as it was


def test_a_fitting_build_in_the_checkout_serves(tmp_path: Path) -> None:
    wheel = fake_wheel(tmp_path / "wheel", b"lib v1")
    build = fake_build(tmp_path / "native", b"lib v1")
    choice = choose(wheel, BINDING, {}, default_dir=build)
    assert choice.directory == build
    assert "llama.cpp b1 (test)" in choice.engine_suffix


def test_a_build_for_another_binding_is_set_aside_with_a_message(tmp_path: Path) -> None:
    wheel = fake_wheel(tmp_path / "wheel", b"lib v2")
    build = fake_build(tmp_path / "native", b"lib v1", binding="llama-cpp-py-sync 0.0")
    choice = choose(wheel, "llama-cpp-py-sync 0.2", {}, default_dir=build)
    assert choice.directory is None
    assert choice.skipped
    assert "made for llama-cpp-py-sync 0.0" in choice.note
    assert "llama-cpp-py-sync 0.2 is installed" in choice.note
    assert "make llama-native" in choice.note


def test_off_keeps_the_wheel_even_with_a_fitting_build(tmp_path: Path) -> None:
    wheel = fake_wheel(tmp_path / "wheel", b"lib v1")
    build = fake_build(tmp_path / "native", b"lib v1")
    assert choose(wheel, BINDING, {ENV: "off"}, default_dir=build).directory is None


def test_a_named_build_that_does_not_fit_is_an_error(tmp_path: Path) -> None:
    wheel = fake_wheel(tmp_path / "wheel", b"lib v2")
    build = fake_build(tmp_path / "native", b"lib v1")
    with pytest.raises(NativeLibraryError, match="rebuild it with make llama-native"):
        choose(wheel, BINDING, {ENV: str(build)})
    no_manifest = fake_wheel(tmp_path / "bare", b"lib v2")
    with pytest.raises(NativeLibraryError, match=r"build\.json"):
        choose(wheel, BINDING, {ENV: str(no_manifest)})


PROBE = """
from players.models import local_runtime
model = local_runtime.shared_model("gemma3-270m", n_threads=1)
maps = open("/proc/self/maps").read()
print(sorted({l.split()[-1] for l in maps.splitlines() if "libggml-cpu" in l})[0])
print(local_runtime.served_facts(model, "gemma3-270m")["engine"])
"""


@pytest.mark.skipif(WHEEL_DIR is None, reason="llama-cpp-py-sync not installed (local extra)")
def test_the_offline_model_loads_the_chosen_build(tmp_path: Path) -> None:
    """A real load in a fresh process: llama.cpp's CPU backend comes from the build's folder."""
    assert WHEEL_DIR is not None
    build = tmp_path / "native"
    build.mkdir()
    for path in WHEEL_DIR.iterdir():
        if path.is_file() and ".so" in path.name:
            shutil.copy(path, build / path.name)  # new times: its glibc-patched copy is not the wheel's
    manifest = {"binding": "this one", "ggml_cpu_source": "the wheel itself (test)"}
    (build / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    env = dict(os.environ, **{ENV: str(build)})
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    ).stdout.splitlines()
    loaded, engine = Path(out[0]), out[1]
    # the build's folder, or its glibc-patched copy where this system needs one
    assert loaded.parent in (build, patched_library_dir(build, cache_dir()))
    assert loaded.parent not in (WHEEL_DIR, patched_library_dir(WHEEL_DIR, cache_dir()))
    assert engine.endswith("; ggml-cpu built for this CPU from the wheel itself (test)")
