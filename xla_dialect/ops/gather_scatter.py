"""Gather and scatter: many slices at run-time indices, read or combined into an array
(spec: Gather, Scatter).

Both ops carry their dimension numbers as `#xla.gather<...>` / `#xla.scatter<...>`
(StableHLO's fields, batching dimensions included). StableHLO has no pretty syntax
for them, so they are written and printed in the generic form:
`"xla.gather"(%operand, %indices) {dimension_numbers = #xla.gather<...>, slice_sizes =
array<i64: ...>} : (...) -> ...`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure, RecursiveMemoryEffect

from xla_dialect.attributes import GatherDimensionNumbersAttr, ScatterDimensionNumbersAttr
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import (
    XlaOp,
    check_element_class,
    check_tensor,
)
from xla_dialect.ops.control_flow import region_signature
from xla_dialect.syntax import i64_array, ints_of
from xla_dialect.types import (
    bit_width,
    element_type_of,
    format_type,
    is_complex,
    is_dynamic,
    is_float,
    is_pred,
    is_signed_integer,
    is_tensor,
    is_unsigned_integer,
    rank_of,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Shared checks on dimension numbers
# ---------------------------------------------------------------------------


def _check_sorted_unique(name: str, dims: Sequence[int]) -> None:
    require(len(set(dims)) == len(dims), f"{name} {fmt_list(dims)} has repeated dimensions")
    require(
        all(a < b for a, b in itertools.pairwise(dims)),
        f"{name} {fmt_list(dims)} must be sorted in ascending order",
    )


def _check_in_range(name: str, dims: Sequence[int], bound: int, what: str) -> None:
    for d in dims:
        require(
            0 <= d < bound,
            f"{name} {fmt_list(dims)} has {d}, out of range [0, {bound}) of the {what}",
        )


def _check_unique_union(names: tuple[str, str], a: Sequence[int], b: Sequence[int]) -> None:
    both = [*a, *b]
    require(
        len(set(both)) == len(both),
        f"{names[0]} {fmt_list(a)} and {names[1]} {fmt_list(b)} must not repeat a dimension",
    )


def _check_index_vector_dim(index_vector_dim: int, indices_rank: int, indices_name: str) -> None:
    require(
        0 <= index_vector_dim <= indices_rank,
        f"index_vector_dim {index_vector_dim} is out of range [0, {indices_rank}] "
        f"({indices_name} rank {indices_rank})",
    )


def _check_index_map_size(
    map_name: str, index_map: Sequence[int], indices: Sequence[int], index_vector_dim: int,
    indices_name: str,
) -> None:
    """The index map has one entry per component of an index vector."""
    if index_vector_dim < len(indices):
        expected = indices[index_vector_dim]
        where = f"dimension {index_vector_dim} (index_vector_dim) of {indices_name}"
    else:
        expected = 1
        where = f"the implicit trailing dimension of {indices_name}"
    require(
        is_dynamic(expected) or len(index_map) == expected,
        f"{map_name} {fmt_list(index_map)} has {len(index_map)} entries but {where} has size "
        f"{expected}",
    )


def _check_batching_dims(
    names: tuple[str, str],
    operand_dims: Sequence[int],
    indices_dims: Sequence[int],
    operand_shape: Sequence[int],
    indices_shape: Sequence[int],
    index_vector_dim: int,
    indices_name: str,
    operand_name: str,
) -> None:
    """Batching dimensions pair operand dimensions with index dimensions of equal size."""
    op_name, idx_name = names
    require(
        len(set(indices_dims)) == len(indices_dims),
        f"{idx_name} {fmt_list(indices_dims)} has repeated dimensions",
    )
    _check_in_range(idx_name, indices_dims, len(indices_shape), f"{indices_name} rank")
    require(
        index_vector_dim not in indices_dims,
        f"{idx_name} {fmt_list(indices_dims)} must not contain index_vector_dim {index_vector_dim}",
    )
    require(
        len(operand_dims) == len(indices_dims),
        f"{op_name} {fmt_list(operand_dims)} and {idx_name} {fmt_list(indices_dims)} must have "
        "the same size",
    )
    for a, b in zip(operand_dims, indices_dims):
        x, y = operand_shape[a], indices_shape[b]
        require(
            x == y or is_dynamic(x) or is_dynamic(y),
            f"{operand_name} dimension {a} (size {x}) of {op_name} and {indices_name} dimension {b} "
            f"(size {y}) of {idx_name} must have the same size",
        )


def _batch_shape(indices_shape: Sequence[int], index_vector_dim: int) -> list[int]:
    """The index array's shape without its index-vector dimension."""
    return [s for d, s in enumerate(indices_shape) if d != index_vector_dim]


# ---------------------------------------------------------------------------
# Gather
# ---------------------------------------------------------------------------


@irdl_op_definition
class GatherOp(XlaOp):
    """`"xla.gather"(%operand, %start_indices) {dimension_numbers = #xla.gather<...>,
    slice_sizes = array<i64: ...>}` (spec: Gather): stitches together slices of
    `operand` taken at the indices in `start_indices`."""

    name = "xla.gather"
    SPEC_SECTION: ClassVar[str] = "Gather"
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    result = result_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    slice_sizes = prop_def(DenseArrayBase)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        start_indices: SSAValue,
        *,
        offset_dims: Sequence[int],
        collapsed_slice_dims: Sequence[int],
        start_index_map: Sequence[int],
        index_vector_dim: int,
        slice_sizes: Sequence[int],
        operand_batching_dims: Sequence[int] = (),
        start_indices_batching_dims: Sequence[int] = (),
        indices_are_sorted: bool | None = None,
        unique_indices: bool | None = None,
    ):
        dn = GatherDimensionNumbersAttr.make(
            offset_dims=offset_dims,
            collapsed_slice_dims=collapsed_slice_dims,
            operand_batching_dims=operand_batching_dims,
            start_indices_batching_dims=start_indices_batching_dims,
            start_index_map=start_index_map,
            index_vector_dim=index_vector_dim,
        )
        props: dict[str, Attribute] = {"dimension_numbers": dn, "slice_sizes": i64_array(slice_sizes)}
        if indices_are_sorted is not None:
            props["indices_are_sorted"] = IntegerAttr(int(indices_are_sorted), i1)
        if unique_indices is not None:
            props["unique_indices"] = IntegerAttr(int(unique_indices), i1)
        super().__init__(
            operands=[operand, start_indices],
            result_types=[self.infer_result_type(operand.type, start_indices.type, dn, slice_sizes)],
            properties=props,
        )

    @staticmethod
    def infer_result_type(
        operand: Attribute,
        start_indices: Attribute,
        dimension_numbers: GatherDimensionNumbersAttr,
        slice_sizes: Sequence[int],
    ) -> Attribute:
        """Checks every rule of the spec and returns the result type."""
        check_tensor("operand", operand)
        check_tensor("start_indices", start_indices)
        check_element_class("start_indices", start_indices, "integer")
        shape = shape_of(operand)
        indices = shape_of(start_indices)
        rank = len(shape)
        dn = dimension_numbers
        offset_dims = dn.ints("offset_dims")
        collapsed = dn.ints("collapsed_slice_dims")
        op_batch = dn.ints("operand_batching_dims")
        idx_batch = dn.ints("start_indices_batching_dims")
        index_map = dn.ints("start_index_map")
        ivd = dn.int_value("index_vector_dim")

        _check_index_vector_dim(ivd, len(indices), "start_indices")
        require(
            len(slice_sizes) == rank,
            f"slice_sizes {fmt_list(slice_sizes)} has {len(slice_sizes)} entries but the operand "
            f"rank is {rank}",
        )
        _check_sorted_unique("offset_dims", offset_dims)
        for d in offset_dims:
            require(d >= 0, f"offset_dims {fmt_list(offset_dims)} has {d} < 0")
        _check_sorted_unique("collapsed_slice_dims", collapsed)
        _check_in_range("collapsed_slice_dims", collapsed, rank, "operand rank")
        _check_sorted_unique("operand_batching_dims", op_batch)
        _check_in_range("operand_batching_dims", op_batch, rank, "operand rank")
        _check_unique_union(("collapsed_slice_dims", "operand_batching_dims"), collapsed, op_batch)
        for name, dims in (("collapsed_slice_dims", collapsed), ("operand_batching_dims", op_batch)):
            for d in dims:
                require(
                    slice_sizes[d] <= 1,
                    f"slice_sizes[{d}] = {slice_sizes[d]} must be at most 1 because {d} is in {name}",
                )
        _check_batching_dims(
            ("operand_batching_dims", "start_indices_batching_dims"),
            op_batch, idx_batch, shape, indices, ivd, "start_indices", "operand",
        )
        _check_unique_union(("start_index_map", "operand_batching_dims"), index_map, op_batch)
        _check_in_range("start_index_map", index_map, rank, "operand rank")
        _check_index_map_size("start_index_map", index_map, indices, ivd, "start_indices")
        for d, (size, dim) in enumerate(zip(slice_sizes, shape)):
            require(size >= 0, f"slice_sizes {fmt_list(slice_sizes)} has {size} < 0 in dimension {d}")
            require(
                is_dynamic(dim) or size <= dim,
                f"slice_sizes {fmt_list(slice_sizes)} has {size} in dimension {d}, beyond the "
                f"operand size {dim}",
            )
        require(
            rank == len(offset_dims) + len(collapsed) + len(op_batch),
            f"operand rank {rank} must equal the sizes of offset_dims ({len(offset_dims)}) + "
            f"collapsed_slice_dims ({len(collapsed)}) + operand_batching_dims ({len(op_batch)})",
        )
        batch = _batch_shape(indices, ivd)
        result_rank = len(batch) + len(offset_dims)
        _check_in_range("offset_dims", offset_dims, result_rank, "result rank")
        dropped = set(collapsed) | set(op_batch)
        offset_sizes = [s for d, s in enumerate(slice_sizes) if d not in dropped]
        out: list[int] = []
        batch_iter, offset_iter = iter(batch), iter(offset_sizes)
        for d in range(result_rank):
            out.append(next(offset_iter) if d in offset_dims else next(batch_iter))
        if all(not is_dynamic(n) and n > 0 for n in out):
            for d in collapsed:
                require(
                    shape[d] != 0,
                    f"operand dimension {d} (in collapsed_slice_dims) has size 0: the result "
                    f"{fmt_list(out)} would have no element to read",
                )
        return tensor(out, element_type_of(operand))

    def verify_(self) -> None:
        self.check_result_types(
            [
                self.infer_result_type(
                    self.operand.type,
                    self.start_indices.type,
                    self.dimension_numbers,
                    ints_of(self.slice_sizes),
                )
            ]
        )


# ---------------------------------------------------------------------------
# Scatter
# ---------------------------------------------------------------------------


def is_promotable(source: Attribute, target: Attribute) -> bool:
    """`target` holds every value of `source`: the same kind, at least as wide."""
    if source == target:
        return True
    same_kind = (
        (is_pred(source) and is_pred(target))
        or (is_signed_integer(source) and is_signed_integer(target))
        or (is_unsigned_integer(source) and is_unsigned_integer(target))
        or (is_float(source) and is_float(target))
        or (is_complex(source) and is_complex(target))
    )
    return same_kind and bit_width(target) >= bit_width(source)


@irdl_op_definition
class ScatterOp(XlaOp):
    """`"xla.scatter"(%inputs..., %scatter_indices, %updates...) ({ ^bb0(...): ... })
    {scatter_dimension_numbers = #xla.scatter<...>}` (spec: Scatter): combines the slices
    of `updates` into `inputs` at the indices in `scatter_indices` with
    `update_computation`."""

    name = "xla.scatter"
    SPEC_SECTION: ClassVar[str] = "Scatter"
    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    result = var_result_def(TensorType)
    update_computation = region_def("single_block")
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        scatter_indices: SSAValue,
        updates: Sequence[SSAValue],
        update_computation: Region,
        *,
        update_window_dims: Sequence[int],
        inserted_window_dims: Sequence[int],
        scatter_dims_to_operand_dims: Sequence[int],
        index_vector_dim: int,
        input_batching_dims: Sequence[int] = (),
        scatter_indices_batching_dims: Sequence[int] = (),
        indices_are_sorted: bool | None = None,
        unique_indices: bool | None = None,
    ):
        dn = ScatterDimensionNumbersAttr.make(
            update_window_dims=update_window_dims,
            inserted_window_dims=inserted_window_dims,
            input_batching_dims=input_batching_dims,
            scatter_indices_batching_dims=scatter_indices_batching_dims,
            scatter_dims_to_operand_dims=scatter_dims_to_operand_dims,
            index_vector_dim=index_vector_dim,
        )
        props: dict[str, Attribute] = {"scatter_dimension_numbers": dn}
        if indices_are_sorted is not None:
            props["indices_are_sorted"] = IntegerAttr(int(indices_are_sorted), i1)
        if unique_indices is not None:
            props["unique_indices"] = IntegerAttr(int(unique_indices), i1)
        super().__init__(
            operands=[list(inputs), scatter_indices, list(updates)],
            result_types=[
                self.infer_result_types([v.type for v in inputs], update_computation)
            ],
            properties=props,
            regions=[update_computation],
        )

    @staticmethod
    def infer_result_types(inputs: Sequence[Attribute], update_computation: Region) -> list[Attribute]:
        """The inputs' shapes, with the element types of the computation's parameters
        (the inputs' own element types when the region has no parameters yet)."""
        args = (
            list(update_computation.blocks[0].args)
            if update_computation.blocks
            else []
        )
        out: list[Attribute] = []
        for i, t in enumerate(inputs):
            element = element_type_of(t)
            if len(args) == 2 * len(inputs) and is_tensor(args[i].type):
                element = element_type_of(args[i].type)
            out.append(tensor(shape_of(t), element))
        return out

    def verify_(self) -> None:
        inputs = list(self.inputs.types)
        updates = list(self.updates.types)
        n = len(inputs)
        require(n >= 1, "scatter needs at least one input")
        require(
            len(updates) == n,
            f"scatter has {n} inputs but {len(updates)} updates; they must be equal",
        )
        for i, t in enumerate(inputs):
            check_tensor(f"input #{i}", t)
        for i, t in enumerate(updates):
            check_tensor(f"update #{i}", t)
        check_tensor("scatter_indices", self.scatter_indices.type)
        check_element_class("scatter_indices", self.scatter_indices.type, "integer")
        shape = shape_of(inputs[0])
        for i, t in enumerate(inputs[1:], 1):
            require(
                shape_of(t) == shape,
                f"input #{i} shape {fmt_list(shape_of(t))} differs from input #0 shape "
                f"{fmt_list(shape)}",
            )
        upd_shape = shape_of(updates[0])
        for i, t in enumerate(updates[1:], 1):
            require(
                shape_of(t) == upd_shape,
                f"update #{i} shape {fmt_list(shape_of(t))} differs from update #0 shape "
                f"{fmt_list(upd_shape)}",
            )
        for i, (a, b) in enumerate(zip(inputs, updates)):
            require(
                element_type_of(a) == element_type_of(b),
                f"update #{i} element type {format_type(element_type_of(b))} differs from "
                f"input #{i} element type {format_type(element_type_of(a))}",
            )
        self._verify_dimension_numbers(shape, upd_shape, shape_of(self.scatter_indices.type))
        elements = self._verify_update_computation([element_type_of(t) for t in inputs])
        expected = [tensor(shape_of(t), e) for t, e in zip(inputs, elements)]
        self.check_result_types(expected)

    def _verify_dimension_numbers(
        self, shape: Sequence[int], upd_shape: Sequence[int], indices: Sequence[int]
    ) -> None:
        dn = self.scatter_dimension_numbers
        window = dn.ints("update_window_dims")
        inserted = dn.ints("inserted_window_dims")
        in_batch = dn.ints("input_batching_dims")
        idx_batch = dn.ints("scatter_indices_batching_dims")
        index_map = dn.ints("scatter_dims_to_operand_dims")
        ivd = dn.int_value("index_vector_dim")
        rank = len(shape)

        _check_index_vector_dim(ivd, len(indices), "scatter_indices")
        _check_sorted_unique("update_window_dims", window)
        _check_in_range("update_window_dims", window, len(upd_shape), "updates rank")
        _check_sorted_unique("inserted_window_dims", inserted)
        _check_in_range("inserted_window_dims", inserted, rank, "input rank")
        _check_sorted_unique("input_batching_dims", in_batch)
        _check_in_range("input_batching_dims", in_batch, rank, "input rank")
        _check_unique_union(("inserted_window_dims", "input_batching_dims"), inserted, in_batch)
        _check_batching_dims(
            ("input_batching_dims", "scatter_indices_batching_dims"),
            in_batch, idx_batch, shape, indices, ivd, "scatter_indices", "input",
        )
        _check_unique_union(("scatter_dims_to_operand_dims", "input_batching_dims"), index_map, in_batch)
        _check_in_range("scatter_dims_to_operand_dims", index_map, rank, "input rank")
        _check_index_map_size("scatter_dims_to_operand_dims", index_map, indices, ivd, "scatter_indices")
        require(
            rank == len(window) + len(inserted) + len(in_batch),
            f"input rank {rank} must equal the sizes of update_window_dims ({len(window)}) + "
            f"inserted_window_dims ({len(inserted)}) + input_batching_dims ({len(in_batch)})",
        )
        # The shape of the updates: scatter dimensions from the indices, window
        # dimensions bounded by the input.
        scatter_sizes = _batch_shape(indices, ivd)
        require(
            len(upd_shape) == len(scatter_sizes) + len(window),
            f"updates rank {len(upd_shape)} must equal the scatter_indices batch rank "
            f"{len(scatter_sizes)} + the size of update_window_dims ({len(window)})",
        )
        dropped = set(inserted) | set(in_batch)
        window_bounds = [(d, s) for d, s in enumerate(shape) if d not in dropped]
        scatter_iter, window_iter = iter(scatter_sizes), iter(window_bounds)
        for d, size in enumerate(upd_shape):
            if d in window:
                operand_dim, bound = next(window_iter)
                require(
                    is_dynamic(size) or is_dynamic(bound) or 0 <= size <= bound,
                    f"updates dimension {d} (size {size}) is a window dimension and must not "
                    f"exceed input dimension {operand_dim} (size {bound})",
                )
            else:
                want = next(scatter_iter)
                require(
                    size == want or is_dynamic(size) or is_dynamic(want),
                    f"updates dimension {d} (size {size}) is a scatter dimension and must equal "
                    f"the matching scatter_indices dimension (size {want})",
                )

    def _verify_update_computation(self, input_elements: Sequence[Attribute]) -> list[Attribute]:
        """`update_computation` has type `(tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...)`
        with each `Ei` promotable from input `i`'s element type; returns the `Ei`."""
        n = len(input_elements)
        arg_types, returned = region_signature(self.update_computation, "update_computation")
        require(
            len(arg_types) == 2 * n,
            f"update_computation must take {2 * n} parameters (2 per input) but takes {len(arg_types)}",
        )
        elements: list[Attribute] = []
        for i, t in enumerate(arg_types):
            require(
                is_tensor(t) and rank_of(t) == 0,
                f"update_computation parameter #{i} must be a 0-d tensor, got {format_type(t)}",
            )
        for i in range(n):
            a, b = arg_types[i], arg_types[n + i]
            require(
                a == b,
                f"update_computation parameters #{i} ({format_type(a)}) and #{n + i} "
                f"({format_type(b)}) must have the same type",
            )
            element = element_type_of(a)
            require(
                is_promotable(input_elements[i], element),
                f"update_computation parameter #{i} element type {format_type(element)} cannot "
                f"hold input #{i} element type {format_type(input_elements[i])}",
            )
            elements.append(element)
        require(
            len(returned) == n,
            f"update_computation must return {n} values (one per input) but returns {len(returned)}",
        )
        for i, (t, element) in enumerate(zip(returned, elements)):
            require(
                t == tensor((), element),
                f"update_computation result #{i} type {format_type(t)} must be "
                f"{format_type(tensor((), element))}",
            )
        return elements


OPS: tuple[type[Operation], ...] = (GatherOp, ScatterOp)
