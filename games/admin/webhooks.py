"""The admin of webhooks and their deliveries: what each key is subscribed to, and every
delivery with its attempts, for an operator who answers "did my bot get called?". A failed
delivery can be sent again from here (the receiver was down for longer than the retries
last, say); a webhook's secret is never shown.
"""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from games.admin.game_display import json_code
from games.hooks.services import deliveries_send_again
from games.models import Delivery, Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ("url", "api_key", "events", "created_at")
    list_select_related = ("api_key",)
    search_fields = ("url",)
    fields = ("id", "url", "api_key", "events", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = (
        "event", "webhook", "status", "attempts", "last_status_code", "next_attempt_at",
        "created_at",
    )
    list_filter = ("status", "event")
    list_select_related = ("webhook",)
    search_fields = ("=id", "webhook__url")
    fields = (
        "id", "webhook", "event", "status", "attempts", "last_status_code", "next_attempt_at",
        "created_at", "payload_display",
    )
    readonly_fields = fields
    actions = ["send_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="payload")
    def payload_display(self, delivery: Delivery) -> SafeString:
        return json_code(delivery.payload)

    @admin.action(description="Send the selected deliveries again now")
    def send_again(self, request: HttpRequest, queryset: QuerySet[Delivery]) -> None:
        count = deliveries_send_again(ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{count} deliveries will be sent again within seconds.",
                          messages.SUCCESS)
