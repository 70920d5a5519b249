"""The admin shows classrooms, students and their games, never a key; its login is limited."""

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import ApiKey, Classroom, Student


def test_the_admin_lists_classrooms_students_and_their_games_without_keys(classes, admin_client):
    room = classes.open("5B")
    joined = classes.join(room, "Ann")
    game = classes.create_with(joined["api_key"]).json()
    student = Student.objects.get(name="Ann")
    pages = [
        reverse("admin:games_classroom_changelist"),
        reverse("admin:games_classroom_change", args=[room.id]),
        reverse("admin:games_student_changelist"),
        reverse("admin:games_student_change", args=[student.pk]),
        reverse("admin:games_apikey_changelist"),
        reverse("admin:games_apikey_change", args=[ApiKey.objects.first().pk]),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game["id"]]),
    ]
    for page in pages:
        answer = admin_client.get(page)
        assert answer.status_code == 200, page
        text = answer.content.decode()
        assert joined["api_key"] not in text and room.teacher_key not in text
        for key in ApiKey.objects.all():
            assert key.digest not in text
    student_page = admin_client.get(pages[3]).content.decode()
    assert game["id"][:8] in student_page
    assert f"dk_{ApiKey.objects.get(student=student).prefix}_" in student_page
    listing = admin_client.get(pages[0]).content.decode()
    assert "5B" in listing and room.join_code in listing


def test_an_admin_revokes_keys_with_an_action(classes, admin_client):
    room = classes.open()
    joined = classes.join(room, "Ann")
    key = ApiKey.objects.get(student__name="Ann")
    answer = admin_client.post(
        reverse("admin:games_apikey_changelist"),
        {"action": "revoke", "_selected_action": [key.pk]},
    )
    assert answer.status_code == 302
    assert classes.create_with(joined["api_key"]).status_code == 401
    assert Classroom.objects.count() == 1


def test_admin_logins_lock_after_repeated_wrong_passwords(db, settings):
    User.objects.create_superuser("boss", password="right-password")
    client = Client(REMOTE_ADDR="192.0.2.10")
    login = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT + 25):
        client.post(login, {"username": "boss", "password": "wrong"})
    answer = client.post(login, {"username": "boss", "password": "right-password"})
    assert answer.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another address is refused as well: the user is locked, not only the address.
    other = Client(REMOTE_ADDR="192.0.2.11")
    assert other.post(login, {"username": "boss", "password": "right-password"}).status_code == 429


def test_a_forged_forwarded_header_does_not_reset_the_login_count(db, settings):
    User.objects.create_superuser("boss", password="right-password")
    settings.AXES_LOCKOUT_PARAMETERS = ["ip_address"]
    login = reverse("admin:login")
    for i in range(settings.AXES_FAILURE_LIMIT):
        Client(REMOTE_ADDR="192.0.2.20", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").post(
            login, {"username": f"guess{i}", "password": "wrong"}
        )
    client = Client(REMOTE_ADDR="192.0.2.20", HTTP_X_FORWARDED_FOR="203.0.113.200")
    answer = client.post(login, {"username": "boss", "password": "right-password"})
    assert answer.status_code == 429


def test_a_right_password_within_the_limit_logs_in(db):
    User.objects.create_superuser("boss", password="right-password")
    client = Client(REMOTE_ADDR="192.0.2.30")
    login = reverse("admin:login")
    client.post(login, {"username": "boss", "password": "wrong"})
    answer = client.post(
        login, {"username": "boss", "password": "right-password", "next": "/admin/"}
    )
    assert answer.status_code == 302
    assert client.session["_auth_user_id"]


def test_addresses_a_server_took_from_forged_headers_share_one_login_count(db, settings):
    # As uvicorn does for a local peer: the connection's address is the header's entry.
    User.objects.create_superuser("boss", password="right-password")
    settings.AXES_LOCKOUT_PARAMETERS = ["ip_address"]
    login = reverse("admin:login")
    for i in range(settings.AXES_FAILURE_LIMIT):
        forged = f"203.0.113.{i}"
        Client(REMOTE_ADDR=forged, HTTP_X_FORWARDED_FOR=forged).post(
            login, {"username": f"guess{i}", "password": "wrong"}
        )
    forged = "203.0.113.250"
    client = Client(REMOTE_ADDR=forged, HTTP_X_FORWARDED_FOR=forged)
    assert client.post(login, {"username": "boss", "password": "right-password"}).status_code == 429


def test_an_operator_raises_a_classrooms_quota_in_the_admin(classes, admin_client):
    room = classes.open("5B")
    page = reverse("admin:games_classroom_change", args=[room.id])
    form = {
        "name": "5B", "joining": "closed", "games_per_hour": "20000", "advice_per_hour": "",
        "computer_moves_per_hour": "",
    }
    # The students' inline (read-only, empty here) still sends its management form.
    form |= {f"students-{k}": "0" for k in ("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS")}
    form["students-MAX_NUM_FORMS"] = "0"
    answer = admin_client.post(page, form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    saved = Classroom.objects.get(pk=room.id)
    assert saved.quota == {"games_per_hour": 20000} and saved.joining == "closed"
    read = classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key).json()
    assert read["quota"] == {
        "games_per_hour": 20000, "advice_per_hour": 10000, "computer_moves_per_hour": 600000
    }
    # A quota that is no whole number of at least one is refused, and nothing is saved.
    refused = admin_client.post(page, {**form, "games_per_hour": "0", "joining": "open"})
    assert refused.status_code == 200
    assert Classroom.objects.get(pk=room.id).quota == {"games_per_hour": 20000}
    assert Classroom.objects.get(pk=room.id).joining == "closed"


def test_a_classroom_renamed_in_the_admin_keeps_the_rule_for_names(classes, admin_client):
    room = classes.open("5B")
    page = reverse("admin:games_classroom_change", args=[room.id])
    form = {"joining": "open", "games_per_hour": "", "advice_per_hour": ""}
    form |= {f"students-{k}": "0" for k in ("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS")}
    form["students-MAX_NUM_FORMS"] = "0"
    refused = admin_client.post(page, {**form, "name": "6A\u202e"})
    assert refused.status_code == 200
    assert "is not allowed in a name" in refused.content.decode()
    assert Classroom.objects.get(pk=room.id).name == "5B"
    assert admin_client.post(page, {**form, "name": "\uff16A"}).status_code == 302
    assert Classroom.objects.get(pk=room.id).name == "6A"
