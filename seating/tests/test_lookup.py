"""The seat lookup's in-memory index (seating.engine.lookup) and its cache, without a database."""

import random

from hypothesis import given
from hypothesis import strategies as st

from floorman.names import name_keys
from seating.engine.lookup import FieldIndex, Row
from seating.lookup import IndexCache


def row(entry: int, name: str, *, status: str = "active", table=1, seat=1) -> Row:
    key, plain = name_keys(name)
    return Row(entry, entry, name, status, table, seat, key, plain)


FIELD = FieldIndex(
    [
        row(1, "Anna Berg", seat=1),
        row(2, "Jürgen Müller", seat=2),
        row(3, "Hans Mueller", seat=3),
        row(4, "Bea Nagel", status="busted", table=None, seat=None),
    ]
)


def names(rows) -> list[str]:
    return [r.name for r in rows]


def test_mueller_finds_both_spellings_alphabetically():
    assert names(FIELD.by_name(*name_keys("Müller"), 20)) == ["Hans Mueller", "Jürgen Müller"]
    assert names(FIELD.by_name(*name_keys("muller"), 20)) == ["Jürgen Müller"]


def test_a_name_that_appears_twice_in_a_row_is_listed_once():
    field = FieldIndex([row(1, "Anna Anna"), row(2, "Anneliese")])
    assert names(field.by_name(*name_keys("ann"), 20)) == ["Anna Anna", "Anneliese"]


def test_a_search_never_matches_across_two_names():
    # "berg" ends one name and "jurgen" starts the next: "bergjurgen" is nobody's name.
    assert FIELD.by_name(*name_keys("berg jurgen"), 20) == []
    assert FIELD.by_name(*name_keys("gj"), 20) == []


def test_short_and_long_queries_find_the_same_rows_as_a_scan():
    assert names(FIELD.by_name(*name_keys("ü"), 20)) == ["Hans Mueller", "Jürgen Müller"]
    assert names(FIELD.by_name(*name_keys("mü"), 20)) == ["Hans Mueller", "Jürgen Müller"]
    assert names(FIELD.by_name(*name_keys("hans mu"), 20)) == ["Hans Mueller"]


def test_limit_keeps_the_first_in_order():
    assert names(FIELD.by_name(*name_keys("e"), 2)) == ["Anna Berg", "Hans Mueller"]


def test_entry_number_finds_exactly_that_entry():
    assert names(FIELD.by_entry_number(4, 20)) == ["Bea Nagel"]
    assert FIELD.by_entry_number(99, 20) == []


def test_public_row_shows_no_search_keys():
    assert FIELD.rows[0].public() == {
        "entry": 1,
        "number": 1,
        "name": "Anna Berg",
        "status": "active",
        "table": 1,
        "seat": 1,
    }


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_cache_rebuilds_when_the_version_moves_on_and_forgets_the_oldest():
    cache, built = IndexCache(size=2), []

    def get(tournament: int, version: int):
        def build():
            built.append(f"{tournament} v{version}")
            return FieldIndex([])

        return cache.get(
            tournament, version=(version, "t"), read_version=None, build=build, max_age=0
        )

    first = get(1, 0)
    assert get(1, 0) is first
    get(1, 1)
    get(2, 0)
    get(3, 0)  # three tournaments: 1 is the oldest, dropped
    get(1, 1)
    assert built == ["1 v0", "1 v1", "2 v0", "3 v0", "1 v1"]


def test_cache_reads_the_version_at_most_once_per_max_age():
    clock, reads, version = Clock(), [], [0]
    cache = IndexCache(clock=clock)

    def get():
        def read_version():
            reads.append(clock.now)
            return (version[0], "t")

        return cache.get(
            7, version=None, read_version=read_version, build=lambda: FieldIndex([]), max_age=0.25
        )

    first = get()
    clock.now += 0.2
    version[0] = 1  # a change is committed...
    assert get() is first  # ...but within the window the index it has answers
    clock.now += 0.1
    assert get() is not first  # past the window: the new version rebuilds
    assert reads == [100.0, 100.3]


def test_cache_says_none_for_an_unknown_tournament():
    cache = IndexCache()
    unknown = cache.get(
        7, version=None, read_version=lambda: None, build=lambda: FieldIndex([]), max_age=1
    )
    assert unknown is None


@given(
    st.lists(st.text(alphabet="abcü ", min_size=1, max_size=12), min_size=1, max_size=30),
    st.text(alphabet="abcü ", min_size=1, max_size=5),
    st.integers(min_value=1, max_value=5),
)
def test_index_finds_what_a_plain_substring_search_finds(field_names, query, limit):
    field = FieldIndex([row(n, name) for n, name in enumerate(field_names)])
    key, plain = name_keys(query)
    expected = [
        r.name
        for r in field.rows
        if not key or not plain or key in r.name_key or plain in r.name_plain
    ]
    assert names(field.by_name(key, plain, limit)) == expected[:limit]


# --- Updating the index (FieldIndex.apply) -----------------------------------------------

NAMES = ["Anna Berg", "Jürgen Müller", "Hans Mueller", "Bea Nagel", "Ann Annson", "Zoë Ürgen"]


def index_state(field: FieldIndex) -> tuple:
    """Everything a search reads, to compare an updated index with a rebuilt one."""
    return (
        field.by_key,
        field.key_of,
        field.order,
        field.by_number,
        field.keys.texts,
        field.keys.grams,
        field.plain.texts,
        field.plain.grams,
    )


def random_row(rng, entry: int) -> Row:
    name = f"{rng.choice(NAMES)} {rng.choice(['', 'Jr', str(entry % 7)])}".strip()
    key, plain = name_keys(name)
    seated = rng.random() < 0.7
    return Row(
        entry,
        rng.randint(1, 40),  # numbers repeat, as the index must bear
        name,
        rng.choice(["active", "active", "busted", "disqualified"]),
        rng.randint(1, 5) if seated else None,
        rng.randint(1, 9) if seated else None,
        key,
        plain,
    )


@given(st.integers(min_value=0, max_value=10_000))
def test_an_updated_index_is_the_index_rebuilt_with_the_changed_rows(seed):
    """Busts, moves, new entries, renames and entries gone, a few at a time, applied one
    update after another: each time the index a full rebuild of the field gives."""
    rng = random.Random(seed)
    rows = {entry: random_row(rng, entry) for entry in range(rng.randint(0, 30))}
    updated = FieldIndex(rows.values())
    for _ in range(8):
        changes: dict[int, Row | None] = {}
        for _ in range(rng.randint(1, 6)):
            entry = rng.randint(0, 40)  # some known, some new, some never there
            changes[entry] = None if rng.random() < 0.25 else random_row(rng, entry)
        updated.apply(changes)
        for entry, row in changes.items():
            if row is None:
                rows.pop(entry, None)
            else:
                rows[entry] = row
        rebuilt = FieldIndex(rows.values())
        assert index_state(updated) == index_state(rebuilt)
        for query in ("a", "mu", "muell", "ann", "ürg", "jr", ""):
            key, plain = name_keys(query)
            assert updated.by_name(key, plain, 3) == rebuilt.by_name(key, plain, 3)


def field_of_four() -> FieldIndex:
    return FieldIndex(FIELD.rows)


def test_a_bust_moves_the_player_among_the_busted_and_off_the_seat():
    busted = row(2, "Jürgen Müller", status="busted", table=None, seat=None)
    field = field_of_four()
    field.apply({2: busted})
    assert field.by_entry_number(2, 20) == [busted]
    assert names(field.by_name(*name_keys("e"), 20)) == [
        "Anna Berg",
        "Hans Mueller",
        "Bea Nagel",
        "Jürgen Müller",
    ]


def test_an_entry_gone_is_found_no_more():
    field = field_of_four()
    field.apply({3: None, 99: None})
    assert names(field.by_name(*name_keys("mueller"), 20)) == ["Jürgen Müller"]
    assert field.by_entry_number(3, 20) == []


def test_cache_updates_the_index_it_has_and_rebuilds_when_the_update_cannot():
    cache, calls = IndexCache(), []

    def get(version: int, can_update: bool):
        def update(since, now):
            calls.append(f"update {since[0]}->{now[0]}")
            return {} if can_update else None

        def build():
            calls.append(f"build v{version}")
            return FieldIndex([])

        return cache.get(
            7, version=(version, "t"), read_version=None, build=build, update=update, max_age=0
        )

    get(0, True)
    get(2, True)
    get(2, True)
    get(1, True)  # a request that read the version before another updated the index
    get(5, False)
    assert calls == ["build v0", "update 0->2", "update 2->5", "build v5"]


def test_cache_rebuilds_an_index_whose_update_failed_halfway():
    cache, built = IndexCache(), []

    def build():
        built.append(len(built))
        return FieldIndex([row(1, "Anna Berg")])

    def get(version: int, update):
        return cache.get(
            7, version=(version, "t"), read_version=None, build=build, update=update, max_age=0
        )

    get(0, None)
    broken = Row(2, 2, "Bea Nagel", "active", 1, 2, None, None)  # no search keys: apply fails
    index = get(1, lambda since, now: {2: broken})
    assert built == [0, 1]
    assert names(index.by_name(*name_keys("anna"), 20)) == ["Anna Berg"]
