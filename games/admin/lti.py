"""Platforms registered with the LTI 1.3 tool, in the admin: django-lti's registration admin
with the service's check of the platform's URLs (https, or http to a loopback host) and the
tool's URLs for the host the admin is reached at, to give the platform."""

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.http import HttpRequest, HttpResponse
from lti_tool.admin import LtiDeploymentInline, LtiRegistrationAdmin
from lti_tool.models import LtiRegistration

from games.lti.registrations import tool_urls, url_check
from games.play.errors import ServiceError


def https_first(field: "models.Field[Any, Any]", **kwargs: Any) -> forms.Field | None:
    """Form fields of a model's fields, an address typed without a scheme read as https."""
    if isinstance(field, models.URLField):
        kwargs.setdefault("assume_scheme", "https")
    return field.formfield(**kwargs)


class RegistrationForm(forms.ModelForm):
    class Meta:
        model = LtiRegistration
        fields = [
            "name", "uuid", "issuer", "client_id", "audience", "auth_url", "token_url",
            "keyset_url", "is_active", "public_key", "private_key",
        ]
        formfield_callback = https_first

    def _url(self, name: str) -> str:
        value = str(self.cleaned_data.get(name) or "")
        try:
            return url_check(value, field=name)
        except ServiceError as refused:
            raise forms.ValidationError(refused.detail) from None

    def clean_auth_url(self) -> str:
        return self._url("auth_url")

    def clean_token_url(self) -> str:
        return self._url("token_url")

    def clean_keyset_url(self) -> str:
        return self._url("keyset_url")


admin.site.unregister(LtiRegistration)
# Addresses typed without a scheme read as https (the only scheme a platform may use).
HTTPS_FIRST = {models.URLField: {"assume_scheme": "https"}}


class DeploymentInline(LtiDeploymentInline):
    formfield_overrides = HTTPS_FIRST


@admin.register(LtiRegistration)
class RegistrationAdmin(LtiRegistrationAdmin):
    form = RegistrationForm
    formfield_overrides = HTTPS_FIRST
    inlines = [DeploymentInline]

    def changeform_view(
        self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        urls = tool_urls(request.build_absolute_uri("/"))
        said = " · ".join(f"{name}: {url}" for name, url in urls.items())
        return super().changeform_view(
            request, object_id, form_url, {**(extra_context or {}), "subtitle": said}
        )
