"""Classrooms, their students and the API keys that say who is calling.

A key is shown once, when it is made; only its SHA-256 digest is stored, beside a short
public ``prefix`` that finds the row and tells keys apart in the admin. Keys are random
(256 bits), so a fast digest is as safe as a slow password hash and costs nothing per
request.
"""

import uuid

from django.db import models
from django.db.models import Q


class Classroom(models.Model):
    class Joining(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    join_code = models.CharField(max_length=16, unique=True)
    # What each key of the classroom may do per hour, where it differs from the deployment's
    # defaults (settings.CLASSROOM_QUOTA): a teacher's lowering, or an operator's raise.
    quota = models.JSONField(default=dict, blank=True)
    # Whether students may join with the code now (the teacher closes and reopens it).
    joining = models.CharField(max_length=8, choices=Joining.choices, default=Joining.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.join_code})"


class Student(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="students")
    name = models.CharField(max_length=50)
    # games.names.name_key of the name: "Ann", "ann" and "Ann" in fullwidth letters are one
    # student of the class. Longer than the name, as case folding may lengthen it ("ß" is "ss").
    name_key = models.CharField(max_length=200, editable=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["classroom_id", "name_key"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "name_key"], name="unique_student_name")
        ]

    def __str__(self) -> str:
        return self.name


class ApiKey(models.Model):
    """One key: a classroom's teacher key, or a student's. Revoked keys are kept, inert."""

    class Role(models.TextChoices):
        TEACHER = "teacher"
        STUDENT = "student"

    prefix = models.CharField(max_length=16, unique=True, editable=False)
    digest = models.CharField(max_length=64, editable=False)
    role = models.CharField(max_length=8, choices=Role.choices, editable=False)
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="keys")
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, null=True, blank=True, related_name="keys"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API key"
        constraints = [
            models.CheckConstraint(
                condition=Q(role="teacher", student__isnull=True)
                | Q(role="student", student__isnull=False),
                name="key_role_matches_student",
            )
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.role})"
