"""Lowering of xla io ops (being written)."""

from __future__ import annotations
