"""Rendering rule-text templates: finding ``templates/booklets/<template>.<lang>.md.j2`` and filling
it with values from the game's definition and rules module through jinja2.

Undefined values are errors (``StrictUndefined``): a misspelt name fails with a one-line
TemplateError naming the template file, the line and the variable. Templates render in jinja2's
sandbox with limits on loops, sizes and time (``generator.booklet.sandbox``): a definition folder
someone sends you cannot run code or hang the build.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import jinja2
from jinja2.loaders import split_template_path

from generator.booklet.sandbox import LimitedEnvironment, RenderLimit, render_limited
from generator.definitions.schema import text_problem
from generator.foundation.compat import DottedUndefined
from generator.foundation.errors import TemplateError, UsageError
from generator.foundation.files import OutsideError, builtin_folder, cache_folder, read_inside, real_inside
from generator.foundation.languages import (
    LANGUAGES,
    TIED_LANGUAGES,
    set_text,
    terms,
    tie_one_letter_words,
    unit_count,
)

SUFFIX = ".md.j2"
_LANG = re.compile(r"^[a-z]{2,3}(-[a-z]{2,4})?$")


_CODE = re.compile(r"(`[^`\n]*`)")
# Italian "a" and "e" before a word, a square name or a single capital letter that begins with
# the same vowel: "ad", "ed" (ad A1, ed e3, ed è); a lone lowercase letter after them is a
# column's name (da a a j), left as it is
_EUPHONY = re.compile(r"(?<![\w’'`*\-])([ae])([ \t]*\n?[ \t]*)(?=([aAàÀ]|[eEèÈéÉ])(\w*))")


def short_words(text: str, lang: str) -> str:
    """Return rendered rule text with its short words set as a language's typography sets them
    (code spans as written): in Italian "a" and "e" become "ad" and "ed" before a word beginning
    with the same vowel; in French and Italian a one-letter word is tied to the next word by a
    no-break space (``markup.tie_one_letter_words``; the typesetter ties them again across runs)."""
    if lang not in TIED_LANGUAGES:
        return text
    out = []
    for n, part in enumerate(_CODE.split(text)):
        if n % 2 == 0:
            if lang == "it":
                part = _EUPHONY.sub(_euphonic, part)
            part = tie_one_letter_words(part)
        out.append(part)
    return "".join(out)


def _euphonic(match: re.Match[str]) -> str:
    """Return "ad"/"ed" and the space after it when the next word begins with the same vowel."""
    word, space, first, rest = match.group(1), match.group(2), match.group(3), match.group(4)
    same = first.lower() in ("aà" if word == "a" else "eèé")
    column = not rest and first in "ae"  # "da a a j": the letter after is a column's name
    return f"{word}d{space}" if same and not column else word + space


def booklets_dir(definition: Any) -> str:
    """Return the folder holding a definition's booklet templates."""
    return os.path.join(definition.templates_dir, "booklets")


def template_names(definition: Any) -> list[str]:
    """Return the template base names of the definition's booklet components (default: the game id)."""
    return list(definition.booklet_templates)


def template_languages(definition: Any, template: str) -> list[str]:
    """Return the languages a template exists in, sorted."""
    folder = booklets_dir(definition)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    prefix = template + "."
    langs = {n[len(prefix) : -len(SUFFIX)] for n in names if n.startswith(prefix) and n.endswith(SUFFIX)}
    return sorted(lang for lang in langs if _LANG.match(lang))


def languages(definition: Any) -> list[str]:
    """Return the languages every booklet of a game has a template for (all, if it has no booklet)."""
    names = template_names(definition)
    if not names:
        return list(definition.game_spec.languages or ["en"])
    common = set(template_languages(definition, names[0]))
    for name in names[1:]:
        common &= set(template_languages(definition, name))
    return sorted(common)


def check_language(definition: Any, lang: str) -> None:
    """Raise UsageError unless every booklet of the game has a template in the language."""
    if not template_names(definition):
        return
    have = languages(definition)
    if lang not in have:
        raise UsageError(
            f"{definition.id} has no rule booklet in {lang!r} (languages: {', '.join(have) or 'none'})"
        )


def template_path(definition: Any, template: str, lang: str) -> str:
    """Return the path of a template in a language; raise UsageError when there is none."""
    path = os.path.join(booklets_dir(definition), f"{template}.{lang}{SUFFIX}")
    if not os.path.isfile(path):
        have = template_languages(definition, template)
        if not have:
            raise TemplateError(
                f"{definition.path}: no booklet template {template!r} in "
                f"{shown_path(booklets_dir(definition))} (expected {template}.{lang}{SUFFIX})"
            )
        raise UsageError(f"{definition.id} has no rule booklet in {lang!r} (languages: {', '.join(have)})")
    return path


class Namespace(dict):
    """A dict of template values that knows its dotted name, for error messages."""

    def __init__(self, path: str, values: dict[str, Any]) -> None:
        super().__init__(values)
        self.path = path


def plural(count: int, one: str, many: str) -> str:
    """Return one or many by count (a template helper)."""
    return one if count == 1 else many


MAX_TEMPLATE_BYTES = 1_000_000


class _SizedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that reads only regular files whose real path (links followed) lies
    inside its templates folder ``root`` (itself inside the folder that holds it), and refuses
    template files larger than MAX_TEMPLATE_BYTES: a rule text, an ``{% include %}`` or an
    ``{% extends %}`` that is a link to a file elsewhere on the machine is an error, not read."""

    def __init__(self, searchpath: list[str], root: str) -> None:
        super().__init__(searchpath)
        self.root = root

    def get_source(self, environment: jinja2.Environment, template: str) -> Any:
        """Return the template's source, file name and up-to-date check, as jinja2 expects."""
        pieces = split_template_path(template)
        for folder in self.searchpath:
            candidate = os.path.join(folder, *pieces)
            if os.path.isfile(candidate):
                break
        else:
            raise jinja2.TemplateNotFound(template)
        holder = os.path.dirname(os.path.abspath(self.root))
        if real_inside(self.root, [holder]) is None:
            raise TemplateError(
                f"{shown_path(self.root)}: the templates folder leads outside the folder that holds "
                "it (a link); not read"
            )
        try:
            data = read_inside(candidate, [self.root], MAX_TEMPLATE_BYTES)
        except OutsideError:
            raise TemplateError(
                f"{shown_path(candidate)}: leads outside the templates folder (a link); not read"
            ) from None
        if len(data) > MAX_TEMPLATE_BYTES:
            raise TemplateError(
                f"{shown_path(candidate)}: larger than {MAX_TEMPLATE_BYTES} bytes, not a rule text"
            )
        contents = data.decode("utf-8")
        mtime = os.path.getmtime(candidate)

        def uptodate() -> bool:
            try:
                return os.path.getmtime(candidate) == mtime
            except OSError:
                return False

        return contents, os.path.normpath(candidate), uptodate


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """The compiled code of pnp's own templates, kept in its cache folder between runs (one file a
    template, written again when the template's text, pnp's sandbox or jinja2 change), so that a
    build does not compile the same rule texts again in every process. A definition folder's own
    templates are compiled each run: their paths change (and a cache of them would grow)."""

    def __init__(self, directory: str, salt: str) -> None:
        super().__init__(directory)
        self.salt = salt

    def get_source_checksum(self, source: str) -> str:
        """Return the checksum that keeps a compiled template: its text with what compiles it."""
        return hashlib.sha256((self.salt + source).encode("utf-8")).hexdigest()

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket from its file; a missing, damaged or foreign file leaves it empty
        (the template is compiled again)."""
        try:
            super().load_bytecode(bucket)
        except Exception:  # any damage means: compile again
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Keep the bucket's code in its file when the folder can take it (a full or read-only
        disk only costs the next run a compile)."""
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


@lru_cache(maxsize=1)
def _compiled_templates() -> _CompiledTemplates | None:
    """Return the cache of compiled built-in templates, None when pnp has no cache folder."""
    parent = cache_folder()
    if parent is None:
        return None
    folder = os.path.join(parent, "templates")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    from generator.booklet import sandbox
    from generator.foundation import compat

    salt = hashlib.sha256(jinja2.__version__.encode())
    for module in (sandbox, compat):
        with open(module.__file__ or "", "rb") as handle:
            salt.update(handle.read())
    with open(__file__, "rb") as handle:
        salt.update(handle.read())
    return _CompiledTemplates(folder, salt.hexdigest())


def _builtin(folder: str) -> bool:
    """Return whether a template folder is one of pnp's own (shipped with the package)."""
    return os.path.realpath(folder) == os.path.realpath(builtin_folder("templates"))


@lru_cache(maxsize=16)
@lru_cache(maxsize=64)
def _environment(folder: str, own: str) -> jinja2.Environment:
    """Return the sandboxed environment of a template folder, one a process: it keeps the
    templates it compiled (auto_reload compiles a file again when it changes on disk), so a kit's
    booklet, quick reference and sheet notes, and every kit of the process, compile each once;
    pnp's own templates are also kept compiled between runs (``_CompiledTemplates``)."""
    env = LimitedEnvironment(
        bytecode_cache=_compiled_templates() if _builtin(folder) else None,
        loader=_SizedLoader(list(dict.fromkeys([own, os.path.join(folder, "booklets"), folder])), folder),
        undefined=DottedUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=True,
    )
    env.globals["plural"] = plural
    del env.globals["lipsum"]  # makes text of any length
    return env


def _namespace(path: str, value: Any) -> Any:
    if isinstance(value, dict):
        return Namespace(path, {k: _namespace(f"{path}.{k}", v) for k, v in value.items()})
    if isinstance(value, list):
        return [_namespace(f"{path}[{i}]", v) for i, v in enumerate(value)]
    return value


def template_values(
    definition: Any,
    rules_values: dict[str, Any] | None = None,
    selected: frozenset[str] = frozenset(),
    lang: str = "en",
    seed: int | None = None,
    layout_data: Callable[[str], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Return the values a booklet template sees: game, components, rules, variants, lang, seed,
    ``data(name)``, the rules module's layout data (the same data the figures draw), and
    ``count(n, unit)``, a number with a turn limit's unit in the language ('200 turns')."""

    def count(number: int, unit: str) -> str:
        known = LANGUAGES["en"].units
        if unit not in known:
            raise TemplateError(f"count: no unit {unit!r} (units: {', '.join(known)})")
        return unit_count(number, unit, lang)

    def data(name: str) -> Any:
        if layout_data is None:
            raise TemplateError(f"{definition.id} has no rules module, so data({name!r}) is undefined")
        return _namespace(f"data({name!r})", layout_data(name))

    components = {}
    for spec in definition.components:
        components[spec.id] = {"id": spec.id, "kind": spec.kind, **spec.values}
    return {
        "game": _namespace("game", dict(definition.game)),
        "components": _namespace("components", components),
        "rules": _namespace("rules", dict(rules_values or {})),
        "variants": list(definition.game_spec.variants),
        "selected_variants": sorted(selected),
        "lang": lang,
        "terms": terms(lang, definition.id),
        "seed": seed,
        "data": data,
        "count": count,
    }


@lru_cache(maxsize=1)
def _text_environment() -> jinja2.Environment:
    env = LimitedEnvironment(undefined=DottedUndefined, autoescape=False)
    env.globals["plural"] = plural
    del env.globals["lipsum"]
    return env


@lru_cache(maxsize=256)
def _text_template(text: str) -> jinja2.Template:
    return _text_environment().from_string(text)


_ADDRESS = re.compile(r"<[^\n]{1,200}? at 0x[0-9a-fA-F]{4,}>")


def _output_problem(text: str) -> str | None:
    """Return what is wrong with a rendered text that is to be printed: a character no SVG or HTML
    can hold, or an object printed instead of a value (its memory address would differ from one
    build to the next), or None."""
    problem = text_problem(text.replace("\t", " "))
    if problem:
        return f"its text {problem}"
    found = _ADDRESS.search(text)
    if found:
        what = found.group().split(" at 0x")[0][1:]
        return f"prints an object ({what}), not a value; its address would differ in every build"
    return None


def render_text(text: str, values: dict[str, Any], where: str) -> str:
    """Return a short text of a definition (a sheet's note) rendered with template values, as the
    booklet's are: ``{{ rules.turn_limit }}`` becomes the rules module's value. A text without
    ``{{`` or ``{%`` is returned as it is; a fault is a TemplateError naming ``where``."""
    if "{{" not in text and "{%" not in text:
        return set_text(text, values.get("lang", ""))
    try:
        filled = render_limited(lambda: _text_template(text).generate(values))
        problem = _output_problem(filled)
        if problem:
            raise TemplateError(problem)
        return set_text(filled, values.get("lang", ""))
    except RenderLimit as exc:
        raise TemplateError(f"{where}: {exc}") from None
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"{where}: {exc.message}") from None
    except TemplateError as exc:
        raise TemplateError(f"{where}: {exc}") from None
    except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as exc:
        message = str(exc) if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: {exc}"
        raise TemplateError(f"{where}: {message}") from None


def shown_path(path: str) -> str:
    """Return a path relative to the working folder when it lies inside it, else as given."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def render_template(path: str, values: dict[str, Any]) -> str:
    """Return the text of a template file rendered with values, set in the typography of
    ``values['lang']`` (French no-break spaces); raise TemplateError on any fault."""
    own = os.path.dirname(os.path.abspath(path))
    env = _environment(os.path.dirname(own), own)
    name = os.path.basename(path)
    shown = shown_path(path)
    try:
        template = env.get_template(name)
        text = render_limited(lambda: template.generate(values))
        problem = _output_problem(text)
        if problem:
            raise TemplateError(f"{shown}: {problem}")
        return short_words(set_text(text, values.get("lang", "")), values.get("lang", ""))
    except RenderLimit as exc:
        where, line = _template_frame(exc, path)
        raise TemplateError(f"{where}, line {line}: {exc}" if line else f"{where}: {exc}") from None
    except RecursionError:
        raise TemplateError(f"{shown}: templates include or call themselves without end") from None
    except MemoryError:
        raise TemplateError(f"{shown}: rendering needs more memory than there is") from None
    except UnicodeDecodeError:
        raise TemplateError(f"{shown}: a template it reads is not UTF-8 text") from None
    except OSError as exc:
        raise TemplateError(f"{shown}: cannot be read: {exc.strerror or exc}") from None
    except jinja2.TemplateSyntaxError as exc:
        where = shown_path(exc.filename) if exc.filename else shown
        raise TemplateError(f"{where}, line {exc.lineno}: {exc.message}") from None
    except TemplateError as exc:
        where, line = _template_frame(exc, path)
        if not line and str(exc).startswith(f"{where}: "):
            raise TemplateError(str(exc)) from None  # the template itself, named already
        raise TemplateError(f"{where}, line {line}: {exc}" if line else f"{where}: {exc}") from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(f"{shown}: includes {exc.name!r}, which does not exist") from None
    except (
        jinja2.UndefinedError,
        jinja2.TemplateError,
        TypeError,
        ValueError,
        ArithmeticError,
        LookupError,
        AttributeError,
    ) as exc:
        where, line = _template_frame(exc, path)
        message = str(exc) if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: {exc}"
        raise TemplateError(f"{where}, line {line}: {message}" if line else f"{where}: {message}") from None


def _template_frame(exc: BaseException, path: str) -> tuple[str, int | None]:
    """Return the innermost template file and line of a rendering error's traceback."""
    where, line = shown_path(path), None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            where, line = shown_path(filename), tb.tb_lineno
        tb = tb.tb_next
    return where, line
