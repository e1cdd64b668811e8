"""Main and side pots, and who takes how much of each, for the floor to check a payout.

TDA 21: each pot is awarded on its own, so an all-in player can only win as much from
each opponent as they put in themselves. TDA 20: a split pot is first broken down to
the smallest chip in play; chips that do not divide evenly go one at a time to the
tied winners from the first seat left of the button onwards (20-A, board games). The
German casino rules (casino §20) say the same in other words: the worse position gets
the odd chip.

The pots come from `hands.engine.pots.build_pots` and every split from `split_pot`,
the functions the tablet uses, so the two never disagree.
"""

from dataclasses import dataclass, field

from hands.engine.pots import ODD_CHIPS, build_pots, split_pot
from rulings.engine.errors import BadQuestion, Note, _, amount_text, explain
from seating.engine.blinds import from_the_button


@dataclass(frozen=True)
class Contribution:
    seat: int
    total: int  # live chips put in over the whole hand
    folded: bool = False


@dataclass(frozen=True)
class PotsQuestion:
    contributions: tuple[Contribution, ...]
    # Per pot, main pot first, the seats that tie for it. Left empty the pots are only
    # built. A pot only one player can win may be left out at the end of the list.
    winners: tuple[tuple[int, ...], ...] = ()
    button: int | None = None  # needed only when a split leaves an odd chip
    smallest_chip: int = 1
    seats: int = 10  # table size: seats are numbered 1..seats clockwise
    dead: int = 0  # dead money such as a big blind ante (RP-11): it joins the main pot
    # More than one odd chip: "tda" one each (TDA 20-A, IFP 3.6), "worst_position" all to
    # the first winner left of the button (casino §20). A house setting (issue 19).
    odd_chips: str = "tda"


@dataclass(frozen=True)
class PotShare:
    pot: int  # 0 for the main pot, 1 for the first side pot, ...
    amount: int
    eligible: tuple[int, ...]
    awards: dict[int, int] = field(default_factory=dict)  # seat -> chips; empty if unawarded


@dataclass(frozen=True)
class PotsAnswer:
    pots: tuple[PotShare, ...]
    totals: dict[int, int]  # seat -> chips won from all pots
    rules: tuple[str, ...]
    explanation: str  # the notes' texts, in English
    notes: tuple[Note, ...]  # the explanation as translatable templates


def pots(q: PotsQuestion) -> PotsAnswer:
    """Build the pots and, when the winners are given, split each one."""
    _check(q)
    built = build_pots(
        {c.seat: c.total for c in q.contributions},
        {c.seat for c in q.contributions if c.folded},
        dead=q.dead,
    )
    if len(q.winners) > len(built):
        raise BadQuestion(
            "winners",
            _("there are more lists of winners (%(lists)s) than pots (%(pots)s)"),
            lists=len(q.winners),
            pots=len(built),
        )
    rules = ["TDA 21"] if len(built) > 1 else []
    if q.dead:
        rules.append("RP-11")
    notes = _describe_pots(built, q)
    shares = []
    odd_chips = False
    for index, pot in enumerate(built):
        winners = _winners(q, index, pot.eligible)
        if winners is None:
            shares.append(PotShare(index, pot.amount, pot.eligible))
            continue
        ordered = _odd_chip_order(winners, q.button)
        awards = split_pot(pot.amount, ordered, q.smallest_chip, odd_chips=q.odd_chips)
        odd = (pot.amount // q.smallest_chip) % len(ordered)
        if odd and q.button is None:
            raise BadQuestion(
                "button",
                _by_pot(
                    index,
                    _(
                        "the main pot of %(amount)s does not split evenly: give the button so "
                        "the odd chip can go to the first winner left of it"
                    ),
                    _(
                        "side pot %(side)s of %(amount)s does not split evenly: give the button "
                        "so the odd chip can go to the first winner left of it"
                    ),
                ),
                side=index,
                amount=amount_text(pot.amount),
            )
        odd_chips = odd_chips or bool(odd)
        notes += _describe_award(index, pot.amount, ordered, awards, odd, q)
        shares.append(PotShare(index, pot.amount, pot.eligible, awards))
    if odd_chips:
        rules += ["casino §20"] if q.odd_chips == "worst_position" else ["TDA 20-A", "IFP 3.6"]
    totals: dict[int, int] = {}
    for share in shares:
        for seat, chips in share.awards.items():
            totals[seat] = totals.get(seat, 0) + chips
    return PotsAnswer(tuple(shares), totals, tuple(rules), explain(notes), tuple(notes))


def _winners(q: PotsQuestion, index: int, eligible: tuple[int, ...]) -> tuple[int, ...] | None:
    """The winners of pot `index` as given, checked; None to leave the pot unawarded."""
    if not q.winners:
        return None
    if index >= len(q.winners):
        if len(eligible) == 1:
            return eligible  # nobody else can win it: no need to name the winner
        # Only a side pot can be left out: the main pot is the first in the list.
        raise BadQuestion(
            "winners",
            _("name the winners of side pot %(side)s too: seats %(seats)s play for it"),
            side=index,
            seats=_seats(eligible),
        )
    winners = q.winners[index]
    if not winners:
        raise BadQuestion(
            "winners",
            _by_pot(
                index,
                _("the main pot needs at least one winner"),
                _("side pot %(side)s needs at least one winner"),
            ),
            side=index,
        )
    if len(set(winners)) != len(winners):
        raise BadQuestion(
            "winners",
            _by_pot(
                index,
                _("a seat is named twice among the winners of the main pot"),
                _("a seat is named twice among the winners of side pot %(side)s"),
            ),
            side=index,
        )
    strangers = [seat for seat in winners if seat not in eligible]
    if strangers:
        raise BadQuestion(
            "winners",
            _by_pot(
                index,
                _(
                    "seat %(seat)s cannot win the main pot: only these seats can "
                    "(TDA 21): %(seats)s"
                ),
                _(
                    "seat %(seat)s cannot win side pot %(side)s: only these seats can "
                    "(TDA 21): %(seats)s"
                ),
            ),
            side=index,
            seat=strangers[0],
            seats=_seats(eligible),
        )
    return winners


def _odd_chip_order(winners: tuple[int, ...], button: int | None) -> list[int]:
    """TDA 20-A: clockwise from the first seat left of the button, the button last. The
    same order the tablet hands to the showdown (hands.services.hands._winnings)."""
    if button is None:
        return sorted(winners)
    return from_the_button(winners, button)


def _check(q: PotsQuestion) -> None:
    if q.odd_chips not in ODD_CHIPS:
        raise BadQuestion(
            "odd_chips", _("the house reading of odd chips is 'tda' or 'worst_position'")
        )
    if q.seats < 2:
        raise BadQuestion("seats", _("a table has at least two seats"))
    if q.smallest_chip < 1:
        raise BadQuestion("smallest_chip", _("the smallest chip is worth at least 1"))
    if not q.contributions:
        raise BadQuestion("contributions", _("give what each player put in"))
    seen = set()
    for c in q.contributions:
        if not 1 <= c.seat <= q.seats:
            raise BadQuestion(
                "contributions",
                _("seat %(seat)s is not a seat 1 to %(seats)s"),
                seat=c.seat,
                seats=q.seats,
            )
        if c.seat in seen:
            raise BadQuestion("contributions", _("seat %(seat)s is listed twice"), seat=c.seat)
        seen.add(c.seat)
        if c.total < 0:
            raise BadQuestion(
                "contributions", _("seat %(seat)s cannot put in a negative amount"), seat=c.seat
            )
        if c.total % q.smallest_chip:
            raise BadQuestion(
                "contributions",
                _("seat %(seat)s put in %(total)s, which no stack of %(chip)s chips makes"),
                seat=c.seat,
                total=amount_text(c.total),
                chip=amount_text(q.smallest_chip),
            )
    if all(c.folded for c in q.contributions):
        raise BadQuestion("contributions", _("at least one player must still be in the hand"))
    if q.dead < 0:
        raise BadQuestion("dead", _("dead money cannot be negative"))
    if q.dead % q.smallest_chip:
        raise BadQuestion(
            "dead",
            _("%(dead)s is not made of chips of %(chip)s or more"),
            dead=amount_text(q.dead),
            chip=amount_text(q.smallest_chip),
        )
    if q.button is not None and not 1 <= q.button <= q.seats:
        raise BadQuestion("button", _("the button must be on a seat 1 to %(seats)s"), seats=q.seats)
    for winners in q.winners:
        for seat in winners:
            if seat not in seen:
                raise BadQuestion(
                    "winners", _("seat %(seat)s is not among the contributions"), seat=seat
                )


def _describe_pots(built, q: PotsQuestion) -> list[Note]:
    if len(built) == 1:
        pot = built[0]
        if len(pot.eligible) == 1:
            template = _("One pot: the main pot of %(amount)s for seat %(seats)s.")
        else:
            template = _("One pot: the main pot of %(amount)s for seats %(seats)s.")
        notes = [Note(template, {"amount": amount_text(pot.amount), "seats": _seats(pot.eligible)})]
    else:
        notes = [
            Note(
                _("There are %(count)s pots, each settled on its own (TDA 21)."),
                {"count": len(built)},
            )
        ]
        for index, pot in enumerate(built):
            # With a side pot, at least two players play for the main pot.
            if index == 0:
                template = _("The main pot of %(amount)s is for seats %(seats)s.")
            elif len(pot.eligible) == 1:
                template = _("Side pot %(side)s of %(amount)s is for seat %(seats)s.")
            else:
                template = _("Side pot %(side)s of %(amount)s is for seats %(seats)s.")
            params = {
                "side": index,
                "amount": amount_text(pot.amount),
                "seats": _seats(pot.eligible),
            }
            notes.append(Note(template, params))
    folded = [c.seat for c in q.contributions if c.folded and c.total]
    if folded:
        templates = {
            (False, False): _("What seat %(seats)s put in before folding stays in the pot."),
            (True, False): _("What seats %(seats)s put in before folding stays in the pot."),
            (False, True): _("What seat %(seats)s put in before folding stays in the pots."),
            (True, True): _("What seats %(seats)s put in before folding stays in the pots."),
        }
        template = templates[len(folded) > 1, len(built) > 1]
        notes.append(Note(template, {"seats": _seats(folded)}))
    if q.dead:
        notes.append(
            Note(
                _("The %(dead)s dead money belongs to the main pot (RP-11)."),
                {"dead": amount_text(q.dead)},
            )
        )
    return notes


def _describe_award(index, amount, ordered, awards, odd, q: PotsQuestion) -> list[Note]:
    if len(ordered) == 1:
        template = _by_pot(
            index,
            _("Main pot: seat %(seat)s wins %(amount)s."),
            _("Side pot %(side)s: seat %(seat)s wins %(amount)s."),
        )
        return [Note(template, {"side": index, "seat": ordered[0], "amount": amount_text(amount)})]
    if q.smallest_chip > 1:
        template = _by_pot(
            index,
            _("The main pot is split %(ways)s ways in chips of %(chip)s."),
            _("Side pot %(side)s is split %(ways)s ways in chips of %(chip)s."),
        )
    else:
        template = _by_pot(
            index,
            _("The main pot is split %(ways)s ways."),
            _("Side pot %(side)s is split %(ways)s ways."),
        )
    chip = amount_text(q.smallest_chip)
    notes = [Note(template, {"side": index, "ways": len(ordered), "chip": chip})]
    notes += [
        Note(
            _("Seat %(seat)s gets %(amount)s."), {"seat": seat, "amount": amount_text(awards[seat])}
        )
        for seat in ordered
    ]
    if odd == 1:
        notes.append(
            Note(
                _(
                    "The odd chip of %(chip)s goes to seat %(seat)s, the first winner left of "
                    "the button on seat %(button)s (TDA 20-A)."
                ),
                {"chip": chip, "seat": ordered[0], "button": q.button},
            )
        )
    elif odd and q.odd_chips == "worst_position":
        notes.append(
            Note(
                _(
                    "The %(odd)s odd chips of %(chip)s all go to seat %(seat)s, the winner in "
                    "the worst position, first left of the button on seat %(button)s "
                    "(casino §20)."
                ),
                {"odd": odd, "chip": chip, "seat": ordered[0], "button": q.button},
            )
        )
    elif odd:
        notes.append(
            Note(
                _(
                    "The %(odd)s odd chips of %(chip)s go one each to seats %(seats)s, the "
                    "first winners left of the button on seat %(button)s (TDA 20-A, IFP 3.6)."
                ),
                {"odd": odd, "chip": chip, "seats": _seats(ordered[:odd]), "button": q.button},
            )
        )
    return notes


def _by_pot(index: int, main: str, side: str) -> str:
    """The template for the main pot or for a side pot (numbered by the `side` param):
    whole sentences for each, as the pot's name changes the words around it."""
    return main if index == 0 else side


def _seats(seats) -> str:
    """Seat numbers as a list that reads the same in every language: "1, 2, 3"."""
    return ", ".join(str(s) for s in seats)
