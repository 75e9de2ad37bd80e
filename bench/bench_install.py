"""The install of the README's test command on a fresh machine: a new virtual environment and pip
without its cache installing the project with the ``test`` extra (``--no-compile``, as the README
says: bytecode is written on first import instead). Prints the time, the size of the environment
and its largest packages.

Run: python3 bench/bench_install.py [extra]   (extra: test by default; "" for the plain install)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def size(path: Path) -> int:
    """Return the bytes of the files under a folder."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def main() -> None:
    """Make a fresh environment, install the project into it and print the figures."""
    extra = sys.argv[1] if len(sys.argv) > 1 else "test"
    target = f".[{extra}]" if extra else "."
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        made = time.perf_counter()
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "--quiet", "--no-cache-dir", "--no-compile", "-e", target],
            cwd=ROOT,
            check=True,
            env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        )
        done = time.perf_counter()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        site = next(venv.glob("lib/python*/site-packages"))
        packages = sorted(((size(p), p.name) for p in site.iterdir() if p.is_dir()), reverse=True)
        print(f"pip install --no-compile -e '{target}' into a fresh venv, no pip cache")
        print(f"venv made in {made - start:.1f} s, install {done - made:.1f} s, total {done - start:.1f} s")
        print(f"CPU time {used.ru_utime + used.ru_stime:.1f} s; load average {os.getloadavg()[0]:.1f}")
        print(f"venv size {size(venv) / 1e6:.0f} MB")
        for number, name in packages[:8]:
            print(f"  {number / 1e6:6.1f} MB  {name}")


if __name__ == "__main__":
    main()
