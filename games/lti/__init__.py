"""The service as an LTI 1.3 tool (LTI Advantage) of learning platforms: registrations, the
tool's keys, launches mapped to classrooms, students and assignments, deep linking. Built on
django-lti and pylti1p3 (docs/lms.md says why); the views are games/api/lti/."""
