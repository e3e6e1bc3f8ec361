"""What the tests share, imported as `from support.X import ...` (pytest puts tests/ on the path; the
scripts below put the repository root and tests/ there themselves). No test module imports another
test module: whatever two of them need lives here (tests/test_suite_layout.py checks it).

Helpers imported by the tests:

- attack_table: the table of attacks and their outcomes, the source of docs/security.md's table
  (`python tests/support/attack_table.py --write` rewrites it)
- catan_ck: Cities & Knights positions on top of catanhelpers' (progress hands, improvements), and a
  referee driver with an eager bot that plays the C&K actions far more often than a random bot
- catanhelpers: Catan positions built on the inner state, hands in the spec's notation, knowledge states
- clickplay: playing the Pygame table by synthetic clicks; screenshots that check every text fits its box
- cpuclock: clocks a pass/fail test may bound (CPU time, blocked time, a whole wait's CPU seconds)
- deckgame: Toy Deck, the test-only card game of the shared secret deck, and `Drawer`, its bot that
  draws whenever it can
- fuzzcounts: how many inputs a fuzz module ran, printed and kept in tests/artifacts/
- layoutkit: every scene and every game's table built at a window size, one frame of it measured
  (font sizes, texts cut with an ellipsis, texts out of their boxes) for the layout tests
- ledgerkit: Toy Cards (`CardsGame`: private draws, simultaneous choices, secrets kept to the end),
  the cheat's engine and bot, frames forged with a seat's key, stepping a signed match to a point
- nethelpers: a transport (or discovery, flood, idle, lobby) peer in a child process; throw-away
  network namespaces joined by a veth pair
- quick: options that keep long games short in the quick run (`NETPLAY_LONG=1`: whole games)
- sessionhelpers: `netplay host/join`, session_peer.py and game_peer.py in child processes, every wait
  bounded and every process killed at the end
- spybot: a Cities & Knights bot that plays the spy whenever it may
- terminalhelpers: driving a terminal table as a person does
- tideskit: Turning Tides ships, each seat's cards, whole positions and knowledge states
- toygames: small games that exercise the engine contract without a real game
- transportkit: short heartbeats, `Run` (drives an in-process host and records its events), conditions
  over those events, a transport joiner in a child process whose key is known before it starts
- walks: a random outcome of any chance point, deals included, for full-knowledge random walks

Scripts the tests run as child processes, by path (each says how to call it):

- discovery_peer: advertise or browse on the LAN (mDNS)
- flood_peer: an attacker flooding a host with unauthenticated connections
- game_peer: a peer of any game or of Toy Deck holding one or more seats, bots or "humans"
  (also imported: its DeckBot)
- idle_peer: an attacker holding many silent or half-open connections
- lobby_peer: a person at the Pygame lobby, hosting or joining from its LAN list
- session_peer: a session peer that can lie (`--cheat`), for the session and attack tests
- transport_peer: a transport peer driven by JSON lines, for the transport and namespace tests
"""
