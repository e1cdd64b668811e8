"""A fresh install ships a standard chip set and three structure templates.

The templates are built by `clock.engine.generator.template_steps` (turbo, regular, deep
stack) on the standard chips; the director copies one into a tournament and edits it.
Reversing deletes them again, as long as nothing uses them.
"""

from django.db import migrations

from clock.engine.generator import STANDARD_CHIPS, template_steps

CHIP_SET = "Standard"
# Conventional casino colours (25,000: grey, as in many live events).
COLOURS = {
    25: "green",
    100: "black",
    500: "purple",
    1000: "yellow",
    5000: "orange",
    25000: "grey",
}
TEMPLATES = ("turbo", "regular", "deep")


def _titles() -> list[str]:
    return [template_steps(name)[0] for name in TEMPLATES]


def templates_create(apps, schema_editor):
    ChipSet = apps.get_model("clock", "ChipSet")
    Chip = apps.get_model("clock", "Chip")
    Structure = apps.get_model("clock", "Structure")
    StructureStep = apps.get_model("clock", "StructureStep")

    chip_set, created = ChipSet.objects.get_or_create(name=CHIP_SET)
    if created:
        Chip.objects.bulk_create(
            Chip(chip_set=chip_set, value=value, color=COLOURS[value]) for value in STANDARD_CHIPS
        )
    for name in TEMPLATES:
        title, steps = template_steps(name)
        if Structure.objects.filter(name=title, is_template=True).exists():
            continue
        structure = Structure.objects.create(name=title, is_template=True, chip_set=chip_set)
        StructureStep.objects.bulk_create(
            StructureStep(
                structure=structure,
                position=position,
                kind=step.kind,
                minutes=step.minutes,
                small_blind=step.small_blind,
                big_blind=step.big_blind,
                ante=step.ante,
                ante_type=step.ante_type,
                small_bet=step.small_bet,
                big_bet=step.big_bet,
                game=step.game,
                label=step.label,
                color_up=list(step.color_up),
                addon=step.addon,
            )
            for position, step in enumerate(steps, start=1)
        )


def templates_delete(apps, schema_editor):
    ChipSet = apps.get_model("clock", "ChipSet")
    Structure = apps.get_model("clock", "Structure")

    # Clock.structure protects a structure a tournament plays (templates are copied,
    # so normally none is); those stay, and so does a chip set still referred to.
    Structure.objects.filter(
        name__in=_titles(), is_template=True, chip_set__name=CHIP_SET, clocks__isnull=True
    ).delete()
    ChipSet.objects.filter(name=CHIP_SET, structure__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("clock", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(templates_create, templates_delete),
    ]
