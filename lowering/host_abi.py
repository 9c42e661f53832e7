"""The contract between compiled code and the host runtime (`runtime/host_io.py`).

The lowering of the host ops (`xla_to_linalg/io.py`) emits a call to
`@__xla_rt_<kind>_<n>` for each op and describes here, as data, what that call
site does: which arrays it reads and writes (`Leaf`), and its action: read one
item of a queue (`ReadQueue`), append one (`WriteQueue`) or call a custom-call
target (`CallTarget`). The runtime binds each described site to a ctypes
callback before the JIT resolves the symbols (`runtime.host_io.bind_new_sites`),
so the lowering never imports the runtime.

The registry of custom-call targets lives here too, on the compiler's side (as
XLA's `CustomCallTargetRegistry`): the lowering checks a target is registered
when it compiles the op; the runtime looks it up by name when the op runs.
`runtime.host_io` re-exports `register_custom_call` and friends.
"""

from __future__ import annotations

import ctypes
import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lowering.collectives.abi import Collective, DeviceId, RunParallel

DEVICE_TO_DEVICE = 1
DEVICE_TO_HOST = 2
HOST_TO_DEVICE = 3

SYMBOL_PREFIX = "__xla_rt_"
"""Prefix of every runtime symbol compiled code calls."""

OK_SYMBOL = "__xla_rt_ok"
"""`i1 __xla_rt_ok()`: false once a runtime op of the current run failed."""


# ---------------------------------------------------------------------------
# Custom-call targets
# ---------------------------------------------------------------------------

PythonTarget = Callable[[Any, list[np.ndarray]], Any]


@dataclass(frozen=True)
class CustomCallTarget:
    """A registered target: a C function (`address`) or a Python callable."""

    name: str
    address: int | None = None
    python: PythonTarget | None = None
    keep: Any = field(default=None, compare=False)
    """The object the address came from (keeps its library loaded)."""


_TARGETS: dict[str, CustomCallTarget] = {}
_TARGETS_LOCK = threading.Lock()


def register_custom_call(name: str, target: Any) -> None:
    """Make `target` the function `xla.custom_call @name` calls: a ctypes function
    pointer or an integer address of `void f(void* out, void** in)`, or a Python
    callable `f(out, ins)` (see `runtime/host_io.py`). Replaces an earlier registration."""
    if not name:
        raise ValueError("a custom-call target needs a name")
    if isinstance(target, ctypes._CFuncPtr):  # pyright: ignore[reportPrivateUsage]
        entry = CustomCallTarget(name, address=ctypes.cast(target, ctypes.c_void_p).value, keep=target)
    elif isinstance(target, int) and not isinstance(target, bool):
        entry = CustomCallTarget(name, address=target)
    elif callable(target):
        entry = CustomCallTarget(name, python=target)
    else:
        raise TypeError(
            f"custom-call target {name!r} must be a ctypes function, an address or a callable, "
            f"got {type(target).__name__}"
        )
    if entry.python is None and not entry.address:
        raise ValueError(f"custom-call target {name!r} has a null address")
    with _TARGETS_LOCK:
        _TARGETS[name] = entry


def unregister_custom_call(name: str) -> None:
    with _TARGETS_LOCK:
        _TARGETS.pop(name, None)


def custom_call_target(name: str) -> CustomCallTarget | None:
    """The target registered under `name`, if any."""
    with _TARGETS_LOCK:
        return _TARGETS.get(name)


def c_api_supported(version: int) -> bool:
    """Whether a C target can be called with this `api_version` (not typed FFI)."""
    return version in (0, 1, 2, 3)


@dataclass(frozen=True)
class CustomCallSpec:
    """What the lowering knows of one `xla.custom_call`."""

    target: str
    api_version: int
    opaque: bytes
    table_out: bool
    """Whether `out` is a pointer table (several results or a tuple) or the buffer."""
    aliases: tuple[tuple[int, int], ...]
    """(output leaf, operand) pairs that share one buffer."""


# ---------------------------------------------------------------------------
# Call sites
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Leaf:
    """One array a site reads or writes: its shape, NumPy dtype and xla type text."""

    shape: tuple[int, ...]
    dtype: np.dtype
    type_text: str
    nbytes: int = field(init=False)
    buffer_type: Any = field(init=False, compare=False)
    """`c_char * nbytes`, made once: views are made on every call."""

    def __post_init__(self) -> None:
        nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        object.__setattr__(self, "nbytes", nbytes)
        object.__setattr__(self, "buffer_type", ctypes.c_char * nbytes)


@dataclass(frozen=True)
class QueueRef:
    """A host queue by name: `infeed`, `outfeed`, or a channel (`send`, `recv`,
    `channel` for device to device) with its handle."""

    kind: str
    handle: int | None = None
    pairs: tuple[tuple[int, int], ...] = ()
    """Device-to-device channels: the (source, target) devices of the op's
    `_xla_send_recv_source_target_pairs` frontend attribute, if it has one."""


@dataclass(frozen=True)
class ReadQueue:
    """An infeed/recv: take the oldest item of the queue into the outputs."""

    queue: QueueRef
    hint: str
    """How to fill the queue, said when it is empty."""


@dataclass(frozen=True)
class WriteQueue:
    """An outfeed/send: append copies of the inputs to the queue as one item."""

    queue: QueueRef


@dataclass(frozen=True)
class CallTarget:
    """A custom call."""

    spec: CustomCallSpec


Action = ReadQueue | WriteQueue | CallTarget | Collective | DeviceId | RunParallel
"""Collectives' actions are described in `lowering/collectives/abi.py`."""


@dataclass(frozen=True)
class SiteSpec:
    """One runtime op of a program: its symbol, what it reads and writes, what it does."""

    symbol: str
    kind: str
    where: str
    inputs: tuple[Leaf, ...]
    outputs: tuple[Leaf, ...]
    action: Action


_PENDING: list[SiteSpec] = []
_COUNTER = itertools.count()
_SITES_LOCK = threading.Lock()


def new_site(kind: str, where: str, inputs: Sequence[Leaf], outputs: Sequence[Leaf], action: Action) -> SiteSpec:
    """A new call site `__xla_rt_<kind>_<n>(in..., out...)` (`n` is process-wide),
    left for the runtime to bind."""
    with _SITES_LOCK:
        site = SiteSpec(f"{SYMBOL_PREFIX}{kind}_{next(_COUNTER)}", kind, where, tuple(inputs), tuple(outputs), action)
        _PENDING.append(site)
    return site


def has_new_sites() -> bool:
    """Whether sites were described since the last `take_new_sites`."""
    with _SITES_LOCK:
        return bool(_PENDING)


def take_new_sites() -> list[SiteSpec]:
    """The sites described since the last call (the runtime binds them)."""
    with _SITES_LOCK:
        sites = list(_PENDING)
        _PENDING.clear()
    return sites


__all__ = [
    "DEVICE_TO_DEVICE",
    "DEVICE_TO_HOST",
    "HOST_TO_DEVICE",
    "OK_SYMBOL",
    "SYMBOL_PREFIX",
    "Action",
    "CallTarget",
    "CustomCallSpec",
    "CustomCallTarget",
    "Leaf",
    "QueueRef",
    "ReadQueue",
    "SiteSpec",
    "WriteQueue",
    "c_api_supported",
    "custom_call_target",
    "has_new_sites",
    "new_site",
    "register_custom_call",
    "take_new_sites",
    "unregister_custom_call",
]
