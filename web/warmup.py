"""What the first request after a start would otherwise do, done as the server starts.

Django loads most things on first use: the URLconf (and with it every view module, and the
hand evaluator's lookup tables that `pokerkit` builds on import), the reverse map of the
URLs, each language's catalogues, Babel's locale data, and every template, compiled once
and then cached. A web process that has just started paid all of it on the first page a
director asked for: 4.5–8 s on the shared machine (issue 16, bench/floor_actions.py).
web.wsgi and web.asgi call `application_warm` once the application is built, before the
worker accepts a request (gunicorn and uvicorn load the application first), so no one
waits for it. Management commands and Celery workers do not import these modules and
stay as quick to start as before.
"""

import logging
from pathlib import Path

from django import forms
from django.conf import settings
from django.template import TemplateSyntaxError, engines
from django.urls import get_resolver, reverse
from django.utils import translation

from tournaments.templatetags.floorman_format import chips, money

logger = logging.getLogger(__name__)


def application_warm() -> None:
    """Load and compile now what pages use: URLs, translations, number formats, templates."""
    get_resolver().url_patterns  # noqa: B018 - imports the URLconf and every view module
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            reverse("login")  # the reverse map, built once per language
            money(12345, "EUR")  # the catalogue, Django's formats and Babel's locale data
            chips(12345)
            str(_SampleForm())  # the form renderer's templates
    _templates_compile()


class _SampleForm(forms.Form):
    """One field of each kind the pages show."""

    text = forms.CharField()
    number = forms.IntegerField(help_text="-")
    choice = forms.ChoiceField(choices=[("a", "a")])
    radio = forms.ChoiceField(choices=[("a", "a")], widget=forms.RadioSelect)
    flag = forms.BooleanField()
    hidden = forms.CharField(widget=forms.HiddenInput)
    area = forms.CharField(widget=forms.Textarea)


def _templates_compile() -> None:
    """Every template of the project, compiled into the cached loader."""
    engine = engines["django"]
    for folder in engine.engine.dirs:
        for path in sorted(Path(folder).rglob("*.html")):
            name = path.relative_to(folder).as_posix()
            try:
                engine.get_template(name)
            except TemplateSyntaxError:  # the page that uses it will say so
                logger.exception("Template %s does not compile.", name)
