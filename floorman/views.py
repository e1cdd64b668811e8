# Being written (UI helper): placeholder so that URLs resolve during development.
from django.http import HttpResponse


def audit_log(request, tournament_id):
    return HttpResponse("")
