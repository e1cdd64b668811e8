"""The Tournament Director's save files are read by a grammar and never run (issue 22):
each version's shape, the text encodings, and damaged or hostile files refused with
where reading stopped. The files in td3/ are written for these tests (invented people)."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.engine import td3

FILES = Path(__file__).parent / "td3"


def saved(name: str) -> dict:
    return td3.parse((FILES / name).read_bytes())


def busts(player: td3.Built) -> int:
    return sum(1 for buyin in player.fields["Buyins"] if "BustOut" in buyin.fields)


@pytest.mark.parametrize(
    ("name", "version", "title", "players", "buyins", "bust_outs"),
    [
        ("v3_0.tdt", "3.0", "Dienstag Freezeout", 2, 2, 1),
        ("v3_4.tdt", "3.4.3", 'Thursday "Deep" Stack', 3, 4, 2),
        ("v3_7.tdt", "3.7.2", "Friday 20241122", 2, 2, 1),
    ],
)
def test_each_versions_file_reads_with_its_players_buyins_and_bust_outs(
    name, version, title, players, buyins, bust_outs
):
    save = saved(name)
    assert save["V"] == version
    assert save["T"].kind == "Tournament"
    assert save["T"].fields["Title"] == title
    found = td3.game_players(save)
    assert len(found) == players
    assert sum(len(p.fields["Buyins"]) for p in found.values()) == buyins
    assert sum(busts(p) for p in found.values()) == bust_outs


def test_names_come_through_in_either_encoding_and_escapes_resolve():
    # 3.0 saved in the Windows code page, 3.4 in UTF-8 with \\u escapes, 3.7 with a BOM.
    players = td3.game_players(saved("v3_0.tdt")).values()
    names = {player.fields["Name"].fields["Nickname"] for player in players}
    assert names == {"Åsa L", "Göran"}
    three_four = td3.game_players(saved("v3_4.tdt"))
    assert three_four["b"].fields["Name"].fields["Nickname"] == "Noor Å"
    formula = saved("v3_7.tdt")["T"].fields["Financials"].fields["PointsForPlaying"]
    assert formula.fields["Text"] == 'assign ("points", 1)\nIF (r < 3, assign("points", 5))'


def test_the_notations_values_become_pythons():
    save = saved("v3_7.tdt")["T"].fields
    assert save["Stake"] is None and save["Gone"] is None
    assert save["Overlay"].kind == "LO.OverlayPropSet"
    prizes = saved("v3_4.tdt")["T"].fields["Prizes"]
    assert [prize.fields["Amount"] for prize in prizes] == [600.5, 150.0]
    assert td3.parse('{V: "3.7", T: new Tournament({A: [], B: [null], C: -3, D: .5})}')[
        "T"
    ].fields == {"A": [], "B": [None], "C": -3, "D": 0.5}


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ('{ V: "3.7.2", T: new Tournament({Title: "x" "y"}) }', 1, 45),  # a comma missing
        ('{ V: "3.7.2",\n  T: new Tournament({Title: "x"})\n  ; alert(1) }', 3, 3),
        ("(function () { return 1 })()", 1, 1),  # code, not a value
        ('{ V: "3.7.2", T: new Tournament({Title: `template ${1}`}) }', 1, 41),  # code again
    ],
)
def test_a_damaged_or_hostile_file_is_refused_with_where_reading_stopped(text, line, column):
    with pytest.raises(td3.Td3Error) as refused:
        td3.parse(text)
    assert (refused.value.line, refused.value.column) == (line, column)


def test_a_file_cut_off_is_refused_as_such():
    whole = (FILES / "v3_7.tdt").read_bytes()
    for length in (10, len(whole) // 2, len(whole) - 1):
        with pytest.raises(td3.Td3Error, match="cut off"):
            td3.parse(whole[:length])


def test_a_file_without_a_tournament_is_refused():
    for text in ('{ V: "3.7.2" }', "[1, 2, 3]", '{ V: "3.7", T: new Clock({}) }', '"x"'):
        with pytest.raises(td3.Td3Error, match="no tournament"):
            td3.parse(text)


def test_too_deep_or_too_large_is_refused_before_reading(monkeypatch):
    deep = '{V: "3.7", T: new Tournament({A: ' + "[" * 100_000 + "]" * 100_000 + "})}"
    with pytest.raises(td3.Td3Error, match="deeper"):
        td3.parse(deep)
    monkeypatch.setattr(td3, "MAX_BYTES", 1_000)
    with pytest.raises(td3.Td3Error, match="larger"):
        td3.parse(b" " * 1_001)


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = '{V: "3.7", T: new Tournament({Title: "' + "[{(" * 200 + '"})}'
    assert td3.parse(text)["T"].fields["Title"] == "[{(" * 200


ORIGINAL = (FILES / "v3_4.tdt").read_bytes()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cuts=st.lists(
        st.tuples(
            st.integers(0, len(ORIGINAL)),
            st.integers(0, 40),
            st.binary(max_size=6),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_a_broken_file_is_read_or_refused_never_a_crash(cuts):
    data = bytearray(ORIGINAL)
    for at, length, insert in cuts:
        data[at : at + length] = insert
    try:
        save = td3.parse(bytes(data))
    except td3.Td3Error:
        return
    assert save["T"].kind == "Tournament"


@pytest.mark.parametrize(
    ("name", "counts", "places"),
    [
        ("v3_0.tdt", (2, 2, 0, 0, 1), {"p-1": 2, "p-2": 1}),
        ("v3_4.tdt", (3, 4, 1, 1, 2), {"c": 3}),  # two still in: only the one out has a place
        ("v3_7.tdt", (2, 2, 0, 0, 1), {"x-1": 2, "x-2": 1}),
    ],
)
def test_the_summary_counts_players_entries_reentries_addons_bust_outs_and_places(
    name, counts, places
):
    found = td3.summary(saved(name))
    assert (
        found.players,
        found.entries,
        found.reentries,
        found.addons,
        found.bust_outs,
    ) == counts
    assert found.places == places
    assert found.finished == (1 in places.values())


def test_the_later_out_finishes_higher_and_a_reentry_counts_its_last_bust_out():
    def player(*busts):
        buyins = [
            td3.Built(
                "GameBuyin", ({} if t is None else {"BustOut": td3.Built("B", ({"Time": t},))},)
            )
            for t in busts
        ]
        return td3.Built("GamePlayer", ({"Buyins": buyins},))

    places = td3.finishing_places(
        {"ann": player(100, None), "bo": player(300), "cy": player(200), "di": player(400)}
    )
    assert places == {"ann": 1, "di": 2, "bo": 3, "cy": 4}


def nickname(text: str) -> str:
    return td3.parse('{V: "3.7.2", T: new Tournament({N: "' + text + '"})}')["T"].fields["N"]


def test_escapes_read_as_javascript_reads_them():
    assert nickname(r"Jo\u00EBl \x41nna \"Ace\" \\o/") == 'Joël Anna "Ace" \\o/'
    # An emoji is two \u escapes in JavaScript's strings: one character here.
    assert nickname(r"Kim \ud83c\udca1") == "Kim 🂡"


@pytest.mark.parametrize("text", [r"\ud83c alone", r"\u00E", r"\x4", r"\u 0041"])
def test_a_broken_escape_is_refused(text):
    with pytest.raises(td3.Td3Error, match="escape"):
        nickname(text)
