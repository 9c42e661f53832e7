"""Does upstream MLIR read what the project prints, at every stage of `lower-to-llvm`?

    python -m xla_tools.upstream_check examples/jax_exports/*.mlir [--generic] [--opt iree-opt]

Each module is read, then printed after every pass of the pipeline as
`xla-opt -t mlir-upstream` prints it: `xla` ops with StableHLO's names and
explicit broadcasts, upstream ops in MLIR's syntax (`--generic`: generic form). Each text is handed to an upstream MLIR tool (`iree-opt`,
from `pip install iree-base-compiler`, reads every upstream dialect and
StableHLO; any `mlir-opt` works for the stages after `convert-xla-to-linalg`),
which only parses and verifies it (allowing unregistered dialects: Shardy's `#sdy.*`
attributes, kept from JAX's exports, are in none of upstream's). The table says which stage of which module it
rejected, with its first error.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from lowering.to_llvm.common import register_llvm_extensions
from xla_dialect.context import make_context, parse_module
from xla_dialect.stablehlo import explicit_broadcasts, to_stablehlo_text
from xla_tools.registry import LOWER_TO_LLVM, get_all_passes
from xla_tools.upstream_syntax import UpstreamPrinter


def print_stage(module: ModuleOp, generic: bool = False) -> str:
    """The module as `xla-opt -t mlir-upstream` prints it (on a copy)."""
    module = module.clone()
    explicit_broadcasts(module)
    out = StringIO()
    UpstreamPrinter(stream=out, print_generic_format=generic).print_op(module)
    return to_stablehlo_text(out.getvalue())


def stages(text: str, filename: str, generic: bool = False) -> Iterator[tuple[str, str]]:
    """(stage name, printed module) for the input and after every pass."""
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(text, filename, ctx)
    yield "input", print_stage(module, generic)
    available = get_all_passes()
    for name in LOWER_TO_LLVM:
        available[name]()().apply(ctx, module)
        yield name, print_stage(module, generic)


@dataclass(frozen=True)
class Verdict:
    module: str
    stage: str
    accepted: bool
    error: str = ""


def check(text: str, tool: str) -> tuple[bool, str]:
    """Whether `tool` parses and verifies `text` (no passes run); its first error."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        # Shardy's attributes (`#sdy.*`, kept from JAX's exports) belong to no upstream dialect.
        command = [tool, f.name, "-o", "/dev/null", "--allow-unregistered-dialect"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    finally:
        Path(f.name).unlink()
    first = next((line for line in done.stderr.splitlines() if "error" in line), done.stderr.strip()[:200])
    return done.returncode == 0, first.replace(f.name, "<stage>")


def check_files(paths: Sequence[Path], tool: str, generic: bool = False) -> list[Verdict]:
    verdicts = []
    for path in paths:
        for stage, text in stages(path.read_text(), path.name, generic):
            ok, error = check(text, tool)
            verdicts.append(Verdict(path.name, stage, ok, error))
    return verdicts


def find_tool(name: str = "iree-opt") -> str | None:
    return shutil.which(name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--opt", default="iree-opt", help="the upstream tool (default: iree-opt)")
    parser.add_argument("--generic", action="store_true", help="print the generic form instead")
    args = parser.parse_args(argv)
    tool = find_tool(args.opt)
    if tool is None:
        print(f"error: '{args.opt}' not found (pip install iree-base-compiler)", file=sys.stderr)
        return 2
    verdicts = check_files(args.files, tool, args.generic)
    for v in verdicts:
        if not v.accepted:
            print(f"REJECTED {v.module} after {v.stage}: {v.error}")
    accepted = sum(v.accepted for v in verdicts)
    print(f"{accepted}/{len(verdicts)} stages accepted over {len(args.files)} modules")
    return 0 if accepted == len(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
