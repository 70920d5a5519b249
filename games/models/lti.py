"""Courses of a learning platform (LTI 1.3) and what they map to here.

The platform's side (registrations, deployments, contexts, platform users, resource links,
the tool's signing keys) is django-lti's own tables (app ``lti_tool``). These tables tie
them to the service's: a course (context, which belongs to one deployment of one
registration) to one classroom, a platform user of that course to one student, a resource
link to one assignment. Each launch's nonce and state are spent here, once.
"""

from django.db import models


class LtiCourse(models.Model):
    """A platform's course (an ``LtiContext``, of one deployment of one registration) and
    the classroom made for it at its first launch."""

    context = models.OneToOneField(
        "lti_tool.LtiContext", on_delete=models.CASCADE, related_name="course"
    )
    classroom = models.OneToOneField(
        "games.Classroom", on_delete=models.CASCADE, related_name="lti_course"
    )
    # The key row (its secret never issued) behind the instructors' sessions: requests of a
    # session act as this key, so limits count per key as for any teacher.
    teacher_key = models.ForeignKey(
        "games.ApiKey", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "LTI course"

    def __str__(self) -> str:
        return f"{self.context} → {self.classroom_id}"


class LtiLearner(models.Model):
    """A platform user (``sub`` of one registration) who is a student of a course's
    classroom: made at their first launch (or by a roster sync)."""

    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="learners")
    user = models.ForeignKey("lti_tool.LtiUser", on_delete=models.CASCADE, related_name="+")
    student = models.OneToOneField(
        "games.Student", on_delete=models.CASCADE, related_name="lti_learner"
    )
    # The key row (its secret never issued) behind the learner's sessions.
    key = models.ForeignKey(
        "games.ApiKey", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # False once the platform says the learner left the course or is inactive there.
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "LTI learner"
        constraints = [
            models.UniqueConstraint(fields=["course", "user"], name="unique_learner_per_course")
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.student_id}"


class LtiLink(models.Model):
    """A platform's resource link that opens an assignment, and the line item its grades
    go to (the AGS ``lineitem`` URL, kept with its query)."""

    resource_link = models.OneToOneField(
        "lti_tool.LtiResourceLink", on_delete=models.CASCADE, related_name="assignment_link"
    )
    assignment = models.ForeignKey(
        "games.Assignment", on_delete=models.CASCADE, related_name="lti_links"
    )
    line_item_url = models.URLField(max_length=2000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "LTI link"

    def __str__(self) -> str:
        return f"{self.resource_link} → {self.assignment_id}"


class LtiSpent(models.Model):
    """A launch's nonce or OIDC state, spent: the SHA-256 of ``kind:value``. A second
    launch with the same one is a replay (the primary key refuses it)."""

    digest = models.CharField(max_length=64, primary_key=True)
    spent_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "LTI spent nonce"

    def __str__(self) -> str:
        return self.digest[:12]
