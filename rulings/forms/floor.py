"""Forms of the floor's pages. They check the shape of the input: numbers in range, entry
numbers and names that name entries of the tournament. Whether a rule exists or a player
may be penalised is the services' business."""

import re

from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from floorman.inputs import search_text
from rulings import services
from rulings.models import Category, Dispute, Incident, PenaltyKind
from tournaments.forms import PageForm
from tournaments.models import Entry, EntryStatus, Tournament

MAX_TEXT = 10_000
MAX_TABLE = 10_000
MAX_HAND = 10**6
MAX_RULES = 20
MAX_PLAYERS = 20
INCIDENT_CHOICES = 100  # the latest incidents a penalty can be linked to

# A lone rule reference, as typed in a list: "45", "45-B", "44b", "RP-8".
_REFERENCE = re.compile(r"^(rp-?)?\d{1,3}(-?[a-z])?$", re.IGNORECASE)
_LIST_SEPARATORS = re.compile(r"[,;\n]+")
_NUMBER = re.compile(r"^#?(\d+)$")


def text_area(rows: int = 3) -> forms.Textarea:
    return forms.Textarea(attrs={"rows": rows})


def rules_split(text: str) -> list[str]:
    """Rule references as the floor types them: "45-B, 44" or "45-B 44" are two, while
    "TDA 45", "RP 8" or "Casino §49" stay whole."""
    references = []
    for part in _LIST_SEPARATORS.split(text):
        words = part.split()
        if len(words) > 1 and all(_REFERENCE.match(word) for word in words):
            references.extend(words)
        elif words:
            references.append(" ".join(words))
    return list(dict.fromkeys(references))


class RulesField(forms.CharField):
    """Rule references, as a list of strings."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Rules cited"))
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 400)
        kwargs.setdefault("help_text", _("Separated by commas, e.g. 45-B, 44 or Casino §49."))
        super().__init__(**kwargs)

    def clean(self, value):
        references = rules_split(super().clean(value))
        if len(references) > MAX_RULES:
            raise forms.ValidationError(_("Cite at most %(count)d rules.") % {"count": MAX_RULES})
        for reference in references:
            if len(reference) > 40:
                raise forms.ValidationError(_("A rule reference is at most 40 characters."))
        return references


def entries_resolve(tournament: Tournament, text: str, *, active_only: bool = False) -> list:
    """Entries named by numbers ("12, 47", "#12 47") or names ("Anna Berger"): each name
    must fit one entry (of the entries still in play, if several of one player)."""
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    if active_only:
        entries = entries.filter(status=EntryStatus.ACTIVE)
    else:
        entries = entries.exclude(status=EntryStatus.CANCELLED)
    found: list[Entry] = []
    for part in _LIST_SEPARATORS.split(text):
        words = part.split()
        if not words:
            continue
        numbers = [_NUMBER.match(word) for word in words]
        if all(numbers):
            for match in numbers:
                digits = match.group(1).lstrip("0") or "0"
                entry = entries.filter(number=int(digits)).first() if len(digits) < 10 else None
                if entry is None:
                    raise forms.ValidationError(
                        _("There is no entry #%(number)s.")
                        if not active_only
                        else _("Entry #%(number)s is not in play."),
                        params={"number": digits[:20]},
                    )
                _add(found, entry)
        else:
            _add(found, _entry_by_name(entries, " ".join(words)[:120]))
    return found


def _add(found: list[Entry], entry: Entry) -> None:
    if entry in found:
        return
    if len(found) >= MAX_PLAYERS:
        raise forms.ValidationError(_("Name at most %(count)d players.") % {"count": MAX_PLAYERS})
    found.append(entry)


def _entry_by_name(entries, name: str) -> Entry:
    query = Q()
    for word in name.split():
        query &= Q(player__name__icontains=word) | Q(player__nickname__iexact=word)
    matches = list(entries.filter(query)[:10])
    if len(matches) > 1:
        active = [entry for entry in matches if entry.status == EntryStatus.ACTIVE]
        exact = [entry for entry in matches if entry.player.name.casefold() == name.casefold()]
        players = {entry.player_id for entry in matches}
        if len(active) == 1 and len(players) == 1:
            matches = active  # a player who re-entered: the entry still in play
        elif len(exact) == 1:
            matches = exact
    if not matches:
        raise forms.ValidationError(_("No player “%(name)s” here."), params={"name": name})
    if len(matches) > 1:
        raise forms.ValidationError(
            _("“%(name)s” fits %(players)s: give the entry number."),
            params={"name": name, "players": ", ".join(str(e) for e in matches)},
        )
    return matches[0]


# --- Incidents ------------------------------------------------------------------------------


class IncidentForm(PageForm):
    """A floor call as the floor person types it on the spot."""

    table = forms.IntegerField(label=_("Table"), required=False, min_value=1, max_value=MAX_TABLE)
    hand = forms.IntegerField(
        label=_("Hand"),
        required=False,
        min_value=1,
        max_value=MAX_HAND,
        help_text=_("The hand number on the tablet."),
    )
    players = forms.CharField(
        label=_("Players involved"),
        required=False,
        max_length=600,
        help_text=_("Entry numbers or names, separated by commas, e.g. 12, 47."),
        widget=forms.TextInput(attrs={"list": "floor-entries", "autocomplete": "off"}),
    )
    category = forms.ChoiceField(label=_("Category"), choices=Category.choices)
    description = forms.CharField(
        label=_("What happened"), max_length=MAX_TEXT, widget=text_area(3)
    )
    rules = RulesField()
    decision = forms.CharField(label=_("Decision"), max_length=MAX_TEXT, widget=text_area(2))
    dispute = forms.ChoiceField(
        label=_("Disputed pot (TDA 22)"),
        choices=Dispute.choices,
        required=False,
        help_text=_("How long the decision on the pot can still be disputed."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_players(self) -> list[Entry]:
        return entries_resolve(self.tournament, self.cleaned_data["players"])

    def service_data(self) -> dict:
        data = self.cleaned_data
        return {
            "table": data["table"],
            "hand": data["hand"],
            "category": data["category"],
            "description": data["description"],
            "rules": data["rules"],
            "decision": data["decision"],
            "dispute": data["dispute"] or "",
            "entries": [entry.pk for entry in data["players"]],
        }


class IncidentFilterForm(PageForm):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "filter_%s")
        super().__init__(*args, **kwargs)

    q = forms.CharField(label=_("Search"), required=False, max_length=120)
    category = forms.ChoiceField(
        label=_("Category"), required=False, choices=[("", _("All"))] + Category.choices
    )
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1, max_value=MAX_TABLE)

    def filters(self) -> dict:
        """The valid filters; a garbled one is left out rather than failing the page."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {
            "query": search_text(data.get("q")),
            "category": data.get("category") or "",
            "table": data.get("table"),
        }


# --- Penalties ------------------------------------------------------------------------------


class PenaltyForm(PageForm):
    """TDA 71: a warning, missed hands or rounds served away from the table, or a
    disqualification, which needs its own confirmation."""

    player = forms.CharField(
        label=_("Player"),
        max_length=120,
        help_text=_("Entry number or name of a player still in the tournament."),
        widget=forms.TextInput(attrs={"list": "floor-entries", "autocomplete": "off"}),
    )
    kind = forms.ChoiceField(label=_("Penalty"), choices=PenaltyKind.choices)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        required=False,
        min_value=1,
        max_value=services.MAX_ROUNDS,
        help_text=_("A round is one hand for each player at the table (TDA 71-A)."),
    )
    hands = forms.IntegerField(
        label=_("Hands"), required=False, min_value=1, max_value=services.MAX_HANDS
    )
    reason = forms.CharField(
        label=_("Reason"), required=False, max_length=MAX_TEXT, widget=text_area(2)
    )
    rules = RulesField(initial="71")
    incident = forms.TypedChoiceField(
        label=_("Floor call"), required=False, coerce=int, empty_value=None
    )
    confirm = forms.BooleanField(
        label=_("Yes, disqualify: the player is out and the chips leave play (TDA 71-D)."),
        required=False,
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        kwargs.setdefault("auto_id", "penalty_%s")  # ids apart from the floor call's form
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        incidents = Incident.objects.filter(tournament=tournament).prefetch_related(
            "entries__player"
        )[:INCIDENT_CHOICES]
        self.fields["incident"].choices = [("", _("None"))] + [
            (incident.pk, _incident_label(incident)) for incident in incidents
        ]

    def clean_player(self) -> Entry:
        entries = entries_resolve(self.tournament, self.cleaned_data["player"], active_only=True)
        if len(entries) != 1:
            raise forms.ValidationError(_("Name one player."))
        return entries[0]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if (
            kind == PenaltyKind.MISSED_ROUNDS
            and not data.get("rounds")
            and "rounds" not in self.errors
        ):
            self.add_error("rounds", _("Give the number of rounds."))
        if (
            kind == PenaltyKind.MISSED_HANDS
            and not data.get("hands")
            and "hands" not in self.errors
        ):
            self.add_error("hands", _("Give the number of hands."))
        if kind == PenaltyKind.DISQUALIFICATION and not data.get("confirm"):
            self.add_error(
                "confirm",
                _("Tick the box to confirm: a disqualified player's chips leave play (TDA 71-D)."),
            )
        return data

    def service_data(self) -> dict:
        data = self.cleaned_data
        kind = data["kind"]
        return {
            "entry": data["player"].pk,
            "kind": kind,
            "rounds": data["rounds"] if kind == PenaltyKind.MISSED_ROUNDS else None,
            "hands": data["hands"] if kind == PenaltyKind.MISSED_HANDS else None,
            "reason": data["reason"],
            "rules": data["rules"],
            "incident": data["incident"],
        }


def _incident_label(incident: Incident) -> str:
    where = []
    if incident.table_number:
        where.append(str(_("table %(table)s")) % {"table": incident.table_number})
    if incident.hand_number:
        where.append(str(_("hand %(hand)s")) % {"hand": incident.hand_number})
    names = ", ".join(str(entry) for entry in incident.entries.all())
    parts = [
        f"{timezone.localtime(incident.at):%H:%M}",
        incident.get_category_display(),
        *where,
        names,
    ]
    return " · ".join(str(part) for part in parts if part)[:160]
