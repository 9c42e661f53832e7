"""Bufferization of linalg ops, `scf` control flow and `func` calls and returns
(see the package docstring)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects import func, scf
from xdsl.ir import Operation, SSAValue

from lowering.bufferize.analysis import (
    _error,
    _has_tensor,
    _is_tensor,
    buffer_type,
)


class ControlFlowOps:
    """How linalg ops, `scf` control flow and `func` calls and returns are
    bufferized (a part of `driver._FunctionBufferizer`)."""

    # -- linalg ------------------------------------------------------------

    def linalg(self, op: Operation) -> None:
        """Any destination-style linalg op: its tensor results are the updated
        values of its trailing (init) operands."""
        n_results = len(op.results)
        n_inputs = len(op.operands) - n_results
        if not n_results or not all(_is_tensor(r.type) for r in op.results) or n_inputs < 0:
            raise _error(op, "expected tensor results, one per trailing init operand")
        inits = op.operands[n_inputs:]
        for init, result in zip(inits, op.results, strict=True):
            if init.type != result.type:
                raise _error(op, f"init type {init.type} differs from result type {result.type}")
        body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        operands: list[SSAValue] = []
        for index, operand in enumerate(op.operands):
            if not _is_tensor(operand.type):
                operands.append(operand)
            elif index < n_inputs:
                operands.append(self.buf(operand))
            else:
                reads = body is None or len(body.args) != len(op.operands) or body.args[index].first_use is not None
                operands.append(self.destination(operand, op, reads=reads))
        new = type(op).create(
            operands=operands,
            result_types=[],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        for result, buffer in zip(op.results, operands[n_inputs:], strict=True):
            self.set_buffer(result, buffer, owned=True)
        self.erase.append(op)
        self.process_regions(new, None)

    # -- control flow ------------------------------------------------------

    def terminator(self, op: Operation) -> None:
        """`scf.yield`/`scf.condition`: handled by their parent's handler."""
        block = op.parent_block()
        handler = self.terminators.get(block) if block is not None else None
        if handler is not None:
            handler(op)
        elif _has_tensor(op.operands):
            parent = op.parent_op()
            raise _error(parent or op, "unsupported op with tensor results")

    def _branching(self, op: scf.IfOp | scf.IndexSwitchOp) -> None:
        """`scf.if`/`scf.index_switch`: branches yield into result buffers."""
        if not _has_tensor(op.results):
            self.process_regions(op, None)
            return
        targets = [self.alloc(buffer_type(r.type, op), op) if _is_tensor(r.type) else None for r in op.results]
        new = type(op).create(
            operands=list(op.operands),
            result_types=[r.type for r in op.results if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        for result, target in zip(op.results, targets, strict=True):
            if target is not None:
                self.set_buffer(result, target, owned=True)
        self.replace_results(op, new)
        self.erase.append(op)
        self.process_regions(new, functools.partial(self._yield_results, targets))

    def _yield_results(self, targets: list[SSAValue | None], op: Operation) -> None:
        block = op.parent_block()
        assert block is not None
        values = [self.buf(v) if t is not None else v for v, t in zip(op.operands, targets, strict=True)]
        for value, target in zip(values, targets, strict=True):
            if target is None:
                continue
            alloc = self.local_alloc(value, block)
            if alloc is not None and value.type == target.type and values.count(value) == 1:
                self.rename(alloc, target)
            else:
                self.copy(value, target, op)
        self._replace_terminator(op, [v for v, t in zip(op.operands, targets, strict=True) if t is None])

    def _replace_terminator(self, op: Operation, operands: Sequence[SSAValue]) -> None:
        new = type(op).create(operands=list(operands), attributes=dict(op.attributes))
        self.insert([new], op)
        self.erase.append(op)

    def for_op(self, op: scf.ForOp) -> None:
        if not _has_tensor(op.results):
            self.process_regions(op, None)
            return
        targets = [self.carried_buffer(init, op) if _is_tensor(init.type) else None for init in op.iter_args]
        new = scf.ForOp.create(
            operands=[op.lb, op.ub, op.step, *(v for v in op.iter_args if not _is_tensor(v.type))],
            result_types=[r.type for r in op.results if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        body = new.body.block
        for arg, result, target in zip(body.args[1:], op.results, targets, strict=True):
            if target is not None:
                self.set_buffer(arg, target, owned=True)
                self.set_buffer(result, target, owned=True)
                self.erase_args.append(arg)
        self.replace_results(op, new)
        self.erase.append(op)
        self.process_regions(new, functools.partial(self._yield_carried, targets))

    def _yield_carried(self, targets: list[SSAValue | None], op: Operation) -> None:
        """A loop's `scf.yield` (or `scf.condition`, whose first operand is the
        condition): copy the tensors into the carried buffers."""
        first = 1 if isinstance(op, scf.ConditionOp) else 0
        operands = op.operands[first:]
        pairs = [(self.buf(v), t) for v, t in zip(operands, targets, strict=True) if t is not None]
        self.copy_carried([v for v, _ in pairs], [t for _, t in pairs], op)
        kept = [v for v, t in zip(operands, targets, strict=True) if t is None]
        self._replace_terminator(op, [*op.operands[:first], *kept])

    def while_op(self, op: scf.WhileOp) -> None:
        before = op.before_region.blocks[0]
        after = op.after_region.blocks[0]
        if not (_has_tensor(op.arguments) or _has_tensor(op.results)):
            self.process_regions(op, None)
            return
        condition = before.last_op
        if not isinstance(condition, scf.ConditionOp):
            raise _error(op, "expected the before region to end with scf.condition")
        before_targets = [self.carried_buffer(v, op) if _is_tensor(v.type) else None for v in op.arguments]
        after_targets: list[SSAValue | None] = []
        for index, (forwarded, result) in enumerate(zip(condition.args, op.results, strict=True)):
            if not _is_tensor(result.type):
                after_targets.append(None)
            elif (
                index < len(before.args)
                and forwarded is before.args[index]
                and (same := before_targets[index]) is not None
                and same.type == buffer_type(result.type, op)
            ):
                after_targets.append(same)
            else:
                after_targets.append(self.alloc(buffer_type(result.type, op), op))
        new = scf.WhileOp.create(
            operands=[v for v in op.arguments if not _is_tensor(v.type)],
            result_types=[r.type for r in op.results if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        for arg, target in zip(before.args, before_targets, strict=True):
            if target is not None:
                self.set_buffer(arg, target, owned=True)
                self.erase_args.append(arg)
        for arg, result, target in zip(after.args, op.results, after_targets, strict=True):
            if target is not None:
                self.set_buffer(arg, target, owned=True)
                self.set_buffer(result, target, owned=True)
                self.erase_args.append(arg)
        self.replace_results(op, new)
        self.erase.append(op)
        self.terminators[before] = functools.partial(self._yield_carried, after_targets)
        self.process_block(before)
        self.terminators[after] = functools.partial(self._yield_carried, before_targets)
        self.process_block(after)

    # -- functions ---------------------------------------------------------

    def call(self, op: func.CallOp) -> None:
        if not (_has_tensor(op.arguments) or _has_tensor(op.res)):
            return
        arguments = [self.contiguous(self.buf(a), op) if _is_tensor(a.type) else a for a in op.arguments]
        outs: list[SSAValue] = []
        for result in op.res:
            if _is_tensor(result.type):
                out = self.alloc(buffer_type(result.type, op), op)
                self.set_buffer(result, out, owned=True)
                outs.append(out)
        new = func.CallOp.create(
            operands=[*arguments, *outs],
            result_types=[r.type for r in op.res if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        self.insert([new], op)
        self.replace_results(op, new)
        self.erase.append(op)

    def return_op(self, op: func.ReturnOp) -> None:
        if not _has_tensor(op.arguments):
            return
        entry = self.f.body.blocks[0]
        returned = [self.buf(v) for v in op.arguments if _is_tensor(v.type)]
        for value, out in zip(returned, self.out_params, strict=True):
            alloc = self.local_alloc(value, entry) if op.parent_block() is entry else None
            if alloc is not None and value.type == out.type and returned.count(value) == 1:
                self.rename(alloc, out)
            else:
                self.copy(value, out, op)
        self._replace_terminator(op, [v for v in op.arguments if not _is_tensor(v.type)])
