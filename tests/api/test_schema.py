"""The OpenAPI schema and its documentation pages."""

from django.core.management import call_command


def test_the_schema_generates_without_warnings(tmp_path):
    # --fail-on-warn turns every warning and error of the generator into a failure.
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    assert "/api/v1/games/{id}/roll/" in (tmp_path / "schema.yml").read_text()


def test_every_operation_documents_its_errors_as_problems(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            errors = {
                code: r for code, r in operation["responses"].items() if code.startswith(("4", "5"))
            }
            assert errors, f"{method} {path} documents no error"
            for code, response in errors.items():
                assert "application/problem+json" in response["content"], f"{method} {path} {code}"


def test_the_docs_are_served_by_the_service_itself(client):
    for page in ("/api/v1/docs/", "/api/v1/redoc/"):
        html = client.get(page).content.decode()
        assert "/static/drf_spectacular_sidecar/" in html
        assert "cdn" not in html.lower()
    asset = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert asset.status_code == 200
