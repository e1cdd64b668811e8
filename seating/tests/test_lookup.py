"""The seat lookup's in-memory index (seating.engine.lookup) and its cache, without a database."""

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


def test_mueller_finds_both_spellings_in_field_order():
    assert names(FIELD.by_name(*name_keys("Müller"), 20)) == ["Jürgen Müller", "Hans Mueller"]
    assert names(FIELD.by_name(*name_keys("muller"), 20)) == ["Jürgen Müller"]


def test_a_name_that_appears_twice_in_a_row_is_listed_once():
    field = FieldIndex([row(1, "Anna Anna"), row(2, "Anneliese")])
    assert names(field.by_name(*name_keys("ann"), 20)) == ["Anna Anna", "Anneliese"]


def test_a_search_never_matches_across_two_names():
    # "berg" ends one name and "jurgen" starts the next: "bergjurgen" is nobody's name.
    assert FIELD.by_name(*name_keys("berg jurgen"), 20) == []
    assert FIELD.by_name(*name_keys("gj"), 20) == []


def test_short_and_long_queries_find_the_same_rows_as_a_scan():
    assert names(FIELD.by_name(*name_keys("ü"), 20)) == ["Jürgen Müller", "Hans Mueller"]
    assert names(FIELD.by_name(*name_keys("mü"), 20)) == ["Jürgen Müller", "Hans Mueller"]
    assert names(FIELD.by_name(*name_keys("hans mu"), 20)) == ["Hans Mueller"]


def test_limit_keeps_the_first_in_order():
    assert names(FIELD.by_name(*name_keys("e"), 2)) == ["Anna Berg", "Jürgen Müller"]


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
