"""Make the llama.cpp CPU wheel load on Linux systems older than glibc 2.38.

The ``llama-cpp-py-sync`` wheels are tagged ``manylinux2014`` but their shared
libraries import four C23 helpers (``__isoc23_strtol`` and friends) that only exist
from glibc 2.38 on. On such a system (Debian 12 has 2.36) the bundled ``libllama.so``
cannot be loaded at all.

:func:`patched_library_dir` copies the bundled libraries into the user cache and
rebinds those imports to their pre-C23 equivalents (``strtol``, ``__isoc99_sscanf``…),
which differ only in accepting ``0b`` binary prefixes. The patch edits three things
per library, all inside existing ELF tables so no offsets move:

* the import's name in ``.dynstr`` is overwritten in place by the shorter classic name;
* its ``.gnu.version`` entry is set to ``1`` (unversioned: bind the default version);
* the ``GLIBC_2.38`` entry in ``.gnu.version_r`` is marked weak, so a missing version
  is no longer fatal.

Only 64-bit little-endian ELF files are handled; anything unexpected raises
:class:`NativeCompatError` and the caller reports the original load error.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
from pathlib import Path

_C23_PREFIX = b"__isoc23_"
_SCANF_FAMILY = {
    b"scanf",
    b"fscanf",
    b"sscanf",
    b"vscanf",
    b"vfscanf",
    b"vsscanf",
    b"wscanf",
    b"fwscanf",
    b"swscanf",
    b"vwscanf",
    b"vfwscanf",
    b"vswscanf",
}
_VER_FLG_WEAK = 0x2
_SHT_DYNSYM = 11
_SHT_GNU_VERSYM = 0x6FFFFFFF
_SHT_GNU_VERNEED = 0x6FFFFFFE


class NativeCompatError(RuntimeError):
    """The libraries could not be patched (unexpected ELF layout)."""


def _classic_name(name: bytes) -> bytes:
    base = name[len(_C23_PREFIX) :]
    return b"__isoc99_" + base if base in _SCANF_FAMILY else base


def _cstr(data: bytes | bytearray, offset: int) -> bytes:
    end = data.index(b"\0", offset)
    return bytes(data[offset:end])


def patch_elf(data: bytearray) -> int:
    """Rebind ``__isoc23_*`` imports in one ELF image in place; returns how many."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise NativeCompatError("not a 64-bit little-endian ELF file")
    (e_shoff,) = struct.unpack_from("<Q", data, 0x28)
    e_shentsize, e_shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = []
    for index in range(e_shnum):
        base = e_shoff + index * e_shentsize
        (sh_type,) = struct.unpack_from("<I", data, base + 4)
        sh_offset, sh_size, sh_link, _info, _align, sh_entsize = struct.unpack_from(
            "<QQIIQQ", data, base + 0x18
        )
        sections.append((sh_type, sh_offset, sh_size, sh_link, sh_entsize))
    dynsym = next((s for s in sections if s[0] == _SHT_DYNSYM), None)
    versym = next((s for s in sections if s[0] == _SHT_GNU_VERSYM), None)
    verneed = next((s for s in sections if s[0] == _SHT_GNU_VERNEED), None)
    if dynsym is None:
        return 0
    strtab_offset = sections[dynsym[3]][1]
    weak_indices: set[int] = set()
    patched = 0
    for number in range(dynsym[2] // 24):
        entry = dynsym[1] + number * 24
        (st_name,) = struct.unpack_from("<I", data, entry)
        (st_shndx,) = struct.unpack_from("<H", data, entry + 6)
        name = _cstr(data, strtab_offset + st_name)
        if st_shndx != 0 or not name.startswith(_C23_PREFIX):
            continue
        classic = _classic_name(name)
        data[strtab_offset + st_name : strtab_offset + st_name + len(classic) + 1] = classic + b"\0"
        if versym is not None:
            slot = versym[1] + number * 2
            (ndx,) = struct.unpack_from("<H", data, slot)
            weak_indices.add(ndx & 0x7FFF)
            struct.pack_into("<H", data, slot, 1)
        patched += 1
    if verneed is not None and weak_indices:
        _weaken_versions(data, verneed[1], sections[verneed[3]][1], weak_indices)
    return patched


def _weaken_versions(data: bytearray, offset: int, strtab: int, indices: set[int]) -> None:
    """Mark the version-needed entries with these indices weak (``GLIBC_2.38``)."""
    while True:
        _version, cnt, _file, aux, nxt = struct.unpack_from("<HHIII", data, offset)
        aux_offset = offset + aux
        for _ in range(cnt):
            _hash, flags, other, name, aux_next = struct.unpack_from("<IHHII", data, aux_offset)
            if other in indices and _cstr(data, strtab + name).startswith(b"GLIBC_2.3"):
                struct.pack_into("<H", data, aux_offset + 4, flags | _VER_FLG_WEAK)
            if not aux_next:
                break
            aux_offset += aux_next
        if not nxt:
            return
        offset += nxt


def patched_library_dir(source_dir: Path, cache_root: Path) -> Path:
    """A cached copy of the ``.so`` files in ``source_dir`` with C23 imports rebound.

    The copy lives under ``cache_root/native-compat/<digest of the originals>/`` and is
    built once (atomically, by rename) and reused afterwards.
    """
    libraries = sorted(p for p in source_dir.iterdir() if p.is_file() and ".so" in p.name)
    if not libraries:
        raise NativeCompatError(f"no shared libraries in {source_dir}")
    digest = hashlib.sha256()
    for path in libraries:
        stat = path.stat()
        digest.update(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    target = cache_root / "native-compat" / digest.hexdigest()[:16]
    if (target / ".complete").exists():
        return target
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for path in libraries:
        data = bytearray(path.read_bytes())
        patch_elf(data)
        (staging / path.name).write_bytes(bytes(data))
        (staging / path.name).chmod(0o755)
    (staging / ".complete").write_text("ok\n")
    try:
        staging.rename(target)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not (target / ".complete").exists():
            raise
    return target
