"""Reading layouts/*.toml: the loader checks a file against the game, paper and component-kind
schemas and returns a ``GameDefinition``. Unknown keys, wrong types, missing keys and impossible
values are one-line errors naming the file and the key path.

The loader sits above the component kinds (it asks the kind table for each kind's schema), so the
kinds can use the definition's values without importing the loader.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from typing import Any

from generator.components.base import COMMON_SCHEMA
from generator.components.kinds import find_kind
from generator.components.specs import BookletSpec
from generator.definitions.schema import (
    Field,
    Where,
    convert,
    glyph_problem,
    is_colour_key,
    text_problem,
    validate,
)
from generator.definitions.values import (
    BUILTIN_GAMES,
    GAME_SCHEMA,
    LAYOUTS_DIR,
    PAPER_SCHEMA,
    TEMPLATES_DIR,
    ComponentSpec,
    GameDefinition,
    IconPicture,
    UserFont,
    layout_files,
    templates_for,
)
from generator.foundation.errors import DefinitionError, UnknownGameError
from generator.foundation.files import note_read
from generator.foundation.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    TIED_LANGUAGES,
    language_codes,
    set_text,
    tie_one_letter_words,
)
from generator.foundation.numbers import is_ascii_digits
from generator.model.inline import plain

MAX_DEFINITION_BYTES = 1_000_000
MAX_COMPONENTS = 100


#: The tables of a definition file; each component's keys are COMMON_SCHEMA and its kind's SCHEMA.
TOP_SCHEMA: dict[str, Field] = {
    "game": Field(
        "table",
        required=True,
        schema=GAME_SCHEMA,
        doc="the game: id, title, players, seeding, variants, languages",
    ),
    "translations": Field(
        "any", default={}, doc="texts in other languages: [translations.fr] maps a key path to its text"
    ),
    "palette": Field("map:colour", default={}, doc="colour names usable wherever a colour is asked for"),
    "paper": Field("table", default=None, schema=PAPER_SCHEMA, doc="the sheet's margin"),
    "fonts": Field(
        "map:str",
        default={},
        doc="faces of one's own: a name for each TrueType file in the definition's folder "
        "(its licence file beside it), usable wherever a font is chosen",
    ),
    "icons": Field(
        "map:str",
        default={},
        doc="pictures to set inside texts as :name:: a name for each PNG or JPEG file in the "
        "definition's folder",
    ),
    "components": Field(
        "any", required=True, doc="the kit's components: [components.<id>] tables with a kind"
    ),
}


def _translate(
    data: dict[str, Any], where: Where, lang: str | None, glyphs: list[tuple[Where, str, str]] | None = None
) -> dict[str, Any]:
    """Check the ``[translations.<lang>]`` tables and return the data with one language applied.

    Each translation maps a key path of a text in the definition ("components.strip.start_label",
    "components.pieces.counters.0.label") to its text in that language. glyphs: where each text,
    its key path and itself are kept, to be checked in the face the text is set in (a definition
    with faces of its own); None: checked against the shipped faces here."""
    checked = _checked_translations(data, where, glyphs is not None)
    if glyphs is not None:
        glyphs.extend(checked)
    chosen = data.get("translations", {}).get(lang) if lang else None
    if not chosen:
        return data
    data = copy.deepcopy(data)
    for key, raw in chosen.items():
        text = set_text(raw, lang or DEFAULT_LANGUAGE)
        if lang in TIED_LANGUAGES:  # a one-letter word never ends a line the text wraps into
            text = tie_one_letter_words(text)
        parts = key.split(".")
        node = data
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        last = parts[-1]
        if isinstance(node, list):
            node[int(last)] = text
        else:
            node[last] = text
    return data


def _checked_translations(data: dict[str, Any], where: Where, keep: bool) -> list[tuple[Where, str, str]]:
    """Check every ``[translations.<lang>]`` table of a definition's data (whatever the language
    loaded: once per data within ``reading_once``); return where each text, its key path and
    itself are, to be checked in the face the text is set in when ``keep`` (a definition with
    faces of its own), else [] (each text checked against the shipped faces here)."""
    memo = _CHECKED_ONCE[-1] if _CHECKED_ONCE else None
    if memo is not None and (id(data), keep) in memo and memo[id(data), keep][0] is data:
        return memo[id(data), keep][1]
    glyphs: list[tuple[Where, str, str]] | None = [] if keep else None
    tables = data.get("translations", {})
    tw = where.child("translations")
    if not isinstance(tables, dict):
        raise tw.error("expected a table of languages, e.g. [translations.fr]")
    for code, table in tables.items():
        if code not in LANGUAGES:
            raise tw.child(code).error(f"unknown language (languages: {language_codes()})")
        if not isinstance(table, dict):
            raise tw.child(code).error("expected a table of key paths and texts")
        for key, text in table.items():
            kw = tw.child(code).child(key)
            if not isinstance(text, str):
                raise kw.error(f"expected a string, got {type(text).__name__}")
            problem = text_problem(text)
            if not problem and glyphs is not None:
                glyphs.append((kw, key, text))
            elif not problem:
                problem = glyph_problem(text)
            if problem:
                raise kw.error(problem)
            node: Any = data
            parts = key.split(".")
            for part in parts:
                if isinstance(node, list) and is_ascii_digits(part) and int(part) < len(node):
                    node = node[int(part)]
                elif isinstance(node, dict) and part in node and part != "translations":
                    node = node[part]
                else:
                    raise kw.error("no such text in the definition")
            if not isinstance(node, str):
                raise kw.error("only texts can be translated")
    if memo is not None:
        memo[id(data), keep] = (data, glyphs or [])
    return glyphs or []


def load_definition(path: str, templates_dir: str | None = None, lang: str | None = None) -> GameDefinition:
    """Return the validated definition in a TOML file (texts in ``lang`` where it translates them);
    raise DefinitionError on any problem."""
    shown, data = _read(path)
    return _definition(shown, data, templates_dir, lang)


def load_languages(path: str, templates_dir: str | None, langs: Iterable[str]) -> dict[str, GameDefinition]:
    """Return the validated definition in a TOML file in each of the languages (texts in that
    language where it translates them), the file read and its translations checked once; raise
    DefinitionError on any problem."""
    with reading_once():
        shown, data = _read(path)
        return {lang: _definition(shown, data, templates_dir, lang) for lang in langs}


#: While ``reading_once`` runs: the files read, by absolute path, with what ``_read`` returned.
_READ_ONCE: list[dict[str, tuple[str, dict[str, Any]]]] = []
#: While ``reading_once`` runs: the data whose translations were checked, by id and whether the
#: texts were kept for their faces, with the data itself and ``_checked_translations``' result.
_CHECKED_ONCE: list[dict[tuple[int, bool], tuple[dict[str, Any], list[tuple[Where, str, str]]]]] = []


@contextlib.contextmanager
def reading_once() -> Iterator[None]:
    """While the block runs, a definition file loaded again (the plan loads a game in its kit's
    language, then in its booklets' other languages) is not read and parsed again: its TOML data
    as first read is used (the loader never changes it), and its translations, checked once,
    are not checked again. Outside the block every load reads. Within one, a nested block
    changes nothing."""
    if _READ_ONCE:
        yield
        return
    _READ_ONCE.append({})
    _CHECKED_ONCE.append({})
    try:
        yield
    finally:
        _READ_ONCE.pop()
        _CHECKED_ONCE.pop()


def _read(path: str) -> tuple[str, dict[str, Any]]:
    """Return the path as shown in messages and the TOML data of a definition file (as first
    read, within ``reading_once``)."""
    note_read(path)
    if not _READ_ONCE:
        return _parse(path)
    read = _READ_ONCE[-1]
    key = os.path.abspath(path)
    if key not in read:
        read[key] = _parse(path)
    data = read[key][1]
    return _shown(path), data


def _shown(path: str) -> str:
    """Return a definition file's path as messages show it: relative to the working folder when
    it lies inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _parse(path: str) -> tuple[str, dict[str, Any]]:
    """Return the path as shown in messages and the TOML data of a definition file, read now."""
    shown = _shown(path)
    try:
        if os.path.exists(path) and not os.path.isdir(path) and not os.path.isfile(path):
            raise DefinitionError(f"{shown}: is a device or special file, not a definition file")
        with open(path, "rb") as handle:
            raw_bytes = handle.read(MAX_DEFINITION_BYTES + 1)
        if len(raw_bytes) > MAX_DEFINITION_BYTES:
            raise DefinitionError(f"{shown}: larger than {MAX_DEFINITION_BYTES} bytes, not a definition")
        data = tomllib.loads(raw_bytes.decode("utf-8"))
    except FileNotFoundError:
        raise DefinitionError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise DefinitionError(f"{shown}: is a folder, not a definition file") from None
    except tomllib.TOMLDecodeError as exc:
        raise DefinitionError(f"{shown}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise DefinitionError(f"{shown}: not UTF-8 text (byte {exc.start + 1})") from None
    except RecursionError:
        raise DefinitionError(f"{shown}: nested too deeply") from None
    except OSError as exc:
        raise DefinitionError(f"{shown}: cannot be read: {exc.strerror or exc}") from None
    return shown, data


def _definition(
    shown: str, data: dict[str, Any], templates_dir: str | None, lang: str | None
) -> GameDefinition:
    """Return the validated definition of a file's TOML data in a language."""
    where = Where(shown)
    translated: list[tuple[Where, str, str]] = []  # with faces of its own, checked once they are known
    data = _translate(data, where, lang, translated if data.get("fonts") else None)
    values = validate(data, TOP_SCHEMA, where)
    game = values["game"]
    stem = os.path.splitext(os.path.basename(shown))[0]
    if game["id"] != stem:
        raise where.child("game").child("id").error(f"must match the file name {stem!r}, got {game['id']!r}")
    if values["paper"] is None:
        values["paper"] = validate({}, PAPER_SCHEMA, where.child("paper"))
    comps_where = Where(shown, "components", values["palette"] or {})
    raw_components = values["components"]
    if not isinstance(raw_components, dict) or not raw_components:
        raise comps_where.error("expected a table of components, each a table with a 'kind'")
    if len(raw_components) > MAX_COMPONENTS:
        raise comps_where.error(f"at most {MAX_COMPONENTS} components, got {len(raw_components)}")
    fonts = _fonts(values["fonts"], where.child("fonts"), os.path.dirname(shown) or ".")
    icons = _icons(values["icons"], where.child("icons"), os.path.dirname(shown) or ".")
    specs: list[ComponentSpec] = []
    own_texts: dict[str, str] = {}  # the key paths of the texts set in a face of [fonts], and the face
    for cid, raw in raw_components.items():
        # with faces of its own, a text's glyphs are checked once its face is known
        cw = Where(shown, comps_where.child(cid).path, comps_where.palette, [] if fonts else None)
        convert(cid, Field("id"), cw)
        if not isinstance(raw, dict):
            raise cw.error("expected a table with a 'kind'")
        if "kind" not in raw:
            raise cw.child("kind").error("missing required key")
        kind = raw["kind"]
        entry = find_kind(kind, cw.child("kind"))
        checked = validate(raw, {**COMMON_SCHEMA, **entry.schema}, cw)
        if entry.check_spec is not None:
            entry.check_spec(checked, cw)
        _choose_fonts(checked, cw, fonts)
        if fonts and cw.glyphs is not None:
            own = _check_own_glyphs(checked, cw, fonts, None)
            for at, text in cw.glyphs:  # the texts in the shipped faces
                problem = None if at.path in own else glyph_problem(text)
                if problem:
                    raise at.error(problem)
            own_texts.update(own)
        specs.append(ComponentSpec(cid, kind, checked))
    for at, key, text in translated:  # every language's texts, each in the face it is set in
        face = own_texts.get(re.sub(r"\.([0-9]+)(?=\.|$)", r"[\1]", key))
        problem = glyph_problem(plain(text) if face else text, face)
        if problem:
            raise at.error(problem)
    palette = values["palette"]
    definition = GameDefinition(
        path=shown,
        game=game,
        palette=palette,
        paper=values["paper"],
        components=tuple(specs),
        templates_dir=templates_dir or TEMPLATES_DIR,
        lang=lang or DEFAULT_LANGUAGE,
        raw=data,
        fonts=tuple(fonts.values()),
        icons=icons,
        booklet_templates=tuple(
            spec.typed(BookletSpec).template or game["id"] for spec in specs if spec.kind == "booklet"
        ),
    )
    for spec in specs:
        _check_colours(definition, spec.values, comps_where.child(spec.id), spec.kind == "cards")
        _check_symbols(spec.values, comps_where.child(spec.id))
    return definition


_LICENCE_NAMES = ("ofl", "copying", "licen")  # a licence file's name starts with one (any case)
_SHIPPED_FONTS = ("sans", "sans-bold", "sans-italic", "sans-bolditalic")


def licence_beside(path: str) -> str | None:
    """Return the name of the licence file beside a font file, or None: a regular file in the
    font's folder whose name, in any case, starts with ``OFL``, ``COPYING`` or ``LICEN`` (OFL.txt,
    LICENSE, LICENCE.md, COPYING ...) or with the font file's own name and then ``-LICEN`` or
    ``.LICEN`` (DejaVuSans.ttf beside DejaVuSans-LICENSE.txt); the first by name."""
    folder = os.path.dirname(path) or "."
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    own = (f"{stem}-licen", f"{stem}.licen", f"{stem}_licen")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    for name in names:
        low = name.lower()
        if low.startswith(_LICENCE_NAMES + own) and os.path.isfile(os.path.join(folder, name)):
            if not os.path.islink(os.path.join(folder, name)) and os.path.getsize(os.path.join(folder, name)):
                return name
    return None


def _fonts(table: dict[str, str], where: Where, folder: str) -> dict[str, UserFont]:
    """Check the ``[fonts]`` table: each name a new font name, each file a TrueType face inside the
    definition's folder with its licence file beside it; return the faces by name."""
    import hashlib

    from generator.foundation.files import OutsideError, path_problem, read_inside
    from generator.model.fonts import MAX_FONT_BYTES, PDF_NAMES, font_family, font_problem, user_font

    fonts: dict[str, UserFont] = {}
    for key, name in table.items():
        kw = where.child(key)
        if not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", key):
            raise kw.error("a font's name is lowercase letters, digits, '-' and '_' (at most 40)")
        if key in _SHIPPED_FONTS:
            raise kw.error(f"{key!r} is a shipped face's name; give the file another name")
        name = name.strip()
        parts = name.replace("\\", "/").split("/")
        if not name or os.path.isabs(name) or ".." in parts or path_problem(name):
            raise kw.error(f"{name!r}: a font file in the definition's folder or below it")
        path = os.path.join(folder, name)
        shown = os.path.normpath(path)
        try:
            data = read_inside(path, [folder], MAX_FONT_BYTES)
        except OutsideError:
            raise kw.error(f"{shown}: leads outside the definition's folder (a link); not read") from None
        except FileNotFoundError:
            raise kw.error(f"{shown}: no such file") from None
        except IsADirectoryError:
            raise kw.error(f"{shown}: a folder, not a font file") from None
        except OSError as exc:
            problem = "not a regular file" if exc.errno == 0 else f"cannot be read: {exc.strerror or exc}"
            raise kw.error(f"{shown}: {problem}") from None
        wrong = font_problem(data)
        if wrong:
            raise kw.error(f"{shown}: {wrong}")
        licence = licence_beside(path)
        if licence is None:
            raise kw.error(
                f"{shown}: no licence file beside it (OFL.txt, LICENSE, LICENCE.txt, COPYING or "
                f"{os.path.splitext(os.path.basename(name))[0]}-LICENSE.txt, in the font's folder)"
            )
        font = user_font(path, data)  # named by its bytes too: a face saved again is a new face
        licence_name = os.path.join(os.path.dirname(name), licence).replace(os.sep, "/")
        digest = hashlib.sha256(data).hexdigest()
        family = font_family(font)
        # a PDF, an SVG and a page name each face by its PostScript name: two faces of one name
        # in one document would be one face
        if family in PDF_NAMES.values():
            raise kw.error(f"{shown}: its PostScript name {family!r} is a shipped face's; rename the face")
        for other in fonts.values():
            if other.family == family and other.sha256 != digest:
                raise kw.error(
                    f"{shown}: its PostScript name {family!r} is that of {other.file} (fonts.{other.key}) "
                    "too, another face; rename one of them"
                )
        fonts[key] = UserFont(key, name, licence_name, font, family, digest)
    return fonts


def _icons(table: dict[str, str], where: Where, folder: str) -> dict[str, IconPicture]:
    """Check the ``[icons]`` table: each name new (not a symbol's), each file a PNG, JPEG or SVG
    picture inside the definition's folder; return the pictures by name."""
    from generator.components.pictures import (
        MAX_IMAGE_BYTES,
        Raster,
        picture_path,
        picture_problem,
        read_picture,
    )
    from generator.components.symbols import SYMBOLS
    from generator.foundation.files import read_inside

    pictures: dict[str, IconPicture] = {}

    for key, name in table.items():
        kw = where.child(key)
        if not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", key):
            raise kw.error(
                "an icon's name is a lowercase letter, then letters, digits, '-' and '_' (at most 40)"
            )
        if key in SYMBOLS:
            raise kw.error(
                f"{key!r} is a symbol's name (:{key}: draws the symbol); give the picture another name"
            )
        problem = picture_problem(folder, name)
        if problem:
            raise kw.error(problem)
        path = picture_path(folder, name) or ""
        found = read_picture(path, folder)
        if isinstance(found, Raster):
            pictures[key] = IconPicture(name.strip(), found.data, found.width, found.height)
        elif not isinstance(found, str):  # an SVG drawing: kept as its source, painted per text colour
            _, _, width, height = found.view_box
            source = read_inside(path, [folder], MAX_IMAGE_BYTES)
            pictures[key] = IconPicture(name.strip(), source, width, height, vector=True)
    return pictures


def is_font_key(key: str) -> bool:
    """Return True when a definition key chooses a font (``font``, ``title_font`` ...)."""
    return key == "font" or key.endswith("_font")


def _choose_fonts(values: Any, where: Where, fonts: dict[str, UserFont]) -> None:
    """Check every font key of a component (a shipped face or a name of the ``[fonts]`` table)
    and put the page-model font of a definition's face in place of its name."""
    if isinstance(values, dict):
        for key, value in values.items():
            kw = where.child(key)
            if isinstance(value, str) and is_font_key(str(key)):
                if value in fonts:
                    values[key] = fonts[value].font
                elif value and value not in _SHIPPED_FONTS:
                    own = ", ".join(sorted(fonts)) or "none in [fonts]"
                    raise kw.error(
                        f"unknown font {value!r} (fonts: {', '.join(_SHIPPED_FONTS)}; the definition's: {own})"
                    )
            else:
                _choose_fonts(value, kw, fonts)
    elif isinstance(values, list):
        for i, value in enumerate(values):
            _choose_fonts(value, where.child(i), fonts)


#: The keys whose text a piece or board prints in its chosen face (``<key>_font``, else ``font``);
#: a card field's text and a booklet's are checked where they are set.
_PRINTED = ("text", "label", "initial", "edges", "corner")


def _check_own_glyphs(
    values: Any, where: Where, fonts: dict[str, UserFont], face: str | None, own: dict[str, str] | None = None
) -> dict[str, str]:
    """Check that each text a table prints in a definition's own face (its ``font``, or the one
    of the table it is in) has a glyph in that face for every character: a character the face
    lacks would print as a missing-glyph box. Return the key paths of the texts set in an own face,
    with the face (any other text is checked against the shipped faces: ``schema.glyph_problem``)."""
    from generator.model.fonts import USER_FONT

    own = {} if own is None else own
    if isinstance(values, list):
        for i, value in enumerate(values):
            _check_own_glyphs(value, where.child(i), fonts, face, own)
        return own
    if not isinstance(values, dict):
        return own
    chosen_face = values.get("font")
    if isinstance(chosen_face, str) and chosen_face.startswith(USER_FONT):
        face = chosen_face
    for key, value in values.items():
        if key in _PRINTED:
            chosen = values.get(f"{key}_font")
            used = chosen if isinstance(chosen, str) and chosen else face
            if used is None or not used.startswith(USER_FONT):
                continue
            kw = where.child(key)
            texts = (
                [(kw, value)]
                if isinstance(value, str)
                else [(kw.child(k), v) for k, v in value.items() if isinstance(v, str)]
                if isinstance(value, dict)
                else []
            )
            for at, text in texts:
                problem = glyph_problem(plain(text), used)
                if problem:
                    raise at.error(problem)
                own[at.path] = used
        elif isinstance(value, dict | list):
            _check_own_glyphs(value, where.child(key), fonts, face, own)
    return own


def _check_symbols(values: Any, where: Where) -> None:
    """Check that every symbol named (``symbol = "star"``, ``"symbol:star"`` in marks and faces)
    is a known symbol, so a build never meets an unknown one."""
    from generator.components.symbols import SYMBOLS

    def known(name: str, at: Where) -> None:
        if name and name not in SYMBOLS:
            raise at.error(f"unknown symbol {name!r} (symbols: {', '.join(sorted(SYMBOLS))})")

    if isinstance(values, dict):
        for key, value in values.items():
            kw = where.child(key)
            if key == "symbol" and isinstance(value, str) and "{" not in value:
                known(value, kw)
            else:
                _check_symbols(value, kw)
    elif isinstance(values, list):
        for i, value in enumerate(values):
            _check_symbols(value, where.child(i))
    elif isinstance(values, str) and values.startswith("symbol:") and "{" not in values:
        known(values[len("symbol:") :], where)


_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_COLUMN = re.compile(r"^\{[^{}]+\}$")  # a deck's column, e.g. "{colour}"


def _check_colour(definition: GameDefinition, value: str, where: Where, columns: bool) -> None:
    if not value or value == "none" or _HEX.match(value) or value in definition.palette:
        return
    if columns and _COLUMN.match(value.strip()):
        return  # a value from a deck's column, checked card by card when the deck is drawn
    if value.startswith("#"):
        raise where.error(f'expected a colour such as "#1a2b3c", got {value!r}')
    raise where.error(
        f'unknown colour {value!r} (use "#rrggbb" or a palette name: '
        f"{', '.join(sorted(definition.palette)) or 'none defined'})"
    )


def _check_colours(definition: GameDefinition, values: Any, where: Where, deck: bool = False) -> None:
    """Check that every colour value names a palette colour, is '#rrggbb' or 'none' (in a deck's
    ``fields``, also a whole column reference such as "{colour}"): one parser for every colour key."""
    if isinstance(values, dict):
        for key, value in values.items():
            kw = where.child(key)
            columns = deck and "fields[" in kw.path
            if isinstance(value, str) and is_colour_key(str(key)):
                _check_colour(definition, value, kw, columns)
            elif (
                isinstance(value, list) and is_colour_key(str(key)) and all(isinstance(v, str) for v in value)
            ):
                for i, item in enumerate(value):
                    _check_colour(definition, item, kw.child(i), columns)
            else:
                _check_colours(definition, value, kw, deck)
    elif isinstance(values, list):
        for i, value in enumerate(values):
            _check_colours(definition, value, where.child(i), deck)


def load_all(folder: str | None = None, lang: str | None = None) -> list[GameDefinition]:
    """Return every definition in a folder (no folder: the built-in games), sorted by id, with
    texts in ``lang`` where translated."""
    templates = templates_for(folder)
    return [load_definition(p, templates, lang) for p in layout_files(folder)]


def find_definition(game_id: str, folder: str | None = None, lang: str | None = None) -> GameDefinition:
    """Return the definition of a game by id from a folder (no folder: the built-in games); raise
    UnknownGameError when there is none."""
    path = os.path.join(folder or LAYOUTS_DIR, f"{game_id}.toml")
    unsafe = "/" in game_id or "\\" in game_id or game_id.startswith(".")
    if unsafe or (folder is None and game_id not in BUILTIN_GAMES) or not os.path.isfile(path):
        known = [os.path.splitext(os.path.basename(p))[0] for p in layout_files(folder)]
        hint = "; a definition of your own builds with --layouts DIR" if folder is None else ""
        raise UnknownGameError(f"unknown game {game_id!r} (known: {', '.join(known)}{hint})")
    return load_definition(path, templates_for(folder), lang)
