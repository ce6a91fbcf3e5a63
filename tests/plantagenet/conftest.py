"""Every Plantagenet test runs with the views' revisions checked: a view part found unchanged
by its revision (``roses.games.plantagenet.views``) is also compared with the state, and a step
whose declared ``changes`` leave out a change it makes fails the test that plays it (the
recorded-game corpus and the fuzz games among them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from roses.games.plantagenet.views import check_revisions


@pytest.fixture(autouse=True)
def _check_view_revisions() -> Iterator[None]:
    was = check_revisions(True)
    yield
    check_revisions(was)
