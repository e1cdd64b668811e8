"""An event with flights on a page (issue 17, item 6): a flight names its event and links
to it; the event lists its flights (entries, survivors) and the chip counts of the bags.

The lobby screen (web.screens), the seat lookup (seating.views.public) and the event's
page show it alike: `{% festival_part tournament "seats:lookup" %}`, the address of each
tournament's page of that kind. Public: names and chip counts only, never contact data.
"""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import CHIP_LEADERS, event_overview

register = template.Library()

# A phone shows every bag of a big field up to this many (the biggest first).
PHONE_CHIP_COUNTS = 200


@register.filter
def flight_label(name: str) -> str:
    """ "1B" as a room says it, "Day 1B"; a name of the house's own ("Turbo") as it is."""
    return _("Day %(flight)s") % {"flight": name} if name[:1].isdigit() else name


def festival_view(
    tournament: Tournament,
    *,
    link: str = "",
    leaders: int = CHIP_LEADERS,
    event_totals: bool = False,
) -> dict | None:
    """What a page shows of the tournament's place in a festival, or None: a flight's
    label and its event (with the event's entries in all where `event_totals` asks for
    them); an event's flights and chip counts (tournaments.selectors.event_overview).
    `link` names the page of each tournament to link to. A page that has annotated
    `has_flights` (selectors.flights_flagged) asks nothing more of an event without them."""
    if tournament.parent_id is not None:
        event = tournament.parent
        overview = event_overview(event, leaders=0) if event_totals else None
        rows = overview["flights"] if overview else []
        own = next((row for row in rows if row["id"] == tournament.pk), None)
        return {
            "flight": {
                "label": flight_label(tournament.flight_name),
                "event": event.name,
                "url": reverse(link, args=[event.pk]) if link else "",
            },
            "entries": own["entries"] if own else None,
            "event_entries": overview["entries"] if overview else None,
        }
    if not getattr(tournament, "has_flights", True):
        return None
    overview = event_overview(tournament, leaders=leaders)
    if overview is None:
        return None
    statuses = dict(TournamentStatus.choices)
    for row in overview["flights"]:
        row["label"] = flight_label(row["name"])
        row["status_label"] = statuses.get(row["status"], row["status"])
        row["url"] = reverse(link, args=[row["id"]]) if link else ""
    for row in overview["chip_leaders"]:
        row["flight_label"] = flight_label(row["flight"])
    return {"overview": overview, "more_bags": len(overview["chip_leaders"]) >= leaders}


@register.inclusion_tag("tournaments/_festival.html")
def festival_part(tournament: Tournament, link: str, leaders: int = PHONE_CHIP_COUNTS) -> dict:
    """The festival part of a public page (the seat lookup, the event's page)."""
    return {"festival": festival_view(tournament, link=link, leaders=leaders)}
