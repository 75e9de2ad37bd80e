"""A jinja2 environment safe for templates from strangers: jinja2's sandbox (no attribute access to
Python internals, so no shell commands or file writes) plus limits that keep a render within memory
and time, measured in work so that the same template renders or fails the same way on an idle
machine and on a busy one.

Limits (per render):

- every value a template makes or hands on (a string, a list, a dict, a number, the text of a call,
  a filter or an operator, what ``{{ }}`` prints) is at most ``MAX_SIZE`` characters long as
  printed: lists and dicts count their items as ``str`` would print them, nested and shared parts
  each time they are printed, so a list doubled forty times is refused before it is printed;
- ``range`` gives at most ``MAX_RANGE`` items and loops run at most ``MAX_LOOP`` times in all;
- the render does at most ``MAX_WORK`` units of work: one for every call, filter, test, operator,
  attribute or item lookup and loop step (``MACRO_WORK`` for a macro call), and one for every
  character of every value made, measured or printed (so a render cannot make more than that
  much text in all); the longest built-in booklet takes about 16 000;
- and, as a backstop, at most ``MAX_SECONDS`` of CPU time (the rendering thread's, not the wall
  clock's).

A template that breaks one raises ``RenderLimit``; the booklet renderer turns it into a one-line
error naming the template and line. Sizes are checked *before* the big value is made wherever the
size can be known in advance (``'x' * n``, ``a ~ b``, ``'%9999d' % 1``, ``center(n)``,
``l.extend(...)``, ``sep.join(...)``, ``'{}'.format(...)``), so a hostile template never allocates
much memory.
"""

from __future__ import annotations

import contextvars
import itertools
import operator
import re
import string
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from typing import Any

from jinja2 import nodes
from jinja2.runtime import Macro
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import Namespace as JinjaNamespace

from generator.foundation.compat import CheckedParse

MAX_LOOP = 200_000  # loop iterations in one render, all loops together
MAX_RANGE = 100_000  # items of one range()
MAX_SIZE = 1_000_000  # characters of output, of any string, of any value as printed
MAX_WORK = 2_000_000  # units of work of one render (steps, and characters made or measured)
MACRO_WORK = 50  # units one call of a macro costs (a macro call is many steps of jinja2's own)
MAX_SECONDS = 5.0  # CPU time of one render (a backstop; the work limit comes first)
MAX_NUMBER_DIGITS = 100  # digits of any integer a template computes

_MAX_BITS = int(MAX_NUMBER_DIGITS * 3.33)


class RenderLimit(Exception):
    """A template went beyond a render limit (size, loop length, work, time)."""


@dataclass
class Budget:
    """What is left of one render's limits."""

    loops: int = MAX_LOOP
    work: int = MAX_WORK
    deadline: float = 0.0
    next_clock: int = MAX_WORK  # the work left when the CPU clock is read next

    def charge(self, units: int) -> None:
        """Count units of work; raise RenderLimit when the work or the CPU time is used up."""
        self.work -= units
        if self.work < 0:
            raise RenderLimit(f"rendering did more than {MAX_WORK} steps of work")
        if self.work <= self.next_clock:  # the clock is read every 1000 units (it is slow)
            self.next_clock = self.work - 1000
            if time.thread_time() > self.deadline:
                raise RenderLimit(f"rendering took longer than {MAX_SECONDS:g} s of CPU time")

    def tick(self) -> None:
        """Count one step of work; raise RenderLimit when the work or the CPU time is used up."""
        self.charge(1)


def _new_budget() -> Budget:
    return Budget(work=MAX_WORK, next_clock=MAX_WORK, deadline=time.thread_time() + MAX_SECONDS)


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("pnp_render_budget", default=None)


def _budget() -> Budget:
    budget = _BUDGET.get()
    if budget is None:  # rendering outside render_limited (tests, tools): limits from now on
        budget = _new_budget()
        _BUDGET.set(budget)
    return budget


def _size(value: Any) -> int:
    """Return a value's own length (items or characters, not nested), 0 for what has none."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset, range)):
        try:
            return len(value)
        except OverflowError:  # a range longer than sys.maxsize
            return MAX_SIZE + 1
    return 0


def _digits(value: int) -> int:
    bits = value.bit_length()
    if bits > _MAX_BITS:
        raise RenderLimit(f"a number with more than {MAX_NUMBER_DIGITS} digits")
    return bits * 3 // 10 + 2


def measure(value: Any, what: str = "a value") -> int:
    """Return about how many characters ``str(value)`` prints (at least the value's length),
    counting nested and shared parts each time they print; charge that much work. Raise
    RenderLimit, after at most about ``MAX_SIZE`` steps, when it is over ``MAX_SIZE``."""
    if isinstance(value, str) and len(value) <= MAX_SIZE:
        _budget().charge(len(value) + 2)
        return len(value) + 2
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (str, bytes)):
            total += len(item) + 2
        elif isinstance(item, bool) or item is None:
            total += 5
        elif isinstance(item, int):
            total += _digits(item)
        elif isinstance(item, float):
            total += 24
        elif isinstance(item, range):
            count = _size(item)
            total += count * 2 + 2
            if count <= MAX_SIZE:
                total += count * max(_digits(item.start), _digits(item.stop))
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2 * len(item) + 2
            if total <= MAX_SIZE:
                stack.extend(item)
        elif isinstance(item, dict):
            total += 4 * len(item) + 2
            if total <= MAX_SIZE:
                stack.extend(item.keys())
                stack.extend(item.values())
        elif isinstance(item, JinjaNamespace):
            attrs = object.__getattribute__(item, "_Namespace__attrs")
            total += 12
            stack.append(attrs)
        else:
            total += 1
        if total > MAX_SIZE:
            _budget().charge(MAX_SIZE)
            raise RenderLimit(f"{what} longer than {MAX_SIZE} characters")
    _budget().charge(total)
    return total


def _check_number(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SIZE:
        raise RenderLimit(f"{what} {value} is larger than {MAX_SIZE}")


def _refuse_over(size: int, what: str) -> None:
    if size > MAX_SIZE:
        raise RenderLimit(f"{what} longer than {MAX_SIZE} characters")


_PRINTF = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\*|[0-9]+)?(?:\.(\*|[0-9]+))?[a-zA-Z%]?")
_DIGITS = re.compile(r"[0-9]+")


def _check_printf(fmt: str, values: Any = None) -> None:
    """Refuse a %-format whose widths, precisions or repeated values would make a huge string."""
    fields = 0
    widths = 0
    for match in _PRINTF.finditer(fmt):
        fields += 1
        for group in match.groups():
            if group == "*":
                raise RenderLimit("a '*' width in a format string")
            if group:
                if int(group) > MAX_SIZE:
                    raise RenderLimit(f"a format width {group} larger than {MAX_SIZE}")
                widths += int(group)
    each = measure(values, "a formatted value") if values is not None and fields else 0
    _refuse_over(len(fmt) + widths + fields * each, "a formatted string")


def _check_format(fmt: str, args: Iterable[Any] = ()) -> None:
    """Refuse a str.format string whose field widths or repeated fields would make a huge string."""
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # str.format raises its own error
    fields = 0
    widths = 0
    for _, field, spec, _ in parsed:
        if field is None:
            continue
        fields += 1
        if spec and "{" in spec:
            raise RenderLimit("a nested field in a format spec")
        for digits in _DIGITS.findall(spec or ""):
            if int(digits) > MAX_SIZE:
                raise RenderLimit(f"a format width {digits} larger than {MAX_SIZE}")
            widths += int(digits)
    values = list(args)
    each = measure(values, "a formatted value") if values and fields else 0
    _refuse_over(len(fmt) + widths + fields * each, "a formatted string")


def _checked_mul(left: Any, right: Any) -> Any:
    for seq, count in ((left, right), (right, left)):
        if isinstance(count, int) and _size(seq) and _size(seq) * max(count, 0) > MAX_SIZE:
            raise RenderLimit(f"a repeated value longer than {MAX_SIZE} items")
    return operator.mul(left, right)


def _checked_pow(left: Any, right: Any) -> Any:
    if isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
        if right * max(abs(left).bit_length(), 1) > _MAX_BITS:
            raise RenderLimit(f"a number with more than {MAX_NUMBER_DIGITS} digits")
    return operator.pow(left, right)


def _checked_add(left: Any, right: Any) -> Any:
    if _size(left) + _size(right) > MAX_SIZE:
        raise RenderLimit(f"a joined value longer than {MAX_SIZE} items")
    return operator.add(left, right)


def _checked_mod(left: Any, right: Any) -> Any:
    if isinstance(left, str):
        _check_printf(left, right)
    return operator.mod(left, right)


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "*": _checked_mul,
    "**": _checked_pow,
    "+": _checked_add,
    "%": _checked_mod,
}


def _bounded_list(values: Any, what: str) -> list[Any]:
    """Return the items of an iterable as a list, refusing more than MAX_SIZE of them."""
    items = list(itertools.islice(iter(values), MAX_SIZE + 1))
    _refuse_over(len(items), what)
    return items


def _str_method_size(receiver: str | bytes, name: str, args: tuple[Any, ...]) -> int:
    """Return an upper bound of the length of a string method's result (0: no growth to fear)."""
    length = len(receiver)
    numbers = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
    if name in ("ljust", "rjust", "center", "zfill"):
        return max([length, *numbers])
    if name == "expandtabs":
        return length * max([8, *numbers])
    if name == "replace" and len(args) >= 2 and isinstance(args[1], (str, bytes)):
        old = args[0] if isinstance(args[0], (str, bytes)) else ""
        return length + (length // max(len(old), 1) + 1) * len(args[1])
    if name in ("translate", "maketrans"):
        raise RenderLimit(f"str.{name} is not available in templates")
    return 0


_GROWING = {"append": 1, "insert": 1, "add": 1, "setdefault": 1, "extend": 0, "update": 0}


class LimitedEnvironment(CheckedParse, SandboxedEnvironment):
    """jinja2's sandbox with limits on value and output size, loop length, work and CPU time."""

    intercepted_binops = frozenset(_BINOPS)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("finalize", _finalize)
        super().__init__(**kwargs)
        self.filters = {name: _filter_guard(name, f) for name, f in self.filters.items()}
        self.tests = {name: _test_guard(name, f) for name, f in self.tests.items()}
        self.globals["range"] = _range
        self.pnp_loop = _loop
        self.pnp_concat = _concat
        self.pnp_value = _value

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """Apply an operator only when its operands and result stay within the limits."""
        _budget().tick()
        measure(left, "an operand")
        measure(right, "an operand")
        if operator in _BINOPS:
            result = _BINOPS[operator](left, right)
        else:
            result = super().call_binop(context, operator, left, right)
        measure(result, "an operator's result")
        return result

    def getitem(self, obj: Any, argument: Any) -> Any:
        """Look an item up (its key measured, so hashing it is cheap)."""
        _budget().tick()
        if isinstance(argument, tuple):
            measure(argument, "a key")
        return super().getitem(obj, argument)

    def getattr(self, obj: Any, attribute: str) -> Any:
        """Look an attribute up, counting the step."""
        _budget().tick()
        return super().getattr(obj, attribute)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Call a function from a template with its arguments and result within the limits."""
        _budget().charge(MACRO_WORK if isinstance(__obj, Macro) else 1)
        for value in list(args) + list(kwargs.values()):
            measure(value, "an argument")
        receiver = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(receiver, (str, bytes)):
            grows = _str_method_size(receiver, name, args)
            _refuse_over(grows, f"the result of {name}()")
            if name == "join" and args:
                items = _bounded_list(args[0], "a joined list")
                size = len(receiver) * len(items) + measure(items, "a joined list")
                _refuse_over(size, "a joined string")
                args = (items, *args[1:])
        elif isinstance(receiver, (list, dict, set)) and name in _GROWING:
            added = _GROWING[name] or sum(_size(a) for a in args) + len(kwargs)
            if name in ("extend", "update") and args and not isinstance(args[0], Sized):
                args = (_bounded_list(args[0], f"the items {name}() adds"), *args[1:])
                added = len(args[0])
            _refuse_over(len(receiver) + added, f"a {type(receiver).__name__} grown by {name}()")
        result = super().call(__context, __obj, *args, **kwargs)
        measure(result, "a call's result")
        return result

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """Sandbox ``str.format`` and refuse results that would be huge."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = value.__self__

        def checked(*args: Any, **kwargs: Any) -> str:
            _check_format(fmt, [*args, *kwargs.values()])
            return wrapped(*args, **kwargs)

        return checked

    def check_tree(self, tree: nodes.Template) -> None:
        """Refuse a parsed template whose tree goes past the limits (``_guard_tree``)."""
        _guard_tree(tree)


def _filter_guard(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a filter: its arguments (widths, counts) and its result within the limits."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        _budget().tick()
        # the filtered value is args[0] (or args[1] after a context/environment argument)
        for value in list(args) + list(kwargs.values()):
            measure(value, f"the {name} filter's value")
        for value in list(args[1:]) + list(kwargs.values()):
            if not isinstance(value, (str, list, tuple, dict)):
                _check_number(value, f"the {name} filter's argument")
        texts = [a for a in args if isinstance(a, str)]
        if name == "format" and texts:
            _check_printf(texts[0], args[args.index(texts[0]) + 1 :])
        if name == "replace" and len(texts) >= 3:
            _refuse_over(_str_method_size(texts[-3], "replace", tuple(texts[-2:])), "a replaced string")
        if name in ("indent", "wordwrap") and texts:
            numbers = [a for a in [*args, *kwargs.values()] if isinstance(a, int)]
            extra = max([len(t) for t in texts[1:]] + numbers + [4])
            _refuse_over(len(texts[0]) * (extra + 1), f"the {name} filter's result")
        if name == "join" and args:
            sep = next((a for a in [*args[2:], *kwargs.values()] if isinstance(a, str)), "")
            _refuse_over(len(sep) * _size(args[1] if len(args) > 1 else args[0]), "a joined string")
        if name == "sum":
            for value in list(args[2:]) + list(kwargs.values()):
                if not isinstance(value, (int, float, str)):
                    raise RenderLimit("sum adds numbers only")
        result = func(*args, **kwargs)
        if isinstance(result, Iterator):  # map, select, batch...: counted as they are drawn
            return _loop(result, loops=False)
        measure(result, f"the {name} filter's result")
        return result

    for attribute in ("jinja_pass_arg",):
        if hasattr(func, attribute):
            setattr(guarded, attribute, getattr(func, attribute))
    guarded.__name__ = getattr(func, "__name__", name)
    return guarded


def _test_guard(name: str, func: Any) -> Callable[..., Any]:
    """Wrap a test (``is ...``): its values measured, the step counted."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        _budget().tick()
        for value in list(args) + list(kwargs.values()):
            measure(value, f"the {name} test's value")
        return func(*args, **kwargs)

    for attribute in ("jinja_pass_arg",):
        if hasattr(func, attribute):
            setattr(guarded, attribute, getattr(func, attribute))
    guarded.__name__ = getattr(func, "__name__", name)
    return guarded


def _range(*args: Any) -> range:
    """Return ``range(*args)`` when it has at most MAX_RANGE items."""
    for value in args:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RenderLimit("range takes whole numbers")
        _digits(value)
    items = range(*args)
    count = _size(items)
    if count > MAX_RANGE:
        raise RenderLimit(f"a range of more than {MAX_RANGE} items")
    return items


def _finalize(value: Any) -> Any:
    """Measure what ``{{ }}`` prints before it is turned into text."""
    measure(value, "a printed value")
    return value


def _value(value: Any) -> Any:
    """Measure a value a template builds or compares (a list, tuple or dict literal, a comparison's
    operand) and pass it on."""
    measure(value, "a value")
    return value


def _loop(iterable: Iterable[Any], loops: bool = True) -> Iterator[Any]:
    """Yield a for loop's items, counting them against the render's loop and work budgets."""
    budget = _budget()
    for item in iterable:
        if loops:
            budget.loops -= 1
            if budget.loops < 0:
                raise RenderLimit(f"loops ran more than {MAX_LOOP} times")
        budget.tick()
        yield item


def _concat(values: tuple[Any, ...]) -> str:
    """Join the parts of ``a ~ b`` when the result stays within the size limit."""
    total = sum(measure(v, "a joined value") for v in values)
    _refuse_over(total, "a joined string")
    parts = [str(v) for v in values]
    _refuse_over(sum(map(len, parts)), "a joined string")
    return "".join(parts)


def _call(name: str, node: Any) -> nodes.Call:
    return nodes.Call(nodes.EnvironmentAttribute(name), [node], [], None, None)


def _guard_tree(node: nodes.Node) -> None:
    """Route every for loop's items, every ``~`` join, every literal list, tuple and dict and every
    comparison's operands in a parsed template through the guards."""
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
        node.iter = _call("pnp_loop", node.iter)
    if isinstance(node, nodes.Compare):
        node.expr = _call("pnp_value", node.expr)
        for operand in node.ops:
            operand.expr = _call("pnp_value", operand.expr)


def _guarded(node: nodes.Node) -> nodes.Node:
    if isinstance(node, nodes.Concat):
        return nodes.Call(
            nodes.EnvironmentAttribute("pnp_concat"), [nodes.Tuple(node.nodes, "load")], [], None, None
        )
    if isinstance(node, (nodes.List, nodes.Dict)) or (isinstance(node, nodes.Tuple) and node.ctx == "load"):
        return _call("pnp_value", node)
    return node


def render_limited(render: Callable[[], Iterable[str]]) -> str:
    """Return the text of a render (an iterator of pieces) within the limits; raise RenderLimit."""
    budget = _new_budget()
    token = _BUDGET.set(budget)
    try:
        pieces: list[str] = []
        total = 0
        for piece in render():
            total += len(piece)
            if total > MAX_SIZE:
                raise RenderLimit(f"the rendered text is longer than {MAX_SIZE} characters")
            budget.charge(len(piece))
            pieces.append(piece)
        return "".join(pieces)
    finally:
        _BUDGET.reset(token)
