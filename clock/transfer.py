"""Blind structures in and out: JSON and CSV files, and the rules every structure keeps.

Pure Python (Django only for gettext). `steps_check` is the one set of rules for a
structure, used by both importers and by the rest of the app for edited structures.
Everything that goes wrong with a file raises `StructureError`, whose `errors` maps a
location to messages:

- "file", "header", "name", "steps": the whole document, the CSV header row, the name,
  the structure as a whole (too many steps, no level);
- "steps[3].big_blind", "steps[3]": a step of a JSON document or of `steps_check`
  (0-based, as in the JSON array);
- "row 4: big_blind", "row 4": a CSV row, numbered as a spreadsheet shows it (header = row 1).

Exporters check too, so whatever they write imports again unchanged:
`structure_from_json(structure_to_json(name, steps)) == (name, steps)` and
`structure_from_csv(structure_to_csv(steps)) == steps`. Importers are lenient where a
person typing a file would expect it (surrounding spaces, "Level" for "level", blank
rows, a UTF-8 BOM, semicolons from German Excel); the stored form is strict.
"""

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable

from django.utils.translation import gettext as _

from clock.engine import ANTE_NONE, ANTE_TYPES, BREAK, LEVEL, Step

MAX_STEPS = 200
MAX_TEXT_BYTES = 1024 * 1024  # 1 MB, as UTF-8
MAX_MINUTES = 600
MAX_AMOUNT = 10**12  # blinds, antes, bets, chip denominations
MAX_NAME = 120
MAX_LABEL = 60  # StructureStep.label
MAX_GAME = 10  # StructureStep.game

CSV_COLUMNS = (
    "kind",
    "minutes",
    "small_blind",
    "big_blind",
    "ante",
    "ante_type",
    "small_bet",
    "big_bet",
    "game",
    "label",
    "color_up",
    "addon",
)
# Stud's bring-in (RP-10 E, TDA 30): a file has it only where a level sets one, so the
# files of every other structure stay as they were before it.
BRING_IN = "bring_in"
COLUMNS = (*CSV_COLUMNS, BRING_IN)  # every column or field a file may have
LEVEL_FIELDS = CSV_COLUMNS[:9]  # what a level exports in JSON (and its bring-in once set)
BREAK_FIELDS = ("kind", "minutes", "label", "color_up", "addon")  # what a break exports
REQUIRED_FIELDS = ("kind", "minutes")

_AMOUNTS = ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in")
_INTS = ("minutes", *_AMOUNTS)
# Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_MAX_DIGITS = 20  # longer integer literals are refused before int() sees them
_YES = ("yes", "true", "1", "ja")
_NO = ("no", "false", "0", "nein", "")

Where = Callable[[int | None, str | None], str]


class StructureError(Exception):
    """A structure or file that breaks the rules; `errors` maps a location to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = {location: list(messages) for location, messages in errors.items()}
        lines = [f"{loc}: {msg}" for loc, msgs in self.errors.items() for msg in msgs]
        summary = "; ".join(lines[:5]) + ("; …" if len(lines) > 5 else "")
        super().__init__(summary)

    def lines(self) -> list[str]:
        """One line per location, as the API and the structure services report them."""
        return [f"{where}: {'; '.join(map(str, msgs))}" for where, msgs in self.errors.items()]


def _add(errors: dict[str, list[str]], location: str, message: str) -> None:
    messages = errors.setdefault(location, [])
    if message not in messages:
        messages.append(message)


def _fail(location: str, message: str) -> StructureError:
    return StructureError({location: [message]})


# --- rules ---------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole() -> str:
    return _("Must be a whole number.")


def _at_most(limit: int) -> str:
    return _("Must be at most %(limit)s.") % {"limit": f"{limit:,}".replace(",", " ")}


def _text_problem(value: object, limit: int, *, formula: bool = True) -> str | None:
    if not isinstance(value, str):
        return _("Must be text.")
    if len(value) > limit:
        return _("At most %(limit)s characters.") % {"limit": limit}
    if value != value.strip():
        return _("Must not begin or end with a space.")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in value):
        return _("Must not contain line breaks or control characters.")
    if formula and value.startswith(_FORMULA_START):
        return _("Must not begin with =, +, - or @ (spreadsheets read that as a formula).")
    return None


def _name_problem(name: object) -> str | None:
    if isinstance(name, str) and not name.strip():
        return _("The name is required.")
    return _text_problem(name, MAX_NAME, formula=False)


def name_check(name: str) -> None:
    """A structure's name: 1..MAX_NAME characters, no surrounding spaces, one line."""
    problem = _name_problem(name)
    if problem:
        raise _fail("name", problem)


def _amount_problem(value: object, *, low: int) -> str | None:
    """None, or why `value` is no amount of at least `low` (0 or 1)."""
    if not _is_int(value):
        return _whole()
    if value < low:
        return _("Must be more than 0.") if low else _("Must not be negative.")
    if value > MAX_AMOUNT:
        return _at_most(MAX_AMOUNT)
    return None


def _level_problems(step: Step, previous: Step | None):
    sb, bb = step.small_blind, step.big_blind
    blind_problems = {
        "big_blind": _amount_problem(bb, low=1),
        "small_blind": _amount_problem(sb, low=1),
    }
    for field, problem in blind_problems.items():
        if problem:
            yield field, problem
    if not any(blind_problems.values()) and sb > bb:
        yield "small_blind", _("The small blind must not be more than the big blind.")
    if previous is not None:
        for field in ("small_blind", "big_blind"):
            now, before = getattr(step, field), getattr(previous, field)
            if not blind_problems[field] and _is_int(before) and now < before:
                yield (
                    field,
                    _("Must not be lower than in the level before (%(before)s).")
                    % {"before": before},
                )

    if step.ante_type not in ANTE_TYPES:
        yield "ante_type", _("Must be one of: %(choices)s.") % {"choices": ", ".join(ANTE_TYPES)}
    if problem := _amount_problem(step.ante, low=0):
        yield "ante", problem
    elif step.ante_type == ANTE_NONE and step.ante != 0:
        yield "ante", _("Must be 0 when the ante type is “none”.")
    elif step.ante_type in ANTE_TYPES and step.ante_type != ANTE_NONE and step.ante == 0:
        yield "ante", _("Must be more than 0 with ante type “%(type)s”.") % {"type": step.ante_type}

    small_bet, big_bet = step.small_bet, step.big_bet
    bets_ok = True
    for field, value in (("small_bet", small_bet), ("big_bet", big_bet)):
        if problem := _amount_problem(value, low=0):
            bets_ok = False
            yield field, problem
    if bets_ok:
        if small_bet and not big_bet:
            yield "big_bet", _("A limit level needs both a small bet and a big bet.")
        elif big_bet and not small_bet:
            yield "small_bet", _("A limit level needs both a small bet and a big bet.")
        elif big_bet < small_bet:
            yield "big_bet", _("The big bet must not be less than the small bet.")
    if problem := _amount_problem(step.bring_in, low=0):
        yield "bring_in", problem
    elif step.bring_in and bets_ok and not small_bet:
        yield "bring_in", _("A bring-in needs the level's small bet (stud, RP-10 E).")
    elif bets_ok and step.bring_in > small_bet:
        yield "bring_in", _("The bring-in must not be more than the small bet (RP-10 E).")

    if problem := _text_problem(step.game, MAX_GAME):
        yield "game", problem
    if step.label != "":
        yield "label", _("Only a break has a label.")
    if step.color_up != ():
        yield "color_up", _("Only a break has a color-up.")
    if not isinstance(step.addon, bool):
        yield "addon", _("Must be yes or no.")
    elif step.addon:
        yield "addon", _("Only a break has an add-on.")


def _break_problems(step: Step):
    for field in _AMOUNTS:
        value = getattr(step, field)
        if not _is_int(value) or value != 0:
            yield field, _("A break has no blinds, antes or bets.")
    if step.ante_type != ANTE_NONE:
        yield "ante_type", _("A break has no ante type.")
    if step.game != "":
        yield "game", _("A break has no game.")
    if problem := _text_problem(step.label, MAX_LABEL):
        yield "label", problem
    color_up = step.color_up
    if not isinstance(color_up, tuple):
        yield "color_up", _("Must be a list of chip denominations.")
    elif any(_amount_problem(chip, low=1) for chip in color_up):
        yield (
            "color_up",
            _("Chip denominations must be whole numbers from 1 to %(limit)s.")
            % {"limit": f"{MAX_AMOUNT:,}".replace(",", " ")},
        )
    elif len(set(color_up)) != len(color_up):
        yield "color_up", _("Each denomination only once.")
    if not isinstance(step.addon, bool):
        yield "addon", _("Must be yes or no.")


def _step_problems(step: Step, previous: Step | None):
    if step.kind not in (LEVEL, BREAK):
        yield "kind", _("Must be “level” or “break”.")
        return
    minutes = step.minutes
    if not _is_int(minutes):
        yield "minutes", _whole()
    elif minutes < 1:
        yield "minutes", _("Must be at least 1.")
    elif minutes > MAX_MINUTES:
        yield "minutes", _at_most(MAX_MINUTES)
    if step.kind == LEVEL:
        yield from _level_problems(step, previous)
    else:
        yield from _break_problems(step)


def _json_where(index: int | None, field: str | None) -> str:
    if index is None:
        return "steps"
    return f"steps[{index}]" if field is None else f"steps[{index}].{field}"


def _steps_errors(steps: object, where: Where = _json_where) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if not isinstance(steps, list | tuple):
        _add(errors, where(None, None), _("Must be a list of steps."))
        return errors
    if len(steps) > MAX_STEPS:
        _add(errors, where(None, None), _("At most %(limit)s steps.") % {"limit": MAX_STEPS})
        return errors
    if not any(isinstance(step, Step) and step.kind == LEVEL for step in steps):
        _add(errors, where(None, None), _("The structure needs at least one level."))
    previous = None
    for index, step in enumerate(steps):
        if not isinstance(step, Step):
            _add(errors, where(index, None), _("Not a level or break."))
            continue
        for field, message in _step_problems(step, previous):
            _add(errors, where(index, field), message)
        if step.kind == LEVEL:
            previous = step
    return errors


def steps_check(steps: list[Step]) -> None:
    """Raise StructureError unless `steps` is a structure the clock can run.

    Locations are "steps" and "steps[i].field" (i counts from 0).
    """
    errors = _steps_errors(steps)
    if errors:
        raise StructureError(errors)


def _structure_check(name: str, steps: list[Step]) -> None:
    errors = _steps_errors(steps)
    if problem := _name_problem(name):
        errors = {"name": [problem], **errors}
    if errors:
        raise StructureError(errors)


# --- reading text ----------------------------------------------------------------------


def _too_big() -> StructureError:
    return _fail("file", _("The file is larger than %(limit)s MB.") % {"limit": 1})


def _read_text(data: object, *, legacy_encoding: bool) -> str:
    """The text of an upload (str or bytes), without BOM; refuse empty or huge ones."""
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        if len(raw) > MAX_TEXT_BYTES:
            raise _too_big()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if not legacy_encoding:
                raise _fail("file", _("The file is not UTF-8 text.")) from None
            try:
                # Excel's plain "CSV" on Windows saves in the ANSI code page.
                text = raw.decode("cp1252")
            except UnicodeDecodeError:
                raise _fail("file", _("The file is not UTF-8 text.")) from None
    elif isinstance(data, str):
        if len(data) > MAX_TEXT_BYTES or len(data.encode("utf-8", "surrogatepass")) > (
            MAX_TEXT_BYTES
        ):
            raise _too_big()
        text = data
    else:
        raise _fail("file", _("The file is not text."))
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise _fail("file", _("The file is empty."))
    return text


# --- JSON ------------------------------------------------------------------------------


class _Huge:
    """An integer literal too long to be any amount; refused where a number is read."""


_HUGE = _Huge()


class _DuplicateKey(ValueError):
    pass


class _NotANumber(ValueError):
    pass


def _parse_int(literal: str) -> int | _Huge:
    return int(literal) if len(literal) <= _MAX_DIGITS else _HUGE


def _parse_constant(literal: str):
    raise _NotANumber(literal)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    result = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _names(keys) -> str:
    shown = [json.dumps(str(key)[:40], ensure_ascii=False) for key in list(keys)[:5]]
    return ", ".join(shown) + (", …" if len(keys) > 5 else "")


def _limit_of(field: str) -> int:
    return MAX_MINUTES if field == "minutes" else MAX_AMOUNT


def _json_value(field: str, raw: object) -> tuple[object, str | None]:
    """The Step value of one JSON field, or (None, why not)."""
    if field in _INTS:
        if raw is _HUGE:
            return None, _at_most(_limit_of(field))
        return (raw, None) if _is_int(raw) else (None, _whole())
    if field in ("kind", "ante_type"):
        return (raw.strip().lower(), None) if isinstance(raw, str) else (None, _("Must be text."))
    if field in ("game", "label"):
        return (raw.strip(), None) if isinstance(raw, str) else (None, _("Must be text."))
    if field == "color_up":
        if not isinstance(raw, list) or not all(_is_int(chip) for chip in raw):
            if isinstance(raw, list) and any(chip is _HUGE for chip in raw):
                return None, _at_most(MAX_AMOUNT)
            return None, _("Must be a list of whole numbers.")
        return tuple(raw), None
    # addon
    return (raw, None) if isinstance(raw, bool) else (None, _("Must be true or false."))


def _json_step(item: object, index: int, errors: dict[str, list[str]]) -> Step | None:
    if not isinstance(item, dict):
        _add(errors, _json_where(index, None), _("Each step must be an object."))
        return None
    unknown = [key for key in item if key not in COLUMNS]
    if unknown:
        _add(
            errors,
            _json_where(index, None),
            _("Unknown fields: %(fields)s.") % {"fields": _names(unknown)},
        )
    values: dict[str, object] = {}
    ok = not unknown
    for field in COLUMNS:
        raw = item.get(field)
        if raw is None:  # missing or null: the default, unless required
            if field in REQUIRED_FIELDS:
                _add(errors, _json_where(index, field), _("This field is required."))
                ok = False
            continue
        value, problem = _json_value(field, raw)
        if problem:
            _add(errors, _json_where(index, field), problem)
            ok = False
        else:
            values[field] = value
    return Step(**values) if ok else None


def structure_to_json(name: str, steps: list[Step]) -> str:
    """The structure as a JSON document; StructureError if it breaks the rules."""
    _structure_check(name, steps)
    exported = []
    for step in steps:
        fields = BREAK_FIELDS if step.is_break else LEVEL_FIELDS
        item = {field: getattr(step, field) for field in fields}
        if not step.is_break and step.bring_in:
            item["bring_in"] = step.bring_in
        if step.is_break:
            item["color_up"] = list(step.color_up)
        exported.append(item)
    return json.dumps({"name": name, "steps": exported}, ensure_ascii=False, indent=2) + "\n"


def structure_from_json(text: str | bytes) -> tuple[str, list[Step]]:
    """(name, steps) from a JSON document; StructureError for anything malformed."""
    text = _read_text(text, legacy_encoding=False)
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_constant=_parse_constant,
            object_pairs_hook=_unique_keys,
        )
    except _DuplicateKey as exc:
        raise _fail(
            "file", _("The field %(field)s appears twice.") % {"field": _names([exc.args[0]])}
        ) from None
    except _NotANumber as exc:
        raise _fail(
            "file", _("%(value)s is not a number JSON allows.") % {"value": exc.args[0]}
        ) from None
    except json.JSONDecodeError as exc:
        raise _fail(
            "file",
            _("This is not valid JSON (line %(line)s, column %(column)s).")
            % {"line": exc.lineno, "column": exc.colno},
        ) from None
    except (ValueError, RecursionError):
        raise _fail("file", _("This is not valid JSON.")) from None

    if not isinstance(data, dict):
        raise _fail("file", _("Expected an object with “name” and “steps”."))
    errors: dict[str, list[str]] = {}
    unknown = [key for key in data if key not in ("name", "steps")]
    if unknown:
        _add(errors, "file", _("Unknown fields: %(fields)s.") % {"fields": _names(unknown)})

    name = data.get("name")
    if name is None:
        _add(errors, "name", _("The name is required."))
    elif not isinstance(name, str):
        _add(errors, "name", _("Must be text."))
    else:
        name = name.strip()
        if problem := _name_problem(name):
            _add(errors, "name", problem)

    raw_steps = data.get("steps")
    steps: list[Step] = []
    if raw_steps is None:
        _add(errors, "steps", _("This field is required."))
    elif not isinstance(raw_steps, list):
        _add(errors, "steps", _("Must be a list of steps."))
    elif len(raw_steps) > MAX_STEPS:
        _add(errors, "steps", _("At most %(limit)s steps.") % {"limit": MAX_STEPS})
    else:
        for index, item in enumerate(raw_steps):
            step = _json_step(item, index, errors)
            if step is not None:
                steps.append(step)
    if errors:
        raise StructureError(errors)
    steps_check(steps)
    return name, steps


# --- CSV -------------------------------------------------------------------------------


def _csv_cells(step: Step) -> list[str]:
    if step.is_break:
        addon = "yes" if step.addon else "no"
        color_up = " ".join(str(chip) for chip in step.color_up)
        return [step.kind, str(step.minutes), *[""] * 7, step.label, color_up, addon]
    amounts = [str(step.small_blind), str(step.big_blind), str(step.ante)]
    bets = [str(step.small_bet), str(step.big_bet)]
    return [step.kind, str(step.minutes), *amounts, step.ante_type, *bets, step.game, "", "", ""]


def structure_to_csv(steps: list[Step], *, delimiter: str = ",") -> str:
    """The steps as CSV with a header row; delimiter ";" suits German Excel.

    The text has no BOM; encode it as "utf-8-sig" for Excel to read umlauts right.
    """
    if delimiter not in (",", ";"):
        raise ValueError("delimiter must be ',' or ';'")
    steps_check(steps)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    bring_in = any(step.bring_in for step in steps)  # the column only where a level has one
    writer.writerow(COLUMNS if bring_in else CSV_COLUMNS)
    for step in steps:
        cells = _csv_cells(step)
        writer.writerow([*cells, str(step.bring_in or "")] if bring_in else cells)
    return out.getvalue()


def _csv_int(cell: str, field: str) -> tuple[int | None, str | None]:
    if not _INTEGER.fullmatch(cell):
        return None, _whole()
    if len(cell.lstrip("+-")) > _MAX_DIGITS:
        return None, _at_most(_limit_of(field))
    return int(cell), None


def _csv_value(field: str, cell: str) -> tuple[object, str | None]:
    """The Step value of one CSV cell (already stripped, not empty), or (None, why not)."""
    if field in _INTS:
        return _csv_int(cell, field)
    if field in ("kind", "ante_type"):
        return cell.lower(), None
    if field in ("game", "label"):
        return cell, None
    if field == "color_up":
        chips = []
        for token in re.split(r"[\s,;]+", cell):
            if not token:
                continue
            chip, problem = _csv_int(token, field)
            if problem:
                return None, _("Chip denominations must be whole numbers separated by spaces.")
            chips.append(chip)
        return tuple(chips), None
    # addon
    answer = cell.lower()
    if answer in _YES:
        return True, None
    if answer in _NO:
        return False, None
    return None, _("Must be yes or no.")


def _csv_header(row: list[str], errors: dict[str, list[str]]) -> list[str]:
    header = [cell.strip().lower() for cell in row]
    while header and not header[-1]:
        header.pop()
    if not any(column in COLUMNS for column in header):
        _add(
            errors,
            "header",
            _("The first row must name the columns: %(columns)s.")
            % {"columns": ", ".join(CSV_COLUMNS)},
        )
        return header
    for column in header:
        if not column:
            _add(errors, "header", _("A column has no name."))
        elif column not in COLUMNS:
            message = _("Unknown column %(column)s.") % {"column": _names([column])}
            _add(errors, "header", message)
    for column in COLUMNS:
        if header.count(column) > 1:
            message = _("The column %(column)s appears twice.") % {"column": column}
            _add(errors, "header", message)
    for column in REQUIRED_FIELDS:
        if column not in header:
            message = _("The column %(column)s is missing.") % {"column": column}
            _add(errors, "header", message)
    return header


def _detect_delimiter(text: str) -> str:
    """Semicolon if the header line (the first with a word in it) has more ; than ,."""
    for line in re.split(r"\r\n|\r|\n", text):
        if re.search(r"\w", line):
            return ";" if line.count(";") > line.count(",") else ","
    return ","


def structure_from_csv(text: str | bytes) -> list[Step]:
    """Steps from CSV with a header row (comma or semicolon; BOM allowed)."""
    text = _read_text(text, legacy_encoding=True)
    reader = csv.reader(
        io.StringIO(text, newline=""), delimiter=_detect_delimiter(text), strict=True
    )
    errors: dict[str, list[str]] = {}
    header: list[str] | None = None
    steps: list[Step] = []
    row_numbers: list[int] = []
    try:
        for number, row in enumerate(reader, start=1):
            if not any(cell.strip() for cell in row):
                continue  # blank rows, also ";;;;" rows spreadsheets leave behind
            if header is None:
                header = _csv_header(row, errors)
                if errors:
                    raise StructureError(errors)
                continue
            if len(row_numbers) >= MAX_STEPS:
                raise _fail("steps", _("At most %(limit)s steps.") % {"limit": MAX_STEPS})
            row_numbers.append(number)
            step = _csv_step(row, number, header, errors)
            if step is not None:
                steps.append(step)
    except csv.Error:
        raise _fail(
            "file", _("The CSV cannot be read near line %(line)s.") % {"line": reader.line_num}
        ) from None
    if errors:
        raise StructureError(errors)

    def where(index: int | None, field: str | None) -> str:
        if index is None:
            return "steps"
        row = f"row {row_numbers[index]}"
        return row if field is None else f"{row}: {field}"

    errors = _steps_errors(steps, where)
    if errors:
        raise StructureError(errors)
    return steps


def _csv_step(
    row: list[str], number: int, header: list[str], errors: dict[str, list[str]]
) -> Step | None:
    where = f"row {number}"
    if len(row) < len(header):
        message = _("Expected %(expected)s cells in this row, found %(found)s.")
        _add(errors, where, message % {"found": len(row), "expected": len(header)})
        return None
    if any(cell.strip() for cell in row[len(header) :]):
        _add(errors, where, _("This row has more cells than the header has columns."))
        return None
    values: dict[str, object] = {}
    ok = True
    for column, cell in zip(header, row, strict=False):
        cell = cell.strip()
        if not cell:
            if column in REQUIRED_FIELDS:
                _add(errors, f"{where}: {column}", _("This field is required."))
                ok = False
            continue
        value, problem = _csv_value(column, cell)
        if problem:
            _add(errors, f"{where}: {column}", problem)
            ok = False
        else:
            values[column] = value
    return Step(**values) if ok else None
