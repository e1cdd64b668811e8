"""The Tournament Director's save files (`.tdt`, versions 3.0 to 3.7), read without
running them (issue 22). Pure Python.

A save file is JavaScript's literal notation: `{ V: "3.7.2", T: new Tournament({...}) }`,
with objects whose keys go unquoted, arrays, strings, numbers, `true`/`false`/`null`,
objects built by a constructor (`new FeeProfile({...})`, `new PerPlayerRake([0])`,
`new LO.OverlayPropSet({...})`) and maps (`new Map({...})` up to 3.4, `Map.from([[key,
value], ...])` in 3.7). The program itself loads a file by executing it; here a grammar
(lark, LALR) reads the notation and nothing in the file is ever run. What the grammar does
not know is refused with the line and column where reading stopped; so is a file too
large or nested too deep.
"""

import re
from dataclasses import dataclass, field
from itertools import pairwise

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

MAX_BYTES = 20_000_000  # the largest public file seen is about 0.5 MB
MAX_DEPTH = 64  # a save file nests about ten levels

GRAMMAR = r"""
?start: value

?value: object
      | array
      | string
      | number
      | "true" -> true
      | "false" -> false
      | "null" -> null
      | "undefined" -> null
      | "new" NAME ("." NAME)* "(" [value ("," value)*] ")" -> built
      | NAME ("." NAME)+ "(" [value ("," value)*] ")" -> called

object: "{" [pair ("," pair)* [","]] "}"
pair: (NAME | string | number) ":" value
array: "[" [value ("," value)* [","]] "]"

string: DOUBLE_QUOTED | SINGLE_QUOTED
number: NUMBER

DOUBLE_QUOTED: /"(?:[^"\\\n]|\\.)*"/
SINGLE_QUOTED: /'(?:[^'\\\n]|\\.)*'/
NUMBER: /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/
NAME: /[A-Za-z_$][A-Za-z0-9_$]*/

%import common.WS
%ignore WS
"""

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class Td3Error(ValueError):
    """A file that is not a save file the importer can read; `line` and `column` (from
    1) tell where, when it is a place in the file. `code` names the reason for pages to
    say in the reader's language (prizes.messages.td3_message), `params` its details."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        *,
        code: str = "unreadable",
        params: dict | None = None,
    ):
        super().__init__(message)
        self.line = line
        self.column = column
        self.code = code
        self.params = params or {}


@dataclass(frozen=True)
class Built:
    """`new Kind(arguments...)`: an object of the program's own kind."""

    kind: str
    arguments: tuple

    @property
    def fields(self) -> dict:
        """The object the constructor was given (its only argument, most often)."""
        first = self.arguments[0] if self.arguments else {}
        return first if isinstance(first, dict) else {}


@dataclass(frozen=True)
class Called:
    """`Name.member(arguments...)`, e.g. `Map.from([[key, value], ...])`."""

    name: str
    arguments: tuple


HEX = re.compile(r"[0-9A-Fa-f]+")
HEX_ESCAPES = {"u": 4, "x": 2}  # \\uXXXX and \\xXX: that many hexadecimal digits


def _unquote(token: str) -> str:
    """A JavaScript string literal's text, escapes resolved. JavaScript strings are UTF-16:
    a character beyond it (an emoji in a nickname) comes as a pair of \\u escapes, joined
    here; half a pair is no text and refuses the file."""
    body = token[1:-1]
    out, i = [], 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            out.append(char)
            i += 1
            continue
        code = body[i + 1]
        digits = HEX_ESCAPES.get(code)
        if digits:
            number = body[i + 2 : i + 2 + digits]
            if not HEX.fullmatch(number) or len(number) != digits:
                raise Td3Error(
                    f"A \\{code} escape needs {digits} hexadecimal digits.", code="escape"
                )
            out.append(chr(int(number, 16)))
            i += 2 + digits
            continue
        out.append(ESCAPES.get(code, code))  # \" \' \\ \/ and the rest stand for themselves
        i += 2
    try:
        return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeError:
        raise Td3Error("A string holds half of a \\u escape pair.", code="escape") from None


@v_args(inline=True)
class _Values(Transformer):
    """The notation's values as Python's: dict, list, str, int or float, bool, None,
    Built and Called. Applied while the LALR parser reads, so no recursion."""

    def string(self, token):
        return _unquote(str(token))

    def number(self, token):
        text = str(token)
        if any(mark in text for mark in ".eE"):
            return float(text)
        return int(text)

    def true(self):
        return True

    def false(self):
        return False

    def null(self):
        return None

    def pair(self, key, value):
        return str(key), value  # a name, a string or a number: the key's text

    def object(self, *pairs):
        return dict(pairs)

    def array(self, *values):
        return list(values)

    def built(self, *parts):
        return Built(*_name_and_arguments(parts))

    def called(self, *parts):
        return Called(*_name_and_arguments(parts))


def _name_and_arguments(parts) -> tuple[str, tuple]:
    """`A.b(x, y)`: the dotted name's parts are the grammar's NAME tokens, the rest values."""
    names = [str(part) for part in parts if isinstance(part, Token)]
    return ".".join(names), tuple(part for part in parts if not isinstance(part, Token))


# An absent optional part leaves no child (not a None that `null` could be mistaken for).
_PARSER = Lark(GRAMMAR, parser="lalr", transformer=_Values(), maybe_placeholders=False)


def _bracket_depth(text: str) -> int:
    """The deepest nesting of brackets outside strings: refused before parsing, so that
    a hostile file cannot make the reader's own stack grow without bound."""
    depth = deepest = 0
    quote = None
    escaped = False
    for char in text:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
            continue
        if char in "\"'":
            quote = char
        elif char in "{[(":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "}])":
            depth -= 1
    return deepest


def _text(data: bytes) -> str:
    """The file's text: UTF-8 (3.7 writes it, with or without a byte-order mark), else the
    Windows code page older versions saved in (Western European: names such as "Åsa")."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        utf8_error = error
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        raise Td3Error(
            f"The file is neither UTF-8 nor Windows-1252 text (byte {utf8_error.start + 1}).",
            code="encoding",
        ) from None


def _at_end(error: UnexpectedInput, text: str) -> bool:
    """Whether reading stopped because the text ran out: LALR reports the end token, or
    the lexer a string whose closing quote never comes."""
    if isinstance(error, UnexpectedEOF):
        return True
    if isinstance(error, UnexpectedToken):
        return error.token.type == "$END"
    at = getattr(error, "pos_in_stream", None)
    return at is not None and text[at] in "\"'" and text[at] not in text[at + 1 :]


def parse(data: bytes | str) -> dict:
    """A save file's contents: the top object, `{"V": version, "T": Built("Tournament",
    ...)}`. Raises Td3Error for anything else, with the place where reading stopped."""
    if len(data) > MAX_BYTES:
        raise Td3Error(f"The file is larger than {MAX_BYTES // 1_000_000} MB.", code="too_large")
    if isinstance(data, bytes):
        data = _text(data)
    if _bracket_depth(data) > MAX_DEPTH:
        raise Td3Error(f"The file nests deeper than {MAX_DEPTH} levels.", code="too_deep")
    try:
        value = _PARSER.parse(data)
    except UnexpectedInput as error:
        if _at_end(error, data):
            raise Td3Error("The file ends too early: it was cut off.", code="cut_off") from None
        raise Td3Error(
            "The file cannot be read here: it is not a Tournament Director save file, or "
            "it is damaged.",
            line=error.line if error.line > 0 else None,
            column=error.column if error.column > 0 else None,
        ) from None
    tournament = value.get("T") if isinstance(value, dict) else None
    if not isinstance(tournament, Built) or tournament.kind != "Tournament":
        raise Td3Error(
            "The file holds no tournament (no `T: new Tournament(...)`).", code="no_tournament"
        )
    return value


def map_items(value) -> dict:
    """A map of the program's as a dict, in either of its shapes: `new Map({key: value})`
    (3.0 to 3.4) or `Map.from([[key, value], ...])` (3.7)."""
    if isinstance(value, Built) and value.kind == "Map":
        return dict(value.fields)
    if isinstance(value, Called) and value.name == "Map.from" and value.arguments:
        pairs = value.arguments[0]
        if isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 for p in pairs):
            return {str(key): item for key, item in pairs}
    raise Td3Error("A list of players or prizes is not a map the importer knows.", code="shape")


def game_players(save: dict) -> dict:
    """The tournament's players by the file's id (GamePlayer objects)."""
    players = save["T"].fields.get("Players")
    if not isinstance(players, Built) or "Players" not in players.fields:
        return {}
    return map_items(players.fields["Players"])


@dataclass(frozen=True)
class Summary:
    """What a save file holds, counted as an import would bring it in."""

    version: str
    title: str
    league: str
    season: str
    players: int  # people with at least one buy-in
    entries: int  # buy-ins: each player's first and every re-entry after a bust-out
    addons: int
    bust_outs: int
    rebuys: int = 0  # buy-ins while the entry still stood (tournaments.engine.td3_event)
    places: dict[str, int] = field(default_factory=dict)  # player id -> finishing place

    @property
    def reentries(self) -> int:
        return self.entries - self.players

    @property
    def finished(self) -> bool:
        return 1 in self.places.values()


@dataclass(frozen=True)
class Kinds:
    """How to tell a later buy-in's kind (tournaments.engine.td3_event): the names of the
    file's buy-in and rebuy profiles, and whether it allows rebuys (for 3.0's files,
    whose buy-ins name no profile)."""

    buy_ins: frozenset = frozenset()
    rebuys: frozenset = frozenset()
    rebuys_allowed: bool = False

    def is_rebuy(self, profile_name, before_busted: bool) -> bool:
        """A player's later buy-in is a rebuy on the entry in play, else a re-entry (a
        new entry): by its profile, else by the file's rule."""
        if profile_name in self.rebuys and profile_name not in self.buy_ins:
            return True
        if profile_name in self.buy_ins:
            return not before_busted
        return self.rebuys_allowed or not before_busted


def _names(config) -> list[str]:
    profiles = config.fields.get("Profiles") if isinstance(config, Built) else None
    return [
        p.fields["Name"]
        for p in profiles or []
        if isinstance(p, Built) and isinstance(p.fields.get("Name"), str) and p.fields["Name"]
    ]


def kinds_of(tournament: dict) -> Kinds:
    """3.4+: `Financials: new FinancialConfig({Buyins, Rebuys: new BuyConfig({Allow,
    Profiles: [new FeeProfile({Name, ...})]})})`; 3.0: `new GameFinancials({Rebuys: new
    AddOnRebuy({Allow, ...})})`."""
    financials = tournament.get("Financials")
    fields = financials.fields if isinstance(financials, Built) else {}
    rebuys = fields.get("Rebuys")
    allowed = isinstance(rebuys, Built) and rebuys.fields.get("Allow") is True
    return Kinds(frozenset(_names(fields.get("Buyins"))), frozenset(_names(rebuys)), allowed)


def _bust_time(buyin) -> int | None:
    bust = buyin.fields.get("BustOut") if isinstance(buyin, Built) else None
    return bust.fields.get("Time", 0) if isinstance(bust, Built) else None


def finishing_places(players: dict) -> dict[str, int]:
    """Places from the bust-outs (IFP 4.27: the later out, the better): a player whose last
    buy-in busted finishes below everybody still in; once one player is left, the winner.
    Players still in while several are left have no place yet."""
    last = {
        uuid: _bust_time(player.fields["Buyins"][-1])
        for uuid, player in players.items()
        if player.fields.get("Buyins")
    }
    still_in = [uuid for uuid, time in last.items() if time is None]
    busted = sorted(
        (uuid for uuid, time in last.items() if time is not None), key=lambda u: -last[u]
    )
    places = {uuid: len(still_in) + rank for rank, uuid in enumerate(busted, start=1)}
    if len(still_in) == 1:
        places[still_in[0]] = 1
    return places


def summary(save: dict) -> Summary:
    tournament = save["T"].fields
    players = {
        uuid: player
        for uuid, player in game_players(save).items()
        if isinstance(player, Built) and player.fields.get("Buyins")
    }
    buyins = [buyin for player in players.values() for buyin in player.fields["Buyins"]]
    kinds = kinds_of(tournament)
    # A buy-in followed by a rebuy plays on: its bust-out (if any) is not the entry's.
    followed = [
        before
        for player in players.values()
        for before, buyin in pairwise(player.fields["Buyins"])
        if isinstance(buyin, Built)
        and kinds.is_rebuy(buyin.fields.get("ProfileName"), _bust_time(before) is not None)
    ]
    rebuys = len(followed)
    return Summary(
        version=str(save.get("V", "")),
        title=str(tournament.get("Title", "")),
        league=str(tournament.get("LeagueName") or ""),
        season=str(tournament.get("SeasonName") or ""),
        players=len(players),
        entries=len(buyins) - rebuys,
        rebuys=rebuys,
        addons=sum(len(player.fields.get("AddOns") or []) for player in players.values()),
        bust_outs=sum(1 for buyin in buyins if _bust_time(buyin) is not None)
        - sum(1 for buyin in followed if _bust_time(buyin) is not None),
        places=finishing_places(players),
    )
