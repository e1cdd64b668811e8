"""Writing one column of many rows in one statement.

Django's way, `update(column=Case(When(pk=…), …))`, builds and compiles an expression
per row: for the nine stacks of a table that cost more than the round trip itself, after
every hand (issue 20: a whole 10,000-entry event plays 17,000 hands). Here the values go
in as a VALUES list joined on the id, which PostgreSQL and SQLite (3.33 and later) both
read.
"""

from django.db import connection, models


def column_set(
    model: type[models.Model], column: str, values: dict[int, object], **scope: object
) -> None:
    """Set `column` of the rows of `model` whose id is a key of `values` to its value,
    among the rows whose fields in `scope` hold those values (an event's own rows)."""
    if not values:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    name = quote(model._meta.get_field(column).column)
    rows = ", ".join(["(%s, %s)"] * len(values))
    within = "".join(
        f" AND {table}.{quote(model._meta.get_field(field).column)} = %s" for field in scope
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH v(id, value) AS (VALUES {rows}) "  # noqa: S608 - names from the model
            f"UPDATE {table} SET {name} = v.value FROM v WHERE {table}.id = v.id{within}",
            [*(item for pair in values.items() for item in pair), *scope.values()],
        )
