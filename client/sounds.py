"""The table's sounds (issue 34): a cue for each thing a player may miss while looking away: a roll of
the dice, the person's turn, a trade offer to them, the barbarians' attack, the last seconds of their
clock, the end of the game.

Every sound is synthesized here, in pure Python (`math`, `array`, a seeded `random.Random`), the first
time it is played, straight into the mixer's own format: no sound file is shipped, so there is nothing
to license and nothing to find on disk. The same mixer format always gives the same bytes.

Nothing is heard when the player turned the sounds off (the `sound` preference, client/settings.py,
or `--no-sound`), when there is no audio device (the mixer does not start: a note in the log, then
silence), or under SDL's dummy audio driver (tests, servers). Under the dummy driver the cues are
still recorded (`Sounds.played`), so a test sees what would have played. Each cue is rate-limited by
the app's own clock (the `now_ms` the table passes in, never the wall clock), so a burst of events
(a bot's quick moves, a clock ticking at 60 pictures a second) is one sound, not a roar.
"""

from __future__ import annotations

import array
import logging
import math
import os
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import pygame

log = logging.getLogger("netplay.client")

__all__ = ["AMPLITUDE", "Cue", "Format", "Sounds", "pcm", "samples", "synthesize"]

AMPLITUDE = 0.35          # the loudest any sound gets, of full scale: cues, not alarms
GAP_MS = 300              # a cue again within this is the same event told twice: dropped
CLOCK_GAP_MS = 1000       # ... and the clock ticks once a second at most
PLAYED_KEPT = 64          # cues remembered in `Sounds.played` (tests read it; a long game must not grow it)


class Cue(Enum):
    """What the table can tell by ear; the value is the cue's name in the log and the README."""

    ROLL = "roll"                # a roll of the dice (any seat's)
    YOUR_TURN = "your turn"      # the game waits on the person again
    OFFER = "offer"              # a trade offer that waits on the person's answer
    BARBARIANS = "barbarians"    # an attack (C&K's barbarians)
    CLOCK = "clock"              # one second of the person's last ten
    END = "end"                  # the game is over


@dataclass(frozen=True, slots=True)
class Format:
    """The mixer's sample format, as `pygame.mixer.get_init()` says it: `size` is the bits of a sample,
    negative when signed (8, -8, 16, -16; -32 is 32-bit float), `channels` 1 or 2 (more are filled alike)."""

    frequency: int = 44100
    size: int = -16
    channels: int = 2


# ------------------------------------------------------------------------------------------- synthesis
# Each voice returns mono samples in [-1, 1] at `rate`; `synthesize` scales them to AMPLITUDE.

def _envelope(i: int, n: int, attack: int, release: int) -> float:
    """A linear fade in over `attack` samples and out over the last `release`: no click at either end."""
    if i < attack:
        return i / attack
    if i >= n - release:
        return max(0.0, (n - i) / release)
    return 1.0


def _note(rate: int, hz: float, ms: float, partials: Sequence[float] = (1.0,), decay: float = 0.0,
          attack_ms: float = 8.0, release_ms: float = 30.0, vibrato: float = 0.0) -> list[float]:
    """One note: harmonics of `hz` with the weights `partials`, an exponential decay (per second), a
    fade in and out; a slow `vibrato` (fraction of the pitch, 5 Hz) makes a horn less of an organ."""
    n = int(rate * ms / 1000)
    attack, release = max(1, int(rate * attack_ms / 1000)), max(1, int(rate * release_ms / 1000))
    total = sum(abs(p) for p in partials) or 1.0
    out = []
    phase = 0.0
    for i in range(n):
        t = i / rate
        phase += 2 * math.pi * hz * (1 + vibrato * math.sin(2 * math.pi * 5 * t)) / rate
        value = sum(w * math.sin((k + 1) * phase) for k, w in enumerate(partials)) / total
        out.append(value * math.exp(-decay * t) * _envelope(i, n, attack, release))
    return out


def _mix(rate: int, parts: Sequence[tuple[float, list[float]]]) -> list[float]:
    """Voices laid on one track, each from its start (ms)."""
    starts = [int(rate * at / 1000) for at, _ in parts]
    out = [0.0] * max(s + len(v) for s, (_, v) in zip(starts, parts, strict=True))
    for start, (_, voice) in zip(starts, parts, strict=True):
        for i, value in enumerate(voice):
            out[start + i] += value
    return out


def _dice(rate: int) -> list[float]:
    """Dice on a table: four short clicks of low-passed noise, unevenly spaced, the later ones softer.
    The noise comes from a seeded generator: the same bytes every time."""
    rng = random.Random("netplay dice")
    parts = []
    for at, loud in ((0, 1.0), (65, 0.8), (150, 0.65), (205, 0.45)):
        n = int(rate * 0.028)
        smooth, voice = 0.0, []
        for i in range(n):
            smooth += 0.35 * (rng.uniform(-1, 1) - smooth)      # one-pole low-pass: a knock, not a hiss
            onset = min(1.0, i / (rate * 0.001))               # a millisecond's onset: a knock, not a click
            voice.append(loud * 2.2 * smooth * onset * math.exp(-i / (rate * 0.006)))
        parts.append((at, voice))
    return _mix(rate, parts)


def _your_turn(rate: int) -> list[float]:
    """Two soft notes, rising a fourth (E5, A5): "your move", not an alarm."""
    soft = (1.0, 0.15)
    return _mix(rate, [(0, _note(rate, 659.25, 130, soft, decay=4)),
                       (140, _note(rate, 880.0, 220, soft, decay=4, release_ms=80))])


def _offer(rate: int) -> list[float]:
    """A short chime: a bell's inharmonic partials (1, 2.76, 5.4 of the pitch) ringing down."""
    parts = [(0, _note(rate, hz, 450, decay=d, attack_ms=2, release_ms=60)) for hz, d in
             ((1318.5, 7.0), (1318.5 * 2.76, 12.0), (1318.5 * 5.4, 18.0))]
    weights = (1.0, 0.35, 0.15)
    voices = [(at, [w * v for v in voice]) for (at, voice), w in zip(parts, weights, strict=True)]
    return _mix(rate, voices)


def _barbarians(rate: int) -> list[float]:
    """A low horn: a brassy stack of harmonics on A2, a slow swell and a wavering pitch, then a lower
    second call (E2)."""
    horn = (1.0, 0.6, 0.45, 0.3, 0.2, 0.1)
    return _mix(rate, [(0, _note(rate, 110.0, 420, horn, attack_ms=70, release_ms=90, vibrato=0.006)),
                       (380, _note(rate, 82.41, 520, horn, attack_ms=60, release_ms=160, vibrato=0.006))])


def _clock(rate: int) -> list[float]:
    """A tick: a few milliseconds of a high, fast-dying tone."""
    return _note(rate, 2200.0, 35, (1.0, 0.3), decay=140, attack_ms=0.5, release_ms=10)


def _end(rate: int) -> list[float]:
    """A short fanfare of three notes, the last held: C5, E5, G5."""
    brass = (1.0, 0.4, 0.2, 0.1)
    return _mix(rate, [(0, _note(rate, 523.25, 150, brass, decay=2)),
                       (160, _note(rate, 659.25, 150, brass, decay=2)),
                       (320, _note(rate, 783.99, 420, brass, decay=2.5, release_ms=150))])


_VOICES: dict[Cue, Callable[[int], list[float]]] = {
    Cue.ROLL: _dice, Cue.YOUR_TURN: _your_turn, Cue.OFFER: _offer, Cue.BARBARIANS: _barbarians,
    Cue.CLOCK: _clock, Cue.END: _end,
}


def samples(cue: Cue, rate: int) -> list[float]:
    """The cue's mono samples at `rate`, scaled so that the loudest is AMPLITUDE."""
    raw = _VOICES[cue](rate)
    peak = max((abs(v) for v in raw), default=0.0) or 1.0
    return [AMPLITUDE * v / peak for v in raw]


def pcm(mono: Sequence[float], fmt: Format) -> bytes:
    """Samples in [-1, 1] as the mixer's raw bytes (native byte order, channels interleaved)."""
    bits, signed = abs(fmt.size), fmt.size < 0
    channels = max(1, fmt.channels)
    if bits == 32:
        data = array.array("f", (v for v in mono for _ in range(channels)))
        return data.tobytes()
    if bits not in (8, 16):
        raise ValueError(f"a mixer sample of {fmt.size} bits is not one this client writes")
    top = (1 << (bits - 1)) - 1
    offset = 0 if signed else top + 1
    code = {(8, True): "b", (8, False): "B", (16, True): "h", (16, False): "H"}[(bits, signed)]
    ints = array.array(code, (offset + max(-top, min(top, round(v * top))) for v in mono for _ in range(channels)))
    return ints.tobytes()


def synthesize(cue: Cue, fmt: Format) -> bytes:
    """The cue's sound in the mixer's format: what `pygame.mixer.Sound(buffer=...)` takes."""
    return pcm(samples(cue, fmt.frequency), fmt)


# ------------------------------------------------------------------------------------------- playing

def _gap_ms(cue: Cue) -> int:
    return CLOCK_GAP_MS if cue is Cue.CLOCK else GAP_MS


class Sounds:
    """Plays the cues, or records them only (the dummy audio driver), or does nothing (turned off).

    `played` keeps the last PLAYED_KEPT cues asked for and let through, as (cue, now_ms): what a test
    reads. The mixer starts at the first audible cue, not before: a window that never plays one never
    opens the audio device."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.played: deque[tuple[Cue, int]] = deque(maxlen=PLAYED_KEPT)
        self._last_ms: dict[Cue, int] = {}
        self._mixer: bool | None = None     # None: not tried yet; False: no audio here (silent from now on)
        self._sounds: dict[Cue, Any] = {}   # pygame.mixer.Sound per cue, made at its first play

    @staticmethod
    def silent_driver() -> bool:
        """SDL's dummy audio driver (tests, benchmarks, a server): nothing to hear, nothing to open."""
        return os.environ.get("SDL_AUDIODRIVER", "").lower() == "dummy"

    def play(self, cue: Cue, now_ms: int) -> bool:
        """Play `cue` (or only record it where nothing can be heard); False when it is off or was played
        within its gap (`now_ms`: the app's clock)."""
        if not self.enabled:
            return False
        last = self._last_ms.get(cue)
        if last is not None and 0 <= now_ms - last < _gap_ms(cue):
            return False
        self._last_ms[cue] = now_ms
        self.played.append((cue, now_ms))
        if not self.silent_driver() and self._ready():
            sound = self._sound(cue)
            if sound is not None:
                sound.play()
        return True

    def _ready(self) -> bool:
        """Whether the mixer runs (started at the first call; a failure is noted once, then silence)."""
        if self._mixer is None:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init()
                self._mixer = bool(pygame.mixer.get_init())
            except (pygame.error, NotImplementedError, AttributeError, ImportError) as exc:
                log.info("no sound: the audio mixer cannot start (%s)", exc)
                self._mixer = False
        return self._mixer

    def _sound(self, cue: Cue) -> Any:
        """The cue's pygame Sound, synthesized in the running mixer's format at its first play."""
        sound = self._sounds.get(cue)
        if sound is None:
            try:
                init = pygame.mixer.get_init()
                if init is None:
                    raise pygame.error("the mixer stopped")
                sound = pygame.mixer.Sound(buffer=synthesize(cue, Format(*init)))
            except (pygame.error, ValueError, TypeError) as exc:
                log.info("no sound for %s: %s", cue.value, exc)
                self._mixer = False
                return None
            self._sounds[cue] = sound
        return sound
