"""Collectives and the interpreter's `run_parallel` → calls into the collective
runtime: `abi.py` (what a site does, as data), `ops.py` (the collective ops,
`replica_id`, `partition_id`), `run_parallel.py` (the harness op).
`convert-xla-to-linalg` imports `ops` and `run_parallel`, which register their
lowerings."""
