"""The payouts page (the director's: prize pool, lock, settings, the table typed by hand,
templates) and the public results page for players' phones.

Thin views: parse a form, call one prize service through `floorman.pages.service_call`,
then redirect (post/redirect/get) or render the page again with the form's errors. Every
form works as a plain POST; the page's one script only shows the running sum.
"""

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from babel.numbers import format_decimal, get_currency_precision
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from payouts.engine.payouts import place_groups
from payouts.models import PayoutSettings, PayoutTemplate
from payouts.selectors import payout_table
from prizes import selectors, services
from prizes.forms.payouts import (
    EXTRA_LINES,
    LockForm,
    PayoutLinesForm,
    PayoutSettingsForm,
    TemplateApplyForm,
    TemplateSaveForm,
)
from prizes.messages import ADJUSTMENTS, LOCK_REASONS, refusal_message
from tournaments.models import Tournament
from tournaments.selectors import tournament_totals
from tournaments.templatetags.floorman_format import babel_locale, money, place_text


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def percent_of(amount: int, pool: int) -> str:
    """An amount as a share of the pool, "33.33" / "33,33"; empty without a pool."""
    if pool <= 0:
        return ""
    share = (Decimal(amount) * 100 / Decimal(pool)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return format_decimal(share, format="#,##0.00", locale=babel_locale())


def payout_groups(amounts, pool: int) -> list[dict]:
    """The table as it is read out: consecutive places paying the same are one row."""
    return [
        {
            "first": first,
            "last": last,
            "amount": amount,
            "places": place_text(first, last),
            "count": last - first + 1,
            "percent": percent_of(amount, pool),
        }
        for first, last, amount in place_groups(amounts)
    ]


def _adjustment_texts(codes) -> list[str]:
    generic = _("The payout generator had to adjust the settings to keep its rules.")
    return [str(ADJUSTMENTS[code]) if code in ADJUSTMENTS else generic for code in codes]


def _page(
    request,
    tournament: Tournament,
    *,
    settings_form: PayoutSettingsForm | None = None,
    lines_form: PayoutLinesForm | None = None,
    save_form: TemplateSaveForm | None = None,
    apply_form: TemplateApplyForm | None = None,
    status: int = 200,
):
    totals = tournament_totals(tournament)
    table = payout_table(tournament, totals)
    pool = table.pool.total
    final = selectors.payouts_final(tournament) or ""
    currency = tournament.currency
    if settings_form is None:
        settings_form = PayoutSettingsForm(
            initial=PayoutSettingsForm.initial_from(table.structure, currency),
            currency=currency,
            disabled=table.locked or bool(final),
        )
    if lines_form is None:
        lines_form = PayoutLinesForm(
            initial=PayoutLinesForm.initial_from(table.amounts, currency),
            currency=currency,
            places=len(table.amounts) + (0 if final else EXTRA_LINES),
            most=_most_places(totals, table),
            disabled=bool(final),
        )
    # The sum under the rows: what was typed when the form comes back, None ("?") when
    # a row could not be read.
    lines_sum = sum(table.amounts)
    if lines_form.is_bound:
        readable = set(lines_form.errors) <= {NON_FIELD_ERRORS}
        typed = lines_form.cleaned_data.get("lines") if readable else None
        lines_sum = None if typed is None else sum(typed)
    templates = list(PayoutTemplate.objects.all())
    context = {
        "tournament": tournament,
        "here": "payouts",
        "totals": totals,
        "table": table,
        "pool": table.pool,
        "groups": payout_groups(table.amounts, pool),
        "lines_total": sum(table.amounts),
        "difference_abs": abs(table.difference),
        "lines_sum": lines_sum,
        "lines_difference": None if lines_sum is None else lines_sum - pool,
        "final": final,
        "final_text": refusal_message(final) if final else "",
        "lock_text": str(LOCK_REASONS[table.locked_reason]) if table.locked_reason else "",
        "adjustments": _adjustment_texts(table.adjustments),
        "unit_text": money(table.structure.unit, currency),
        "settings_form": settings_form,
        "lines_form": lines_form,
        "lines_open": lines_form.is_bound,
        "save_form": save_form or TemplateSaveForm(),
        "apply_form": apply_form or TemplateApplyForm(),
        "templates": templates,
        "lines_script": {
            "pool": pool,
            "decimals": get_currency_precision(currency),
            "sep": format_decimal(Decimal("1.5"), locale=babel_locale())[1],
        },
    }
    return render(request, "prizes/payouts.html", context, status=status)


def _most_places(totals, table) -> int:
    """Rows the amounts form may have: a place per entry (or the table's, if longer)."""
    return max(totals.total_buy_ins, len(table.amounts))


def _back(tournament: Tournament):
    return redirect("tournaments:payouts", tournament.pk)


def _form_action(
    request,
    tournament: Tournament,
    form_name: str,
    form,
    service,
    /,
    *,
    success: Callable[[], str],
    **kwargs,
):
    """Run a valid form's service. A refusal shows on the form (`form_name`: its argument
    to `_page`), on the page again with the refusal's status; else the message `success()`
    (called only once the service has succeeded) and back to the page (post/redirect/get)."""
    outcome = service_call(request, service, form=form, tournament_id=tournament.pk, **kwargs)
    if not outcome.ok:
        return _page(request, tournament, **{form_name: form}, status=outcome.error.http_status)
    messages.success(request, success())
    return _back(tournament)


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def payouts(request, tournament_id: int):
    """The payout table: GET shows it; POST saves the settings it is made from."""
    tournament = _tournament(tournament_id)
    if request.method != "POST":
        return _page(request, tournament)
    form = PayoutSettingsForm(request.POST, currency=tournament.currency)
    if not form.is_valid():
        return _page(request, tournament, settings_form=form, status=400)
    return _form_action(
        request,
        tournament,
        "settings_form",
        form,
        services.payouts_update,
        success=lambda: _("Payout settings saved."),
        settings={name: form.cleaned_data[name] for name in PayoutSettings.SETTINGS},
    )


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def payouts_lines(request, tournament_id: int):
    """The table typed by hand: it must add up to the prize pool, and it locks the table."""
    tournament = _tournament(tournament_id)
    totals = tournament_totals(tournament)
    form = PayoutLinesForm(
        request.POST,
        currency=tournament.currency,
        places=PayoutLinesForm.places_posted(request.POST),
        most=_most_places(totals, payout_table(tournament, totals)),
    )
    if not form.is_valid():
        return _page(request, tournament, lines_form=form, status=400)
    return _form_action(
        request,
        tournament,
        "lines_form",
        form,
        services.payouts_update,
        success=lambda: _("Payout table saved. It is locked: it no longer follows the prize pool."),
        lines=form.cleaned_data["lines"],
    )


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def payouts_lock(request, tournament_id: int):
    """Hold the table as it stands, or let it follow the prize pool again."""
    tournament = _tournament(tournament_id)
    form = LockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to lock or to unlock the payout table."))
        return _back(tournament)
    lock = form.cleaned_data["action"] == "lock"
    outcome = service_call(
        request, services.payouts_update, tournament_id=tournament.pk, locked=lock
    )
    if outcome.ok:
        messages.success(
            request,
            _("Payout table locked: it holds as it stands.")
            if lock
            else _("Payout table unlocked: it follows the prize pool again."),
        )
    return _back(tournament)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def template_save(request, tournament_id: int):
    """Keep this tournament's payout settings under a name for the house's next events."""
    tournament = _tournament(tournament_id)
    form = TemplateSaveForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, save_form=form, status=400)
    name = form.cleaned_data["name"]
    replaced = PayoutTemplate.objects.filter(name=name).exists()
    text = (
        _("Template “%(name)s” replaced with these settings.")
        if replaced
        else _("Settings saved as template “%(name)s”.")
    )
    return _form_action(
        request,
        tournament,
        "save_form",
        form,
        services.template_save,
        success=lambda: text % {"name": name},
        name=name,
    )


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def template_apply(request, tournament_id: int):
    """Take the settings of a saved template (the table must be unlocked)."""
    tournament = _tournament(tournament_id)
    form = TemplateApplyForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, apply_form=form, status=400)
    template_id = form.cleaned_data["template"]

    def success() -> str:  # the name as it is once applied
        name = PayoutTemplate.objects.filter(pk=template_id).values_list("name", flat=True).first()
        return _("Template “%(name)s” applied.") % {"name": name or ""}

    return _form_action(
        request,
        tournament,
        "apply_form",
        form,
        services.template_apply,
        success=success,
        template_id=template_id,
    )


# --- Public -------------------------------------------------------------------------------


@never_cache
@require_safe
def results_public(request, tournament_id: int):
    """/results/<id>/: prize pool, payout table and the places so far, for phones.
    Public and read-only: names, nicknames and countries only, never contact data."""
    tournament = _tournament(tournament_id)
    totals = tournament_totals(tournament)
    table = payout_table(tournament, totals)
    found = selectors.results(tournament, table)
    public = selectors.results_public(tournament, found)
    rows = [
        {
            **row,
            "places": place_text(*(row["place_shared"] or (row["place"], row["place"]))),
        }
        for row in public["results"]
    ]
    return render(
        request,
        "prizes/results_public.html",
        {
            "tournament": tournament,
            "pool": table.pool,
            "bounty": totals.bounty,  # issue 18: apart from the prize pool
            "entries": totals.total_buy_ins,
            "places_paid": table.places_paid,
            "groups": payout_groups(table.amounts, table.pool.total),
            "playing": public["playing"],
            "deal": public["deal"],
            "rows": rows,
            "shared": any(row["place_shared"] for row in rows),
        },
    )
