"""A game view as plain text: the indented outline that the terminal interface and `replay show`
print, and the fallback board of the Pygame table. No pygame here, so text commands start fast."""

from __future__ import annotations

from typing import Any

SKIP = frozenset({"board"})  # static board geometry (the Kidd deck graph): for renderers, noise in text


def render(view: dict, indent: int = 0) -> str:
    """The whole view as text, without the static geometry (at any depth: a revealed view repeats
    every seat's view under `seats`)."""
    return "\n".join(render_view(view, indent))


def render_view(view: Any, indent: int = 0) -> list[str]:
    """A generic, readable text of a view() dict: nested keys indented, short lists on one line."""
    pad = "  " * indent
    lines: list[str] = []
    if isinstance(view, dict):
        for key, value in view.items():
            if key in SKIP:
                continue
            if isinstance(value, (dict, list)) and _wide(value):
                lines.append(f"{pad}{key}:")
                lines += render_view(value, indent + 1)
            else:
                lines.append(f"{pad}{key}: {_short(value)}")
    elif isinstance(view, list):
        for i, value in enumerate(view):
            if isinstance(value, (dict, list)) and _wide(value):
                lines.append(f"{pad}[{i}]")
                lines += render_view(value, indent + 1)
            else:
                lines.append(f"{pad}[{i}] {_short(value)}")
    else:
        lines.append(f"{pad}{_short(view)}")
    return lines


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items() if k not in SKIP) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    if value is None:
        return "-"
    return str(value)


def _wide(value: Any) -> bool:
    return len(_short(value)) > 90
