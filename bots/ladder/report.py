"""A ladder run as figures (`summary`: the JSON file's content) and as tables (text and Markdown).

Both tables are drawn from the summary alone, so the printed table, the Markdown file and the JSON
file cannot disagree. Times are in milliseconds per decision; "seeds" is the range of deal seeds a
cell played (each deal once per seat), which is all it takes to play the cell again.
"""

from __future__ import annotations

import math
from typing import Any

import engines
from bots.ladder.run import LadderRun
from bots.ladder.stats import Z95, elo_of_score, fit_ratings, mean_interval, quantile, wilson

__all__ = ["markdown", "summary", "text"]


def summary(run: LadderRun) -> dict[str, Any]:
    """Everything a run measured, in JSON-friendly values (an infinite Elo is None)."""
    game = engines.get(run.game_id)
    cells = []
    for tally in run.tallies.values():
        cell = tally.cell
        n = tally.games
        low, high = wilson(tally.wins, n)
        row: dict[str, Any] = {
            "cell": cell.key, "subject": cell.subject, "opponent": cell.opponent, "games": n,
            "wins": tally.wins, "draws": tally.draws, "losses": n - tally.wins - tally.draws,
            "win_rate": tally.wins / n if n else None, "win_rate_95": [low, high],
            "win_share": tally.win_share if n else None,
            "mean_score": sum(tally.subject_scores) / n if n else None,
            "opponent_mean_score": tally.opponent_score_sum / n if n and cell.opponent else None,
            "decision_ms": {name: {"decisions": len(spent), "p50": 1000 * quantile(spent, 0.5),
                                   "p95": 1000 * quantile(spent, 0.95)}
                            for name, spent in sorted(tally.times.items())},
            "seeds": list(tally.seed_range) if tally.seed_range else None,
            "actions_per_game": tally.actions / n if n else None,
        }
        if cell.players == 1:
            mean, m_low, m_high = mean_interval(tally.subject_scores)
            row["mean_score_95"] = [m_low, m_high]
        else:
            share_low, share_high = wilson(tally.shares, n)
            row["elo_diff"] = _finite(elo_of_score(tally.win_share)) if n and cell.players == 2 else None
            row["elo_diff_95"] = [_finite(elo_of_score(share_low)), _finite(elo_of_score(share_high))] \
                if n and cell.players == 2 else None
        cells.append(row)
    out: dict[str, Any] = {
        "game": run.game_id, "title": game.title, "players": run.players, "options": run.options,
        "base_seed": run.base_seed, "deals_planned": run.deals, "games_planned": run.planned,
        "games_played": run.played, "workers": run.workers, "seconds": round(run.seconds, 1),
        "interrupted": run.interrupted, "failure": run.failure.describe() if run.failure else None,
        "parity": 1 / run.players, "cells": cells, "ratings": _ratings(run),
    }
    if run.sprt is not None:
        sprt = run.sprt
        out["sprt"] = {"p0": sprt.p0, "p1": sprt.p1, "alpha": sprt.alpha, "beta": sprt.beta, "llr": sprt.llr,
                       "bounds": list(sprt.bounds), "games": sprt.games, "decision": sprt.decision.value}
    return out


def _finite(x: float) -> float | None:
    return None if math.isinf(x) else x


def _ratings(run: LadderRun) -> dict[str, Any] | None:
    """The one rating fit over every cell: Bradley-Terry (Elo) at two seats, Plackett-Luce at more."""
    if run.players == 1:
        return None
    stages = [s for t in run.tallies.values() for s in t.stages]
    if not stages:
        return None
    anchor = run.anchor
    model = "Elo (Bradley-Terry fit)" if run.players == 2 else "Plackett-Luce fit on the Elo scale"
    fitted = fit_ratings(stages, anchor)
    return {"model": model, "anchor": anchor, "source": "finishing order: winners, then the others by score",
            "ratings": {name: round(value, 1) for name, value in sorted(fitted.items(), key=lambda kv: kv[1])}}


# ------------------------------------------------------------------------------------------------ tables

def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _elo(x: float | None, low: bool = False) -> str:
    if x is None:
        return "-inf" if low else "+inf"
    return f"{x:+.0f}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _rows(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    solo = data["players"] == 1
    if solo:
        head = ["bot", "games", "mean score", "95 % CI", "wins", "win %", "95 % CI", "ms/decision p50/p95", "seeds"]
    else:
        head = ["cell", "games", "wins", "draws", "win %", "95 % CI", "mean score", "Elo diff [95 %]",
                "ms/decision p50/p95", "seeds"]
    rows = []
    for c in data["cells"]:
        seeds = "-" if c["seeds"] is None else f"{c['seeds'][0]}-{c['seeds'][1]}"
        times = ", ".join(f"{name} {t['p50']:.1f}/{t['p95']:.1f}" for name, t in c["decision_ms"].items())
        ci = f"{_pct(c['win_rate_95'][0])}-{_pct(c['win_rate_95'][1])}"
        if solo:
            low, high = c["mean_score_95"]
            rows.append([c["cell"], str(c["games"]), _num(c["mean_score"]), f"{low:.2f}-{high:.2f}", str(c["wins"]),
                         _pct(c["win_rate"]), ci, times, seeds])
            continue
        score = f"{_num(c['mean_score'])} : {_num(c['opponent_mean_score'])}"
        if c["elo_diff_95"] is None:
            elo = "-"
        else:
            elo = f"{_elo(c['elo_diff'], c['win_share'] is not None and c['win_share'] < 0.5)} " \
                  f"[{_elo(c['elo_diff_95'][0], True)}, {_elo(c['elo_diff_95'][1])}]"
        rows.append([c["cell"], str(c["games"]), str(c["wins"]), str(c["draws"]), _pct(c["win_rate"]), ci, score,
                     elo, times, seeds])
    return head, rows


def _heading(data: dict[str, Any]) -> str:
    seats = "solo" if data["players"] == 1 else f"{data['players']} seats"
    options = "".join(f", {k}={v}" for k, v in sorted(data["options"].items()))
    state = " (interrupted)" if data["interrupted"] else ""
    state += " (stopped by a failure)" if data["failure"] else ""
    return (f"{data['title']} ({data['game']}), {seats}{options}: {data['games_played']} of "
            f"{data['games_planned']} games{state}, base seed {data['base_seed']}, {data['workers']} "
            f"worker{'s' if data['workers'] != 1 else ''}, {data['seconds']:.1f} s")


def _notes(data: dict[str, Any]) -> list[str]:
    lines = []
    if data["players"] > 1:
        lines.append(f"win %: games the first-named bot won alone (parity {_pct(data['parity'])} %); 95 % CI: "
                     f"Wilson (z = {Z95:.2f}); mean score: its final score : its opponents'")
    ratings = data["ratings"]
    if ratings is not None:
        listed = ", ".join(f"{name} {value:+.0f}" for name, value in ratings["ratings"].items())
        lines.append(f"ratings, {ratings['model']}, {ratings['anchor']} = 0: {listed}")
    sprt = data.get("sprt")
    if sprt is not None:
        lines.append(f"SPRT (H0 p = {sprt['p0']:.3f}, H1 p = {sprt['p1']:.3f}, alpha = {sprt['alpha']}, beta = "
                     f"{sprt['beta']}): {sprt['decision']} after {sprt['games']} games, LLR {sprt['llr']:+.2f} "
                     f"(bounds {sprt['bounds'][0]:+.2f}, {sprt['bounds'][1]:+.2f})")
    return lines


def text(data: dict[str, Any]) -> str:
    """The table for a terminal: columns padded to their widest cell."""
    head, rows = _rows(data)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [_heading(data), "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return "\n".join(lines + _notes(data)) + "\n"


def markdown(data: dict[str, Any]) -> str:
    """The same table as a Markdown page (`ladder-<game>.md`)."""
    head, rows = _rows(data)
    lines = [f"## {data['title']}", "", _heading(data), "", "| " + " | ".join(head) + " |",
             "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += ["", *(f"- {n}" for n in _notes(data))]
    return "\n".join(lines) + "\n"
