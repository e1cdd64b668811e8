"""Every form on every page filled in badly, and every address asked with bad query
parameters: no answer is a 500.

The API has schemathesis (test_api_fuzz.py); the pages have this. A director opens every
page of the security world (security_world.py) and every form on it, GET or POST, is
sent with each of the PAYLOADS below in all of its fields: empty, negative, huge, not a
number, a NUL byte, an overflowing float, a date in year 1, far too long. The form's
hidden fields and buttons are kept (so the view goes down the branch it was written
for), and spoilt too for SPOILT_HIDDEN. The world is made once for the module; each
request is rolled back, so every form meets the same world. A form's answer may be a
400 with the errors, a 409, a redirect: any status below 500. Then every page and API
endpoint is asked with every query parameter the code reads, all set to each of
QUERY_PAYLOADS at once.
"""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest

from floorman.tests.security_world import build_world, client_for, rolled_back, routes
from floorman.tests.worlds import world_fixtures

pytestmark = pytest.mark.django_db

PAYLOADS = (
    "",
    "-1",
    "9" * 40,
    "abc",
    "1\x00",
    "1e309",
    "0001-01-01T00:00",
    "x" * 5000,
)
# With the hidden fields and the buttons spoilt as well (these choose the view's branch,
# so the rest of PAYLOADS would meet the same early refusal); and in the query strings.
SPOILT_HIDDEN = ("", "abc", "9" * 40)
QUERY_PAYLOADS = ("-1", "9" * 40, "abc\x00", "x" * 5000)
SKIP_PREFIXES = ("/api/", "/admin/", "/static/", "/ws/")
SKIP_ACTIONS = ("/logout/",)  # would end the director's session for the forms after it


@dataclass
class Form:
    method: str
    action: str
    fields: list[str] = field(default_factory=list)  # the ones a person fills in
    kept: dict[str, str] = field(default_factory=dict)  # hidden fields and the button


class Forms(HTMLParser):
    """The forms of a page: their method, action and field names."""

    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.form = Form((attrs.get("method") or "get").lower(), attrs.get("action") or "")
            self.forms.append(self.form)
            return
        name = attrs.get("name")
        if self.form is None or not name:
            return
        kind = (attrs.get("type") or "").lower()
        if tag == "input" and kind == "hidden" or tag == "button" and kind != "button":
            self.form.kept.setdefault(name, attrs.get("value") or "")
        elif tag in ("input", "select", "textarea"):
            self.form.fields.append(name)

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None


def forms_on(client, path: str) -> list[Form]:
    response = rolled_back(client, lambda: client.get(path))
    if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
        return []
    parser = Forms()
    parser.feed(response.content.decode())
    return parser.forms


def send(client, form: Form, page: str, data: dict):
    target = urljoin(page, form.action)
    if form.method == "post":
        return rolled_back(client, lambda: client.post(target, data))
    return rolled_back(client, lambda: client.get(urlsplit(target).path, data))


# The forms' requests are dealt out to this many tests (each ~1/SHARDS of the ~2,000
# requests), so that no one test runs for minutes; together they send what one test sent.
SHARDS = 8

world_made, world = world_fixtures(build_world)


@pytest.fixture(scope="module")
def director(world_made):
    """The director's browser, signed in once for the module (its session is rolled back
    with the module's world)."""
    client = client_for(world_made, "director")
    client.raise_request_exception = False  # a 500 is collected, not raised
    return client


@pytest.fixture(scope="module")
def forms_found(world_made, director) -> list[tuple[str, Form]]:
    """Every form on every page of the world, once for each kind: the same form for
    every entry or table is one form."""
    pages = sorted({r.path for r in routes(world_made.ids) if not r.path.startswith(SKIP_PREFIXES)})
    found, seen = [], set()
    for page in pages:
        for form in forms_on(director, page):
            target = urlsplit(urljoin(page, form.action)).path
            kind = (form.method, re.sub(r"\d+", "#", target), tuple(sorted(form.fields)))
            if target.endswith(SKIP_ACTIONS) or kind in seen:
                continue
            seen.add(kind)
            found.append((page, form))
    return found


def bad_requests(form: Form) -> list[tuple[str, dict]]:
    """Each of PAYLOADS in all of the form's fields; for SPOILT_HIDDEN, once more with the
    hidden fields and buttons spoilt too."""
    requests = []
    for value in PAYLOADS:
        spoilt = dict.fromkeys(form.fields, value)
        requests.append((value, {**spoilt, **form.kept}))
        if value in SPOILT_HIDDEN:
            requests.append((value, {**spoilt, **dict.fromkeys(form.kept, value)}))
    return requests


def test_the_pages_have_their_forms(forms_found):
    sent = sum(len(bad_requests(form)) for _page, form in forms_found)

    assert sent > 300, f"only {sent} requests: did the pages lose their forms?"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_form_on_any_page_answers_a_badly_filled_in_request_with_a_500(
    forms_found, director, world, shard
):
    problems = []

    for page, form in forms_found[shard::SHARDS]:
        for value, data in bad_requests(form):
            response = send(director, form, page, data)
            if response.status_code >= 500:
                problems.append(f"{form.method} {form.action or page} {value[:12]!r}")

    assert not problems, "\n".join(sorted(set(problems)))


# Every query parameter a page or endpoint reads (request.GET, query_params), at once.
QUERY_NAMES = (
    "q", "page", "action", "venue", "to", "next", "name", "entry", "actor", "year", "week",
    "term", "table", "t", "steps", "p", "month", "layout", "incident", "every", "columns",
    "rows", "day", "category", "calculator", "alternate", "status", "format", "lang",
)  # fmt: skip


def test_no_page_or_endpoint_answers_bad_query_parameters_with_a_500(director, world):
    paths = sorted({r.path for r in routes(world.ids) if not r.path.startswith(SKIP_PREFIXES[2:])})
    problems = []

    for path in paths:
        if path.endswith(SKIP_ACTIONS):
            continue
        for value in QUERY_PAYLOADS:
            query = dict.fromkeys(QUERY_NAMES, value)
            response = rolled_back(director, lambda: director.get(path, query))  # noqa: B023
            if response.status_code >= 500:
                problems.append(f"GET {path} {value[:12]!r}")

    assert len(paths) > 200
    assert not problems, "\n".join(problems)
