"""A save file's meaning as an import takes it (issue 22): each version's event, players,
entries, rebuys, add-ons, busts, places and prizes, without a database; and files whose
content makes no sense refused with a code. The files in td3/ are written for these tests
(invented people)."""

from pathlib import Path

import pytest
from django.utils import translation

from prizes.messages import TD3_PARTS, td3_part
from tournaments.engine import td3, td3_event

FILES = Path(__file__).parent / "td3"
ALL = [
    "v3_0.tdt",
    "v3_4.tdt",
    "v3_7.tdt",
    "finished_v3_0.tdt",
    "finished_v3_4.tdt",
    "finished_v3_7.tdt",
]


def read(name: str) -> td3_event.Event:
    return td3_event.event_read((FILES / name).read_bytes())


@pytest.mark.parametrize("name", ALL)
def test_each_files_counts_agree_with_the_readers_summary(name):
    data = (FILES / name).read_bytes()
    found, event = td3.summary(td3.parse(data)), td3_event.event_read(data)
    assert len(event.people) == found.players
    assert len(event.entries) == found.entries
    assert event.rebuys == found.rebuys
    assert event.addons == found.addons
    assert event.busts == found.bust_outs
    assert event.places == found.places
    assert event.finished == found.finished


@pytest.mark.parametrize(
    ("name", "players", "entries", "reentries", "rebuys", "addons", "busts", "finished"),
    [
        ("v3_0.tdt", 2, 2, 0, 0, 0, 1, True),
        ("v3_4.tdt", 3, 4, 1, 0, 1, 2, False),
        ("v3_7.tdt", 2, 2, 0, 0, 0, 1, True),
        ("finished_v3_0.tdt", 3, 3, 0, 1, 0, 2, True),
        ("finished_v3_4.tdt", 5, 6, 1, 0, 1, 5, True),
        ("finished_v3_7.tdt", 4, 5, 1, 1, 2, 4, True),
    ],
)
def test_each_version_gives_its_entries_rebuys_addons_and_busts(
    name, players, entries, reentries, rebuys, addons, busts, finished
):
    event = read(name)
    assert (len(event.people), len(event.entries), event.reentries) == (
        players,
        entries,
        reentries,
    )
    assert (event.rebuys, event.addons, event.busts, event.finished) == (
        rebuys,
        addons,
        busts,
        finished,
    )


def test_a_buyin_with_a_rebuy_profile_is_a_rebuy_even_after_a_bust_and_else_a_reentry():
    event = read("finished_v3_7.tdt")
    jana = [e for e in event.entries if e.player == "u1"]
    lio = [e for e in event.entries if e.player == "u3"]
    # Jana busted at level 2 and rebought ("Rebuy" profile): one entry, out at level 9.
    assert [e.reentry_number for e in jana] == [1]
    assert [p.kind for p in jana[0].purchases] == ["rebuy", "addon"]
    assert jana[0].bust.level == 9 and jana[0].bust.eliminators == ("u2",)
    # Lio bought in again with the buy-in profile after his bust: a re-entry.
    assert [e.reentry_number for e in lio] == [1, 2]
    assert all(e.bust is not None for e in lio)
    # 3.0 names no profiles: a later buy-in is a rebuy where the file allows them.
    tove = [e for e in read("finished_v3_0.tdt").entries if e.player == "p-1"]
    assert [(e.reentry_number, e.rebuys, e.bust.level) for e in tove] == [(1, 1, 5)]


def test_money_is_split_into_prize_money_and_the_houses_rake_in_cents():
    event = read("finished_v3_7.tdt")
    first = event.entries[0]
    assert (first.price, first.fee, first.chips) == (10_000, 1_000, 20_000)
    assert event.buy_in == td3_event.Profile("Standard", 10_000, 1_000, 20_000)
    assert event.addon.price == 2_000 and event.addon.chips == 10_000
    assert event.prize_pool == 64_000
    old = read("finished_v3_0.tdt")  # GameFinancials: EntryFee with the per-player PPRake
    assert (old.buy_in.price, old.buy_in.fee, old.buy_in.chips) == (4_500, 500, 1_500)
    assert old.addon.allowed is False and old.rebuy.allowed is True
    assert (old.rebuy.price, old.rebuy.chips) == (5_000, 1_000)


def test_the_blind_structure_keeps_its_breaks_and_antes():
    levels = read("finished_v3_7.tdt").levels
    assert [step.kind for step in levels] == ["level", "level", "break", "level"]
    assert (levels[3].ante, levels[3].ante_type) == (600, "ante")
    oldest = read("finished_v3_0.tdt").levels
    assert [step.kind for step in oldest] == ["level", "level", "break", "level"]
    assert [s.kind for s in read("v3_0.tdt").levels] == ["level", "break"]  # GameLevel, IsBreak
    older = read("finished_v3_4.tdt").levels
    assert (older[3].small_blind, older[3].big_blind, older[3].ante, older[3].ante_type) == (
        100,
        200,
        25,
        "ante",
    )


def test_places_and_prizes():
    event = read("finished_v3_4.tdt")  # fixed amounts (AmountType 1)
    assert event.places == {"b": 1, "c": 2, "a": 3, "d": 4, "e": 5}
    assert event.payouts == {1: 68_000, 2: 34_000, 3: 11_000}
    assert event.prizes_won == {"b": 68_000, "c": 34_000, "a": 11_000}
    # Shares (AmountType 0): the money is CalculatedAmount; the high hand (Type 2) is
    # no place's prize.
    newer = read("finished_v3_7.tdt")
    assert newer.payouts == {1: 38_400, 2: 19_200, 3: 6_400}
    assert newer.prizes_won == {"u2": 38_400, "u1": 19_200, "u3": 6_400}
    # Naming nobody (3.0), a prize goes to the player at its place.
    assert read("finished_v3_0.tdt").prizes_won == {"p-2": 13_000, "p-1": 5_500}
    assert read("v3_4.tdt").payouts == {1: 60_050, 2: 15_000}  # the old list of {Place}


def test_a_prize_naming_players_out_at_once_is_shared_and_their_places_paid_so():
    body = (FILES / "finished_v3_7.tdt").read_text(encoding="utf-8")
    # u3 and u4 out at the same time share the 3rd and a new 4th prize (64 + 36).
    body = body.replace("Time: 1732221000000", "Time: 1732217000000")
    body = body.replace('AwardedToPlayers: ["u3"]', 'AwardedToPlayers: ["u3", "u4"]')
    body = body.replace(
        'new GamePrize({Description: "High Hand", Type: 2',
        'new GamePrize({Description: "4th Place", Type: 0, Recipient: 4, '
        'AwardedToPlayers: ["u3", "u4"], CalculatedAmount: 36}), '
        'new GamePrize({Description: "High Hand", Type: 2',
    )
    event = td3_event.event_read(body)
    assert {event.places["u3"], event.places["u4"]} == {3, 4}
    assert (event.prizes_won["u3"], event.prizes_won["u4"]) == (5_000, 5_000)
    assert event.payouts == {1: 38_400, 2: 19_200, 3: 5_000, 4: 5_000}


def test_names_contacts_league_and_season():
    event = read("finished_v3_7.tdt")
    jana = event.people[0]
    assert (jana.name, jana.email, jana.phone) == (
        "Jana Roth",
        "jana.roth@example.org",
        "+49 30 5550101",
    )
    assert event.people[1].nickname == "Piet"
    assert (event.people[2].email, event.people[2].phone) == ("", "")
    assert (event.league, event.season, event.title) == (
        "Tuesday Club",
        "2024",
        "Tuesday Deepstack",
    )
    assert event.start_at.year == 2024
    # Players on the list who never bought in are not part of the event.
    assert "f" not in {p.file_id for p in read("finished_v3_4.tdt").people}


def tournament(body: str) -> str:
    return '{V: "3.4.3", T: new Tournament({Title: "x", ' + body + "})}"


def player(buyins: str, name: str = 'Nickname: "Ann"') -> str:
    return (
        'Players: new GamePlayers({Players: new Map({"p": new GamePlayer({UUID: "p", '
        f"Name: new PlayerName({{{name}}}), Buyins: [{buyins}], AddOns: []}})}})}})"
    )


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (player("new GameBuyin({Amount: -5})"), "bad_amount"),
        (player("new GameBuyin({Amount: 1e30})"), "bad_amount"),
        (player('new GameBuyin({Amount: "ten"})'), "bad_number"),
        (player("new GameBuyin({Amount: 10, Rake: new PerPlayerRake([20])})"), "bad_amount"),
        (player("new GameBuyin({Time: 99})"), "bad_time"),
        (player("new GameBuyin({Chips: 1.5})"), "bad_count"),
        (player("5"), "shape"),
        (player("new GameBuyin({})", 'Nickname: "  "'), "player_no_name"),
        ("Levels: [new GameLevel({Minutes: 0, SmallBlind: 1, BigBlind: 2})]", "bad_level"),
        ("Levels: [new GameLevel({Minutes: 10, SmallBlind: 5, BigBlind: 2})]", "bad_level"),
        (
            "Levels: [new GameLevel({Minutes: 10, SmallBlind: 5, BigBlind: 10}), "
            "new GameLevel({Minutes: 10, SmallBlind: 2, BigBlind: 4})]",
            "bad_level",
        ),
        ("Levels: 3", "shape"),
        ("Prizes: [new GamePrize({Place: 1, Amount: -1})]", "bad_amount"),
    ],
)
def test_content_that_makes_no_sense_is_refused_with_a_code(body, code):
    with pytest.raises(td3.Td3Error) as refused:
        td3_event.event_read(tournament(body))
    assert refused.value.code == code


def test_a_damaged_file_keeps_the_readers_code_and_place():
    with pytest.raises(td3.Td3Error) as refused:
        td3_event.event_read('{V: "3.7", T: new Tournament({Title: "x" "y"})}')
    assert refused.value.code == "unreadable"
    assert (refused.value.line, refused.value.column) == (1, 42)


def test_nul_characters_and_long_names_are_cut_to_what_the_columns_take():
    event = td3_event.event_read(
        tournament(player("new GameBuyin({})", f'Nickname: "A\\u0000{"b" * 300}"'))
    )
    assert event.people[0].name == "A" + "b" * 119


def test_every_part_a_refusal_points_to_is_named_in_english_and_german():
    assert set(TD3_PARTS) == set(td3_event.PARTS)
    part = td3_event.Part("buyin", player="7", number=2)
    assert td3_part(part) == str(part) == "buy-in 2 of player 7"
    with translation.override("de"):
        assert td3_part(part) == "Buy-in 2 von Spieler 7"
