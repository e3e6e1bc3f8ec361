"""A game view as plain text: the indented outline the terminal interface and `replay show` print,
and the fallback board of the Pygame table. No pygame here, so text commands start fast."""

from __future__ import annotations

from typing import Any

SKIP = frozenset({"board"})  # static board geometry: for renderers, noise in text


def outline(value: Any, indent: int = 0, key: str = "") -> list[tuple[int, str]]:
    """(indent, text) lines for a nested view value; short lists stay on one line."""
    head = f"{key}: " if key else ""
    if isinstance(value, dict):
        lines = [(indent, f"{key}:")] if key else []
        for k, v in value.items():
            if k in SKIP:
                continue
            lines += outline(v, indent + (1 if key else 0), str(k))
        return lines
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value) and len(str(value)) > 70:
        lines = [(indent, f"{key}:")]
        for i, v in enumerate(value):
            lines += outline(v, indent + 1, str(i))
        return lines
    return [(indent, f"{head}{value}")]


def render(view: dict) -> str:
    return "\n".join("  " * indent + text for indent, text in outline(view))
