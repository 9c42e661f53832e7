"""`xla-opt`: the project's `mlir-opt`, built on xDSL's optimizer driver.

Beyond `xdsl-opt` it loads the `xla` dialect and the project's passes, reports
every error as `file:line:col: error: ...` with the offending line (never a
traceback), and implements MLIR's `--verify-diagnostics`: the
`// expected-error @+1 {{...}}` annotations of the input must match the
diagnostics produced, one for one.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from xla_dialect.context import (
    SPLIT_MARKER,
    LocatingParser,
    SourceDiagnostic,
    op_diagnostic,
    parse_error_diagnostic,
    split_input,
    verify_all,
)
from xla_tools.gc_pause import paused_collection


class ChunkFailed(Exception):
    """Processing a chunk produced diagnostics."""

    def __init__(self, diagnostics: list[SourceDiagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


class InputError(Exception):
    """The input file cannot be read as a program (e.g. it is not UTF-8 text)."""


# ---------------------------------------------------------------------------
# expected-* annotations
# ---------------------------------------------------------------------------

_EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)(-re)?\s*(?:@\s*([+-]\d+|above|below))?\s*\{\{(.*?)\}\}(?!.*\}\})"
)
"""`expected-error @+1 {{text}}`; with `-re` the text holds `{{regex}}` parts, so the
annotation runs to the last `}}` of the line."""


def expectation_pattern(text: str, is_regex: bool) -> re.Pattern[str]:
    """What a message must contain: `text` literally, or for `-re` its `{{...}}`
    parts as regular expressions and the rest literally (as MLIR's verifier)."""
    if not is_regex:
        return re.compile(re.escape(text))
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile("".join(part if i % 2 else re.escape(part) for i, part in enumerate(parts)))


@dataclass
class Expectation:
    kind: str
    line: int
    text: str
    annotation_line: int
    matched: bool = False
    is_regex: bool = False

    def accepts(self, message: str) -> bool:
        try:
            return expectation_pattern(self.text, self.is_regex).search(message) is not None
        except re.error:
            return False


def parse_expectations(chunk: str, line_offset: int) -> list[Expectation]:
    """The `expected-*` annotations of a chunk, each with the line it refers to."""
    expectations: list[Expectation] = []
    for index, line in enumerate(chunk.splitlines(), start=1):
        for match in _EXPECTED.finditer(line):
            kind, regex, where, text = match.groups()
            target = index
            if where == "above":
                target = index - 1
            elif where == "below":
                target = index + 1
            elif where:
                target = index + int(where)
            expectations.append(
                Expectation(kind, target + line_offset, text, index + line_offset, is_regex=bool(regex))
            )
    return expectations


def check_expectations(
    filename: str, expectations: list[Expectation], diagnostics: list[SourceDiagnostic]
) -> list[str]:
    """Match diagnostics to expectations; return the mismatches as messages."""
    problems: list[str] = []
    for diag in diagnostics:
        for exp in expectations:
            if not exp.matched and exp.kind == "error" and exp.line == diag.line and exp.accepts(diag.message):
                exp.matched = True
                break
        else:
            problems.append(f"{filename}:{diag.line}:{diag.column}: error: unexpected error: {diag.message}")
    for exp in expectations:
        if not exp.matched:
            problems.append(
                f"{filename}:{exp.annotation_line}: error: expected {exp.kind} "
                f'"{exp.text}" was not produced at line {exp.line}'
            )
    return problems


# ---------------------------------------------------------------------------
# The driver
# ---------------------------------------------------------------------------


def _llvm_dialect() -> Dialect:
    from lowering.to_llvm.common import extended_llvm_dialect

    return extended_llvm_dialect()  # with the ops the lowering adds


def _x86vector_dialect() -> Dialect:
    from lowering.codegen.x86vector import X86Vector

    return X86Vector


class XlaOptMain(xDSLOptMain):
    """xDSL's driver with the project's dialects, passes and diagnostics."""

    version_format = "xla-opt (xla-dialect) built on xDSL {xdsl_version}"

    def register_all_dialects(self) -> None:
        from xla_dialect.registry import get_all_dialects
        from xla_dialect.stablehlo import StablehloContext

        self.ctx = StablehloContext()  # `stablehlo.*` reads as `xla.*`
        dialects = get_all_dialects()
        dialects["llvm"] = _llvm_dialect  # loaded when the input holds llvm ops
        dialects["x86vector"] = _x86vector_dialect  # the code generator's x86 vector ops
        for name, factory in dialects.items():
            self.ctx.register_dialect(name, factory)

    def register_all_targets(self) -> None:
        super().register_all_targets()
        self.available_targets["stablehlo"] = self._emit_stablehlo
        self.available_targets["mlir-upstream"] = self._emit_stablehlo
        self.available_targets["llvm"] = self._emit_llvm_ir

    def _emit_llvm_ir(self, module: ModuleOp, output: IO[str]) -> None:
        """`-t llvm`: the LLVM IR the JIT compiles, from the project's translation
        (`runtime/llvm_backend.py`, xDSL's with the ops the lowering adds), so that
        `-p lower-to-llvm -t llvm` prints what `compile()` hands to LLVM."""
        from xdsl.dialects import llvm

        from runtime.llvm_backend import convert_module
        from xla_dialect.diagnostics import LoweringError

        for op in module.ops:
            if not isinstance(op, llvm.FuncOp | llvm.GlobalOp):
                raise LoweringError(
                    "cannot be translated to LLVM IR (-t llvm): only llvm.func and "
                    "llvm.mlir.global can; lower the module first (-p lower-to-llvm)",
                    op,
                )
        output.write(str(convert_module(module)))

    def _emit_stablehlo(self, module: ModuleOp, output: IO[str]) -> None:
        """`-t stablehlo` (or `-t mlir-upstream`): what upstream MLIR reads. `xla` ops
        with StableHLO's names (the way back from reading `stablehlo.*` as `xla.*`),
        implicit broadcasts made explicit, xDSL's spellings of upstream ops as MLIR's
        (`xla_tools/upstream_syntax.py`)."""
        from xla_dialect.stablehlo import explicit_broadcasts, to_stablehlo_text
        from xla_tools.upstream_syntax import UpstreamPrinter

        explicit_broadcasts(module)
        text = StringIO()
        printer = UpstreamPrinter(
            stream=text,
            print_generic_format=self.args.print_op_generic,
            print_properties_as_attributes=self.args.print_no_properties,
            print_debuginfo=self.args.print_debuginfo,
        )
        printer.print_op(module)
        output.write(to_stablehlo_text(text.getvalue()) + "\n\n")

    def register_all_passes(self) -> None:
        from xla_tools.registry import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        from xla_tools.registry import project_passes

        arg_parser.add_argument(
            "--print-ir-after-all",
            default=False,
            action="store_true",
            help="Print the IR after each pass (as mlir-opt's flag of that name).",
        )
        arg_parser.add_argument(
            "--timing",
            default=False,
            action="store_true",
            help="Print the wall and CPU time of parsing, each pass and the verifier on stderr "
            "(as mlir-opt's -mlir-timing).",
        )
        arg_parser.epilog = (
            "Project passes: "
            + ", ".join(sorted(project_passes()))
            + ". Every xDSL pass is available too (see -p in the list above)."
        )

    def setup_pipeline(self) -> None:
        from runtime.timing import TimingReport

        self.timing = TimingReport()
        mark = [time.perf_counter(), time.process_time()]

        def callback(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            if previous is not None:
                self.timing.add(previous.name, time.perf_counter() - mark[0], time.process_time() - mark[1])
            with self.timing.phase("verifier and printing"):
                self._after_pass(previous, module, following)
            mark[:] = [time.perf_counter(), time.process_time()]

        from xla_tools.pipelines import expand_pipeline_spec

        spec = expand_pipeline_spec(self.args.passes)
        self.pipeline = PassPipeline.parse_spec(self.available_passes, spec, callback)

    def _after_pass(self, previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
        """Verify (unless --disable-verify) and print (--print-ir-after-all) after a pass."""
        if previous is None:
            return
        if not self.args.disable_verify:
            diagnostics = verify_all(module)
            if diagnostics:
                raise ChunkFailed(
                    [
                        SourceDiagnostic(
                            d.file,
                            d.line,
                            d.column,
                            f"{d.message} (after pass '{previous.name}')",
                            d.source_line,
                        )
                        for d in diagnostics
                    ]
                )
        if self.args.print_ir_after_all or (following and self.args.print_between_passes):
            out = StringIO()
            Printer(stream=out).print_op(module)
            print(f"// -----// IR Dump After {previous.name} //----- //", file=sys.stdout)
            print(out.getvalue(), file=sys.stdout)

    # Processing -----------------------------------------------------------

    def _chunks(self) -> tuple[str, list[tuple[str, int]]]:
        name = self.get_input_name()
        stream, _ = self.get_input_stream()
        try:
            text = stream.read().decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(f"{name}: not UTF-8 text (byte {err.start})") from None
        stream.close()
        if not self.args.split_input_file:
            return name, [(text, 0)]
        return name, split_input(text)

    def _process(self, name: str, chunk: str, offset: int) -> str:
        """Parse, verify and transform one chunk; return the printed result."""
        parser = LocatingParser(self.ctx, chunk, name)
        parser.line_offset = offset
        try:
            with self.timing.phase("parser"):
                module = parser.parse_module(not self.args.no_implicit_module)
        except ParseError as err:
            raise ChunkFailed([parse_error_diagnostic(err, offset)]) from None
        source = "\n" * offset + chunk
        if not self.args.disable_verify:
            with self.timing.phase("verifier and printing"):
                diagnostics = verify_all(module, source)
            if diagnostics:
                raise ChunkFailed(diagnostics)
        try:
            self.pipeline.apply(self.ctx, module)
            return self.output_resulting_program(module)
        except ChunkFailed:
            raise
        except DiagnosticException as err:
            raise ChunkFailed([_pass_diagnostic(module, err, source)]) from None

    def run(self) -> int:  # pyright: ignore[reportIncompatibleMethodOverride]
        name, chunks = self._chunks()
        output = self.prepare_output()
        failed = False
        try:
            for index, (chunk, offset) in enumerate(chunks):
                expectations = (
                    parse_expectations(chunk, offset) if self.args.verify_diagnostics else []
                )
                try:
                    text = self._process(name, chunk, offset)
                    diagnostics: list[SourceDiagnostic] = []
                except ChunkFailed as err:
                    text, diagnostics = "", err.diagnostics
                if self.args.verify_diagnostics:
                    problems = check_expectations(name, expectations, diagnostics)
                    for problem in problems:
                        print(problem, file=sys.stderr)
                    failed |= bool(problems)
                elif diagnostics:
                    for diag in diagnostics:
                        print(diag.render(), file=sys.stderr)
                    return 1
                if index > 0:
                    output.write(SPLIT_MARKER + "\n")
                output.write(text)
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
            if self.args.timing:
                print(self.timing.format(), file=sys.stderr)
        return 1 if failed else 0


def _pass_diagnostic(module: ModuleOp, err: Exception, source: str) -> SourceDiagnostic:
    """A pass failure, at the op it names when it names one."""
    message = str(err.args[0]) if err.args else str(err)
    op = getattr(err, "op", None)
    if op is not None:
        return op_diagnostic(op, message, source)
    return SourceDiagnostic(module_file(module), 0, 0, message)


def module_file(module: ModuleOp) -> str:
    from xdsl.dialects.builtin import FileLineColLoc

    loc = module.location
    return loc.filename.data if isinstance(loc, FileLineColLoc) else "<input>"


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Entry point of the `xla-opt` console script."""
    try:
        tool = XlaOptMain(description="xla-opt: the xla dialect's optimizer driver", args=argv)
    except ValueError as err:  # unknown pass, bad pipeline spec, unknown input kind
        print(f"xla-opt: error: {err}", file=sys.stderr)
        return 1
    except ArgSpecParseError as err:  # a malformed `-p` pipeline
        print(f"xla-opt: error: {err}", file=sys.stderr)
        return 1
    try:
        with paused_collection():
            return tool.run()
    except (FileNotFoundError, IsADirectoryError, PermissionError) as err:
        print(f"xla-opt: error: {err.strerror}: {err.filename}", file=sys.stderr)
        return 1
    except InputError as err:  # input that is not text
        print(f"xla-opt: error: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # noqa: BLE001 - an internal error: say so plainly, without a traceback
        print(f"xla-opt: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
