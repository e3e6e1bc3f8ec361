"""How many inputs a fuzz module ran, shown at the end of its tests and kept in tests/artifacts/ (a
fuzz test that quietly ran nothing would otherwise look the same as one that ran thousands)."""

from __future__ import annotations

from pathlib import Path

import pytest


def report_counts(request: pytest.FixtureRequest, title: str, runs: dict[str, int], filename: str) -> None:
    lines = [f"  {target}: {count}" for target, count in sorted(runs.items())]
    text = f"{title}: {sum(runs.values())}\n" + "\n".join(lines)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            reporter.write_line(text)
    out = Path(__file__).parents[1] / "artifacts"   # tests/artifacts
    out.mkdir(exist_ok=True)
    (out / filename).write_text(text + "\n")
