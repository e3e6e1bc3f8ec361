"""Victory points as every front end shows them, from one rule: the points everybody can see are the
engine's public points plus the victory point cards shown (base Catan's are revealed at the end; C&K
counts its shown cards in the public points already). The table, the terminal, `replay show` and
the end of the game all read them here, so a seat never shows 10 points beside a score of 11.
No pygame here."""

from __future__ import annotations

__all__ = ["own_points", "shown_points"]


def shown_points(view: dict, seat: int) -> int | None:
    """The points of `seat` everybody can see in `view`; None for a game without victory points."""
    public = view.get("vp_public")
    if not isinstance(public, list) or not 0 <= seat < len(public):
        return None
    revealed = view.get("revealed") or []
    shown = revealed[seat] if seat < len(revealed) else None
    return public[seat] + (shown if type(shown) is int and shown > 0 else 0)


def own_points(view: dict, seat: int) -> int | None:
    """The points `seat` knows it has with its hidden cards (only in its own view), else None."""
    own = view.get("vp")
    return own if seat == view.get("seat") and type(own) is int else None
