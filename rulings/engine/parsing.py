"""What a floor person types on a phone at the table ("50/100", "1000 500 500", one line
per action or seat) read into plain values: amounts, seats, actions, contributions,
winners, chip-race seats. Only the text is read here; the calculator forms wrap these
readers in form fields. No Django here.

Amounts are whole chips, typed the way people write them: "2500", "2,500", "2.500",
"2k". In a list, "1000, 500" and "1000 500" are two chips while "1,000" is one.

A text that does not read raises `ParseError`, whose English template is marked with `_`
for makemessages; the form translates it and raises it as a ValidationError.
"""

import re
from dataclasses import dataclass

from rulings.engine.errors import _

MAX_CHIPS = 10**12  # an amount, as tournaments.models.MAX_CHIPS
MAX_SEATS = 10  # seats at a table, so players in a hand and pots in a showdown
MAX_ACTIONS = 60  # prior actions in one betting question
MAX_LIST = 200  # chips in one push, as the API takes them
MAX_DIGITS = 15  # longer numbers are refused before they are read

# One amount: plain digits, or digits grouped by thousands ("1,000", "2.500", "1'000");
# an optional "k" multiplies by 1,000.
_GROUPED = re.compile(r"\d{1,3}(?:[,.'’]\d{3})+(k?)", re.IGNORECASE)
_PLAIN = re.compile(r"\d+(k?)", re.IGNORECASE)
_LIST_SPLIT = re.compile(r"[\s;+/]+")
_CARD = re.compile(r"(?:10|[2-9tjqka])[cdhs]", re.IGNORECASE)
_ALL_IN = re.compile(r"\ball[\s_-]*in\b", re.IGNORECASE)
_GROUP_SPLIT = re.compile(r"[|;/\n]")
_SEAT_WORDS = {"seat", "s", "platz", "sitz"}

# What a player did, in the words the floor uses; German table talk too.
ACTION_WORDS = {
    "post": "post",
    "posts": "post",
    "posted": "post",
    "postet": "post",
    "bet": "bet",
    "bets": "bet",
    "setzt": "bet",
    "raise": "raise",
    "raises": "raise",
    "reraise": "raise",
    "re-raise": "raise",
    "erhöht": "raise",
    "erhoeht": "raise",
    "call": "call",
    "calls": "call",
    "callt": "call",
    "check": "check",
    "checks": "check",
    "checkt": "check",
    "fold": "fold",
    "folds": "fold",
    "foldet": "fold",
    "passt": "fold",
    "all-in": "all-in",
}
NEEDS_AMOUNT = ("post", "bet", "raise", "all-in")
FOLDED_WORDS = {"folded", "fold", "f", "gefoldet", "gepasst", "passt"}


class ParseError(ValueError):
    """Text that does not read. `template` % `params` says why, in English; the form
    translates the template and raises a ValidationError with `code` and the params. A
    param may be another ParseError (the problem on a line, shown translated) or
    `Grouped`."""

    def __init__(self, template: str, *, code: str, params: dict | None = None):
        self.template = template
        self.code = code
        self.params = params
        super().__init__(template)


@dataclass(frozen=True)
class Grouped:
    """A number shown with the active language's thousands separators ("1,000")."""

    value: int


# --- Reading numbers -------------------------------------------------------------------------


def _too_long(word: str) -> bool:
    return sum(c.isdigit() for c in word) > MAX_DIGITS


def _short(word: str, length: int = 20) -> str:
    return word if len(word) <= length else word[:length] + "…"


def _most() -> Grouped:
    return Grouped(MAX_CHIPS)


def _number(word: str) -> int | None:
    """One whole amount written alone, or None if `word` is not one."""
    if _too_long(word):
        raise ParseError(
            _("%(text)s is too large: at most %(most)s."),
            code="max_value",
            params={"text": _short(word), "most": _most()},
        )
    for pattern in (_GROUPED, _PLAIN):
        match = pattern.fullmatch(word)
        if match:
            digits = re.sub(r"\D", "", word)
            return int(digits) * (1000 if match.group(1) else 1)
    return None


def _checked(value: int, word: str, *, minimum: int) -> int:
    if value > MAX_CHIPS:
        raise ParseError(
            _("%(text)s is too large: at most %(most)s."),
            code="max_value",
            params={"text": _short(word), "most": _most()},
        )
    if value < minimum:
        raise ParseError(
            _("%(text)s is too small: at least %(least)s."),
            code="min_value",
            params={"text": _short(word), "least": minimum},
        )
    return value


def _not_an_amount(word: str) -> ParseError:
    if word.startswith("-") and _number(word[1:]) is not None:
        return ParseError(
            _("%(text)s: an amount cannot be negative."),
            code="negative",
            params={"text": _short(word)},
        )
    return ParseError(
        _("%(text)s is not an amount of chips."), code="invalid", params={"text": _short(word)}
    )


def amounts_parse(text: str, *, minimum: int = 0, most: int = MAX_LIST) -> list[int]:
    """Amounts separated by blanks, commas or semicolons: "1000 500 500", "1000, 500",
    "1,000 500". A comma between digits groups thousands only when three digits follow
    and at most three precede it ("1,000"); "1000,500" is two amounts."""
    values = []
    for word in _LIST_SPLIT.split(text.strip()):
        word = word.strip(",")
        if not word:
            continue
        whole = _number(word)
        parts = [word] if whole is not None else [p for p in word.split(",") if p]
        for part in parts:
            value = whole if whole is not None else _number(part)
            if value is None:
                raise _not_an_amount(part)
            values.append(_checked(value, part, minimum=minimum))
            if len(values) > most:
                raise ParseError(
                    _("At most %(most)s amounts."), code="too_many", params={"most": most}
                )
    return values


def amount_parse(text: str, *, minimum: int = 0) -> int:
    """Exactly one amount: "2500", "2,500", "2.500", "2k"."""
    found = amounts_parse(text, minimum=minimum, most=2)
    if len(found) != 1:
        raise ParseError(_("Give one amount."), code="invalid")
    return found[0]


def blinds_parse(text: str) -> list[int]:
    """Small and big blind: "50/100", "1,000/2,000", "1k 2k"."""
    found = amounts_parse(text, most=3)
    if len(found) != 2:
        raise ParseError(_("Give the small and the big blind, e.g. 50/100."), code="invalid")
    return found


def seat_parse(word: str) -> int:
    seat = _number(word.strip(":.#"))
    if seat is None or not 1 <= seat <= MAX_SEATS:
        raise ParseError(
            _("%(text)s is not a seat 1 to %(most)s."),
            code="seat",
            params={"text": _short(word), "most": MAX_SEATS},
        )
    return seat


def _lines(text: str, *, most: int) -> list[tuple[int, str]]:
    """The non-blank lines of `text` with their line numbers, at most `most`."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > most:
        raise ParseError(_("At most %(most)s lines."), code="too_many", params={"most": most})
    return lines


def _line_error(number: int, error: ParseError) -> ParseError:
    return ParseError(
        _("Line %(line)s: %(problem)s"),
        code="line",
        params={"line": number, "problem": error},
    )


def _seat_words(line: str) -> list[str]:
    words = line.split()
    if len(words) > 1 and words[0].lower().rstrip(":.") in _SEAT_WORDS:
        words = words[1:]
    return words


def actions_parse(text: str) -> list[tuple[str, str, int | None]]:
    """One action a line, "player action [to] amount": "A bet 1000", "B raise to 3000",
    "C call", "D fold", "E all-in 2500". A call without an amount is to the bet it
    faces (filled in by `BetForm.body`)."""
    actions = []
    for number, line in _lines(text, most=MAX_ACTIONS):
        words = _ALL_IN.sub("all-in", line).split()
        try:
            actions.append(_action(words))
        except ParseError as error:
            raise _line_error(number, error) from None
    return actions


def _action(words: list[str]) -> tuple[str, str, int | None]:
    if len(words) < 2:
        raise ParseError(_("give the player and the action, e.g. A bet 1000."), code="invalid")
    player, said, rest = words[0], words[1].lower(), words[2:]
    if len(player) > 20:
        raise ParseError(_("a player's name has at most 20 letters."), code="invalid")
    action = ACTION_WORDS.get(said)
    if action is None:
        raise ParseError(
            _("%(word)s is not an action: post, bet, raise, call, check, fold or all-in."),
            code="action",
            params={"word": _short(words[1])},
        )
    if rest and rest[0].lower() in ("to", "auf"):
        rest = rest[1:]
    amount = amount_parse(" ".join(rest)) if rest else None
    if action in NEEDS_AMOUNT and amount is None:
        raise ParseError(
            _("say how much in total, e.g. %(player)s %(action)s 1000."),
            code="amount",
            params={"player": player, "action": action},
        )
    if action in ("check", "fold") and amount:
        raise ParseError(_("a %(action)s adds no chips."), code="amount", params={"action": action})
    return player, action, amount


def contributions_parse(text: str) -> list[dict]:
    """One seat a line, "seat total [folded]": "1 500", "2 1000 folded", "4 1,000"."""
    contributions = []
    for number, line in _lines(text, most=MAX_SEATS):
        try:
            words = _seat_words(line)
            folded = len(words) > 1 and words[-1].lower() in FOLDED_WORDS
            if folded:
                words = words[:-1]
            if len(words) < 2:
                raise ParseError(
                    _("give the seat and what it put in, e.g. 2 1000."), code="invalid"
                )
            contributions.append(
                {
                    "seat": seat_parse(words[0]),
                    "total": amount_parse(" ".join(words[1:])),
                    "folded": folded,
                }
            )
        except ParseError as error:
            raise _line_error(number, error) from None
    return contributions


def winners_parse(text: str) -> list[list[int]]:
    """The winners of each pot, main pot first, separated by "|": "1 | 2 4"."""
    groups = _GROUP_SPLIT.split(text.strip())
    if len(groups) > MAX_SEATS:
        raise ParseError(_("At most %(most)s pots."), code="too_many", params={"most": MAX_SEATS})
    winners = []
    for group in groups:
        seats = [seat_parse(word) for word in re.split(r"[\s,]+", group) if word]
        if not seats:
            raise ParseError(
                _("Each pot needs at least one winner: separate the pots by |."), code="empty"
            )
        winners.append(seats)
    return winners


def race_seats_parse(text: str) -> list[dict]:
    """One seat a line, "seat chips [cards] [other chips' value]": "1 3 As Kd 2c",
    "2 1 Ah 5000"."""
    seats = []
    for number, line in _lines(text, most=MAX_SEATS):
        try:
            seats.append(_race_seat(_seat_words(line)))
        except ParseError as error:
            raise _line_error(number, error) from None
    return seats


def _race_seat(words: list[str]) -> dict:
    if len(words) < 2:
        raise ParseError(
            _("give the seat and its chips of the colour coming off, e.g. 1 3 As Kd 2c."),
            code="invalid",
        )
    seat = seat_parse(words[0])
    chips = _number(words[1])
    if chips is None or chips > 1000:
        raise ParseError(
            _("%(text)s is not a number of chips from 0 to 1000."),
            code="chips",
            params={"text": _short(words[1])},
        )
    cards, other = [], None
    for word in words[2:]:
        if _CARD.fullmatch(word):
            cards.append(word)
        elif other is None and _number(word) is not None:
            other = amount_parse(word)
        else:
            raise ParseError(
                _("%(text)s is neither a card (As, Td, 10d) nor the value of other chips."),
                code="card",
                params={"text": _short(word)},
            )
    return {"seat": seat, "chips": chips, "cards": cards, "stack_other": other or 0}
