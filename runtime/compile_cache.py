"""A persistent compilation cache on disk, as JAX's: a program compiled once is loaded,
not compiled, by every later process.

    cache = default_cache()                  # None when disabled
    key = cache.key(text, {"opt_level": 3, ...})
    entry = cache.load(key)                  # None on a miss (or a corrupt entry)
    cache.store(key, entry)

Where: `$XLA_DIALECT_CACHE_DIR`, else `~/.cache/xla-dialect`; `XLA_DIALECT_CACHE=0`
turns it off. Bounded: `$XLA_DIALECT_CACHE_MAX_BYTES` (default 1 GiB); when a store
makes the directory larger, the least recently used entries (a hit refreshes an
entry's time) are removed.

The key is a SHA-256 of the module text, the options (optimization level, pipeline),
the target (`lowering.codegen.target.get_target()`: name, LLVM CPU and features), the
project's version and a fingerprint of its sources (size and modification time of
every module, so that an edited compiler does not load stale code) and llvmlite's
version. An entry holds the object code MCJIT generated (`runtime.jit.ObjectCache`),
the native symbols of the module's functions, their LLVM signatures and their `xla`
signatures (as text), in one file: a magic line, a JSON header with the SHA-256 of
the payload, the object files.

Several processes may share the directory: an entry is written to a temporary file
and renamed into place (atomic), a reader sees a whole entry or none, and an entry
that does not read back (truncated, corrupt, from another format) is a miss, removed
and recompiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = b"xla-dialect compile cache 1\n"
SUFFIX = ".xlacache"
DEFAULT_MAX_BYTES = 1 << 30

_PACKAGES = ("xla_dialect", "passes", "lowering", "runtime", "xla_tools")
_fingerprint: str | None = None


@dataclass
class CacheEntry:
    """What loading a compiled module needs (`runtime.jit.load_object_code`)."""

    objects: list[bytes]
    symbols: dict[str, str]
    """Function name → native symbol."""
    llvm_signatures: dict[str, tuple[list[str], str]]
    """Function name → its LLVM parameter types and result type, as text."""
    xla_signatures: dict[str, tuple[list[str], list[str]]]
    """Function name → its `xla` parameter and result types, as text."""
    extra: dict[str, Any] = field(default_factory=dict[str, Any])


def source_fingerprint() -> str:
    """The project's version and the size and mtime of each of its modules."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        try:
            from importlib.metadata import version

            digest.update(version("xla-dialect").encode())
        except Exception:  # noqa: BLE001 - not installed as a distribution: the sources say enough
            digest.update(b"unknown version")
        root = Path(__file__).resolve().parents[1]
        for package in _PACKAGES:
            for path in sorted((root / package).rglob("*.py")):
                stat = path.stat()
                digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
        _fingerprint = digest.hexdigest()
    return _fingerprint


def _llvmlite_version() -> str:
    import llvmlite

    return llvmlite.__version__


class CompileCache:
    """A directory of entries named by their keys."""

    def __init__(self, directory: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES):
        self.directory = Path(directory)
        self.max_bytes = max_bytes

    def key(self, text: str, options: dict[str, Any]) -> str:
        """The key of `text` compiled with `options` for the current target."""
        from lowering.codegen.target import get_target

        target = get_target()
        digest = hashlib.sha256()
        for part in (
            FORMAT.decode(),
            json.dumps(options, sort_keys=True, default=str),
            f"{target.name}|{target.cpu}|{target.llvm_features()}",
            source_fingerprint(),
            _llvmlite_version(),
            text,
        ):
            digest.update(part.encode())
            digest.update(b"\0")
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    # -- reading ------------------------------------------------------------------------

    def load(self, key: str) -> CacheEntry | None:
        """The entry of `key`, or None (a miss; a corrupt entry is removed)."""
        path = self.path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        entry = _decode(data)
        if entry is None:
            _remove(path)
            return None
        try:
            os.utime(path)  # most recently used
        except OSError:
            pass
        return entry

    # -- writing ------------------------------------------------------------------------

    def store(self, key: str, entry: CacheEntry) -> None:
        """Write the entry atomically, then keep the directory within its bound."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=SUFFIX)
        except OSError:
            return  # an unwritable cache is no cache, not an error
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_encode(entry))
            os.replace(temp, self.path(key))
        except OSError:
            _remove(Path(temp))
            return
        self.evict()

    def evict(self) -> None:
        """Remove the least recently used entries until the directory fits its bound."""
        entries: list[tuple[float, int, Path]] = []
        for path in self.directory.glob(f"*{SUFFIX}"):
            try:
                stat = path.stat()
            except OSError:
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries, key=lambda e: e[0]):
            if total <= self.max_bytes:
                break
            _remove(path)
            total -= size

    def clear(self) -> None:
        for path in self.directory.glob(f"*{SUFFIX}"):
            _remove(path)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _encode(entry: CacheEntry) -> bytes:
    payload = b"".join(struct.pack("<Q", len(o)) + o for o in entry.objects)
    header = json.dumps(
        {
            "sha256": hashlib.sha256(payload).hexdigest(),
            "objects": len(entry.objects),
            "symbols": entry.symbols,
            "llvm_signatures": entry.llvm_signatures,
            "xla_signatures": entry.xla_signatures,
            "extra": entry.extra,
        }
    ).encode()
    return FORMAT + struct.pack("<Q", len(header)) + header + payload


def _decode(data: bytes) -> CacheEntry | None:
    try:
        if not data.startswith(FORMAT):
            return None
        at = len(FORMAT)
        (size,) = struct.unpack_from("<Q", data, at)
        at += 8
        header = json.loads(data[at : at + size])
        at += size
        payload = data[at:]
        if hashlib.sha256(payload).hexdigest() != header["sha256"]:
            return None
        objects: list[bytes] = []
        at = 0
        for _ in range(header["objects"]):
            (length,) = struct.unpack_from("<Q", payload, at)
            at += 8
            if at + length > len(payload):
                return None
            objects.append(payload[at : at + length])
            at += length
        return CacheEntry(
            objects,
            dict(header["symbols"]),
            {k: (list(v[0]), v[1]) for k, v in header["llvm_signatures"].items()},
            {k: (list(v[0]), list(v[1])) for k, v in header["xla_signatures"].items()},
            dict(header.get("extra", {})),
        )
    except (ValueError, KeyError, TypeError, IndexError, struct.error):
        return None


def cache_enabled() -> bool:
    return os.environ.get("XLA_DIALECT_CACHE", "1").strip().lower() not in ("0", "false", "off", "no")


def cache_directory() -> Path:
    configured = os.environ.get("XLA_DIALECT_CACHE_DIR", "")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME", "") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xla-dialect"


def default_cache() -> CompileCache | None:
    """The cache the environment configures, or None when it is turned off."""
    if not cache_enabled():
        return None
    text = os.environ.get("XLA_DIALECT_CACHE_MAX_BYTES", "")
    max_bytes = int(text) if text.strip().isdigit() else DEFAULT_MAX_BYTES
    return CompileCache(cache_directory(), max_bytes)


__all__ = [
    "CacheEntry",
    "CompileCache",
    "cache_directory",
    "cache_enabled",
    "default_cache",
    "source_fingerprint",
]
