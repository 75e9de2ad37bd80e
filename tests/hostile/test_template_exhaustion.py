"""Templates that try to exhaust the machine (issue 30, item 2): each fails with a one-line error
naming the template, in a few seconds and well under 1 GB, because the sandbox caps every value a
template makes and counts its work (``generator/booklet/sandbox.py``)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from tests.hostile.helpers import ROOT, mini_kit

MEMORY = 1 << 30  # bytes of address space the rendering process may take
CPU_SECONDS = 10  # what the process (start-up and render) may spend

EXHAUSTING = {
    # the two of the issue: list growth in a loop, a nested list doubled and pretty-printed
    "extend": "{% set l = [] %}{% for i in range(100000) %}{% set _ = l.extend(range(100000)) %}{% endfor %}",
    "double-pprint": "{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}"
    "{% endfor %}{{ ns.l|pprint }}",
    # their cousins
    "double-print": "{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}"
    "{% endfor %}{{ ns.l }}",
    "double-tojson": "{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}"
    "{% endfor %}{{ ns.l|tojson }}",
    "double-string": "{% set ns = namespace(l={}) %}{% for i in range(40) %}{% set ns.l = {'a': ns.l, 'b': ns.l} %}"
    "{% endfor %}{{ ns.l|string|length }}",
    "tuple-hash": "{% set ns = namespace(t=(1,)) %}{% for i in range(40) %}{% set ns.t = (ns.t, ns.t) %}"
    "{% endfor %}{{ {ns.t: 1} }}",
    "compare": "{% set ns = namespace(a=[1], b=[1]) %}{% for i in range(40) %}{% set ns.a = [ns.a, ns.a] %}"
    "{% set ns.b = [ns.b, ns.b] %}{% endfor %}{{ ns.a == ns.b }}",
    "self-append": "{% set l = [] %}{% for i in range(1000) %}{% set _ = l.append(l) %}{% endfor %}{{ l }}",
    "dict-update": "{% set d = {} %}{% for i in range(100000) %}{% set _ = d.update({i: 'x' * 999999}) %}"
    "{% endfor %}",
    "dict-setdefault": "{% set d = {} %}{% for i in range(100000) %}"
    "{% set _ = d.setdefault(i, 'x' * 99999 ~ i) %}{% endfor %}",
    "append-strings": "{% set l = [] %}{% for i in range(100000) %}{% set _ = l.append('x' * 999999 ~ i) %}"
    "{% endfor %}",
    "str-join": "{{ ('x' * 999999).join(['a'] * 999999) }}",
    "join-filter": "{{ ['a'] * 999999 | join('x' * 999999) }}",
    "string-times": "{% set s = 'x' * 999999 %}{{ [s] * 999999 }}",
    "ljust": "{{ 'x'.ljust(999999999) }}",
    "replace-empty": "{{ ('x' * 99999).replace('', 'y' * 99999) }}",
    "indent": "{{ ('a\n' * 400000)|indent(999999) }}",
    "macro-tree": "{% macro f(n) %}{% if n > 0 %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}{{ f(40) }}",
    "macro-loop": "{% macro g(n) %}{% for k in range(100000) %}{{ n }}{% endfor %}{% endmacro %}"
    "{% for i in range(100000) %}{% set _ = g(i) %}{% endfor %}",
    "macro-endless": "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
    "range-steps": "{% for i in range(0, 10**90, 10**80) %}{% endfor %}",
    "range-wide": "{{ range(0 - 10**18, 10**18, 3)|length }}",
    "format-widths": "{{ ('{0:>999999}' * 1000).format(1) }}",
    "format-repeats": "{{ ('{0}' * 100000).format('x' * 999) }}",
    "printf-repeats": "{{ ('%(a)s' * 100000) % {'a': 'x' * 999} }}",
    "format-filter": "{{ ('%s' * 100000)|format(*(['x' * 999] * 100000)) }}",
    "sum-lists": "{{ range(100000)|map('string')|map('list')|sum(start=[]) }}",
}

RUNNER = """
import os, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
sys.path.insert(0, {root!r})
from generator.booklet.template import render_template
from generator.foundation.errors import TemplateError
try:
    render_template(sys.argv[1], {{}})
except TemplateError as exc:
    print(exc)
    sys.exit(3)
print("rendered")
"""


@pytest.mark.parametrize("name", sorted(EXHAUSTING))
def test_exhausting_template_fails_fast_in_little_memory(tmp_path, name):
    layouts = mini_kit(str(tmp_path), "# Rules\n\n" + EXHAUSTING[name] + "\n")
    path = os.path.join(os.path.dirname(layouts), "templates", "booklets", "mini.en.md.j2")
    code = RUNNER.format(memory=MEMORY, root=ROOT)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-c", code, path], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds, not wall-clock ones: the limit is work, so a busy machine changes nothing
    seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert seconds < CPU_SECONDS
    used = after.ru_maxrss * 1024
    assert result.returncode == 3, (result.stdout, result.stderr[-2000:])
    message = result.stdout.strip()
    assert "\n" not in message and "mini.en.md.j2" in message, message
    assert "memory" not in message, message  # refused by a limit, not by running out
    assert used < MEMORY
