"""Playing the Pygame table by synthetic clicks, as a person would: shared by the renderer, lobby and
networked-table tests."""

from __future__ import annotations

import random
from pathlib import Path

import pygame

from client.app import App
from client.controller import LocalController
from client.scenes.table import TableScene
from client.ui import textfit
from engines.core import COMMON_ACTIONS, Game

ARTIFACTS = Path(__file__).parents[1] / "artifacts"   # tests/artifacts


def table_at(game: Game, state, size=(1280, 720), seat: int = 0, delay: int = 10**9) -> tuple[App, TableScene]:
    """A table at `state` (every secret known), the person at `seat`, smart bots that never get to move
    (unless `delay` is short)."""
    ctl = LocalController(game, seat, ["smart"], players=state.inner.n, seed=1, bot_delay_ms=delay, start=state)
    app = App(size)
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    app.step([], 16)
    return app, table


def sent(table: TableScene) -> list[str]:
    """What the person at the table has played."""
    return [s.value for s in table.ctl.referee.steps if s.seat == table.ctl.seat]


def fits(app: App, name: str) -> None:
    """Save a screenshot as tests/artifacts/NAME-WIDTH.png and check every text against its box."""
    app.step([], 16)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    app.screenshot(ARTIFACTS / f"{name}-{app.size[0]}.png")
    found = textfit.problems(frame)
    assert not found, f"{name} at {app.size}: " + "\n".join(found[:12])


SIZES = ((1024, 600), (1280, 720), (1920, 1080))   # every screen is looked at in these


def drawn_texts(app: App) -> list[str]:
    """The texts of a picture drawn now."""
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    return [words for kind, _, words in frame.items if kind == "text"]


def shots(app: App, name: str) -> None:
    """`fits` at each of SIZES (tests/artifacts/NAME-WIDTH.png); the window is 1280x720 again afterwards."""
    for size in SIZES:
        app.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        fits(app, name)
    app.window = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
    app.step([], 16)


def _click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)], 16)


def _button(scene: TableScene, key: str) -> pygame.Rect | None:
    return next((b.rect for b in scene.buttons if b.key == key and b.enabled), None)


def _pixels(app: App) -> bytes:
    return pygame.image.tobytes(app.window, "RGB")


def _colours(data: bytes, stride: int = 53) -> int:
    return len({data[i:i + 3] for i in range(0, len(data) - 3, 3 * stride)})


def _play_one(app: App, scene: TableScene, rng: random.Random, stats: dict[str, int]) -> str:
    """Choose a random legal action and enter it token by token with clicks, as a person would:
    on the board where the renderer has the token, else on its choice button. Returns the action."""
    legal = [a for a in scene.ctl.legal() if a not in COMMON_ACTIONS]
    target = rng.choice(legal).split(" ")
    renderer = scene.renderer
    for _ in range(len(target) + 2):
        tokens = scene.builder.tokens
        n = len(tokens)
        if n == len(target) or tokens != target[:n]:
            break
        view = scene.ctl.view()
        clickable = set(scene.builder.clickable())
        spots = [target[n]]
        if n + 1 < len(target):
            spots.append(target[n + 1])  # clicking it inserts the only verb that fits
        for token in spots:
            pos = renderer.token_pos(scene.board_rect, view, token) if token in clickable else None
            if pos is not None:
                hit = renderer.hit(scene.board_rect, view, pos)
                assert hit is not None and hit.split(" ")[0] == token, f"{token} is not under {pos} (found {hit})"
                _click(app, pos)
                stats["board"] += 1
                break
            # a token put together on the board (a Catan card multiset: + and - per card, then ok)
            path = renderer.clicks(scene.board_rect, view, token) if token in clickable and hasattr(
                renderer, "clicks") else None
            if path:
                for pos in path:
                    _click(app, pos)
                    stats["board"] += 1
                break
        else:
            rect = _button(scene, f"token:{target[n]}")
            for _ in range(20):          # more choices than fit: turn their pages as a person would
                more = _button(scene, "more") if rect is None else None
                if more is None:
                    break
                _click(app, more.center)
                stats["more"] = stats.get("more", 0) + 1
                rect = _button(scene, f"token:{target[n]}")
            assert rect is not None, f"no way to choose {target[n]!r} of {' '.join(target)}"
            _click(app, rect.center)
            stats["button"] += 1
        if scene.builder.tokens == []:
            return " ".join(target)  # finished and sent
        grown = scene.builder.tokens
        assert len(grown) > n and grown == target[:len(grown)], (grown, target)
    if scene.builder.tokens == target:
        rect = _button(scene, "send")
        assert rect is not None
        _click(app, rect.center)
        stats["button"] += 1
    assert scene.builder.tokens == [], f"{' '.join(target)} was not sent"
    return " ".join(target)
