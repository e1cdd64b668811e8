"""A Tournament Director save file as an event (issue 22, items 6-8). Pure Python.

`tournaments.engine.td3` reads the file's notation; this module reads what it means: the
event (title, date, league, season), the blind structure (levels, antes, breaks), the
buy-in, rebuy and add-on profiles, the players, every entry with its buy-in, rebuys and
add-ons, the bust-outs with their level and eliminators, the finishing places and the
prizes. Plain dataclasses, no Django: the import service (prizes.services.imports) writes
them, each app its own part.

What a file says is checked before anything is written: a value that makes no sense
(a negative or enormous amount, a blind structure no clock can run, a player without
a name, a buy-in that is not one) refuses the whole file with `Td3Error`, its `code`
and `params` for the page to say in the reader's language.

How the program's notions become Floorman's:
- Money is in the file's major units (200, 600.5); here in cents. A buy-in's `Amount`
  is what the player paid, rake included (a profile's `Fee` 200 with `Rake` 20 is paid
  as `Amount` 200, `Rake` 20: 180 to the prize pool, as the public files show); the
  rake (`PerPlayerRake([...])`, summed) is the house's part, the rest prize money.
- Times are milliseconds since 1970; `Round` is the level, from 1, breaks not counted.
- Each player's buy-ins in order: the first is an entry. A later one bought with one of
  the file's `Rebuys` profiles (`ProfileName`) is a rebuy on the entry in play, even
  after its bust-out (the program's rebuy: bust, pay, play on; the entry's bust is then
  the last one); one with a buy-in profile after a bust-out is a re-entry (a new entry,
  TDA 8-A). Without profile names (3.0): a rebuy when the file allows rebuys, else a
  re-entry after a bust-out. Add-ons go to the entry in play at their level.
- Places are the program's (`td3.finishing_places`, one per player: the later out, the
  better). The money paid is each prize's `CalculatedAmount` (its `Amount` is a share
  when `AmountType` is 0), to the players it names (`AwardedToPlayers`, shared equally
  when it names several: players out at once), else to its place (`Recipient`). Prizes
  that are no place's (`Type` 2: a high hand, a side pot) are not the event's. A chop
  (`GameChops`) is not read: the public files' two are not awarded, and the prizes
  already say what each player was paid.
"""

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from tournaments.engine import td3
from tournaments.engine.td3 import Built, Td3Error

MAX_CENTS = 10**14  # Tournament.MAX_MONEY is 10**12 major units; far beyond a buy-in
MAX_CHIPS = 10**12
MAX_LEVEL = 32_767  # a PositiveSmallIntegerField
MAX_MINUTES = 600  # clock.transfer.MAX_MINUTES
MAX_STEPS = 200  # clock.transfer.MAX_STEPS
NAME_MAX = 120  # Player.name, Tournament.name
NICKNAME_MAX = 60
PHONE_MAX = 40
EMAIL_MAX = 254
YEARS = (2000, 2100)  # tournaments.models.START_YEARS

LEVEL, BREAK = "level", "break"  # clock.engine's step kinds
ANTE_NONE, ANTE_TRADITIONAL, ANTE_BIG_BLIND = "none", "ante", "bba"


def refuse(code: str, message: str, **params) -> Td3Error:
    return Td3Error(message, code=code, params=params)


@dataclass(frozen=True)
class Part:
    """Where in the file a refusal points (its `what`): a kind of part, with the player,
    number or name that picks it out. prizes.messages names each kind in the reader's
    language; the English here is for the error's own text (logs, tests)."""

    kind: str
    player: str = ""
    number: int = 0
    name: str = ""

    def __str__(self) -> str:
        return PARTS[self.kind].format(player=self.player, number=self.number, name=self.name)


# Each part a refusal can point to; prizes.messages.TD3_PARTS has the same keys.
PARTS = {
    "buyin_profiles": "the buy-in profiles",
    "buyin_profile": "buy-in profile {number}",
    "buyin_profile_named": "the buy-in profile “{name}”",
    "rebuy_profiles": "the rebuy profiles",
    "rebuy_profile": "rebuy profile {number}",
    "rebuy_profile_named": "the rebuy profile “{name}”",
    "addon_profiles": "the add-on profiles",
    "addon_profile": "add-on profile {number}",
    "addon_profile_named": "the add-on profile “{name}”",
    "entry_fee": "the entry fee",
    "starting_chips": "the starting chips",
    "rebuy_settings": "the rebuy settings",
    "addon_settings": "the add-on settings",
    "structure": "the blind structure",
    "level_minutes": "the minutes of level {number}",
    "level_small_blind": "the small blind of level {number}",
    "level_big_blind": "the big blind of level {number}",
    "level_ante": "the ante of level {number}",
    "buyins": "the buy-ins of player {player}",
    "buyin": "buy-in {number} of player {player}",
    "addons": "the add-ons of player {player}",
    "addon": "add-on {number} of player {player}",
    "prizes": "the prizes",
    "prize": "prize {number}",
    "player": "player {player}",
    "players": "the players",
}


@dataclass(frozen=True)
class Level:
    """A step of the blind structure, as clock.engine.Step takes it."""

    kind: str
    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_type: str = ANTE_NONE


@dataclass(frozen=True)
class Profile:
    """What a buy-in, rebuy or add-on costs and gives: `price` in cents (prize money),
    `fee` in cents (the house's), `chips`."""

    name: str
    price: int
    fee: int
    chips: int
    allowed: bool = True


@dataclass(frozen=True)
class Person:
    file_id: str
    name: str
    nickname: str = ""
    email: str = ""
    phone: str = ""


@dataclass(frozen=True)
class Purchase:
    """A rebuy or an add-on on an entry: prize money and fee in cents, chips."""

    kind: str  # "rebuy" or "addon"
    price: int
    fee: int
    chips: int
    level: int | None = None


@dataclass(frozen=True)
class Bust:
    at: datetime | None
    level: int | None
    eliminators: tuple[str, ...] = ()  # file ids of the players named as eliminators


@dataclass(frozen=True)
class EntryRow:
    """One entry: a player's first buy-in or a re-entry after a bust-out."""

    player: str  # Person.file_id
    reentry_number: int  # 1, 2, ...
    at: datetime | None
    level: int | None
    price: int
    fee: int
    chips: int
    purchases: tuple[Purchase, ...] = ()
    bust: Bust | None = None

    @property
    def rebuys(self) -> int:
        return sum(1 for p in self.purchases if p.kind == "rebuy")

    @property
    def addons(self) -> int:
        return sum(1 for p in self.purchases if p.kind == "addon")


@dataclass(frozen=True)
class Event:
    version: str
    file_id: str  # the file's own tournament id (UUID), "" if none
    title: str
    league: str
    season: str
    start_at: datetime | None  # the first buy-in, else None
    levels: tuple[Level, ...]
    buy_in: Profile | None
    rebuy: Profile | None
    addon: Profile | None
    people: tuple[Person, ...]  # everyone with a buy-in, in the file's order
    entries: tuple[EntryRow, ...]  # by buy-in time
    places: dict[str, int] = field(default_factory=dict)  # file id -> place
    payouts: dict[int, int] = field(default_factory=dict)  # place -> cents
    prizes_won: dict[str, int] = field(default_factory=dict)  # file id -> cents

    @property
    def finished(self) -> bool:
        """Every player has a place: one left standing, the winner, and at least two."""
        return len(self.people) >= 2 and len(self.places) == len(self.people)

    @property
    def rebuys(self) -> int:
        return sum(entry.rebuys for entry in self.entries)

    @property
    def addons(self) -> int:
        return sum(entry.addons for entry in self.entries)

    @property
    def busts(self) -> int:
        return sum(1 for entry in self.entries if entry.bust is not None)

    @property
    def reentries(self) -> int:
        return sum(1 for entry in self.entries if entry.reentry_number > 1)

    @property
    def prize_pool(self) -> int:
        return sum(e.price + sum(p.price for p in e.purchases) for e in self.entries)


# --- Values -----------------------------------------------------------------------------


def _text(value, limit: int) -> str:
    """A string of the file as a column takes it: no NUL (PostgreSQL refuses it), no
    surrounding space, at most `limit` characters."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value) if isinstance(value, int | float) and not isinstance(value, bool) else ""
    return " ".join(value.replace("\x00", "").split())[:limit]


def _number(value, what: Part) -> float | int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise refuse("bad_number", f"{what} is not a number.", what=what)
    return value


def _cents(value, what: Part) -> int:
    """Major units (the file's 600.5) as cents, refused if negative or enormous."""
    if value is None:
        return 0
    number = _number(value, what)
    try:
        cents = int((Decimal(str(number)) * 100).to_integral_value())
    except (InvalidOperation, ValueError):
        raise refuse("bad_number", f"{what} is not a number.", what=what) from None
    if not 0 <= cents <= MAX_CENTS:
        raise refuse("bad_amount", f"{what} is out of range.", what=what)
    return cents


def _count(value, what: Part, *, most: int = MAX_CHIPS) -> int:
    if value is None:
        return 0
    number = _number(value, what)
    if number != int(number) or not 0 <= number <= most:
        raise refuse("bad_count", f"{what} is not a whole number in range.", what=what)
    return int(number)


def _level(value, what: Part) -> int | None:
    if value is None:
        return None
    level = _count(value, what, most=MAX_LEVEL)
    return level or None


def _time(value, what: Part) -> datetime | None:
    """The program's times are milliseconds since 1970 (JavaScript's Date)."""
    if value is None:
        return None
    number = _number(value, what)
    try:
        at = datetime.fromtimestamp(number / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        at = None
    if at is None or not YEARS[0] <= at.year <= YEARS[1]:
        raise refuse(
            "bad_time", f"{what} is not a time from 2000 to 2100.", what=what, first=YEARS[0]
        )
    return at


def _built(value, kind: str | None = None) -> dict | None:
    if isinstance(value, Built) and (kind is None or value.kind == kind):
        return value.fields
    return None


def _list(value, what: Part) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise refuse("shape", f"{what} is not a list.", what=what)
    return value


def _rake(value, what: Part) -> int | None:
    """`new PerPlayerRake([20])`: the rake items summed; None where the file gives none."""
    if value is None:
        return None
    if isinstance(value, Built) and value.kind.endswith("Rake"):
        items = value.arguments[0] if value.arguments else []
        items = items if isinstance(items, list) else [items]
        return sum(_cents(item, what) for item in items)
    return _cents(value, what)


# --- Profiles ---------------------------------------------------------------------------


def _profile(fields: dict, name: str, *, price_key: str, chips_key: str, what: Part) -> Profile:
    paid = _cents(fields.get(price_key), what)
    rake = _rake(fields.get("Rake"), what) or 0
    if rake > paid:
        raise refuse("bad_amount", f"{what}: the rake is more than the price.", what=what)
    return Profile(
        name=_text(fields.get("Name") or name, 60),
        price=paid - rake,
        fee=rake,
        chips=_count(fields.get(chips_key), what),
        allowed=fields.get("Allow", True) is not False,
    )


def _buy_config(value, kind: str) -> list[Profile]:
    """3.7: `new BuyConfig({Allow, Profiles: [new FeeProfile({Name, Fee, Rake, Chips})]})`."""
    fields = _built(value)
    if fields is None:
        return []
    allowed = fields.get("Allow", True) is not False
    found = []
    for index, item in enumerate(_list(fields.get("Profiles"), Part(f"{kind}_profiles")), 1):
        profile = _built(item)
        numbered = Part(f"{kind}_profile", number=index)
        if profile is None:
            raise refuse("shape", f"{numbered} is not a profile.", what=numbered)
        name = _text(profile.get("Name"), 60)
        named = Part(f"{kind}_profile_named", name=name) if name else numbered
        made = _profile(profile, "", price_key="Fee", chips_key="Chips", what=named)
        found.append(Profile(made.name, made.price, made.fee, made.chips, allowed))
    return found


def _profiles(tournament: dict) -> tuple[list[Profile], list[Profile], list[Profile]]:
    """The buy-in, rebuy and add-on profiles: 3.4+ `FinancialConfig` with a `BuyConfig`
    each; 3.0 `GameFinancials` with `EntryFee`, `StartingChips`, the per-player rake
    `PPRake` (its `FixedRake` is the event's, not a player's) and `AddOnRebuy` objects."""
    financials = _built(tournament.get("Financials")) or {}
    if "Buyins" in financials:  # FinancialConfig
        return (
            _buy_config(financials.get("Buyins"), "buyin"),
            _buy_config(financials.get("Rebuys"), "rebuy"),
            _buy_config(financials.get("AddOns"), "addon"),
        )
    if not financials:
        return [], [], []
    buy_in = _profile(
        {"Fee": financials.get("EntryFee"), "Rake": financials.get("PPRake")},
        "",
        price_key="Fee",
        chips_key="Chips",
        what=Part("entry_fee"),
    )
    buy_in = Profile(
        "",
        buy_in.price,
        buy_in.fee,
        _count(financials.get("StartingChips"), Part("starting_chips")),
    )
    extra = []
    for key, what in (("Rebuys", Part("rebuy_settings")), ("AddOns", Part("addon_settings"))):
        fields = _built(financials.get(key))
        extra.append(
            [_profile(fields, "", price_key="Fee", chips_key="Chips", what=what)] if fields else []
        )
    return [buy_in], extra[0], extra[1]


# --- Levels -----------------------------------------------------------------------------


def _levels(tournament: dict) -> tuple[Level, ...]:
    """`new GameLevels({Levels: [new GameRound({...}), new GameBreak({...})]})`; the old
    fixtures' plain list of `GameLevel` with `IsBreak` is read too."""
    levels = tournament.get("Levels")
    found = _built(levels, "GameLevels")
    items = _list(found.get("Levels") if found is not None else levels, Part("structure"))
    if len(items) > MAX_STEPS:
        raise refuse("bad_level", f"More than {MAX_STEPS} levels.", level=len(items))
    steps = []
    number = 0
    for index, item in enumerate(items, start=1):
        fields = _built(item)
        if fields is None:
            raise refuse("bad_level", f"Level {index} is not a level.", level=index)
        minutes = _count(
            fields.get("Minutes"), Part("level_minutes", number=index), most=MAX_MINUTES
        )
        if not 1 <= minutes <= MAX_MINUTES:
            raise refuse("bad_level", f"Level {index} lasts no time or too long.", level=index)
        if item.kind == "GameBreak" or fields.get("IsBreak") is True:
            steps.append(Level(BREAK, minutes))
            continue
        number += 1
        small = _count(fields.get("SmallBlind"), Part("level_small_blind", number=index))
        big = _count(fields.get("BigBlind"), Part("level_big_blind", number=index))
        ante = _count(fields.get("Ante"), Part("level_ante", number=index))
        if not 1 <= small <= big:
            raise refuse(
                "bad_level", f"Level {index} has no blinds the clock can run.", level=index
            )
        if steps and any(s.kind == LEVEL for s in steps):
            before = next(s for s in reversed(steps) if s.kind == LEVEL)
            if small < before.small_blind or big < before.big_blind:
                raise refuse("bad_level", f"Level {index}'s blinds go down.", level=index)
        # The files keep one ante per level and no kind of ante: a traditional one.
        ante_type = ANTE_TRADITIONAL if ante else ANTE_NONE
        steps.append(Level(LEVEL, minutes, small, big, ante, ante_type))
    return tuple(steps)


# --- Players and entries ----------------------------------------------------------------


def _person(file_id: str, fields: dict) -> Person:
    """`Name: new PlayerName({Firstname, Lastname, Nickname})`, the contact data in
    `Info: new PlayerInfo({Email1, Phone1, ...})` (the second email and phone left)."""
    name = _built(fields.get("Name")) or {}
    info = _built(fields.get("Info")) or {}
    first = _text(name.get("Firstname"), NAME_MAX)
    last = _text(name.get("Lastname"), NAME_MAX)
    nickname = _text(name.get("Nickname"), NAME_MAX)
    full = " ".join(part for part in (first, last) if part)[:NAME_MAX]
    shown = full or nickname
    if not any(c.isalnum() for c in shown):
        raise refuse("player_no_name", f"Player {file_id} has no name.", player=file_id)
    email = _text(info.get("Email1"), EMAIL_MAX)
    return Person(
        file_id=file_id,
        name=shown,
        nickname=nickname[:NICKNAME_MAX] if full and nickname != full else "",
        email=email if "@" in email else "",
        phone=_text(info.get("Phone1"), PHONE_MAX),
    )


def _bought(fields: dict, profile: Profile | None, what: Part) -> tuple[int, int, int]:
    """A buy-in's or add-on's price with its rake, and its chips; what the file leaves
    out comes from its profile."""
    paid = _cents(fields.get("Amount"), what) if "Amount" in fields else None
    rake = _rake(fields.get("Rake"), what)
    if paid is None:
        paid = (profile.price + profile.fee) if profile else 0
    if rake is None:
        rake = profile.fee if profile and profile.fee <= paid else 0
    if rake > paid:
        raise refuse("bad_amount", f"{what}: the rake is more than the price.", what=what)
    chips = fields.get("Chips")
    chips = _count(chips, what) if chips is not None else (profile.chips if profile else 0)
    return paid, rake, chips


def _buyin_rows(
    file_id: str,
    player: dict,
    profiles: dict[str, Profile],
    default: Profile | None,
    kinds: td3.Kinds,
):
    """The player's entries from their buy-ins and add-ons."""
    buyins = _list(player.get("Buyins"), Part("buyins", player=file_id))
    entries: list[dict] = []
    for index, item in enumerate(buyins, start=1):
        what = Part("buyin", player=file_id, number=index)
        fields = _built(item)
        if fields is None:
            raise refuse("shape", f"{what} is not a buy-in.", what=what)
        profile_name = _text(fields.get("ProfileName"), 60)
        profile = profiles.get(profile_name) or default
        paid, rake, chips = _bought(fields, profile, what)
        bust_fields = fields.get("BustOut")
        bust = None
        if bust_fields is not None:
            found = _built(bust_fields)
            if found is None:
                raise refuse("shape", f"{what}'s bust-out is not one.", what=what)
            hitmen = found.get("HitmanUUID")
            hitmen = hitmen if isinstance(hitmen, list) else [hitmen] if hitmen else []
            bust = Bust(
                at=_time(found.get("Time", 0) or None, what),
                level=_level(found.get("Round"), what),
                eliminators=tuple(dict.fromkeys(str(h) for h in hitmen if isinstance(h, str))),
            )
        at = _time(fields.get("Time"), what)
        level = _level(fields.get("Round"), what)
        if entries and kinds.is_rebuy(profile_name, entries[-1]["bust"] is not None):
            # A rebuy on the entry in play: it plays on, out at this buy-in's bust-out.
            entries[-1]["purchases"].append(Purchase("rebuy", paid - rake, rake, chips, level))
            entries[-1]["bust"] = bust
            continue
        entries.append(
            {
                "at": at,
                "level": level,
                "price": paid - rake,
                "fee": rake,
                "chips": chips,
                "purchases": [],
                "bust": bust,
            }
        )
    return entries


def _addons(file_id: str, player: dict, entries: list[dict], profile: Profile | None) -> None:
    for index, item in enumerate(_list(player.get("AddOns"), Part("addons", player=file_id)), 1):
        what = Part("addon", player=file_id, number=index)
        fields = _built(item)
        if fields is None:
            raise refuse("shape", f"{what} is not an add-on.", what=what)
        if not entries:
            raise refuse("shape", f"{what} comes without a buy-in.", what=what)
        paid, rake, chips = _bought(fields, profile, what)
        level = _level(fields.get("Round"), what)
        # The entry in play at the add-on's level: the last one bought at or before it.
        target = entries[-1]
        if level is not None:
            target = next(
                (e for e in reversed(entries) if e["level"] is None or e["level"] <= level),
                entries[0],
            )
        target["purchases"].append(Purchase("addon", paid - rake, rake, chips, level))


def _prizes(tournament: dict, places: dict[str, int]) -> tuple[dict[int, int], dict[str, int]]:
    """The prize of each place, and what each player won. `new GamePrizes({Prizes: [new
    GamePrize({Type, Recipient, AmountType, Amount, CalculatedAmount, AwardedToPlayers})]})`:
    the place is `Recipient`, the money `CalculatedAmount`; a prize naming several players
    is shared equally (cent by cent, the first named first); a place prize naming nobody
    goes to the player at its place. The old fixtures' list of `{Place, Amount}` is read
    too. Where players were named, the places pay what their players won."""
    prizes = tournament.get("Prizes")
    found = _built(prizes, "GamePrizes")
    items = _list(found.get("Prizes") if found is not None else prizes, Part("prizes"))
    by_place: dict[int, int] = {}
    won: dict[str, int] = {}
    at_place = {place: uuid for uuid, place in places.items()}
    for index, item in enumerate(items, start=1):
        what = Part("prize", number=index)
        fields = _built(item)
        if fields is None:
            raise refuse("shape", f"{what} is not a prize.", what=what)
        if _count(fields.get("Type"), what, most=100) != 0:
            continue  # not a place's prize (a high hand, a side pot): not the event's
        place = fields.get("Recipient", fields.get("Place"))
        place = _count(place, what, most=100_000) if place is not None else index
        if place < 1:
            raise refuse("bad_prize", f"{what} is for no place.", what=what)
        key = "CalculatedAmount" if "CalculatedAmount" in fields else "Amount"
        amount = _cents(fields.get(key), what)
        if not amount:
            continue
        by_place[place] = by_place.get(place, 0) + amount
        awarded = dict.fromkeys(_list(fields.get("AwardedToPlayers"), what))
        named = [uuid for uuid in awarded if uuid in places]
        if not named and place in at_place:
            named = [at_place[place]]
        share, left = divmod(amount, len(named)) if named else (0, 0)
        for number, uuid in enumerate(named):
            won[uuid] = won.get(uuid, 0) + share + (1 if number < left else 0)
    payouts = by_place
    if any(by_place.get(places[uuid]) != amount for uuid, amount in won.items()):
        # Shared among players out at once: each place pays what its player won.
        payouts = {places[uuid]: amount for uuid, amount in won.items()}
    return payouts, won


def _entry_sort_key(row: EntryRow) -> tuple:
    return (row.at is None, row.at or datetime.min.replace(tzinfo=UTC))


def event_of(save: dict) -> Event:
    """The event a parsed save file holds (td3.parse); Td3Error where it makes no sense."""
    tournament = save["T"].fields
    buy_ins, rebuys, addons = _profiles(tournament)
    kinds = td3.kinds_of(tournament)
    by_name = {p.name: p for p in [*rebuys, *buy_ins] if p.name}
    default = buy_ins[0] if buy_ins else None
    players_map = tournament.get("Players")
    players = td3.game_players(save) if _built(players_map) is not None else {}
    people, rows, standing = [], [], {}
    for file_id, value in players.items():
        fields = _built(value)
        if fields is None:
            raise refuse(
                "shape", f"Player {file_id} is not a player.", what=Part("player", player=file_id)
            )
        file_id = _text(file_id, 64)
        entries = _buyin_rows(file_id, fields, by_name, default, kinds)
        if not entries:
            continue  # on the list, never bought in: not part of the event
        _addons(file_id, fields, entries, addons[0] if addons else None)
        people.append(_person(file_id, fields))
        standing[file_id] = value
        for number, entry in enumerate(entries, start=1):
            rows.append(
                EntryRow(
                    player=file_id,
                    reentry_number=number,
                    purchases=tuple(entry.pop("purchases")),
                    **entry,
                )
            )
    if len({p.file_id for p in people}) != len(people):
        raise refuse("shape", "Two players share an id.", what=Part("players"))
    # Places as the program gives them, from the buy-ins checked above.
    places = td3.finishing_places(
        {
            p.file_id: Built("GamePlayer", ({"Buyins": _last_buyins(rows, p.file_id)},))
            for p in people
        }
    )
    payouts, won = _prizes(tournament, places)
    times = [row.at for row in rows if row.at is not None]
    if default is None and rows:  # no profiles (3.4 often): the first buy-in's price
        first = min(rows, key=_entry_sort_key)
        default = Profile("", first.price, first.fee, first.chips)
    return Event(
        version=_text(save.get("V"), 20),
        file_id=_text(tournament.get("UUID"), 64),
        title=_text(tournament.get("Title"), NAME_MAX),
        league=_text(tournament.get("LeagueName"), NAME_MAX),
        season=_text(tournament.get("SeasonName"), NAME_MAX),
        start_at=min(times) if times else None,
        levels=_levels(tournament),
        buy_in=default,
        rebuy=rebuys[0] if rebuys else None,
        addon=addons[0] if addons else None,
        people=tuple(people),
        entries=tuple(sorted(rows, key=_entry_sort_key)),
        places=places,
        payouts=payouts,
        prizes_won={uuid: amount for uuid, amount in won.items() if uuid in places},
    )


def _last_buyins(rows: list[EntryRow], file_id: str) -> list[Built]:
    """The player's entries in the shape `td3.finishing_places` reads: a bust-out's time
    in milliseconds, or none for an entry still standing."""
    found = []
    for row in rows:
        if row.player != file_id:
            continue
        fields = {}
        if row.bust is not None:
            at = row.bust.at
            fields["BustOut"] = Built(
                "GameBustOut", ({"Time": at.timestamp() * 1000 if at else 0},)
            )
        found.append(Built("GameBuyin", (fields,)))
    return found


def event_read(data: bytes | str) -> Event:
    """A save file's bytes as an event; Td3Error for a file that is not one."""
    return event_of(td3.parse(data))
