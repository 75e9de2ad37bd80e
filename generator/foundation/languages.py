"""The languages pnp writes kits in and their catalogue: ``LANGUAGES`` (name, a booklet cover's
words, the units a turn limit counts in) and ``TEXTS`` (every shared text a kit prints: footers,
the scale check, sheet notes, the HTML page's words), the one table the CLI's help, the definition
loader (``[translations.<code>]``), the booklets, sheets, guide and home page read. ``text()``
never falls back to English: a missing entry raises MissingText. ``set_text()`` sets a text in a
language's typography (French no-break spaces), applied wherever French text enters a kit: the
catalogue, the definitions' translations and every rendered template. A new language is an entry
in both tables (and its templates and translations in the definitions)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Language:
    """A language: its code (``--lang``), its name, the words of a rule booklet's cover, and the
    units a turn limit counts in (singular and plural by the referee's English name of the unit)."""

    code: str
    name: str
    cover: Mapping[str, str]
    units: Mapping[str, tuple[str, str]]


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language(
            "en",
            "English",
            {
                "players": "Players",
                "time": "Playing time",
                "ages": "Ages",
                "kit": "In this kit",
                "rules": "Rules of play",
                "booklet": "this rule booklet",
                "notes": "Notes",
            },
            {
                "turn": ("turn", "turns"),
                "throw": ("throw", "throws"),
                "round": ("round", "rounds"),
                "move": ("move", "moves"),
            },
        ),
        Language(
            "fr",
            "French",
            {
                "players": "Joueurs",
                "time": "Durée",
                "ages": "Âge",
                "kit": "Contenu du kit",
                "rules": "Règles du jeu",
                "booklet": "ce livret de règles",
                "notes": "Notes",
            },
            {
                "turn": ("tour", "tours"),
                "throw": ("lancer", "lancers"),
                "round": (
                    "tour\u00a0de\u00a0table",
                    "tours\u00a0de\u00a0table",
                ),  # one unit, never broken over two lines
                "move": ("coup", "coups"),
            },
        ),
        Language(
            "it",
            "Italian",
            {
                "players": "Giocatori",
                "time": "Durata",
                "ages": "Età",
                "kit": "Nel kit",
                "rules": "Regole del gioco",
                "booklet": "questo libretto di regole",
                "notes": "Appunti",
            },
            {
                "turn": ("turno", "turni"),
                "throw": ("lancio", "lanci"),
                "round": ("giro", "giri"),
                "move": ("mossa", "mosse"),
            },
        ),
    )
}
DEFAULT_LANGUAGE = "en"


def language(lang: str) -> Language:
    """Return a language by its code; raise MissingText for a language pnp does not write."""
    if lang not in LANGUAGES:
        raise MissingText(f"pnp writes no {lang!r} (languages: {language_codes()})")
    return LANGUAGES[lang]


def cover_words(lang: str) -> dict[str, str]:
    """Return the words of a booklet's cover in a language, set in its typography."""
    return {key: set_text(word, lang) for key, word in language(lang).cover.items()}


def unit_count(number: int, unit: str, lang: str) -> str:
    """Return a number with a turn limit's unit in a language, e.g. '200 turns', '200 lancers';
    raise MissingText for a language or unit the catalogue lacks (never English instead)."""
    words = language(lang).units
    if unit not in words:
        raise MissingText(f"no {lang!r} word for the unit {unit!r} (generator/foundation/languages.py)")
    one, many = words[unit]
    space = "\u00a0" if lang == "fr" else " "  # French keeps a number and its unit on one line
    return f"{number}{space}{one if plural_form(number, lang) == 'one' else many}"


def plural_form(number: int, lang: str) -> str:
    """Return the form a noun takes after a number in a language: 'one' or 'many'. English and
    Italian say 1 in the singular and 0 in the plural ('0 moves', '0 mosse'); French keeps every
    number below two in the singular ('0 coup', '1 coup', '2 coups')."""
    if lang == "fr":
        return "one" if -2 < number < 2 else "many"
    return "one" if number == 1 else "many"


def language_codes() -> str:
    """Return the language codes as a reader sees them: 'en, fr, it'."""
    return ", ".join(LANGUAGES)


class MissingText(KeyError):
    """A catalogue entry a language lacks: the build never falls back to English."""


# The catalogue: every shared text a kit prints (footers, scale check, sheet words, the HTML
# page's own words, the home page), per language. Keys are the same in every language; a text's
# ``{name}`` fields are filled by ``text()``. Game texts are the definitions' [translations.<code>].
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "scale.check": "This bar is {n} mm. If not, print at actual size (100%).",
        "footer.sheet": "{label}  sheet {number} of {total}  (cut along the grey lines)",
        "footer.backs": "{label}  sheet {number} backs: print on the reverse, flip on the long edge",
        "footer.gutter": "{label}  sheet {number} of {total}  (fold on the dashes, glue, cut)",
        "fold.line": "fold",
        "footer.scaled": "{label}  (scaled to {percent}% to fit; not true size)",
        "footer.tile": "{label}  tile row {row}/{rows}, column {column}/{columns}: glue the shaded strip under the neighbour",
        "footer.parts": "{label}: {stock} parts",
        "footer.parts.alone": "{stock} parts",
        "sheet.field": "{label}:",
        "stock.card": "card",
        "stock.paper": "paper",
        "sheet.continue": (
            "Out of rows? Go on {% if single_sided %}on the next page{% else %}on the back of this sheet{% endif %},"
            " numbering on from {{ row }}. The game is a draw after {{ count(limit, unit) }}."
        ),
        "board.seed": "seed {seed}",
        "board.variant": ", variant {names}",
        "html.contents": "Contents",
        "html.glance": "At a glance",
        "html.quick": "Quick reference",
        "html.figure": "Figure",
        "html.skip": "Skip to the rules",
        "language.own": "English",
        "guide.title": "Print guide",
        "home.title": "Print-and-play kits",
        "home.skip": "Skip to the kits",
        "home.games": "Games",
        "home.intro": "Pick a game, then print its <b>kit.pdf</b> with the settings beside it: the whole kit is in that one file, its first page a guide to cutting and folding. The rules read on a phone as a web page, in every language they are written in.",
        "home.empty": "No kits here yet: build some with <code>pnp build --all</code>.",
        "home.pages": "{n} pages",
        "home.paper": "{paper} paper",
        "home.print": "Print kit.pdf",
        "home.single": "Print <b>single-sided</b>.",
        "home.gutter.one": "The parts with a back are on a <b>gutter-fold</b> sheet (page {pages}): fronts and backs side by side, folded on the dashes and glued before cutting.",
        "home.gutter.many": "The parts with a back are on <b>gutter-fold</b> sheets (pages {pages}): fronts and backs side by side, each folded on the dashes and glued before cutting.",
        "home.duplex": "Print <b>double-sided</b>, <b>flip on the long edge</b>; blank backs are meant (no duplex printer: build with <code>--single-sided</code>).",
        "home.actual": "At <b>actual size</b> (100%, never “fit to page”): the bar at the foot of every page measures {n} mm.",
        "home.card.one": "Card ({stock}) for page {pages}, single-sided where the back is blank (a double-sided pass on card jams home printers); plain paper for the rest.",
        "home.card.many": "Card ({stock}) for pages {pages}, single-sided where the back is blank (a double-sided pass on card jams home printers); plain paper for the rest.",
        "home.card.stock": "160 to 250 g/m²",
        "home.guide": "Page 1 is the print guide: what to cut, fold and glue.",
        "home.rules": "Rules",
        "home.read": "read on screen",
        "home.pdf": "PDF",
        "home.svg.pages": "SVG pages",
        "home.svg.page": "page {n} as SVG",
        "home.holds": "What kit.pdf holds",
        "home.again": "To print a part again, print its pages of kit.pdf (each part opens kit.pdf at its first page; <code>--parts</code> writes each as a PDF of its own).",
        "home.parts": "Parts of kit.pdf",
        "home.part": "Part",
        "home.part.pages": "Pages",
        "home.part.stock": "Stock",
        "home.both": "{stock}, both sides",
        "home.batch": "Seeds in this batch",
        "home.every": "Every board in one PDF: {link}",
        "home.others": "The other seeds' boards (the rest of their kit is this one's):",
        "home.rest": "The rest of the kit: {link}",
        "home.files": "Every file ({n})",
        "home.glance": "{about}: the board at a glance",
        "home.seed": "Seed",
        "home.variant": "Variant",
        "home.players": "Players",
        "home.time": "Playing time",
    },
    "fr": {
        "scale.check": "Cette barre mesure {n} mm. Sinon, imprimez en taille réelle (100 %).",
        "footer.sheet": "{label}  feuille {number} sur {total}  (coupez sur les traits gris)",
        "footer.backs": "{label}  dos de la feuille {number} : retournement sur le bord long",
        "footer.gutter": "{label}  feuille {number} sur {total}  (pliez, collez, coupez)",
        "fold.line": "pli",
        "footer.scaled": "{label}  (réduit à {percent} % ; pas en taille réelle)",
        "footer.tile": "{label}  morceau {row}/{rows}, {column}/{columns} : collez la bande grisée sous le voisin",
        "footer.parts": "{label} : {stock}",
        "footer.parts.alone": "{stock}",
        "sheet.field": "{label} :",
        "stock.card": "carton",
        "stock.paper": "papier",
        "sheet.continue": (
            "Plus de lignes ? Continuez {% if single_sided %}sur la page suivante{% else %}au dos de cette feuille{% endif %},"
            " à partir de la ligne {{ row }}. La partie est nulle après {{ count(limit, unit) }}."
        ),
        "board.seed": "graine {seed}",
        "board.variant": ", variante {names}",
        "html.contents": "Sommaire",
        "html.glance": "En bref",
        "html.quick": "Aide de jeu",
        "html.figure": "Figure",
        "html.skip": "Aller aux règles",
        "language.own": "Français",
        "guide.title": "Guide d’impression",
        "home.title": "Jeux à imprimer",
        "home.skip": "Aller aux jeux",
        "home.games": "Jeux",
        "home.intro": "Choisissez un jeu, puis imprimez son <b>kit.pdf</b> avec les réglages indiqués à côté : tout le kit tient dans ce fichier, et sa première page explique quoi découper et plier. Les règles se lisent aussi sur un téléphone, en page web, dans chaque langue où elles sont écrites.",
        "home.empty": "Pas encore de kit ici : construisez-en avec <code>pnp build --all</code>.",
        "home.pages": "{n} pages",
        "home.paper": "papier {paper}",
        "home.print": "Imprimer kit.pdf",
        "home.single": "Imprimez en <b>recto seul</b>.",
        "home.gutter.one": "Les éléments à dos sont sur une <b>feuille à plier</b> (page {pages}) : rectos et versos côte à côte, pliée sur les tirets et collée avant la découpe.",
        "home.gutter.many": "Les éléments à dos sont sur des <b>feuilles à plier</b> (pages {pages}) : rectos et versos côte à côte, chacune pliée sur les tirets et collée avant la découpe.",
        "home.duplex": "Imprimez en <b>recto verso</b>, <b>retournement sur le bord long</b> ; les pages blanches sont voulues (sans impression recto verso, construisez le kit avec <code>--single-sided</code>).",
        "home.actual": "En <b>taille réelle</b> (100 %, jamais « ajuster à la page ») : la barre au pied de chaque page mesure {n} mm.",
        "home.card.one": "Carton ({stock}) pour la page {pages}, en recto seul quand le dos est blanc (le recto verso sur carton bloque les imprimantes de bureau) ; papier ordinaire pour le reste.",
        "home.card.many": "Carton ({stock}) pour les pages {pages}, en recto seul quand le dos est blanc (le recto verso sur carton bloque les imprimantes de bureau) ; papier ordinaire pour le reste.",
        "home.card.stock": "160 à 250 g/m²",
        "home.guide": "La page 1 est le guide d’impression : quoi découper, plier et coller.",
        "home.rules": "Règles",
        "home.read": "lire à l’écran",
        "home.pdf": "PDF",
        "home.svg.pages": "pages en SVG",
        "home.svg.page": "page {n} en SVG",
        "home.holds": "Ce que contient kit.pdf",
        "home.again": "Pour réimprimer une partie du kit, imprimez ses pages de kit.pdf (chaque lien ouvre kit.pdf à sa première page ; <code>--parts</code> en fait un PDF à part).",
        "home.parts": "Parties de kit.pdf",
        "home.part": "Partie",
        "home.part.pages": "Pages",
        "home.part.stock": "Support",
        "home.both": "{stock}, recto verso",
        "home.batch": "Graines de cette série",
        "home.every": "Tous les plateaux en un PDF : {link}",
        "home.others": "Les plateaux des autres graines (le reste de leur kit est celui-ci) :",
        "home.rest": "Le reste du kit : {link}",
        "home.files": "Tous les fichiers ({n})",
        "home.glance": "{about} : le plateau en un coup d’œil",
        "home.seed": "Graine",
        "home.variant": "Variante",
        "home.players": "Joueurs",
        "home.time": "Durée",
    },
    "it": {
        "scale.check": "Questa barra misura {n} mm. Altrimenti stampate al 100%.",
        "footer.sheet": "{label}  foglio {number} di {total}  (ritagliate sulle linee grigie)",
        "footer.backs": "{label}  retro del foglio {number}: capovolgete sul lato lungo",
        "footer.gutter": "{label}  foglio {number} di {total}  (piegate, incollate, ritagliate)",
        "fold.line": "piega",
        "footer.scaled": "{label}  (ridotto al {percent}%; non a dimensione reale)",
        "footer.tile": "{label}  pezzo {row}/{rows}, {column}/{columns}: incollate la striscia grigia sotto il vicino",
        "footer.parts": "{label}: {stock}",
        "footer.parts.alone": "{stock}",
        "sheet.field": "{label}:",
        "stock.card": "cartoncino",
        "stock.paper": "carta",
        "sheet.continue": (
            "Righe finite? Continuate {% if single_sided %}sulla pagina seguente{% else %}sul retro di questo foglio{% endif %},"
            " numerando da {{ row }}. Dopo {{ count(limit, unit) }} la partita è patta."
        ),
        "board.seed": "seme {seed}",
        "board.variant": ", variante {names}",
        "html.contents": "Indice",
        "html.glance": "In breve",
        "html.quick": "Scheda rapida",
        "html.figure": "Figura",
        "html.skip": "Vai alle regole",
        "language.own": "Italiano",
        "guide.title": "Guida alla stampa",
        "home.title": "Giochi da stampare",
        "home.skip": "Vai ai giochi",
        "home.games": "Giochi",
        "home.intro": "Scegliete un gioco, poi stampatene il <b>kit.pdf</b> con le impostazioni indicate accanto: tutto il kit è in quel file, e la sua prima pagina spiega cosa ritagliare e piegare. Le regole si leggono anche sul telefono, come pagina web, in ogni lingua in cui sono scritte.",
        "home.empty": "Ancora nessun kit qui: createne con <code>pnp build --all</code>.",
        "home.pages": "{n} pagine",
        "home.paper": "carta {paper}",
        "home.print": "Stampa kit.pdf",
        "home.single": "Stampate <b>solo fronte</b>.",
        "home.gutter.one": "I pezzi con il dorso sono su un <b>foglio da piegare</b> (pagina {pages}): fronti e dorsi affiancati, piegato sul tratteggio e incollato prima di ritagliare.",
        "home.gutter.many": "I pezzi con il dorso sono su <b>fogli da piegare</b> (pagine {pages}): fronti e dorsi affiancati, ciascuno piegato sul tratteggio e incollato prima di ritagliare.",
        "home.duplex": "Stampate <b>fronte e retro</b>, <b>capovolgendo sul lato lungo</b>; le pagine bianche sono volute (senza stampa fronte e retro, create il kit con <code>--single-sided</code>).",
        "home.actual": "A <b>dimensione reale</b> (100%, mai «adatta alla pagina»): la barra in fondo a ogni pagina misura {n} mm.",
        "home.card.one": "Cartoncino ({stock}) per la pagina {pages}, solo fronte dove il retro è bianco (il fronte-retro su cartoncino inceppa le stampanti di casa); carta normale per il resto.",
        "home.card.many": "Cartoncino ({stock}) per le pagine {pages}, solo fronte dove il retro è bianco (il fronte-retro su cartoncino inceppa le stampanti di casa); carta normale per il resto.",
        "home.card.stock": "da 160 a 250 g/m²",
        "home.guide": "La pagina 1 è la guida alla stampa: cosa ritagliare, piegare e incollare.",
        "home.rules": "Regole",
        "home.read": "leggi sullo schermo",
        "home.pdf": "PDF",
        "home.svg.pages": "pagine in SVG",
        "home.svg.page": "pagina {n} in SVG",
        "home.holds": "Cosa contiene kit.pdf",
        "home.again": "Per ristampare una parte, stampatene le pagine di kit.pdf (ogni parte apre kit.pdf alla sua prima pagina; <code>--parts</code> ne scrive un PDF a sé).",
        "home.parts": "Parti di kit.pdf",
        "home.part": "Parte",
        "home.part.pages": "Pagine",
        "home.part.stock": "Supporto",
        "home.both": "{stock}, fronte e retro",
        "home.batch": "Semi di questa serie",
        "home.every": "Tutti i tabelloni in un PDF: {link}",
        "home.others": "I tabelloni degli altri semi (il resto del loro kit è questo):",
        "home.rest": "Il resto del kit: {link}",
        "home.files": "Tutti i file ({n})",
        "home.glance": "{about}: il tabellone a colpo d’occhio",
        "home.seed": "Seme",
        "home.variant": "Variante",
        "home.players": "Giocatori",
        "home.time": "Durata",
    },
}


# The referee's own words (``pnp referee --lang``): its verdict on a record, the live-play prompts
# and the names of the sides, per language, merged into TEXTS (the same keys in every language).
# A side's name is ``side.<id>`` (the rules' side ids); numbered players (p1, p2, ...) are written
# P1, P2 in every language, as the notation writes them. A part of a move is ``part.<verb>``.
REFEREE_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "referee.illegal": "move {index} (line {line}, col {column}): {move}: {reason}",
        "referee.before.one": "{n} move legal before it; position before move {index}:",
        "referee.before.many": "{n} moves legal before it; position before move {index}:",
        "referee.all.one": "all {n} move legal",
        "referee.all.many": "all {n} moves legal",
        "referee.outcome": "outcome: {outcome}",
        "referee.claim.agrees": "claimed result {claimed}: agrees",
        "referee.claim.wrong": "claimed result {claimed} (line {line}, col {column}) is wrong: the referee's result is {actual}",
        "referee.final": "final position:",
        "referee.unfinished": "the game is not finished",
        "referee.draw": "draw",
        "referee.wins": "{side} wins",
        "referee.score": "score {points}",
        "live.help": "type your move (or your part of it), ? for what you can play now, undo to take back the last move, quit to stop",
        "live.title": "{title}: {help}",
        "live.prompt": "{side} to {part}: ",
        "live.computer.plays": "{side} (computer) plays {move}",
        "live.computer.part": "{side} (computer) {part}: {choice}",
        "live.only": "{side} can only {part} {choice}",
        "live.can": "{side} can {part}: {choices}",
        "live.legal.one": "{n} legal move: {choices}",
        "live.legal.many": "{n} legal moves: {choices}",
        "live.more.one": " ... and {n} more",
        "live.more.many": " ... and {n} more",
        "live.unreadable": "could not read that: {problem}; type it again",
        "live.unreadable.many": "could not read that: {problem}; {n} unreadable lines in a row, the input is taken as ended",
        "live.ended": "could not read that: {problem}; the input is taken as ended",
        "live.undo.part": "took back your part of this move",
        "live.undo.none": "nothing to take back",
        "live.undo.moves": "took back {moves}",
        "live.save.fail": "cannot save there: {problem}",
        "live.save.moved": "the record is saved to {path} from now on",
        "live.illegal": "illegal: {problem}",
        "live.not_open": "{choice} is not open now",
        "live.played": "played {move}",
        "live.over": "game over: {verdict}",
        "live.stopped": "game stopped after {moves}, unfinished",
        "live.saved": "record saved to {path}",
        "live.save.lost": "{problem}; the whole record:",
        "live.save.failing": "{problem}: play on, the record is kept here; type 'save PATH' to save it to another file",
        "live.interrupted": "interrupted",
        "live.not_utf8": "the line is not UTF-8 text (byte {byte} at column {column})",
        "live.too_long": "the line is longer than {n} characters",
        "live.endless": "a line longer than {n} characters",
        "live.cannot_write": "cannot write {path}: {problem}",
        "live.save_failed.one": "{problem} (the record of the {n} move played is printed above)",
        "live.save_failed.many": "{problem} (the record of the {n} moves played is printed above)",
        "live.signal": "stopped by {signal}",
        "part.move": "move",
        "part.offer": "offer",
        "part.take": "take",
        "part.place": "place the neutral dice",
        "part.push": "push",
        "part.move.done": "moves",
        "part.offer.done": "offers",
        "part.take.done": "takes",
        "part.place.done": "places the neutral dice",
        "part.push.done": "pushes",
        "side.white": "White",
        "side.black": "Black",
        "side.red": "Red",
        "side.blue": "Blue",
        "side.south": "South",
        "side.west": "West",
        "side.a": "A",
        "side.b": "B",
    },
    "fr": {
        "referee.illegal": "coup {index} (ligne {line}, colonne {column}) : {move} : {reason}",
        "referee.before.one": "{n}\u00a0coup sans faute avant lui ; position avant le coup {index} :",
        "referee.before.many": "{n}\u00a0coups sans faute avant lui ; position avant le coup {index} :",
        "referee.all.one": "{n}\u00a0coup, sans faute",
        "referee.all.many": "{n}\u00a0coups, tous sans faute",
        "referee.outcome": "résultat : {outcome}",
        "referee.claim.agrees": "résultat annoncé {claimed} : exact",
        "referee.claim.wrong": "résultat annoncé {claimed} (ligne {line}, colonne {column}) inexact : l’arbitre trouve {actual}",
        "referee.final": "position finale :",
        "referee.unfinished": "la partie n’est pas terminée",
        "referee.draw": "partie nulle",
        "referee.wins": "{side} gagne",
        "referee.score": "score {points}",
        "live.help": "tapez votre coup (ou votre part du coup), « ? » pour voir ce que vous pouvez jouer, « undo » pour reprendre le dernier coup, « quit » pour arrêter",
        "live.title": "{title} : {help}",
        "live.prompt": "{side}, à vous de {part} : ",
        "live.computer.plays": "{side} (ordinateur) joue {move}",
        "live.computer.part": "{side} (ordinateur) {part} : {choice}",
        "live.only": "{side} ne peut que {part} {choice}",
        "live.can": "{side} peut {part} : {choices}",
        "live.legal.one": "coup possible ({n}) : {choices}",
        "live.legal.many": "coups possibles ({n}) : {choices}",
        "live.more.one": " … et {n}\u00a0autre",
        "live.more.many": " … et {n}\u00a0autres",
        "live.unreadable": "lecture impossible : {problem} ; tapez-le de nouveau",
        "live.unreadable.many": "lecture impossible : {problem} ; {n} lignes illisibles de suite, l’entrée est considérée comme terminée",
        "live.ended": "lecture impossible : {problem} ; l’entrée est considérée comme terminée",
        "live.undo.part": "votre part de ce coup est reprise",
        "live.undo.none": "rien à reprendre",
        "live.undo.moves": "repris : {moves}",
        "live.save.fail": "impossible d’enregistrer là : {problem}",
        "live.save.moved": "la partie est désormais enregistrée dans {path}",
        "live.illegal": "coup irrégulier : {problem}",
        "live.not_open": "{choice} n’est pas possible maintenant",
        "live.played": "joué : {move}",
        "live.over": "partie terminée : {verdict}",
        "live.stopped": "partie arrêtée, inachevée, après {moves}",
        "live.saved": "partie enregistrée dans {path}",
        "live.save.lost": "{problem} ; voici la partie entière :",
        "live.save.failing": "{problem} : continuez, la partie est gardée ici ; tapez « save CHEMIN » pour l’enregistrer ailleurs",
        "live.interrupted": "interrompue",
        "live.not_utf8": "la ligne n’est pas un texte UTF-8 (octet {byte} à la colonne {column})",
        "live.too_long": "la ligne dépasse {n}\u00a0caractères",
        "live.endless": "une ligne de plus de {n}\u00a0caractères",
        "live.cannot_write": "impossible d’écrire dans {path} : {problem}",
        "live.save_failed.one": "{problem} (la partie, {n}\u00a0coup joué, est écrite plus haut)",
        "live.save_failed.many": "{problem} (la partie, {n}\u00a0coups joués, est écrite plus haut)",
        "live.signal": "arrêtée par {signal}",
        "part.move": "jouer",
        "part.offer": "proposer",
        "part.take": "prendre",
        "part.place": "poser les dés neutres",
        "part.push": "pousser",
        "part.move.done": "joue",
        "part.offer.done": "propose",
        "part.take.done": "prend",
        "part.place.done": "pose les dés neutres",
        "part.push.done": "pousse",
        "side.white": "Blanc",
        "side.black": "Noir",
        "side.red": "Rouge",
        "side.blue": "Bleu",
        "side.south": "Sud",
        "side.west": "Ouest",
        "side.a": "A",
        "side.b": "B",
    },
    "it": {
        "referee.illegal": "mossa {index} (riga {line}, colonna {column}): {move}: {reason}",
        "referee.before.one": "prima di essa {n} mossa regolare; posizione prima della mossa {index}:",
        "referee.before.many": "prima di essa {n} mosse regolari; posizione prima della mossa {index}:",
        "referee.all.one": "{n} mossa, regolare",
        "referee.all.many": "{n} mosse, tutte regolari",
        "referee.outcome": "esito: {outcome}",
        "referee.claim.agrees": "risultato dichiarato {claimed}: corretto",
        "referee.claim.wrong": "il risultato dichiarato {claimed} (riga {line}, colonna {column}) è sbagliato: per l’arbitro è {actual}",
        "referee.final": "posizione finale:",
        "referee.unfinished": "la partita non è finita",
        "referee.draw": "patta",
        "referee.wins": "vince {side}",
        "referee.score": "punteggio {points}",
        "live.help": "scrivete la vostra mossa (o la vostra parte), «?» per vedere cosa potete giocare ora, «undo» per ritirare l’ultima mossa, «quit» per smettere",
        "live.title": "{title}: {help}",
        "live.prompt": "{side}, tocca a voi {part}: ",
        "live.computer.plays": "{side} (computer) gioca {move}",
        "live.computer.part": "{side} (computer) {part}: {choice}",
        "live.only": "{side} può solo {part} {choice}",
        "live.can": "{side} può {part}: {choices}",
        "live.legal.one": "mossa possibile ({n}): {choices}",
        "live.legal.many": "mosse possibili ({n}): {choices}",
        "live.more.one": " … e un’altra",
        "live.more.many": " … e altre {n}",
        "live.unreadable": "impossibile leggere: {problem}; scrivetelo di nuovo",
        "live.unreadable.many": "impossibile leggere: {problem}; {n} righe illeggibili di fila, l’input si considera finito",
        "live.ended": "impossibile leggere: {problem}; l’input si considera finito",
        "live.undo.part": "la vostra parte di questa mossa è ritirata",
        "live.undo.none": "niente da ritirare",
        "live.undo.moves": "ritirate: {moves}",
        "live.save.fail": "impossibile salvare lì: {problem}",
        "live.save.moved": "da ora la partita è salvata in {path}",
        "live.illegal": "mossa non valida: {problem}",
        "live.not_open": "{choice} ora non è possibile",
        "live.played": "giocata: {move}",
        "live.over": "partita finita: {verdict}",
        "live.stopped": "partita interrotta dopo {moves}, non finita",
        "live.saved": "partita salvata in {path}",
        "live.save.lost": "{problem}; ecco la partita intera:",
        "live.save.failing": "{problem}: continuate, la partita è tenuta qui; scrivete «save PERCORSO» per salvarla altrove",
        "live.interrupted": "interrotta",
        "live.not_utf8": "la riga non è un testo UTF-8 (byte {byte} alla colonna {column})",
        "live.too_long": "la riga supera i {n} caratteri",
        "live.endless": "una riga di più di {n} caratteri",
        "live.cannot_write": "impossibile scrivere in {path}: {problem}",
        "live.save_failed.one": "{problem} (la registrazione della partita, {n} mossa giocata, è stampata qui sopra)",
        "live.save_failed.many": "{problem} (la registrazione della partita, {n} mosse giocate, è stampata qui sopra)",
        "live.signal": "fermata da {signal}",
        "part.move": "muovere",
        "part.offer": "proporre",
        "part.take": "scegliere",
        "part.place": "piazzare i dadi neutri",
        "part.push": "spingere",
        "part.move.done": "muove",
        "part.offer.done": "propone",
        "part.take.done": "sceglie",
        "part.place.done": "piazza i dadi neutri",
        "part.push.done": "spinge",
        "side.white": "Bianco",
        "side.black": "Nero",
        "side.red": "Rosso",
        "side.blue": "Blu",
        "side.south": "Sud",
        "side.west": "Ovest",
        "side.a": "A",
        "side.b": "B",
    },
}
for _code, _entries in REFEREE_TEXTS.items():
    TEXTS[_code].update(_entries)

#: the referee's English name of each part of a move (``State.part_names``) -> its catalogue key
PART_KEYS = {
    "move": "move",
    "offer": "offer",
    "take": "take",
    "place the neutral dice": "place",
    "push": "push",
}


def side_name(side: str, lang: str) -> str:
    """Return a side as the referee names it in a language ('Blanc'); a numbered player (p3) is P3
    in every language; raise MissingText for a side the catalogue lacks."""
    if re.fullmatch(r"p[0-9]+", side):
        return side.upper()
    return message(f"side.{side}", lang)


def part_name(verb: str, lang: str, done: bool = False) -> str:
    """Return a part of a move (the rules' English verb, 'offer') in a language, as a prompt
    follows it ('proposer') or, with ``done``, as said of a player ('propose'); raise MissingText
    for a part the catalogue lacks."""
    if verb not in PART_KEYS:
        raise MissingText(f"no {lang!r} word for the part {verb!r} (generator/foundation/languages.py)")
    return message(f"part.{PART_KEYS[verb]}" + (".done" if done else ""), lang)


def text(key: str, lang: str, **values: object) -> str:
    """Return the catalogue's text for a key in a language, its ``{name}`` fields filled from
    ``values`` and set in that language's typography; raise MissingText when the language (or
    the key) has no entry: there is no fallback to English."""
    entries = TEXTS.get(lang)
    if entries is None or key not in entries:
        raise MissingText(
            f"no {lang!r} text for {key!r} in the catalogue (generator/foundation/languages.py)"
        )
    raw = entries[key]
    return set_text(raw.format(**values) if values else raw, lang)


def message(key: str, lang: str, **values: object) -> str:
    """Return the catalogue's text for a key set in its language's typography with its ``{name}``
    fields then filled in as given (a move in the notation, a reason, a path: never respaced, so
    Push!'s ``3@c4 : 5`` reads as typed); raise MissingText when the language or key has none."""
    entries = TEXTS.get(lang)
    if entries is None or key not in entries:
        raise MissingText(
            f"no {lang!r} text for {key!r} in the catalogue (generator/foundation/languages.py)"
        )
    names: list[str] = []

    def stand_in(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"Q{len(names) - 1}Q"

    spaced = set_text(re.sub(r"\{(\w+)\}", stand_in, entries[key]), lang)
    filled = re.sub(r"Q([0-9]+)Q", lambda m: str(values[names[int(m.group(1))]]), spaced)
    return filled


def texts_of(key: str) -> list[str]:
    """Return a catalogue key's raw text in every language (e.g. to measure the widest)."""
    return [entries[key] for entries in TEXTS.values()]


# French typography: a narrow no-break space (U+202F) before ; ! ? and a no-break space (U+00A0)
# before : and inside « ». A mark gets its space only after a word (a letter, digit or closing
# sign) and before a space or the end, so notation (a:b, !=, |:-:|, :::, http://) is left alone.
NNBSP = "\u202f"
NBSP = "\u00a0"
_FR_MARK = re.compile(r"(?<=[\w)\]»”’*_.%>])[ \u00a0\u202f]*([;!?:])(?=[\s*_)\]»”’\"<]|$)")
_FR_OPEN = re.compile(r"«[ \u00a0\u202f]*")
_FR_CLOSE = re.compile(r"[ \u00a0\u202f]*»")
_CODE = re.compile(r"(`[^`\n]*`)")
# proper names that hold a mark of their own
_NAMES = ("Push!",)


def french_spacing(line: str) -> str:
    """Return French text with the no-break spaces its punctuation needs (U+202F before ; ! ?,
    U+00A0 before : and inside « »), code spans (`...`) and names such as Push! left as they are."""
    out = []
    for n, part in enumerate(_CODE.split(line)):
        if n % 2:
            out.append(part)
            continue
        kept = {}
        for i, name in enumerate(_NAMES):
            token = f"\x00{i}\x00"
            kept[token] = name
            part = part.replace(name, token)
        part = _FR_MARK.sub(lambda m: (NBSP if m.group(1) == ":" else NNBSP) + m.group(1), part)
        part = _FR_OPEN.sub("«" + NBSP, part)
        part = _FR_CLOSE.sub(NBSP + "»", part)
        for token, name in kept.items():
            part = part.replace(token, name)
        out.append(part)
    return "".join(out)


# a word of one letter (not a digit), perhaps set in bold or italic, after a space or an opening
# sign, and the spaces after it before a word (or the end of its line, the line going on with a
# word: a paragraph's next line)
_ONE_LETTER = re.compile(r"(?<![\w\u2019'`\-])([^\W\d_]\**)[ \t]+(?=[\w\u00ab\u201c(*`\[])")
_ONE_LETTER_EOL = re.compile(r"(?<![\w\u2019'`\-])([^\W\d_]\**)[ \t]*\n[ \t]*(?=[^\W\d_])")
TIED_LANGUAGES = ("fr", "it")  # the languages whose one-letter words keep to the next word


def tie_one_letter_words(text: str, across_lines: bool = True) -> str:
    """Return text with the space after each one-letter word ("à", "a", "y", "e", "è", a square's
    letter) made a no-break space, so the word starts a line with the word after it and never
    ends one, as French and Italian typesetting want (``TIED_LANGUAGES``: the rule texts, the
    definitions' translated texts and the booklet's lines apply it). ``across_lines``: a line
    break after the word is one too (a source text's, not a hard break). A text whose spaces are
    single keeps its length when its line breaks are kept."""
    if across_lines and "\n" in text:
        text = _ONE_LETTER_EOL.sub(lambda m: _joined(m, text), text)
    return _ONE_LETTER.sub("\\1" + NBSP, text) if " " in text else text


def _joined(match: re.Match[str], text: str) -> str:
    """Return a one-letter word ending a line tied to the next line's first word, unless its line
    is a heading, a figure line or a table row of booklet markup (the next line is a block of its own)."""
    line = text[text.rfind("\n", 0, match.start()) + 1 : match.start()].lstrip()
    return match.group(0) if line.startswith(("#", ":::", "|")) else match.group(1) + NBSP


def set_text(line: str, lang: str) -> str:
    """Return a text as it is set in a language: French gets its no-break spaces; others as given."""
    return french_spacing(line) if lang == "fr" else line


def spaced(mark: str, lang: str) -> str:
    """Return a punctuation mark (and what follows it) as it is set after a word in a language,
    for a mark written apart from its word (French: ``\u00a0: ``, ``\u202f; ``)."""
    return set_text("x" + mark, lang)[1:]


@dataclass(frozen=True)
class Term:
    """A game term of a language's glossary: the one word a kit prints for a concept, the synonyms
    it must never use for it (lower case, matched as whole words), and the games it is about
    (empty: every game)."""

    term: str
    banned: tuple[str, ...] = ()
    games: tuple[str, ...] = ()


# The glossary: per language, the one word for each game concept, which the booklets, quick
# references, sheets, guide and HTML pages all use (templates read it as ``terms``; a test checks
# every French and Italian kit against the banned synonyms). Italian addresses the players as voi,
# as Italian rulebooks do, so the tu forms are banned synonyms of its form of address.
GLOSSARY: dict[str, dict[str, Term]] = {
    "en": {
        "seed": Term("seed"),
        "quick_reference": Term("quick reference"),
    },
    "fr": {
        "seed": Term("graine", ("seed", "semence")),
        "quick_reference": Term("aide de jeu", ("aide-mémoire", "carte de référence")),
        "strip": Term("bande", ("piste", "parcours de cases"), ("centennial",)),
        "turn_point": Term("demi-tour", ("virage", "tournant"), ("centennial",)),
        "reached_box": Term("case atteinte", ("case d’arrivée", "case d'arrivée"), ("centennial",)),
        "cross_off": Term(
            "rayer", ("cocher", "cochez", "coche", "coché", "cochée", "cochées", "cochés"), ("everest",)
        ),
        "free_box": Term("case libre", ("case vide", "cases vides"), ("everest",)),
        "player_sheet": Term("feuille de joueur", ("feuilles des joueurs",), ("everest",)),
        "point": Term("intersection", ("case", "cases"), ("nine-mens-morris",)),
        "man": Term("pion", ("homme", "hommes", "jeton", "jetons"), ("nine-mens-morris",)),
        "mill": Term("moulin", ("alignement", "alignements"), ("nine-mens-morris",)),
        "sequence": Term("série", ("rangée", "rangées"), ("verbal",)),
        "position": Term("position", ("place", "places"), ("verbal",)),
        "pointer": Term("flèche", ("pointeur", "pointeurs"), ("take-the-brain",)),
        "brain": Term("Cerveau", ("cervelle",), ("take-the-brain",)),
        "numskull": Term("Crâne", ("cabochard", "cabochards", "caboche", "caboches"), ("take-the-brain",)),
        "ninny": Term("Nigaud", ("benêt", "benêts", "niais"), ("take-the-brain",)),
        "city": Term("ville", ("cité", "cités"), ("aggression",)),
        "road": Term("route", ("chemin", "chemins"), ("aggression",)),
        "troop": Term("troupe", ("soldat", "soldats", "armée", "armées"), ("aggression",)),
        "chit": Term("jeton", ("chit", "chits"), ("aggression",)),
        "ledger": Term("registre", ("grand livre", "livre de comptes"), ("aggression",)),
        "cell": Term("case", ("cellule", "cellules"), ("push",)),
        "pawn": Term("pion", ("jeton", "jetons"), ("push",)),
        "soldier": Term("soldat", ("combattant", "combattants"), ("barricades",)),
        "pistolier": Term("pistolier", ("pistolero", "pistoleros"), ("barricades",)),
        "rifleman": Term("fusilier", ("carabinier", "carabiniers"), ("barricades",)),
        "grenadier": Term("grenadier", ("lanceur de grenades",), ("barricades",)),
        "gunner": Term("mitrailleur", ("servant", "servants"), ("barricades",)),
        "macguffin": Term("MacGuffin", ("trésor", "trésors"), ("barricades",)),
    },
    "it": {
        "seed": Term("seme", ("seed",)),
        "quick_reference": Term("scheda rapida", ("promemoria", "scheda di riferimento")),
        "free_cell": Term("casella libera", ("casella vuota", "caselle vuote"), ("push",)),
        "strip": Term("striscia", ("percorso di caselle", "pista"), ("centennial",)),
        "turn_point": Term("giro di boa", ("svolta", "inversione"), ("centennial",)),
        "claim": Term("rivendicare", ("reclamare", "reclama", "reclamo", "reclamato"), ("centennial",)),
        "cross_off": Term("barrare", ("cancellare", "cancellate", "spuntare", "spuntate"), ("everest",)),
        "free_box": Term("casella libera", ("casella vuota", "caselle vuote"), ("everest",)),
        "player_sheet": Term("foglio del giocatore", ("scheda del giocatore",), ("everest",)),
        "mill": Term("mulino", ("tris", "filetti"), ("nine-mens-morris",)),
        "man": Term("pedina", ("uomo", "uomini"), ("nine-mens-morris",)),
        "board_nmm": Term("tavoliere", ("scacchiera",), ("nine-mens-morris",)),
        "pointers": Term("frecce", ("puntatori", "puntatore", "indicatori"), ("take-the-brain",)),
        "troops": Term("truppe", ("armate", "soldati"), ("aggression",)),
        "barricades": Term("barricate", ("barriere", "ostacoli"), ("barricades",)),
        "line_of_fire": Term("linea di tiro", ("linea di fuoco", "linea di vista"), ("barricades",)),
        "roster": Term("ruolino", ("scheda dei soldati", "schede dei soldati"), ("barricades",)),
        "offer": Term("proporre", ("offrire", "offre", "offerti", "offerto"), ("verbal",)),
        "address": Term(
            "voi",
            (
                "tu",
                "tuo",
                "tua",
                "tuoi",
                "tue",
                "ti",
                "puoi",
                "devi",
                "fai",
                "hai",
                "vuoi",
                "pensi",
                "scrivi",
            ),
        ),
    },
}


def terms(lang: str, game: str | None = None) -> dict[str, str]:
    """Return a language's glossary as concept -> term (those about ``game`` and every game's);
    raise MissingText for a language without a glossary."""
    if lang not in GLOSSARY:
        raise MissingText(f"no {lang!r} glossary (generator/foundation/languages.py)")
    return {
        key: t.term for key, t in GLOSSARY[lang].items() if not t.games or game is None or game in t.games
    }


# The games' own words (illegal-move reasons, position lines, outcome details): a rules module
# says what it means as a ``Msg`` (a catalogue key and its values), which is also its English
# text, so the rules never depend on a language and the referee renders the same message in the
# language it speaks (``render``). The keys are ``game.<rules id>.<name>`` (``game.any.*``: shared
# words); every language has every key (tests/foundation/test_game_texts.py checks).
class Msg(str):
    """A game's message: the str itself is its English text; ``key`` and ``values`` (plain values
    or other messages) render it in another language with ``render``."""

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, /, **values: object) -> Msg:
        """Return the message of a catalogue key with its values; raise MissingText when the
        catalogue has no English text for the key."""
        english = message(key, "en", **{name: str(v) for name, v in values.items()})
        made = super().__new__(cls, english)
        made.key = key
        made.values = values
        return made

    @classmethod
    def joined(cls, sep: str, parts: Sequence[str]) -> Msg:
        """Return messages (or plain notation) joined by ``sep``, e.g. a position's lines."""
        made = super().__new__(cls, sep.join(str(p) for p in parts))
        made.key = ""
        made.values = {"sep": sep, "parts": tuple(parts)}
        return made

    @classmethod
    def number(cls, n: int) -> Msg:
        """Return a large number written as each language groups its digits: '1,000,000',
        '1\u202f000\u202f000', '1.000.000'."""
        made = super().__new__(cls, f"{n:,}")
        made.key = "#number"
        made.values = {"n": n}
        return made

    @classmethod
    def columns(cls, rows: Sequence[Sequence[str]], widths: Sequence[int], right: Sequence[int] = ()) -> Msg:
        """Return rows of cells (messages or notation) as lines of aligned columns: cells apart by
        one space, each column as wide as its widest cell in the language it is rendered in (at
        least ``widths``), the columns numbered in ``right`` set to the right, each line's end
        trimmed; so a position's table stays aligned whatever a language's words weigh."""
        table = (tuple(tuple(row) for row in rows), tuple(widths), tuple(right))
        made = super().__new__(cls, _columns(table, str))
        made.key = "#columns"
        made.values = {"table": table}
        return made

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_rebuild_msg, (self.key, self.values))


def _columns(table: tuple[tuple[tuple[str, ...], ...], tuple[int, ...], tuple[int, ...]], say: Any) -> str:
    """Return a table of cells as aligned lines, each cell said by ``say`` (``Msg.columns``)."""
    rows, widths, right = table
    said = [[say(cell) for cell in row] for row in rows]
    wide = [
        max([widths[i] if i < len(widths) else 0] + [len(row[i]) for row in said if i < len(row)])
        for i in range(max((len(row) for row in said), default=0))
    ]
    lines = []
    for row in said:
        cells = [cell.rjust(wide[i]) if i in right else cell.ljust(wide[i]) for i, cell in enumerate(row)]
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)


def _rebuild_msg(key: str, values: dict[str, object]) -> Msg:
    """Return a message again from its key and values (for pickle and deepcopy)."""
    if key == "":
        parts = values["parts"]
        assert isinstance(parts, tuple)
        return Msg.joined(str(values["sep"]), list(parts))
    if key == "#number":
        return Msg.number(int(str(values["n"])))
    if key == "#columns":
        table = values["table"]
        assert isinstance(table, tuple)
        return Msg.columns(table[0], table[1], table[2])
    return Msg(key, **values)


def render(value: object, lang: str) -> str:
    """Return a game's message (or a plain value) in a language: a ``Msg`` from the catalogue with
    its values rendered in turn; anything else as written (notation, numbers). Raise MissingText
    when the language lacks the message's key (there is no fallback to English)."""
    if isinstance(value, Msg):
        if value.key == "":
            parts = value.values["parts"]
            assert isinstance(parts, tuple)
            return str(value.values["sep"]).join(render(p, lang) for p in parts)
        if value.key == "#number":
            n = f"{value.values['n']:,}"
            return {"fr": n.replace(",", NNBSP), "it": n.replace(",", ".")}.get(lang, n)
        if value.key == "#columns":
            table = value.values["table"]
            return _columns(table, lambda cell: render(cell, lang))  # type: ignore[arg-type]
        key, number = value.key, value.values.get("n")
        stem, _, form = key.rpartition(".")
        if (
            form in ("one", "many")
            and isinstance(number, int)
            and {f"{stem}.one", f"{stem}.many"} <= TEXTS["en"].keys()
        ):
            key = f"{stem}.{plural_form(number, lang)}"  # a count: the language's form of its noun
        return message(key, lang, **{name: render(v, lang) for name, v in value.values.items()})
    return str(value)


def counted(number: int, noun: str) -> Msg:
    """Return a number with a game's noun in the right number in every language: the catalogue's
    ``game.n.<noun>.one`` or ``.many``, chosen again by each language's rule when rendered
    (``plural_form``: '0 men', '1 man'; '0\u00a0pion', '2\u00a0pions')."""
    return Msg(f"game.n.{noun}.{plural_form(number, 'en')}", n=number)


def count_text(key: str, number: int, lang: str, **values: object) -> str:
    """Return the catalogue's text ``<key>.one`` or ``<key>.many`` for a count in a language (its
    ``{n}`` the number), e.g. the referee's '1 mossa regolare', '2 mosse regolari'."""
    return message(f"{key}.{plural_form(number, lang)}", lang, n=number, **values)


def side_msg(side: str) -> Msg:
    """Return a side's name (the rules' side id, 'white') as a message: 'White', 'Blanc', 'Bianco'."""
    return Msg(f"side.{side}")


def reason_of(exc: BaseException) -> str:
    """Return an error's text, kept as its ``Msg`` when the rules raised one (so the referee can
    render it in its language), else the error as a str."""
    if exc.args and isinstance(exc.args[0], Msg):
        return exc.args[0]
    return str(exc)


from generator.foundation.game_texts import GAME_TEXTS  # noqa: E402  (the catalogue's game part)

for _code, _entries in GAME_TEXTS.items():
    TEXTS[_code].update(_entries)
