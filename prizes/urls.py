"""The prize pages: the payout table, results and payments, deals (casino §6); and the
events made from other events (a copy, the event templates).

They keep the URLs and the names they had as tournament pages ("tournaments:payouts"): the
root urlconf includes these patterns with the tournaments pages, in their namespace.
"""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from prizes import exports
from prizes.views import bounties, events, imports, payouts, players, results

T = "<id:tournament_id>/"
TEMPLATE = "templates/<id:template_id>/"

urlpatterns = [
    path(T + "payouts/", payouts.payouts, name="payouts"),
    path(T + "payouts/lines/", payouts.payouts_lines, name="payouts-lines"),
    path(T + "payouts/lock/", payouts.payouts_lock, name="payouts-lock"),
    path(T + "payouts/templates/", payouts.template_save, name="payouts-template-save"),
    path(
        T + "payouts/templates/apply/",
        payouts.template_apply,
        name="payouts-template-apply",
    ),
    path(T + "results/", results.results, name="results"),
    path(T + "results/<id:entry_id>/pay/", results.pay, name="result-pay"),
    path(T + "results/<id:entry_id>/pay/undo/", results.pay_undo, name="result-pay-undo"),
    path(T + "results/<id:entry_id>/place/", results.place, name="result-place"),
    path(T + "results/export.csv", exports.results_csv, name="results-csv"),
    path(T + "results/export.pdf", exports.results_pdf, name="results-pdf"),
    path(T + "bounties/", bounties.bounties, name="bounties"),
    path(T + "bounties/<id:knockout_id>/pay/", bounties.bounty_pay, name="bounty-pay"),
    path(
        T + "bounties/<id:knockout_id>/pay/undo/",
        bounties.bounty_pay_undo,
        name="bounty-pay-undo",
    ),
    path(
        T + "bounties/entries/<id:entry_id>/pay/",
        bounties.bounties_pay_all,
        name="bounties-pay-all",
    ),
    path(T + "deal/", results.deal, name="deal"),
    path(T + "deal/pause/", results.deal_pause, name="deal-pause"),
    path(T + "deal/record/", results.deal_record, name="deal-record"),
    path(T + "copy/", events.event_copy, name="copy"),
    path(T + "copy/template/", events.event_template_save, name="event-template-save"),
    path("templates/", events.event_templates, name="event-templates"),
    path(TEMPLATE + "start/", events.event_template_start, name="event-template-start"),
    path(TEMPLATE + "delete/", events.event_template_delete, name="event-template-delete"),
    # Issue 22: Tournament Director files.
    path("import/td3/", imports.td3_upload, name="td3-upload"),
    path(
        "players/<id:player_id>/history/",
        players.player_history_page,
        name="player-history",
    ),
    path("import/td3/<id:draft_id>/", imports.td3_review, name="td3-review"),
]
