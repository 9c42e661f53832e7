"""Lowering of xla gather_scatter ops (being written)."""

from __future__ import annotations
