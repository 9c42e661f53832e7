"""A printing mode upstream MLIR reads (`xla-opt --upstream-syntax`).

xDSL 0.74 prints a few upstream ops in forms today's MLIR (strict properties in
assembly formats) rejects: inherent attributes in the attribute dictionary.
`UpstreamPrinter` prints those ops as MLIR does and everything else as xDSL does:

| op | xDSL | MLIR |
|---|---|---|
| `memref.alloc`, `memref.alloca` | `() {alignment = 64 : i64} : memref<..>` | `() alignment = 64 : memref<..>` |
| `llvm.fadd` ... `llvm.fcmp`, `llvm.fneg` | `%a, %b {fastmathFlags = #llvm.fastmath<fast>} : f32` | `%a, %b fastmath<fast> : f32` |
| `llvm.load`, `llvm.store` (not atomic) | `%p {alignment = 4 : i64} : !llvm.ptr -> f32` | `%p <alignment = 4> : !llvm.ptr -> f32` |

(`llvm.call_intrinsic` keeps its flags in the dictionary, as MLIR prints it.)
The project's own ops print MLIR's syntax in every mode. xDSL does not read the
MLIR forms above back, so this is a mode for handing IR to MLIR's tools, not the
default.
"""

from __future__ import annotations

import re
from io import StringIO

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.printer import Printer

_FASTMATH = re.compile(r"\{fastmathFlags = #llvm\.fastmath<([^>]*)>(\}|, )")
_KEEPS_FASTMATH_IN_DICTIONARY = frozenset({"llvm.call_intrinsic"})


class UpstreamPrinter(Printer):
    """A printer whose output upstream MLIR's parser accepts (module docstring)."""

    def print_op(self, op: Operation) -> None:
        if self.print_generic_format:
            return super().print_op(op)
        if op.name in ("memref.alloc", "memref.alloca"):
            return self._print_with(op, self._print_alloc)
        if op.name in ("llvm.load", "llvm.store") and _not_atomic(op):
            return self._print_with(op, self._print_memory_access)
        if op.name.startswith("llvm.") and "fastmathFlags" in op.properties and op.name not in _KEEPS_FASTMATH_IN_DICTIONARY:
            return self._print_with(op, self._print_fastmath)
        return super().print_op(op)

    def _print_with(self, op: Operation, body: object) -> None:
        self._print_results(op)  # pyright: ignore[reportPrivateUsage]
        self.print_string(op.name)
        body(op)  # pyright: ignore[reportCallIssue]
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)

    def _print_alloc(self, op: Operation) -> None:
        """`(dynamic sizes)[symbols] alignment = N {attributes} : type`."""
        dynamic, symbols = op.operands[: len(op.operands) - _symbol_count(op)], op.operands[len(op.operands) - _symbol_count(op) :]
        with self.in_parens():
            self.print_list(dynamic, self.print_operand)
        if symbols:
            with self.in_square_brackets():
                self.print_list(symbols, self.print_operand)
        alignment = op.properties.get("alignment")
        if isinstance(alignment, IntegerAttr):
            self.print_string(f" alignment = {alignment.value.data}")
        self.print_op_attributes(op.attributes)
        self.print_string(" : ")
        self.print_attribute(op.results[0].type)

    def _print_memory_access(self, op: Operation) -> None:
        """`[volatile] (%v,)? %p <alignment = N, nontemporal> {attributes} : types`, as
        MLIR prints the properties of its load and store (`<...>` only when set)."""
        if "volatile_" in op.properties:
            self.print_string(" volatile")
        self.print_string(" ")
        self.print_list(op.operands, self.print_operand)
        flags = []
        alignment = op.properties.get("alignment")
        if isinstance(alignment, IntegerAttr):
            flags.append(f"alignment = {alignment.value.data}")
        if "nontemporal" in op.properties:
            flags.append("nontemporal")
        if flags:
            self.print_string(f" <{', '.join(flags)}>")
        self.print_op_attributes(op.attributes)
        self.print_string(" : ")
        if op.name == "llvm.load":
            self.print_attribute(op.operands[0].type)
            self.print_string(" -> ")
            self.print_attribute(op.results[0].type)
        else:
            self.print_list([v.type for v in op.operands], self.print_attribute)

    def _print_fastmath(self, op: Operation) -> None:
        """xDSL's own syntax with `{fastmathFlags = #llvm.fastmath<f>}` spelled `fastmath<f>`."""
        saved, self.stream = self.stream, StringIO()
        try:
            op.print(self)
            text = self.stream.getvalue()  # pyright: ignore[reportAttributeAccessIssue]
        finally:
            self.stream = saved
        text = _FASTMATH.sub(lambda m: f"fastmath<{m.group(1)}>" + ("" if m.group(2) == "}" else " {"), text)
        print(text.replace(" fastmath<none>", ""), end="", file=self.stream)


_MEMORY_PROPERTIES = frozenset({"alignment", "ordering", "volatile_", "nontemporal"})


def _not_atomic(op: Operation) -> bool:
    """A load or store without an atomic ordering, and no property the form above lacks."""
    ordering = op.properties.get("ordering")
    plain = ordering is None or (isinstance(ordering, IntegerAttr) and ordering.value.data == 0)
    return plain and set(op.properties) <= _MEMORY_PROPERTIES


def _symbol_count(op: Operation) -> int:
    segments = op.properties.get("operandSegmentSizes")
    values = getattr(segments, "get_values", None)
    if values is None:
        return 0
    sizes = values()
    return int(sizes[1]) if len(sizes) > 1 else 0


__all__ = ["UpstreamPrinter"]
