"""A small Markdown renderer for the repository's rules pages: headings, paragraphs, lists (nested),
tables, code blocks, and inside text **bold**, `code` and [links](...) (shown as their words). It lays
the page out for a width (every line wrapped, table cells too) into rows a scene draws with a scroll
offset; nothing from the file is executed or trusted beyond being text, and control characters are
dropped."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pygame

from client.ui import textfit, theme

CODE = (255, 214, 160)
CODE_BG = (20, 26, 36)
RULE = (70, 88, 110)

_INLINE = re.compile(r"(`[^`]+`|\*\*[^*]+\*\*|__[^_]+__|\[[^\]]+\]\([^)]*\)|(?<![\w*])\*[^*\s][^*]*\*(?![\w*]))")
# glyphs the app's font does not have, as the text it can show
_FALLBACK = str.maketrans({"\u2192": "->", "\u2190": "<-", "\u2194": "<->", "\u21d2": "=>", "\u222a": " u ",
                           "\u2208": " in ", "\u2113": "l"})
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_LIST = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass(slots=True)
class Block:
    kind: str                 # "h1".."h3", "p", "li", "table", "code", "rule"
    text: str = ""
    depth: int = 0            # a list item's nesting
    bullet: str = ""
    rows: list[list[str]] = field(default_factory=list)   # a table's cells (the first row: its head)


def parse(text: str) -> list[Block]:
    """Markdown text as blocks (a paragraph joins its lines)."""
    text = _CONTROL.sub("", text.replace("\t", "    ")).translate(_FALLBACK)
    blocks: list[Block] = []
    lines = text.split("\n")
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append(Block("p", " ".join(s.strip() for s in para)))
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i].rstrip())
                i += 1
            blocks.append(Block("code", "\n".join(code)))
            i += 1
            continue
        heading = _HEADING.match(stripped)
        if heading:
            flush()
            blocks.append(Block(f"h{min(3, len(heading.group(1)))}", heading.group(2)))
        elif stripped.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c) or not any(cells):
                    rows.append(cells)
                i += 1
            blocks.append(Block("table", rows=rows))
            continue
        elif re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", stripped):
            flush()
            blocks.append(Block("rule"))
        elif _LIST.match(line):
            flush()
            match = _LIST.match(line)
            depth = len(match.group(1)) // 2
            bullet = "\u2022" if match.group(2) in "-*+" else match.group(2)
            item = [match.group(3)]
            while i + 1 < len(lines) and lines[i + 1].strip() and not _LIST.match(lines[i + 1]) \
                    and lines[i + 1].startswith(" ") and not lines[i + 1].strip().startswith(("|", "#", "```")):
                i += 1
                item.append(lines[i].strip())
            blocks.append(Block("li", " ".join(item), depth, bullet))
        elif not stripped:
            flush()
        else:
            para.append(stripped)
        i += 1
    flush()
    return blocks


def runs(text: str) -> list[tuple[str, str]]:
    """Inline text as (words, style) runs: style "", "b" (bold) or "c" (code)."""
    out: list[tuple[str, str]] = []
    for part in _INLINE.split(text):
        if not part:
            continue
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append((part[1:-1], "c"))
        elif (part.startswith("**") or part.startswith("__")) and len(part) > 4:
            out.append((part[2:-2], "b"))
        elif part.startswith("[") and "](" in part:
            out.append((part[1:part.index("](")], ""))
        elif part.startswith("*") and part.endswith("*") and len(part) > 2:
            out.append((part[1:-1], ""))   # *emphasis*: the words without their stars
        else:
            out.append((part, ""))
    return out


@dataclass(slots=True)
class Row:
    """One laid-out line: words (text, style, x) at a height, or a table row / code line / rule."""

    y: int
    h: int
    words: list[tuple[str, str, int, int]] = field(default_factory=list)   # (text, style, x, px)
    colour: tuple = theme.TEXT
    box: pygame.Rect | None = None      # a table cell grid line or a code background
    kind: str = "text"
    heading: tuple[int, str] | None = None   # the first row of a heading: (level, its words)


def _font(px: int, style: str) -> pygame.font.Font:
    return theme.font(px, style == "b")


def _tokens(text: str, head_style: str) -> list[tuple[str, str, bool]]:
    """(word, style, a space before it) for every word of the styled runs."""
    tokens: list[tuple[str, str, bool]] = []
    space = False
    for words, style in runs(text):
        for k, part in enumerate(words.split(" ")):
            space = space or k > 0
            if part:
                tokens.append((part, style or head_style, space))
                space = False
    return tokens


def _flow(text: str, px: int, x0: int, width: int, y: int, colour, line_h: int, head_style: str = "") -> list[Row]:
    """Word-wrap styled runs into rows from (x0, y), `width` wide."""
    rows: list[Row] = []
    row = Row(y, line_h, colour=colour)
    x = x0
    space = _font(px, "").size(" ")[0]
    limit = x0 + max(px, width)
    for word, style, spaced in _tokens(text, head_style):
        font = _font(px, style)
        w = font.size(word)[0]
        gap = space if spaced and x > x0 else 0
        if x + gap + w > limit and x > x0:
            rows.append(row)
            y += line_h
            row = Row(y, line_h, colour=colour)
            x, gap = x0, 0
        while w > limit - x0 and len(word) > 1:   # a word wider than the line is split
            cut = len(word) - 1
            while cut > 1 and font.size(word[:cut])[0] > limit - x0:
                cut -= 1
            row.words.append((word[:cut], style, x, px))
            rows.append(row)
            y += line_h
            row = Row(y, line_h, colour=colour)
            x, gap = x0, 0
            word = word[cut:]
            w = font.size(word)[0]
        row.words.append((word, style, x + gap, px))
        x += gap + w
    rows.append(row)
    return rows


def layout(blocks: list[Block], width: int, px: int) -> list[Row]:
    """The page as rows for `width` pixels at body size `px`; rows carry absolute y from 0."""
    rows: list[Row] = []
    y = 0
    line_h = px + 5
    for block in blocks:
        if block.kind.startswith("h"):
            size = {"h1": px + 14, "h2": px + 7, "h3": px + 3}[block.kind]
            y += px // 2 if rows else 0
            colour = theme.ACCENT if block.kind != "h3" else theme.HILITE
            flowed = _flow(block.text, size, 0, width, y, colour, size + 6, "b")
            flowed[0].heading = (int(block.kind[1]), " ".join(w for w, _, _ in _tokens(block.text, "b")))
            rows += flowed
            y = rows[-1].y + rows[-1].h + 4
            if block.kind == "h1":
                rows.append(Row(y, 2, box=pygame.Rect(0, y, width, 1), kind="rule"))
                y += 8
        elif block.kind == "p":
            rows += _flow(block.text, px, 0, width, y, theme.TEXT, line_h)
            y = rows[-1].y + rows[-1].h + px // 2
        elif block.kind == "li":
            indent = (block.depth + 1) * px + 4
            bullet = Row(y, line_h, [(block.bullet, "", indent - px + 2, px)], theme.MUTED)
            flowed = _flow(block.text, px, indent + 4, width - indent - 4, y, theme.TEXT, line_h)
            flowed[0].words = bullet.words + flowed[0].words
            rows += flowed
            y = rows[-1].y + rows[-1].h + 2
        elif block.kind == "code":
            for text in block.text.split("\n") or [""]:
                row = Row(y, line_h, [(text, "c", 8, px - 1)], CODE, pygame.Rect(0, y, width, line_h), "code")
                rows.append(row)
                y += line_h
            y += px // 2
        elif block.kind == "rule":
            rows.append(Row(y + px // 2, 2, box=pygame.Rect(0, y + px // 2, width, 1), kind="rule"))
            y += px
        elif block.kind == "table" and block.rows:
            y = _table(block.rows, width, px, y, rows) + px // 2
    return rows


def _table(cells: list[list[str]], width: int, px: int, y: int, rows: list[Row]) -> int:
    ncols = max(len(r) for r in cells)
    grid = [r + [""] * (ncols - len(r)) for r in cells]
    pad = 6
    natural = [max(_font(px, "").size(re.sub(r"[`*]", "", grid[r][c]))[0] for r in range(len(grid))) + 2 * pad
               for c in range(ncols)]
    floor = [min(n, max(px * 4, width // (2 * ncols))) for n in natural]
    widths = list(natural)
    if sum(widths) > width:   # shrink the widest columns first, never under their floor
        spare = sum(natural) - width
        order = sorted(range(ncols), key=lambda c: -natural[c])
        total_room = sum(natural[c] - floor[c] for c in order) or 1
        widths = [max(floor[c], natural[c] - spare * (natural[c] - floor[c]) // total_room) for c in range(ncols)]
    line_h = px + 4
    for r, row_cells in enumerate(grid):
        x = 0
        cell_rows: list[Row] = []
        bottom = y
        for c, text in enumerate(row_cells):
            flowed = _flow(text, px, x + pad, widths[c] - 2 * pad, y + 3, theme.TEXT if r else theme.HILITE, line_h,
                           "b" if r == 0 else "")
            cell_rows += flowed
            bottom = max(bottom, flowed[-1].y + flowed[-1].h)
            x += widths[c]
        total = sum(widths)
        rows.append(Row(y, 0, box=pygame.Rect(0, y, total, bottom + 3 - y), kind="cellbox"))
        rows += cell_rows
        y = bottom + 3
    return y


def draw(surface: pygame.Surface, rows: list[Row], area: pygame.Rect, scroll: int) -> None:
    """The rows between `scroll` and `scroll + area.h`, drawn into `area` (clipped)."""
    clip = surface.get_clip()
    surface.set_clip(area)
    top, bottom = scroll, scroll + area.h
    for row in rows:
        y = area.y + row.y - scroll
        box_bottom = row.y + (row.box.h if row.box is not None else row.h)
        if box_bottom < top or row.y > bottom:
            continue
        if row.kind == "cellbox" and row.box is not None:
            pygame.draw.rect(surface, RULE, row.box.move(area.x, area.y - scroll), width=1)
            continue
        if row.kind == "rule" and row.box is not None:
            pygame.draw.rect(surface, RULE, row.box.move(area.x, area.y - scroll))
            continue
        if row.kind == "code" and row.box is not None:
            pygame.draw.rect(surface, CODE_BG, row.box.move(area.x, area.y - scroll))
        extent: pygame.Rect | None = None
        for text, style, x, px in row.words:
            colour = CODE if style == "c" else row.colour
            img = _font(px, style).render(text, True, colour)
            rect = img.get_rect(topleft=(area.x + x, y + 1))
            if style == "c" and row.kind != "code":
                pygame.draw.rect(surface, CODE_BG, rect.inflate(4, 0), border_radius=3)
            surface.blit(img, rect)
            extent = rect if extent is None else extent.union(rect)
        if extent is not None and row.y >= top and row.y + row.h <= bottom:
            # one line, one text for the layout checks (a bold word and its colon are one phrase); a line
            # cut by the scroll edge is not a text out of its box
            textfit.text(extent, " ".join(w[0] for w in row.words), theme.font_size(min(w[3] for w in row.words)))
    surface.set_clip(clip)


def height(rows: list[Row]) -> int:
    return max((r.y + (r.box.h if r.box is not None else r.h) for r in rows), default=0)
