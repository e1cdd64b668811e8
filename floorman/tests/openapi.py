"""The API's OpenAPI schema, for tests that check it documents what the API answers."""

from functools import cache


@cache
def api_schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def documented_responses(path: str, method: str) -> dict:
    """{status code: response object} documented for `method` on `path` (/api/v1/...)."""
    return api_schema()["paths"][path][method.lower()]["responses"]


def response_schema(path: str, method: str, status: int) -> dict:
    """The JSON schema of the body documented for one answer, references resolved
    one level deep (enough to see an array, an object or a nullable field)."""
    schema = documented_responses(path, method)[str(status)]["content"]["application/json"]
    return resolve(schema["schema"])


def resolve(schema: dict) -> dict:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return api_schema()["components"]["schemas"][name]
    return schema
