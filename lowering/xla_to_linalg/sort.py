"""Lowering of xla sort ops (being written)."""

from __future__ import annotations
