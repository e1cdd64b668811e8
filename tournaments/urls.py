from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from tournaments import exports, payout_views, result_views, views

app_name = "tournaments"

T = "<id:tournament_id>/"
E = T + "entries/<id:number>/"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path(T, views.tournament_detail, name="detail"),
    path(T + "edit/", views.tournament_edit, name="edit"),
    path(T + "status/", views.tournament_status, name="status"),
    path(T + "cancel/", views.tournament_cancel, name="cancel"),
    path(T + "desk/", views.desk, name="desk"),
    path(T + "desk/players/", views.desk_search, name="desk-search"),
    path(T + "entries/", views.entry_list, name="entries"),
    path(E, views.entry_public_page, name="entry-public"),
    path(E + "bust/", views.entry_bust, name="entry-bust"),
    path(E + "bust/undo/", views.entry_bust_undo, name="entry-bust-undo"),
    path(E + "rebuy/", views.entry_rebuy, name="entry-rebuy"),
    path(E + "addon/", views.entry_addon, name="entry-addon"),
    path(E + "cancel/", views.entry_cancel, name="entry-cancel"),
    path(T + "alternates/", views.alternate_list, name="alternates"),
    path(T + "alternates/enter-next/", views.alternate_enter_next, name="alternate-enter-next"),
    path(
        T + "alternates/<id:alternate_id>/withdraw/",
        views.alternate_withdraw,
        name="alternate-withdraw",
    ),
    # Prize money: the payout table, results and payments, deals (casino §6).
    path(T + "payouts/", payout_views.payouts, name="payouts"),
    path(T + "payouts/lines/", payout_views.payouts_lines, name="payouts-lines"),
    path(T + "payouts/lock/", payout_views.payouts_lock, name="payouts-lock"),
    path(T + "payouts/templates/", payout_views.template_save, name="payouts-template-save"),
    path(
        T + "payouts/templates/apply/",
        payout_views.template_apply,
        name="payouts-template-apply",
    ),
    path(T + "results/", result_views.results, name="results"),
    path(T + "results/<id:entry_id>/pay/", result_views.pay, name="result-pay"),
    path(T + "results/<id:entry_id>/pay/undo/", result_views.pay_undo, name="result-pay-undo"),
    path(T + "results/<id:entry_id>/place/", result_views.place, name="result-place"),
    path(T + "results/export.csv", exports.results_csv, name="results-csv"),
    path(T + "results/export.pdf", exports.results_pdf, name="results-pdf"),
    path(T + "deal/", result_views.deal, name="deal"),
    path(T + "deal/pause/", result_views.deal_pause, name="deal-pause"),
    path(T + "deal/record/", result_views.deal_record, name="deal-record"),
    path("players/", views.player_list, name="players"),
    path("players/<id:player_id>/", views.player_edit, name="player-edit"),
    path("players/<id:player_id>/id-check/", views.player_id_check, name="player-id-check"),
]
