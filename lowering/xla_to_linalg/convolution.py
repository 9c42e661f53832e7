"""Lowering of xla convolution ops (being written)."""

from __future__ import annotations
