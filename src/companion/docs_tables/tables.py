"""What the tables of docs/ say, read from the code: a `Table` (or a region's text) per table,
and `regions()`, where each is on its page.

Everything the docs read from the code is imported here, through the entry points that stay put
when modules move: a move needs a change on the import lines only.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import json
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from companion.api.body_docs import DOCUMENTED as TABLE_BODIES
from companion.api.body_docs import END as BODY_END
from companion.api.body_docs import START as BODY_START
from companion.api.body_docs import body_tables
from companion.api.event_day import DAY_BODIES
from companion.api.events import EVENT_BODIES
from companion.docs_tables.markdown import Cells, Region, Table, block, table_region
from companion.ledger.columns import columns as export_columns
from companion.request import ScoreRequest, parse_request
from companion.rules import profiles
from companion.rules.mcr.fans import BY_ID as MCR_FANS
from companion.rules.mcr.fans import FANS, Fan
from companion.rules.mcr.profile import FIELDS as MCR_FIELDS
from companion.rules.patterns import Pattern, PatternScore
from companion.rules.riichi.profile import FIELDS as RIICHI_FIELDS
from companion.rules.riichi.yaku import optional_table
from companion.scoring import MultiResult, ScoreResult, score_json
from companion.settlement import amount_json
from companion.web.i18n import catalogue

# --- Values as the docs write them ----------------------------------------------------------


def as_json(value: Any) -> Any:
    """A default as a request writes it: an enum's value, a list for a tuple or set, a number or
    a fraction string for an amount."""
    if isinstance(value, enum.Enum):
        return as_json(value.value)
    if isinstance(value, Fraction):
        return amount_json(value)
    if isinstance(value, tuple | list | frozenset | set):
        return [as_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    return value


def _code(value: Any) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _ids(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _or_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


# --- The request --------------------------------------------------------------------------------


def _request_default(name: str) -> str:
    empty = parse_request({})
    written = as_json(getattr(empty, name))
    if parse_request({name: written}) != empty:
        raise ValueError(f"request field {name}: {written!r} does not read as its default")
    return _code(written)


def _request_cells(name: str) -> list[str | None]:
    kind = None
    if name == "profile":
        kind = "string: " + _or_list([f'`"{key}"`' for key in profiles()])
    return [kind, _request_default(name), None]


def request_fields() -> Table:
    names = [field.name for field in dataclasses.fields(ScoreRequest)]
    return Table(("field", "type", "default", "meaning"), names, _request_cells, page_order=True)


def _kept(columns: int) -> Cells:
    return lambda name: [None] * columns


def own_fields(fields: frozenset[str]) -> Table:
    """The fields of a profile that reads its own requests (riichi, MCR)."""
    return Table(("field", "type", "default", "meaning"), sorted(fields), _kept(3), page_order=True)


# --- Options ------------------------------------------------------------------------------------


def options(profile_id: str) -> Table:
    """A profile's options a request may set, each with its default as JSON."""
    profile = profiles()[profile_id]
    options_type = profile.options_type
    defaults = profile.parse_options({})
    names = [f.name for f in dataclasses.fields(options_type) if f.name not in options_type.derived]

    def cells(name: str) -> list[str | None]:
        written = as_json(getattr(defaults, name))
        if profile.parse_options({name: written}) != defaults:
            raise ValueError(f"{profile_id} option {name}: {written!r} is not its default")
        return [None, _code(written), None]

    return Table(("option", "type", "default", "meaning"), names, cells, page_order=True)


# --- The result ---------------------------------------------------------------------------------


def written_keys(function: Callable[..., Any]) -> tuple[list[str], list[str]]:
    """The keys a `to_json` writes, in its order: those of the `data` it returns, and those of
    the objects built inside it (dict literals nested in it)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    top: list[str] = []
    data_literals: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if _is_data(target) and isinstance(node.value, ast.Dict):
                    data_literals.add(id(node.value))
                    top += _constant_keys(node.value)
                if (
                    isinstance(target, ast.Subscript)
                    and _is_data(target.value)
                    and isinstance(target.slice, ast.Constant)
                ):
                    top.append(str(target.slice.value))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and _is_data(node.func.value)
        ):
            top += [keyword.arg for keyword in node.keywords if keyword.arg]
    nested: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and id(node) not in data_literals:
            nested += _constant_keys(node)
    returns = [node for node in ast.walk(tree) if isinstance(node, ast.Return)]
    if not returns or not all(_is_data(node.value) for node in returns):
        raise ValueError(f"{function.__qualname__} no longer builds and returns `data`")
    return list(dict.fromkeys(top)), list(dict.fromkeys(nested))


def _is_data(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Name) and node.id == "data"


def _constant_keys(node: ast.Dict) -> list[str]:
    return [str(key.value) for key in node.keys if isinstance(key, ast.Constant)]


def fields_table(header: Sequence[str], names: Sequence[str]) -> Table:
    """Fields whose every cell but the name a person writes."""
    return Table(header, names, _kept(len(header) - 1), page_order=True)


RESULT = ("field", "type", "present", "meaning")
ITEM = ("field", "type", "meaning")


def result_fields() -> Table:
    return fields_table(RESULT, written_keys(ScoreResult.to_json)[0])


def pattern_items() -> Table:
    return fields_table(ITEM, written_keys(PatternScore.to_json)[0])


def transfers() -> Table:
    nested = written_keys(ScoreResult.to_json)[1] + written_keys(MultiResult.to_json)[1]
    return fields_table(ITEM, list(dict.fromkeys(nested)))


def several_winners_fields() -> Table:
    return fields_table(RESULT, written_keys(MultiResult.to_json)[0])


RIICHI_EXAMPLE = {
    "profile": "riichi",
    "hand": "234m567p22345678s",
    "win_tile": "8s",
    "seat": "S",
    "dora": "1m",
    "ura_dora": "4p",
    "events": ["riichi"],
    "honba": 1,
    "riichi_sticks": 1,
}
"""docs/contract.md's riichi example: a legal win carries every field of the result."""
RIICHI_YAKUMAN = {"profile": "riichi", "hand": "19m19p19s1234567z1m", "win": "discard"}
"""A yakuman, whose item counts yakuman in place of han."""


def riichi_result_fields() -> Table:
    return fields_table(("field", "type", "meaning"), list(score_json(RIICHI_EXAMPLE)))


def riichi_pattern_items() -> Table:
    yakuman = score_json({**RIICHI_YAKUMAN, "discarder": "W"})
    items = [*score_json(RIICHI_EXAMPLE)["patterns"], *yakuman["patterns"]]
    return fields_table(ITEM, list(dict.fromkeys(key for item in items for key in item)))


# --- Patterns -----------------------------------------------------------------------------------


def _value(pattern: Pattern) -> str:
    """A pattern's value: its tai (faan), its variants' values, and "(limit)" for a limit hand."""
    text = str(pattern.tai)
    if pattern.variants:
        text += " (" + ", ".join(f"{tai} {name}" for name, tai in pattern.variants.items()) + ")"
    return text + (" (limit)" if pattern.limit else "")


def _riichi_cells(pattern: Pattern) -> list[str | None]:
    if pattern.limit:
        # Whether a yakuman may be open is its shape's or event's, which no pattern declares.
        value, opened = f"{pattern.tai} yakuman", None
    else:
        open_han = pattern.variants.get("open")
        value, opened = f"{pattern.tai} han", "—" if open_han is None else str(open_han)
    return [pattern.name, value, opened, _ids(sorted(pattern.replaces))]


def _mcr_cells(pattern: Pattern) -> list[str | None]:
    fan = MCR_FANS[pattern.id]
    return [pattern.name, f"{pattern.tai} fan", fan.hans, fan.hant]


def patterns(profile_id: str) -> Table:
    """A profile's patterns, its flower wins last, in the order its table holds them."""
    profile = profiles()[profile_id]
    by_id = {p.id: p for p in (*profile.patterns, *profile.flower_wins.values())}
    if profile_id == "riichi":
        header: Sequence[str] = ("id", "name", "value", "open", "replaces")
        of: Callable[[Pattern], Sequence[str | None]] = _riichi_cells
    elif profile_id == "mcr":
        header, of = ("id", "name", "value", "简体", "繁體"), _mcr_cells
    else:
        header = ("id", "name", profile.unit)

        def of(pattern: Pattern) -> Sequence[str | None]:
            return [pattern.name, _value(pattern)]

    return Table(header, list(by_id), lambda pattern_id: of(by_id[pattern_id]))


def pattern_tables_now() -> Table:
    """docs/performance.md's figures of each shared profile's compiled table."""

    def cells(profile_id: str) -> list[str | None]:
        profile = profiles()[profile_id]
        table = profile.table_for(profile.parse_options({}))
        table_patterns, flower_wins = len(profile.patterns), len(profile.flower_wins)
        figures = (table_patterns, sum(table.decided), flower_wins, table_patterns + flower_wins)
        return [str(figure) for figure in figures]

    header = ("profile", "table patterns", "decided by the bits", "flower wins", "patterns in all")
    align = ("---", "---:", "---:", "---:", "---:")
    shared = [key for key, profile in profiles().items() if not profile.reads_own_requests]
    return Table(header, shared, cells, align=align)


_HOW_MANY = {1: "one", 2: "two", 3: "three"}


def _not_counted_with(fan: Fan) -> str:
    excluded = [
        f"`{fan_id}`" + ("" if count is None else f" ({_HOW_MANY.get(count, str(count))})")
        for fan_id, count in fan.excludes.items()
    ]
    excluded += [f"`{fan_id}` on its own sets" for fan_id in sorted(fan.absorbs)]
    return ", ".join(excluded) or "—"


def mcr_fan(page: str) -> str:
    """docs/rules-mcr.md's fan, a table per value, highest first; what each is, by hand."""
    header = ("id", "简体", "繁體", "English", "fan", "what it is", "not counted with")
    by_value: dict[int, list[str]] = {}
    for fan in FANS:
        by_value.setdefault(fan.value, []).append(fan.id)

    def cells(fan_id: str) -> list[str | None]:
        fan = MCR_FANS[fan_id]
        return [fan.hans, fan.hant, fan.english, str(fan.value), None, _not_counted_with(fan)]

    sections = [
        f"### {value} fan\n\n" + Table(header, ids, cells).written(page)
        for value, ids in by_value.items()
    ]
    return block("\n\n".join(sections))


# --- Refusal keys -------------------------------------------------------------------------------

PHRASES = frozenset({"refusal.or", "refusal.list_sep"})
"""Catalogue keys under `refusal.` that are words for joining a refusal's lists, no refusal."""


def refusal_keys(events: bool) -> Table:
    """The keyed refusals of the engine (docs/contract.md) or of the events (docs/events.md),
    in the English catalogue's order; `key@unit` forms are their key's."""
    keys = dict.fromkeys(key.split("@")[0] for key in catalogue("en") if key.startswith("refusal."))
    names = [
        key
        for key in keys
        if key not in PHRASES and key.startswith(("refusal.event_", "refusal.day_")) == events
    ]
    if events:
        return fields_table(("`error_key`", "`error_params`", "the English"), names)
    return fields_table(("`error_key`", "when", "`error_params`"), names)


# --- The regions --------------------------------------------------------------------------------

CONTRACT_PAGE = "docs/contract.md"
EVENTS_PAGE = "docs/events.md"


def _bodies(path: str, name: str, models: Any) -> Region:
    """Body models' tables, between the markers `body_tables` writes too (and its own command,
    `python -m companion.api.body_docs`, finds)."""

    def write(page: str) -> str:
        return body_tables(models).removeprefix(BODY_START).removesuffix(BODY_END)

    return Region(path, name, write, (BODY_START, BODY_END))


def _per_profile(kind: str, table: Callable[[str], Table]) -> list[Region]:
    return [table_region(CONTRACT_PAGE, f"{kind} {key}", partial(table, key)) for key in profiles()]


def _pattern_tables() -> list[Region]:
    """Each profile's patterns, but a profile whose table is another's listed before it (sanma
    plays riichi's yaku): its page says so in words."""
    found: list[Region] = []
    seen: list[tuple[Pattern, ...]] = []
    for key, profile in profiles().items():
        if profile.patterns in seen:
            continue
        seen.append(profile.patterns)
        found.append(table_region(CONTRACT_PAGE, f"patterns {key}", partial(patterns, key)))
    return found


def riichi_optional_yaku(page: str) -> str:
    """docs/rules-riichi.md's optional yaku, from their registry (`OPTIONAL_YAKU`)."""
    return block(optional_table().rstrip())


def export_column_table() -> Table:
    """docs/ledger.md's table of a table's export columns, from `ledger/columns.py`."""
    by_name = {column.name: column for column in export_columns()}

    def cells(name: str) -> list[str | None]:
        column = by_name[name]
        where = "CSV" if column.csv else ""
        if column.json is not None:
            where = f"{where}, JSON `{column.json}`" if where else f"JSON `{column.json}`"
        if column.points_game:
            where += " (a points game)"
        return [where, column.description]

    return Table(("Column", "In", "What it holds"), tuple(by_name), cells)


def regions() -> list[Region]:
    """Every generated table, page by page, in the order of each page."""
    return [
        table_region(CONTRACT_PAGE, "request fields", request_fields),
        *_per_profile("options", options),
        table_region(CONTRACT_PAGE, "result fields", result_fields),
        table_region(CONTRACT_PAGE, "pattern items", pattern_items),
        table_region(CONTRACT_PAGE, "transfers", transfers),
        table_region(CONTRACT_PAGE, "several-winners fields", several_winners_fields),
        table_region(CONTRACT_PAGE, "riichi request fields", partial(own_fields, RIICHI_FIELDS)),
        table_region(CONTRACT_PAGE, "riichi result fields", riichi_result_fields),
        table_region(CONTRACT_PAGE, "riichi pattern items", riichi_pattern_items),
        table_region(CONTRACT_PAGE, "mcr request fields", partial(own_fields, MCR_FIELDS)),
        table_region(CONTRACT_PAGE, "refusal keys", partial(refusal_keys, events=False)),
        *_pattern_tables(),
        _bodies(EVENTS_PAGE, "event bodies", EVENT_BODIES),
        table_region(EVENTS_PAGE, "event refusal keys", partial(refusal_keys, events=True)),
        table_region("docs/performance.md", "pattern tables now", pattern_tables_now),
        Region("docs/rules-mcr.md", "mcr fan", mcr_fan),
        Region("docs/rules-riichi.md", "riichi optional yaku", riichi_optional_yaku),
        _bodies("docs/web.md", "table bodies", TABLE_BODIES),
        _bodies("docs/event_day.md", "day bodies", DAY_BODIES),
        table_region("docs/ledger.md", "export columns", export_column_table),
    ]
