"""What the flight pages and the tablet show of a flight's end: each survivor where they
sit, with their bag if it is counted (tournaments.selectors.flight_bag_check, with the
seats from seating)."""

from dataclasses import dataclass

from seating.models import Seat
from tournaments.models import Bag, Entry, Tournament
from tournaments.selectors import FlightBagCheck, flight_bag_check


@dataclass(frozen=True)
class BagRow:
    entry: Entry
    table: int | None
    seat: int | None
    bag: Bag | None


def bag_rows(flight: Tournament, report: FlightBagCheck, *, table: int | None = None) -> list:
    """The survivors by table and seat (those without a seat last), each with their bag;
    only one table's with `table`. One query besides the report's."""
    seats = Seat.objects.filter(table__tournament=flight, entry__isnull=False)
    if table is not None:
        seats = seats.filter(table__number=table)
    where = {
        entry_id: (t, s)
        for entry_id, t, s in seats.values_list("entry_id", "table__number", "number")
    }
    bags = {bag.entry_id: bag for bag in report.bags}
    rows = [
        BagRow(entry, *where.get(entry.pk, (None, None)), bags.get(entry.pk))
        for entry in report.survivors
        if table is None or entry.pk in where
    ]
    rows.sort(key=lambda r: (r.table is None, r.table or 0, r.seat or 0, r.entry.number))
    return rows


def bag_sheet_rows(flight: Tournament, report: FlightBagCheck) -> list:
    """One tag per bag, by bag number, with where its player sat."""
    where = dict(
        (entry_id, (t, s))
        for entry_id, t, s in Seat.objects.filter(
            table__tournament=flight, entry__isnull=False
        ).values_list("entry_id", "table__number", "number")
    )
    return [BagRow(bag.entry, *where.get(bag.entry_id, (None, None)), bag) for bag in report.bags]


def tablet_bags(flight: Tournament, table: int) -> dict | None:
    """The tablet's "Bag chips" step: once a flight has stopped and until its bags are
    confirmed, the survivors at this table with their bags; None otherwise (no query
    for a tournament that is no flight, or still plays)."""
    if not flight.is_flight or flight.status != "finished":
        return None
    report = flight_bag_check(flight)
    if report.flight_end is None or report.confirmed:
        return None
    return {"rows": bag_rows(flight, report, table=table)}
