"""Forms of the series pages: the shape of the input; the rules are the services'."""

from django import forms
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from floorman.names import validate_visible_name
from tournaments.forms import PageForm
from tournaments.models import Series, Tournament, TournamentStatus
from tournaments.services.series import NUMBER_MAX, ROTATE_MAX, ROTATE_MIN


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


class SeriesForm(PageForm):
    name = forms.CharField(label=_("Name"), max_length=120, validators=[validate_visible_name])
    slug = forms.SlugField(
        label=_("Short name"),
        max_length=60,
        help_text=_("In the public address, e.g. spring-festival."),
    )
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    starts_on = forms.DateField(label=_("First day"), widget=DateInput())
    ends_on = forms.DateField(label=_("Last day"), widget=DateInput())
    public = forms.BooleanField(
        label=_("Schedule public"),
        required=False,
        initial=True,
        help_text=_("Anyone may open the schedule page."),
    )
    rotate_seconds = forms.IntegerField(
        label=_("Lobby rotation (seconds)"),
        min_value=ROTATE_MIN,
        max_value=ROTATE_MAX,
        initial=20,
        help_text=_("How long the series lobby shows each running event."),
    )

    @staticmethod
    def initial_from(series: Series) -> dict:
        return {name: getattr(series, name) for name in SeriesForm.base_fields}


class EventChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Tournament) -> str:
        start = formats.date_format(timezone.localtime(obj.start_at), "SHORT_DATETIME_FORMAT")
        return f"{start} · {obj.name}"


class SeriesEventForm(PageForm):
    """Put an event (not a flight: it follows its event) into the series, with a number."""

    tournament = EventChoiceField(
        label=_("Event"), queryset=Tournament.objects.none(), empty_label=None
    )
    series_number = forms.IntegerField(
        label=_("Event number"), min_value=1, max_value=NUMBER_MAX, required=False
    )

    def __init__(self, *args, series: Series, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = (
            Tournament.objects.filter(parent__isnull=True)
            .exclude(status=TournamentStatus.CANCELLED)
            .filter(
                start_at__date__gte=series.starts_on,
                start_at__date__lte=series.ends_on,
            )
            .order_by("start_at", "id")
        )
