"""The glibc-compatibility patch for the llama.cpp wheel's shared libraries."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from players.models.native_compat import NativeCompatError, patch_elf, patched_library_dir

SPEC = importlib.util.find_spec("llama_cpp_py_sync")
LIB_DIR = Path(SPEC.origin).parent if SPEC is not None and SPEC.origin else None


def test_non_elf_input_is_rejected() -> None:
    with pytest.raises(NativeCompatError):
        patch_elf(bytearray(b"not an elf file at all"))


@pytest.mark.skipif(LIB_DIR is None, reason="llama-cpp-py-sync not installed (local extra)")
@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf (binutils) not available")
def test_patched_copies_import_no_c23_symbols(tmp_path: Path) -> None:
    assert LIB_DIR is not None
    patched = patched_library_dir(LIB_DIR, tmp_path)
    assert patched_library_dir(LIB_DIR, tmp_path) == patched  # built once, then reused
    library = patched / "libllama.so"
    symbols = subprocess.run(
        ["readelf", "--dyn-syms", "-W", str(library)], capture_output=True, text=True, check=True
    ).stdout
    assert "__isoc23_" not in symbols
    versions = subprocess.run(
        ["readelf", "-V", "-W", str(library)], capture_output=True, text=True, check=True
    ).stdout
    for line in versions.splitlines():
        if "GLIBC_2.38" in line and "Name:" in line:
            assert "WEAK" in line
    data = bytearray(library.read_bytes())
    assert patch_elf(data) == 0  # idempotent: nothing left to patch
