"""A jinja2 environment safe for templates from strangers: jinja2's sandbox (no attribute access to
Python internals, so no shell commands or file writes) plus limits that keep a render within memory
and time.

Limits (per render): at most ``MAX_LOOP`` loop iterations in all, no string, list or output longer
than ``MAX_SIZE`` characters (items), and no more than ``MAX_SECONDS`` of rendering. A template
that breaks one raises ``RenderLimit``; the booklet renderer turns it into a one-line error naming
the template. Sizes are checked *before* the big value is made wherever the size can be known in
advance (``'x' * n``, ``a ~ b``, ``'%9999d' % 1``, ``center(n)``), so a hostile template never
allocates much memory.
"""

from __future__ import annotations

import contextvars
import operator
import re
import string
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from jinja2 import nodes
from jinja2.sandbox import SandboxedEnvironment

MAX_LOOP = 200_000  # loop iterations in one render, all loops together
MAX_SIZE = 1_000_000  # characters of output, of any string, items of any list made in a template
MAX_SECONDS = 5.0  # wall-clock time of one render
MAX_NUMBER_DIGITS = 100  # digits of any integer a template computes


class RenderLimit(Exception):
    """A template went beyond a render limit (loop length, size, time)."""


@dataclass
class Budget:
    """What is left of one render's limits."""

    loops: int = MAX_LOOP
    deadline: float = 0.0

    def tick(self) -> None:
        """Count one step of work; raise RenderLimit when time is up."""
        if time.monotonic() > self.deadline:
            raise RenderLimit(f"rendering took longer than {MAX_SECONDS:g} s")


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("pnp_render_budget", default=None)


def _budget() -> Budget:
    budget = _BUDGET.get()
    if budget is None:  # rendering outside render_limited (tests, tools): limits from now on
        budget = Budget(deadline=time.monotonic() + MAX_SECONDS)
        _BUDGET.set(budget)
    return budget


def _size(value: Any) -> int:
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        return len(value)
    return 0


def _check_size(value: Any, what: str = "a value") -> Any:
    if _size(value) > MAX_SIZE:
        raise RenderLimit(f"{what} longer than {MAX_SIZE} characters")
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value.bit_length() > MAX_NUMBER_DIGITS * 3.33
    ):
        raise RenderLimit(f"a number with more than {MAX_NUMBER_DIGITS} digits")
    return value


def _check_number(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SIZE:
        raise RenderLimit(f"{what} {value} is larger than {MAX_SIZE}")


_PRINTF = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\*|[0-9]+)?(?:\.(\*|[0-9]+))?")
_DIGITS = re.compile(r"[0-9]+")


def _check_printf(fmt: str) -> None:
    """Refuse a %-format whose widths or precisions would make a huge string."""
    for match in _PRINTF.finditer(fmt):
        for group in match.groups():
            if group == "*":
                raise RenderLimit("a '*' width in a format string")
            if group and int(group) > MAX_SIZE:
                raise RenderLimit(f"a format width {group} larger than {MAX_SIZE}")


def _check_format(fmt: str) -> None:
    """Refuse a str.format string whose field widths would make a huge string."""
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # str.format raises its own error
    for _, _, spec, _ in parsed:
        if spec and "{" in spec:
            raise RenderLimit("a nested field in a format spec")
        for digits in _DIGITS.findall(spec or ""):
            if int(digits) > MAX_SIZE:
                raise RenderLimit(f"a format width {digits} larger than {MAX_SIZE}")


def _checked_mul(left: Any, right: Any) -> Any:
    for seq, count in ((left, right), (right, left)):
        if isinstance(count, int) and _size(seq) and _size(seq) * max(count, 0) > MAX_SIZE:
            raise RenderLimit(f"a repeated value longer than {MAX_SIZE} items")
    return operator.mul(left, right)


def _checked_pow(left: Any, right: Any) -> Any:
    if isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
        if right * max(abs(left).bit_length(), 1) > MAX_NUMBER_DIGITS * 3.33:
            raise RenderLimit(f"a number with more than {MAX_NUMBER_DIGITS} digits")
    return operator.pow(left, right)


def _checked_add(left: Any, right: Any) -> Any:
    if _size(left) + _size(right) > MAX_SIZE:
        raise RenderLimit(f"a joined value longer than {MAX_SIZE} items")
    return operator.add(left, right)


def _checked_mod(left: Any, right: Any) -> Any:
    if isinstance(left, str):
        _check_printf(left)
    return operator.mod(left, right)


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "*": _checked_mul,
    "**": _checked_pow,
    "+": _checked_add,
    "%": _checked_mod,
}


def _filter_guard(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a filter: numeric arguments (widths, counts) and results within the limits."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        _budget().tick()
        # the filtered value is args[0] (or args[1] after a context/environment argument)
        for value in list(args[1:]) + list(kwargs.values()):
            if not isinstance(value, (str, list, tuple, dict)):
                _check_number(value, f"the {name} filter's argument")
        if name == "format" and args and isinstance(args[0], str):
            _check_printf(args[0])
        if name == "replace":
            values = [a for a in args if isinstance(a, str)]
            if len(values) >= 3 and len(values[-3]) * max(len(values[-1]), 1) > MAX_SIZE:
                raise RenderLimit(f"a replace that could make a string longer than {MAX_SIZE}")
        return _check_size(func(*args, **kwargs), f"the {name} filter's result")

    for attribute in ("jinja_pass_arg",):
        if hasattr(func, attribute):
            setattr(guarded, attribute, getattr(func, attribute))
    guarded.__name__ = getattr(func, "__name__", name)
    return guarded


class LimitedEnvironment(SandboxedEnvironment):
    """jinja2's sandbox with limits on loop length, value and output size, and render time."""

    intercepted_binops = frozenset(_BINOPS)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.filters = {name: _filter_guard(name, f) for name, f in self.filters.items()}
        self.pnp_loop = _loop
        self.pnp_concat = _concat

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """Apply a size-changing operator only when its result stays within the limits."""
        _budget().tick()
        if operator in _BINOPS:
            return _check_size(_BINOPS[operator](left, right))
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Call a function from a template with its arguments and result within the limits."""
        _budget().tick()
        for value in list(args) + list(kwargs.values()):
            _check_size(value, "an argument")
        return _check_size(super().call(__context, __obj, *args, **kwargs), "a call's result")

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """Sandbox ``str.format`` and refuse huge field widths."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)
        return wrapped

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        _guard_tree(tree)
        return tree


def _loop(iterable: Iterable[Any]) -> Iterator[Any]:
    """Yield a for loop's items, counting them against the render's loop budget."""
    budget = _budget()
    for item in iterable:
        budget.loops -= 1
        if budget.loops < 0:
            raise RenderLimit(f"loops ran more than {MAX_LOOP} times")
        budget.tick()
        yield item


def _concat(values: tuple[Any, ...]) -> str:
    """Join the parts of ``a ~ b`` when the result stays within the size limit."""
    parts = [str(v) for v in values]
    if sum(map(len, parts)) > MAX_SIZE:
        raise RenderLimit(f"a joined string longer than {MAX_SIZE} characters")
    return "".join(parts)


def _guard_tree(node: nodes.Node) -> None:
    """Route every for loop's items and every ``~`` join in a parsed template through the guards."""
    for field in node.fields:
        value = getattr(node, field, None)
        if isinstance(value, nodes.Node):
            setattr(node, field, _guarded(value))
            _guard_tree(value)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, nodes.Node):
                    value[i] = _guarded(item)
                    _guard_tree(item)
    if isinstance(node, nodes.For):
        node.iter = nodes.Call(nodes.EnvironmentAttribute("pnp_loop"), [node.iter], [], None, None)


def _guarded(node: nodes.Node) -> nodes.Node:
    if isinstance(node, nodes.Concat):
        return nodes.Call(
            nodes.EnvironmentAttribute("pnp_concat"), [nodes.Tuple(node.nodes, "load")], [], None, None
        )
    return node


def render_limited(render: Callable[[], Iterable[str]]) -> str:
    """Return the text of a render (an iterator of pieces) within the limits; raise RenderLimit."""
    token = _BUDGET.set(Budget(deadline=time.monotonic() + MAX_SECONDS))
    try:
        pieces: list[str] = []
        total = 0
        for piece in render():
            total += len(piece)
            if total > MAX_SIZE:
                raise RenderLimit(f"the rendered text is longer than {MAX_SIZE} characters")
            pieces.append(piece)
        return "".join(pieces)
    finally:
        _BUDGET.reset(token)
