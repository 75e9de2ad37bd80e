"""The booklet as one self-contained HTML page: the same parsed blocks the PDF typesets, written as
headings, paragraphs, lists, notes, tables and figures for a screen of any width.

Nothing here knows games or drawing: each figure comes as finished inline SVG markup from a
callback (the HTML writer, ``generator.render.html``, draws the component's own drawing, as in the
PDF, with the SVG writer). The page carries its style sheet and a
subset of the booklet's faces inline, so it makes no request and reads the same offline; it follows
the reader's light or dark setting and prints on plain pages.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.booklet.layout import BookStyle, CoverInfo
from generator.booklet.markup import (
    Block,
    Document,
    Figure,
    FigureRow,
    Heading,
    Inline,
    ListBlock,
    Note,
    PageBreak,
    Paragraph,
    Table,
    plain_text,
)
from generator.foundation.languages import text as catalogue_text
from generator.model import inline
from generator.model.colour import readable
from generator.model.fonts import font_face_uri, font_family, is_user_font
from generator.model.page import Page

LIGHT_PAPER = "#fffdf9"
DARK_PAPER = "#1b1917"
DARK_INK = "#ece7e1"
DARK_TINT = "#2a2622"
AA = 4.6  # WCAG AA asks 4.5 for body text; a little more, as browsers round colours differently

FigureMarkup = Callable[[Figure], str]
"""Returns a figure's inline ``<svg>`` (with its own text alternative), given the figure block."""

IconMarkup = Callable[[inline.IconToken], str]
"""Returns an icon's inline ``<svg>``, one line high and painted in the colour of the text round it
(or in its own colour), given the icon."""

FigurePage = tuple[Page, str]
"""A figure's drawing as a page, with its text alternative."""

# Words of the page itself, from the catalogue (the rule text brings everything else).
WORD_KEYS = ("contents", "glance", "quick", "figure", "skip")


@dataclass(frozen=True)
class HtmlBooklet:
    """What the page shows besides the rule text: title, language, cover facts and the quick
    reference (blocks shown first; empty: the cover's summary and facts stand in for it)."""

    title: str
    lang: str
    cover: CoverInfo | None = None
    cover_figure: str = ""  # inline SVG markup of the cover figure, or ""
    quick_reference: tuple[Block, ...] = ()


@dataclass(frozen=True)
class HtmlDocument:
    """A booklet as the HTML writer (``generator.render.html``) takes it: the parsed rule text,
    what the page shows besides it, its style, and its figures as drawings, the cover's first
    (``figure`` returns the drawing of a figure block of the text, made when the writer asks)."""

    document: Document
    info: HtmlBooklet
    style: BookStyle
    cover_figure: FigurePage | None
    figure: Callable[[Figure], FigurePage]


def runs_html(runs: Inline, icon: IconMarkup | None = None) -> str:
    """Return inline runs as HTML: strong, em and code elements, line breaks as <br>, icons as the
    icon callback's markup (without one: their names, as ``:coin:``)."""
    out = []
    for run in runs:
        if run.text == "\n":
            out.append("<br>")
            continue
        if not run.code and inline.has_icons(run.text):
            text = "".join(
                html.escape(token, quote=False).replace("\n", "<br>")
                if isinstance(token, str)
                else icon(token)
                if icon is not None
                else html.escape(f":{token.name}:")
                for token in inline.tokens(run.text)
            )
        else:
            text = html.escape(run.text, quote=False).replace("\n", "<br>")
        if run.code:
            # notation stays on one line, as in the PDF, unless it is longer than a phone's line
            text = f"<code>{text}</code>" if len(run.text) <= 24 else f'<code class="long">{text}</code>'

        if run.italic:
            text = f"<em>{text}</em>"
        if run.bold and not run.code:
            text = f"<strong>{text}</strong>"
        out.append(text)
    return "".join(out)


def slug(text: str, taken: set[str]) -> str:
    """Return an id for a heading's text, unique among taken (which it joins)."""
    base = re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-") or "section"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


class _Writer:
    def __init__(
        self, figure: FigureMarkup, words: dict[str, str], first_level: int, icon: IconMarkup | None = None
    ) -> None:
        self.figure_markup = figure
        self.icon = icon
        self.words = words
        self.ids: set[str] = set()
        self.toc: list[tuple[int, str, str]] = []
        self.shift = first_level - 1  # markup level 1 is shown at first_level
        self.level = first_level - 1  # the last heading level written, to keep levels in order
        self.first_level = first_level

    def blocks(self, blocks: Sequence[Block], toc: bool = True) -> str:
        return "".join(self.block(b, toc) for b in blocks)

    def block(self, block: Block, toc: bool) -> str:
        if isinstance(block, Heading):
            # a heading never skips a level on screen, whatever the markup does
            level = min(block.level + self.shift, self.level + 1, 6)
            level = max(level, self.first_level)
            self.level = level
            text = plain_text(block.runs)
            anchor = slug(text, self.ids)
            if toc:
                self.toc.append((level, anchor, runs_html(block.runs, self.icon)))
            return f'<h{level} id="{anchor}">{runs_html(block.runs, self.icon)}</h{level}>\n'
        if isinstance(block, Paragraph):
            return f"<p>{runs_html(block.runs, self.icon)}</p>\n"
        if isinstance(block, Note):
            inner = "".join(f"<p>{runs_html(p, self.icon)}</p>" for p in block.paragraphs)
            return f'<aside class="note">{inner}</aside>\n'
        if isinstance(block, ListBlock):
            return self.list_html(block) + "\n"
        if isinstance(block, Table):
            return self.table(block)
        if isinstance(block, FigureRow):
            figures = "".join(self.figure(f, len(block.figures)) for f in block.figures)
            return f'<div class="figures n{len(block.figures)}">{figures}</div>\n'
        if isinstance(block, PageBreak):
            return ""
        raise TypeError(f"cannot write {type(block).__name__}")

    def list_html(self, block: ListBlock) -> str:
        items = []
        for item in block.items:
            child = self.list_html(item.children) if item.children is not None else ""
            items.append(f"<li>{runs_html(item.runs, self.icon)}{child}</li>")
        if block.ordered:
            start = f' start="{block.start}"' if block.start != 1 else ""
            return f"<ol{start}>{''.join(items)}</ol>"
        return f"<ul>{''.join(items)}</ul>"

    def table(self, block: Table) -> str:
        def cell(tag: str, runs: Inline, align: str) -> str:
            cls = f' class="{align}"' if align != "left" else ""
            scope = ' scope="col"' if tag == "th" else ""
            return f"<{tag}{cls}{scope}>{runs_html(runs, self.icon)}</{tag}>"

        head = "".join(cell("th", c, a) for c, a in zip(block.header, block.align))
        rows = "".join(
            "<tr>" + "".join(cell("td", c, a) for c, a in zip(row, block.align)) + "</tr>"
            for row in block.rows
        )
        return (
            f'<div class="table" role="region" tabindex="0"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table></div>\n"
        )

    def figure(self, fig: Figure, count: int) -> str:
        caption = f"<figcaption>{runs_html(fig.caption, self.icon)}</figcaption>" if fig.caption else ""
        width = ""
        if fig.width is not None and fig.width[1] == "%" and count == 1:
            width = f' style="max-width:{fig.width[0]:g}%"'
        return f"<figure{width}>{self.figure_markup(fig)}{caption}</figure>"


def text_html(text: str, icon: IconMarkup | None = None) -> str:
    """Return plain text (a title, a summary) as escaped HTML, its ``:name:`` icons as the icon
    callback's markup (without one: their names, as ``:coin:``)."""
    if icon is None or not inline.has_icons(text):
        return html.escape(text)
    return "".join(
        html.escape(token) if isinstance(token, str) else icon(token) for token in inline.tokens(text)
    )


def _cover_html(info: HtmlBooklet, words: dict[str, str], icon: IconMarkup | None = None) -> str:
    cover = info.cover
    parts = ['<header class="cover">']
    if cover is not None and cover.kicker:
        parts.append(f'<p class="kicker">{html.escape(cover.kicker)}</p>')
    parts.append(f"<h1>{text_html(info.title, icon)}</h1>")
    if cover is not None and cover.subtitle:
        parts.append(f'<p class="subtitle">{text_html(cover.subtitle, icon)}</p>')
    if cover is not None and cover.footer:
        parts.append(f'<p class="seed">{html.escape(cover.footer)}</p>')
    parts.append("</header>")
    return "".join(parts)


def _glance_html(info: HtmlBooklet, writer: _Writer, words: dict[str, str]) -> str:
    """The cover's facts, summary and parts list, then the kit's quick-reference card."""
    cover = info.cover
    parts = []
    if cover is not None:
        writer.ids.add("glance")
        parts.append('<section class="glance" aria-labelledby="glance">')
        parts.append(f'<h2 id="glance">{html.escape(words["glance"])}</h2>')
        if cover.facts:
            parts.append('<dl class="facts">')
            for label, value in cover.facts:
                parts.append(f"<div><dt>{html.escape(label)}</dt><dd>{html.escape(value)}</dd></div>")
            parts.append("</dl>")
        if cover.summary:
            parts.append(f'<p class="summary">{text_html(cover.summary, writer.icon)}</p>')
        if cover.kit:
            parts.append(f'<h3 id="kit">{html.escape(cover.kit_title)}</h3><ul class="kit">')
            parts.extend(f"<li>{text_html(name, writer.icon)}</li>" for name in cover.kit)
            parts.append("</ul>")
        if info.cover_figure:
            parts.append(f'<div class="cover-figure">{info.cover_figure}</div>')
        parts.append("</section>")
    blocks = list(info.quick_reference)
    if blocks:
        writer.ids.add("quick")
        heading = words["quick"]
        first = blocks[0]
        if isinstance(first, Heading) and first.level == 1:
            heading = plain_text(first.runs)  # the card's own title names the section
            blocks.pop(0)
        parts.append('<section class="glance quick" aria-labelledby="quick">')
        parts.append(f'<h2 id="quick">{html.escape(heading)}</h2>')
        sub = _Writer(writer.figure_markup, words, 3, writer.icon)
        sub.ids = writer.ids
        parts.append(sub.blocks(blocks, toc=False))
        parts.append("</section>")
    return "".join(parts)


_OWN_NUMBER = re.compile(r"([0-9]+)[.)]\s+")


def _toc_html(toc: list[tuple[int, str, str]], words: dict[str, str]) -> str:
    if not toc:
        return ""
    top = min(level for level, _, _ in toc)
    items = []
    depth = 0
    for level, anchor, text in toc:
        if level > top + 1:
            continue  # the contents list sections and their subsections
        want = level - top + 1
        while depth < want:
            items.append("<ol>" if depth == 0 else "<ol class='sub'>")
            depth += 1
        while depth > want:
            items.append("</li></ol>")
            depth -= 1
        if items and not items[-1].startswith("<ol"):
            items.append("</li>")
        # a heading that numbers itself ("1. Throwing") keeps its number as the item's, once
        own = _OWN_NUMBER.match(text)
        number = f' value="{own.group(1)}"' if own else ""
        items.append(f'<li{number}><a href="#{anchor}">{text[own.end() if own else 0 :]}</a>')
    while depth > 0:
        items.append("</li></ol>")
        depth -= 1
    return (
        f'<nav class="toc" aria-labelledby="contents"><h2 id="contents">{html.escape(words["contents"])}</h2>'
        + "".join(items)
        + "</nav>"
    )


def readable_on(colour: str, faces: Sequence[str]) -> str:
    """Return colour, darkened or lightened until it reads (WCAG AA) on every one of faces."""
    for _ in range(len(faces) * 10):
        changed = colour
        for face in faces:
            changed = readable(changed, face, AA)
        if changed == colour:
            break
        colour = changed
    return colour


def _css(style: BookStyle) -> str:
    light, dark = (LIGHT_PAPER, style.tint), (DARK_PAPER, DARK_TINT)
    accent_light, accent_dark = readable_on(style.accent, light), readable_on(style.accent, dark)
    code_light, code_dark = readable_on(style.code, light), readable_on(style.code, dark)
    muted_light, muted_dark = readable_on(style.muted, light), readable_on("#a39b92", dark)
    return (
        ":root{color-scheme:light dark;"
        f"--paper:{LIGHT_PAPER};--ink:{style.ink};--accent:{accent_light};--code:{code_light};"
        f"--muted:{muted_light};--tint:{style.tint};--rule:{style.rule};--figure:#ffffff;"
        "--sans:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','DejaVu Sans',sans-serif}"
        "@media (prefers-color-scheme:dark){:root{"
        f"--paper:{DARK_PAPER};--ink:{DARK_INK};--accent:{accent_dark};--code:{code_dark};"
        f"--muted:{muted_dark};--tint:{DARK_TINT};--rule:#4a433c;--figure:#f7f4ef}}}}"
        "*,*::before,*::after{box-sizing:border-box}"
        "html{-webkit-text-size-adjust:100%;text-size-adjust:100%}"
        "body{margin:0;background:var(--paper);color:var(--ink);font-family:var(--sans);"
        "font-size:1.0625rem;line-height:1.55;overflow-wrap:break-word}"
        "main{max-width:42rem;margin:0 auto;padding:1rem 1rem 3rem}"
        ".skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--paper)}"
        "h1,h2,h3,h4{color:var(--accent);line-height:1.25;margin:1.6em 0 .5em}"
        "h1{font-size:2rem;margin-top:.2em}"
        "h2{font-size:1.45rem;border-bottom:1px solid var(--rule);padding-bottom:.2em}"
        "h3{font-size:1.15rem}h4{font-size:1rem}"
        "a{color:var(--accent)}"
        "code{font-family:inherit;font-weight:bold;color:var(--code);white-space:nowrap}"
        "code.long{white-space:normal;overflow-wrap:anywhere}"
        ".cover{text-align:center;padding-top:1rem}"
        ".kicker{text-transform:uppercase;letter-spacing:.12em;color:var(--muted);margin:0;font-size:.85rem}"
        ".subtitle{font-style:italic;margin:.2em 0}.seed{color:var(--muted);font-size:.9rem}"
        ".glance{background:var(--tint);border-radius:.5rem;padding:.2rem 1rem 1rem;margin:1rem 0}"
        ".glance h2{border:0;margin-top:.8em}"
        ".facts{display:flex;flex-wrap:wrap;gap:.4rem 1.5rem;margin:0}"
        ".facts dt{font-weight:bold;color:var(--accent);font-size:.85rem}.facts dd{margin:0}"
        ".kit{columns:2 12rem;padding-left:1.2rem}"
        ".toc ol{padding-left:1.4rem;margin:.3rem 0}.toc li{margin:.15rem 0}"
        ".note{background:var(--tint);border-left:4px solid var(--accent);padding:.1rem 1rem;"
        "margin:1rem 0;border-radius:0 .4rem .4rem 0}"
        "ul,ol{padding-left:1.5rem}li{margin:.2rem 0}li::marker{color:var(--accent)}"
        ".table{overflow-x:auto;margin:1rem 0}"
        "table{border-collapse:collapse;min-width:60%;font-size:.95rem}"
        "th,td{border-bottom:1px solid var(--rule);padding:.35rem .6rem;text-align:left;vertical-align:top}"
        "th{background:var(--tint)}.center{text-align:center}.right{text-align:right}"
        ".figures{display:flex;flex-wrap:wrap;gap:1rem;justify-content:center;margin:1.2rem 0}"
        "figure{margin:0;flex:1 1 14rem;max-width:100%;text-align:center}"
        ".figures.n1 figure{flex-basis:100%}"
        "figure svg,.cover-figure svg{display:block;width:100%;height:auto;margin:0 auto;"
        "background:var(--figure);border-radius:.3rem}"
        ".cover-figure{max-width:22rem;margin:1rem auto 0}"
        "figcaption{font-size:.92rem;color:var(--muted);margin-top:.4rem}"
        "@media (min-width:48rem){main{padding:2rem 2rem 4rem}h1{font-size:2.6rem}}"
        "@media print{:root{--paper:#fff;--ink:#000;--tint:#f2f2f2;--figure:#fff}"
        f"h1,h2,h3,h4,a{{color:{style.accent}}}"
        "body{font-size:10.5pt}main{max-width:none;padding:0}.skip,.toc{display:none}"
        "h1,h2,h3,h4{break-after:avoid}figure,table,.note,tr{break-inside:avoid}"
        ".table{overflow:visible}a{text-decoration:none}}"
    )


# an icon: a box of the text's size and its room in the line, its middle where the PDF's is
# (``model.inline``); written only on a page that shows one
ICON_CSS = (
    f".icon{{display:inline-block;width:{inline.ADVANCE:g}em;height:1em;"
    f"vertical-align:{inline.MIDDLE - 0.5:g}em}}.icon svg{{display:block;width:100%;height:100%}}"
)


def _own_faces_css(style: BookStyle, text: str) -> str:
    """Return the @font-face rules of the definition's own faces the booklet is set in (each a
    WOFF subset of the page's characters, with its licence text) and the rules setting the body,
    its bold, italic and code runs and the headings in them; '' when it uses the shipped faces.
    A face of one's own is drawn as it is: never made bolder or slanted by the browser."""
    chars = "".join(sorted(set(text) - set("\n\r\t")))
    uses = (
        (style.body_font, "body"),
        (style.bold_font, "strong,code,dt,th"),
        (style.italic_font, "em,.subtitle"),
        (style.heading_font, "h1,h2,h3,h4"),
    )
    faces: dict[str, str] = {}
    rules = []
    for font, selector in uses:
        if not is_user_font(font):
            continue
        family = font_family(font)
        if font not in faces:
            faces[font] = (
                f"@font-face{{font-family:{family};src:url({font_face_uri(font, chars)}) format('woff')}}"
            )
        rules.append(f"{selector}{{font-family:{family},var(--sans);font-weight:normal;font-style:normal}}")
    return "".join(faces.values()) + "".join(rules)


def booklet_html(
    document: Document,
    info: HtmlBooklet,
    style: BookStyle,
    figure: FigureMarkup,
    figure_css: Callable[[], str] = str,
    icon: IconMarkup | None = None,
) -> str:
    """Return the booklet as one self-contained HTML page: cover header, the quick reference, a table
    of contents, then the rule text; figures as inline SVG from the figure callback, whose style
    sheet (classes, faces) figure_css returns once every figure is made; icons in the text as the
    icon callback's inline SVG."""
    words = {key: catalogue_text(f"html.{key}", info.lang) for key in WORD_KEYS}
    writer = _Writer(figure, words, 2, icon)
    writer.ids.update({"contents", "rules", "glance", "kit", "quick"})
    glance = _glance_html(info, writer, words)
    body = writer.blocks(document.blocks)
    main = (
        _cover_html(info, words, icon)
        + glance
        + _toc_html(writer.toc, words)
        + f'<article id="rules">{body}</article>'
    )
    lang = html.escape(info.lang)
    icons = ICON_CSS if '<span class="icon">' in main else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{html.escape(inline.spoken(info.title))}</title>\n"
        f"<style>{_css(style)}{icons}{_own_faces_css(style, main)}{figure_css()}</style>\n</head>\n<body>\n"
        f'<a class="skip" href="#rules">{html.escape(words["skip"])}</a>\n'
        f"<main>\n{main}\n</main>\n</body>\n</html>\n"
    )
