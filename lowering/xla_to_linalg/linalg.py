"""Lowering of xla linalg ops (being written)."""

from __future__ import annotations
