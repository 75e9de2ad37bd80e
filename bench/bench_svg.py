"""Benchmark: the SVG writer alone, over every SVG a build writes (issue 16).

Run: .venv/bin/python bench/bench_svg.py [runs]

Builds every kit and the seeded Barricades kit (``--seed 7``) in this process on one job, keeping
every page handed to the SVG writer (part SVGs, the home page's ``preview.svg``, the figures of
each ``booklet.html``). Then writes those pages again ``runs`` times with the writer alone and
prints the median CPU time of a whole pass, the bytes it makes by kind of output, and the sizes of
the seeded Barricades kit's files and of the ``--all`` output.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import generator.render.svg as svg  # noqa: E402
from generator.kits.plan import BuildRequest  # noqa: E402
from generator.kits.run import run_build  # noqa: E402

Call = tuple[str, tuple[Any, ...], dict[str, Any]]


def _record(calls: list[Call]) -> None:
    """Keep the arguments of every write_svg and InlineSvg.element call made from now on."""
    write_svg, element = svg.write_svg, svg.InlineSvg.element

    def kept_write(page: Any, target: Any, title: str = "", preview: bool = False, author: str = "") -> None:
        calls.append(("preview" if preview else "part", (page, title, preview), {}))
        write_svg(page, target, title, preview, author)

    def kept_element(self: Any, page: Any, alt: str) -> str:
        calls.append(("figure", (page, alt), {"booklet": id(self)}))
        return element(self, page, alt)

    svg.write_svg = kept_write  # type: ignore[assignment]
    svg.InlineSvg.element = kept_element  # type: ignore[method-assign]


def _request(out: str, games: list[str], seed: int | None) -> BuildRequest:
    return BuildRequest(
        games=games, all_games=not games, out=out, seed=None if seed is None else str(seed), jobs=1
    )


def _sizes(folder: str) -> dict[str, int]:
    sizes = {}
    for base, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            sizes[os.path.relpath(path, folder)] = os.path.getsize(path)
    return sizes


def _one_pass(calls: list[Call], write_svg: Any, element: Any) -> dict[str, int]:
    """Write every kept page once; return the bytes made by kind."""
    made: dict[str, int] = {}
    booklets: dict[int, Any] = {}
    for kind, args, extra in calls:
        if kind == "figure":
            figures = booklets.setdefault(extra["booklet"], svg.InlineSvg())
            size = len(element(figures, *args).encode("utf-8"))
        else:
            buffer = io.BytesIO()
            write_svg(args[0], buffer, args[1], args[2])
            size = len(buffer.getvalue())
        made[kind] = made.get(kind, 0) + size
    made["figure css"] = sum(len(f.css().encode("utf-8")) for f in booklets.values())
    return made


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    write_svg, element = svg.write_svg, svg.InlineSvg.element
    calls: list[Call] = []
    _record(calls)
    with tempfile.TemporaryDirectory() as out:
        run_build(_request(os.path.join(out, "kit"), ["barricades"], 7))
        kit = _sizes(os.path.join(out, "kit", "barricades-seed7"))
        run_build(_request(os.path.join(out, "all"), [], None))
        every = _sizes(os.path.join(out, "all"))
    times = []
    for _ in range(runs):
        start = time.process_time()
        made = _one_pass(calls, write_svg, element)
        times.append(time.process_time() - start)
    counts = {k: sum(1 for c in calls if c[0] == k) for k in ("part", "preview", "figure")}
    print(
        f"SVG writer, {sum(counts.values())} pages {counts}: median CPU of {runs} passes {statistics.median(times):.3f} s"
    )
    for kind, size in sorted(made.items()):
        print(f"  {kind:12} {size / 1e3:9.1f} KB")
    print(f"barricades --seed 7: {sum(kit.values()) / 1e6:.3f} MB")
    for name, size in sorted(kit.items()):
        if name.endswith((".svg", ".html")):
            print(f"  {name:24} {size / 1e3:7.1f} KB")
    svgs = sum(s for n, s in every.items() if n.endswith(".svg"))
    html = sum(s for n, s in every.items() if n.endswith(".html"))
    print(
        f"build --all: {sum(every.values()) / 1e6:.3f} MB ({svgs / 1e6:.3f} MB SVG, {html / 1e6:.3f} MB HTML)"
    )


if __name__ == "__main__":
    main()
