# lit configuration: every `*.mlir` under tests/lit is a test whose RUN lines use
# `xla-opt` and FileCheck (the Python `filecheck` package, under both names).
import os
import shutil
import sys

import lit.formats

config.name = "xla-dialect"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Output"]

bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for name in ("PYTHONPATH", "HOME"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

filecheck = shutil.which("filecheck", path=config.environment["PATH"]) or "filecheck"
config.substitutions.append(("FileCheck", filecheck))
config.substitutions.append(("%python", sys.executable))
