"""Plain factories for clock tests."""

from clock import engine, services
from clock.engine import BREAK, LEVEL, Step

# A short structure, every number visible: 20-minute levels, a break after level 2.
STEPS = [
    Step(LEVEL, 20, 100, 200),
    Step(LEVEL, 20, 200, 400),
    Step(BREAK, 10, label="Break", color_up=(25,)),
    Step(LEVEL, 20, 300, 600, ante=600, ante_type=engine.ANTE_BIG_BLIND),
    Step(LEVEL, 20, 400, 800, ante=800, ante_type=engine.ANTE_BIG_BLIND),
]


def structure(name: str = "Regular 20", steps=None, *, is_template: bool = True):
    return services.structure_create(
        actor=None, name=name, steps=steps or STEPS, is_template=is_template, chip_set_id=None
    )


def with_structure(tournament, steps=None):
    """Give the tournament its own copy of a structure; return its clock."""
    template = structure(steps=steps)
    return services.clock_structure_set(
        actor=None, tournament_id=tournament.pk, structure_id=template.pk
    )
