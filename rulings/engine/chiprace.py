"""The chip race at a scheduled colour-up, for one table.

The steps, and where each comes from:

1. Exchange. Chips of the removed denomination that add up to whole chips of the next
   one are changed for them at equal value (TDA 24-C); only the odd chips left over
   are raced (casino §18 races "the odd chips of every player").
2. Pool. The odd chips of the whole table are put together; their value in chips of
   the next denomination, rounded half up (casino §18: rounded commercially; the TDA
   names no rounding), is the number of new chips raced off.
3. Race. Each player is dealt one card face up per odd chip, starting at seat 1
   (TDA 24-A); casino §18 has seat 1 dealt all its cards before seat 2 gets any. The
   highest card wins the first new chip, the highest card of another player the
   second, and so on: nobody wins more than one (TDA 24-A, casino §18). Cards rank by
   rank, then by suit, spades over hearts over diamonds over clubs: the TDA names no
   suit order for the race, so this is the order of the button draw
   (`seating.engine.blinds.card_value`, IFP 2.1, casino §16).
4. Nobody is raced out. A player whose last chips were raced away receives one chip
   of the lowest denomination still in play, taken here to be the next chip (TDA 24-A,
   casino §18).
"""

from dataclasses import dataclass

from rulings.engine.errors import BadQuestion, Note, _, amount_text, explain
from seating.engine.blinds import RANKS, card_value


@dataclass(frozen=True)
class RaceSeat:
    seat: int
    chips: int  # how many chips of the removed denomination the player has
    # One card per chip raced, that is per chip left once whole next chips are
    # exchanged, e.g. ("As", "Kd"); none when the player races nothing.
    cards: tuple[str, ...] = ()
    stack_other: int = 0  # the value of the player's other chips


@dataclass(frozen=True)
class ChipRaceQuestion:
    removed: int  # the value of the chip coming off, e.g. 25
    next_chip: int  # the next larger chip in play, e.g. 100; the smallest one left
    seats: tuple[RaceSeat, ...]


@dataclass(frozen=True)
class RaceResult:
    seat: int
    exchanged: int  # chips of next_chip value got for whole sets at equal value
    won: int  # 0 or 1 chip of next_chip value won in the race
    value_before: int
    value_after: int
    protected: bool = False  # raced out of chips: given one next chip (TDA 24-A)


@dataclass(frozen=True)
class ChipRaceAnswer:
    results: tuple[RaceResult, ...]  # by seat, seat 1 first
    chips_to_race: int  # odd chips of the removed denomination pooled for the race
    new_chips_raced: int  # chips of next_chip value they are raced off as
    rules: tuple[str, ...]
    explanation: str  # the notes' texts, in English
    notes: tuple[Note, ...]  # the explanation as translatable templates


def chip_race(q: ChipRaceQuestion) -> ChipRaceAnswer:
    """Exchange, pool and race the removed chips of one table."""
    _check(q)
    per_chip = q.next_chip // q.removed
    seats = sorted(q.seats, key=lambda s: s.seat)
    pooled = sum(s.chips % per_chip for s in seats)
    value = pooled * q.removed
    racers = [s for s in seats if s.cards]
    new_chips = min((2 * value + q.next_chip) // (2 * q.next_chip), len(racers))
    best = {s.seat: max(s.cards, key=card_value) for s in racers}
    ranking = sorted(best, key=lambda seat: card_value(best[seat]), reverse=True)
    winners = ranking[:new_chips]

    results = []
    for s in seats:
        exchanged = s.chips // per_chip
        won = 1 if s.seat in winners else 0
        after = s.stack_other + (exchanged + won) * q.next_chip
        protected = after == 0
        if protected:
            after = q.next_chip
        before = s.stack_other + s.chips * q.removed
        results.append(RaceResult(s.seat, exchanged, won, before, after, protected))

    rules = ["TDA 24-A"]
    if any(r.exchanged for r in results):
        rules.append("TDA 24-C")
    rules.append("casino §18")
    notes = [
        Note(
            _("Chips of %(removed)s come off; %(per_chip)s of them make one chip of %(next)s."),
            {
                "removed": amount_text(q.removed),
                "per_chip": amount_text(per_chip),
                "next": amount_text(q.next_chip),
            },
        ),
        *_exchange_notes(q, results, per_chip),
        *_pool_notes(q, pooled, value, new_chips),
        *_race_notes(racers, best, winners),
        *_protection_notes(q, results),
    ]
    return ChipRaceAnswer(
        results=tuple(results),
        chips_to_race=pooled,
        new_chips_raced=new_chips,
        rules=tuple(rules),
        explanation=explain(notes),
        notes=tuple(notes),
    )


def _exchange_notes(q: ChipRaceQuestion, results, per_chip: int) -> list[Note]:
    notes = []
    for r in results:
        if not r.exchanged:
            continue
        params = {
            "seat": r.seat,
            "given": amount_text(r.exchanged * per_chip),
            "got": amount_text(r.exchanged),
            "next": amount_text(q.next_chip),
        }
        if r.exchanged == 1:
            template = _(
                "Seat %(seat)s changes %(given)s of its chips for 1 chip of %(next)s at equal "
                "value (TDA 24-C)."
            )
        else:
            template = _(
                "Seat %(seat)s changes %(given)s of its chips for %(got)s chips of %(next)s at "
                "equal value (TDA 24-C)."
            )
        notes.append(Note(template, params))
    return notes


def _pool_notes(q: ChipRaceQuestion, pooled: int, value: int, new_chips: int) -> list[Note]:
    if not pooled:
        return [Note(_("No odd chips are left, so there is no race."), {})]
    params = {
        "count": amount_text(pooled),
        "removed": amount_text(q.removed),
        "value": amount_text(value),
        "ratio": _ratio(value, q.next_chip),
        "next": amount_text(q.next_chip),
        "raced": amount_text(new_chips),
    }
    if pooled == 1:
        pool = _("The table has 1 odd chip of %(removed)s, worth %(value)s.")
    else:
        pool = _("The table has %(count)s odd chips of %(removed)s, worth %(value)s.")
    if new_chips == 0:
        outcome = _(
            "That rounds to none (half up, casino §18), so the odd chips come off without "
            "compensation (TDA 24-C)."
        )
    elif new_chips == 1:
        outcome = _("One chip is raced, rounded half up (casino §18).")
    else:
        outcome = _("%(raced)s chips are raced, rounded half up (casino §18).")
    return [
        Note(pool, params),
        Note(_("Counted in chips of %(next)s, that is %(ratio)s."), params),
        Note(outcome, params),
    ]


def _race_notes(racers, best: dict[int, str], winners: list[int]) -> list[Note]:
    if not winners:
        return []
    notes = [Note(_("Cards are dealt from seat 1 on (TDA 24-A)."), {})]
    notes += [
        Note(_("Seat %(seat)s gets %(cards)s."), {"seat": s.seat, "cards": " ".join(s.cards)})
        for s in racers
    ]
    notes.append(
        Note(_("Each player's best card counts and wins at most one chip (TDA 24-A)."), {})
    )
    notes += [
        Note(
            _("Chip %(number)s of the race goes to seat %(seat)s, with %(card)s."),
            {"seat": seat, "number": i + 1, "card": best[seat]},
        )
        for i, seat in enumerate(winners)
    ]
    ranks = [card_value(card)[0] for card in best.values()]
    if len(set(ranks)) < len(ranks):
        notes.append(
            Note(_("Equal ranks are decided by suit: spades, hearts, diamonds, clubs."), {})
        )
    return notes


def _protection_notes(q: ChipRaceQuestion, results) -> list[Note]:
    return [
        Note(
            _(
                "Seat %(seat)s lost its last chips in the race and gets one chip of %(next)s: "
                "nobody is raced out (TDA 24-A)."
            ),
            {"seat": r.seat, "next": amount_text(q.next_chip)},
        )
        for r in results
        if r.protected
    ]


def _check(q: ChipRaceQuestion) -> None:
    if q.removed < 1:
        raise BadQuestion("removed", _("the removed chip is worth at least 1"))
    if q.next_chip <= q.removed:
        raise BadQuestion("next_chip", _("the next chip must be worth more than the removed one"))
    if q.next_chip % q.removed:
        raise BadQuestion(
            "next_chip",
            _(
                "%(next)s is not a whole number of %(removed)s chips, so they cannot be "
                "exchanged at equal value"
            ),
            next=amount_text(q.next_chip),
            removed=amount_text(q.removed),
        )
    if not q.seats:
        raise BadQuestion("seats", _("give the players at the table"))
    per_chip = q.next_chip // q.removed
    numbers = set()
    dealt: dict[tuple[int, int], int] = {}
    for s in q.seats:
        if s.seat < 1 or s.seat in numbers:
            raise BadQuestion(
                "seats", _("seat %(seat)s is not a seat number, or is listed twice"), seat=s.seat
            )
        numbers.add(s.seat)
        if s.chips < 0:
            raise BadQuestion(
                "chips", _("seat %(seat)s cannot have a negative number of chips"), seat=s.seat
            )
        if s.stack_other < 0:
            raise BadQuestion(
                "stack_other", _("seat %(seat)s's other chips cannot be negative"), seat=s.seat
            )
        if s.chips == 0 and s.stack_other == 0:
            raise BadQuestion(
                "chips", _("seat %(seat)s has no chips: it is out of the tournament"), seat=s.seat
            )
        odd = s.chips % per_chip
        if len(s.cards) != odd:
            if odd == 1:
                template = _(
                    "seat %(seat)s races 1 chip (its %(chips)s less whole sets of %(set)s), "
                    "so it gets 1 card, not %(cards)s"
                )
            else:
                template = _(
                    "seat %(seat)s races %(odd)s chips (its %(chips)s less whole sets of "
                    "%(set)s), so it gets %(odd)s cards, not %(cards)s"
                )
            raise BadQuestion(
                "cards",
                template,
                seat=s.seat,
                odd=odd,
                chips=s.chips,
                set=per_chip,
                cards=len(s.cards),
            )
        for card in s.cards:
            try:
                value = card_value(card)
            except ValueError:
                raise BadQuestion(
                    "cards",
                    _(
                        "seat %(seat)s: %(card)s is not a card; write a rank of %(ranks)s "
                        "then a suit of s, h, d, c, as in As or Td"
                    ),
                    seat=s.seat,
                    card=repr(card),
                    ranks=RANKS,
                ) from None
            if value in dealt:
                raise BadQuestion(
                    "cards",
                    _(
                        "%(card)s is dealt to seat %(first)s and seat %(seat)s: one deck, so "
                        "every card once"
                    ),
                    card=card,
                    first=dealt[value],
                    seat=s.seat,
                )
            dealt[value] = s.seat


def _ratio(value: int, unit: int) -> str:
    """`value` in chips of `unit`: a whole number, or with two decimals."""
    whole, rest = divmod(value, unit)
    if not rest:
        return amount_text(whole)
    return f"{value / unit:.2f}"
