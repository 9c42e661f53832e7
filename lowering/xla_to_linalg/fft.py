"""Lowering of xla fft ops (being written)."""

from __future__ import annotations
