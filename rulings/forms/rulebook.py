"""Forms of the rule book pages: venues, house rules, an imported rule book file (UTF-8
text). They check the shape of the input; whether a rule exists is the services'
business."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rulings.engine import housebook
from rulings.forms.floor import text_area
from rulings.models import HouseRuleKind
from tournaments.forms import PageForm

RULEBOOK_MAX_BYTES = 2 * 1024 * 1024
RULEBOOK_SUFFIXES = (".txt", ".md", ".markdown")


class VenueForm(PageForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    is_default = forms.BooleanField(
        label=_("Default venue"),
        required=False,
        help_text=_(
            "Its house rules show in the rule book; the calculators and the events without a "
            "venue follow its house settings."
        ),
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].replace("\x00", "").split())
        if not name:
            raise forms.ValidationError(_("Give the venue a name."))
        return name


class HouseRuleForm(PageForm):
    kind = forms.ChoiceField(
        label=_("Kind"), choices=HouseRuleKind.choices, initial=HouseRuleKind.OWN
    )
    tda = forms.CharField(
        label=_("TDA rule"),
        max_length=20,
        required=False,
        help_text=_("The TDA rule it replaces or adds to, e.g. 29 or RP-8."),
    )
    number = forms.CharField(label=_("House number"), max_length=20, required=False)
    title = forms.CharField(label=_("Title"), max_length=200)
    text = forms.CharField(label=_("Text"), max_length=housebook.MAX_TEXT, widget=text_area(6))


class RulebookUploadForm(PageForm):
    """The house's own rule book: a UTF-8 text or Markdown file of at most 2 MB."""

    file = forms.FileField(
        label=_("Rule book file"),
        help_text=_("A .txt or .md file in UTF-8, at most 2 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".txt,.md,.markdown,text/plain"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        name = (upload.name or "").lower()
        if not name.endswith(RULEBOOK_SUFFIXES):
            raise forms.ValidationError(
                _("Upload a text file (.txt) or Markdown (.md); save a PDF or Word file as text.")
            )
        if upload.size > RULEBOOK_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        raw = upload.read(RULEBOOK_MAX_BYTES + 1)
        self.text = rulebook_text(raw)
        return upload


def rulebook_text(raw: bytes) -> str:
    """The file's text; ValidationError if it is not UTF-8 text (a PDF, a Word file)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise forms.ValidationError(
            _("The file is not UTF-8 text. Save it as “Text (UTF-8)” and upload it again.")
        ) from None
    if "\x00" in text or text.startswith("%PDF"):
        raise forms.ValidationError(
            _("This is not a text file. Save the rule book as “Text (UTF-8)” first.")
        )
    if not text.strip():
        raise forms.ValidationError(_("The file is empty."))
    return text
