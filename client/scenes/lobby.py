"""The lobby: games found on the LAN (live, by zeroconf), joining by click or by typing host:port,
hosting a game (game, players, options, and per seat who plays it: "me", "open (LAN)" for a player
who joins, "hot seat" for another person at this screen, or a bot on this machine), a local game
against bots (with a short, configurable delay before each bot move, so a person can follow them),
and every saved replay: newest first,
scrollable, filtered by game, each row with the game, the players, who won and the audit's verdict.

Every failure becomes a message on screen (no host found, connection refused, key changed, version
mismatch...), never a traceback: the lobby catches what starting a game can raise and shows its text.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

import engines
from client.games import seat_style
from client.replaylist import ReplayList
from client.ui import textfit, theme
from client.ui.widgets import Button, TextInput, draw_text, fit, panel


def bot_table_title(game, players: int, bot: str) -> str:
    """The title of a table against bots: the game alone for a solo game (nobody is played against)."""
    return game.title if players == 1 else f"{game.title} - you vs the {bot} bot"


BOT_DELAYS = (0.6, 1.0, 2.0, 0.0, 0.3)  # seconds a bot waits before each move (the lobby's choice cycles)

log = logging.getLogger("netplay.client")


@dataclass
class NetGame:
    """A networked game started from the lobby: the session, its controller and the LAN advert,
    closed together when the player leaves the table."""

    session: Any
    controller: Any
    closers: list = field(default_factory=list)

    def close(self) -> None:
        # the session first: its peers (bot processes among them) then see the game end and leave
        with contextlib.suppress(Exception):
            self.controller.leave()
            self.controller.join(5.0)
        with contextlib.suppress(Exception):
            self.session.close()
        for close in reversed(self.closers):
            with contextlib.suppress(Exception):
                close()


class LobbyScene:
    def __init__(self, replay_dir: str | os.PathLike | None = None, browse: bool = True):
        self.games = list(engines.GAMES.values())
        self.game_index = 0
        self.players_index = 0
        self.roles: list[str] = ["me"]  # per seat: "me", "open", "here" (hot seat) or "bot:NAME"
        self.options: dict[str, Any] = {}
        self.bot_names = ["smart", "random"]
        self.bot_index = 0
        self.bot_delay_index = 0
        self.address = TextInput(placeholder="host:port  (then Enter or Join)")
        self.message = ""
        self.message_ok = True
        self.buttons: list[Button] = []
        self.replay_dir = Path(replay_dir) if replay_dir else None
        self.replays: list[Path] = []   # the rows shown now (filtered), newest first
        self.replay_list: ReplayList | None = None
        self.replay_filter: str | None = None
        self.replay_scroll = 0
        self.replay_rows: list[tuple[pygame.Rect, int]] = []
        self.replay_box = pygame.Rect(0, 0, 0, 0)
        self.hosts: list[Any] = []
        self.browser = None
        self.joining: threading.Thread | None = None
        self.joined: Any = None  # the background join's result: (NetGame, title) or an error text
        self._lock = threading.Lock()
        self._refresh_replays()
        if browse:
            self._start_browser()
        self._reset_options()

    # ------------------------------------------------------------------ model
    @property
    def game(self):
        return self.games[self.game_index]

    @property
    def players(self) -> int:
        return self.game.players[self.players_index % len(self.game.players)]

    @property
    def seat(self) -> int:
        """The host's own seat (the one marked "me")."""
        return self.roles.index("me")

    @seat.setter
    def seat(self, seat: int) -> None:
        self.roles = ["open"] * self.players
        self.roles[seat] = "me"

    def _fit_roles(self) -> None:
        """One role per seat of the chosen player count, exactly one of them "me"."""
        roles = (self.roles + ["open"] * self.players)[:self.players]
        if "me" not in roles:
            roles[0] = "me"
        self.roles = roles

    def _cycle_role(self, seat: int) -> None:
        """"me" moves on to the next seat (the two swap); any other seat cycles open, hot seat, bots."""
        roles = self.roles
        if roles[seat] == "me":
            other = (seat + 1) % len(roles)
            roles[seat], roles[other] = roles[other], "me"
            return
        order = ["open", "here", *(f"bot:{name}" for name in self.bot_names)]
        at = order.index(roles[seat]) if roles[seat] in order else -1
        roles[seat] = order[(at + 1) % len(order)]

    @staticmethod
    def role_words(role: str) -> str:
        return {"me": "me", "open": "open (LAN)", "here": "hot seat"}.get(role, role.replace("bot:", "bot "))

    def _extra_seats(self) -> dict[int, tuple[str, Any]]:
        """The seats this machine plays besides the host's own: hot-seat players and bots."""
        from bots.decider import BotDecider
        from netplay.session import QueueDecider

        also: dict[int, tuple[str, Any]] = {}
        for seat, role in enumerate(self.roles):
            colour = seat_style(self.game.id, seat)[1]
            if role == "here":
                also[seat] = (f"player {seat} ({colour})", QueueDecider())
            elif role.startswith("bot:"):
                name = role[4:]
                also[seat] = (f"{name}-bot-{seat}", BotDecider(name, games=10_000,
                                                               delay_s=BOT_DELAYS[self.bot_delay_index]))
        return also

    def _reset_options(self) -> None:
        self.options = {k: o.default for k, o in sorted(self.game.options.items())}
        self.players_index = 0
        self.roles = ["me"]
        self._fit_roles()

    def _start_browser(self) -> None:
        try:
            from netplay.discovery import Browser

            self.browser = Browser(on_change=self._hosts_changed)
        except Exception as exc:  # no multicast here: joining by address still works
            self._say(f"LAN discovery is unavailable ({exc}); join by address", ok=False)

    def _hosts_changed(self, hosts: list) -> None:
        with self._lock:
            self.hosts = list(hosts)

    def _refresh_replays(self) -> None:
        from netplay.paths import replays_dir

        if self.replay_list is None:
            key = None
            with contextlib.suppress(Exception):  # no identity yet: no row says "you"
                from netplay.identity import Identity

                key = Identity.load().public_key
            self.replay_list = ReplayList(self.replay_dir or replays_dir(), key)
        else:
            self.replay_list.refresh()
        self._filter_replays()

    def _filter_replays(self) -> None:
        self.replays = [e.path for e in self.replay_list.entries(self.replay_filter)]
        self.replay_scroll = max(0, min(self.replay_scroll, len(self.replays) - 1))

    def _say(self, text: str, ok: bool = True) -> None:
        self.message, self.message_ok = text, ok

    # ------------------------------------------------------------------ actions
    def start_local(self, app) -> NetGame | None:
        """A game against bots on this machine: a host on loopback and one bot peer process per open
        seat, through the very same protocol, so the game is signed, recorded and auditable (hot-seat
        and bot seats of the seat form are played here too)."""
        from client.netcontroller import NetController
        from netplay.botpeers import bot_peers
        from netplay.host import HostSession
        from netplay.identity import Identity
        from netplay.session import QueueDecider

        bot = self.bot_names[self.bot_index]
        try:
            ident = Identity.load()
            decider = QueueDecider()
            session = HostSession(ident, decider, self.game.id, players=self.players, options=dict(self.options),
                                  seat=self.seat, bind="127.0.0.1", port=0, known_peers=None,
                                  replay_dir=self.replay_dir, also=self._extra_seats())
        except Exception as exc:
            self._say(f"could not start the game: {exc}", ok=False)
            return None
        net = NetGame(session, NetController(session, decider))
        peers = bot_peers(session, bot, lambda text: log.warning("%s", text),
                          delay_s=BOT_DELAYS[self.bot_delay_index])
        peers.__enter__()
        net.closers.append(lambda: peers.__exit__(None, None, None))
        self._open_table(app, net, bot_table_title(self.game, self.players, bot))
        return net

    def host(self, app) -> NetGame | None:
        from client.netcontroller import NetController
        from netplay import discovery
        from netplay.host import HostSession
        from netplay.identity import Identity, KnownPeers
        from netplay.session import QueueDecider, version

        try:
            ident = Identity.load()
            decider = QueueDecider()
            session = HostSession(ident, decider, self.game.id, players=self.players, options=dict(self.options),
                                  seat=self.seat, bind="0.0.0.0", port=0, known_peers=KnownPeers.default(),
                                  replay_dir=self.replay_dir, also=self._extra_seats())
        except Exception as exc:
            self._say(f"could not host: {exc}", ok=False)
            return None
        net = NetGame(session, NetController(session, decider))
        if not session.free_seats():  # every seat is played on this machine: nothing to announce
            self._open_table(app, net, f"{self.game.title} - every seat on this machine")
            return net
        try:
            ad = discovery.advertise(port=session.port, game=self.game.id, version=version(),
                                     fingerprint=ident.fingerprint, free_seats=session.free_seats(),
                                     host_name=ident.name)
            ad.__enter__()
            net.closers.append(lambda: ad.__exit__(None, None, None))
        except Exception as exc:
            self._say(f"hosting on port {session.port}; LAN advert failed ({exc})", ok=False)
        self._open_table(app, net, f"{self.game.title} - hosting on port {session.port}, key {ident.fingerprint}")
        return net

    def join(self, app, address: str) -> None:
        """Connect in the background (a host that does not answer takes the connect timeout): the
        lobby keeps drawing, says it is connecting, and opens the table or shows why not."""
        address = address.strip()
        if not address:
            self._say("type an address as host:port, or pick a game found on the LAN", ok=False)
            return
        if self.joining is not None:
            self._say("already connecting; wait for the answer", ok=False)
            return
        self._say(f"connecting to {address}...")
        self.joining = threading.Thread(target=self._connect, args=(address,), name="netplay-join", daemon=True)
        self.joining.start()

    def _connect(self, address: str) -> None:
        from client.netcontroller import NetController
        from netplay.identity import Identity, KnownPeers
        from netplay.joiner import JoinSession
        from netplay.session import QueueDecider

        try:
            ident = Identity.load()
            decider = QueueDecider()
            session = JoinSession(ident, decider, address, known_peers=KnownPeers.default(),
                                  replay_dir=self.replay_dir)
            outcome: Any = (NetGame(session, NetController(session, decider)), "")  # the table names the game
        except Exception as exc:  # refused, key changed, version mismatch, nobody there...
            outcome = f"could not join {address}: {exc}"
        with self._lock:
            self.joined = outcome

    def _open_table(self, app, net: NetGame, title: str) -> None:
        from client.scenes.table import TableScene

        def leave(app) -> None:
            net.close()
            app.pop()
            self._refresh_replays()

        app.push(TableScene(net.controller, title, on_leave=leave))

    def open_replay(self, app, path: Path) -> None:
        from client.scenes.viewer import ViewerScene
        from replays.codec import FormatError
        from replays.stepping import Stepper

        try:
            stepper = Stepper.load(path)
        except (FormatError, OSError, ValueError) as exc:
            self._say(f"{path.name}: cannot open: {exc}", ok=False)
            return
        app.push(ViewerScene(stepper))

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event, app) -> None:
        typed = self.address.handle(event)
        if typed is not None:
            self.join(app, typed)
            return
        if event.type == pygame.MOUSEWHEEL:
            if self.replay_box.collidepoint(pygame.mouse.get_pos()):
                self._button(f"scroll:{-3 * event.y}", app)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    self._button(button.key, app)
                    return
            for rect, index in self.replay_rows:
                if rect.collidepoint(event.pos):
                    self._button(f"replay:{index}", app)
                    return
        elif event.type == pygame.KEYDOWN and not self.address.focused and event.key == pygame.K_ESCAPE:
            self.close()
            app.pop()

    def _button(self, key: str, app) -> None:
        kind, _, value = key.partition(":")
        if kind == "game":
            self.game_index = int(value)
            self._reset_options()
        elif kind == "players":
            self.players_index += 1
            self._fit_roles()
        elif kind == "seat":
            self.seat = (self.seat + 1) % self.players
        elif kind == "role":
            self._cycle_role(int(value))
        elif kind == "option":
            opt = self.game.options[value]
            i = opt.choices.index(self.options[value]) if self.options[value] in opt.choices else -1
            self.options[value] = opt.choices[(i + 1) % len(opt.choices)]
        elif kind == "bot":
            self.bot_index = (self.bot_index + 1) % len(self.bot_names)
        elif kind == "delay":
            self.bot_delay_index = (self.bot_delay_index + 1) % len(BOT_DELAYS)
        elif kind == "filter":
            games = self.replay_list.games() if self.replay_list else []
            order = [None, *games]
            at = order.index(self.replay_filter) if self.replay_filter in order else 0
            self.replay_filter = order[(at + 1) % len(order)]
            self.replay_scroll = 0
            self._filter_replays()
        elif kind == "scroll":
            self.replay_scroll = max(0, min(len(self.replays) - 1, self.replay_scroll + int(value)))
        elif kind == "local":
            self.start_local(app)
        elif kind == "host":
            self.host(app)
        elif kind == "join":
            self.join(app, value or self.address.text)
        elif kind == "replay":
            self.open_replay(app, self.replays[int(value)])
        elif kind == "refresh":
            self._refresh_replays()

    def update(self, app, dt_ms: int) -> None:
        if self.replay_list is not None and len(self.replays) != len(self.replay_list.entries(self.replay_filter)):
            self._filter_replays()
        with self._lock:
            joined, self.joined = self.joined, None
        if joined is None:
            return
        self.joining = None
        if isinstance(joined, str):
            self._say(joined, ok=False)
        else:
            self._say("")
            self._open_table(app, *joined)

    def close(self) -> None:
        if self.browser is not None:
            with contextlib.suppress(Exception):
                self.browser.close()
            self.browser = None

    # ------------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        self.buttons = []
        name = draw_text(surface, "netplay", (18, 10), app.px(36), theme.ACCENT, bold=True)
        draw_text(surface, fit("board games on your LAN - every move signed, every game a replay", px,
                               w - name.right - 40), (name.right + 24, name.bottom - px - 2), px, theme.MUTED)
        col = (w - 48) // 3
        top = 60
        body = h - top - 56
        self._draw_lan(surface, pygame.Rect(12, top, col, body), px)
        self._draw_start(surface, pygame.Rect(24 + col, top, col, body), px)
        self._draw_replays(surface, pygame.Rect(36 + 2 * col, top, col, body), px)
        if self.message:
            colour = theme.GOOD if self.message_ok else theme.BAD
            draw_text(surface, fit(self.message, px, w - 36), (18, h - 40), px, colour)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px)
        self.address.draw(surface, px)

    def _draw_lan(self, surface, box: pygame.Rect, px: int) -> None:
        inner = panel(surface, box, "games on the LAN", px)
        with self._lock:
            hosts = list(self.hosts)
        y = inner.y
        if not hosts:
            text = "no host found yet (searching...)" if self.browser else "LAN discovery is off"
            draw_text(surface, text, (inner.x, y), px - 2, theme.MUTED)
            y += px + 6
        from netplay.discovery import lookalikes, name_key
        similar = lookalikes(hosts)       # hosts that call themselves by one name: told apart by their words
        for host in hosts[:8]:
            title = engines.GAMES[host.game].title if host.game in engines.GAMES else host.game
            group = similar.get(name_key(host.host_name))
            head = f"{title} - {host.host_name}" + (f" ({len(group)} hosts!)" if group else "")
            draw_text(surface, fit(head, px - 1, inner.w - 80, bold=True), (inner.x, y), px - 1,
                      theme.BAD if group else theme.TEXT, bold=True)
            # the key's words first, whole: what two people compare aloud to tell look-alikes apart
            draw_text(surface, fit(f"{host.words} - {host.free_seats} free, v{host.version}", px - 4, inner.w - 80),
                      (inner.x, y + px), px - 4, theme.TEXT if group else theme.MUTED)
            self.buttons.append(Button(pygame.Rect(inner.right - 70, y + 2, 70, px + 6), "join",
                                       f"join:{host.address}", enabled=host.free_seats > 0))
            y += 2 * px + 12
        y = inner.bottom - 2 * px - 24
        draw_text(surface, "join by address", (inner.x, y), px - 2, theme.MUTED)
        self.address.rect = pygame.Rect(inner.x, y + px, inner.w - 80, px + 12)
        self.buttons.append(Button(pygame.Rect(inner.right - 72, y + px, 72, px + 12), "Join", "join:"))

    def _draw_start(self, surface, box: pygame.Rect, px: int) -> None:
        inner = panel(surface, box, "start a game", px)
        # two settings a row: the players and the bots' name, who plays each seat (click to change;
        # the "me" seat swaps with the next one), the game's options and the bots' delay
        half = (inner.w - 8) // 2
        delay = BOT_DELAYS[self.bot_delay_index]
        cells = [(f"players: {self.players}", "players:", len(self.game.players) > 1, False),
                 (f"bots: {self.bot_names[self.bot_index]}", "bot:", True, False)]
        cells += [(f"{seat} {seat_style(self.game.id, seat)[1]}: {self.role_words(role)}", f"role:{seat}",
                   self.players > 1, role == "me") for seat, role in enumerate(self.roles)]
        if len(cells) % 2:
            cells.append(None)
        cells += [(f"{k}: {v}", f"option:{k}", True, False) for k, v in self.options.items()]
        cells.append((f"bot delay: {delay:g} s" if delay else "bot delay: none", "delay:", True, False))
        # the rows share the room above the start buttons: closer together when the game list and the
        # settings are long, and the games in two columns when even that is not enough
        room = inner.bottom - px - 14 - 8 - inner.y - 6
        settings = (len(cells) + 1) // 2
        columns = 1
        pitch = min(px + 12, room // (len(self.games) + settings))
        if pitch < px + 6:
            columns = 2
            pitch = min(px + 12, room // ((len(self.games) + 1) // 2 + settings))
        height = pitch - 4
        y = inner.y
        width = (inner.w - 8 * (columns - 1)) // columns
        for i, game in enumerate(self.games):
            counts = " or ".join(str(p) for p in game.players)
            plural = "player" if game.players == (1,) else "players"
            label = f"{game.title}  ({counts} {plural})" if columns == 1 else game.title
            rect = pygame.Rect(inner.x + (i % columns) * (width + 8), y, width, height)
            self.buttons.append(Button(rect, label, f"game:{i}", selected=i == self.game_index))
            if i % columns == columns - 1 or i == len(self.games) - 1:
                y += pitch
        y += 6
        for k, cell in enumerate(cells):
            if cell is not None:
                label, key, enabled, selected = cell
                rect = pygame.Rect(inner.x + (k % 2) * (half + 8), y, half, height)
                self.buttons.append(Button(rect, label, key, enabled=enabled, selected=selected))
            if k % 2 == 1:
                y += pitch
        y = inner.bottom - px - 14
        self.buttons.append(Button(pygame.Rect(inner.x, y, half, px + 14), "play here vs bots", "local:"))
        everyone_here = "open" not in self.roles
        self.buttons.append(Button(pygame.Rect(inner.x + half + 8, y, half, px + 14),
                                   "play, all seats here" if everyone_here else "host on the LAN", "host:",
                                   enabled=self.players > 1))

    def _draw_replays(self, surface, box: pygame.Rect, px: int) -> None:
        """Every replay, newest first, two lines a row (game and players; date, result and verdict),
        scrolled with the wheel or the arrows, filtered by game."""
        inner = panel(surface, box, "replays", px)
        self.replay_box = inner
        self.replay_rows = []
        entries = self.replay_list.entries(self.replay_filter) if self.replay_list else []
        small = px - 4
        bar_h = px + 8
        shown = self.replay_filter
        title = engines.GAMES[shown].title if shown in engines.GAMES else shown
        self.buttons.append(Button(pygame.Rect(inner.x, inner.y, inner.w - 2 * (px + 12) - 8, bar_h),
                                   f"game: {title or 'all games'}", "filter:"))
        self.buttons.append(Button(pygame.Rect(inner.right - 2 * (px + 12) - 4, inner.y, px + 12, bar_h), "^",
                                   "scroll:-5", enabled=self.replay_scroll > 0))
        row_h = px + small + 12
        list_top = inner.y + bar_h + 8
        rows = max(1, (inner.bottom - px - 18 - list_top) // row_h)
        self.replay_scroll = max(0, min(self.replay_scroll, len(entries) - rows))  # the last page stays full
        self.buttons.append(Button(pygame.Rect(inner.right - px - 12, inner.y, px + 12, bar_h), "v", "scroll:5",
                                   enabled=self.replay_scroll + rows < len(entries)))
        y = list_top
        if not entries:
            text = "no replays yet: they appear here after a game" if not shown else "no replays of this game"
            draw_text(surface, fit(text, px - 2, inner.w), (inner.x, y), px - 2, theme.MUTED)
        mouse = pygame.mouse.get_pos()
        for index in range(self.replay_scroll, min(len(entries), self.replay_scroll + rows)):
            entry = entries[index]
            rect = pygame.Rect(inner.x, y, inner.w, row_h - 4)
            colour = theme.BUTTON_HOVER if rect.collidepoint(mouse) else theme.BUTTON
            pygame.draw.rect(surface, colour, rect, border_radius=6)
            textfit.box(rect, "row")
            head = " - ".join(p for p in (entry.title, entry.players) if p)
            draw_text(surface, fit(head, px - 2, rect.w - 12, bold=True), (rect.x + 6, rect.y + 3), px - 2, theme.TEXT,
                      bold=True)
            verdict = {"valid": theme.GOOD, "unfinished": theme.ACCENT, "": theme.MUTED}.get(entry.verdict, theme.BAD)
            tail = entry.verdict.upper() if entry.verdict else "checking..."
            tail_w = theme.font(small, True).size(tail)[0]
            draw_text(surface, tail, (rect.right - 6, rect.y + px + 2), small, verdict, bold=True, anchor="topright")
            info = " - ".join(p for p in (entry.when, entry.result) if p)
            draw_text(surface, fit(info, small, rect.w - tail_w - 24), (rect.x + 6, rect.y + px + 2), small,
                      theme.MUTED)
            self.replay_rows.append((rect, index))
            y += row_h
        count = len(entries)
        where = f"{self.replay_scroll + 1}-{min(count, self.replay_scroll + rows)} of {count}" if count else ""
        self.buttons.append(Button(pygame.Rect(inner.x, inner.bottom - px - 10, 120, px + 8), "refresh", "refresh:"))
        draw_text(surface, where, (inner.right, inner.bottom - px - 6), small, theme.MUTED, anchor="topright")
