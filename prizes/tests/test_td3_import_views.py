"""The director's import of Tournament Director files (issue 22): upload → review →
confirm, in English and German; nothing saved before the confirmation, which reads the
kept file again; a bad file or choice shows on the page with its status; the review's
queries do not grow with the players; staff other than directors are refused."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from prizes.models import EventTemplate, Td3Draft, Td3Import
from tournaments.models import Entry, Player, Tournament
from tournaments.tests.factories import staff

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[2] / "tournaments" / "tests" / "td3"
UPLOAD = reverse("tournaments:td3-upload")


@pytest.fixture
def director(client):
    client.force_login(staff("director"))
    return client


def upload(client, name: str, data: bytes | None = None):
    content = data if data is not None else (FILES / name).read_bytes()
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, content)})


def review_url(response) -> str:
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def test_upload_review_confirm_lands_on_the_results(director):
    response = upload(director, "finished_v3_7.tdt")
    url = review_url(response)
    assert Tournament.objects.count() == 0  # nothing saved before the confirmation
    page = director.get(url)
    text = page.content.decode()
    assert page.status_code == 200
    assert "Tuesday Deepstack" in text and "Tuesday Club" in text
    assert "no league points are computed" in text
    assert page.context["form"]["history"].value() is True
    posted = {f"player_{i}": "new" for i in range(4)} | {"history": "on"}
    done = director.post(url, posted)
    event = Tournament.objects.get()
    assert done.status_code == 302
    assert done["Location"] == reverse("tournaments:results", args=[event.pk])
    assert Entry.objects.filter(tournament=event).count() == 5
    assert not Td3Draft.objects.exists()
    results = director.get(done["Location"])
    assert results.status_code == 200 and "Piet Vos" in results.content.decode()


def test_the_review_proposes_a_player_of_the_same_name_and_the_director_may_pick_another(
    director,
):
    same = Player.objects.create(name="Jana Roth")
    other = Player.objects.create(name="Somebody")
    url = review_url(upload(director, "finished_v3_7.tdt"))
    form = director.get(url).context["form"]
    assert form["player_0"].value() == str(same.pk)
    posted = {f"player_{i}": "new" for i in range(4)} | {
        "player_0": str(same.pk),
        "other_1": str(other.pk),
        "history": "on",
    }
    assert director.post(url, posted).status_code == 302
    names = set(Entry.objects.values_list("player__name", flat=True))
    assert {"Jana Roth", "Somebody", "Lio", "Ren Mäki"} == names


def test_a_bad_choice_shows_with_400_and_saves_nothing(director):
    url = review_url(upload(director, "finished_v3_7.tdt"))
    posted = {f"player_{i}": "new" for i in range(4)} | {"other_2": "999999", "history": "on"}
    response = director.post(url, posted)
    assert response.status_code == 400
    assert "No player with this number." in response.content.decode()
    assert response.context["form"].errors["other_2"]
    neither = {f"player_{i}": "new" for i in range(4)}
    assert director.post(url, neither).status_code == 400
    assert Tournament.objects.count() == 0 and Td3Import.objects.count() == 0


def test_the_confirmation_reads_the_kept_file_not_the_form(director):
    url = review_url(upload(director, "v3_4.tdt"))  # unfinished: a template only
    posted = {f"player_{i}": "new" for i in range(3)} | {"history": "on", "template": "on"}
    response = director.post(url, posted)
    assert response.status_code == 302
    assert Tournament.objects.count() == 0  # "history" posted back is no field here
    assert EventTemplate.objects.get().name == 'Thursday "Deep" Stack'


def test_a_broken_file_is_refused_with_where_it_stopped(director):
    response = upload(director, "broken.tdt", b'{ V: "3.7.2",\n T: new Tournament({A: 1 2})}')
    assert response.status_code == 400
    assert "Line 2, column" in response.content.decode()
    assert not Td3Draft.objects.exists()


def test_a_file_imported_before_is_refused_with_409(director):
    url = review_url(upload(director, "v3_0.tdt"))
    assert (
        director.post(url, {"player_0": "new", "player_1": "new", "history": "on"}).status_code
        == 302
    )
    again = upload(director, "v3_0.tdt")
    assert again.status_code == 409
    assert "imported already" in again.content.decode()


def test_pages_in_german(director, settings):
    director.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = director.get(UPLOAD)
    assert page.status_code == 200 and 'lang="de"' in page.content.decode()
    url = review_url(upload(director, "finished_v3_4.tdt"))
    review = director.get(url).content.decode()
    assert "Spieler" in review and "Teilnahmen" in review and "Zurück" in review


def test_only_directors_and_only_their_own_draft(client):
    client.force_login(staff("floor"))
    assert client.get(UPLOAD).status_code == 403
    director = staff("director")
    client.force_login(director)
    url = review_url(upload(client, "v3_0.tdt"))
    client.force_login(staff("director"))
    assert client.get(url).status_code == 404


def test_the_review_reads_as_many_queries_for_more_players(director, django_assert_max_num_queries):
    # 2 players and 5 (one of them matched by name): the same handful of queries.
    Player.objects.create(name="Ola")
    for name in ("v3_0.tdt", "finished_v3_4.tdt"):
        url = review_url(upload(director, name))
        with django_assert_max_num_queries(7):
            assert director.get(url).status_code == 200
