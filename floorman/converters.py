from django.urls import register_converter


class IdConverter:
    """A database id in a URL: at most 18 digits, so it always fits a 64-bit integer."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
