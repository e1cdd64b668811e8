"""The director's pages for events made from other events: copy an event, save it as an
event template, the list of templates, start an event from one, delete one. A refusal
shows on the page with its status and writes nothing."""

from datetime import date, datetime, timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from clock.models import Clock
from clock.tests.factories import with_structure
from prizes.models import EventTemplate
from prizes.services import events
from prizes.views.events import _next_week
from seating.models import Table
from seating.tests.factories import add_tables
from tournaments.models import Tournament
from tournaments.tests.factories import field, staff, tournament

pytestmark = pytest.mark.django_db

START = "2026-12-05T19:30"


@pytest.fixture
def director(client):
    client.force_login(staff("director"))
    return client


def html(response) -> str:
    return response.content.decode()


def copy_url(event) -> str:
    return reverse("tournaments:copy", args=[event.pk])


def flashed(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_event_page_offers_the_copy_to_the_director_even_once_finished(director):
    event = tournament(name="Saturday Deepstack", status="finished")

    page = html(director.get(reverse("tournaments:detail", args=[event.pk])))

    assert copy_url(event) in page and "Copy the event…" in page


def test_copy_page_suggests_the_same_name_a_week_on_and_says_what_is_copied(director):
    event = tournament(name="Saturday Deepstack", start_at=timezone.now() - timedelta(days=2))

    response = director.get(copy_url(event))

    page = html(response)
    start = timezone.make_aware(response.context["copy_form"]["start_at"].value())
    assert response.status_code == 200
    assert 'value="Saturday Deepstack"' in page
    assert start.weekday() == timezone.localtime(event.start_at).weekday()
    assert timezone.now() < start <= timezone.now() + timedelta(days=7)
    assert "Never the entries, players, hands, payments or results." in page
    assert 'name="tables"' in page and 'id="id_tables" checked' in page


def test_copy_suggests_the_same_time_on_the_venue_clock_across_summer_time():
    saturday = timezone.make_aware(datetime(2030, 3, 30, 19, 30))  # the day before CEST

    suggested = _next_week(saturday)

    assert (suggested.date(), suggested.hour, suggested.minute) == (date(2030, 4, 6), 19, 30)


def test_copy_makes_the_event_and_opens_it(director):
    event = tournament(name="Saturday Deepstack", buy_in=5000)
    with_structure(event)
    field(event, 3)

    response = director.post(copy_url(event), {"name": "Saturday Deepstack II", "start_at": START})

    copy = Tournament.objects.get(name="Saturday Deepstack II")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=[copy.pk])
    assert flashed(response) == [
        "“Saturday Deepstack II” created as a copy: check its start and open registration."
    ]
    assert (copy.buy_in, copy.status, copy.entries.count()) == (5000, "planned", 0)
    assert timezone.localtime(copy.start_at).strftime("%Y-%m-%dT%H:%M") == START
    assert Clock.objects.get(pk=copy.pk).structure_id != Clock.objects.get(pk=event.pk).structure_id


def test_copy_without_the_tables_when_unticked(director):
    event = tournament(name="Tonight")
    add_tables(event, 2)  # still in play tonight

    refused = director.post(
        copy_url(event), {"name": "Next week", "start_at": START, "tables": "on"}
    )
    made = director.post(copy_url(event), {"name": "Next week", "start_at": START})

    assert refused.status_code == 409
    assert "Tables 1, 2 are in play in another tournament" in html(refused)
    assert made.status_code == 302
    copy = Tournament.objects.get(name="Next week")
    assert not Table.objects.filter(tournament=copy).exists()


@pytest.mark.parametrize(
    ("data", "field_name"),
    [
        ({"name": "", "start_at": START}, "name"),
        ({"name": "\u200b", "start_at": START}, "name"),
        ({"name": "Next", "start_at": ""}, "start_at"),
        ({"name": "Next", "start_at": "1850-01-01T19:00"}, "start_at"),
        ({"name": "Next", "start_at": "yesterday"}, "start_at"),
    ],
)
def test_copy_with_bad_input_answers_400_with_the_field_and_writes_nothing(
    director, data, field_name
):
    event = tournament()
    count = Tournament.objects.count()

    response = director.post(copy_url(event), data)

    assert response.status_code == 400
    assert response.context["copy_form"].errors[field_name]
    assert Tournament.objects.count() == count


def test_save_as_template_lists_it_and_replaces_one_of_the_same_name(director):
    event = tournament(name="Saturday Deepstack", buy_in=5000, fee=500, starting_stack=30000)
    with_structure(event)
    add_tables(event, 3)
    save_url = reverse("tournaments:event-template-save", args=[event.pk])

    first = director.post(save_url, {"name": "Saturday"})
    again = director.post(save_url, {"name": "Saturday"})
    page = html(director.get(reverse("tournaments:event-templates")))

    assert first["Location"] == reverse("tournaments:event-templates")
    assert flashed(first) == ["Event saved as the template “Saturday”."]
    assert flashed(again)[-1] == "Event template “Saturday” replaced with this event."
    assert EventTemplate.objects.count() == 1
    assert "Saturday" in page and "from Saturday Deepstack" in page
    assert "€50.00 + €5.00" in page and "30,000" in page
    template = EventTemplate.objects.get()
    assert reverse("tournaments:event-template-start", args=[template.pk]) in page


def test_save_as_template_without_a_name_answers_400(director):
    event = tournament()

    response = director.post(
        reverse("tournaments:event-template-save", args=[event.pk]), {"name": " "}
    )

    assert response.status_code == 400
    assert response.context["save_form"].errors["name"]
    assert not EventTemplate.objects.exists()


def test_template_list_queries_do_not_grow_with_templates(director, django_assert_max_num_queries):
    event = tournament()
    add_tables(event, 2)
    events.event_template_save(actor=None, tournament_id=event.pk, name="One")
    with django_assert_max_num_queries(6) as one:
        director.get(reverse("tournaments:event-templates"))
    for name in ("Two", "Three", "Four"):
        events.event_template_save(actor=None, tournament_id=event.pk, name=name)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = director.get(reverse("tournaments:event-templates"))

    assert html(response).count("Start an event from") == 4


def test_event_started_from_a_template(director):
    event = tournament(name="Sunday PLO", game="plo", buy_in=3000)
    template = events.event_template_save(actor=None, tournament_id=event.pk, name="Sunday PLO")
    start_url = reverse("tournaments:event-template-start", args=[template.pk])

    form_page = director.get(start_url)
    response = director.post(start_url, {"name": "Sunday PLO 14", "start_at": START})

    assert 'value="Sunday PLO"' in html(form_page)
    made = Tournament.objects.get(name="Sunday PLO 14")
    assert response["Location"] == reverse("tournaments:detail", args=[made.pk])
    assert (made.game, made.buy_in) == ("plo", 3000)


def test_event_from_a_template_refused_shows_why_and_writes_nothing(director):
    event = tournament()
    add_tables(event, 1)
    template = events.event_template_save(actor=None, tournament_id=event.pk, name="Weekly")
    count = Tournament.objects.count()

    response = director.post(
        reverse("tournaments:event-template-start", args=[template.pk]),
        {"name": "Weekly", "start_at": START, "tables": "on"},
    )

    assert response.status_code == 409
    assert "Tables 1 are in play in another tournament" in html(response)
    assert Tournament.objects.count() == count


def test_template_deleted_after_asking(director):
    event = tournament()
    template = events.event_template_save(actor=None, tournament_id=event.pk, name="Weekly")
    delete_url = reverse("tournaments:event-template-delete", args=[template.pk])

    question = director.get(delete_url)
    response = director.post(delete_url)

    assert "Delete the event template “Weekly”?" in html(question)
    assert response["Location"] == reverse("tournaments:event-templates")
    assert not EventTemplate.objects.exists()
    assert flashed(response) == ["Event template “Weekly” deleted."]


def test_unknown_template_is_404(director):
    assert director.get(reverse("tournaments:event-template-start", args=[999])).status_code == 404
    assert (
        director.post(reverse("tournaments:event-template-delete", args=[999])).status_code == 404
    )
