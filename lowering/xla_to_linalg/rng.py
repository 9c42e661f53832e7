"""Lowering of xla rng ops (being written)."""

from __future__ import annotations
