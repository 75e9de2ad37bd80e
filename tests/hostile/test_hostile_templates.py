"""Item 1: booklet templates from a stranger's definition folder run in a sandbox with limits on
loops, sizes and time; breaking one is a one-line error (exit 3) naming the template."""

from __future__ import annotations

import os

import pytest

from generator.booklet import sandbox
from generator.booklet.template import render_template
from generator.foundation.errors import TemplateError
from tests.hostile.helpers import cli, mini_kit

ESCAPES = [
    "{{ lipsum.__globals__['os'].popen('touch PWNED').read() }}",
    "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ plural.__globals__['os'].system('touch PWNED') }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ self._TemplateReference__context.environment.__init__.__globals__ }}",
]

HOGS = [
    "{% for i in range(10**12) %}{% endfor %}",
    "{{ 'x' * 10**8 }}",
    "{{ ['x'] * 10**8 }}",
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
    "{{ '%0999999999d' % 1 }}",
    "{{ '%0999999999d'|format(1) }}",
    "{{ '{:>999999999}'.format(1) }}",
    "{{ 'x'|center(999999999) }}",
    "{{ 'a\nb'|indent(999999999) }}",
    "{{ 10**10**10 }}",
    "{{ ('x' * 999999)|replace('x', 'y' * 99999) }}",
    "{% for i in range(99999) %}{{ 'x' * 99 }}{% endfor %}",
    "{% include 'mini.en.md.j2' %}",
    "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
]


def _render(tmp_path, text: str) -> str:
    layouts = mini_kit(str(tmp_path), "# Rules\n\n" + text + "\n")
    path = os.path.join(os.path.dirname(layouts), "templates", "booklets", "mini.en.md.j2")
    return render_template(path, {})


@pytest.mark.parametrize("text", ESCAPES)
def test_template_cannot_reach_python_internals(tmp_path, text):
    with pytest.raises(TemplateError) as caught:
        _render(tmp_path, text.replace("PWNED", str(tmp_path / "pwned")))
    assert "mini.en.md.j2" in str(caught.value)
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("text", HOGS)
def test_template_limits_are_one_line_errors(tmp_path, text):
    with pytest.raises(TemplateError) as caught:
        _render(tmp_path, text)
    message = str(caught.value)
    assert "mini.en.md.j2" in message and "\n" not in message


def test_render_time_is_limited(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "MAX_SECONDS", 0.2)
    monkeypatch.setattr(sandbox, "MAX_WORK", 10**12)  # the CPU-time backstop, not the work count
    slow = "{% for i in range(300) %}{% for j in range(300) %}{% if (range(2000)|list|sum) < 0 %}x{% endif %}{% endfor %}{% endfor %}"
    with pytest.raises(TemplateError, match=r"longer than 0\.2 s of CPU time"):
        _render(tmp_path, slow)


def test_ordinary_template_features_still_work(tmp_path):
    text = (
        "{% set ns = namespace(n=0) %}{% for i in range(5) %}{% set ns.n = ns.n + i %}{% endfor %}"
        "{{ ns.n }} {{ 'ab' ~ 'cd' }} {{ '%03d' % 7 }} {{ 'x'|center(5) }}|{{ [1, 2] * 2 }}"
        " {{ '{:>4}'.format(1) }} {{ 2 ** 10 }}"
    )
    assert "10 abcd 007   x  |[1, 2, 1, 2]    1 1024" in _render(tmp_path, text)


def test_build_with_an_escaping_template_exits_3_naming_it(tmp_path):
    pwned = tmp_path / "pwned"
    escape = "{{ lipsum.__globals__['os'].popen('touch " + str(pwned) + "').read() }}\n"
    layouts = mini_kit(str(tmp_path), escape)
    run = cli("build", "mini", "--layouts", layouts, "--out", str(tmp_path / "out"), "-q")
    assert run.code == 3
    assert "mini.en.md.j2" in run.one_line_error()
    assert not pwned.exists()
    assert not (tmp_path / "out" / "mini").exists()


def test_build_with_a_hanging_template_exits_3(tmp_path):
    layouts = mini_kit(str(tmp_path), "{% for i in range(10**12) %}{% endfor %}\n")
    run = cli("build", "mini", "--layouts", layouts, "--out", str(tmp_path / "out"), "-q")
    assert run.code == 3
    assert "mini.en.md.j2, line 1" in run.one_line_error()


def test_oversized_template_file_is_refused(tmp_path):
    layouts = mini_kit(str(tmp_path), "# Rules\n\n" + "word " * 300_000 + "\n")
    run = cli("build", "mini", "--layouts", layouts, "--out", str(tmp_path / "out"), "-q")
    assert run.code == 3
    assert "larger than" in run.one_line_error()


@pytest.mark.parametrize(
    "expression",
    ["components.copy", "game.items", "data", "count", "plural", "components.booklet.keys", "range"],
)
def test_a_template_that_prints_an_object_is_refused_not_built_twice_differently(tmp_path, expression):
    layouts = mini_kit(str(tmp_path), template=f"# Rules\n\nSee {{{{ {expression} }}}}.\n")
    for run in (
        cli("check", os.path.join(layouts, "mini.toml")),
        cli("build", "mini", "--layouts", layouts, "--out", str(tmp_path / "out"), "-q"),
    ):
        assert run.code == 3, run.err
        line = run.one_line_error()
        assert "prints an object" in line and "0x" not in line, line
