"""Shared test configuration: the Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) gives a bounded, reproducible
run; the default ``dev`` profile is a little larger but still quick, so a plain
``pytest`` stays fast on a laptop. Raise it for a soak run with e.g.
``HYPOTHESIS_PROFILE=thorough``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    # Shared CI machines are noisy: a timing deadline would only add flakes.
    deadline=None,
    print_blob=True,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None, print_blob=True)
settings.register_profile("thorough", max_examples=2000, deadline=None, print_blob=True)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
