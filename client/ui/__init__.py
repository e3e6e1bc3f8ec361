"""Pygame building blocks shared by every scene: colours and fonts, widgets, text layout."""
