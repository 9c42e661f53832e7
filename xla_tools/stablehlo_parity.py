"""How closely the verifier follows StableHLO's: read each chunk of StableHLO's
verifier tests (`stablehlo/tests/ops_stablehlo.mlir`, `verify_*.mlir`, ... from a
StableHLO checkout) and compare with what the test expects.

    python -m xla_tools.stablehlo_parity path/to/stablehlo/stablehlo/tests/ops_stablehlo.mlir ...

A chunk with an `expected-error` must be rejected (at that line, or elsewhere: an
attribute's own line in StableHLO is the op's line here); a chunk without one must
be accepted. Chunks that use what the project leaves out (quantized and dynamic
types, the dynamism and quantization ops, async ops, f8/f4/f6/tf32, sparsity) are
counted apart as out of scope. The lists name each chunk that disagrees: an invalid
chunk accepted or a valid chunk rejected, with the first message.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

from xla_dialect.context import XlaProgramError, parse_module, split_input
from xla_tools.xla_opt import parse_expectations

OUT_OF_SCOPE = re.compile(
    r"!quant|\?x|x\?|<\?|tensor<\*|bounds|tf32|f8E|f4E|f6E|si2|ui2|i2>|sparse|type_extensions"
    r"|stablehlo\.(?:dynamic_|real_dynamic|uniform|compute_reshape|cstr|set_dimension|get_dimension_size"
    r"|async|einsum|unary_einsum|torch_index|trace|composite_call)|!stablehlo\.future|unranked"
)


def classify(chunk: str, offset: int, name: str) -> tuple[str, str, str]:
    """(scope, outcome, first message) of one chunk."""
    scope = "out of scope" if OUT_OF_SCOPE.search(chunk) else "in scope"
    expected = [e for e in parse_expectations(chunk, offset) if e.kind == "error"]
    try:
        parse_module("\n" * offset + chunk, name)
        diagnostics = []
    except XlaProgramError as err:
        diagnostics = err.diagnostics
    except Exception as err:  # noqa: BLE001 - a crash is an outcome to report
        return scope, "crash", f"{type(err).__name__}: {err}"
    first = diagnostics[0].message if diagnostics else (expected[0].text if expected else "")
    if not expected:
        return scope, "valid accepted" if not diagnostics else "valid rejected", first
    if not diagnostics:
        return scope, "invalid accepted", first
    at_line = any(d.line == e.line for d in diagnostics for e in expected)
    return scope, "invalid rejected" if at_line else "invalid rejected elsewhere", first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xla_tools.stablehlo_parity", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="StableHLO verifier test files")
    args = parser.parse_args(argv)
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    disagreements: list[str] = []
    for path in args.files:
        for chunk, offset in split_input(path.read_text()):
            if "func.func" not in chunk and "stablehlo." not in chunk:
                continue
            scope, outcome, first = classify(chunk, offset, path.name)
            counts[(scope, outcome)] += 1
            if scope == "in scope" and outcome in ("invalid accepted", "valid rejected", "crash"):
                disagreements.append(f"{outcome}: {path.name}:{offset + 1}: {first}"[:240])
    for (scope, outcome), n in sorted(counts.items()):
        print(f"{scope:>12}  {outcome:<28} {n}")
    for line in disagreements:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
