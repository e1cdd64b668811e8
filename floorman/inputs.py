"""Cleaning free text that arrives outside a form, such as a search box in a query string."""

SEARCH_MAX_LENGTH = 120


def search_text(raw: str | None, *, max_length: int = SEARCH_MAX_LENGTH) -> str:
    """The text as a database can take it: no NUL bytes (PostgreSQL refuses them), trimmed
    of surrounding blanks and cut to `max_length` characters."""
    return (raw or "").replace("\x00", "").strip()[:max_length]
