"""The host runtime of compiled programs: custom-call targets, the infeed and
outfeed queues, send/recv channels, and how errors inside them reach the caller.

Using it from Python (the device is the host CPU, so, as JAX's
`device.transfer_to_infeed` / `transfer_from_outfeed`, the queues belong to the
one device and are module-level objects here):

    from runtime import host_io
    from xla_tools import compile

    host_io.register_custom_call("myfunc", lib.myfunc)   # C: void myfunc(void* out, void** in)
    host_io.register_custom_call("twice", lambda out, ins: np.multiply(ins[0], 2, out=out))
    host_io.infeed.push(np.ones((2, 2), np.float32))     # one item per executed xla.infeed
    host_io.recv_queue(7).push(x)                        # what `xla.recv` on host channel 7 reads
    y = compile(text, entry="main")(a, None)             # None (or host_io.TOKEN) for a token parameter
    host_io.outfeed.pop()                                # the oldest item an xla.outfeed wrote
    host_io.send_queue(7).pop()                          # the oldest item `xla.send` on host channel 7 sent

Design
======

* Call sites. Every runtime op of a program becomes, in `convert-xla-to-linalg`
  (`lowering/xla_to_linalg/io.py`), a `func.call` to a private external function
  `@__xla_rt_<kind>_<n>` taking its input tensors and returning its output tensors
  (bufferize turns them into pointer arguments: the inputs, then one out-buffer per
  output, row-major and contiguous), and describes the site as data
  (`lowering/host_abi.py`: its leaves and its action). Before the JIT resolves
  symbols, `bind_new_sites` makes, for each new site, a ctypes callback with that
  C signature, binds the symbol to it with llvmlite's `add_symbol` (process-wide,
  so `n` is a global counter) and keeps the callback alive for the life of the
  process (a compiled engine may call it any time).
  The callback builds NumPy views of the buffers and runs the op's handler.
* Custom calls. `register_custom_call(name, target)` takes a C function (a ctypes
  function pointer such as `ctypes.CDLL(path).f`, or an integer address)
  following the spec's `void f(void* out, void** in)` convention, or a Python
  callable `f(out, ins)`. `in` holds one pointer per operand; `out` is the result
  buffer when the op has exactly one array result, else a `void**` table with one
  pointer per result leaf (a tuple result, several results). Without an
  `api_version` the call is API_VERSION_ORIGINAL, as in StableHLO. API versions 2 and 3
  (STATUS_RETURNING[_UNIFIED]) get the extra arguments XLA's CPU runtime passes:
  `(out, in, status)` and `(out, in, opaque, opaque_len, status)`, `opaque` being
  the backend_config string; `status` points to zeroed scratch memory (there is no
  XLA runtime to report a failure through). API version 4 (typed FFI) is only
  supported for Python callables. The Python callable gets read-only NumPy views of
  the operands (`ins`, a list) and writable views of the results (`out`: an array,
  or a tuple of arrays as for C); if it returns something other than None, that is
  written into `out`. `output_operand_aliases` are honoured by copying the operand
  into the aliased output before the call and passing the output's buffer as that
  operand too, so the target sees one buffer, as in XLA. The target is looked up
  by name when the op runs (the compiler checks it is registered), so
  re-registering a name takes effect for programs compiled before.
* Queues hold items, each a tuple of arrays (copies): `infeed.push(a, b)` makes
  one item for an `xla.infeed` with two array results; an outfeed/send writes one
  item per execution; `pop()` gives the oldest item, an array when it has one
  array, else a tuple. Channels are keyed by handle and direction: host transfers
  read `recv_queue(h)` (HOST_TO_DEVICE) and write `send_queue(h)`
  (DEVICE_TO_HOST); a device-to-device `send`/`recv` pair of one program passes
  values through `channel_queue(h)`. An infeed/recv with an empty queue, a pushed
  item of the wrong shapes, or an unregistered target is an error, never a wait.
* Errors. An exception cannot unwind through compiled code, so a failing
  callback records a `HostIOError` for the calling thread; from then on every
  runtime callback of that run does nothing but zero its outputs, the loops that
  contain runtime calls stop (their condition also calls `__xla_rt_ok`, see
  `io.guard_loops`), the entry function returns, and the `Executable` raises the
  recorded error (`begin_run`/`end_run`). Results of a failed run are never seen.
* Cost: every runtime op is a call into Python (ctypes callback, NumPy views):
  about 10-20 us per executed op, C targets included; use them for I/O and
  glue, not in hot inner loops.
* Tokens carry no data at run time: a token parameter takes `None` or `TOKEN`,
  a token result comes back as `TOKEN` (see `lowering/xla_to_linalg/io.py`).
* The interpreter's harness: `__xla_interpreter_infeed` is a built-in target that
  pushes its operands onto the infeed queue (`xla-inline-run-parallel` calls it).
"""

from __future__ import annotations

import ctypes
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import llvmlite.binding as llvm_binding
import numpy as np

from lowering.host_abi import (
    DEVICE_TO_DEVICE,
    DEVICE_TO_HOST,
    HOST_TO_DEVICE,
    OK_SYMBOL,
    SYMBOL_PREFIX,
    CallTarget,
    CustomCallSpec,
    CustomCallTarget,
    Leaf,
    PythonTarget,
    QueueRef,
    ReadQueue,
    SiteSpec,
    WriteQueue,
    c_api_supported,
    custom_call_target,
    register_custom_call,
    take_new_sites,
    unregister_custom_call,
)
from xla_dialect.interpreter import INFEED_TARGET


class HostIOError(RuntimeError):
    """A runtime op failed while the program ran (empty infeed, bad pushed value,
    failing custom call); the message names the op and its source location."""


class Token:
    """The value of an `!xla.token`: it carries no data."""

    def __repr__(self) -> str:
        return "TOKEN"


TOKEN = Token()
"""What a token result returns (token parameters take it or None)."""


# ---------------------------------------------------------------------------
# Queues
# ---------------------------------------------------------------------------

Item = tuple[np.ndarray, ...]


class HostQueue:
    """A thread-safe FIFO of items (tuples of arrays) between the host and programs."""

    def __init__(self, name: str):
        self.name = name
        self._items: deque[Item] = deque()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<HostQueue {self.name}: {len(self)} item(s)>"

    def __len__(self) -> int:
        return len(self._items)

    def push(self, *arrays: Any) -> None:
        """Append one item made of `arrays` (copied, so the caller may reuse them)."""
        self.put(tuple(np.array(a) for a in arrays))

    def pop(self) -> Any:
        """Remove and return the oldest item: an array if it holds one, else a tuple."""
        item = self.take()
        if item is None:
            raise IndexError(f"{self.name} is empty")
        return item[0] if len(item) == 1 else item

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def put(self, item: Item) -> None:
        with self._lock:
            self._items.append(item)

    def take(self) -> Item | None:
        with self._lock:
            return self._items.popleft() if self._items else None


infeed = HostQueue("infeed")
"""Items read by `xla.infeed`, in order; push them before (or during) the call."""

outfeed = HostQueue("outfeed")
"""Items written by `xla.outfeed`, in execution order."""

_CHANNELS: dict[tuple[int, int], HostQueue] = {}
_CHANNELS_LOCK = threading.Lock()


def _channel(handle: int, direction: int) -> HostQueue:
    with _CHANNELS_LOCK:
        queue = _CHANNELS.get((handle, direction))
        if queue is None:
            label = {DEVICE_TO_HOST: "send", HOST_TO_DEVICE: "recv"}.get(direction, "device")
            queue = _CHANNELS[(handle, direction)] = HostQueue(f"{label} channel {handle}")
        return queue


def send_queue(handle: int) -> HostQueue:
    """What host-transfer `xla.send`s on channel `handle` sent (pop from it)."""
    return _channel(handle, DEVICE_TO_HOST)


def recv_queue(handle: int) -> HostQueue:
    """What host-transfer `xla.recv`s on channel `handle` will read (push to it)."""
    return _channel(handle, HOST_TO_DEVICE)


def channel_queue(handle: int) -> HostQueue:
    """The device-to-device channel `handle`: values sent and not yet received."""
    return _channel(handle, DEVICE_TO_DEVICE)


def transfer_to_infeed(*arrays: Any) -> None:
    """JAX's spelling of `infeed.push`."""
    infeed.push(*arrays)


def transfer_from_outfeed() -> Any:
    """JAX's spelling of `outfeed.pop`."""
    return outfeed.pop()


def reset() -> None:
    """Empty every queue and channel (registered custom calls stay)."""
    infeed.clear()
    outfeed.clear()
    with _CHANNELS_LOCK:
        queues = list(_CHANNELS.values())
    for q in queues:
        q.clear()


# ---------------------------------------------------------------------------
# Errors of a run
# ---------------------------------------------------------------------------


class _RunState(threading.local):
    error: HostIOError | None = None


_STATE = _RunState()


def begin_run() -> None:
    """Forget a stale error before the entry function is called."""
    _STATE.error = None


def end_run() -> None:
    """Raise the error a runtime op recorded during the run, if any."""
    error = _STATE.error
    if error is not None:
        _STATE.error = None
        raise error


def _record(error: HostIOError) -> None:
    if _STATE.error is None:
        _STATE.error = error


def record_error(error: HostIOError) -> None:
    """Record `error` for the calling thread's run unless one is recorded already
    (`runtime.threads` moves the errors of the chunks a worker ran to the caller)."""
    _record(error)


def take_error() -> HostIOError | None:
    """The error recorded for the calling thread, which is then forgotten."""
    error = _STATE.error
    _STATE.error = None
    return error


@ctypes.CFUNCTYPE(ctypes.c_bool)
def _ok() -> bool:
    return _STATE.error is None


llvm_binding.add_symbol(OK_SYMBOL, ctypes.cast(_ok, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]


# ---------------------------------------------------------------------------
# Call sites
# ---------------------------------------------------------------------------

Handler = Callable[[list[np.ndarray], list[np.ndarray]], None]


@dataclass
class Site:
    """One runtime op of a compiled program and its bound callback."""

    symbol: str
    where: str
    inputs: list[Leaf]
    outputs: list[Leaf]
    handler: Handler
    callback: Any = None

    def run(self, pointers: Sequence[int | None]) -> None:
        outs = [_view(p, leaf, writable=True) for p, leaf in zip(pointers[len(self.inputs) :], self.outputs)]
        if _STATE.error is not None:
            for o in outs:
                o[...] = 0
            return
        try:
            ins = [_view(p, leaf, writable=False) for p, leaf in zip(pointers, self.inputs)]
            self.handler(ins, outs)
        except BaseException as err:  # noqa: BLE001 (nothing may unwind into compiled code)
            message = str(err) if isinstance(err, HostIOError) else f"{type(err).__name__}: {err}"
            error = HostIOError(f"{self.where}: {message}")
            error.__cause__ = err
            _record(error)
            for o in outs:
                o[...] = 0


_SITES: list[Site] = []
_SITES_LOCK = threading.Lock()


def _queue(ref: QueueRef) -> HostQueue:
    if ref.kind == "infeed":
        return infeed
    if ref.kind == "outfeed":
        return outfeed
    assert ref.handle is not None
    return {"send": send_queue, "recv": recv_queue, "channel": channel_queue}[ref.kind](ref.handle)


_ACTION_HANDLERS: dict[type, Callable[[SiteSpec], Handler]] = {}
_CHANNEL_ROUTES: list[Callable[[SiteSpec, Handler], Handler]] = []


def register_action_handler(action: type, factory: Callable[[SiteSpec], Handler]) -> None:
    """Make `factory(site)` the handler of sites whose action is an `action`
    (`runtime.collectives` registers the collectives' actions)."""
    _ACTION_HANDLERS[action] = factory


def register_channel_route(route: Callable[[SiteSpec, Handler], Handler]) -> None:
    """Wrap the handlers of send/recv sites: `route(site, default)` may pass the
    values between devices instead of through the host queues."""
    _CHANNEL_ROUTES.append(route)


def _handler(site: SiteSpec) -> Handler:
    action = site.action
    factory = _ACTION_HANDLERS.get(type(action))
    if factory is not None:
        return factory(site)
    if isinstance(action, ReadQueue):
        handler = read_handler(_queue(action.queue), site.outputs, action.hint)
    elif isinstance(action, WriteQueue):
        handler = write_handler(_queue(action.queue))
    else:
        assert isinstance(action, CallTarget)
        return custom_call_handler(action.spec)
    if action.queue.kind in ("send", "recv", "channel"):
        for route in _CHANNEL_ROUTES:
            handler = route(site, handler)
    return handler


def bind_new_sites() -> list[Site]:
    """Bind every call site the lowering described since the last call to a ctypes
    callback (the JIT calls this before it resolves a module's symbols); returns them."""
    bound: list[Site] = []
    with _SITES_LOCK:
        for spec in take_new_sites():
            site = Site(spec.symbol, spec.where, list(spec.inputs), list(spec.outputs), _handler(spec))
            prototype = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * (len(spec.inputs) + len(spec.outputs))))
            site.callback = _bind(site, prototype)
            llvm_binding.add_symbol(spec.symbol, ctypes.cast(site.callback, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]
            _SITES.append(site)
            bound.append(site)
    return bound


def resolve_site_functions(sites: Sequence[Site], lookup: Callable[[str], int]) -> None:
    """Give the handlers that call functions of the compiled module (reductions
    compiled from regions, `run_parallel`'s programs) their addresses: `lookup`
    maps a function name of the module to its code, once the JIT made it."""
    for site in sites:
        bind = getattr(site.handler, "bind", None)
        if bind is not None:
            bind(lookup)


def _bind(site: Site, prototype: Any) -> Any:
    return prototype(lambda *pointers: site.run(pointers))


def _view(pointer: int | None, leaf: Leaf, *, writable: bool) -> np.ndarray:
    """A NumPy view of the buffer at `pointer` (row-major, contiguous)."""
    if leaf.nbytes == 0 or not pointer:
        return np.zeros(leaf.shape, leaf.dtype)
    array = np.frombuffer(leaf.buffer_type.from_address(pointer), dtype=leaf.dtype).reshape(leaf.shape)
    if not writable:
        array.flags.writeable = False
    return array


def _describe(leaves: Sequence[Leaf]) -> str:
    return "(" + ", ".join(leaf.type_text for leaf in leaves) + ")"


def _describe_item(item: Item) -> str:
    return "(" + ", ".join(f"{a.dtype.name} array of shape {a.shape}" for a in item) + ")"


def _store_item(item: Item, outs: list[np.ndarray], leaves: Sequence[Leaf], what: str) -> None:
    """Copy a pushed item into the op's outputs, checking it matches them exactly."""
    matches = len(item) == len(leaves) and all(
        a.shape == leaf.shape and a.dtype == leaf.dtype for a, leaf in zip(item, leaves)
    )
    if not matches:
        raise HostIOError(f"{what} item {_describe_item(item)} does not match the op's types {_describe(leaves)}")
    for a, o in zip(item, outs):
        o[...] = a


# ---------------------------------------------------------------------------
# Handlers (one per action of a site)
# ---------------------------------------------------------------------------


def read_handler(queue: HostQueue, leaves: Sequence[Leaf], hint: str) -> Handler:
    """An infeed/recv: take the oldest item of `queue` into the outputs."""

    def handler(ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        if not leaves:
            return  # an empty tuple shape reads nothing (spec: Infeed)
        item = queue.take()
        if item is None:
            raise HostIOError(f"{queue.name} is empty: the op reads {_describe(leaves)} but nothing was pushed; {hint}")
        _store_item(item, outs, leaves, queue.name)

    return handler


def write_handler(queue: HostQueue) -> Handler:
    """An outfeed/send: append copies of the inputs to `queue` as one item."""

    def handler(ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        queue.put(tuple(np.array(a) for a in ins))

    return handler


_C_PROTOTYPES: dict[int, Any] = {
    1: ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p),
    2: ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p),
    3: ctypes.CFUNCTYPE(
        None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p
    ),
}
_C_FUNCTIONS: dict[tuple[int, int], Any] = {}


def _c_function(address: int, version: int) -> Any:
    key = (address, max(version, 1))
    fn = _C_FUNCTIONS.get(key)
    if fn is None:
        fn = _C_FUNCTIONS[key] = _C_PROTOTYPES[key[1]](address)
    return fn


def custom_call_handler(spec: CustomCallSpec) -> Handler:
    def handler(ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        target = custom_call_target(spec.target)
        if target is None:
            raise HostIOError(f"custom-call target '{spec.target}' is no longer registered")
        ins = list(ins)
        for out_index, operand in spec.aliases:
            outs[out_index][...] = ins[operand]
            ins[operand] = outs[out_index]
        if target.python is not None:
            _call_python(target.python, ins, outs, spec.table_out)
            return
        assert target.address is not None
        if not c_api_supported(spec.api_version):
            raise HostIOError(f"custom-call target '{spec.target}' is a C function, which api_version {spec.api_version} cannot call")
        in_table = (ctypes.c_void_p * max(len(ins), 1))(*[_address(a) for a in ins])
        if spec.table_out:
            out_table = (ctypes.c_void_p * max(len(outs), 1))(*[_address(o) for o in outs])
            out: Any = ctypes.cast(out_table, ctypes.c_void_p)
        else:
            out = _address(outs[0]) if outs else None
        fn = _c_function(target.address, spec.api_version)
        status = ctypes.create_string_buffer(64)
        if spec.api_version == 3:
            fn(out, in_table, spec.opaque, len(spec.opaque), status)
        elif spec.api_version == 2:
            fn(out, in_table, status)
        else:
            fn(out, in_table)

    return handler


def _address(a: np.ndarray) -> int | None:
    return a.ctypes.data if a.size else None


def _call_python(fn: PythonTarget, ins: list[np.ndarray], outs: list[np.ndarray], table_out: bool) -> None:
    out: Any = tuple(outs) if table_out else (outs[0] if outs else None)
    result = fn(out, ins)
    if result is None:
        return
    values = list(result) if table_out else [result]
    if len(values) != len(outs):
        raise HostIOError(f"the target returned {len(values)} value(s) for {len(outs)} result(s)")
    for k, (value, o) in enumerate(zip(values, outs)):
        array = np.asarray(value)
        if array.shape != o.shape:
            raise HostIOError(f"result {k} of the target has shape {array.shape}, expected {o.shape}")
        np.copyto(o, array, casting="same_kind")


def _push_infeed(out: object, ins: list[np.ndarray]) -> None:
    infeed.push(*(np.array(a, copy=True) for a in ins))


register_custom_call(INFEED_TARGET, _push_infeed)


__all__ = [
    "DEVICE_TO_DEVICE",
    "DEVICE_TO_HOST",
    "HOST_TO_DEVICE",
    "OK_SYMBOL",
    "SYMBOL_PREFIX",
    "TOKEN",
    "CustomCallSpec",
    "CustomCallTarget",
    "HostIOError",
    "HostQueue",
    "Leaf",
    "Site",
    "Token",
    "begin_run",
    "bind_new_sites",
    "c_api_supported",
    "channel_queue",
    "custom_call_target",
    "end_run",
    "infeed",
    "outfeed",
    "read_handler",
    "record_error",
    "recv_queue",
    "register_action_handler",
    "register_channel_route",
    "register_custom_call",
    "reset",
    "resolve_site_functions",
    "send_queue",
    "take_error",
    "transfer_from_outfeed",
    "transfer_to_infeed",
    "unregister_custom_call",
    "write_handler",
]
