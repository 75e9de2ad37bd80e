"""The home page of an output folder: ``index.html`` over every kit's manifest (generator.kits.homepage).

It reads the manifests, never the drawings: each kit shows its light preview (``preview.svg``,
written with the kit) and links to its files; a batch's later seeds link to the kit they share."""

from __future__ import annotations

import json
import os
import re
import stat

from generator.kits.homepage import write_home_page


def natural_key(name: str) -> list:
    """Return a sort key that puts booklet-2 before booklet-10 (runs of digits of any length,
    such as a 19-digit seed, compare as numbers; the rest as text)."""
    return [int(part) if i % 2 else part for i, part in enumerate(re.split(r"([0-9]+)", name))]


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


def _regular_file(folder: str, name: str) -> bool:
    """Return whether ``name`` is a plain file name (no folder, no link) of a regular file in the folder."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name or os.sep in name:
        return False
    try:
        return stat.S_ISREG(os.lstat(os.path.join(folder, name)).st_mode)
    except (OSError, ValueError):
        return False


def read_manifests(out: str) -> tuple[list[tuple[str, dict]], list[str]]:
    """Return the kits in an output folder (folder name, manifest) and one line per manifest
    skipped because it cannot be read (another program's file, a damaged one). A kit is a real
    folder (not a link), and its manifest's files are kept only where they name a regular file in
    it, so the home page links nothing outside the output folder whatever a manifest says."""
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
        try:
            if not stat.S_ISDIR(os.lstat(os.path.join(out, name)).st_mode):
                continue
        except OSError:
            continue
        if not _regular_file(os.path.join(out, name), "manifest.json"):
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
        folder = os.path.join(out, name)
        files = [f for f in manifest.get("files", []) if _regular_file(folder, f["name"])]
        kits.append((name, {**manifest, "files": files}))
    return kits, problems


def write_index(out: str) -> str:
    """Write OUT/index.html, the home page of every kit in the folder (generator.kits.homepage); return
    its path. It reads the manifests, never the drawings."""
    kits, _ = read_manifests(out)
    return write_home_page(out, kits)
