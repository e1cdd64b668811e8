"""Who may open what: every URL pattern of the project against every kind of visitor.

DESIGN "People and permissions": directors may do everything, the floor, the cashier
and the dealer each one area of work (floorman/roles.py says which); lobby screens and
player pages are public and read-only and never show contact data.

The table EXPECTED below names, for every URL, the roles that may use each method,
written with the role sets of floorman/roles.py (a director is in every set, as
`user_has_role` makes it). Each URL is then asked by seven visitors:
- "anonymous": nobody signed in;
- "phone": a player's phone that opened the receipt's QR code and the seat lookup;
- "link": a dealer without an account, holding table 1's tablet link;
- "dealer", "cashier", "floor", "director": staff signed in with those roles.
Allowed: a GET answers 200 (a few answer another status of their own, see OK_STATUS);
any other method is not refused (it may still be a 400 or 409: these requests carry no
data). Refused: a page sends a visitor to the login page and answers a signed-in member
of staff 403; the API answers 401 and 403. A method the table does not give is refused
or 405 for everyone (or 429: the API's login counts every request). Writes are rolled
back after each request.

Every URL must be in the table, so a new page cannot go unchecked. No answer to
anybody not signed in may contain the email address or the phone number of a player.
"""

import pytest
from django.urls import reverse

from floorman import roles
from floorman.tests.security_world import (
    ANONYMOUS,
    CONTACT,
    EMAIL,
    PERSONAS,
    PHONE,
    build_world,
    client_for,
    rolled_back,
    routes,
)
from web.tablet.views import TABLET_LINKS

pytestmark = pytest.mark.django_db

ALL = "everyone"  # signed in or not


def staff(*sets: tuple[str, ...]) -> tuple[str, ...]:
    """The personas holding one of the roles: directors always (roles.user_has_role)."""
    held = {role for roles_ in sets for role in roles_} | {roles.DIRECTOR}
    return tuple(p for p in ("dealer", "cashier", "floor", "director") if p in held)


MANAGE = staff(roles.MANAGE_TOURNAMENTS)
REGISTER = staff(roles.REGISTER)
BUST = staff(roles.BUST)
CLOCK = staff(roles.CLOCK)
SEATING = staff(roles.SEATING)
TABLET = staff(roles.TABLET)
HAND_FOR_HAND = staff(roles.HAND_FOR_HAND)
SEE_PLAYERS = staff(roles.SEE_PLAYERS)
PAY = staff(roles.PAY_PRIZES)
RULINGS = staff(roles.RULINGS)
BAGS = staff(roles.BAGS)
COUNTS = staff(roles.COUNTS)
DEAL = staff(roles.DEAL_FIGURES)
AUDIT = staff(roles.SEE_AUDIT)
STAFF_ACCESS = staff(roles.MANAGE_STAFF)
API_KEYS = staff(roles.MANAGE_API_KEYS)
ANY_STAFF = staff(roles.ALL_ROLES)
LINKS = staff(TABLET_LINKS)


def page(who) -> dict:
    """A page that takes any method: a POST shows it as a GET does."""
    return {"GET": who, "POST": who}


def form(who) -> dict:
    """A page with a form that posts back to it."""
    return {"GET": who, "POST": who}


def post(who) -> dict:
    """An action: POST only."""
    return {"POST": who}


EXPECTED: dict[str, dict] = {
    # --- The project: sign-in, language, health ----------------------------------------
    "": page(ALL),  # "/" redirects to the tournaments
    "health": {"GET": ALL},
    "health-live": {"GET": ALL},
    "favicon": {"GET": ALL},  # a redirect to the static icon
    "login": form(ALL),
    "logout": post(ALL),
    "set_language": page(ALL),
    "audit-log": page(AUDIT),
    "staff-access": {"GET": STAFF_ACCESS},
    "staff-sign-out": post(STAFF_ACCESS),
    "staff-active": post(STAFF_ACCESS),
    "staff-create": form(STAFF_ACCESS),
    "staff-account": form(STAFF_ACCESS),
    "staff-password-reset": post(STAFF_ACCESS),
    "password-change": form(ANY_STAFF),  # everyone signed in: their own password
    "keys": {"GET": API_KEYS},
    "key-create": post(API_KEYS),
    "key-revoke": post(API_KEYS),
    "results-public": {"GET": ALL},
    "feed-atom": {"GET": ALL},  # issue 18: the live-reporting feed, public
    "feed-export": {"GET": ALL},  # a finished event's results for a results database
    # --- API -------------------------------------------------------------------------
    "api-root": {"GET": ALL},
    "api-schema": {"GET": ALL},
    "api-docs": {"GET": ALL},
    "api-token": post(ALL),
    "api-keys": {"GET": API_KEYS, "POST": API_KEYS},
    "api-key-revoke": post(API_KEYS),
    "tournament-list": {"GET": ALL, "POST": MANAGE},
    "tournament-detail": {"GET": ALL, "PUT": MANAGE, "PATCH": MANAGE},
    "tournament-alternates": {"GET": ALL},
    "tournament-totals": {"GET": ALL},
    "tournament-overview": {"GET": ALL},
    # Issue 18: the chip leaders are public where the house publishes counts (the world's
    # event does); counts are written by the tablets and the floor.
    "tournament-chip-leaders": {"GET": ALL},
    "api-counts": {"GET": COUNTS, "POST": COUNTS},
    "api-counts-sweep": post(COUNTS),
    "api-table-counts": post(TABLET),
    # Issue 19: chips the floor takes out of play (TDA 8-B, 63, 64).
    "api-chips-removed": {"GET": COUNTS, "POST": COUNTS},
    "api-feed": {"GET": ALL},
    "tournament-status": post(MANAGE),
    "tournament-audit": {"GET": AUDIT},
    "player-list": {"GET": SEE_PLAYERS, "POST": SEE_PLAYERS},
    "player-detail": {"GET": SEE_PLAYERS, "PUT": SEE_PLAYERS, "PATCH": SEE_PLAYERS},
    "player-id-check": post(SEE_PLAYERS),
    "entry-list": {"GET": ALL, "POST": REGISTER},
    "entry-detail": {"GET": ALL},
    "entry-rebuy": post(REGISTER),
    "entry-addon": post(REGISTER),
    "entry-cancel": post(REGISTER),
    "entry-bust": post(BUST),
    "entry-undo-bust": post(BUST),
    "entry-knockout": post(BUST),
    "alternate-enter-next": post(REGISTER),
    "alternate-withdraw": post(REGISTER),
    "api-payouts": {"GET": ALL, "PUT": MANAGE},
    "api-results": {"GET": ALL},
    "api-place": {"PUT": MANAGE},
    "api-payments": post(PAY),
    "api-payment": {"DELETE": PAY},
    "api-knockouts": {"GET": ANY_STAFF},
    "api-knockout-payments": post(PAY),
    "api-knockout-payment": {"POST": PAY, "DELETE": PAY},
    "api-deal-calculate": post(DEAL),
    "api-deal": post(MANAGE),
    "api-event-copy": post(MANAGE),
    "api-event-templates": {"GET": MANAGE, "POST": MANAGE},
    "api-event-template": {"DELETE": MANAGE},
    "api-event-template-start": post(MANAGE),
    "structure-list": {"GET": MANAGE, "POST": MANAGE},
    "structure-detail": {"GET": MANAGE, "PUT": MANAGE, "DELETE": MANAGE},
    "chipset-list": {"GET": MANAGE, "POST": MANAGE},
    "chipset-detail": {"GET": MANAGE, "PUT": MANAGE},
    "clock": {"GET": ALL, "POST": CLOCK},
    "clock-settings": {"GET": MANAGE, "PUT": MANAGE},
    "clock-day-end": post(MANAGE),
    "player-clock-list": {"GET": ALL, "POST": CLOCK},
    "player-clock-detail": {"DELETE": CLOCK},
    "announcement-list": {"GET": ALL, "POST": MANAGE},
    "announcement-detail": {"DELETE": MANAGE},
    "api-seating-tables": {"GET": ALL, "POST": SEATING},
    "api-seating-table": {"DELETE": SEATING},
    "api-seating-break-order": {"PUT": SEATING},
    "api-seating-break": {"GET": SEATING, "POST": SEATING},
    "api-seating-halt-waiver": post(SEATING),
    "api-seating-seat": post(SEATING),
    "api-seating-draw": post(SEATING),
    "api-seating-moves": post(SEATING),
    "api-seating-balance": {"GET": SEATING, "POST": SEATING},
    "api-seating-final-table": post(SEATING),
    "api-seating-undo": {"GET": SEATING, "POST": SEATING},
    "api-seating-list": {"GET": ALL},
    "api-seating-lookup": {"GET": ALL},
    "api-day2": {"GET": SEATING},
    "api-day2-start": post(SEATING),
    "api-day2-choose": post(SEATING),
    "api-hands-state": {"GET": ALL},
    "api-hands-button": {"PUT": TABLET},
    "api-hands-button-draw": post(TABLET),
    "api-hands-list": {"GET": ALL, "POST": TABLET},
    "api-hands-detail": {"GET": ALL},
    "api-hands-actions": post(TABLET),
    "api-hands-item": post(TABLET),  # RP-22: a bet with an item of no value
    "api-hands-item-ruling": post(RULINGS),  # the floor rules on it (TDA 1)
    "api-hands-out-of-turn": post(TABLET),  # TDA 53-A: an action out of turn, held
    "api-hands-out-of-turn-ruling": post(RULINGS),  # TDA 53-B: the floor's ruling
    "api-hands-kill": post(TABLET),  # TDA 65-A, 66: a hand killed during play
    "api-hands-finish": post(TABLET),
    "api-hands-settle": post(TABLET),
    "api-hands-upcards": post(TABLET),
    "api-hands-hold": post(TABLET),
    "api-hands-misdeal": post(TABLET),  # TDA 35: the hand dealt again
    "api-hands-start-mark": {"POST": TABLET, "DELETE": TABLET},  # TDA 23: the next start
    "api-hands-button-error": post(TABLET),  # TDA 34-A, casino §16 c
    "api-hands-level-error": post(TABLET),  # TDA 23
    "api-hands-busts": {"GET": ALL, "POST": TABLET},
    "api-hand-for-hand": {"GET": ALL, "POST": HAND_FOR_HAND, "PATCH": HAND_FOR_HAND},
    "api-rulebook": {"GET": ALL},
    "api-rule": {"GET": ALL},
    "api-ruling-bet": post(ALL),  # the calculators: stateless, nothing recorded
    "api-ruling-pot-limit": post(ALL),
    "api-ruling-pots": post(ALL),
    "api-ruling-chip-race": post(ALL),
    "api-ruling-showdown": post(ALL),  # TDA 16, 17-B, 18
    "api-ruling-chips-found": post(ALL),  # TDA 24-C, 62, 63, 64, 8-B
    "api-ruling-late-error": post(ALL),  # TDA 52-A, 52-B
    "api-ruling-wrong-seat": post(ALL),  # TDA 7
    "api-house-settings": {"GET": ALL},  # the guide to the readings: public, as the rules are
    "api-venue-house-settings": {"GET": MANAGE, "PATCH": MANAGE},
    "api-tournament-house-settings": {"GET": MANAGE, "PATCH": MANAGE},
    "api-incidents": {"GET": RULINGS, "POST": RULINGS},
    "api-penalties": {"GET": RULINGS, "POST": RULINGS},
    "api-penalty-end": post(RULINGS),
    "api-dodged-blinds": post(RULINGS),  # TDA 33, 71-B; older TDA 22
    "api-record": {"GET": RULINGS},
    "api-flights": {"GET": ALL, "POST": MANAGE},
    "api-flight-stop": post(MANAGE),
    "api-bags": {"GET": ALL, "POST": BAGS},
    "api-bag-check": {"GET": ALL},
    "api-bags-confirm": post(MANAGE),
    # --- Series (issue 17): the director's pages, the public schedule and lobby ---------
    "series-list": {"GET": ALL, "POST": MANAGE},
    "series-detail": {"GET": ALL, "PUT": MANAGE, "PATCH": MANAGE},
    "series-events": post(MANAGE),
    "series:list": {"GET": MANAGE},
    "series:create": form(MANAGE),
    "series:detail": form(MANAGE),
    "series:edit": form(MANAGE),
    "series:event-remove": post(MANAGE),
    "series:schedule": {"GET": ALL},
    "series:schedule-tv": {"GET": ALL},
    "series:schedule-part": {"GET": ALL},
    "screens:series-lobby": {"GET": ALL},
    # --- Tournaments, entries, players ----------------------------------------------------
    "tournaments:list": page(ALL),
    "tournaments:detail": page(ALL),
    "tournaments:create": form(MANAGE),
    "tournaments:edit": form(MANAGE),
    "tournaments:house-settings": form(MANAGE),
    "tournaments:status": post(MANAGE),
    "tournaments:cancel": form(MANAGE),
    "tournaments:desk": form(REGISTER),
    "tournaments:desk-search": page(REGISTER),
    "tournaments:entries": page(ALL),
    "tournaments:entry-public": page(ALL),
    "tournaments:entry-count": {"GET": ALL},
    "tournaments:entry-bust": post(BUST),
    "tournaments:entry-bust-undo": post(BUST),
    "tournaments:entry-knockout": form(BUST),
    "tournaments:entry-rebuy": post(REGISTER),
    "tournaments:entry-addon": post(REGISTER),
    "tournaments:entry-cancel": form(REGISTER),
    "tournaments:alternates": page(ALL),
    # Tickets won in satellites (issue 17)
    # --- Outbound webhooks (issue 22): directors only ----------------------------------
    "webhooks:tournament": form(MANAGE),
    "webhooks:venue": form(MANAGE),
    "webhooks:endpoint": form(MANAGE),
    "webhooks:delete": post(MANAGE),
    "webhooks:rotate": post(MANAGE),
    "webhooks:test": post(MANAGE),
    "webhooks:resend": post(MANAGE),
    "api-webhooks": {"GET": MANAGE, "POST": MANAGE},
    "api-webhook": {"GET": MANAGE, "PATCH": MANAGE, "DELETE": MANAGE},
    "api-webhook-rotate": post(MANAGE),
    "api-webhook-test": post(MANAGE),
    "api-webhook-deliveries": {"GET": MANAGE},
    "api-webhook-resend": post(MANAGE),
    "tickets:list": page(REGISTER),
    "tickets:transfer": post(REGISTER),
    "tickets:refund": post(PAY),
    "api-event-tickets": {"GET": REGISTER},
    "api-player-tickets": {"GET": SEE_PLAYERS},
    "api-ticket-transfer": post(REGISTER),
    "api-ticket-refund": post(PAY),
    "tournaments:alternate-enter-next": post(REGISTER),
    "tournaments:alternate-withdraw": post(REGISTER),
    "tournaments:players": page(SEE_PLAYERS),
    "tournaments:player-edit": form(SEE_PLAYERS),
    "tournaments:player-history": page(SEE_PLAYERS),
    "tournaments:player-id-check": post(SEE_PLAYERS),
    # --- Prize money ----------------------------------------------------------------------
    "tournaments:payouts": form(MANAGE),
    "tournaments:payouts-lines": post(MANAGE),
    "tournaments:payouts-lock": post(MANAGE),
    "tournaments:payouts-template-save": post(MANAGE),
    "tournaments:payouts-template-apply": post(MANAGE),
    "tournaments:results": page(ANY_STAFF),
    "tournaments:results-csv": {"GET": ANY_STAFF},
    "tournaments:results-pdf": {"GET": ANY_STAFF},
    "tournaments:result-pay": post(PAY),
    "tournaments:result-pay-undo": post(PAY),
    "tournaments:result-place": post(MANAGE),
    "tournaments:bounties": page(ANY_STAFF),
    "tournaments:bounty-pay": post(PAY),
    "tournaments:bounty-pay-undo": post(PAY),
    "tournaments:bounties-pay-all": post(PAY),
    "tournaments:deal": form(DEAL),
    "tournaments:deal-pause": post(DEAL),
    "tournaments:deal-record": post(MANAGE),
    # --- Events made from other events -------------------------------------------------
    "tournaments:copy": form(MANAGE),
    "tournaments:event-template-save": post(MANAGE),
    "tournaments:event-templates": {"GET": MANAGE},
    "tournaments:event-template-start": form(MANAGE),
    "tournaments:event-template-delete": form(MANAGE),
    # --- Tournament Director files (issue 22) ----------------------------------------------
    "tournaments:td3-upload": form(MANAGE),
    "tournaments:td3-review": form(MANAGE),
    # --- Flights: the event's flights, a flight's end and its bags (issue 17) ------------
    "tournaments:flights": form(MANAGE),
    "tournaments:flight-end": {"GET": BAGS},
    "tournaments:flight-stop": post(MANAGE),
    "tournaments:bag-record": post(BAGS),
    "tournaments:bags-confirm": post(MANAGE),
    "tournaments:bag-sheet": {"GET": BAGS},
    # --- Clock, screens, structures -----------------------------------------------------
    "clock:console": page(CLOCK),
    "clock:action": post(CLOCK),
    "clock:settings": post(MANAGE),
    "clock:day-end": post(MANAGE),
    "clock:player-clock-call": post(CLOCK),
    "clock:player-clock-stop": post(CLOCK),
    "clock:announcement-post": post(MANAGE),
    "clock:announcement-hide": post(MANAGE),
    "screens:rotate": {"GET": ALL},
    "screens:lobby": {"GET": ALL},
    "screens:data": {"GET": ALL},
    "screens:festival": {"GET": ALL},
    "screens:leaders": {"GET": ALL},
    "structures:list": page(MANAGE),
    "structures:create": form(MANAGE),
    "structures:generate": form(MANAGE),
    "structures:import": form(MANAGE),
    "structures:detail": form(MANAGE),
    "structures:export-json": {"GET": MANAGE},
    "structures:export-csv": {"GET": MANAGE},
    "structures:copy": form(MANAGE),
    "structures:delete": form(MANAGE),
    "structures:chipset-list": page(MANAGE),
    "structures:chipset-create": form(MANAGE),
    "structures:chipset-edit": form(MANAGE),
    "structures:tournament": form(MANAGE),
    # --- Seating -------------------------------------------------------------------------
    "seating:map": page(SEATING),
    "seating:table-add": post(SEATING),
    "seating:table-remove": form(SEATING),
    "seating:table-break": form(SEATING),
    "seating:halt-waive": post(SEATING),
    "seating:seat": form(SEATING),
    "seating:break-order": form(SEATING),
    "seating:draw": form(SEATING),
    "seating:move": form(SEATING),
    "seating:balance": form(SEATING),
    "seating:final-table": form(SEATING),
    "seating:undo": form(SEATING),
    "seating:settings": form(MANAGE),
    "seating:day2": {"GET": SEATING},
    "seating:day2-start": post(SEATING),
    "seating:day2-choose": post(SEATING),
    "seating:action": page(SEATING),
    "seating:slips": page(SEATING),
    "seating:seat-cards": page(SEATING),
    "seating:by-name": page(SEATING),
    "seating:by-table": page(SEATING),
    "seats:lookup": {"GET": ALL},
    "seats:entry-data": {"GET": ALL},
    "seats:board": {"GET": ALL},
    "seats:board-data": {"GET": ALL},
    # --- Hands: the tablet, its links, hand-for-hand ---------------------------------------
    "hands:tablet": form(TABLET),
    "seating:counts": form(COUNTS),
    "hands:tablet-state": {"GET": TABLET},
    "hands:tablet-links": form(LINKS),
    "hands:link": form(ALL),  # whoever holds the link: a bearer token for one table
    "hands:link-state": {"GET": ALL},
    "hands:hand-for-hand": form(HAND_FOR_HAND),
    # --- Rulings ---------------------------------------------------------------------------
    "rulings:rulebook": page(ALL),
    "rulings:rule": page(ALL),
    "rulings:calculators": form(ANY_STAFF),
    "rulings:house": page(MANAGE),
    "rulings:house-settings-guide": page(ALL),
    "rulings:venue-house-settings": post(MANAGE),
    "rulings:venue-create": post(MANAGE),
    "rulings:venue-update": post(MANAGE),
    "rulings:house-rule-add": post(MANAGE),
    "rulings:house-rule-edit": form(MANAGE),
    "rulings:house-rule-delete": post(MANAGE),
    "rulings:rulebook-upload": post(MANAGE),
    "rulings:floor": page(RULINGS),
    "rulings:incident-create": post(RULINGS),
    "rulings:penalty-create": post(RULINGS),
    "rulings:penalty-end": post(RULINGS),
    "rulings:record": page(RULINGS),
}

# GETs that answer something other than 200 when allowed.
# The results export waits for the event to finish (the world's event is running).
# No Tournament Director file waits for its review in the world (issue 22): no such draft.
OK_STATUS = {
    "": 302,
    "set_language": 302,
    "favicon": 301,
    "feed-export": 404,
    "tournaments:td3-review": 404,
}
# Query strings a page needs to show its content.
QUERY = {
    "screens:rotate": "?t={tournament_id}",
    "seats:lookup": "?q=Kontakt",
    "api-seating-lookup": "?q=Kontakt",
    "tournaments:entries": "?q=Kontakt",
    "entry-list": "?q=Kontakt",
    "tournaments:desk-search": "?q=Kontakt",
    "tournaments:players": "?q=Kontakt",
}


def is_admin(name: str) -> bool:
    return name.startswith("admin:") or name.startswith("admin/")


def expected_for(name: str) -> dict:
    """The Django admin is for Django staff accounts only (superusers made on the command
    line); none of the personas is one, so it sends each to its own login page."""
    if name == "admin:login":
        return form(ALL)
    if is_admin(name):
        return {}
    return EXPECTED[name]


def refused(route, persona: str, response) -> bool:
    status = response.status_code
    if is_admin(route.name):
        return status == 302 and response["Location"].startswith("/admin/")
    if route.path.startswith("/api/"):
        return status in (401, 403) if persona in ANONYMOUS else status == 403
    if persona in ANONYMOUS:
        return status == 302 and response["Location"].startswith(reverse("login") + "?next=")
    return status == 403


def ask(client, method: str, route, path: str):
    send = getattr(client, method.lower())
    if method == "GET":
        return send(path)
    if route.path.startswith("/api/"):
        return rolled_back(client, lambda: send(path, {}, content_type="application/json"))
    return rolled_back(client, lambda: send(path, {}))


def check(world, clients, route, method: str, persona: str, problems: list[str]) -> None:
    spec = expected_for(route.name)
    who = spec.get(method)
    path = route.path + QUERY.get(route.name, "").format(**world.ids)
    try:
        response = ask(clients[persona], method, route, path)
    except Exception as exc:  # a crash is a finding like any other
        problems.append(f"{method} {path} as {persona}: raised {exc!r}")
        return
    status = response.status_code
    where = f"{method} {path} [{route.name}] as {persona}: {status}"
    if status >= 500:
        problems.append(f"{where}, a server error")
    elif who is None:
        if status not in (405, 429) and not refused(route, persona, response):
            problems.append(f"{where}, expected 405 or a refusal (method not served)")
    elif who == ALL or persona in who:
        if refused(route, persona, response):
            problems.append(f"{where}, refused but allowed to {who}")
        elif method == "GET" and status != OK_STATUS.get(route.name, 200):
            problems.append(f"{where}, expected {OK_STATUS.get(route.name, 200)}")
    elif not refused(route, persona, response):
        problems.append(f"{where}, not refused but allowed only to {who}")
    if persona in ANONYMOUS:
        body = response.content.decode(errors="replace")
        leaked = [item for item in CONTACT if item in body]
        if leaked:
            problems.append(f"{where}: contact data {leaked} shown to a visitor")


def run_matrix(methods: tuple[str, ...]) -> tuple[int, list[str]]:
    world = build_world()
    clients = {persona: client_for(world, persona) for persona in PERSONAS}
    problems: list[str] = []
    asked = 0
    for route in routes(world.ids):
        spec = expected_for(route.name)
        api = route.path.startswith("/api/")
        for method in methods:
            # PUT, PATCH and DELETE: the API's; everywhere else only where the table says.
            if method not in ("GET", "POST") and not (api or method in spec):
                continue
            for persona in PERSONAS:
                check(world, clients, route, method, persona, problems)
                asked += 1
    return asked, problems


def test_every_url_of_the_project_is_in_the_table():
    names = {route.name for route in routes()}

    unlisted = sorted(n for n in names if not is_admin(n) and n not in EXPECTED)
    gone = sorted(set(EXPECTED) - names)
    assert unlisted == [], "new URLs: add them to EXPECTED with who may use them"
    assert gone == [], "URLs no longer in the project"


@pytest.mark.parametrize(
    "methods",
    [("GET",), ("POST",), ("PUT", "PATCH", "DELETE")],
    ids=["GET", "POST", "PUT-PATCH-DELETE"],
)
def test_permission_matrix(methods):
    asked, problems = run_matrix(methods)

    assert asked > 0
    assert problems == [], f"{len(problems)} of {asked} answers wrong:\n" + "\n".join(problems)


def test_contact_data_is_no_search_key_for_visitors():
    """Searching a player's email on public pages finds nobody: no way to learn who owns
    an address. Staff searching players by email do find them."""
    world = build_world()
    visitor = client_for(world, "anonymous")
    event = world.event.pk
    public_searches = [
        reverse("seats:lookup", args=[event]),
        reverse("tournaments:entries", args=[event]),
        reverse("api-seating-lookup", args=[event]),
        reverse("entry-list", args=[event]),
    ]
    for path in public_searches:
        for query in (EMAIL, EMAIL.split("@")[0], "9876543"):
            response = visitor.get(path, {"q": query})
            assert response.status_code in (200, 400), path
            assert "Kontakt" not in response.content.decode(), (path, query)

    cashier = client_for(world, "cashier")
    found = cashier.get(reverse("tournaments:players"), {"q": EMAIL}).content.decode()
    assert "Erika Kontakt" in found
    assert EMAIL in found and PHONE in found  # as the matrix looks for them


def test_audit_log_is_for_directors_only():
    world = build_world()
    page = reverse("audit-log", args=[world.event.pk])
    api = reverse("tournament-audit", args=[world.event.pk])
    for persona in PERSONAS:
        client = client_for(world, persona)
        shown_page, shown_api = client.get(page), client.get(api)
        if persona == "director":
            assert shown_page.status_code == shown_api.status_code == 200
            assert "tablet.link" in shown_page.content.decode()
            assert any(e["action"] == "tablet.link" for e in shown_api.json()["results"])
        else:
            assert shown_page.status_code in (302, 403), persona
            assert shown_api.status_code in (401, 403), persona
            assert "tablet.link" not in shown_page.content.decode() + shown_api.content.decode()


def test_tablet_link_opens_its_own_table_and_nothing_else():
    """A dealer holding table 1's link: table 1's tablet, and no other table or page."""
    world = build_world()
    dealer = client_for(world, "link")
    event = world.event.pk

    assert dealer.get(reverse("hands:link", args=[world.token])).status_code == 200
    for path in (
        reverse("hands:tablet", args=[event, 2]),
        reverse("hands:tablet", args=[event, 1]),
        reverse("hands:tablet-state", args=[event, 2]),
        reverse("hands:tablet-links", args=[event, 1]),
        reverse("hands:hand-for-hand", args=[event]),
        reverse("seating:map", args=[event]),
        reverse("rulings:floor", args=[event]),
        reverse("tournaments:desk", args=[event]),
    ):
        response = dealer.get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith(reverse("login")), path
    for path in (
        reverse("api-hands-button-draw", args=[event, 2]),
        reverse("api-hands-list", args=[event, 2]),
    ):
        assert dealer.post(path, {}, content_type="application/json").status_code == 401, path

    # What the link shows is table 1's; a table number slipped into the form is ignored.
    state = dealer.get(reverse("hands:link-state", args=[world.token])).json()
    other = dealer.get(reverse("hands:link-state", args=[world.token_2])).json()
    assert state != other
    before = dealer.get(reverse("api-hands-state", args=[event, 2])).json()
    dealer.post(reverse("hands:link", args=[world.token]), {"action": "draw", "table": "2"})
    assert dealer.get(reverse("api-hands-state", args=[event, 2])).json() == before
