"""Compile-time machinery (issue 19): timing reports, optimization levels, the
persistent compilation cache, and the outlining of loop nests keeping results."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from runtime.compile_cache import CacheEntry, CompileCache, source_fingerprint
from runtime.timing import TimingReport
from xla_tools import compile
from xla_tools.registry import LOWER_TO_LLVM

ROOT = Path(__file__).resolve().parents[2]
MLP = (ROOT / "examples" / "mlp.mlir").read_text()

PROGRAM = """func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<f32>) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.multiply %a, %b : tensor<64xf32>
  %1 = xla.add %0, %a : tensor<64xf32>
  %2 = xla.tanh %1 : tensor<64xf32>
  %3 = xla.reduce(%2 init: %zero) applies xla.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  %4 = xla.maximum %2, %b : tensor<64xf32>
  func.return %4, %3 : tensor<64xf32>, tensor<f32>
}
"""


def unique(text: str) -> str:
    """The same program under a text no other test compiles (the caches key on text)."""
    return f"// {uuid.uuid4()}\n{text}"


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(64, dtype=np.float32) for _ in range(2)]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XLA_DIALECT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLA_DIALECT_CACHE", raising=False)
    monkeypatch.delenv("XLA_DIALECT_CACHE_MAX_BYTES", raising=False)
    return tmp_path


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.xlacache"))


# -- timing -----------------------------------------------------------------------------


def test_timing_report_lists_every_pass_and_llvm_phase(cache_dir: Path) -> None:
    report = TimingReport()
    compile(unique(PROGRAM), timing=report)
    names = list(report.phases)
    for name in LOWER_TO_LLVM:
        assert name in names
    for phase in ("LLVM: translate to LLVM IR", "LLVM: optimize (O3)", "LLVM: code generation (MCJIT)"):
        assert phase in names
    text = report.format()
    assert "Execution time report" in text and "----Wall Time----" in text and "----CPU Time----" in text
    assert "convert-to-llvm" in text and text.rstrip().endswith("Total")


def test_an_untimed_compile_reads_no_cpu_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the process's CPU time can cost a millisecond; without timing it is not read."""
    import time

    monkeypatch.setattr(time, "process_time", lambda: pytest.fail("process_time read"))
    report = TimingReport(cpu_time=False)
    with report.phase("a"):
        pass
    assert report.phases["a"].count == 1 and report.total_cpu == 0.0
    program = "func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n  %0 = xla.negate %a : tensor<3xf32>\n  return %0 : tensor<3xf32>\n}"
    np.testing.assert_array_equal(compile(program, opt_level=0)(np.ones(3, np.float32)), -np.ones(3, np.float32))


def test_timing_true_prints_on_stderr(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    compile(unique(PROGRAM), timing=True)
    err = capsys.readouterr().err
    assert "Execution time report" in err and "lower-scf-to-cf" in err


def test_xla_opt_timing_lists_passes(tmp_path: Path) -> None:
    path = tmp_path / "p.mlir"
    path.write_text(PROGRAM)
    result = subprocess.run(  # noqa: PLW1510 - the exit status is asserted
        [sys.executable, "-m", "xla_tools.xla_opt", str(path), "-p", "lower-to-llvm", "--timing"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert "llvm.func @main" in result.stdout
    for name in ("parser", "convert-xla-to-linalg", "outline-loop-nests", "convert-to-llvm", "Total"):
        assert name in result.stderr


def test_xla_run_timing_and_opt_level(tmp_path: Path) -> None:
    path = tmp_path / "p.mlir"
    path.write_text(unique(PROGRAM))
    data = tmp_path / "in.npz"
    np.savez(data, arg0=inputs()[0], arg1=inputs()[1])
    outputs = []
    for level in ("0", "3"):
        out = tmp_path / f"out{level}.npz"
        result = subprocess.run(  # noqa: PLW1510 - the exit status is asserted
            [sys.executable, "-m", "xla_tools.xla_run", str(path), "--inputs", str(data), "--output", str(out),
             "-O", level, "--timing"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert result.returncode == 0, result.stderr
        assert f"LLVM: optimize (O{level})" in result.stderr or level == "0"
        assert "convert-to-llvm" in result.stderr
        outputs.append(np.load(out))
    np.testing.assert_allclose(outputs[0]["out0"], outputs[1]["out0"], rtol=1e-6)


# -- optimization levels ---------------------------------------------------------------


@pytest.mark.parametrize("program", [PROGRAM, MLP], ids=["chain", "mlp"])
def test_opt_levels_give_the_same_results(program: str, cache_dir: Path) -> None:
    text = unique(program)
    rng = np.random.default_rng(1)
    f0 = compile(text, opt_level=0)
    args = [rng.standard_normal(s.shape, dtype=s.dtype) for s in f0._input_leaves for s in s]
    reference = f0.run_leaves(args)
    for level in (1, 2, 3):
        results = compile(text, opt_level=level).run_leaves(args)
        for r, ref in zip(results, reference):
            np.testing.assert_allclose(r, ref, rtol=2e-6, atol=1e-6)


def test_opt_level_is_checked_and_read_from_the_environment(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="opt_level"):
        compile(PROGRAM, opt_level=4)
    monkeypatch.setenv("XLA_DIALECT_OPT_LEVEL", "1")
    report = TimingReport()
    compile(unique(PROGRAM), timing=report)
    assert "LLVM: optimize (O1)" in report.phases


# -- the persistent cache ----------------------------------------------------------------


def test_cache_miss_then_hit(cache_dir: Path) -> None:
    text = unique(PROGRAM)
    first = TimingReport()
    f = compile(text, timing=first)
    assert "convert-to-llvm" in first.phases and "cache: store" in first.phases
    assert len(entries(cache_dir)) == 1
    # A different optimization level is another entry; the same one is a hit.
    second = TimingReport()
    g = compile(text, opt_level=2, timing=second)
    assert "convert-to-llvm" in second.phases
    assert len(entries(cache_dir)) == 2
    from xla_tools import compiler

    compiler._CACHE.clear()
    third = TimingReport()
    h = compile(text, timing=third)
    assert list(third.phases) == ["cache: look up"]
    a, b = inputs()
    for x, y in zip(f(a, b), h(a, b)):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_allclose(g(a, b)[0], f(a, b)[0], rtol=1e-6)


def test_second_process_loads_from_the_cache(cache_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "mlp.mlir"
    path.write_text(unique(MLP))
    script = (
        "import sys\nfrom runtime.timing import TimingReport\nfrom xla_tools import compile\n"
        "r = TimingReport()\ncompile(open(sys.argv[1]).read(), timing=r)\nprint(','.join(r.phases))\n"
    )
    env = {**os.environ, "XLA_DIALECT_CACHE_DIR": str(cache_dir)}
    runs = [
        subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=ROOT, env=env, check=False)
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert "convert-to-llvm" in runs[0].stdout
    assert runs[1].stdout.strip() == "cache: look up"


def test_corrupt_entry_is_recompiled(cache_dir: Path) -> None:
    from xla_tools import compiler

    text = unique(PROGRAM)
    compile(text)
    (entry,) = entries(cache_dir)
    data = entry.read_bytes()
    a, b = inputs()
    for damaged in (data[: len(data) // 2], data[:-1] + bytes([data[-1] ^ 0xFF]), b"garbage"):
        entry.write_bytes(damaged)
        compiler._CACHE.clear()
        report = TimingReport()
        f = compile(text, timing=report)
        assert "convert-to-llvm" in report.phases
        np.testing.assert_allclose(f(a, b)[0], np.maximum(np.tanh(a * b + a), b), rtol=1e-5)
        assert entries(cache_dir) == [entry] and entry.read_bytes() == data


def test_cache_is_bounded_least_recently_used_first(tmp_path: Path) -> None:
    cache = CompileCache(tmp_path, max_bytes=10_000)

    def entry(size: int) -> CacheEntry:
        return CacheEntry([b"x" * size], {}, {}, {})

    for k in ("a", "b", "c"):
        cache.store(k, entry(3000))
        os.utime(cache.path(k), (1000 + ord(k), 1000 + ord(k)))  # a oldest, c newest
    assert cache.load("a") is not None  # a hit makes "a" the most recent
    cache.store("d", entry(3000))  # 12 kB > 10 kB: the least recently used ("b") goes
    assert {p.stem for p in entries(tmp_path)} == {"a", "c", "d"}
    assert cache.load("b") is None


def test_cache_entry_round_trip_and_bad_entries(tmp_path: Path) -> None:
    cache = CompileCache(tmp_path)
    entry = CacheEntry([b"\x7fELF", b""], {"f": "__xla_fn.f"}, {"f": (["!llvm.ptr"], "!llvm.void")},
                       {"f": (["tensor<2xf32>"], ["tensor<2xf32>"])})
    cache.store("k", entry)
    assert cache.load("k") == entry
    cache.path("k").write_bytes(b"xla-dialect compile cache 1\n\xff\xff")
    assert cache.load("k") is None and not cache.path("k").exists()
    assert cache.load("missing") is None


def test_key_depends_on_text_options_and_sources(tmp_path: Path) -> None:
    cache = CompileCache(tmp_path)
    base = cache.key("x", {"opt_level": 3})
    assert base == cache.key("x", {"opt_level": 3})
    assert base != cache.key("y", {"opt_level": 3})
    assert base != cache.key("x", {"opt_level": 2})
    assert len(source_fingerprint()) == 64


def test_cache_can_be_turned_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    compile(unique(PROGRAM))
    assert entries(cache_dir) == []


def test_programs_calling_the_host_are_not_cached(cache_dir: Path) -> None:
    text = unique("""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = xla.create_token : !xla.token
  %u = "xla.outfeed"(%x, %t) : (tensor<2xf32>, !xla.token) -> !xla.token
  func.return %x : tensor<2xf32>
}""")
    compile(text)
    assert entries(cache_dir) == []


def test_two_processes_share_the_cache(cache_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "p.mlir"
    path.write_text(unique(MLP))
    script = (
        "import sys\nimport numpy as np\nfrom xla_tools import compile\n"
        "f = compile(open(sys.argv[1]).read())\n"
        "x = np.load('examples/mlp_input.npz')\nprint(f(*[x[k] for k in sorted(x.files)]).sum())\n"
    )
    env = {**os.environ, "XLA_DIALECT_CACHE_DIR": str(cache_dir)}
    for _ in range(2):  # first both compile and store at once, then both load at once
        procs = [
            subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT, env=env)
            for _ in range(2)
        ]
        outs = [p.communicate(timeout=300) for p in procs]
        assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
        assert outs[0][0] == outs[1][0]
        assert len(entries(cache_dir)) == 1
        assert not list(cache_dir.glob(".tmp-*"))


# -- outlining keeps results ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["mlp.mlir", "jax_exports/mlp_grad.mlir", "jax_exports/conv_block.mlir"])
def test_outlining_keeps_results(name: str) -> None:
    from runtime.executable import load, xla_signatures
    from xla_dialect.context import parse_module
    from xla_tools.pipelines import run_passes

    text = (ROOT / "examples" / name).read_text()
    compiled = []
    outlining = ("outline-linalg-kernels", "outline-loop-nests")
    for passes in (LOWER_TO_LLVM, tuple(p for p in LOWER_TO_LLVM if p not in outlining)):
        module = parse_module(text)
        signatures = xla_signatures(module)
        run_passes(module, passes)
        assert bool(_kernels(module)) == ("outline-loop-nests" in passes)
        compiled.append(load(module, signatures).executable("main"))
    rng = np.random.default_rng(2)
    leaves = [
        rng.standard_normal(spec.shape).astype(spec.dtype)
        for specs in compiled[0]._input_leaves
        for spec in specs
    ]
    for outlined, inline in zip(compiled[0].run_leaves(leaves), compiled[1].run_leaves(leaves)):
        np.testing.assert_allclose(outlined, inline, rtol=1e-5, atol=1e-6)


# -- merging identical kernels keeps results -----------------------------------------------


def _kernels(module: ModuleOp) -> list[str]:
    """The functions the outlining passes made (`__kernel<N>`, `__linalg<N>`)."""
    names = [getattr(getattr(op, "sym_name", None), "data", "") for op in module.ops]
    return [n for n in names if "__kernel" in n or "__linalg" in n]


def _layers(count: int) -> str:
    """`count` dense layers of the same shapes (x @ w_i + b_i, then tanh): the same kernels."""
    t, w, b = "tensor<8x16xf32>", "tensor<16x16xf32>", "tensor<16xf32>"
    params = ", ".join(f"%w{i}: {w}, %b{i}: {b}" for i in range(count))
    lines = [f"func.func @main(%x0: {t}, {params}) -> {t} {{"]
    for i in range(count):
        lines += [
            f"  %d{i} = xla.dot %x{i}, %w{i} : ({t}, {w}) -> {t}",
            f"  %s{i} = xla.add %d{i}, %b{i}, broadcast_dimensions = [1] : ({t}, {b}) -> {t}",
            f"  %x{i + 1} = xla.tanh %s{i} : {t}",
        ]
    lines += [f"  func.return %x{count} : {t}", "}"]
    return "\n".join(lines)


def test_merging_identical_kernels_keeps_results() -> None:
    from runtime.executable import load, xla_signatures
    from xla_dialect.context import parse_module
    from xla_tools.pipelines import run_passes

    text = _layers(4)
    compiled, kernel_counts = [], []
    # (without merging: each nest its own kernel, and no merge-identical-functions)
    each = {"outline-loop-nests": {"merge_identical": False}, "outline-linalg-kernels": {"merge_identical": False}}
    for passes, options in ((LOWER_TO_LLVM, {}), (tuple(p for p in LOWER_TO_LLVM if p != "merge-identical-functions"), each)):
        module = parse_module(text)
        signatures = xla_signatures(module)
        run_passes(module, passes, options=options)
        kernel_counts.append(sum("__kernel" in name for name in _kernels(module)))  # (not the groups)
        compiled.append(load(module, signatures).executable("main"))
    assert kernel_counts[0] * 4 == kernel_counts[1]  # four layers, one copy of each kernel
    rng = np.random.default_rng(3)
    args = [rng.standard_normal((8, 16), dtype=np.float32)]
    for _ in range(4):
        args += [rng.standard_normal((16, 16), dtype=np.float32) * 0.3, rng.standard_normal(16, dtype=np.float32)]
    merged, separate = (np.asarray(c(*args)) for c in compiled)
    np.testing.assert_array_equal(merged, separate)  # the same code: bit for bit
    x = args[0].astype(np.float64)
    for i in range(4):
        x = np.tanh(x @ args[1 + 2 * i] + args[2 + 2 * i])
    np.testing.assert_allclose(merged, x, rtol=1e-4, atol=1e-5)
