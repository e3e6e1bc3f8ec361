"""Transport errors as a user meets them on the command line: the port that is taken is the one
named, a host name that does not resolve fails at once and says so, and `--port 65535` is refused
before anything is bound. Nothing here sends a packet beyond loopback: the unresolvable names are
either refused by the resolver before any query (an empty label), or looked up inside a fresh
network namespace that has no route to any name server."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from support.nethelpers import in_netns, namespaces
from support.sessionhelpers import CLI, ROOT

from netplay import transport as tr
from netplay.identity import Identity
from netplay.transport import ConnectFailed, HostTransport


def _run(tmp: Path, *args: str, prefix: tuple[str, ...] = (), timeout: float = 30) -> subprocess.CompletedProcess:
    env = {"NETPLAY_HOME": str(tmp / "home"), "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "PYTHONPATH": str(ROOT)}
    return subprocess.run([*prefix, *CLI, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                           timeout=timeout)


def _free_pair() -> tuple[int, socket.socket]:
    """A port P with P and P+1 free; returns P and a socket listening on P+1 (the caller closes it)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port >= 65535:
            continue
        holder = socket.socket()
        try:
            holder.bind(("127.0.0.1", port + 1))
        except OSError:
            holder.close()
            continue
        holder.listen()
        with socket.socket() as check:
            try:
                check.bind(("127.0.0.1", port))
            except OSError:
                holder.close()
                continue
        return port, holder
    raise AssertionError("no two free neighbouring ports on loopback")


def test_a_taken_encrypted_port_is_named(tmp_path: Path) -> None:
    port, holder = _free_pair()
    with holder:
        run = _run(tmp_path, "host", "ploc", "--port", str(port), "--bind", "127.0.0.1", "--no-advertise",
                   "--bot", "random")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        f"Error: cannot listen on 127.0.0.1:{port + 1} (the encrypted port C = P+1): the port is already in use "
        "(by another program, or another netplay host)"]


def test_a_taken_bootstrap_port_is_named(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        run = _run(tmp_path, "host", "ploc", "--port", str(port), "--bind", "127.0.0.1", "--no-advertise",
                   "--bot", "random")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        f"Error: cannot listen on 127.0.0.1:{port} (the bootstrap port P): the port is already in use "
        "(by another program, or another netplay host)"]


def test_the_transport_names_the_port_too() -> None:
    ident = Identity.generate("h")
    port, holder = _free_pair()
    with holder, pytest.raises(tr.ListenFailed) as info:
        HostTransport(ident, port=port)
    assert info.value.port == port + 1 and "encrypted port C = P+1" in str(info.value)
    # an explicit curve port that is taken is named as such
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(tr.ListenFailed, match=rf"127.0.0.1:{taken.getsockname()[1]} \(the encrypted port C\)"):
            HostTransport(ident, curve_port=taken.getsockname()[1])


def test_port_65535_is_refused_before_anything_is_bound(tmp_path: Path) -> None:
    run = _run(tmp_path, "host", "ploc", "--port", "65535", "--bind", "127.0.0.1", "--no-advertise")
    assert run.returncode == 2
    assert "65535 leaves no room for the encrypted port, which is the next one (P+1): use at most 65534" in run.stderr
    run = _run(tmp_path, "host", "ploc", "--port", "65536", "--bind", "127.0.0.1", "--no-advertise")
    assert run.returncode == 2 and "0<=x<=65535" in run.stderr


def test_a_name_that_cannot_resolve_fails_at_once(tmp_path: Path) -> None:
    # "at once": long before its connect timeout of 10 minutes (_run gives up after 2: a busy machine
    # may slow the interpreter's start-up down, never to a wait of that kind)
    run = _run(tmp_path, "join", "no-such..host:5000", "--bot", "random", "--connect-timeout", "600", timeout=120)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        "Error: cannot resolve host no-such..host: not a valid host name (an empty or too long label)"]


def test_resolve_needs_no_lookup_for_addresses() -> None:
    assert tr.resolve("127.0.0.1", 0.0) is False
    assert tr.resolve("[::1]", 0.0) is True
    assert tr.resolve("::1", 0.0) is True
    # refused for its label of 64 characters before any query: the name service would have answered
    # (or not, "within 60 s") otherwise, whatever the time it took on a busy machine
    with pytest.raises(ConnectFailed, match="cannot resolve host " + "x" * 64 + ".example: not a valid host name"):
        tr.resolve("x" * 64 + ".example", 60.0)


@pytest.mark.netns
def test_a_name_the_name_service_does_not_know_fails_at_once(tmp_path: Path, netns) -> None:
    with namespaces(1) as [(ns, _)]:   # "at once": long before its connect timeout of 10 minutes
        run = _run(tmp_path, "join", "no-such-host.invalid:5000", "--bot", "random", "--connect-timeout", "600",
                   prefix=tuple(in_netns(ns)), timeout=120)
    assert run.returncode == 1, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith("Error: cannot resolve host no-such-host.invalid: "), line
    assert "bootstrap" not in line
