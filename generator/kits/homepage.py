"""The kits' home page, ``index.html`` in the output folder: a card per kit that leads from "which
game" to "print this file with these settings" in one click.

Each card names the game, its seed and variant, players and playing time, shows a light preview,
puts ``kit.pdf`` first with the print guide's settings (sides, flip, actual size, the scale bar,
which pages go on card), then the rule booklet in every language as a web page, a PDF and its pages as SVGs, what
each part of ``kit.pdf`` is (pages, stock, a link to its first page or its own file) and every other file. A seed batch's card
lists its seeds and links the PDF of all its boards. The page is built from the kits' manifests
alone (never the drawings), so it is the same bytes for the same kits, whatever order they were
built in; anything a manifest holds is escaped, and what it lacks is left out.
"""

from __future__ import annotations

import html
import os
import re
import stat
from typing import Any

from generator.foundation.files import atomic_write_text
from generator.foundation.languages import DEFAULT_LANGUAGE, TEXTS, set_text
from generator.foundation.languages import text as catalogue_text
from generator.printing.imposition import SCALE_BAR

PREVIEW = "preview.svg"


def _t(key: str, lang: str, **values: Any) -> str:
    """Return a text of the page from the catalogue (``home.<key>``) in the page's language."""
    return catalogue_text(f"home.{key}", lang, **values)


CSS = (
    ":root{color-scheme:light dark;--paper:#f5f3ef;--card:#fff;--ink:#1d1b19;--muted:#5b554e;"
    "--accent:#7a2e1d;--link:#1f4a7a;--rule:#ddd6cc;--button:#7a2e1d;--on-button:#fff;--tint:#f4ede4}"
    "@media (prefers-color-scheme:dark){:root{--paper:#1b1917;--card:#262320;--ink:#ece7e1;"
    "--muted:#b5ada4;--accent:#f0a58f;--link:#9cc3f0;--rule:#4a433c;--button:#f0a58f;"
    "--on-button:#1b1917;--tint:#302b27}}"
    "*,*::before,*::after{box-sizing:border-box}"
    "html{-webkit-text-size-adjust:100%;text-size-adjust:100%}"
    "body{margin:0;background:var(--paper);color:var(--ink);line-height:1.5;"
    "font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','DejaVu Sans',sans-serif}"
    "main{max-width:64rem;margin:0 auto;padding:1rem}"
    ".skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--card)}"
    "h1{color:var(--accent);font-size:1.9rem;margin:.3em 0}"
    "h2{color:var(--accent);font-size:1.5rem;margin:0}"
    "h3{font-size:1.05rem;margin:1.2em 0 .4em}"
    "a{color:var(--link);overflow-wrap:anywhere}"
    ".intro{max-width:44rem}"
    ".games{display:flex;flex-wrap:wrap;gap:.4rem;padding:0;list-style:none}"
    ".games a{display:inline-block;padding:.3rem .7rem;border:1px solid var(--rule);border-radius:1rem;"
    "background:var(--card);text-decoration:none}"
    ".kit{background:var(--card);border-radius:.6rem;padding:1rem;margin:1.2rem 0;"
    "border:1px solid var(--rule)}"
    ".head::after{content:'';display:block;clear:both}"
    ".preview{float:right;display:block;width:7.5rem;margin:0 0 .5rem 1rem}"
    ".preview img{display:block;width:100%;height:auto;border:1px solid var(--rule);background:#fff;"
    "border-radius:.3rem}"
    ".subtitle{margin:.1em 0 .4em;font-style:italic}"
    ".facts{display:flex;flex-wrap:wrap;gap:.2rem 1rem;margin:.3rem 0;padding:0;list-style:none}"
    ".facts li{color:var(--muted)}.facts b{color:var(--ink)}"
    ".print{background:var(--tint);border-radius:.5rem;padding:.8rem 1rem;margin:1rem 0 .5rem}"
    ".button{display:inline-block;background:var(--button);color:var(--on-button);font-weight:bold;"
    "padding:.5rem 1rem;border-radius:.4rem;text-decoration:none;font-size:1.1rem}"
    ".button:focus,.button:hover{text-decoration:underline}"
    ".print p{margin:.4rem 0}.print ul{margin:.4rem 0;padding-left:1.3rem}"
    ".rules{padding-left:1.3rem;margin:.3rem 0}.rules li{margin:.2rem 0}"
    ".table{overflow-x:auto}"
    "table{border-collapse:collapse;font-size:.95rem;min-width:60%}"
    "th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid var(--rule);vertical-align:top}"
    "th{background:var(--tint)}"
    ".seeds{display:flex;flex-wrap:wrap;gap:.3rem .8rem;padding:0;list-style:none;margin:.3rem 0}"
    "details{margin-top:.8rem}summary{cursor:pointer;color:var(--link)}"
    ".files{columns:2 14rem;padding-left:1.3rem}"
    ".note{color:var(--muted);margin:.2rem 0 .4rem;font-size:.95rem}"
    "@media (min-width:40rem){.preview{width:12rem}h1{font-size:2.4rem}}"
    "@media (min-width:60rem){.kit{display:flex;gap:2rem}.first{flex:1 1 55%}.more{flex:1 1 45%}"
    ".more>h3:first-child{margin-top:.2rem}}"
)


def _e(value: Any) -> str:
    return html.escape(str(value))


def _text(manifest: dict, key: str) -> str:
    value = manifest.get(key)
    return value if isinstance(value, str) else ""


def _files(manifest: dict) -> list[str]:
    return [f["name"] for f in manifest.get("files", []) if isinstance(f.get("name"), str)]


def _seed(manifest: dict) -> int | None:
    seed = manifest.get("seed")
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def _variants(manifest: dict) -> list[str]:
    variants = manifest.get("variants")
    return [v for v in variants if isinstance(v, str)] if isinstance(variants, list) else []


def _pages(pages: Any) -> str:
    """Return a page range as text ('3' or '3–6'), or '' when it is not one."""
    if not (isinstance(pages, list) and len(pages) == 2 and all(isinstance(p, int) for p in pages)):
        return ""
    first, last = pages
    return str(first) if first == last else f"{first}\u2013{last}"


def card_pages(kit: dict) -> list[str]:
    """Return kit.pdf's pages that go on card, as the print guide lists them: the front of each
    card sheet with a blank back (printed single-sided), both pages ('7–8') of one printed on
    both sides."""
    pages: list[str] = []
    sheets = kit.get("sheets")
    for sheet in sheets if isinstance(sheets, list) else []:
        if not isinstance(sheet, dict) or sheet.get("stock") != "card" or not _pages(sheet.get("pages")):
            continue
        first, last = sheet["pages"]
        pages.append(_pages([first, last]) if sheet.get("sides") == "duplex" else str(first))
    return pages


def gutter_pages(kit: dict) -> list[str]:
    """Return kit.pdf's gutter-fold pages (``--gutter-fold``: the sheets the manifest gives a
    ``fold``), each one printed page folded in half, as text, consecutive pages as one range
    ('3–5'); [] for a kit without them."""
    sheets = kit.get("sheets")
    runs: list[list[int]] = []  # consecutive pages in one run: '3–5'
    for sheet in sheets if isinstance(sheets, list) else []:
        if not isinstance(sheet, dict) or not sheet.get("fold") or not _pages(sheet.get("pages")):
            continue
        first, last = sheet["pages"]
        if runs and runs[-1][1] + 1 == first:
            runs[-1][1] = last
        else:
            runs.append([first, last])
    return [_pages(run) for run in runs]


def _facts(manifest: dict, lang: str) -> str:
    facts = []
    seed = manifest.get("seed")
    if isinstance(seed, (int, str)) and not isinstance(seed, bool):
        facts.append((_t("seed", lang), str(seed)))
    variants = _variants(manifest)
    if variants:
        facts.append((_t("variant", lang), ", ".join(variants)))
    players = _text(manifest, "players")
    if players:
        facts.append((_t("players", lang), players.replace("-", "\u2013")))
    time = _text(manifest, "playing_time")
    if time:
        facts.append((_t("time", lang), time.replace("-", "\u2013")))
    if not facts:
        return ""
    items = "".join(f"<li>{_e(label)} <b>{_e(value)}</b></li>" for label, value in facts)
    return f'<ul class="facts">{items}</ul>'


def _print_block(folder: str, manifest: dict, names: list[str], lang: str) -> str:
    kit = manifest.get("kit")
    if "kit.pdf" not in names or not isinstance(kit, dict):
        return ""
    pages = next((f.get("pages") for f in manifest["files"] if f.get("name") == "kit.pdf"), None)
    paper = _text(manifest, "paper").replace("letter", "US Letter").replace("a4", "A4")
    size = ", ".join(
        part
        for part in (
            _t("pages", lang, n=pages) if isinstance(pages, int) else "",
            paper and _t("paper", lang, paper=paper),
        )
        if part
    )
    settings = []
    if kit.get("print") == "single-sided":
        settings.append(_t("single", lang))
        folded = gutter_pages(kit)
        if folded:
            which = "gutter.one" if folded[0].isdigit() and len(folded) == 1 else "gutter.many"
            settings.append(_t(which, lang, pages=_e(", ".join(folded))))
    else:
        settings.append(_t("duplex", lang))
    settings.append(_t("actual", lang, n=f"{SCALE_BAR:g}"))
    card = card_pages(kit)
    if card:
        which = "card.one" if len(card) == 1 else "card.many"
        settings.append(_t(which, lang, stock=_t("card.stock", lang), pages=_e(", ".join(card))))
    settings.append(_t("guide", lang))
    return (
        f'<div class="print"><p><a class="button" href="{folder}/kit.pdf">{_e(_t("print", lang))}</a> '
        f"{_e(size)}</p><ul>" + "".join(f"<li>{s}</li>" for s in settings) + "</ul></div>"
    )


def _booklets(folder: str, manifest: dict, names: list[str], page_lang: str) -> str:
    booklets = manifest.get("booklets")
    if not isinstance(booklets, list):
        return ""
    items = []
    for booklet in booklets:
        if not isinstance(booklet, dict) or not isinstance(booklet.get("lang"), str):
            continue
        lang = booklet["lang"]
        links = []
        for key, label in (("html", _t("read", page_lang)), ("pdf", _t("pdf", page_lang))):
            name = booklet.get(key)
            if isinstance(name, str) and name in names:
                links.append(f'<a href="{folder}/{_e(name)}" hreflang="{_e(lang)}">{label}</a>')
        pages = booklet.get("svg")
        shown = [n for n in pages if isinstance(n, str) and n in names] if isinstance(pages, list) else []
        if shown:
            numbers = " ".join(
                f'<a href="{folder}/{_e(n)}" hreflang="{_e(lang)}" aria-label="{_e(_t("svg.page", page_lang, n=k))}">{k}</a>'
                for k, n in enumerate(shown, 1)
            )
            links.append(f"{_e(_t('svg.pages', page_lang))} {numbers}")
        if links:
            own = catalogue_text("language.own", lang) if lang in TEXTS else lang
            item = f'<li><span lang="{_e(lang)}">{_e(own)}</span>: {" · ".join(links)}</li>'
            items.append(set_text(item, page_lang))
    if not items:
        return ""
    return f'<h3>{_e(_t("rules", page_lang))}</h3><ul class="rules">{"".join(items)}</ul>'


def _contents(folder: str, manifest: dict, names: list[str], lang: str) -> str:
    kit = manifest.get("kit")
    parts = kit.get("components") if isinstance(kit, dict) else None
    if not isinstance(parts, list):
        return ""
    rows = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        pages = _pages(part.get("pages"))
        stock = (
            catalogue_text(f"stock.{part['stock']}", lang) if part.get("stock") in ("paper", "card") else ""
        )
        if part.get("sides") == "duplex":
            stock = _t("both", lang, stock=stock)
        own = f"{part.get('id')}.pdf"
        label = _e(part.get("title") or part.get("id") or "")
        if own in names:
            label = f'<a href="{folder}/{_e(own)}">{label}</a>'
        elif pages:
            # a browser's PDF viewer opens kit.pdf at the part's first page
            label = f'<a href="{folder}/kit.pdf#page={part["pages"][0]}">{label}</a>'
        rows.append(f"<tr><td>{label}</td><td>{_e(pages)}</td><td>{_e(stock)}</td></tr>")
    if not rows:
        return ""
    return (
        f'<h3>{_e(_t("holds", lang))}</h3><p class="note">{_t("again", lang)}</p>'
        '<div class="table" role="region" tabindex="0" '
        f'aria-label="{_e(_t("parts", lang))}"><table><thead><tr><th scope="col">{_e(_t("part", lang))}</th>'
        f'<th scope="col">{_e(_t("part.pages", lang))}</th><th scope="col">{_e(_t("part.stock", lang))}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _batch(name: str, later: list[tuple[str, dict]], maps: list[str], lang: str) -> str:
    if not later and not maps:
        return ""
    parts = [f"<h3>{_e(_t('batch', lang))}</h3>"]
    for pdf in maps:
        link = f'<a href="{_e(pdf)}">{_e(pdf)}</a>'
        parts.append(f"<p>{_t('every', lang, link=link)}</p>")
    if later:
        items = []
        for folder, manifest in later:
            names = _files(manifest)
            first = next((n for n in names if n.endswith(".pdf")), None)
            href = f"{_e(folder)}/{_e(first)}" if first else f"{_e(folder)}/manifest.json"
            seed = _seed(manifest)
            label = catalogue_text("board.seed", lang, seed=seed) if seed is not None else folder
            items.append(f'<li><a href="{href}">{_e(label)}</a></li>')
        parts.append(f'<p>{_e(_t("others", lang))}</p><ul class="seeds">{"".join(items)}</ul>')
    return "".join(parts)


def _card(name: str, manifest: dict, later: list[tuple[str, dict]], maps: list[str], lang: str) -> str:
    folder = _e(name)
    names = _files(manifest)
    title = _e(manifest.get("title", name))
    seed = _seed(manifest)
    variants = _variants(manifest)
    about = f"{manifest.get('title', name)}"
    if seed is not None:
        about += ", " + catalogue_text("board.seed", lang, seed=seed)
    if variants:
        about += catalogue_text("board.variant", lang, names=", ".join(variants))
    head = ['<div class="head">']
    if PREVIEW in names:
        shown = manifest.get("preview_of")
        href = f"{folder}/{_e(shown)}" if isinstance(shown, str) and shown in names else f"{folder}/{PREVIEW}"
        head.append(
            f'<a class="preview" href="{href}"><img src="{folder}/{PREVIEW}" '
            f'alt="{_e(_t("glance", lang, about=about))}" loading="lazy"></a>'
        )
    subtitle = _text(manifest, "subtitle")
    head.append(f'<h2 id="{folder}-title">{title}</h2>')
    if subtitle:
        head.append(f'<p class="subtitle">{_e(subtitle)}</p>')
    head.append(_facts(manifest, lang) + "</div>")
    listed = {"kit.pdf", PREVIEW, "manifest.json"}
    others = [n for n in names if n not in listed]
    files = "".join(f'<li><a href="{folder}/{_e(n)}">{_e(n)}</a></li>' for n in others)
    shared = manifest.get("shared_from")
    rest = ""
    if isinstance(shared, str) and shared:
        link = f'<a href="#{_e(shared)}">{_e(shared)}</a>'
        rest = f"<p>{_t('rest', lang, link=link)}</p>"
    details = (
        f"<details><summary>{_e(_t('files', lang, n=len(others)))}</summary>"
        f'<ul class="files">{files}</ul></details>'
        if others
        else ""
    )
    return (
        f'<section class="kit" id="{folder}" aria-labelledby="{folder}-title"><div class="first">'
        + "".join(head)
        + _print_block(folder, manifest, names, lang)
        + '</div><div class="more">'
        + _booklets(folder, manifest, names, lang)
        + _contents(folder, manifest, names, lang)
        + _batch(name, later, maps, lang)
        + rest
        + details
        + "</div></section>"
    )


def page_language(kits: list[tuple[str, dict]]) -> str:
    """Return the language of the home page: the one its kits were built in (their manifests'
    ``lang``) when they all share it, else English (a folder of kits in several languages)."""
    langs = {manifest.get("lang") for _, manifest in kits}
    if len(langs) == 1:
        (lang,) = langs
        if isinstance(lang, str) and lang in TEXTS:
            return lang
    return DEFAULT_LANGUAGE


def home_page(kits: list[tuple[str, dict]], root_files: list[str]) -> str:
    """Return the home page of the kits (folder name, manifest), in the order given, in the
    language of its kits (``page_language``); root_files are the names of the files beside the
    kits' folders (a batch's PDF of every board)."""
    lang = page_language(kits)
    folders = {name for name, _ in kits}
    later: dict[str, list[tuple[str, dict]]] = {}
    shown: list[tuple[str, dict]] = []
    for name, manifest in kits:
        shared = manifest.get("shared_from")
        if isinstance(shared, str) and shared in folders and shared != name:
            later.setdefault(shared, []).append((name, manifest))
        else:
            shown.append((name, manifest))
    maps: dict[str, list[str]] = {}
    for name, manifest in shown:
        seed, game = _seed(manifest), manifest.get("game")
        if seed is None or not isinstance(game, str):
            continue
        tail = "".join(f"-{v}" for v in sorted(_variants(manifest)))
        pattern = re.compile(re.escape(f"{game}-seeds{seed}-") + "[0-9]+" + re.escape(tail) + r"\.pdf")
        maps[name] = [f for f in root_files if pattern.fullmatch(f)]
    titles = [str(manifest.get("title", name)) for name, manifest in shown]
    nav = []
    for (name, manifest), title in zip(shown, titles):
        label = title
        if titles.count(title) > 1:  # kits of one game: say which seed and variant
            seed = manifest.get("seed")
            details = (
                [catalogue_text("board.seed", lang, seed=seed)] if isinstance(seed, (int, str)) else []
            ) + _variants(manifest)
            label += f" ({', '.join(str(d) for d in details)})" if details else ""
        nav.append(f'<li><a href="#{_e(name)}">{_e(label)}</a></li>')
    cards = "".join(_card(name, m, later.get(name, []), maps.get(name, []), lang) for name, m in shown)
    intro = f'<p class="intro">{_t("intro" if shown else "empty", lang)}</p>'
    title = _e(_t("title", lang))
    return (
        f'<!DOCTYPE html>\n<html lang="{_e(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{title}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f'<a class="skip" href="#kits">{_e(_t("skip", lang))}</a>\n<main>\n'
        f"<header><h1>{title}</h1>{intro}"
        + (
            f'<nav aria-label="{_e(_t("games", lang))}"><ul class="games">{"".join(nav)}</ul></nav>'
            if nav
            else ""
        )
        + f'</header>\n<div id="kits">\n{cards}\n</div>\n</main>\n</body>\n</html>\n'
    )


def _regular(path: str) -> bool:
    """Return whether the path is a regular file itself (a link to one, perhaps outside, is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def write_home_page(out: str, kits: list[tuple[str, dict]]) -> str:
    """Write OUT/index.html, the home page of the kits in the folder; return its path."""
    try:
        root_files = sorted(n for n in os.listdir(out) if _regular(os.path.join(out, n)))
    except OSError:
        root_files = []
    path = os.path.join(out, "index.html")
    atomic_write_text(path, home_page(kits, root_files))
    return path
