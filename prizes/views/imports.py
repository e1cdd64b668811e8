"""The director's import of Tournament Director files (issue 22): upload a file, review
what it holds and whom its players are, confirm. Nothing is saved before the
confirmation; the file waits on the server (prizes.Td3Draft) and is read again then,
never taken back from the form."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from floorman.errors import Invalid
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from prizes.forms.imports import Td3ReviewForm, Td3UploadForm
from prizes.models import Td3Draft
from prizes.services.imports import (
    already_imported,
    event_title,
    file_read,
    td3_draft_drop,
    td3_draft_keep,
    td3_import,
)
from tournaments.selectors import player_proposals


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def td3_upload(request):
    """Choose a file: it is read at once, and kept for its review if it can be."""
    form = Td3UploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data["file"].read()
            found = already_imported(data)
            try:
                file_read(data)
            except Invalid as error:
                form.add_error("file", error.fields["file"])
            else:
                if found is not None:
                    status = 409
                    where = found.tournament.name if found.tournament else found.title
                    form.add_error(
                        "file",
                        _("This file was imported already (as “%(name)s”).") % {"name": where},
                    )
                else:
                    draft = td3_draft_keep(
                        actor=request.user, data=data, file_name=form.cleaned_data["file"].name
                    )
                    return redirect("tournaments:td3-review", draft.pk)
    return render(request, "prizes/td3_upload.html", {"form": form}, status=status)


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def td3_review(request, draft_id: int):
    """What the file holds, each of its people's proposed player (changeable), what to
    import; the confirmation imports it (prizes.services.imports.td3_import)."""
    draft = get_object_or_404(Td3Draft, pk=draft_id, uploaded_by=request.user)
    data = bytes(draft.data)
    try:
        event = file_read(data)  # read when uploaded: it reads again
    except Invalid as error:
        td3_draft_drop(draft_id=draft.pk)
        messages.error(request, error.fields["file"][0])
        return redirect("tournaments:td3-upload")
    people = list(event.people)
    proposals = player_proposals(people)
    form = Td3ReviewForm(
        request.POST or None,
        proposals=proposals,
        people=people,
        finished=event.finished,
        initial={"history": event.finished, "template": not event.finished},
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            outcome = service_call(
                request,
                td3_import,
                form=form,
                data=data,
                file_name=draft.file_name,
                history=bool(form.cleaned_data.get("history")),
                template=bool(form.cleaned_data.get("template")),
                contacts=form.cleaned_data["contacts"],
                players=form.chosen(),
                draft_id=draft.pk,
            )
            if outcome.ok:
                record = outcome.value.record
                messages.success(request, _("“%(name)s” imported.") % {"name": record.title})
                if record.tournament_id:
                    return redirect("tournaments:results", record.tournament_id)
                return redirect("tournaments:event-templates")
            status = outcome.error.http_status
    context = {
        "draft": draft,
        "event": event,
        "title": event_title(event, draft.file_name),
        "form": form,
        "proposals": {p.file_id: p for p in proposals},
    }
    return render(request, "prizes/td3_review.html", context, status=status)
