"""The terminal interface: the board as text, the legal actions numbered, an action typed or chosen
by number. It drives any `Controller` (local or networked), reading lines from a stream so it
also works from a pipe (tests, scripted matches)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from client.controller import Controller
from client.textview import render

HELP = "type an action (or its number), 'help', 'board', 'say TEXT' to chat, or 'quit'"


def play(ctl: Controller, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout,
         poll_s: float = 0.05, max_seconds: float = 24 * 3600) -> None:
    """Run until the game is over (or input ends / 'quit')."""
    shown_log = 0
    shown_board = None
    deadline = time.monotonic() + max_seconds
    print(f"{ctl.game.title}: you are seat {ctl.seat}. {HELP}", file=out)
    while time.monotonic() < deadline:
        ctl.poll(int(time.monotonic() * 1000))
        for line in ctl.log[shown_log:]:
            print(f"  {line}", file=out)
        shown_log = len(ctl.log)
        if ctl.result() is not None:
            result = ctl.result()
            print(render(ctl.view()), file=out)
            print(f"game over: {result.describe()}", file=out)
            path = getattr(ctl, "replay_path", None)
            if path:
                print(f"replay saved: {path}", file=out)
            return
        legal = ctl.legal()
        if not legal:
            status = ctl.status()
            if status != shown_board:
                print(f"[{status}]", file=out)
                shown_board = status
            time.sleep(poll_s)
            continue
        print(render(ctl.view()), file=out)
        for i, action in enumerate(legal, 1):
            print(f"  {i:3}. {action}", file=out)
        print(f"[{ctl.status()}] > ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            print("\ninput ended; leaving the table", file=out)
            return
        text = line.strip()
        if text in ("quit", "exit"):
            return
        if text in ("help", "?"):
            print(HELP, file=out)
            continue
        if text.startswith("say "):
            ctl.chat(text[4:])
            continue
        if text.isdigit() and 1 <= int(text) <= len(legal):
            text = legal[int(text) - 1]
        if text not in legal:
            print(f"not a legal action here: {text!r}", file=out)
            continue
        try:
            ctl.submit(text)
        except Exception as exc:  # refused by the engine or the session: say why and go on
            print(f"refused: {exc}", file=out)
        shown_board = None
