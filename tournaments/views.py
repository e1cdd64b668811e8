# Being written (UI helper): placeholder so that URLs resolve during development.
from django.http import HttpResponse


def tournament_list(request):
    return HttpResponse("")
