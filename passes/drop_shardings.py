"""`xla-drop-shardings`: Shardy's ops, which carry no meaning on one device, go.

The project runs a program on one device. A `sdy.sharding_constraint` or
`sdy.reshard` is then its operand, and `sdy.mesh` declarations name nothing the
code uses, as long as every mesh has one device; a mesh of more devices is a
program partitioned for several, which is reported (at the mesh) rather than run
as if it were not. Shardy's attributes stay where they are (nothing reads them).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xla_dialect.diagnostics import LoweringError
from xla_dialect.sdy import MeshOp, ReshardOp, ShardingConstraintOp


class DropShardingsPass(ModulePass):
    name = "xla-drop-shardings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, MeshOp):
                if inner.device_count() != 1:
                    raise LoweringError(
                        f"mesh @{inner.sym_name.data} spans {inner.device_count()} devices; "
                        "the project runs programs on one", inner
                    )
                inner.detach()
                inner.erase()
            elif isinstance(inner, (ShardingConstraintOp, ReshardOp)):
                inner.result.replace_all_uses_with(inner.input)
                inner.detach()
                inner.erase()
