"""The contact sheet of an output folder: ``index.html`` over every kit's manifest.

It reads the manifests, never the drawings: each kit shows its light preview (``preview.svg``,
written with the kit) and links to its files; a batch's later seeds link to the kit they share."""

from __future__ import annotations

import html
import json
import os
import re

from generator.files import atomic_write_text
from generator.numbers import is_ascii_digits

PREVIEW = "preview.svg"  # a kit's light picture for the contact sheet


def natural_key(name: str) -> list:
    """Return a sort key that puts booklet-2 before booklet-10."""
    return [int(part) if is_ascii_digits(part) else part for part in re.split(r"([0-9]+)", name)]


MAX_MANIFEST_BYTES = 1_000_000


def _manifest_problem(manifest: object) -> str | None:
    """Return what is wrong with a manifest's shape, or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    files = manifest.get("files", [])
    if not isinstance(files, list) or not all(
        isinstance(f, dict) and isinstance(f.get("name"), str) for f in files
    ):
        return "its files are not a list of named files"
    return None


def read_manifests(out: str) -> tuple[list[tuple[str, dict]], list[str]]:
    """Return the kits in an output folder (folder name, manifest) and one line per manifest
    skipped because it cannot be read (another program's file, a damaged one)."""
    kits: list[tuple[str, dict]] = []
    problems: list[str] = []
    try:
        names = sorted(os.listdir(out), key=natural_key) if os.path.isdir(out) else []
    except OSError:
        names = []
    for name in names:
        if name.startswith("."):
            continue
        manifest_path = os.path.join(out, name, "manifest.json")
        if not os.path.isfile(manifest_path):
            continue
        try:
            with open(manifest_path, "rb") as handle:
                data = handle.read(MAX_MANIFEST_BYTES + 1)
            if len(data) > MAX_MANIFEST_BYTES:
                raise ValueError(f"larger than {MAX_MANIFEST_BYTES} bytes")
            manifest = json.loads(data.decode("utf-8"))
            problem = _manifest_problem(manifest)
            if problem:
                raise ValueError(problem)
        except (OSError, ValueError, RecursionError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc).splitlines()[0][:80]
            problems.append(f"skipped {os.path.join(out, name, 'manifest.json')}: {reason}")
            continue
        kits.append((name, manifest))
    return kits, problems


def write_index(out: str) -> str:
    """Write OUT/index.html, a contact sheet of every kit in the folder; return its path.

    It shows each kit's light preview (preview.svg) and links to its PDFs and SVGs; a batch's
    later seeds link to the kit they share. It reads the manifests, never the drawings."""
    kits, _ = read_manifests(out)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>pnp kits</title><style>body{font-family:sans-serif;margin:2em;background:#f4f4f4}"
        "section{background:#fff;padding:1em;margin-bottom:2em;border-radius:6px}"
        "figure{display:inline-block;margin:.5em;text-align:center;vertical-align:top}"
        "figure img{height:160px;border:1px solid #ccc;background:#fff}"
        "figcaption{font-size:.8em}</style></head><body>",
        "<h1>Print-and-play kits</h1>",
    ]
    for name, manifest in kits:
        title = html.escape(str(manifest.get("title", name)))
        seed = manifest.get("seed")
        folder = html.escape(name)
        parts.append(
            f'<section id="{folder}"><h2>{title}'
            + (f" <small>(seed {html.escape(str(seed))})</small>" if seed is not None else "")
            + "</h2><p>"
        )
        files = manifest.get("files", [])
        links = [
            f'<a href="{folder}/{html.escape(f["name"])}">{html.escape(f["name"])}</a>'
            for f in files
            if f["name"].endswith((".pdf", ".svg")) and f["name"] != PREVIEW
        ]
        shared = manifest.get("shared_from")
        if isinstance(shared, str) and shared:
            links.append(f'the rest of the kit: <a href="#{html.escape(shared)}">{html.escape(shared)}</a>')
        parts.append(" · ".join(links) + "</p>")
        if any(f["name"] == PREVIEW for f in files):
            shown = manifest.get("preview_of")
            src = f"{folder}/{PREVIEW}"
            href = f"{folder}/{html.escape(shown)}" if isinstance(shown, str) and shown else src
            parts.append(
                f'<figure><a href="{href}"><img src="{src}" alt="{title}" loading="lazy"></a></figure>'
            )
        parts.append("</section>")
    parts.append("</body></html>\n")
    path = os.path.join(out, "index.html")
    atomic_write_text(path, "\n".join(parts))
    return path
