"""Placeholder."""
from __future__ import annotations


def rule_of_thumb() -> None:
    raise NotImplementedError
