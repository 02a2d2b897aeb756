"""Counts in messages: ``counted(1, "cell")`` is ``"1 cell"``, ``counted(2, "cell")`` is
``"2 cells"`` (``plural`` for nouns that do not take an ``s``). One helper, so that no
message says ``"1 cell(s)"``."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"<n> <noun>"`` with the noun in the plural unless ``n == 1``."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
