"""One simulated run from one seed, and campaigns of many.

`plan_for(seed)` draws everything of a run from its seed: the game and its options, the number of peers,
the terms, who lies and how (one strategy of `simulator.adversary.STRATEGIES`, or two colluding seats of
four), and the faults. `simulate(plan)` plays it on a `World` and checks every invariant
(simulator/invariants.py). A failing run is replayed, exactly, by `python -m simulator --seed N`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import engines
from replays.header import Terms
from simulator import adversary as adv
from simulator.deciders import SimBot
from simulator.invariants import Report, check, lobby_bound, waiting_for_players
from simulator.liar import Liar, Setting, draw_coalition, draw_setting
from simulator.sessions import session_bound
from simulator.watchers import EarlyRelease, check_watchers, spectator_liar
from simulator.world import Faults, World

__all__ = ["Plan", "plan_for", "lobby_plan", "simulate", "campaign", "Result", "command"]

#: the games as the campaigns drew them before the mix came from the descriptors (engines.Mix): their order is
#: kept, so that a seed stays the run it was (the seeds that found bugs are named in docs and tests); a game
#: added since comes after them, in id order
_DRAW_ORDER = ("loyal-captain", "quedah-merchant", "madagaskar", "ploc", "turning-tides", "ebbe-flut",
               "ebbe-flut-solo", "catan", "catan-ck")


def _mix(quick: bool) -> dict[str, float]:
    """Each game's weight in a campaign (`Mix.weight`; the quick form's, `Mix.quick`: the short games more,
    the long ones and Catan's decks, a shuffle proof each, rarely); a game whose descriptor has no mix, or a
    weight of 0, is not played."""
    order = [g for g in _DRAW_ORDER if g in engines.DESCRIPTORS]
    order += sorted(g for g in engines.DESCRIPTORS if g not in _DRAW_ORDER)
    weights = {g: (m.quick if quick else m.weight) for g in order if (m := engines.describe(g).mix) is not None}
    return {g: w for g, w in weights.items() if w > 0}


#: the games and how often a full campaign plays each
GAMES = _mix(quick=False)
#: the quick form's mix (the test suite's)
QUICK_MIX = _mix(quick=True)
AUDIT_EVERY = 5   # one honest copy in so many is audited from its bytes too (the peers' ledgers ran the same checks)
COALITIONS = [("close-early", "cosign-at-once"), ("equivocate", "silent"), ("withhold-from", "cosign-at-once"),
              ("ahead-then-claim", "cosign-at-once"), ("veto-roll", "withhold:chain:1"), ("claim-early", "mutate"),
              ("relay-equivocate", "cosign-at-once")]


@dataclass(slots=True)
class Plan:
    seed: int
    game: str
    players: int
    options: dict = field(default_factory=dict)
    liars: dict[int, str] = field(default_factory=dict)       # peer index -> strategy
    faults: Faults = field(default_factory=Faults)
    terms: Terms = field(default_factory=Terms.agreed)
    think: float = 0.0
    nth: int = 1
    rematches: int = 0          # how many rematches every honest seat votes for
    settings: dict[int, Setting] = field(default_factory=dict)   # peer index -> the generic liar's setting
    games: int = 1                                              # games the honest seats want (rematches)
    absent: tuple[int, ...] = ()                                # joiners that never come
    spectators: int = 0                                         # spectators watching (their own peers)
    spectator_liars: dict[int, str] = field(default_factory=dict)  # spectator number -> its strategy
    host_leaks: bool = False                                    # the host releases to spectators at once
    spectator_chat: bool = False                                # the spectators hear the chat (players say lines)

    def describe(self) -> str:
        who = ", ".join(f"peer {i} {self.settings[i].describe() if i in self.settings else s}"
                        for i, s in sorted(self.liars.items())) or "all honest"
        if self.games > 1:
            who += f"; {self.games} games"
        if self.absent:
            who += f"; peers {', '.join(map(str, self.absent))} never come"
        f = self.faults
        faults = [f"{k} {v}" for k, v in (("loss", f.loss), ("dup", f.duplicate), ("reorder", f.reorder),
                                           ("drops", f.drops), ("kills", f.kills)) if v]
        if f.partition:
            faults.append(f"partition {f.partition}")
        if self.spectators:
            liars = "".join(f", spectator {n} {s}" for n, s in sorted(self.spectator_liars.items()))
            who += f"; {self.spectators} spectator(s){liars}" + ("; the host releases at once" if self.host_leaks
                                                                  else "") \
                + ("; they hear the chat" if self.spectator_chat else "")
        return (f"seed {self.seed}: {self.game} x{self.players} {self.options or ''}, {who}"
                + (f"; faults: {', '.join(faults)}" if faults else "")
                + (f"; {self.rematches} rematch(es)" if self.rematches else ""))


def command(seed: int, crashes: bool = False, quick: bool = False, classic: bool = False) -> str:
    """The one command that replays this run exactly."""
    return (f"python -m simulator --seed {seed}{' --crashes' if crashes else ''}{' --quick' if quick else ''}"
            f"{' --classic' if classic else ''} -v")


def _eligible(strategy: str, players: int) -> list[int]:
    cls = adv.kind_of(strategy)
    if players < max(cls.min_players, 2):
        return []
    if cls.hosts_only:
        return [0]
    if cls.joiners_only:
        return list(range(1, players))
    return list(range(players))


def crash_plan(seed: int) -> Plan:
    """A run with every seat honest and one to three peers (the host too) killed and resumed at random
    moments, under the default allowances: every game must complete with nothing acknowledged lost."""
    plan = plan_for(seed, quick=True, generic=False)
    rng = random.Random(f"crash/{seed}")
    if plan.players < 2:
        plan.players = 2 if 2 in engines.get(plan.game).players else plan.players
    plan.liars = {}
    plan.think = 0.0
    plan.rematches = 0
    plan.terms = Terms.agreed(30_000, None, 20_000, 500, 60_000, 0)
    plan.faults = Faults(kills=rng.randint(1, 3), kill_s=3.0, kill_host=True)
    return plan


def plan_for(seed: int, quick: bool = False, generic: bool = True) -> Plan:
    """The run of `seed`. `generic=False`: the classic plan alone, as drawn before the generic liar, its
    rematches and its absent joiners were added (`--classic`: the seeds that found bugs then stay those runs)."""
    rng = random.Random(f"plan/{seed}")
    mix = QUICK_MIX if quick else GAMES
    game = rng.choices(list(mix), weights=list(mix.values()))[0]
    counts = engines.get(game).players
    players = rng.choice(counts)
    options: dict[str, Any] = {}
    if game.startswith("catan"):
        options["max_rounds"] = rng.choices(["1", "2", "3"], weights=[40, 1, 1] if quick else [5, 4, 1])[0]
        if game == "catan-ck" and rng.random() < 0.3:
            options["defense"] = "choose"
    clock = (30_000, 1_000) if rng.random() < 0.25 else None
    terms = Terms.agreed(10_000, clock, 20_000, 500, 5_000, 0)
    plan = Plan(seed, game, players, options, terms=terms, nth=rng.randint(1, 3))
    roll = rng.random()
    strategies = [s for s in adv.STRATEGIES if _eligible(s, players)]
    if players == 4 and roll < 0.12:
        first, second = rng.choice(COALITIONS)
        hosts = _eligible(first, players)
        joiners = [i for i in _eligible(second, players) if i not in hosts] or [1]
        plan.liars = {rng.choice(hosts): first, rng.choice(joiners): second}
    elif strategies and roll < 0.75:
        strategy = rng.choice(strategies)
        if strategy.split(":")[0] in ("withhold", "vanish", "withhold-contest", "tamper"):
            strategy = f"{strategy}:{plan.nth}"
        plan.liars = {rng.choice(_eligible(strategy, players)): strategy}
    faults = Faults()
    kind = rng.random()
    if not plan.liars and players > 1:
        if kind < 0.3:
            faults.kills = rng.randint(1, 3)
            faults.kill_s = 4.0
        elif kind < 0.5:
            faults.drops = rng.randint(1, 4)
            faults.drop_s = 3.0
        elif kind < 0.6:
            faults.loss, faults.duplicate, faults.reorder = 0.02, 0.02, 0.05
        elif kind < 0.65 and players >= 3:
            faults.partition = (1, 2)
    elif plan.liars and kind < 0.25:
        faults.latency = (0.001, 0.2)
        faults.duplicate = 0.01
    if "wrong-seed" in plan.liars.values():
        faults.kills, faults.kill_host = 1, False
    plan.faults = faults
    plan.think = 2.0 if rng.random() < 0.2 else 0.0
    if clock is not None:
        plan.think = min(plan.think, clock[1] / 2000)     # an honest seat keeps to its clock
    if generic:
        _generic(plan, quick)
    _lobby_and_rematches(plan)
    _spectators(plan, quick)
    return plan


#: of the runs of one game: 1 or 2 spectators watch (issue 35), drawn apart from the plan; fewer in the quick
#: campaign (a run with spectators costs about three times an average one: each checks every frame)
SPECTATOR_SHARE = {False: 0.1, True: 0.05}


def _spectators(plan: Plan, quick: bool) -> None:
    """Spectators for a share of the runs, from a random stream of their own: every other draw of the plan stays
    as it was (the seeds that found bugs stay those runs; none of those seeds draws spectators). Of the runs with
    spectators, some have one that floods (`watchers.Flood`), some a host that releases at once
    (`watchers.EarlyRelease`)."""
    rng = random.Random(f"watchers/{plan.seed}")
    if plan.players < 2 or plan.games > 1 or plan.rematches or plan.absent or rng.random() >= SPECTATOR_SHARE[quick]:
        return
    if any(s.split(":")[0] in adv.LOBBY_STRATEGIES for s in plan.liars.values()):
        return
    plan.spectators = rng.choice((1, 2))
    roll = rng.random()
    if roll < 0.3:
        plan.spectator_liars = {0: "flood"}
    elif roll < 0.45 and 0 not in plan.liars:
        plan.host_leaks = True
    plan.spectator_chat = rng.random() < 0.5       # (drawn last: the draws before it stay what they were)


LOBBY_SHARE = 0.04      # of the runs: a lobby liar (adversary.LOBBY_STRATEGIES) alone, with a rematch to hold
REMATCH_SHARE = 0.06    # of the others: every honest seat votes for one rematch


def lobby_plan(seed: int, strategy: str) -> Plan:
    """A run of the quick mix (its game, terms, think times and faults as drawn for `seed`) given to the lobby
    liar `strategy` of adversary.LOBBY_STRATEGIES, with one rematch voted for (a solo game becomes a game of
    two: the liars need someone to hold)."""
    plan = plan_for(seed, quick=True)
    if plan.players < 2:
        plan.game, plan.players, plan.options = "loyal-captain", 2, {}
    rng = random.Random(f"lobby-plan/{seed}")
    plan.liars = {rng.choice(_eligible(strategy, plan.players)): strategy}
    plan.settings, plan.absent = {}, ()   # the lobby liar alone, not a generic one drawn for the seed
    plan.rematches = 1
    if plan.faults.kills or plan.faults.drops or plan.faults.partition:
        plan.faults = Faults()
    return plan


def _lobby_and_rematches(plan: Plan) -> None:
    """Lobbies that never start and rematches, drawn from a generator of their own (the plans' other draws
    stay as they were): a share of the runs is given to a lobby liar, a share plays a rematch."""
    rng = random.Random(f"lobby/{plan.seed}")
    roll = rng.random()
    if plan.players >= 2 and roll < LOBBY_SHARE:
        strategy = rng.choice(adv.LOBBY_STRATEGIES)
        plan.liars = {rng.choice(_eligible(strategy, plan.players)): strategy}
        plan.settings, plan.absent = {}, ()
        plan.rematches = 1
        plan.faults = Faults()
    elif plan.players >= 2 and roll < LOBBY_SHARE + REMATCH_SHARE and "wrong-seed" not in plan.liars.values():
        plan.rematches = 1


#: the share of the runs with liars whose liars become generic ones (simulator/liar.py: about 45 % of all
#: runs; the honest runs stay honest), of runs that play rematches, and of runs with a joiner that never
#: comes; drawn from a stream of their own (`liar-plan/SEED`) after every draw of the classic plan, so that
#: `generic=False` gives the classic plan of the seed
GENERIC, REMATCH, ABSENT = 0.6, 0.08, 0.03


def _generic(plan: Plan, quick: bool) -> None:
    """The generic liar's part of a plan: which seats are generic liars, in place of the classic ones (two
    colluding seats of four, the host and a joiner, in half the four-seat games), whether the seats want a
    rematch, whether a joiner never comes."""
    rng = random.Random(f"liar-plan/{plan.seed}")
    players = plan.players
    if players > 1 and rng.random() < REMATCH:
        plan.games = 2
    if plan.liars and rng.random() < GENERIC and "wrong-seed" not in plan.liars.values():
        plan.faults = Faults(latency=plan.faults.latency)
        if players == 4 and rng.random() < 0.5:
            plan.settings = draw_coalition(rng, players, plan.games)
        else:
            index = 0 if rng.random() < 0.45 else rng.randrange(1, players)
            plan.settings = {index: draw_setting(rng, index, players, games=plan.games)}
        plan.liars = {i: "liar" for i in plan.settings}
    if players > 2 and rng.random() < ABSENT:
        plan.absent = (rng.randrange(1, players),)


@dataclass(slots=True)
class Result:
    plan: Plan
    report: Report
    seconds: float
    sim_time: float
    events: int

    @property
    def ok(self) -> bool:
        return self.report.ok


def simulate(plan: Plan, until: float = 7200.0) -> tuple[World, Report]:
    # (every simulated peer lives in this one process and checks the same signed frames: `replays.crypto.verify`
    # remembers the signatures that verified, so a frame sent to three peers costs one check, not three)
    return _simulate(plan, until)


def _simulate(plan: Plan, until: float) -> tuple[World, Report]:
    games = max(plan.games, plan.rematches + 1)   # (the lobby liars' plans ask for rematches by count)
    world = World(plan.seed, plan.game, plan.players, options=plan.options, terms=plan.terms, faults=plan.faults,
                  deciders=lambda index, w: SimBot(w, plan.seed, think=plan.think, rematches=games - 1),
                  max_time=until, absent=frozenset(plan.absent), games=games, spectators=plan.spectators,
                  spectator_chat=plan.spectator_chat)
    world.think_max = plan.think
    keys = [p.key for p in world.peers]
    for index, strategy in plan.liars.items():
        rng = random.Random(f"liar/{plan.seed}/{index}")
        if index in plan.settings:
            world.peers[index].adversary = Liar(rng, plan.settings[index], keys, index)
            continue
        world.peers[index].adversary = adv.parse(strategy, rng)
        if strategy == "wrong-seed":
            world.tamper_saved = _wrong_seed(index)
            world.faults.kills = 1
    for n, strategy in plan.spectator_liars.items():
        watcher = world.watchers[n]
        watcher.adversary = spectator_liar(strategy, random.Random(f"spectator-liar/{plan.seed}/{n}"), world,
                                           watcher.index)
    if plan.host_leaks and 0 not in plan.liars:
        world.peers[0].adversary = EarlyRelease(random.Random(f"early-release/{plan.seed}"))
    world.start()
    horizon = (8.0 + 0.05 * _expected_frames(plan.game)) * plan.games
    world.plan_faults(horizon, only=[i for i, s in plan.liars.items() if s == "wrong-seed"] or None)
    if plan.spectators:
        world.plan_chat(horizon)
    # (a joiner that never came is nobody's peer: it has no copy and no wait of its own)
    honest = [p for p in world.peers if p.adversary is None and p.index not in world.absent]

    next_look = [60.0]

    host = world.peers[0]

    def over() -> bool:
        # (a host that ended runs its end-of-session wait to its goodbye: HostMachine.close_requested, lingers)
        if all(p.outcome is not None or p.crash is not None or waiting_for_players(world, p) for p in honest) \
                and (host.outcome is None or host.machine is None or 0 in world.closed) \
                and all(w.outcome is not None or w.crash is not None or w.machine is None or host.outcome is None
                        or (0 in world.closed and frozenset((0, w.index)) not in world.links)
                        for w in world.watchers):   # a spectator is told the end (or bye) once the host closed
            return True
        if not any(p.disk.frames for p in world.peers):
            # a lobby that never starts (of the first game, or of a rematch): run on past its bound, then judged
            return world.now > session_bound(world, 0) + lobby_bound(world) + 30
        if world.now < next_look[0]:
            return False
        # an honest peer still playing a minute past the bound of what was played breaks the promise whatever
        # comes after: the run stops there (looked at every 30 simulated seconds: the bound is not free)
        next_look[0] = world.now + 30.0
        frames = max((len(p.disk.frames) for p in world.peers), default=0)
        return world.now > session_bound(world, frames) + lobby_bound(world) + 60.0
    world.run(over)
    # a long game that a liar slows within the terms (deciding just before each limit) may need more than
    # the horizon: carried on up to the bound of the frames played so far, which the invariants then judge
    for _ in range(16):
        frames = max((len(p.disk.frames) for p in world.peers), default=0)
        limit = session_bound(world, frames) + lobby_bound(world)
        if over() or not world.events or world.max_time >= limit:
            break
        world.max_time = limit + 60.0
        world.run(over)
    # (a joiner that never comes: no game to complete, only the waits of the lobby to judge)
    repairable = (not plan.liars and not plan.faults.loss and not plan.faults.partition and not plan.faults.duplicate
                  and not plan.absent)
    report = check(world, honest_only=not plan.liars and repairable and not plan.faults.drops and
                   not plan.faults.kills, repairable=repairable, audit=plan.seed % AUDIT_EVERY == 0)
    check_watchers(world, report)
    return world, report


def _wrong_seed(index: int) -> Any:
    def tamper(peer: Any, saved: Any) -> Any:
        if peer.index != index:
            return saved
        import dataclasses
        return dataclasses.replace(saved, seed="11" * 32)
    return tamper


def _quick(seed: int) -> Result:
    return run_seed(seed, quick=True)


def _expected_frames(game: str) -> int:
    """About how many frames a game of `game` has (its descriptor's `Mix.frames`): a run's deadline scales with it."""
    descriptor = engines.DESCRIPTORS.get(game)
    mix = descriptor.mix if descriptor is not None else None
    return (mix or engines.Mix()).frames


def run_seed(seed: int, quick: bool = False) -> Result:
    started = time.process_time()
    plan = plan_for(seed, quick)
    world, report = simulate(plan)
    return Result(plan, report, time.process_time() - started, world.now, world.event_count)


def campaign(seeds: range | list[int], workers: int = 1, on_result: Any = None, quick: bool = False) -> list[Result]:
    """Run every seed (on `workers` processes); results in seed order."""
    if workers <= 1:
        out = []
        for seed in seeds:
            result = run_seed(seed, quick)
            out.append(result)
            if on_result is not None:
                on_result(result)
        return out
    import multiprocessing
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        out = []
        for result in pool.imap(_quick if quick else run_seed, list(seeds), chunksize=4):
            out.append(result)
            if on_result is not None:
                on_result(result)
        return out
