"""The ops of the `xla` dialect, one module per family of the spec.

Each family module ends with `OPS`, the tuple of its op classes; `xla_dialect.dialect`
gathers them in `FAMILIES` order.
"""

FAMILIES: tuple[str, ...] = (
    "elementwise",  # unary, binary, compare, select, clamp, convert, bitcast, reduce_precision
    "constants",  # constant, iota
    "shape",  # broadcast, broadcast_in_dim, reshape, collapse, transpose, get/set_dimension_size
    "slicing",  # slice, dynamic_slice, dynamic_update_slice, concatenate, pad, reverse
    "gather_scatter",  # gather, scatter
    "contraction",  # dot, dot_general
    "convolution",  # convolution
    "reduction",  # reduce, reduce_window, select_and_scatter, map, sort
    "control_flow",  # while, conditional/if/case, call, return, optimization_barrier
    "tuples",  # tuple, get_tuple_element
    "linalg",  # cholesky, triangular_solve, fft
    "batch_norm",  # batch_norm_training/inference/grad
    "rng",  # rng_uniform, rng_normal, rng_bernoulli, rng_bit_generator
    "io",  # after_all, create_token, infeed, outfeed, send, recv, custom_call
    "collectives",  # replica_id, partition_id, all_reduce, all_gather, all_to_all, ...
)
