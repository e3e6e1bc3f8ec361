"""The documentation stands alone: nothing in the repository points outside it, every relative link in the
README and docs/ resolves, and the rules pages (which the client also shows in the app) hold both parts,
every decision the engines follow, and only the Markdown the in-app page renders."""

from __future__ import annotations

import re
from pathlib import Path

import engines

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
#: the rules pages, one per family or game, as the games' descriptors name them (engines/descriptor.py)
FAMILIES = tuple(sorted({d.rules_page for d in engines.DESCRIPTORS.values()}))
#: what a clone does not have: the working material the project was started from
OUTSIDE = re.compile(r"\.\./shared|shared/rules|shared/tools|shared/seeds|shared/mental-poker|DESIGN\.md|"
                     r"mental-poker\.md")
SKIP_DIRS = {".git", ".venv", ".bench-venv", "__pycache__", "artifacts", "vectors", "node_modules"}


def _text_files():
    for path in sorted(ROOT.rglob("*")):
        if any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in (".py", ".md", ".toml", ".txt", ".cfg") or path.parent.name in ("scripts", ".ci"):
            yield path


def test_nothing_in_the_repository_points_outside_it():
    found = []
    for path in _text_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel == "tests/test_docs.py":
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{rel}:{n}: {line.strip()[:100]}")
    assert found == []


def _links(path: Path) -> list[str]:
    text = path.read_text()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_every_relative_link_in_the_docs_resolves():
    broken = []
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        for target in _links(page):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_each_family_has_its_rules_page_in_two_parts():
    for family in FAMILIES:
        text = (RULES / f"{family}.md").read_text()
        assert text.startswith("# "), family
        for heading in ("## Part 1 — How to play", "## Part 2 — Rules for implementers", "### Engine notes (netplay)"):
            assert f"\n{heading}\n" in text, (family, heading)
        assert re.search(r"^#{3,4} (Shared )?[Dd]ecisions$", text, flags=re.M), family
    assert sorted(p.stem for p in RULES.glob("*.md")) == sorted(FAMILIES)
    old = [name for name in FAMILIES if (ROOT / "docs" / f"{name}.md").exists()]
    assert old == [], "the engine notes moved into docs/rules/"


def test_the_rules_pages_use_only_the_markdown_the_app_renders():
    """Headings, paragraphs, lists, tables, emphasis and code spans: no code blocks, HTML or images."""
    for family in FAMILIES:
        text = (RULES / f"{family}.md").read_text()
        assert "```" not in text and "~~~" not in text, family
        prose = re.sub(r"`[^`\n]*`", "", text)   # `pick <card>` is a code span, not HTML
        assert not re.search(r"<[a-zA-Z/][^>]*>", prose), (family, re.search(r"<[a-zA-Z/][^>]*>", prose))
        assert "![" not in text, family
        for n, line in enumerate(text.splitlines(), 1):
            if line.startswith("#"):
                assert re.match(r"#{1,5} \S", line), (family, n, line)
            assert line.count("`") % 2 == 0, (family, n, "a code span broken across lines")


def test_the_decisions_the_engines_follow_are_written_down():
    ck = (RULES / "catan-ck.md").read_text()
    for decision in ("D19", "D37", "D38", "D39"):
        assert re.search(rf"^- {decision} \*\*", ck, flags=re.M), decision
    assert "Also legal only if" in ck and "merchantfleet" in ck
    assert re.search(r"^- D23 \*\*", (RULES / "catan.md").read_text(), flags=re.M)
