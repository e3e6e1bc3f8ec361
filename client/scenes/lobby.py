"""The lobby: games found on the LAN (live, by zeroconf, each with its terms: timed or not, before
joining), joining by click or by typing host:port, hosting a game (game, players, options, a move
clock, and per seat who plays it: "me", "open (LAN)" for a player who joins, "hot seat" for another
person at this screen, named, or a bot on this machine), a local game against bots (with a short,
configurable delay before each bot move, so a person can follow them), and every saved replay: newest
first, scrollable, filtered by game, each row with the game, the players, who won and the audit's verdict;
beside them, the players' statistics (client/scenes/stats.py); and, from the "tutorial" button, a first game
of each family explained step by step (client/scenes/tutorial.py).

Hosting shows the address to give a friend until every seat is taken, and can be cancelled. The
lobby remembers its settings (client.settings: the last game, its seats and options, the bots, the
clock, the names, the last address joined) and starts where the player left it.

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
from client import settings
from client.games import seat_style
from client.names import distinct
from client.replaylist import ReplayList
from client.ui import clocks, textfit, theme
from client.ui.widgets import EDGE, Button, TextInput, draw_text, fit, header_bottom, panel, wrap, wrap_lines


def bot_table_title(game, players: int, bot: str) -> str:
    """The title of a table against bots: the game alone for a solo game (nobody is played against)."""
    return game.title if players == 1 else f"{game.title} - you vs the {bot} bot"


#: the bots the lobby offers, in the order its choices cycle: the levels weakest first (bots.LEVELS), then the
#: random bot; a game offers those of them its bots table has (`LobbyScene.offered_bots`)
BOT_NAMES = ("easy", "medium", "hard", "random")
DEFAULT_BOT = "medium"
#: older names a settings file or a resumed seat may carry: "smart" is the medium level's first name
BOT_ALIASES = {"smart": "medium"}
BOT_DELAYS = (0.6, 1.0, 2.0, 0.0, 0.3)  # seconds a bot waits before each move (the lobby's choice cycles)
#: move clocks to host with: "game" the game's own (netplay/gameclock.py, the default), (initial seconds, seconds
#: added per move), "untimed" (no clock, no limit per move: a player who never moves holds the game)
CLOCKS: tuple[tuple[int, int] | str, ...] = ("game", (60, 2), (300, 3), (600, 5), (1800, 10), "untimed")
#: spectators a game hosted here takes (0: none; the LAN list shows "watch" for a game that takes some), and
#: whether they hear the players' chat; each frame (and chat line) shown to them `SPECTATOR_DELAY` frames behind
#: the players: part of the terms every player agrees to
SPECTATORS: tuple[tuple[int, bool], ...] = ((0, False), (4, False), (8, False), (4, True), (8, True))
SPECTATOR_DELAY = 8
SETTINGS = "lobby"      # the file the lobby remembers its settings in (client.settings)
MAX_ADDRESS = 200
MAX_NAME = 32           # a hot-seat player's name, as typed here (it must also pass netplay's check_name)


def clock_words(clock: tuple[int, int] | str, game_id: str | None = None) -> str:
    """A move clock as the lobby's button says it: "untimed", "1 min + 2 s", "game's (45 min + 5 s)"."""
    if clock == "untimed":
        return "untimed!"
    if clock == "game":
        from netplay.gameclock import default_clock

        stock, increment = default_clock(game_id or "")
        return f"game's ({clock_words((int(stock), int(increment)))})"
    base = f"{clock[0] // 60} min" if clock[0] % 60 == 0 else f"{clock[0]} s"
    return f"{base} + {clock[1]} s"

log = logging.getLogger("netplay.client")


def _judged(hosts: list) -> list:
    """The hosts as netplay.discovery.assess judges them against this user's pins, in the order shown
    (pinned keys first, doubtful names last); a pins file that cannot be read leaves the pins out."""
    from netplay.discovery import assess
    from netplay.identity import IdentityError, KnownPeers

    try:
        known: KnownPeers | None = KnownPeers.default()
        known.names()
    except (IdentityError, OSError) as exc:
        log.warning("the host list is shown without the pins: %s", exc)
        known = None
    return assess(hosts, known)


def _doubt_words(standing: Any) -> str:
    """The marks after a host's name in the lobby's list (drawn in red when any is a doubt): why its name
    cannot be taken at its word (netplay.discovery.Standing), or that its key is the one pinned for it."""
    marks = ["pinned key"] if standing.vouched else []
    if standing.pinned is not None:
        marks.append(f"NOT the key pinned for {standing.pinned.name}!" if standing.pinned.same_name
                     else f"looks like the pinned {standing.pinned.name}!")
    if standing.group:
        marks.append(f"{len({h.fingerprint for h in standing.group})} hosts!")
    if standing.scripts:
        marks.append(f"mixes {' and '.join(standing.scripts)}!")
    return f" ({', '.join(marks)})" if marks else ""


def _resumed_decider(name: str, delay_s: float) -> Any:
    """Who plays a resumed extra seat: the lobby names its bot seats "NAME-bot-SEAT" (see
    `LobbyScene._extra_seats`), so such a seat gets that bot again; any other is a person here."""
    from bots.decider import BotDecider
    from netplay.session import QueueDecider

    bot, sep, seat = name.rpartition("-bot-")
    if sep and seat.isdigit() and (bot in BOT_NAMES or bot in BOT_ALIASES):
        return BotDecider(bot, games=10_000, delay_s=delay_s)
    return QueueDecider()


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
        self.bot_names = list(BOT_NAMES)
        self.bot_index = BOT_NAMES.index(DEFAULT_BOT)
        self.bot_delay_index = 0
        self.clock_index = 0
        self.spectators_index = 0
        self.setups: dict[str, dict] = {}     # per game id: its players, seats and options, as last chosen
        self.name_inputs: dict[int, TextInput] = {}   # per seat: the name of a hot-seat player
        self._remembered: dict | None = None  # the settings as last saved (saved again when they change)
        self.last_address = ""                # the address last joined (remembered, and typed in again)
        self.address = TextInput(placeholder="host:port  (then Enter or Join)", max_len=MAX_ADDRESS)
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
        self.standings: list[Any] = []   # netplay.discovery.Standing of each host, in the order shown
        self.browser = None
        self.joining: threading.Thread | None = None
        self.joined: Any = None  # the background join's result: (NetGame, title) or an error text
        self._lock = threading.Lock()
        self._refresh_replays()
        if browse:
            self._start_browser()
        self._reset_options()
        self._restore(settings.load(SETTINGS))
        self._remembered = self._settings()

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
        offered = self.offered_bots()   # a bot seat kept from another game plays a level this one has
        fallback = DEFAULT_BOT if DEFAULT_BOT in offered else offered[0]
        self.roles = [f"bot:{fallback}" if r.startswith("bot:") and r[4:] not in offered else r for r in roles]

    def _cycle_role(self, seat: int) -> None:
        """"me" moves on to the next seat (the two swap); any other seat cycles open, hot seat, bots."""
        roles = self.roles
        if roles[seat] == "me":
            other = (seat + 1) % len(roles)
            roles[seat], roles[other] = roles[other], "me"
            return
        order = ["open", "here", *(f"bot:{name}" for name in self.offered_bots())]
        at = order.index(roles[seat]) if roles[seat] in order else -1
        roles[seat] = order[(at + 1) % len(order)]

    def offered_bots(self) -> list[str]:
        """The lobby's bot names the chosen game has (a game whose bots have no levels yet offers fewer)."""
        import bots

        known = bots.for_game(self.game.id)
        return [name for name in self.bot_names if name in known] or ["random"]

    def chosen_bot(self) -> str:
        """The bot that plays the open seats of a local game: the one chosen, if this game has it, else
        the medium level (or what the game has)."""
        offered = self.offered_bots()
        name = self.bot_names[self.bot_index]
        if name in offered:
            return name
        return DEFAULT_BOT if DEFAULT_BOT in offered else offered[0]

    def _next_bot(self) -> None:
        """The next bot name this game offers, after the one shown."""
        offered = self.offered_bots()
        at = offered.index(self.chosen_bot())
        self.bot_index = self.bot_names.index(offered[(at + 1) % len(offered)])

    @staticmethod
    def role_words(role: str) -> str:
        return {"me": "me", "open": "open (LAN)", "here": "hot seat"}.get(role, role.replace("bot:", "bot "))

    def _name_input(self, seat: int) -> TextInput:
        field_ = self.name_inputs.get(seat)
        if field_ is None:
            field_ = TextInput(placeholder=f"player {seat}", max_len=MAX_NAME)
            self.name_inputs[seat] = field_
        return field_

    def hot_seat_name(self, seat: int) -> str:
        """The name typed for a hot-seat player, else one by seat and colour ("player 1 (blue)")."""
        typed = self.name_inputs[seat].text.strip() if seat in self.name_inputs else ""
        return typed or self._default_name(seat)

    def _default_name(self, seat: int) -> str:
        return f"player {seat} ({seat_style(self.game.id, seat)[1]})"

    def _local_names_problem(self, own_name: str) -> str | None:
        """Why the names of the seats this machine plays cannot be used (None: they can): every one
        1..64 printable characters and all different (each seat's key is derived from its name)."""
        from netplay.identity import check_name

        names = {self.seat: own_name}
        for seat, role in enumerate(self.roles):
            if role == "here":
                names[seat] = self.hot_seat_name(seat)
            elif role.startswith("bot:"):
                names[seat] = f"{role[4:]}-bot-{seat}"
        for seat, name in names.items():
            try:
                check_name(name)
            except ValueError:
                return f"the name of seat {seat} must be 1..{MAX_NAME} printable characters"
        taken: dict[str, int] = {}
        for seat, name in sorted(names.items()):
            if name.casefold() in taken:
                return f"seats {taken[name.casefold()]} and {seat} have the same name ({name}): name them apart"
            taken[name.casefold()] = seat
        return None

    def _extra_seats(self) -> dict[int, tuple[str, Any]]:
        """The seats this machine plays besides the host's own: hot-seat players and bots."""
        from bots.decider import BotDecider
        from netplay.session import QueueDecider

        also: dict[int, tuple[str, Any]] = {}
        for seat, role in enumerate(self.roles):
            if role == "here":
                also[seat] = (self.hot_seat_name(seat), QueueDecider())
            elif role.startswith("bot:"):
                name = role[4:]
                also[seat] = (f"{name}-bot-{seat}", BotDecider(name, games=10_000,
                                                               delay_s=BOT_DELAYS[self.bot_delay_index]))
        return also

    def _reset_options(self) -> None:
        """The chosen game's setup as last chosen (this session or a saved one), else its defaults."""
        self.options = {k: o.default for k, o in sorted(self.game.options.items())}
        self.players_index = 0
        self.roles = ["me"]
        setup = self.setups.get(self.game.id, {})
        for key, value in (setup.get("options") or {}).items() if isinstance(setup.get("options"), dict) else ():
            opt = self.game.options.get(key)
            if opt is not None and value in opt.choices and type(value) is type(opt.default):
                self.options[key] = value
        if setup.get("players") in self.game.players:
            self.players_index = self.game.players.index(setup["players"])
        roles = setup.get("roles")
        if isinstance(roles, list):
            roles = [f"bot:{BOT_ALIASES[r[4:]]}" if isinstance(r, str) and r[4:] in BOT_ALIASES
                     and r.startswith("bot:") else r for r in roles]
        allowed = {"me", "open", "here", *(f"bot:{name}" for name in self.offered_bots())}
        if isinstance(roles, list) and len(roles) == self.players and roles.count("me") == 1 \
                and all(isinstance(r, str) and r in allowed for r in roles):
            self.roles = list(roles)
        self._fit_roles()

    # ------------------------------------------------------------------ remembered settings
    def _keep_setup(self) -> None:
        self.setups[self.game.id] = {"players": self.players, "roles": list(self.roles), "options": dict(self.options)}

    def _settings(self) -> dict:
        """What the lobby remembers (client.settings), as plain JSON values."""
        self._keep_setup()
        names = {str(seat): field_.text.strip() for seat, field_ in sorted(self.name_inputs.items())
                 if field_.text.strip()}
        clock = CLOCKS[self.clock_index]
        return {"game": self.game.id, "setups": self.setups, "bot": self.bot_names[self.bot_index],
                "bot_delay": BOT_DELAYS[self.bot_delay_index],
                "clock": clock if isinstance(clock, str) else list(clock),
                "spectators": SPECTATORS[self.spectators_index][0],
                "spectator_chat": SPECTATORS[self.spectators_index][1],
                "names": names, "address": self.last_address}

    def _restore(self, saved: dict) -> None:
        """Take what a settings file says, field by field: a value that is not one the lobby offers is
        left at its default (the file may be old, or edited by hand)."""
        setups = saved.get("setups")
        if isinstance(setups, dict):
            self.setups = {gid: setup for gid, setup in setups.items()
                           if gid in engines.GAMES and isinstance(setup, dict)}
        ids = [g.id for g in self.games]
        if saved.get("game") in ids:
            self.game_index = ids.index(saved["game"])
        bot = saved.get("bot")
        bot = BOT_ALIASES.get(bot, bot) if isinstance(bot, str) else None
        if bot in self.bot_names:
            self.bot_index = self.bot_names.index(bot)
        if saved.get("bot_delay") in BOT_DELAYS and not isinstance(saved.get("bot_delay"), bool):
            self.bot_delay_index = BOT_DELAYS.index(saved["bot_delay"])
        clock = saved.get("clock")
        clock = tuple(clock) if isinstance(clock, list) else clock
        if clock in CLOCKS:    # an older file's None (no clock, ten minutes a move) is not offered any more
            self.clock_index = CLOCKS.index(clock)
        spectators = (saved.get("spectators"), saved.get("spectator_chat", False))
        if spectators in SPECTATORS and not isinstance(spectators[0], bool) and isinstance(spectators[1], bool):
            self.spectators_index = SPECTATORS.index(spectators)
        names = saved.get("names")
        for seat, name in (names.items() if isinstance(names, dict) else ()):
            if isinstance(seat, str) and seat.isdigit() and int(seat) < 8 and isinstance(name, str) \
                    and 0 < len(name) <= MAX_NAME and name.isprintable():
                self._name_input(int(seat)).text = name
        address = saved.get("address")
        if isinstance(address, str) and len(address) <= MAX_ADDRESS and address.isprintable():
            self.address.text = self.last_address = address.strip()
        self._reset_options()

    def _remember(self) -> None:
        """Save the settings when they changed (not while a name or an address is being typed)."""
        if self.address.focused or any(f.focused for f in self.name_inputs.values()):
            return
        now = self._settings()
        if now != self._remembered:
            self._remembered = now
            settings.save(SETTINGS, now)

    def _start_browser(self) -> None:
        try:
            from netplay.discovery import Browser

            self.browser = Browser(on_change=self._hosts_changed)
        except Exception as exc:  # no multicast here: joining by address still works
            self._say(f"LAN discovery is unavailable ({exc}); join by address", ok=False)

    def _hosts_changed(self, hosts: list) -> None:
        """Called from the browser's thread: the hosts judged against the pins (look-alike names, names
        that look like a pinned one, mixed scripts) and put in the order shown, pinned keys first."""
        standings = _judged(list(hosts))
        with self._lock:
            self.standings = standings
            self.hosts = [s.host for s in standings]

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

        bot = self.chosen_bot()
        try:
            ident = Identity.load()
            problem = self._local_names_problem(ident.name)
            if problem:
                self._say(f"could not start the game: {problem}", ok=False)
                return None
            decider = QueueDecider()
            session = HostSession(ident, decider, self.game.id, players=self.players, options=dict(self.options),
                                  seat=self.seat, bind="127.0.0.1", port=0, known_peers=None,
                                  replay_dir=self.replay_dir, also=self._extra_seats(), clock=self.clock)
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
        """Host on the LAN: the hosting screen (the address to give, cancel) until the seats are
        taken, then the table; straight to the table when every seat is played on this machine."""
        from client.netcontroller import NetController
        from client.scenes.hosting import HostingScene
        from netplay import discovery
        from netplay.host import HostSession
        from netplay.identity import Identity, KnownPeers
        from netplay.session import QueueDecider, version

        try:
            ident = Identity.load()
            problem = self._local_names_problem(ident.name)
            if problem:
                self._say(f"could not host: {problem}", ok=False)
                return None
            decider = QueueDecider()
            adverts: list = []

            def watch_places(n: int) -> None:   # the advert's `watch` follows the spectators (discovery)
                for ad in adverts:
                    with contextlib.suppress(Exception):
                        ad.update(watch=n)

            session = HostSession(ident, decider, self.game.id, players=self.players, options=dict(self.options),
                                  seat=self.seat, bind="0.0.0.0", port=0, known_peers=KnownPeers.default(),
                                  replay_dir=self.replay_dir, also=self._extra_seats(), clock=self.clock,
                                  spectating=self.spectating, on_watch_places=watch_places)
        except Exception as exc:
            self._say(f"could not host: {exc}", ok=False)
            return None
        net = NetGame(session, NetController(session, decider))
        if not session.free_seats():  # every seat is played on this machine: nothing to announce
            self._open_table(app, net, f"{self.game.title} - every seat on this machine")
            return net
        advert = ""
        try:
            ad = discovery.advertise(port=session.port, game=self.game.id, version=version(),
                                     fingerprint=ident.fingerprint, free_seats=session.free_seats(),
                                     host_name=ident.name, terms=net.controller.terms(),
                                     watch=session.watch_places())
            ad.__enter__()
            adverts.append(ad)
            net.closers.append(lambda: ad.__exit__(None, None, None))
        except Exception as exc:
            advert = f"the LAN advert failed ({exc}): give the address below"
        addresses = [f"{ip}:{session.port}/{ident.fingerprint}" for ip in discovery.local_addresses() or ["127.0.0.1"]]
        title = f"{self.game.title} - hosted here"

        def start(app) -> None:
            self._open_table(app, net, title, replace=True)

        def cancel(app) -> None:
            net.close()
            app.pop()
            self._say("hosting cancelled")
            self._refresh_replays()

        app.push(HostingScene(net.controller, self.game.title, addresses, ident.name, advert, start, cancel))
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
        self.last_address = address
        self._say(f"connecting to {address}...")
        self.joining = threading.Thread(target=self._connect, args=(address,), name="netplay-join", daemon=True)
        self.joining.start()

    def _connect(self, address: str, saved: Any = None) -> None:
        from client.netcontroller import NetController
        from netplay.identity import Identity, KnownPeers
        from netplay.joiner import JoinSession
        from netplay.session import QueueDecider

        try:
            ident = self._identity_for(saved) if saved is not None else Identity.load()
            decider = QueueDecider()
            session = JoinSession(ident, decider, address, known_peers=KnownPeers.default(), saved=saved,
                                  replay_dir=self.replay_dir)
            outcome: Any = (NetGame(session, NetController(session, decider)), "")  # the table names the game
        except Exception as exc:  # refused, key changed, version mismatch, nobody there...
            verb = "resume the game with" if saved is not None else "join"
            outcome = f"could not {verb} {address}: {exc}"
        with self._lock:
            self.joined = outcome

    def resume(self, app, path: Path) -> NetGame | None:
        """Back to a game this user left unfinished (its process killed, the machine restarted): as its
        host, listening again on the port its joiners know (they come back by themselves); as a joiner,
        reconnecting to the host. The seats this machine held besides its own play as they did: a
        lobby bot seat (named "NAME-bot-SEAT") by that bot, any other by a person at this screen."""
        saved = self.replay_list.saved_seat(path) if self.replay_list is not None else None
        if saved is None:
            self._say(f"{path.name}: no seat of this game is saved to resume (it ended, or it was not yours)",
                      ok=False)
            return None
        if saved.role != "host":
            if self.joining is not None:
                self._say("already connecting; wait for the answer", ok=False)
                return None
            self._say(f"resuming {saved.game} with {saved.address}...")
            self.joining = threading.Thread(target=self._connect, args=(saved.address, saved),
                                            name="netplay-resume", daemon=True)
            self.joining.start()
            return None
        from client.netcontroller import NetController
        from netplay.host import HostSession
        from netplay.identity import KnownPeers
        from netplay.session import QueueDecider

        try:
            decider = QueueDecider()
            also = {int(seat): _resumed_decider(name, BOT_DELAYS[self.bot_delay_index])
                    for seat, _, name in saved.extra}
            session = HostSession.resumed(self._identity_for(saved), decider, saved, also=also,
                                          known_peers=KnownPeers.default(), replay_dir=self.replay_dir)
        except Exception as exc:   # the port is taken, the file does not replay with the saved seeds...
            self._say(f"could not resume {path.name}: {exc}", ok=False)
            return None
        title = engines.GAMES[saved.game].title if saved.game in engines.GAMES else saved.game
        net = NetGame(session, NetController(session, decider))
        self._open_table(app, net, f"{title} - resumed, hosted here")
        return net

    @staticmethod
    def _identity_for(saved: Any):
        """This user's identity under the name its seat has in the game's header (the name the others
        know it by), whatever name it uses now."""
        import dataclasses as dc

        from netplay.identity import Identity
        from replays.reader import read_replay

        ident = Identity.load()
        with contextlib.suppress(Exception):
            header = read_replay(Path(saved.replay)).header
            if header.seats[saved.seat][0] == ident.public_key:
                ident = dc.replace(ident, name=header.seats[saved.seat][1])
        return ident

    @property
    def spectating(self) -> Any:
        """The spectators' terms of a game hosted here (replays.header.Spectating), or None: nobody watches."""
        from replays.header import Spectating

        most, chat = SPECTATORS[self.spectators_index]
        return Spectating(most, SPECTATOR_DELAY, chat) if most and self.players > 1 else None

    def watch(self, app, address: str) -> None:
        """Watch a LAN game: connect in the background (as a join does), then the spectator's table
        (client/scenes/watching.py), which steps the session in the UI's loop."""
        if self.joining is not None:
            self._say("already connecting; wait for the answer", ok=False)
            return
        self._say(f"connecting to {address} to watch...")
        self.joining = threading.Thread(target=self._connect_watch, args=(address,), name="netplay-watch",
                                        daemon=True)
        self.joining.start()

    def _connect_watch(self, address: str) -> None:
        from netplay.identity import Identity, KnownPeers
        from netplay.watcher import WatchSession

        try:
            session = WatchSession(Identity.load(), address, known_peers=KnownPeers.default(),
                                   replay_dir=self.replay_dir)
            outcome: Any = ("watch", session, address)
        except Exception as exc:  # refused (no spectators, places taken), key changed, nobody there...
            outcome = f"could not watch {address}: {exc}"
        with self._lock:
            self.joined = outcome

    def _watched(self, path: Any, message: str) -> None:
        from client.scenes.watching import copy_words

        self._say(f"{message}; {copy_words(path)}")
        self._refresh_replays()

    @property
    def clock(self) -> Any:
        """The move clock chosen for a game started here, as a session takes it (netplay.gameclock's
        GAME_CLOCK or UNTIMED, or seconds)."""
        from netplay.gameclock import GAME_CLOCK, UNTIMED

        clock = CLOCKS[self.clock_index]
        if isinstance(clock, str):
            return GAME_CLOCK if clock == "game" else UNTIMED
        return float(clock[0]), float(clock[1])

    def _open_table(self, app, net: NetGame, title: str, replace: bool = False) -> None:
        from client.scenes.table import TableScene

        def leave(app) -> None:
            net.close()
            app.pop()
            self._refresh_replays()

        table = TableScene(net.controller, title, on_leave=leave)
        if replace:
            app.replace(table)
        else:
            app.push(table)

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

    def open_stats(self, app) -> None:
        """The statistics page of the replays listed here (the same folder, the same "you")."""
        from client.scenes.stats import StatsScene
        from netplay.paths import replays_dir

        folder = self.replay_list.folder if self.replay_list is not None else self.replay_dir or replays_dir()
        app.push(StatsScene(folder, self.replay_list.my_key if self.replay_list is not None else None))

    # ------------------------------------------------------------------ events
    def _name_fields(self) -> list[TextInput]:
        """The name fields shown now: one per hot-seat seat."""
        return [self._name_input(seat) for seat, role in enumerate(self.roles) if role == "here"]

    def handle(self, event: pygame.event.Event, app) -> None:
        typing = self.address.focused or any(f.focused for f in self._name_fields())
        typed = self.address.handle(event)
        if typed is not None:
            self.join(app, typed)
            return
        for field_ in self._name_fields():
            name = field_.handle(event)
            if name is not None:   # Enter: the name is taken (and kept), the keys are the lobby's again
                field_.text, field_.focused = name.strip(), False
        if typing and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT):
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
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            app.pop()

    def _button(self, key: str, app) -> None:
        kind, _, value = key.partition(":")
        if kind == "game":
            self._keep_setup()
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
            self._next_bot()
        elif kind == "delay":
            self.bot_delay_index = (self.bot_delay_index + 1) % len(BOT_DELAYS)
        elif kind == "clock":
            self.clock_index = (self.clock_index + 1) % len(CLOCKS)
        elif kind == "spectators":
            self.spectators_index = (self.spectators_index + 1) % len(SPECTATORS)
        elif kind == "watch":
            self.watch(app, value)
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
        elif kind == "resume":
            self.resume(app, self.replays[int(value)])
        elif kind == "refresh":
            self._refresh_replays()
        elif kind == "stats":
            self.open_stats(app)
        elif kind == "rules":
            from client.scenes.rules import open_rules

            open_rules(app, self.game.id)
        elif kind == "sound":
            self._toggle_sound(app)
        elif kind == "tutorial":
            from client.scenes.tutorial import open_tutorials

            open_tutorials(app)

    def update(self, app, dt_ms: int) -> None:
        self._remember()
        if self.replay_list is not None and len(self.replays) != len(self.replay_list.entries(self.replay_filter)):
            self._filter_replays()
        with self._lock:
            joined, self.joined = self.joined, None
        if joined is None:
            return
        self.joining = None
        if isinstance(joined, str):
            self._say(joined, ok=False)
        elif joined[0] == "watch":
            from client.scenes.watching import WatchScene

            self._say("")
            app.push(WatchScene(joined[1], joined[2], on_close=self._watched))
        else:
            self._say("")
            self._open_table(app, *joined)

    def frame_key(self, app) -> tuple:
        """What the lobby shows besides input (client.app draws when it changes): the hosts found,
        the replays and their verdicts as they come in, the message, a join under way."""
        with self._lock:
            hosts = tuple(self.hosts)
        entries = tuple(self.replay_list.entries(self.replay_filter)) if self.replay_list else ()
        return hosts, entries, self.message, self.message_ok, self.joining is None

    def close(self) -> None:
        self._remember()
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
        sound = self._sound_button(app, w, px)
        # a first game explained step by step, against slow bots (client/scenes/tutorial.py)
        learn_w = theme.font(px).size("tutorial")[0] + 24
        learn = pygame.Rect(sound.x - 8 - learn_w, sound.y, learn_w, sound.h)
        self.buttons.append(Button(learn, "tutorial", "tutorial:"))
        draw_text(surface, fit("board games on your LAN - every move signed, every game a replay", px,
                               learn.x - name.right - 48), (name.right + 24, name.bottom - px - 2), px, theme.MUTED)
        col = (w - 48) // 3
        top = max(60, header_bottom(px))   # (16 px under the buttons above, as on every page)
        body = h - top - 56
        self._draw_lan(surface, pygame.Rect(12, top, col, body), px)
        self._draw_start(surface, pygame.Rect(24 + col, top, col, body), px)
        # (the last column to the window's margin, flush with the buttons above it, whatever the rounding)
        self._draw_replays(surface, pygame.Rect(36 + 2 * col, top, w - EDGE - 36 - 2 * col, body), px)
        if self.message:
            colour = theme.GOOD if self.message_ok else theme.BAD
            draw_text(surface, fit(self.message, px, w - 36), (18, h - 40), px, colour)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px)
        self.address.draw(surface, px)
        for field_ in self._name_fields():
            field_.draw(surface, px - 4)

    def _sound_button(self, app, w: int, px: int) -> pygame.Rect:
        """The table's sounds on or off, top right (a preference of every window, saved at once)."""
        sounds = getattr(app, "sounds", None)
        caption = f"sound: {'on' if sounds is not None and sounds.enabled else 'off'}"
        width = theme.font(px).size("sound: off")[0] + 24
        rect = pygame.Rect(w - EDGE - width, EDGE, width, px + 8)
        self.buttons.append(Button(rect, caption, "sound:", enabled=sounds is not None))
        return rect

    def _toggle_sound(self, app) -> None:
        sounds = getattr(app, "sounds", None)
        if sounds is None:
            return
        sounds.enabled = not sounds.enabled
        settings.Preferences(sound=sounds.enabled).save()
        self._say("sounds on: dice, your turn, offers, attacks, the clock's last seconds, the end" if sounds.enabled
                  else "sounds off (saved: every window of yours stays silent until you turn them on)")

    def _draw_lan(self, surface, box: pygame.Rect, px: int) -> None:
        inner = panel(surface, box, "games on the LAN", px)
        with self._lock:
            hosts, standings = list(self.hosts), list(self.standings)
        if {s.host for s in standings} != set(hosts):      # hosts set by other means than the browser
            standings = _judged(hosts)
            with self._lock:
                self.standings = standings
        y = inner.y
        if not standings:
            text = "no host found yet (searching...)" if self.browser else "LAN discovery is off"
            draw_text(surface, text, (inner.x, y), px - 2, theme.MUTED)
            y += px + 6
        # two hosts of the same name are told apart by their keys ("root@vm (a52e)": client.names)
        shown = distinct([s.host.host_name for s in standings], [s.host.fingerprint for s in standings])
        bottom = inner.bottom - 2 * px - 24     # "join by address" below
        small = px - 4
        for standing, name in list(zip(standings, shown, strict=True))[:8]:
            host = standing.host
            title = engines.GAMES[host.game].title if host.game in engines.GAMES else host.game
            head = f"{title} - {name}" + _doubt_words(standing)
            doubtful = bool(standing.doubts) and not standing.vouched
            # every line whole, wrapped (issue 6): the game and host beside the join button, the key's
            # words and the terms under both, across the panel
            heads = wrap_lines(head, px - 1, inner.w - 80, 2, bold=True)
            # the key's words first, whole: what two people compare aloud to tell look-alikes apart
            watching = f", {host.watch} may watch" if host.watch else ""
            keys = wrap(f"{host.words} - {host.free_seats} free{watching}, v{host.version}", small, inner.w)
            terms, timed = clocks.terms_words(host.terms)
            said = wrap_lines(terms, small, inner.w, 3, bold=timed)
            height = max(len(heads) * px, px + 8) + (len(keys) + len(said)) * (small + 2) + 10
            if y + height > bottom and y > inner.y:
                break   # no room for this host's lines: the panel shows those it can whole
            for n, line in enumerate(heads):
                draw_text(surface, line, (inner.x, y + n * px), px - 1, theme.BAD if doubtful else theme.TEXT,
                          bold=True)
            if host.watch and not host.free_seats:    # a game under way that takes spectators
                self.buttons.append(Button(pygame.Rect(inner.right - 70, y + 2, 70, px + 6), "watch",
                                           f"watch:{host.address}"))
            else:
                self.buttons.append(Button(pygame.Rect(inner.right - 70, y + 2, 70, px + 6), "join",
                                           f"join:{host.address}", enabled=host.free_seats > 0))
            y += max(len(heads) * px, px + 8)
            for line in keys:
                draw_text(surface, line, (inner.x, y), small, theme.TEXT if doubtful else theme.MUTED)
                y += small + 2
            for line in said:
                draw_text(surface, line, (inner.x, y), small, theme.ACCENT if timed else theme.MUTED, bold=timed)
                y += small + 2
            y += 10
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
                 (f"bots: {self.chosen_bot()}", "bot:", len(self.offered_bots()) > 1, False)]
        cells += [(f"{seat} {seat_style(self.game.id, seat)[1]}: {self.role_words(role)}", f"role:{seat}",
                   self.players > 1, role == "me") for seat, role in enumerate(self.roles)]
        if len(cells) % 2:
            cells.append(None)
        names = [seat for seat, role in enumerate(self.roles) if role == "here"]
        cells += [("", f"name:{seat}", True, False) for seat in names]   # a text field each: the player's name
        if len(cells) % 2:
            cells.append(None)
        cells += [(f"{k}: {v}", f"option:{k}", True, False) for k, v in self.options.items()]
        cells.append((self._clock_label(half - 10), "clock:", True, False))
        cells.append((f"bot delay: {delay:g} s" if delay else "bot delay: none", "delay:", True, False))
        watchers, chat = SPECTATORS[self.spectators_index]
        cells.append((f"spectators: up to {watchers}{' + chat' if chat else ''}" if watchers else "spectators: none",
                      "spectators:", self.players > 1, False))
        cells.append(("the rules", "rules:", True, False))   # the game's rules page (client/scenes/rules.py)
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
                if key.startswith("name:"):   # "name 1" and the field beside it
                    tag = draw_text(surface, f"name {key[5:]}", (rect.x + 2, rect.centery), px - 4, theme.MUTED,
                                    anchor="midleft")
                    field_ = self._name_input(int(key[5:]))
                    field_.rect = pygame.Rect(tag.right + 6, rect.y, rect.right - tag.right - 6, rect.h)
                    field_.placeholder = self._default_name(int(key[5:]))
                else:
                    self.buttons.append(Button(rect, label, key, enabled=enabled, selected=selected))
            if k % 2 == 1:
                y += pitch
        y = inner.bottom - px - 14
        self.buttons.append(Button(pygame.Rect(inner.x, y, half, px + 14), "play here vs bots", "local:"))
        everyone_here = "open" not in self.roles
        self.buttons.append(Button(pygame.Rect(inner.x + half + 8, y, half, px + 14),
                                   "play, all seats here" if everyone_here else "host on the LAN", "host:",
                                   enabled=self.players > 1))

    def _clock_label(self, width: int) -> str:
        """The clock's button: "clock: game's (45 min + 5 s)", or where half the panel is too narrow for that
        in 12 px text (1024x600, issue 34) the game's clock by its numbers alone, "clock: 45 min + 5 s"."""
        clock = CLOCKS[self.clock_index]
        label = f"clock: {clock_words(clock, self.game.id)}"
        if clock == "game" and theme.font(theme.min_size()).size(label)[0] > width:
            from netplay.gameclock import default_clock

            stock, increment = default_clock(self.game.id)
            label = f"clock: {clock_words((int(stock), int(increment)))}"
        return label

    @staticmethod
    def _replay_info(entry, small: int, width: int) -> tuple[list[str], str, int]:
        """A replay row's date and result in lines beside its verdict (or resume button): two lines
        at most, the second cut only if even two are not enough; the verdict and its width."""
        tail = entry.badge.upper() if entry.badge else "checking..."
        bold = theme.font(small, True)
        tail_w = bold.size("resume")[0] + 16 if entry.resume else bold.size(tail)[0]
        room = width - tail_w - 24
        info = wrap(" - ".join(p for p in (entry.when, entry.result) if p), small, room)
        if len(info) > 2:
            info = [info[0], fit(" ".join(info[1:]), small, room)]
        return info, tail, tail_w

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
        # a result too long for one line ("Smart-0 won with 10 victory points (10 to win)") takes a second
        # line, and then every row does (rows of one height scroll evenly)
        lines = 2 if any(len(self._replay_info(e, small, inner.w)[0]) > 1 for e in entries) else 1
        row_h = px + lines * (small + 2) + 10
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
            verdict = {"valid": theme.GOOD, "forfeit": theme.GOOD, "unfinished": theme.ACCENT,
                       "": theme.MUTED}.get(entry.badge, theme.BAD)
            info, tail, tail_w = self._replay_info(entry, small, inner.w)
            tail_y = rect.y + px + 2 + (len(info) - 1) * (small + 2)   # beside the last line of the result
            if entry.resume:     # a game this user left: resume it (the row itself still opens the replay)
                self.buttons.append(Button(pygame.Rect(rect.right - tail_w - 4, tail_y - 2, tail_w, small + 6),
                                           "resume", f"resume:{index}", selected=True))
            else:
                draw_text(surface, tail, (rect.right - 6, tail_y), small, verdict, bold=True, anchor="topright")
            for n, line in enumerate(info[:lines]):
                draw_text(surface, line, (rect.x + 6, rect.y + px + 2 + n * (small + 2)), small, theme.MUTED)
            self.replay_rows.append((rect, index))
            y += row_h
        count = len(entries)
        where = f"{self.replay_scroll + 1}-{min(count, self.replay_scroll + rows)} of {count}" if count else ""
        font = theme.font(px)
        refresh = pygame.Rect(inner.x, inner.bottom - px - 10, min(120, font.size("refresh")[0] + 28), px + 8)
        self.buttons.append(Button(refresh, "refresh", "refresh:"))
        # every player of these replays: games, wins, dice luck (client/scenes/stats.py)
        self.buttons.append(Button(pygame.Rect(refresh.right + 8, refresh.y, font.size("statistics")[0] + 24, px + 8),
                                   "statistics", "stats:"))
        draw_text(surface, where, (inner.right, inner.bottom - px - 6), small, theme.MUTED, anchor="topright")
