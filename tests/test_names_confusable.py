"""Look-alike names (issue 32, break N9): `aIice@box` (capital I) was not marked against a pinned
`alice@box`, sorted before it, was auto-picked by a bot and offered as the default `[1]`; Cyrillic
look-alikes were not marked either. Now names are compared by UTS #39's confusables skeleton as well as
by NFKC, case and spaces (netplay.names, netplay.uts39), mixed-script names are marked, the genuine
pinned host sorts first, and neither a bot's pick nor a person's default is a doubtful name.

Cost: pure functions, a CLI run through click's runner and one lobby frame (dummy video), no process,
no network: about 2 s CPU for the tests on this machine (the three hypothesis properties, 100 examples
each, 0.3-0.6 s each; the whole-table checks of some 6,300 entries 0.3 s; the lobby frame 0.4 s), 4 s
with the imports of a fresh interpreter."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client import cli_net
from netplay import discovery, uts39, uts39_data
from netplay.discovery import Doubt, HostInfo
from netplay.identity import Identity, KnownPeers
from netplay.names import looks_alike

ROOT = Path(__file__).resolve().parent.parent
REAL = Identity.generate("alice@box")
FAKE = Identity.generate("alice@box")
OTHER = Identity.generate("carol@box")

CYRILLIC_A, GREEK_ALPHA = "\u0430", "\u03b1"
LOOKALIKES = ["aIice@box",                         # capital I for l: the name
              "a1ice@box", "a|ice@box",             # digit one, vertical bar: the same prototype l
              f"{CYRILLIC_A}lice@box",              # Cyrillic а
              f"{GREEK_ALPHA}lice@box",             # Greek alpha
              "\uff41\uff4c\uff49\uff43\uff45@box",  # full-width letters
              "Alice@box", "ALICE@BOX", "alice@box ",  # case and spaces, caught before too
              "\u0410LICE@box"]                     # Cyrillic capital А, then case
# ordinary names that are merely similar: none may be marked against another
ORDINARY = ["alice2@box", "alicia@box", "alice@b0x2", "lia", "ila", "ian", "bob", "rob", "anna", "anne",
            "emil", "emily", "jo", "joe", "kim", "tim", "\u00e9lise", "elise", "m\u00fcller", "muller",
            "\u5c71\u7530\u305f\u308d\u3046", "\u0431\u043e\u0440\u0438\u0441"]   # 山田たろう, борис


def host(ident: Identity, port: int, name: str) -> HostInfo:
    return HostInfo(f"{name} {ident.fingerprint[:9]}", name, ("127.0.0.1",), port, "loyal-captain", "0.1.0",
                    ident.fingerprint, 1)


def pinned_alice() -> KnownPeers:
    pins = KnownPeers()
    pins.check("alice@box", REAL.public_key)
    return pins


# ------------------------------------------------------------------------- the skeleton (UTS #39 section 4)

def test_the_skeleton_maps_what_uts39_says() -> None:
    assert {uts39.prototype(c) for c in "I1|"} == {"l"}                 # l, I, 1, | look alike
    assert uts39.skeleton("aIice@box") == uts39.skeleton("alice@box") == "alice@box"
    assert uts39.skeleton(f"{CYRILLIC_A}lice") == uts39.skeleton(f"{GREEK_ALPHA}lice") == "alice"
    assert uts39.skeleton("\uff41lice") == "alice"                     # full-width a
    assert uts39.skeleton("mike") == uts39.skeleton("rnike")           # m looks like rn
    assert uts39.skeleton("Alice") != uts39.skeleton("alice")          # case is part of it
    assert not uts39.confusable("alice2", "alice")


def test_the_table_is_unicodes_and_its_skeleton_is_idempotent_on_every_entry() -> None:
    assert uts39_data.CONFUSABLES_VERSION == "13.0.0" and uts39_data.UCD_VERSION == "15.0.0"
    sources = uts39.confusable_sources()
    assert len(sources) == 6311                                         # every line of confusables.txt 13.0.0
    for char in sources:
        once = uts39.skeleton(char)
        assert uts39.skeleton(once) == once, hex(ord(char))
        rounds, text = 0, char
        while uts39._one_skeleton(text) != text:
            text, rounds = uts39._one_skeleton(text), rounds + 1
        assert rounds <= 2 < uts39._ROUNDS, hex(ord(char))               # the bound is never what stops it


_PROTOTYPE_OF: dict[str, list[str]] = {}
for _source in uts39.confusable_sources():
    if len(uts39.skeleton(_source)) == 1:
        _PROTOTYPE_OF.setdefault(uts39.skeleton(_source), []).append(_source)
_BASES = sorted(c for c in _PROTOTYPE_OF if c.isascii() and c.isprintable())
_TEXT = st.text(st.sampled_from([*_BASES, *(s for b in _BASES for s in _PROTOTYPE_OF[b][:3]), "\u0301", " "]),
                max_size=24)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT | st.text(max_size=24))
def test_skeleton_is_idempotent(text: str) -> None:
    once = uts39.skeleton(text)
    assert uts39.skeleton(once) == once
    assert looks_alike(text, once)                                       # a name looks like its skeleton


_FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.sampled_from(_BASES + [" "]), min_size=1, max_size=20), st.data())
def test_what_name_key_folds_is_still_caught(text: str, data) -> None:
    """Nothing caught before (NFKC, case, spaces) is missed: a name with its case changed, letters made
    full-width and spaces doubled looks like the name."""
    ways = [str.upper, str.lower, lambda c: _FULL_WIDTH.get(c, c), lambda c: c + " " if c == " " else c]
    variant = "".join(data.draw(st.sampled_from(ways))(c) for c in text)
    assert discovery.name_key(variant) == discovery.name_key(text) or not text.strip()
    assert looks_alike(variant, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.sampled_from(_BASES), min_size=1, max_size=20), st.data())
def test_replacing_a_character_by_a_listed_confusable_keeps_the_skeleton(text: str, data) -> None:
    i = data.draw(st.integers(0, len(text) - 1))
    twin = data.draw(st.sampled_from(_PROTOTYPE_OF[text[i]]))
    changed = text[:i] + twin + text[i + 1:]
    assert uts39.skeleton(changed) == uts39.skeleton(text)
    assert looks_alike(changed, text)


def test_case_folding_and_the_skeleton_settle_on_every_entry() -> None:
    for char in uts39.confusable_sources():
        text, rounds = char, 0
        while (after := " ".join(uts39.skeleton(text.casefold()).split())) != text:
            text, rounds = after, rounds + 1
        assert rounds <= 3, hex(ord(char))


# ------------------------------------------------------------------------- mixed scripts (UTS #39 section 5)

def test_mixed_script_names_are_found_and_single_script_ones_are_not() -> None:
    assert uts39.mixed_scripts(f"{CYRILLIC_A}lice@box") == ["Cyrillic", "Latin"]
    assert uts39.mixed_scripts(f"b{GREEK_ALPHA}b") == ["Latin", "Greek"]
    assert uts39.mixed_scripts("\u03a9mega") == ["Greek", "Latin"]
    assert uts39.mixed_scripts(f"\u5c71\u7530{CYRILLIC_A}") == ["Han", "Cyrillic"]
    # UTS #39 5.2 "Highly Restrictive": Latin with Han, kana or Hangul, as people write names
    assert uts39.mixed_scripts("\u5c71\u7530taro") is None and uts39.mixed_scripts("kim\ubbfc\uc900") is None
    assert uts39.mixed_scripts(f"\u5c71\u7530t{CYRILLIC_A}ro") == ["Han", "Latin", "Cyrillic"]
    # борис; Japanese (Han + Hiragana); Korean (Hangul + Han); accents; digits; full-width Latin
    for single in ["alice@box 2", "\u0431\u043e\u0440\u0438\u0441", "\u5c71\u7530\u305f\u308d\u3046",
                   "\ud55c\uad6d\u4eba", "\u00e9lise", "e\u0301lise", "123", "\uff41lice"]:
        assert uts39.mixed_scripts(single) is None, single


# ------------------------------------------------------------------------- the names as lists show them

@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_of_a_pinned_name_is_marked_with_what_it_looks_like(name: str) -> None:
    fake = host(FAKE, 6000, name)
    line = discovery.describe(fake, [fake], pinned_alice())
    pinned = f"the pinned alice@box ({REAL.fingerprint})" in line or f"NOT the key pinned for alice@box " \
        f"({REAL.fingerprint})" in line
    assert pinned, line
    if name == "aIice@box":
        assert f"looks like the pinned alice@box ({REAL.fingerprint}) but is another key, with I (LATIN CAPITAL " \
            "LETTER I)" in line
    if name.startswith(CYRILLIC_A):
        assert "with \\u0430 (CYRILLIC SMALL LETTER A)" in line
    standing = discovery.assess([fake], pinned_alice())[0]
    assert standing.pinned is not None and standing.pinned.name == "alice@box"


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_sorts_after_the_genuine_pinned_host_and_a_bot_picks_the_genuine(name: str) -> None:
    real, fake = host(REAL, 5000, "alice@box"), host(FAKE, 6000, name)
    for hosts in ([fake, real], [real, fake]):
        order = discovery.ranked(hosts, pinned_alice())
        assert order == [real, fake]
        chosen, passed = discovery.bot_choice(hosts, pinned_alice())
        assert chosen is real and len(passed) == 1 and FAKE.fingerprint in passed[0]
        standings = discovery.assess(hosts, pinned_alice())
        assert discovery.default_choice(standings) == 1 and standings[0].host is real
    chosen, passed = discovery.bot_choice([fake], pinned_alice())          # the real one is not on the LAN
    assert chosen is None and "alice@box" in passed[0]
    assert discovery.default_choice(discovery.assess([fake], pinned_alice())) is None
    assert discovery.bot_choice([fake, real])[0] is None                   # no pins: two look-alikes, no pick


def test_lookalikes_on_the_lan_without_pins_are_marked_as_one_group() -> None:
    hosts = [host(Identity.generate("x"), 5000 + i, name) for i, name in enumerate(["alice@box", *LOOKALIKES])]
    groups = discovery.lookalikes(hosts)
    assert set(groups) == {h.instance for h in hosts} and all(len(g) == len(hosts) for g in groups.values())
    line = discovery.describe(hosts[1], hosts)
    assert f"{len(hosts)} hosts have names that look like aIice@box: compare the words" in line


def test_a_mixed_script_name_is_marked_whatever_the_pins() -> None:
    bob = host(Identity.generate("b"), 5000, f"b{CYRILLIC_A}b")
    for known in (None, KnownPeers(), pinned_alice()):
        standing = discovery.assess([bob], known)[0]
        assert standing.doubts == (Doubt.MIXED_SCRIPT,)
        line = discovery.describe(bob, [bob], known)
        assert "its name mixes Latin and Cyrillic letters (b\\u0430b)" in line, line


def test_a_bot_and_the_default_pass_a_mixed_script_name_over_when_there_is_another() -> None:
    mixed, plain = host(Identity.generate("b"), 5000, f"{CYRILLIC_A}bob"), host(OTHER, 6000, "carol@box")
    chosen, passed = discovery.bot_choice([mixed, plain])
    assert chosen is plain and len(passed) == 1 and "mixes Cyrillic and Latin" in passed[0]
    standings = discovery.assess([mixed, plain])
    assert [s.host for s in standings] == [plain, mixed] and discovery.default_choice(standings) == 1
    assert discovery.bot_choice([mixed]) == (mixed, [])                      # no alternative: joined
    assert discovery.default_choice(discovery.assess([mixed])) is None       # a person is never offered it


def test_ordinary_names_are_not_marked() -> None:
    hosts = [host(Identity.generate(f"p{i}"), 5000 + i, name) for i, name in enumerate(ORDINARY)]
    pins = KnownPeers()
    for h in hosts:
        pins.check(h.host_name, Identity.generate("other").public_key)    # every name pinned to some other key
    assert discovery.lookalikes(hosts) == {}
    for h in hosts:
        assert "!!" not in discovery.describe(h, hosts), h.host_name
        assert [n for n in ORDINARY if n != h.host_name and looks_alike(n, h.host_name)] == []
    alice = host(REAL, 4000, "alice@box")
    known = pinned_alice()
    assert all(discovery.pinned_elsewhere(h, known) is None for h in hosts)
    assert discovery.bot_choice([alice, *hosts], known)[0] is alice
    assert discovery.default_choice(discovery.assess([alice, *hosts], known)) == 1
    for h in hosts:                                                            # each other name's own pin
        assert discovery.pinned_elsewhere(h, pins) is not None


def test_a_whole_script_lookalike_is_caught_by_the_skeleton_though_not_mixed() -> None:
    """All-Cyrillic "аре" (а, р, е) is one script, so only the skeleton tells it looks like a pinned "ape"."""
    pins = KnownPeers()
    pins.check("ape", REAL.public_key)
    fake = host(FAKE, 6000, "\u0430\u0440\u0435")
    standing = discovery.assess([fake], pins)[0]
    assert standing.doubts == (Doubt.LOOKS_LIKE_PINNED,) and standing.pinned.name == "ape"
    assert discovery.bot_choice([fake], pins)[0] is None


def test_pinning_a_name_that_looks_like_a_pinned_one_warns(caplog) -> None:
    """A joiner under "aIice@box" is pinned by a host that knows "alice@box" (only the very same name
    with another key is refused), with a warning naming both keys."""
    pins = pinned_alice()
    with caplog.at_level("WARNING", logger="netplay.identity"):
        assert pins.check("aIice@box", FAKE.public_key)
        assert pins.check("alice2@box", OTHER.public_key)                    # merely similar: no warning
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 1 and "'aIice@box'" in warned[0] and f"'alice@box' (key {REAL.fingerprint})" in warned[0]


# ------------------------------------------------------------------------- the terminal list

@click.command()
@click.option("--bot", is_flag=True)
def picker(bot: bool) -> None:
    click.echo("ADDRESS " + cli_net._pick_host(0.1, None, pick_first=bot))


@pytest.fixture
def lan(monkeypatch, tmp_path: Path):
    """What `browse` finds, as the test sets it; NETPLAY_HOME (its pins) in a temporary directory."""
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    found: list[HostInfo] = []
    monkeypatch.setattr(discovery, "browse", lambda seconds, game=None, interfaces=None: list(found))
    return found


def test_the_terminal_list_puts_the_pinned_host_first_as_the_default_and_marks_aIice(lan) -> None:
    """The issue's break: `aIice@box` sorted before the pinned `alice@box` and was the default [1]."""
    KnownPeers.default().check("alice@box", REAL.public_key)
    real, fake = host(REAL, 5000, "alice@box"), host(FAKE, 6000, "aIice@box")
    lan[:] = [fake, real]
    result = CliRunner().invoke(picker, [], input="\n")
    listed = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    assert listed[0].startswith("  1. loyal-captain hosted by alice@box ") and "the key pinned for" in listed[0]
    assert f"looks like the pinned alice@box ({REAL.fingerprint})" in listed[1]
    assert "join which [1]:" in result.stdout and result.stdout.splitlines()[-1] == f"ADDRESS {real.address}"
    result = CliRunner().invoke(picker, ["--bot"])
    assert result.stdout.splitlines()[-1] == f"ADDRESS {real.address}"
    assert "not joining aIice@box" in result.stderr
    lan[:] = [fake]
    result = CliRunner().invoke(picker, ["--bot"])
    assert result.exit_code == 1 and "no host on the LAN a bot can tell from an impostor" in result.stderr
    result = CliRunner().invoke(picker, [], input="\n1\n")
    assert "join which:" in result.stdout and "join which [1]:" not in result.stdout       # no default
    mixed = host(OTHER, 7000, f"b{CYRILLIC_A}b")
    lan[:] = [mixed]
    result = CliRunner().invoke(picker, ["--bot"])                           # the only host: joined, said so
    assert result.stdout.splitlines()[-1] == f"ADDRESS {mixed.address}"
    assert "note: the name b\\u0430b mixes Latin and Cyrillic letters; joining it all the same" in result.stderr
    result = CliRunner().invoke(picker, [], input="\n1\n")
    assert "join which [1]:" not in result.stdout and "mixes Latin and Cyrillic letters" in result.stdout


def test_the_lobby_lists_the_pinned_host_first_and_marks_its_lookalikes_in_red(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    from client.app import App
    from client.scenes import lobby as lobby_module
    from client.ui import theme, widgets

    drawn: list[tuple[str, tuple]] = []
    real_draw = widgets.draw_text

    def spy(surface, text, pos, size, colour, *args, **kwargs):
        drawn.append((text, tuple(colour)))
        return real_draw(surface, text, pos, size, colour, *args, **kwargs)

    monkeypatch.setattr(lobby_module, "draw_text", spy)
    monkeypatch.setattr(lobby_module, "fit", lambda text, *args, **kwargs: text)     # whole titles, not cut
    monkeypatch.setattr(lobby_module, "wrap_lines", lambda text, *args, **kwargs: [text])   # nor wrapped
    KnownPeers.default().check("alice@box", REAL.public_key)
    real, fake = host(REAL, 5000, "alice@box"), host(FAKE, 6000, "aIice@box")
    mixed = host(Identity.generate("m"), 7000, f"b{CYRILLIC_A}b")
    app = App((1280, 720))
    lobby = lobby_module.LobbyScene(tmp_path / "replays", browse=False)
    app.push(lobby)
    lobby._hosts_changed([fake, mixed, real])
    app.step([], 16)
    heads = [(text, colour) for text, colour in drawn if " - " in text and "@box" in text or f"b{CYRILLIC_A}b" in text]
    titles = [text for text, _ in heads]
    # each look-alike also carries its key's fingerprint (client/names.py), before the lobby's own marks
    assert re.search(r"alice@box \([0-9a-f]{4,}\) \(pinned key, 2 hosts!\)$", titles[0]), titles
    assert heads[0][1] == tuple(theme.TEXT)
    assert any(re.search(r"aIice@box \([0-9a-f]{4,}\) \(looks like the pinned alice@box!, 2 hosts!\)", t)
               for t in titles), titles
    assert any("mixes Latin and Cyrillic!" in t for t in titles), titles
    assert all(colour == tuple(theme.BAD) for text, colour in heads[1:])
    assert lobby.hosts[0] is real


# ------------------------------------------------------------------------- the table's generator

def test_the_generator_reads_unicodes_files(tmp_path: Path) -> None:
    """scripts/uts39_tables.py on a few lines of each file, in Unicode's own formats."""
    (tmp_path / "confusables.txt").write_text(
        "\ufeff# confusables.txt\n# Version: 13.0.0\n# \u00a9 2020 Unicode\u00ae, Inc.\n"
        "0049 ;\t006C ;\tMA\t# ( I \u2192 l ) LATIN CAPITAL LETTER I \u2192 LATIN SMALL LETTER L\t# \n\n"
        "006D ;\t0072 006E ;\tMA\t# ( m \u2192 rn )\t# \n")
    ucd = tmp_path / "ucd"
    ucd.mkdir()
    (ucd / "Scripts.txt").write_text("# Scripts-15.0.0.txt\n0041..005A    ; Latin # L&  [26]\n"
                                     "0061..007A    ; Latin # L&  [26]\n0430..044F    ; Cyrillic # L&  [32]\n")
    (ucd / "ScriptExtensions.txt").write_text("# ScriptExtensions-15.0.0.txt\n0342          ; Grek # Mn\n")
    (ucd / "PropertyValueAliases.txt").write_text("sc ; Cyrl                             ; Cyrillic\n"
                                                  "sc ; Grek                             ; Greek\n"
                                                  "sc ; Latn                             ; Latin\n")
    (ucd / "DerivedCoreProperties.txt").write_text("00AD          ; Default_Ignorable_Code_Point # Cf\n"
                                                   "0041..005A    ; Alphabetic # L&  [26]\n")
    spec = importlib.util.spec_from_file_location("uts39_tables", ROOT / "scripts" / "uts39_tables.py")
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)                   # the repository's own script (no data of a peer)
    out = tables.generate(tmp_path / "confusables.txt", ucd)
    blocks = dict(re.findall(r'^(\w+) = """\\\n(.*?)"""', out, re.S | re.M))
    assert blocks["PROTOTYPES"].splitlines() == ["0049 006C", "006D 0072 006E"]
    assert blocks["SCRIPTS"].splitlines() == ["0041 005A Latn", "0061 007A Latn", "0430 044F Cyrl"]
    assert blocks["EXTENSIONS"].splitlines() == ["0342 0342 Grek"]
    assert blocks["IGNORABLE"].splitlines() == ["00AD 00AD"]
    assert 'CONFUSABLES_VERSION = "13.0.0"' in out and 'UCD_VERSION = "15.0.0"' in out
    committed = (Path(uts39_data.__file__)).read_text()
    assert committed.startswith(out.split("\n", 1)[0])                      # the same generator made the module
