"""Counter-offers in Catan and Cities & Knights as table talk (docs/rules/catan.md D24, docs/protocol.md
"Counter-offers in the chat"): the window driven headless by clicks. A person counters a bot's offer
and the bot makes the countered offer; a bot counters a person's offer and one click makes it, which
the bot accepts; a forged or malformed line is no button; proposals expire with the turn; the line
travels between two sessions over real sockets with the seat that said it. Screenshots of the counter
composer and the proposals at 1024x600, 1280x720 and 1920x1080 go to tests/artifacts/counter-*.png."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere
os.environ["SDL_AUDIODRIVER"] = "dummy"

import threading
import time
from pathlib import Path

import pytest
from support import catan_ck as ck
from support.catanhelpers import G, position, with_inner
from support.clickplay import _button, _click, drawn_texts, shots, table_at
from support.cpuclock import Budget

from bots.catan import SmartBot, counter_offer
from bots.counters import Proposal, Talk, counter_text, parse
from bots.offers import OfferMemory
from engines.catan.cards import RESOURCES
from engines.catan.state import Offer
from engines.catan_ck.cards import NAMES

#: seat 1 (a bot) one ore short of a city with bricks to spare; seat 0 (the person) holds ore
BOT_SHORT = dict(s0=dict(settlements=[12, 23], roads=[19, 26], hand="1brick+1lumber+1wool+1grain+2ore"),
                 s1=dict(settlements=[14, 28], roads=[21, 40], hand="3brick+2grain+2ore"),
                 s2=dict(settlements=[31, 42], roads=[46, 53], hand="1wool"))
#: the person (seat 0) to play, with bricks and ore; the bot (seat 1) one ore short of a city, wool to spare
PERSON_OFFERS = dict(s0=dict(settlements=[12, 23], roads=[19, 26], hand="3brick+1lumber+1wool+1grain+2ore"),
                     s1=dict(settlements=[14, 28], roads=[21, 40], hand="2wool+2grain+2ore"),
                     s2=dict(settlements=[31, 42], roads=[46, 53], hand="1wool"))


def _until(app, table, done, steps: int = 60) -> None:
    """Frames until `done()` (the bots move on a 1 ms delay)."""
    for _ in range(steps):
        if done():
            return
        app.step([], 16)
    assert done(), table.ctl.log[-4:]


def _compose(app, table, *tokens: str) -> None:
    for token in tokens:
        for pos in table.renderer.clicks(table.board_rect, table.ctl.view(), token):
            _click(app, pos)


def _offer_buttons(table) -> list[tuple[Proposal, str, object, object]]:
    view = table.ctl.view()
    return table.renderer._proposal_rects(table.renderer._layout(table.board_rect, view), view)


def test_a_person_counters_a_bots_offer_and_the_bot_makes_the_countered_offer() -> None:
    app, table = table_at(G, position(players=3, active=1, **BOT_SHORT), delay=1)
    ctl = table.ctl
    _until(app, table, lambda: "decline" in ctl.legal())
    assert ctl.view()["offer"]["give"] == "1brick" and ctl.view()["offer"]["get"] == "1ore"
    assert table.builder.candidates() == ["accept", "decline", "counter"]
    _click(app, table.renderer.token_pos(table.board_rect, ctl.view(), "counter"))   # the offer panel's button
    assert table.builder.tokens == ["counter"]
    _compose(app, table, "1ore")
    assert table.builder.tokens == ["counter", "1ore", "for"]
    shots(app, "counter-compose")
    _compose(app, table, "2brick")
    # the engine heard a decline; the table, a proposal from seat 0 in the engine's own offer text
    assert [s.value for s in ctl.referee.steps if s.seat == 0][-1:] == ["decline"]
    assert ctl.said == [(0, "counter-offer turn 1: offer 2brick for 1ore to 0")]
    _until(app, table, lambda: "accept" in ctl.legal())
    offer = ctl.view()["offer"]
    assert (offer["give"], offer["get"], offer["to"]) == ("2brick", "1ore", 0), ctl.log[-3:]
    _click(app, table.renderer.token_pos(table.board_rect, ctl.view(), "accept"))
    _until(app, table, lambda: "seat 1 trades with seat 0" in ctl.log)
    assert ctl.view()["hands"][0][:1] == [3] and ctl.view()["hands"][0][4] == 1   # 2 brick in, 1 ore out


def test_a_bot_counters_a_persons_offer_and_one_click_makes_it() -> None:
    app, table = table_at(G, position(players=3, active=0, **PERSON_OFFERS), delay=1)
    ctl = table.ctl
    _click(app, _button(table, "token:offer").center)
    _compose(app, table, "1brick", "1wool")
    _click(app, table.renderer._layout(table.board_rect, ctl.view()).seats[1].center)
    _until(app, table, lambda: ctl.view()["step"] == "main" and ctl.said)
    assert ctl.said == [(1, "counter-offer turn 1: offer 1brick+1ore for 1wool to 1")]   # one card more: its ore
    shown = _offer_buttons(table)
    assert [(p.seat, p.action, why) for p, why, _, _ in shown] == [(1, "offer 1brick+1ore for 1wool to 1", "")]
    texts = drawn_texts(app)
    assert "counter-offers to you" in texts and "offer this" in texts
    assert any("would give 1 wool" in t for t in texts), texts
    assert any(t.endswith("counter-offer)") for t in texts), texts   # the log's words for the line
    shots(app, "counter-proposal")
    _click(app, shown[0][2].center)   # "offer this": the engine's offer action, to the bot
    assert [s.value for s in ctl.referee.steps if s.seat == 0][-1] == "offer 1brick+1ore for 1wool to 1"
    _until(app, table, lambda: ctl.view()["step"] == "confirm")
    assert ctl.view()["offer"]["accepted"] == [1]   # the bot takes the offer it proposed
    assert not _offer_buttons(table)   # offered: the proposal is gone
    _click(app, table.renderer._layout(table.board_rect, ctl.view()).seats[1].center)
    assert ctl.view()["hands"][1][2] == 1 and ctl.view()["hands"][1][4] == 3


def test_a_forged_or_malformed_proposal_is_no_button_and_one_not_legal_says_why() -> None:
    app, table = table_at(G, position(players=3, active=0, **PERSON_OFFERS))
    ctl = table.ctl
    good = "counter-offer turn 1: offer 1brick for 1wool to 1"
    for seat, text in [(2, good),                                          # seat 2 says seat 1 would trade
                       (1, "counter-offer turn 0: offer 1brick for 1wool to 1"),        # another turn
                       (1, "counter-offer turn 1: offer 1ore+1brick for 1wool to 1"),   # not canonical
                       (1, "counter-offer turn 1: offer 1gold for 1wool to 1"),          # no such card
                       (1, "counter-offer turn 1: offer 1brick for 1brick to 1"),        # a type on both sides
                       (1, "counter-offer turn 1: offer 01brick for 1wool to 1"),        # a leading zero
                       (1, good + " please"), (1, " " + good), (1, good.replace("offer", "trade")),
                       (-1, good)]:                                         # a seat nobody knows
        ctl.said.append((seat, text))
        ctl.chat_lines.append(f"someone: {text}")
    app.step([], 16)
    assert _offer_buttons(table) == []
    assert all(parse(text, seat, RESOURCES) is None for seat, text in ctl.said if "turn 0" not in text)
    # well-formed, but seat 2 holds no brick to give: shown with the engine's reason, and no button
    ctl.said.append((2, "counter-offer turn 1: offer 1wool for 1brick to 2"))
    app.step([], 16)
    [(p, why, _, _)] = _offer_buttons(table)
    assert p.seat == 2 and why, why
    view = ctl.view()
    lay = table.renderer._layout(table.board_rect, view)
    assert ("tokens", tuple(p.action.split(" "))) not in lay.spots
    assert any(t.startswith("not now: ") for t in drawn_texts(app))
    # a good one is a button; "no" puts it away here
    ctl.said.append((1, good))
    app.step([], 16)
    shown = _offer_buttons(table)
    assert [p.seat for p, _, _, _ in shown][:1] == [1] and shown[0][1] == ""   # (seat 2's below it, if it fits)
    _click(app, shown[0][3].center)
    assert [p.seat for p, _, _, _ in _offer_buttons(table)] == [2]
    assert ctl.referee.steps == [] or all(s.seat != 0 for s in ctl.referee.steps)   # nothing was played


def test_proposals_expire_when_the_turn_ends() -> None:
    app, table = table_at(G, position(players=3, active=0, **PERSON_OFFERS))
    ctl = table.ctl
    ctl.said.append((1, "counter-offer turn 1: offer 1brick for 1wool to 1"))
    app.step([], 16)
    assert len(_offer_buttons(table)) == 1
    table._send("end")
    app.step([], 16)
    assert ctl.view()["turn"] == 2 and table.renderer._heard == {}
    # the same line again, late: for a turn gone by, never shown
    ctl.said.append((1, "counter-offer turn 1: offer 1brick for 1wool to 1"))
    app.step([], 16)
    assert table.renderer._heard == {}
    talk = Talk(RESOURCES)
    talk.hear(1, "counter-offer turn 1: offer 1brick for 1wool to 1")
    talk.begin(2)
    assert talk.proposals(1) == [] and talk.proposals(2) == []


def test_the_bots_counter_and_answer_rules() -> None:
    # one more card of what it lacks, or that card instead, within the offer's size; none it would not take
    need = (0, 0, 0, 2, 3)   # a city
    assert counter_offer((0, 0, 2, 2, 2), (3, 1, 1, 1, 2), (1, 0, 0, 0, 0), (0, 0, 1, 0, 0), need, [need], 4) == \
        ((1, 0, 0, 0, 1), (0, 0, 1, 0, 0))
    assert counter_offer((0, 0, 2, 2, 2), (3, 1, 1, 1, 0), (1, 0, 0, 0, 0), (0, 0, 1, 0, 0), need, [need], 4) is None
    # as the active player: a proposal once a turn per proposer, never a trade that player declined
    memory = OfferMemory()
    view = {"turn": 3, "step": "main", "active": 0, "offers_made": 0, "offer": None, "hands": [[1] * 5] * 3, "out": []}
    memory.observe(view, 0)
    text = "offer 1brick for 1ore to 1"
    give, get = (1, 0, 0, 0, 0), (0, 0, 0, 0, 1)
    assert memory.answer(view, 0, 1, give, get, text, {text}) == text
    later = dict(view, offers_made=1)
    assert memory.answer(later, 0, 1, give, get, text, {text}) is None            # once a turn per proposer
    assert memory.answer(later, 0, 2, give, get, "offer 1brick for 1ore to 2", set()) is None   # not legal
    # a bot accepts the offer it proposed, while it holds the cards
    bot = SmartBot()
    state = position(players=3, active=0, **PERSON_OFFERS)
    bot.talk.propose(1, 1, (1, 0, 0, 0, 1), (0, 0, 1, 0, 0))
    assert bot.said() == ["counter-offer turn 1: offer 1brick+1ore for 1wool to 1"]
    asked = with_inner(state, step="respond", queue=(1,), offers=1,
                       offer=Offer((1, 0, 0, 0, 1), (0, 0, 1, 0, 0), 1, (), ()))
    assert bot.choose(G, asked, 1, G.legal(asked, 1), None) == "accept"


def test_cities_and_knights_shares_the_counter_offers() -> None:
    """C&K's table and bots: 8 card types, offers of 3 cards at most."""
    game = ck.G
    state = ck.position(players=3, active=0,
                        s0=dict(settlements=[12], cities=[23], roads=[19, 26], hand="3brick+1wool+2ore+1paper"),
                        s1=dict(settlements=[14], cities=[28], roads=[21, 40], hand="2wool+2grain+2ore"),
                        s2=dict(settlements=[31], cities=[42], roads=[46, 53], hand="1wool"))
    app, table = table_at(game, state, delay=1)
    ctl = table.ctl
    assert table.renderer.offer_most == 3
    ctl.submit("offer 1brick for 1wool to 1")
    _until(app, table, lambda: ctl.view()["step"] == "main")
    said = [(s, t) for s, t in ctl.said if s == 1]
    assert said and parse(said[-1][1], 1, NAMES) is not None, ctl.said
    shown = _offer_buttons(table)
    assert len(shown) == 1 and not shown[0][1]
    proposal = shown[0][0]
    assert sum(proposal.give) + sum(proposal.get) <= 3
    shots(app, "counter-ck-proposal")
    _click(app, shown[0][2].center)
    _until(app, table, lambda: ctl.view()["step"] == "confirm")
    assert ctl.view()["offer"]["accepted"] == [1]


class _Saying:
    """A smart bot peer that says one line with its first choice, the way a bot says its counter-offer
    with a decline (the session sends what `said()` returns after each decision)."""

    def __init__(self, line: str) -> None:
        from bots.decider import BotDecider

        self.decider, self.line = BotDecider("smart"), line
        self._held: set[int] = set()
        self._lock = threading.Lock()

    def __getattr__(self, name: str):
        return getattr(self.decider, name)

    def said(self) -> list[str]:
        out, self.line = [self.line] if self.line else [], ""
        return out + self.decider.said()

    def hear(self, seat: int, text: str) -> None:
        self.decider.hear(seat, text)
        bot = self.decider.bot
        held = bot.talk.proposals(0) if bot is not None else []
        with self._lock:
            self._held |= {p.seat for p in held}

    def heard(self) -> list[int]:
        """The seats whose proposal (of turn 0: the set-up) the bot held once it heard it: kept here, since
        the bot itself drops a turn's talk at its first decision of a later turn (on a busy machine the
        game may be past the set-up before the test looks)."""
        with self._lock:
            return sorted(self._held)


def test_a_proposal_travels_between_two_sessions_with_the_seat_that_said_it(tmp_path: Path) -> None:
    """Over real sockets, a person hosting (seat 0), a bot joiner (seat 1) and a bot of the host machine (seat
    2): each bot's line, said with its choice, reaches the others with its own seat, and the person's line
    reaches both bots from seat 0; a joiner cannot say a line as a seat it does not hold."""
    from client.netcontroller import NetController
    from netplay.host import HostSession
    from netplay.identity import Identity
    from netplay.joiner import JoinSession
    from netplay.session import QueueDecider

    said = {seat: counter_text(0, seat, (1, 0, 0, 0, 0), (0, 0, 1, 0, 0), RESOURCES) for seat in (0, 1, 2)}
    person, joining, local = QueueDecider(), _Saying(said[1]), _Saying(said[2])
    host = HostSession(Identity.generate("host"), person, "catan", players=3, bind="127.0.0.1", fsync=False,
                       replay_dir=tmp_path / "h", also={2: ("local-bot", local)})
    ctl = NetController(host, person)
    joiner = JoinSession(Identity.generate("bert"), joining, host.address, replay_dir=tmp_path / "j", fsync=False)
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set() and joiner.outcome is None:
            joiner.step(20)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert ctl.wait(lambda: ctl.started, 60)
        ctl.chat(said[0])
        joiner.post(lambda: joiner.chat(counter_text(0, 0, (1, 0, 0, 0, 0), (0, 0, 1, 0, 0), RESOURCES), 0))
        budget = Budget(20)
        before: list[str] = []
        for _ in range(2):   # the person's first settlement and road: then the bots place theirs, and speak
            while (not ctl.legal() or ctl.legal() == before) and not budget.over():   # not the one just taken
                time.sleep(0.005)
            before = ctl.legal()
            ctl.submit(before[0])
        while not (joining.heard() == [0, 2] and local.heard() == [0, 1]) and not budget.over():
            time.sleep(0.01)
        assert joining.heard() == [0, 2] and local.heard() == [0, 1], (joining.heard(), local.heard(), ctl.said)
        assert (1, said[1]) in ctl.said and (2, said[2]) in ctl.said and (0, said[0]) in ctl.said
        # the joiner's line as seat 0, which it does not hold: the host said it came from seat 1, so it is none
        forged = [text for seat, text in ctl.said if seat == 1 and text.endswith("to 0")]
        assert forged and parse(forged[0], 1, RESOURCES) is None
    finally:
        ctl.leave()   # the host first: a joiner gone first would keep it waiting for its goodbye
        ctl.join(10)
        stop.set()
        thread.join(10)
        joiner.close()


@pytest.mark.parametrize("text", ["counter-offer turn 1: offer 1brick for 1wool to 1",
                                  "counter-offer turn 12: offer 2grain for 1wool+1ore to 3"])
def test_the_line_reads_back_as_said(text: str) -> None:
    sender = int(text.rsplit(" ", 1)[1])
    found = parse(text, sender, RESOURCES)
    assert found is not None
    assert counter_text(found.turn, found.seat, found.give, found.get, RESOURCES) == text
    assert found.action == text.split(": ", 1)[1]
    assert parse(text, sender + 1, RESOURCES) is None
