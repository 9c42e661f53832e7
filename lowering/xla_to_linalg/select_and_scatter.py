"""Lowering of xla select_and_scatter ops (being written)."""

from __future__ import annotations
