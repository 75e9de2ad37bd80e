"""Benchmark: many seeded Aggression maps into one PDF, through pnp's page model and PDF writer
(``generator.kits.kit.write_batch``, as ``pnp build aggression --seeds 1-N`` does) versus raw reportlab
drawing the same shapes (frame, title, roads, bridges, cities, letters, caption, footer).

Run: .venv/bin/python bench/bench_aggression.py [maps] [runs]     (default 1000 maps, 3 runs)

Each case runs in a fresh child process: once for time (median of the runs; ``ru_maxrss`` of the
child is its peak resident memory, start-up included) and once under tracemalloc (peak of Python
allocations during the case alone). The map-generation and page-model stages are also timed on
their own, and the batch is repeated at a tenth of the size to show how peak memory grows.
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

K = 72.0 / 25.4  # points per millimetre


# --- the cases ------------------------------------------------------------------------------------


def case_generate(maps: int, out: str) -> None:
    """Generate the maps' layout data only (no drawing)."""
    from generator.games.aggression import RULES

    for seed in range(1, maps + 1):
        RULES.layout_data("board", seed)


def case_pages(maps: int, out: str) -> None:
    """Build the page model of every map (no PDF)."""
    from generator.definitions.loader import find_definition
    from generator.kits.kit import batch_pages
    from generator.kits.plan import kit_plan

    kit = kit_plan(find_definition("aggression"), out, formats=("pdf",))
    for _ in batch_pages(kit, range(1, maps + 1)):
        pass


def case_pnp(maps: int, out: str) -> None:
    """Write every map into one PDF through pnp (page model + PDF writer), as a --seeds batch does."""
    from generator.definitions.loader import find_definition
    from generator.kits.kit import write_batch
    from generator.kits.plan import kit_plan

    write_batch(kit_plan(find_definition("aggression"), out, formats=("pdf",)), tuple(range(1, maps + 1)))


def case_raw(maps: int, out: str) -> None:
    """Write every map into one PDF with hand-written reportlab calls drawing the same shapes."""
    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    from generator.definitions.loader import find_definition
    from generator.games.aggression import RULES
    from generator.model.fonts import pdf_font

    spec = find_definition("aggression").component("board")
    size, margin, r = spec["size"], spec["margin"], spec["point_radius"]
    lw = spec["line_width"]
    colour = find_definition("aggression").colour
    paper, road, city, ink = (HexColor(colour(c)) for c in ("paper", "road", "city", "ink"))
    sans, bold = pdf_font("sans"), pdf_font("sans-bold")
    page_w, page_h = 297.0, 210.0
    canvas = Canvas(
        os.path.join(out, "raw.pdf"), invariant=1, pageCompression=1, pagesize=(page_w * K, page_h * K)
    )
    for seed in range(1, maps + 1):
        data = RULES.layout_data("board", seed)
        pts = data["points"]
        ext_x = max(p[0] for p in pts.values()) - min(p[0] for p in pts.values())
        ext_y = max(p[1] for p in pts.values()) - min(p[1] for p in pts.values())
        unit = (size - 2 * margin - 2 * r) / max(ext_x, ext_y)
        width = ext_x * unit + 2 * margin + 2 * r
        height = ext_y * unit + 2 * margin + 2 * r + 12.0
        left, top = (page_w - width) / 2, (page_h - height) / 2

        def at(name: str) -> tuple[float, float]:
            x, y = pts[name]
            return ((left + margin + r + x * unit) * K, (page_h - (top + margin + r + 12.0 + y * unit)) * K)

        c = canvas
        c.setLineWidth(0.6 * K)
        c.setStrokeColor(HexColor("#000000"))
        c.setFillColor(paper)
        c.roundRect(left * K, (page_h - top - height) * K, width * K, height * K, 3 * K, stroke=1, fill=1)
        c.setFillColor(HexColor("#000000"))
        c.setFont(bold, 14)
        c.drawCentredString((left + width / 2) * K, (page_h - top - 10) * K, "Aggression")
        c.setStrokeColor(road)
        c.setLineCap(1)
        c.setLineWidth(lw * K)
        over = {tuple(b[0]) for b in data["bridges"]}
        for a, b in data["lines"]:
            if (a, b) not in over:
                c.line(*at(a), *at(b))
        for (o1, o2), (u1, u2) in data["bridges"]:
            (x1, y1), (x2, y2), (x3, y3), (x4, y4) = at(o1), at(o2), at(u1), at(u2)
            c.setStrokeColor(road)
            c.setLineWidth(lw * K)
            c.setLineCap(1)
            c.line(x3, y3, x4, y4)
            den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
            t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
            cx, cy = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            length = math.hypot(x2 - x1, y2 - y1)
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            half = lw * K * 3.5
            c.setStrokeColor(paper)
            c.setLineWidth(lw * K * 4)
            c.setLineCap(0)
            c.line(cx - ux * half, cy - uy * half, cx + ux * half, cy + uy * half)
            c.setStrokeColor(road)
            c.setLineWidth(lw * K)
            c.setLineCap(1)
            c.line(x1, y1, x2, y2)
            nx, ny, off = -uy, ux, lw * K * 1.6
            c.setLineWidth(lw * K * 0.45)
            for sgn in (1, -1):
                ax, ay = cx + sgn * nx * off, cy + sgn * ny * off
                c.line(ax - ux * half, ay - uy * half, ax + ux * half, ay + uy * half)
                for end in (1, -1):
                    ex, ey = ax + end * ux * half, ay + end * uy * half
                    c.line(
                        ex,
                        ey,
                        ex + end * ux * off * 0.8 + sgn * nx * off * 0.8,
                        ey + end * uy * off * 0.8 + sgn * ny * off * 0.8,
                    )
        c.setStrokeColor(ink)
        c.setLineWidth(0.5 * K)
        c.setFont(bold, spec["label_size"])
        for name in sorted(pts):
            x, y = at(name)
            c.setFillColor(city)
            c.circle(x, y, r * K, stroke=1, fill=1)
            c.setFillColor(HexColor("#000000"))
            c.drawCentredString(x, y + r * 0.45 * K, name)
        c.setFillColor(HexColor("#444444"))
        c.setFont(sans, 8)
        c.drawRightString((left + width - 4) * K, (page_h - top - height + 3) * K, f"seed {seed}")
        c.setFillColor(HexColor("#555555"))
        c.setFont(sans, 7)
        c.drawCentredString(page_w / 2 * K, 4 * K, "Aggression: Map")
        c.showPage()
    canvas.save()


CASES = {"generate": case_generate, "pages": case_pages, "pnp": case_pnp, "raw": case_raw}


# --- running cases in child processes -------------------------------------------------------------


def child(case: str, maps: int, trace: bool) -> None:
    """Run one case in this process and print its figures as JSON."""
    with tempfile.TemporaryDirectory() as out:
        if trace:
            tracemalloc.start()
        start = time.perf_counter()
        CASES[case](maps, out)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] if trace else None
        sizes = [os.path.getsize(os.path.join(out, f)) for f in os.listdir(out) if f.endswith(".pdf")]
    print(
        json.dumps(
            {
                "seconds": seconds,
                "traced_peak": peak,
                "sizes": sizes,
                "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            }
        )
    )


def run(case: str, maps: int, trace: bool = False) -> dict[str, Any]:
    """Return the figures of one case run in a fresh process."""
    args = [sys.executable, os.path.abspath(__file__), "--child", case, str(maps)] + (
        ["--trace"] if trace else []
    )
    done = subprocess.run(args, check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), "--trace" in sys.argv)
        return
    maps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(
        f"Aggression maps into one PDF: {maps} maps, median of {runs} runs, python {sys.version.split()[0]}"
    )
    print(
        f"{'case':34} {'time s':>8} {'ms/map':>7} {'maxrss MB':>10} {'traced MB':>10} "
        f"{'traced MB at N/10':>18} {'PDF MB':>7}"
    )
    labels = {
        "generate": "map data only (layout_data)",
        "pages": "page model only (no PDF)",
        "pnp": "pnp page model + PDF writer",
        "raw": "raw reportlab, same shapes",
    }
    for case in ("generate", "pages", "pnp", "raw"):
        timed = [run(case, maps) for _ in range(runs)]
        seconds = statistics.median(t["seconds"] for t in timed)
        rss = max(t["maxrss_kb"] for t in timed) / 1024
        traced = run(case, maps, trace=True)["traced_peak"] / 2**20
        small = run(case, max(1, maps // 10), trace=True)["traced_peak"] / 2**20
        pdf = sum(timed[0]["sizes"]) / 2**20
        print(
            f"{labels[case]:34} {seconds:8.2f} {1000 * seconds / maps:7.2f} {rss:10.1f} {traced:10.1f} "
            f"{small:18.1f} {pdf:7.2f}"
        )


if __name__ == "__main__":
    main()
