"""A game view as plain text. Three forms: `board(view)`, a compact board per game (a dozen lines: what a
player reads at every prompt, what `netplay watch`, `replay step` and `replay show` print),
`board_map(view)`, the island of Catan and Cities & Knights drawn in text (client/textmap.py: hexes
with resource, number and robber, harbours, every piece by owner, the node numbers a player types),
and `render(view)`, the whole view as an indented outline (on request only: `state` in the terminal,
`replay show --full`). No pygame here, so text commands start fast.

The compact boards only lay out what `view()` says; they decide no rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client import textmap
from client.points import own_points, shown_points
from engines.core import HIDDEN

SKIP = frozenset({"board"})  # static board geometry (the Kidd deck graph): for renderers, noise in text
# keys every view carries (engines.game.Game.view): shown once by `_footer`, never by a game's board
_COMMON = ("game", "seat", "awaiting", "out", "draw_offer", "result", "rematch")


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


# ------------------------------------------------------------------------------------------ boards

def board(view: dict, names: list[str] | None = None, indent: int = 0, me: int | None = None,
          width: int | None = None) -> str:
    """The compact board of a view: the game's own layout where one exists, else the short facts.
    `me` marks the reader's own seat ("= you"); a replay or a spectator has none. With `width`, a
    longer line goes on under itself, indented, broken after a `;` or `,` (a terminal's columns)."""
    if not view:
        return ""
    draw = _BOARDS.get(str(view.get("game", "")), _generic)
    view = dict(view, _me=me)
    try:
        lines = draw(view, names or [])
    except (KeyError, IndexError, TypeError, ValueError):  # a view of an older or newer shape
        lines = _generic(view, names or [])
    lines += _footer(view, names or [])
    pad = "  " * indent
    if width is not None:
        lines = [part for line in lines for part in fold(line, width - len(pad))]
    return "\n".join(pad + line for line in lines)


def board_map(view: dict) -> list[str]:
    """The board drawn as a map, for the games that have one (Catan, Cities & Knights); else []."""
    if str(view.get("game", "")) not in ("catan", "catan-ck") or not view.get("hexes"):
        return []
    try:
        return textmap.island(view)
    except (KeyError, IndexError, TypeError, ValueError):  # a view of an older or newer shape
        return []


def fold(line: str, width: int, hang: str = "    ") -> list[str]:
    """`line` in pieces of at most `width` columns, broken after "; " or ", " (else after a space), the
    pieces after the first indented by `hang`."""
    out: list[str] = []
    while len(line) > width > len(hang) + 10:
        cut = max(line.rfind("; ", 0, width - 1), line.rfind(", ", 0, width - 1))
        if cut < width // 2:   # no mark late enough in the line: after the last space
            cut = line.rfind(" ", 0, width)
        if cut <= len(hang):
            break
        out.append(line[:cut + 1].rstrip())
        line = hang + line[cut + 1:].lstrip()
    return out + [line]


def chance_words(chance, value: Any) -> str:
    """A chance outcome in words: "die 1-3: 2", "private draw for seat 1: hidden"."""
    name = chance.label or {"dice": "roll", "pick": "draw", "deal": "card"}.get(chance.kind, chance.kind)
    if chance.kind == "pick" and name == "card stolen" and type(value) is int and chance.n:
        # the pick is a place in the robbed hand, not a card: "card stolen 3" read like a card named 3
        return f"a card taken at random from the robbed hand (card {value + 1} of {chance.n})"
    if isinstance(value, (tuple, list)):
        shown = ", ".join(str(v) for v in value)
    elif value is None or value is HIDDEN:
        shown = "hidden"
    else:
        shown = str(value)
    if chance.private_to is not None and f"seat {chance.private_to}" not in name:
        name += f" (seen by seat {chance.private_to} only)"
    return f"{name}: {shown}"


def counted(n: int | None, one: str, many: str | None = None) -> str:
    """`1 point`, `2 points`, `1 city`, `0 cities`: a count with its noun in the number it needs (issue 34, item 9:
    the board said "1 points", "1 settlements")."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def _points(view: dict, seat: int) -> str:
    """`11 points`, with the seat's own total beside it in its own view (`8 points (10 with your cards)`)."""
    shown, own = shown_points(view, seat), own_points(view, seat)
    return counted(shown, "point") + (f" ({own} with your cards)" if own is not None and own != shown else "")


def seat_name(seat: int | None, names: list[str], view: dict | None = None) -> str:
    """`seat 1 (ann)`; the viewer's own seat says so."""
    if seat is None:
        return "-"
    name = names[seat] if 0 <= seat < len(names) else ""
    mine = view is not None and view.get("_me") is not None and view.get("_me") == seat
    text = f"seat {seat}" + (f" ({name})" if name else "")
    return text + (" = you" if mine else "")


def _footer(view: dict, names: list[str]) -> list[str]:
    lines = []
    if view.get("out"):
        lines.append("out of the game: " + ", ".join(seat_name(s, names) for s in view["out"]))
    offer = view.get("draw_offer")
    if offer is not None:
        lines.append(f"draw offered by {seat_name(offer, names)}")
    return lines


def _generic(view: dict, names: list[str]) -> list[str]:
    """Every short top-level fact of a view (numbers, words, short lists); nested detail stays for `state`."""
    lines = []
    for key, value in view.items():
        if key in SKIP or key in _COMMON or key.startswith("_"):
            continue
        text = _short(value)
        if len(text) <= 70:
            lines.append(f"{key}: {text}")
    return lines


def _kidd(view: dict, names: list[str]) -> list[str]:
    """Capt'n Kidd decks: supply and score per seat, then each occupied field with its stones bottom
    to top (the top one moves the stack)."""
    label = view.get("score_label", "score")
    lines = []
    for seat, supply in enumerate(view["supply"]):
        turn = "  <- to move" if view.get("to_move") == seat and view.get("result") is None else ""
        lines.append(f"{seat_name(seat, names, view)}: supply {supply}, {label} {view['scores'][seat]}{turn}")
    if view.get("die") is not None:
        lines.append(f"die: {view['die']}")
    occupied = [f"{f['field']}:{'/'.join(str(s) for s in f['stones'])}" for f in view["fields"] if f["stones"]]
    lines.append("fields (stones by seat, bottom/.../top): " + ("  ".join(occupied) or "all empty"))
    return lines


def _ploc(view: dict, names: list[str]) -> list[str]:
    colours = view.get("colours", [])
    lines = [f"match {view['match']}, {view['phase']}" + (
        f", turn of {seat_name(view['turn_of'], names, view)}" if view.get("turn_of") is not None else "")
        + f", rerolls left {view.get('rerolls_left', 0)}"]
    for seat, column in enumerate(view["columns"]):
        dice = " ".join(f"{d['value']}{'*' if d['used'] else ''}" for d in column)
        colour = colours[seat] if seat < len(colours) else f"seat {seat}"
        lines.append(f"{colour:7} {seat_name(seat, names, view)}: {view['healthy'][seat]} healthy, "
                     f"{view['weakened'][seat]} weakened, matches won {view['matches_won'][seat]}; column {dice}")
    rolled = view.get("rolled") or []
    if rolled:
        lines.append("free dice: " + "  ".join(
            f"{d['die']}:{d['value'] if d['value'] is not None else '?'}{'*' if d['used'] else ''}" for d in rolled)
            + "   (* used)")
    return lines


def _ebbeflut(view: dict, names: list[str]) -> list[str]:
    """The 5x5 field with the top card of every pile (`E:7` Ebbe's 7, `..` empty), then each colour."""
    size = view["size"]
    grid = [["  .  "] * size for _ in range(size)]
    for cell in view["cells"]:
        top = cell["top"]
        if top is not None:
            mark = (top["colour"][0].upper() + ":" + str(top["face"])) if top.get("face") else "#"
            height = f"{cell['height']}" if cell["height"] > 1 else " "
            grid[cell["row"] - 1][cell["col"] - 1] = f"{mark:>4}{height}"
    lines = ["     " + "".join(f"  c{c + 1} " for c in range(size))]
    lines += [f"r{r + 1}   " + " ".join(row) for r, row in enumerate(grid)]
    for colour in view["colours"]:
        seat = colour["seat"]
        held = view["held"][seat] if seat < len(view["held"]) else None
        lines.append(f"{colour['name']} ({seat_name(seat, names, view)}): home {colour['score']}, "
                     f"stacks {view['stacks'][seat] if seat < len(view['stacks']) else '-'}"
                     + (f", holds {held}" if held else ""))
    lines.append(f"phase: {view['phase']}" + (f", to move: {view['to_move']}" if view.get("to_move") is not None
                                              else ""))
    return lines


def _tides(view: dict, names: list[str]) -> list[str]:
    """Round and turn, then per seat: crew, hold, skulls and the cards this viewer may see."""
    lines = [f"round {view['round']}/{view['round_limit']}, turn {view['turn']}, phase {view['phase']}"]
    for seat, ship in enumerate(view["ships"]):
        zones = ship["zones"]
        crew = []
        for z in zones:
            units = ("C" if z.get("captain") else "") + ("s" * z.get("sailors", 0)) + "".join(
                "c" for _ in z.get("cannons", []))
            if z.get("destroyed"):
                units = "x"
            crew.append(f"{z['zone']}:{units or '.'}")
        cards = view["cards"][seat]
        hand = cards.get("hand")
        hand_text = ", ".join(hand) if hand is not None else f"{cards.get('hand_count', 0)} hidden"
        lines.append(f"{seat_name(seat, names, view)}: ship " + " ".join(crew))
        lines.append(f"    hand: {hand_text}; deck {cards.get('deck_count', 0)}, discard "
                     f"{len(cards.get('discard', []))}, damage {cards.get('damage_count', 0)}")
    picks = view.get("revealed") or []
    if any(p is not None for p in picks):
        lines.append("revealed: " + ", ".join(f"{seat_name(s, names)} {p}" for s, p in enumerate(picks) if p))
    lines.append("(C captain, s sailor, c cannon, x destroyed)")
    return lines


_RESOURCES = ("brick", "lumber", "wool", "grain", "ore")  # the spec's canonical order, the view's counts


def _catan(view: dict, names: list[str]) -> list[str]:
    """The step and dice, then one line per seat: points, cards in hand, pieces on the board, roads,
    development cards; the bank, the offer on the table and the awards. The board's geometry is the
    graphical table's (or `state`)."""
    dice = view.get("dice")
    lines = [f"round {view.get('round')}, turn {view.get('turn')}, {view.get('step')}"
             + (f", dice {dice[0]}+{dice[1]}={sum(dice)}" if dice else "") + f", robber on hex {view.get('robber')}"]
    buildings: dict[int, list[int]] = {}
    for seat, kind in view.get("nodes", {}).values():
        buildings.setdefault(seat, [0, 0])[kind == "city"] += 1
    roads: dict[int, int] = {}
    for seat in view.get("roads", {}).values():
        roads[seat] = roads.get(seat, 0) + 1
    for seat, hand in enumerate(view.get("hands", [])):
        dev = view.get("dev", [{}] * (seat + 1))[seat]
        own = dev.get("cards")
        cards = (", ".join(f"{n} {r}" for n, r in zip(hand, _RESOURCES, strict=False) if n) or "no cards") \
            if isinstance(hand, list) else counted(hand, "card")
        settlements, cities = buildings.get(seat, [0, 0])
        knights = dev.get("knights_played")
        lines.append(f"{seat_name(seat, names, view)}: {_points(view, seat)}; {cards}; "
                     f"{counted(settlements, 'settlement')}, {counted(cities, 'city', 'cities')}, "
                     f"{counted(roads.get(seat, 0), 'road')}; development "
                     + (", ".join(own) if own else counted(dev.get("count", 0), "card"))
                     + (f", {counted(knights, 'knight')} played" if knights else ""))
    bank = view.get("bank") or []
    lines.append("bank: " + ", ".join(f"{n} {r}" for n, r in zip(bank, _RESOURCES, strict=False))
                 + f"; development deck {view.get('deck')}")
    offer = view.get("offer")
    if offer:
        lines.append(f"offer by {seat_name(view.get('active'), names, view)}: give {offer['give']} for {offer['get']}")
    road, army = view.get("longest_road") or {}, view.get("largest_army")
    lines.append(f"longest road: {seat_name(road['holder'], names, view) if road.get('holder') is not None else '-'}"
                 f"; largest army: {seat_name(army, names, view) if army is not None else '-'}")
    return lines


_CK_NAMES = _RESOURCES + ("cloth", "coin", "paper")  # Cities & Knights: the commodities after the resources
_CK_TRACKS = ("trade", "politics", "science")
_EVENT = {1: "ship", 2: "ship", 3: "ship", 4: "trade gate", 5: "politics gate", 6: "science gate"}
_KNIGHT = {1: "basic", 2: "strong", 3: "mighty"}


def _counts(counts: list[int], names: tuple[str, ...], short: bool = False) -> str:
    """`2 brick, 1 cloth` (or `2br 1cl` when a line would be too long); "none" for an empty hand."""
    if short:
        return " ".join(f"{n}{name[:2]}" for n, name in zip(counts, names, strict=False) if n) or "none"
    return ", ".join(f"{n} {name}" for n, name in zip(counts, names, strict=False) if n) or "no cards"


def _catan_ck(view: dict, names: list[str]) -> list[str]:
    """Cities & Knights: the step, the three dice, the barbarians and the merchant; two lines per seat
    (points, cards in hand, progress cards; buildings, walls, metropolises, knights, improvement levels,
    Defender points); the bank with the progress decks; the offer; Longest Road."""
    dice = view.get("dice")
    roll = ""
    if dice:
        roll = f", dice red {dice[0]} + white {dice[1]} = {dice[0] + dice[1]}" + (
            f", event {_EVENT.get(dice[2], '?')}" if len(dice) > 2 else "")
    out = set(view.get("out", []))
    cities = sum(1 for seat, kind in view["nodes"].values() if kind == "city" and seat not in out)
    strength = sum(k[1] for k in view["knights"].values() if k[2] and k[0] not in out)
    merchant = view.get("merchant")
    lines = [f"round {view.get('round')}, turn {view.get('turn')}, {view.get('step')}{roll}",
             f"barbarian ship {view['ship']}/7: {cities} cities vs {strength} active knights"
             + ("" if view.get("first_attack_done") else " (robber locked until the first attack)")
             + f"; robber on hex {view.get('robber')}"
             + (f"; merchant on hex {merchant[0]} ({seat_name(merchant[1], names)})" if merchant else "")]
    metros = {m[1]: track for track, m in view["metropolises"].items() if m}
    for seat, hand in enumerate(view["hands"]):
        progress = view["progress"][seat]
        own = progress.get("cards")
        held = (", ".join(own) if own is not None else ", ".join(progress["known"] + [
            f"{k} {deck}" for deck, k in progress["undisclosed"].items() if k])) or "none"
        head = f"{seat_name(seat, names, view)}: {_points(view, seat)}; "
        tail = f"; progress: {held}" + (f"; shown: {'+'.join(view['revealed_vp'][seat])}"
                                        if view["revealed_vp"][seat] else "")
        line = head + _counts(hand, _CK_NAMES) + tail
        if len(line) > 108:
            line = head + _counts(hand, _CK_NAMES, short=True) + tail
        lines.append(line[:108])
        built = [f"{kind} {n}" + (" (wall)" if n in view["walls"] else "") + (
            f" ({metros[int(n)]} metropolis)" if int(n) in metros else "") + (" (reduced)" if n in view["reduced"]
                                                                               else "")
                 for n, (owner, kind) in view["nodes"].items() if owner == seat]
        knights = [f"{_KNIGHT[k[1]]}{'*' if k[2] else ''} {n}" for n, k in view["knights"].items() if k[0] == seat]
        levels = " ".join(f"{t[0].upper()}{view['levels'][seat][t]}" for t in _CK_TRACKS)
        detail = (f"    levels {levels}; " + (", ".join(built) or "nothing built")
                  + ("; knights " + ", ".join(knights) if knights else "")
                  + (f"; defender {view['defender_points'][seat]}" if view["defender_points"][seat] else ""))
        if len(detail) > 108:  # many pieces: the counts instead of the places
            walls = sum(1 for o in view["walls"].values() if o == seat)
            detail = (f"    levels {levels}; {counted(len(built), 'building')}, {counted(walls, 'wall')}, "
                      f"{counted(len(knights), 'knight')} "
                      f"({sum(1 for k in knights if '*' in k)} active)"
                      + (f"; defender {view['defender_points'][seat]}" if view["defender_points"][seat] else ""))
        lines.append(detail)
    pools = ", ".join(f"{deck} {p['size']}" for deck, p in view["pools"].items())
    lines.append(f"bank: {_counts(view['bank'], _CK_NAMES, short=True)}; progress decks {pools}")
    offer = view.get("offer")
    if offer:
        lines.append(f"offer by {seat_name(view.get('active'), names, view)}: give {offer['give']} for {offer['get']}")
    road = view.get("longest_road") or {}
    lines.append(f"longest road: {seat_name(road['holder'], names, view) if road.get('holder') is not None else '-'}"
                 "   (* active knight; levels T trade, P politics, S science)")
    return lines


_BOARDS: dict[str, Callable[[dict, list[str]], list[str]]] = {
    "catan": _catan, "catan-ck": _catan_ck,
    "loyal-captain": _kidd, "madagaskar": _kidd, "quedah-merchant": _kidd,
    "ploc": _ploc, "ebbe-flut": _ebbeflut, "ebbe-flut-solo": _ebbeflut, "turning-tides": _tides,
}
