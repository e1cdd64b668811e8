"""Dealing a hand, its optional action log, its hold and its result."""

from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.database.rows import column_set
from floorman.errors import Conflict, Invalid
from hands.engine import away as away_rules
from hands.engine import betting, showdown
from hands.engine import bounties as bounty_rules
from hands.engine import misdeal as misdeal_rules
from hands.engine import stud as stud_rules
from hands.messages import illegal_message
from hands.models import Hand, HandAction, HandPlayer, HandStatus, KnockoutSource, OutOfTurn
from hands.selectors import (
    away_records,
    away_serving,
    betting_state,
    hand_for_hand,
    hand_readings,
    legal_public,
)
from hands.services import bounties
from hands.services import hand_for_hand as h4h
from hands.services.away import away_hands_count
from hands.services.busts import Dealt, bust_record, play_end
from hands.services.common import (
    fullest_other,
    hand_playing,
    hand_row,
    publish_table,
    refuse,
    refuse_if_halted,
    table_of,
    table_ready_to_deal,
)
from hands.services.dead_blinds import dead_blinds_post
from hands.services.levels import deal_level
from seating import engine as seating_engine
from seating.engine import blinds
from seating.models import Seat
from tournaments.models import Entry, Tournament
from tournaments.selectors import active_entries_upto, house_settings
from tournaments.services import entries_chips_count, tournament_lock
from tournaments.services.flights import flight_play_refuse


def _refuse_if_too_few(tournament: Tournament, table, now, rule: str) -> None:
    """Casino §17 (the house setting "table_minimum", `rule`): play at a table starts only
    with three players, so a table with fewer does not deal while other tables play; the
    floor balances players to it or breaks it. The TDA sets no such minimum."""
    if rule == seating_engine.MINIMUM_TDA:
        return  # nothing to read at every deal
    if len(now.occupied) >= seating_engine.MIN_PLAYERS_TO_START:
        return  # enough here, whatever the other tables hold
    here = seating_engine.TableView(number=table.number, seats=now.seats, occupied=now.occupied)
    short = seating_engine.short_tables([here, *fullest_other(tournament, table)], rule=rule)
    if table.number in short:
        raise refuse(
            "table_minimum", number=table.number, minimum=seating_engine.MIN_PLAYERS_TO_START
        )


@transaction.atomic
def hand_start(*, actor, tournament_id: int, number: int) -> Hand:
    """Deal the next hand: button, blinds and antes from the engine (TDA 32, 34-B;
    RP-11), the players dealt in with their stacks; new players between the button
    and the small blind wait for the button to pass (TDA 10-A). A player on penalty is
    dealt in dead (TDA 71-C): posts blinds and antes, the hand killed from the deal,
    once the penalty has begun (TDA 68: after the hand in play when it was given;
    hands.engine.away). The dead seats are kept with the hand (`HandPlayer.dead`), so
    its action log replays the same whatever the penalty does afterwards. A player who
    owes dodged blinds (older TDA 22, hands.services.dead_blinds) posts them as dead money
    (`HandPlayer.dead_money`), kept with the hand likewise."""
    tournament = tournament_lock(tournament_id)
    flight_play_refuse(tournament)  # a flight that has stopped deals no more (issue 17)
    table = table_of(tournament, number)
    now, hand_number = table_ready_to_deal(table)
    house = house_settings(tournament)  # halting and the table minimum: issue 19
    refuse_if_halted(tournament, table, now, house.halting)
    _refuse_if_too_few(tournament, table, now, house.table_minimum)
    round_number = h4h.round_for_new_hand(tournament, table)
    # TDA 23: the level in play when the hand started (the dealer's mark, else now).
    level, step, start_event, marked_at = deal_level(tournament, table)
    positions = now.positions()
    game = step.game if step and step.game else tournament.game
    stud_game = stud_rules.stud_game(game)
    # TDA 11-B: during stud the button stays where the next hold'em hand would have it.
    frozen = stud_rules.button_frozen(game)
    if frozen:  # stud deals everyone in: no blinds to wait for (TDA 10-A)
        seats_in = blinds.from_the_button(now.occupied, positions.button)
    else:
        seats_in = list(positions.dealt_in)
    away = away_records(tournament.pk)  # TDA 71-C: read once, for the deal and the tablet
    dead = away_rules.dead_seats(
        away_serving(tournament.pk, table.number, away), table=table.number, hand=hand_number
    ) & set(seats_in)
    if len(dead) == len(seats_in):
        raise refuse("all_on_penalty")
    hand = Hand.objects.create(
        tournament=tournament,
        table=table,
        number=hand_number,
        level=level,
        game=game,
        # Stud (RP-10 E, TDA 30): the level's bring-in; a level without one has it in
        # its small blind column (no blinds in stud).
        bring_in_amount=(step.bring_in or step.small_blind) if step and stud_game else 0,
        small_blind_amount=step.small_blind if step else 0,
        big_blind_amount=step.big_blind if step else 0,
        ante_amount=step.ante if step else 0,
        ante_type=step.ante_type if step else "none",
        small_bet=step.small_bet if step else 0,
        big_bet=step.big_bet if step else 0,
        button=positions.button,
        small_blind_seat=positions.small_blind_seat,
        small_blind=positions.small_blind,
        big_blind=positions.big_blind,
        h4h_round=round_number,
        heads_up=_heads_up(tournament, now),  # TDA 48: the limit cap lifts
        start_event=start_event,
        start_marked_at=marked_at,
        house_settings=house.values,
    )
    dealt = {seat: now.occupied[seat] for seat in seats_in}
    chips = dict(Entry.objects.filter(pk__in=dealt.values()).values_list("pk", "chips"))
    # Older TDA 22: dodged blinds owed are posted as dead money in a hand with blinds
    # (stud has none: they wait for the next one).
    owed = {} if stud_game else dead_blinds_post(hand=hand, dealt=dealt)
    HandPlayer.objects.bulk_create(
        HandPlayer(
            hand=hand,
            entry_id=entry,
            seat=seat,
            stack=chips[entry],
            dead=seat in dead,
            dead_money=min(owed.get(seat, 0), chips[entry]),
        )
        for seat, entry in dealt.items()
    )
    state = now.state
    if not frozen:  # TDA 11-B: the table keeps its last hold'em hand's button during stud
        state.button = positions.button
        state.small_blind_seat = positions.small_blind_seat
        state.big_blind = positions.big_blind
    state.hands_played += 1
    state.last_dealt = list(dealt.values())
    state.dealt_at = hand.started_at  # seating's undo stops here (seating_undo)
    state.save()
    waiting = [] if frozen else list(positions.waiting)
    if not frozen and set(waiting) != now.waiting:  # TDA 10-A: most deals change none
        Seat.objects.filter(table=table).update(
            wait_for_button=Case(When(number__in=waiting, then=Value(True)), default=Value(False))
        )
    audit_record(
        actor=actor,
        action="hand.start",
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "level": level,
            "button": hand.button,
            "small_blind": hand.small_blind,
            "big_blind": hand.big_blind,
            "dealt_in": list(dealt),
            "waiting": waiting,
            "dead": sorted(dead),  # TDA 71-C: on penalty, dealt in dead
            # Older TDA 22: dodged blinds made up as dead money, seat → chips.
            **({"dead_money": {str(seat): money for seat, money in owed.items()}} if owed else {}),
        },
    )
    # The table as the deal leaves it (its state saved in place) and its hand: no re-read.
    publish_table(table, now=now, playing=hand, away=away)
    return hand


def _heads_up(tournament: Tournament, now) -> bool:
    """TDA 48: two players left in the tournament. Every player seated here is one of
    them, so a table dealing to more than two is not heads-up: no count of the field."""
    if len(now.occupied) > 2:
        return False
    return active_entries_upto(tournament.pk, 3) == 2


@transaction.atomic
def hand_action(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    kind: str,
    seat: int | None = None,
    amount: int | None = None,
):
    """One action of the log, checked by the betting engine (TDA 43, 47, 48, 54, 55);
    an illegal one is refused with the rule and the player's options, nothing written.
    A seat dealt dead (TDA 71-C) is never to act: the engine skips it."""
    tournament = tournament_lock(tournament_id)
    table, hand, state = hand_playing(tournament, number, hand_number)
    if hand.item_pending:  # RP-22: the floor rules on the item before the hand goes on
        raise refuse("item_pending", seat=state.to_act)
    if state.awaiting:  # TDA 53-B: the floor rules on a skipped hand first
        raise refuse("oot_floor", seat=state.awaiting[0])
    acting = state.to_act if seat is None else seat
    try:
        action = betting.Action(kind, acting, amount)
    except ValueError:
        raise Invalid({"amount": _("A bet or raise needs an amount.")}) from None
    try:
        after = _action_log(hand, state, action)
    except betting.IllegalAction as illegal:
        raise Conflict(
            illegal_message(illegal.rule, illegal.message),
            code="illegal_action",
            data={"rule": illegal.rule, "legal": legal_public(illegal.options)},
        ) from None
    return hand, after


def _action_log(hand: Hand, state, action: betting.Action, *, item: str = ""):
    """Apply one action (IllegalAction if the rules refuse it) and write it as the next
    line of the hand's log; the state after it. `item` notes an item of no value the
    action was made with (RP-22): the action is what it was ruled to be."""
    after = state.apply(action)
    HandAction.objects.create(
        hand=hand,
        sequence=state.lines + 1,  # the log's lines, out of turn ones too (TDA 53)
        seat=action.seat,
        kind=action.kind,
        amount=action.amount,
        street=state.street,
        item=item,
    )
    return after


@transaction.atomic
def hand_misdeal(*, actor, tournament_id: int, number: int, hand_number: int) -> Hand:
    """A misdeal (TDA 35-A) called in the hand in play: the cards are dealt again as the
    same hand (TDA 35-C): the button, the blinds, the level and the players dealt in stay;
    the action log (actions out of turn and the floor's rulings on them too), the board
    and the cards logged are wiped; players on penalty are dealt in dead again (their
    `HandPlayer.dead` stays), and the two deals count as one hand for them (one hand row).
    Refused (409) once the hand has gone too far, by the readings the hand was dealt under:
    after substantial action (TDA 35-D, 36) or after two bets or raises (casino §34). The
    floor's rulings in the log (TDA 53-B) are not actions and do not count.

    Steps: lock → the hand in play, not held → the reading and the log checked → the log
    wiped → audit `hand.misdeal` → the tablet told.
    """
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    if hand.status == HandStatus.HELD:  # an all-in called: long past substantial action
        raise refuse("misdeal_too_late", rule="TDA 35-D")
    logged = list(
        hand.actions.order_by("sequence").values_list("seat", "kind", "amount", "out_of_turn")
    )
    reading = hand_readings(hand).misdeal_until  # the readings the hand was dealt under
    # The floor's rulings (TDA 53-B) and hands killed (TDA 65-A, 66) are no actions.
    kinds = [
        kind
        for _seat, kind, _amount, made in logged
        if made not in (OutOfTurn.RULING, OutOfTurn.KILLED)
    ]
    too_late = misdeal_rules.misdeal_refusal(kinds, reading)
    if too_late:
        raise refuse("misdeal_too_late", rule=too_late)
    hand.actions.all().delete()
    hand.players.update(cards=[], upcards=[])  # a stud hand's upcards are dealt again
    hand.board = []
    hand.item_pending = ""
    hand.save(update_fields=["board", "item_pending"])
    audit_record(
        actor=actor,
        action="hand.misdeal",
        obj=hand,
        tournament=tournament,
        before={"actions": [list(row[:3]) for row in logged]},
        after={
            "table": table.number,
            "hand": hand.number,
            "rule": "TDA 35-C",
            "reading": reading,
            "button": hand.button,
            "level": hand.level,
        },
    )
    publish_table(table)
    return hand


@transaction.atomic
def hand_upcards(
    *, actor, tournament_id: int, number: int, hand_number: int, cards: dict[int, str]
) -> Hand:
    """Stud, stud/8, razz: the upcards just dealt, as the dealer enters them. The door
    cards (third street) name who brings it in (the low card by suit; razz: the high
    card; RP-10 E); on fourth to sixth street one more upcard for each player still in,
    and the best hand showing acts first (RP-10 D). Seventh street is dealt down. A card
    that is no card, shows twice or goes to a player not in is 400, nothing written."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    if hand.status != HandStatus.PLAYING:
        raise refuse("hand_finished", hand=hand.number)
    game = stud_rules.stud_game(hand.game)
    if game is None:
        raise refuse("not_stud")
    if not 0 < hand.bring_in_amount <= hand.small_bet:
        raise refuse("no_action_log")
    players = {player.seat: player for player in hand.players.all()}
    state = betting_state(hand)
    try:
        if state is None:
            street = stud_rules.THIRD
            if set(cards) != set(players):
                missing = sorted(set(players) ^ set(cards))[0]
                raise betting.IllegalAction("RP-10 C", f"seat {missing}", None)
            given = {seat: stud_rules.normal(card) for seat, card in cards.items()}
            if len(set(given.values())) != len(given):
                raise ValueError("a card twice")
        else:
            if state.upcards_due is None:
                raise refuse("upcards_not_due")
            street = state.upcards_due
            after = state.deal(cards)
            given = {seat: up[-1] for seat, up in after.upcards if seat in cards}
    except (ValueError, betting.IllegalAction):
        raise Invalid(
            {
                "cards": _(
                    "Give one upcard, such as As or Td, to each player still in; a card "
                    "shows only once (RP-10)."
                )
            }
        ) from None
    for seat, card in given.items():
        player = players[seat]
        player.upcards = [*player.upcards, card]
        player.save(update_fields=["upcards"])
    after = betting_state(hand)
    audit_record(
        actor=actor,
        action="hand.upcards",
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "street": street,
            "cards": {str(seat): card for seat, card in given.items()},
            "to_act": after.to_act if after else None,
        },
    )
    publish_table(table)
    return hand


@transaction.atomic
def hand_hold(*, actor, tournament_id: int, number: int, hand_number: int) -> Hand:
    """Hand-for-hand, all-in and call: the cards stay face down and the table waits until
    every other table has finished (RP-8 F, casino §29a)."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    settings = hand_for_hand(tournament.pk)
    if not settings.active or hand.h4h_round != settings.round:
        raise refuse("h4h_inactive")
    hand.status = HandStatus.HELD
    hand.save(update_fields=["status"])
    audit_record(
        actor=actor,
        action="hand.hold",
        obj=hand,
        tournament=tournament,
        after={"table": table.number, "hand": hand.number, "round": hand.h4h_round},
    )
    publish_table(table)
    h4h.h4h_report(tournament, table, held=True)
    return hand


@transaction.atomic
def hand_finish(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    busts: list[int] = (),
    stacks: dict[int, int] | None = None,
    eliminators: list[int] | None = None,
) -> Hand:
    """The hand is over: who busted (places: IFP 4.27, RP-8 A) and, if counted, each
    player's chips; every player dealt a dead hand has missed one more hand (TDA 71-C):
    such a hand won nothing, so its chips cannot grow nor can it eliminate anyone.
    In a bounty event the floor names who won the pot the busted players lost
    (`eliminators`, seats dealt in and not busted: else 400; issue 18); none named, the
    bounties stay unsettled until the floor names them (bounties.knockout_correct).
    Hand-for-hand, the table reports its hand done (RP-8). Last, a bust that leaves one
    player finishes the tournament (hands.services.busts.play_end)."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    players = {player.seat: player for player in hand.players.all()}
    busted = _checked_busts(busts, players)
    counted = _checked_stacks(stacks or {}, players, busted)
    _refuse_dead_winning(players, counted, eliminators)
    dealt = {seat: player.entry_id for seat, player in players.items()}
    named = bounties.eliminators_of_seats(dealt, busted, eliminators)
    if named and not busted:
        raise Invalid({"eliminators": _("Nobody went out in this hand.")})
    knocked = {seat: named for seat in busted}
    return _finish(
        actor, tournament, table, hand, players, busted, counted, knocked, KnockoutSource.FLOOR
    )


@transaction.atomic
def hand_settle(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    cards: dict[int, str],
    board: str = "",
) -> Hand:
    """The hand's result from its action log: the pots (TDA 21), the best hands by cards
    speak (ranked by pokerkit), odd chips (TDA 20); whoever has no chips left busts."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    state = betting_state(hand)
    if state is None:
        raise refuse("no_action_log")
    if not state.finished:
        raise refuse("betting_open")
    players = {player.seat: player for player in hand.players.all()}
    _refuse_unless_upcards_shown(hand, players, cards)
    awards = _awards(hand, state, cards, board)
    won = showdown.winnings(awards)
    stacks = {seat: chips + won.get(seat, 0) for seat, chips in state.stacks.items()}
    busted = [seat for seat, chips in stacks.items() if chips == 0]
    knocked = {seat: _eliminators(seat, awards, players) for seat in busted}
    counted = {seat: chips for seat, chips in stacks.items() if chips > 0}
    hand.board = showdown.cards_list(board)
    hand.save(update_fields=["board"])
    for seat, hole in cards.items():
        HandPlayer.objects.filter(pk=players[seat].pk).update(cards=showdown.cards_list(hole))
    return _finish(
        actor, tournament, table, hand, players, busted, counted, knocked, KnockoutSource.HAND
    )


SHOWDOWN_GAMES = {
    "nlhe": showdown.HOLDEM,
    "lhe": showdown.HOLDEM,
    "plo": showdown.OMAHA,
    "stud": showdown.STUD,  # the best five of each player's seven cards, no board
    "stud8": showdown.STUD_HI_LO,
    "razz": showdown.RAZZ,
}


def _refuse_unless_upcards_shown(hand: Hand, players: dict, cards: dict[int, str]) -> None:
    """Stud: a hand tabled holds the upcards the whole table saw (cards speak, TDA 12)."""
    if not stud_rules.stud_game(hand.game):
        return
    for seat, hole in cards.items():
        try:
            shown = {stud_rules.normal(card) for card in showdown.cards_list(hole)}
        except ValueError:
            continue  # _awards says what a card looks like
        player = players.get(seat)
        if player is not None and not set(player.upcards) <= shown:
            raise Invalid(
                {
                    "cards": _("Seat %(seat)s's hand must hold its upcards: %(cards)s.")
                    % {"seat": seat, "cards": " ".join(player.upcards)}
                }
            )


def _eliminators(seat: int, awards, players) -> tuple[int, ...]:
    """Issue 18: who eliminated the busted seat, the winner(s) of the pot it was all-in
    for (TDA 21: side pots above it were never its to lose), as entries in odd-chip order
    (TDA 20). None where the log names nobody (a player all-in for a dead ante only)."""
    try:
        seats = bounty_rules.eliminators(seat, awards)
    except ValueError:
        return ()
    return tuple(players[winner].entry_id for winner in seats)


def _awards(hand: Hand, state, cards: dict[int, str], board: str) -> list:
    dead = [seat for seat in cards if seat in state.dead]
    if dead:  # TDA 71-C: killed after the deal, its cards are never shown down
        raise Invalid(
            {
                "cards": _(
                    "Seat %(seat)s was on penalty: its hand was dead from the deal (TDA 71-C)."
                )
                % {"seat": dead[0]}
            }
        )
    strangers = [seat for seat in cards if seat not in state.in_hand]
    if strangers:
        raise Invalid({"cards": _("Seat %(seat)s is not in the hand.") % {"seat": strangers[0]}})
    try:
        shown = [showdown.cards_list(hole) for hole in cards.values()] + [
            showdown.cards_list(board)
        ]
        every = [card for group in shown for card in group]
        if len(set(every)) != len(every):
            raise ValueError("a card twice")
        order = blinds.from_the_button(state.stacks, hand.button)
        awards = showdown.award_pots(
            state.pots(),
            cards,
            board,
            game=SHOWDOWN_GAMES[hand.game],
            order_from_button=order,
            odd_chips=hand_readings(hand).odd_chips,  # TDA 20-A or casino §20
        )
    except ValueError:
        raise Invalid(
            {"cards": _("Give each shown hand and the board as cards such as As Kd 7h.")}
        ) from None
    return awards


def _finish(
    actor, tournament, table, hand: Hand, players, busted, counted, knocked, source
) -> Hand:
    settings = hand_for_hand(tournament.pk)
    if hand.status == HandStatus.HELD:
        h4h.refuse_unless_showing(tournament, settings, table)
    entries_chips_count(
        tournament=tournament,
        counts={players[seat].entry_id: chips for seat, chips in counted.items()},
    )
    # One statement for the table, not one per seat.
    ends = {players[seat].pk: chips for seat, chips in counted.items()}
    column_set(HandPlayer, "end_stack", ends, hand=hand.pk)
    hand.status = HandStatus.FINISHED
    hand.finished_at = timezone.now()
    hand.save(update_fields=["status", "finished_at"])
    # Issue 18: the hand's knockouts, settled together from the bounties at its start.
    plan = bounties.knockouts_plan(
        actor=actor,
        tournament=tournament,
        hand=hand,
        busts={players[seat].entry_id: knocked.get(seat, ()) for seat in busted},
        source=source,
        stacks={player.entry_id: player.stack for player in players.values()},
    )
    for seat in busted:
        bust_record(
            actor=actor,
            tournament=tournament,
            entry_id=players[seat].entry_id,
            hand=hand,
            knockouts=plan,
            dealt=Dealt(table.number, seat, players[seat].stack),
        )
    bounties.knockouts_save(plan)
    served = away_hands_count(  # TDA 71-C: each dead hand is one hand missed
        tournament=tournament,
        table=table,
        hand=hand,
        entry_ids=[player.entry_id for player in players.values() if player.dead],
    )
    for away in served:  # the hands missed in full: the player may come back (TDA 71-C)
        audit_record(
            actor=None,
            action="away.served",
            obj=away,
            tournament=tournament,
            after={
                "entry": away.entry_id,
                "hands_missed": away.hands_missed,
                "table": table.number,
                "hand": hand.number,
            },
        )
    audit_record(
        actor=actor,
        action="hand.finish",
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "busts": busted,
            "stacks": counted,
            **({"knockouts": plan.public()} if bounties.bounty_event(tournament) else {}),
        },
    )
    publish_table(table, playing=None)  # this hand is over, the next not dealt
    if settings.active and hand.h4h_round == settings.round:
        h4h.h4h_report(tournament, table, held=False)
    if busted:  # the last bust ends the tournament; a hand without one changes nothing
        play_end(actor=actor, tournament=tournament)
    return hand


def _checked_busts(busts, players: dict) -> list[int]:
    seats = list(dict.fromkeys(busts))
    strangers = [seat for seat in seats if seat not in players]
    if strangers:
        raise Invalid(
            {"busts": _("Seat %(seat)s was not dealt in this hand.") % {"seat": strangers[0]}}
        )
    # A dead hand may be blinded out (TDA 71-A) but never wins: a live one must be left.
    live = {seat for seat, player in players.items() if not player.dead}
    if seats and live <= set(seats):
        raise Invalid({"busts": _("Somebody has to win the hand: not every player can bust.")})
    return seats


def _refuse_dead_winning(players: dict, counted: dict[int, int], eliminators) -> None:
    """TDA 71-C, 30: a hand dealt dead to a player on penalty wins nothing: its chips
    after the hand are at most what it was dealt with, and it eliminates nobody."""
    for seat, chips in counted.items():
        if players[seat].dead and chips > players[seat].stack:
            raise Invalid(
                {
                    "stacks": _(
                        "Seat %(seat)s was on penalty with a dead hand (TDA 71-C): it won "
                        "nothing, so it cannot end with more than the %(chips)s it was dealt."
                    )
                    % {"seat": seat, "chips": players[seat].stack}
                }
            )
    for seat in eliminators or ():
        if seat in players and players[seat].dead:
            raise Invalid(
                {
                    "eliminators": _(
                        "Seat %(seat)s was on penalty with a dead hand (TDA 71-C): it won "
                        "no pot and eliminated nobody."
                    )
                    % {"seat": seat}
                }
            )


def _checked_stacks(stacks: dict, players: dict, busted: list[int]) -> dict[int, int]:
    counted = {}
    for seat, chips in stacks.items():
        if seat not in players:
            raise Invalid(
                {"stacks": _("Seat %(seat)s was not dealt in this hand.") % {"seat": seat}}
            )
        if seat in busted:
            continue
        if chips < 1:
            raise Invalid(
                {
                    "stacks": _("A player still in has chips: bust seat %(seat)s instead.")
                    % {"seat": seat}
                }
            )
        counted[seat] = chips
    return counted
