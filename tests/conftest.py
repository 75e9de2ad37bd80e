"""Shared fixtures: builds of real kits into temporary folders, and PDF/SVG readers."""

from __future__ import annotations

import atexit
import functools
import gc
import glob
import itertools
import os
import re
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET

import pytest

from generator.definitions.loader import load_all
from generator.definitions.values import BUILTIN_GAMES, GameDefinition
from generator.starter import starter_files, write_starter
from tests.shared import build, shared_build

__all__ = ["build", "shared_build"]  # with the names defined here: what test modules import

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STARTER = "lanterns"  # the id the README's steps give `pnp new`


@functools.cache
def starter_layouts() -> str:
    """Return a layouts folder holding the starter kit ``pnp new`` writes, made once per process
    in a temporary folder (never in the repository, whose layouts/ may hold a reader's own games)."""
    root = tempfile.mkdtemp(prefix="pnp-starter-")
    atexit.register(shutil.rmtree, root, True)
    layouts = os.path.join(root, "layouts")
    write_starter(STARTER, layouts)
    return layouts


def kit_definitions(lang: str = "en") -> dict[str, GameDefinition]:
    """Return by id the definitions the suite checks every kit of: the built-in games and the
    starter kit (``starter_layouts``), so the starter passes every check the built-in games pass
    and games a reader adds to layouts/ never reach the suite (read once a process per language)."""
    return dict(_kit_definitions(lang))


@functools.cache
def _kit_definitions(lang: str) -> dict[str, GameDefinition]:
    """Return kit_definitions(lang), loaded from the definition files."""
    definitions = {d.id: d for d in load_all(lang=lang)}
    definitions.update({d.id: d for d in load_all(starter_layouts(), lang)})
    return definitions


def layouts_for(game: str) -> dict[str, str]:
    """Return the build option that finds a game of kit_definitions: the starter's folder for the
    starter kit, nothing (the built-in games) otherwise."""
    return {"layouts": starter_layouts()} if game == STARTER else {}


def own_game_files(root: str = ROOT) -> list[str]:
    """Return the files of games of a reader's own in a checkout's layouts/ and templates/ (what
    ``pnp new`` wrote there, in any language), as paths relative to root."""
    found = []
    layouts = os.path.join(root, "layouts")
    for path in sorted(glob.glob(os.path.join(layouts, "*.toml"))):
        game = os.path.splitext(os.path.basename(path))[0]
        if game in BUILTIN_GAMES:
            continue
        files = {path, *starter_files(game, layouts)}
        files |= set(glob.glob(os.path.join(root, "templates", "*", f"{game}.*.j2")))
        found += [os.path.relpath(f, root) for f in sorted(files) if os.path.exists(f)]
    return found


SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="session")
def nmm_kit() -> str:
    """Return the folder of a Nine Men's Morris kit built on A4."""
    return os.path.join(shared_build("nine-mens-morris"), "nine-mens-morris")


@pytest.fixture(scope="session")
def all_kits() -> str:
    """Return an output folder holding every built-in kit, built on two worker processes (the
    ``shared_build`` a test asking for the same build reads too)."""
    return shared_build(jobs=2)


@pytest.fixture(scope="session")
def nmm_kit_letter() -> str:
    """Return the folder of a Nine Men's Morris kit built on Letter."""
    return os.path.join(shared_build("nine-mens-morris", paper="letter"), "nine-mens-morris")


@pytest.fixture(scope="session", params=["a4", "letter"])
def every_kit(request) -> tuple[str, str]:
    """Return (output folder, paper) of every built-in kit built as PDF on A4 and on Letter (the
    ``shared_build`` a test asking for the same build reads too)."""
    return shared_build(paper=request.param, formats=["pdf"]), request.param


def svg_root(path: str) -> ET.Element:
    """Return the parsed root element of an SVG file."""
    return ET.parse(path).getroot()


def mm(points: float) -> float:
    """Return a PDF length in points as millimetres."""
    return points * 25.4 / 72.0


# -- the fast tier ----------------------------------------------------------------------------------
# `pytest -m "not slow"` is the edit loop (CONTRIBUTING.md): every test but those that build every
# kit, drive Chromium, install the wheel, or play or analyse many games. CI runs them all.
SLOW_FIXTURES = {
    "every_kit",
    "all_kits",
    "kits",
    "shop",
    "ink_saver_kits",
    "home",
    "built",
    "browser",
    "with_and_without_parts",  # test_parts.py: every kit built twice
    "written",  # test_svg_markup.py: every kit's SVGs
}
SLOW_FILES = {
    "tests/test_install.py",
    "tests/booklet/test_booklet_fit.py",
    "tests/booklet/test_every_booklet.py",
    "tests/bots/test_aggression_bots.py",
    "tests/bots/test_analyse.py",
    "tests/bots/test_balanced.py",
    "tests/bots/test_bots.py",
    "tests/bots/test_cluster.py",
    "tests/bots/test_fairness.py",
    "tests/bots/test_stall.py",
    "tests/bots/test_tactics.py",
    "tests/foundation/test_all_kits.py",
    "tests/foundation/test_batch.py",
    "tests/foundation/test_layout_all_kits.py",
    "tests/foundation/test_print_job.py",
    "tests/foundation/test_print_shop.py",
    "tests/foundation/test_readme_steps.py",
    "tests/foundation/test_small_marks.py",
    "tests/games/test_conformance.py",
    "tests/games/test_examples.py",
    "tests/games/test_perft.py",
    "tests/hostile/test_kit_budget.py",
    "tests/hostile/test_template_exhaustion.py",
    "tests/referee/test_referee_vs_computer.py",
}


# Single heavy tests (more than about half a second of CPU each: many builds, subprocesses, seeds or
# fuzzed examples); their file keeps other tests in the fast tier. A property checked over thousands
# of seeds or every move of a position is here when the fast tier keeps a test of it on a few (the
# slow conformance tests check every game's moves and playouts). A file of tests that start pnp as a process of its own (signals,
# closed descriptors, memory caps) keeps one of them in the fast tier; the others are here.
SLOW_TESTS = {
    "tests/booklet/test_booklet_fit_paper.py::test_no_seed_of_a_seeded_kit_pads_its_booklet",
    "tests/foundation/test_cards.py::test_a_csv_file_that_is_too_large_missing_or_not_text_is_refused",
    "tests/foundation/test_cards.py::test_an_inline_deck_needs_no_csv",
    "tests/foundation/test_cards.py::test_at_a_print_shop_cards_bleed_and_each_card_face_is_a_png",
    "tests/foundation/test_cli.py::test_check_accepts_every_shipped_definition",
    "tests/foundation/test_custom_game.py::test_bad_seed_ranges_are_usage_errors",
    "tests/foundation/test_definitions.py::test_random_definitions_fail_cleanly",
    "tests/foundation/test_fits.py::test_all_with_a_cell_size_builds_the_games_with_boards_at_that_size",
    "tests/foundation/test_option_bounds.py::test_the_balance_bounds_name_the_option_and_hold_before_any_game",
    "tests/foundation/test_parts.py::test_a_batchs_later_seeds_keep_their_board_pdf",
    "tests/foundation/test_pieces_from_data.py::test_a_csv_of_pieces_has_the_decks_bounds_and_stays_in_the_definitions_folder",
    "tests/foundation/test_processes.py::test_a_killed_check_leaves_its_folder_only_until_the_next_check",
    "tests/foundation/test_processes.py::test_a_signal_while_a_stopped_command_exits_changes_nothing",
    "tests/foundation/test_processes.py::test_live_play_stopped_by_signals_saves_the_whole_record",
    "tests/foundation/test_processes.py::test_the_next_build_clears_what_killed_builds_left",
    "tests/foundation/test_processes.py::test_two_signals_close_together_end_in_one_line",
    "tests/foundation/test_processes.py::test_workers_end_with_the_main_process",
    "tests/foundation/test_tts_export.py::test_a_deck_of_more_than_70_cards_goes_on_more_sheets_without_an_empty_row",
    "tests/foundation/test_tts_export.py::test_the_same_command_writes_the_same_bytes",
    "tests/foundation/test_watch.py::test_watch_rebuilds_on_save_keeps_the_last_good_kit_and_stops_on_sigint",
    "tests/games/test_barricades_board.py::test_barricades_form_a_maze_of_rows_not_a_scatter_of_blocks",
    "tests/games/test_barricades_board.py::test_invariants_over_thousands_of_seeds",
    "tests/games/test_barricades_board.py::test_line_squares_are_exactly_the_squares_the_line_passes_through",
    "tests/games/test_barricades_board.py::test_macguffins_are_almost_never_adjacent",
    "tests/games/test_barricades_kit.py::test_a_larger_cell_size_tiles_the_board",
    "tests/games/test_barricades_rules.py::test_legal_moves_are_exactly_the_moves_check_move_accepts",
    "tests/games/test_centennial.py::test_random_playouts_finish_and_every_move_round_trips",
    "tests/games/test_push.py::test_boards_are_latin_squares_over_many_seeds",
    "tests/games/test_push.py::test_turns_print_and_parse_back_with_the_adjust_variant",
    "tests/games/test_take_the_brain.py::test_variant_boards_keep_the_properties_over_many_seeds",
    "tests/hostile/test_hostile_definitions.py::test_check_ok_implies_build_ok",
    "tests/hostile/test_hostile_keys.py::test_a_hostile_value_at_any_key_of_any_kind_is_exit_0_or_3",
    "tests/hostile/test_hostile_live.py::test_a_closed_input_descriptor_ends_the_game_and_saves",
    "tests/hostile/test_hostile_live.py::test_a_closed_stdout_still_saves",
    "tests/hostile/test_hostile_live.py::test_a_kill_still_leaves_every_move_played",
    "tests/hostile/test_hostile_live.py::test_an_endless_line_is_refused",
    "tests/hostile/test_hostile_live.py::test_an_input_that_never_ends_its_line_ends_the_game",
    "tests/hostile/test_hostile_live.py::test_endless_unreadable_lines_end_the_game_with_the_moves_kept",
    "tests/hostile/test_hostile_live.py::test_saving_to_a_hard_link_leaves_the_other_name_alone",
    "tests/hostile/test_hostile_live.py::test_undecodable_input_is_refused_and_the_game_goes_on",
    "tests/hostile/test_hostile_memory.py::test_without_the_lowered_cap_the_same_kits_build",
    "tests/hostile/test_hostile_numbers.py::test_seed_text_is_accepted_only_as_plain_digits",
    "tests/hostile/test_hostile_output.py::test_a_seed_of_any_valid_size_in_an_output_folder_sorts_beside_short_ones",
    "tests/hostile/test_hostile_output.py::test_concurrent_builds_into_one_folder_leave_one_whole_kit",
    "tests/hostile/test_hostile_output.py::test_killed_rebuilds_never_leave_a_mixed_kit",
    "tests/hostile/test_hostile_output.py::test_source_date_epoch_changes_nothing",
    "tests/hostile/test_hostile_referee_files.py::test_a_record_on_standard_input_is_read_when_given_dash",
    "tests/hostile/test_hostile_referee_files.py::test_a_save_path_that_names_no_file_is_refused_before_play",
    "tests/hostile/test_hostile_scheduler.py::test_a_balanced_build_asking_a_liar_writes_nothing",
    "tests/hostile/test_hostile_scheduler.py::test_a_server_that_imitates_the_handshake_is_one_line",
    "tests/hostile/test_hostile_scheduler.py::test_a_server_that_is_not_dask_is_one_line",
    "tests/hostile/test_hostile_scheduler.py::test_an_unknown_host_name_is_one_line",
    "tests/hostile/test_hostile_scheduler.py::test_workers_that_die_mid_analysis_are_not_waited_for",
}
# Heavy parametrized tests: the first case collected stays in the fast tier, the others are slow.
SLOW_BUT_ONE = {
    "tests/booklet/test_booklet_fit_paper.py::test_no_page_but_the_last_is_under_a_third_full",
    "tests/booklet/test_booklet_fit_paper.py::test_the_booklet_fills_a_multiple_of_four_pages_with_no_padding_page",
    "tests/booklet/test_booklet_html.py::test_html_booklet_holds_the_pdf_text",
    "tests/booklet/test_booklet_layout.py::test_nine_mens_morris_text_stays_in_the_text_area",
    "tests/foundation/test_build_request.py::test_every_kit_holds_its_definition_in_each_language_of_its_booklets",
    "tests/foundation/test_calibration.py::test_calibration_sheet_measures_true",
    "tests/foundation/test_cards.py::test_a_bad_deck_is_a_one_line_error_naming_file_row_and_column",
    "tests/foundation/test_cards.py::test_a_bad_picture_is_a_one_line_error_naming_its_row_and_column",
    "tests/foundation/test_cards.py::test_a_card_text_is_set_at_the_largest_size_that_fits_each_line_as_full_as_it_goes",
    "tests/foundation/test_cards.py::test_cards_print_at_their_true_size_between_crop_marks",
    "tests/foundation/test_cards.py::test_every_back_lies_behind_its_front_after_a_long_edge_flip",
    "tests/foundation/test_cards.py::test_pictures_from_a_column_fill_their_box_once_stored",
    "tests/foundation/test_cli.py::test_bad_options_exit_2_with_one_line",
    "tests/foundation/test_example_designs.py::test_every_page_of_the_example_passes_the_layout_check",
    "tests/foundation/test_fits.py::test_a_cell_size_that_does_not_apply_or_fit_is_refused_in_one_line",
    "tests/foundation/test_hex_board.py::test_a_bad_map_is_a_one_line_error_naming_the_key",
    "tests/foundation/test_hex_board.py::test_hexes_print_at_true_size_with_every_name_inside_its_hex",
    "tests/foundation/test_hex_counters.py::test_each_hex_back_lies_behind_its_front_after_a_long_edge_flip",
    "tests/foundation/test_hex_counters.py::test_hex_counters_share_their_cut_lines",
    "tests/foundation/test_inline_icons.py::test_a_bad_icon_table_is_one_line_naming_the_key",
    "tests/foundation/test_inline_icons.py::test_an_unknown_icon_is_one_line_naming_file_key_and_row",
    "tests/foundation/test_one_source.py::test_every_text_of_the_kit_names_the_unit_the_limit_counts_in",
    "tests/foundation/test_one_source.py::test_every_text_of_the_kit_states_the_turn_limit_of_the_rules_module",
    "tests/foundation/test_option_bounds.py::test_an_option_out_of_bounds_is_one_line_and_exit_2",
    "tests/foundation/test_page_model.py::test_building_a_kit_changes_no_page_a_component_drew",
    "tests/foundation/test_piece_defects.py::test_a_misspelt_card_type_is_an_error_naming_its_row_and_the_near_name",
    "tests/foundation/test_piece_defects.py::test_hex_names_read_over_every_terrain_hatched_or_not",
    "tests/foundation/test_piece_defects.py::test_the_booklet_figure_of_a_deck_shows_the_cards_small_text",
    "tests/foundation/test_pieces_from_data.py::test_a_bad_row_is_a_one_line_error_naming_file_row_and_column",
    "tests/foundation/test_pieces_from_data.py::test_a_template_naming_a_missing_column_is_an_error_at_its_key",
    "tests/foundation/test_print_options.py::test_ink_saver_parts_keep_no_large_coloured_fill",
    "tests/foundation/test_processes.py::test_ctrl_c_at_any_moment_prints_no_traceback",
    "tests/foundation/test_track_margins.py::test_every_box_number_of_every_kit_keeps_its_margin",
    "tests/foundation/test_track_seams.py::test_no_seam_of_a_kits_tiled_track_crosses_a_glyph",
    "tests/foundation/test_track_seams.py::test_no_seam_of_a_long_one_lane_track_crosses_a_glyph",
    "tests/foundation/test_service_export.py::test_standee_faces_keep_their_printed_text_inside_the_services_safe_area",
    "tests/foundation/test_tts_export.py::test_a_bad_export_option_is_one_line_and_writes_nothing",
    "tests/foundation/test_user_fonts.py::test_a_bad_font_file_is_one_line_naming_file_and_key",
    "tests/games/test_aggression.py::test_map_invariants_over_many_seeds",
    "tests/games/test_aggression_example_game.py::test_the_booklet_prints_the_example_game_move_by_move",
    "tests/games/test_barricades_kit.py::test_the_board_fits_one_page_with_squares_big_enough_for_the_standees",
    "tests/games/test_barricades_numbers.py::test_each_side_has_a_roster_row_for_every_soldier_numbered_from_one",
    "tests/games/test_barricades_numbers.py::test_every_roster_soldier_has_one_standee_numbered_on_both_faces",
    "tests/games/test_barricades_numbers.py::test_every_roster_soldier_has_one_start_square_labelled_with_its_number",
    "tests/hostile/test_hostile_live.py::test_a_signal_ends_the_game_and_keeps_the_record",
    "tests/hostile/test_hostile_memory.py::test_a_kit_beyond_the_memory_cap_is_one_line_exit_3",
    "tests/hostile/test_hostile_output.py::test_a_malformed_manifest_of_another_kit_is_reported_and_skipped",
    "tests/hostile/test_hostile_referee_files.py::test_a_special_file_is_one_line_exit_3_at_once",
    "tests/referee/test_game_texts.py::test_every_message_of_a_playout_comes_from_the_catalogue",
    "tests/referee/test_game_texts.py::test_pnp_referee_says_a_games_reasons_and_positions_in_its_language",
    "tests/referee/test_message_examples.py::test_an_example_in_a_message_is_legal_where_it_is_shown",
    "tests/referee/test_record_numbering.py::test_random_playouts_read_back_as_played_with_numbers_following_the_turn",
    "tests/referee/test_referee_every_language.py::test_every_verdict_on_every_game_is_said_without_english",
    "tests/referee/test_referee_every_language.py::test_live_play_against_the_computer_to_the_end_is_said_without_english",
    "tests/referee/test_referee_every_language.py::test_live_play_of_every_game_is_said_without_english",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow every test of SLOW_FILES or the browser folder, and every test using a fixture of
    SLOW_FIXTURES (each builds every kit or starts a browser), every test of SLOW_TESTS, and every
    case but the first of each test of SLOW_BUT_ONE."""
    kept: set[str] = set()
    for item in items:
        path = os.path.relpath(str(item.path), ROOT).replace(os.sep, "/")
        fixtures = set(getattr(item, "fixturenames", ()))
        test = f"{path}::{getattr(item, 'originalname', item.name)}"
        first_case = test in SLOW_BUT_ONE and test not in kept
        if first_case:
            kept.add(test)
        if (
            _slow_file(path)
            or fixtures & SLOW_FIXTURES
            or test in SLOW_TESTS
            or (test in SLOW_BUT_ONE and not first_case)
        ):
            item.add_marker(pytest.mark.slow)
    _run_first(items)


def _share_bytecode() -> None:
    """When Python writes no bytecode (``PYTHONDONTWRITEBYTECODE``, ``-B``; this machine's shells
    set it), give the run a bytecode cache of its own, in a temporary folder removed at its end
    (``PYTHONPYCACHEPREFIX``): the workers and the hundreds of processes the tests start (``pnp``,
    Dask's, the README steps' collection) read each module compiled once instead of compiling the
    package and its dependencies each time (0.6 to 0.9 s of CPU a ``pnp`` process, 1 s Dask, about
    10 s a collection of the suite), and the checkout stays as clean as the setting keeps it."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    prefix = tempfile.mkdtemp(prefix="pnp-bytecode-")
    atexit.register(shutil.rmtree, prefix, True)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False


# The longest single test, sharing no fixture with any other: run first, so that under xdist
# (`-n 2`, work stealing: pytest_configure) it never starts late and leaves one worker running alone.
RUN_FIRST = ("tests/test_install.py",)


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist (``-n``) with no ``--dist`` asked for, distribute the tests by work stealing:
    each worker starts on its own half of the run in collection order (so a module's fixtures and
    a file's caches are made by one worker) and takes half of what the other has left when it runs
    out, so both end together. Give the run a bytecode cache when none is written
    (``_share_bytecode``)."""
    _share_bytecode()
    asked = any(
        a in ("-d", "--dist") or a.startswith(("--dist=", "--distload"))
        for a in config.invocation_params.args
    )
    if getattr(config.option, "dist", "no") == "load" and not asked:
        config.option.dist = "worksteal"


# The garbage collector: tests make millions of objects (pages, shapes, parsed PDFs), and with
# Python's default thresholds its collections took a seventh of the fast tier's CPU, mostly going
# over the collected tests and the imported modules again and again. The fast tier collects less
# often (it leaves out the one test that measures a build's memory with tracemalloc), and every run
# freezes what collection made (never garbage: later collections skip it).
FAST_TIER_GC_THRESHOLD = (50_000, 50, 100)


def pytest_sessionstart(session: pytest.Session) -> None:
    """In the fast tier (``-m`` leaving out every slow test), raise the garbage collector's
    thresholds before collection starts."""
    expression = session.config.getoption("markexpr", "") or ""
    if expression and _deselects_every_slow_test(expression):
        gc.set_threshold(*FAST_TIER_GC_THRESHOLD)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything collection made (the modules, the collected tests) out of the garbage
    collector's sight: it lives to the end of the run."""
    from generator.workers import parallel

    gc.collect()
    gc.freeze()
    parallel.FREEZE_HEAP = False  # what is frozen stays frozen after a build in this process


def _run_first(items: list[pytest.Item]) -> None:
    """Move the tests of RUN_FIRST to the front of the run, the order of the rest kept."""
    first = [i for i in items if os.path.relpath(str(i.path), ROOT).replace(os.sep, "/") in RUN_FIRST]
    if first:
        items[:] = first + [i for i in items if i not in first]


def _slow_file(path: str) -> bool:
    """Return True for a test file every test of which is slow (SLOW_FILES, the browser folder)."""
    return path in SLOW_FILES or path.startswith("tests/browser/")


@functools.cache
def _deselects_every_slow_test(expression: str) -> bool:
    """Return True when the ``-m`` expression leaves out every test marked slow, whatever its other
    marks: false with ``slow`` true for every value of the other names it holds. An expression
    this cannot read (marker arguments, more than eight names) counts as keeping them."""
    words = re.findall(r"\(|\)|[^\s()]+", expression)
    names = sorted({w for w in words if w not in ("(", ")", "and", "or", "not")})
    if not words or "slow" not in names or len(names) > 9 or re.search(r"[^\s()]\(", expression):
        return False
    code = " ".join(w if w in ("(", ")", "and", "or", "not") else f"v[{names.index(w)}]" for w in words)
    try:
        compiled = compile(code, "-m", "eval")
    except SyntaxError:
        return False
    others = [i for i, n in enumerate(names) if n != "slow"]
    for values in itertools.product((False, True), repeat=len(others)):
        v = [True] * len(names)
        for i, value in zip(others, values):
            v[i] = value
        if eval(compiled, {"__builtins__": {}}, {"v": v}):
            return False
    return True


def pytest_ignore_collect(collection_path: object, config: pytest.Config) -> bool | None:
    """Leave the files that hold only slow tests unread when ``-m`` leaves out every slow test
    (the fast tier: ``-m "not slow"``), so that the edit loop does not pay for importing them."""
    expression = config.getoption("markexpr", "") or ""
    if not expression or not _deselects_every_slow_test(expression):
        return None
    path = os.path.relpath(str(collection_path), ROOT).replace(os.sep, "/")
    return True if _slow_file(path) else None
