"""The end of a game in words, the same in the terminal, the table's end screen and the replay viewer:
who won and why ("Anna won by resignation", "You win: Anna did not send her move in time and
forfeits"), never raw scores alone, and never a draw for a game that was abandoned or forfeited.
No pygame here."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import Result

# engine result reasons -> words (an engine's own reason reads as it is when it is not listed)
_REASONS = {
    "resign": "by resignation",
    "draw-agreed": "by agreement",
    "repetition": "by repetition",
}


@dataclass(frozen=True, slots=True)
class Ending:
    headline: str          # "You won", "Anna won", "Draw", "Game abandoned", "Dispute"
    detail: str            # why, in words
    mood: str              # "good" | "bad" | "neutral": the colour a front end gives it
    rematch_open: bool = False


def who(seat: int, names: list[str] | None, me: int | None = None) -> str:
    """A seat by its player's name (the header's), `you` for the viewer's own seat."""
    if me is not None and seat == me:
        return "you"
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"seat {seat}"


def reason_words(reason: str) -> str:
    return _REASONS.get(reason, f"({reason})" if reason else "")


def won_words(result: Result) -> str:
    """Why the winners won: the engine's reason, except that a victory on points says the points the
    winner reached, from the same scores shown beside it ("with 11 victory points (10 to win)")."""
    points = result.points_won()
    if points is not None:
        return f"with {points[0]} victory points ({points[1]} to win)"
    return reason_words(result.reason)


def scores_words(result: Result, names: list[str] | None, me: int | None = None) -> str:
    if not result.scores:
        return ""
    return "score " + ", ".join(f"{who(s, names, me)} {v}" for s, v in enumerate(result.scores))


def from_result(result: Result, me: int | None, names: list[str] | None, rematch_open: bool = False) -> Ending:
    """The engine's result, from the point of view of seat `me` (None: a spectator or a replay)."""
    scores = scores_words(result, names, me)
    if not result.winners:
        detail = "draw " + reason_words(result.reason)
        return Ending("Draw", _join(detail.strip(), scores), "neutral", rematch_open)
    winners = " and ".join(who(w, names, me) for w in result.winners)
    detail = _join(f"{winners} won {won_words(result)}".strip(), scores)
    if me is None:
        return Ending(f"{_cap(winners)} won", detail, "neutral", rematch_open)
    if me in result.winners:
        return Ending("You won", detail, "good", rematch_open)
    return Ending("You lost", detail, "bad", rematch_open)


def from_game_end(end, me: int | None, names: list[str] | None) -> Ending:
    """A session's `GameEnd` (netplay.session): a result, a forfeit, an abandoned game or a dispute."""
    if end.kind == "result" and end.result is not None:
        return from_result(end.result, me, names, end.rematch_open)
    if end.kind == "forfeit":
        if me is not None and me == end.blamed:
            return Ending("You lost", f"forfeit: {end.reason}", "bad")
        if me is not None and me in end.winners:
            return Ending("You won", f"forfeit: {end.reason}", "good")
        winners = " and ".join(who(w, names, me) for w in end.winners)
        return Ending(f"{_cap(winners)} won", f"forfeit: {end.reason}", "neutral")
    if end.kind == "dispute":
        return Ending("Dispute", end.reason, "bad")
    if end.kind == "contested":
        return Ending("Contested", f"{end.reason}.", "neutral")
    return Ending("Game abandoned", f"{end.reason}. Not a result: nobody won or lost.", "neutral")


def line(ending: Ending) -> str:
    """One line for a terminal or a log."""
    if not ending.detail:
        return ending.headline
    if ending.detail.lower().startswith(ending.headline.lower()):
        return _cap(ending.detail)  # "Ann won (zones); score ..." says it once
    return f"{ending.headline}: {ending.detail}"


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class RematchState:
    """A rematch after a game, for an end screen that must not contradict the log: whether a vote can
    still be cast, whether this screen has voted, who of the others wants one, how long the offer stays
    open by the session's own clock (None: no bound, as against the bots of this window), and, when none
    can come, why (in words: "Anna left: no rematch", "the rematch offer expired after 120 s")."""

    open: bool
    asked: bool = False
    wanted_by: tuple[str, ...] = ()
    closed: str = ""
    left_s: float | None = None


EXPIRED = "the rematch offer expired"
# the session's words when nobody agreed in time: the host's own ("no rematch agreed within 120 s", also in
# its `bye`) and a joiner's bound on its wait ("no rematch within 125 s", netplay/protocol/waits.py)
_TIMED_OUT = re.compile(r"no rematch (?:agreed )?within (\d+(?:\.\d+)?) s")


def expired_words(message: str) -> str | None:
    """The line an end screen shows for a session that stopped because its rematch offer timed out
    ("the rematch offer expired after 120 s"), None for any other end: the person
    must be told that the offer ran out, not be left to wonder why the button went grey."""
    found = _TIMED_OUT.search(message)
    return None if found is None else f"{EXPIRED} after {found.group(1)} s"


def left_words(left_s: float) -> str:
    """"rematch offer open: 1:45 left", whole seconds rounded down (as the seats' clocks count)."""
    minutes, seconds = divmod(max(0, int(left_s)), 60)
    return f"rematch offer open: {minutes}:{seconds:02} left"


def rematch_words(state: RematchState, asked: bool = False) -> tuple[str, str]:
    """(a line for the end screen, the rematch button's caption), in agreement with the log: how long the
    offer is still open, who wants one, whether this screen asked, and why none can come when none can."""
    others = " and ".join(state.wanted_by)
    wants = f"{others} {'want' if len(state.wanted_by) > 1 else 'wants'} a rematch" if others else ""
    if not state.open:
        why = state.closed or "the session is over"
        why = why if why.lower().startswith(("no rematch", EXPIRED)) else f"no rematch: {why}"
        return (f"{why} ({others} wanted one)" if others else why), "no rematch"
    if state.asked or asked:
        said, caption = (f"you and {others} want a rematch: waiting for the others" if others
                         else "you asked for a rematch: waiting for the others"), "rematch asked..."
    elif others:
        said, caption = wants, "accept rematch"
    else:
        said, caption = "a rematch? nobody has asked yet", "rematch"
    return (f"{left_words(state.left_s)}; {said}" if state.left_s is not None else said), caption
