"""The browser-test harness itself: a missing Chromium fails under CI, skips on a laptop."""

from __future__ import annotations

import pytest

from tests.web import conftest


def test_missing_chromium_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_CHROMIUM", "/nonexistent/chromium")
    assert conftest.chromium_path() is None
    with pytest.raises(pytest.fail.Exception):
        conftest.missing_chromium()
    monkeypatch.delenv("ROSES_CHROMIUM")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception):
        conftest.missing_chromium()


def test_missing_chromium_skips_on_a_developer_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROSES_CHROMIUM", raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        conftest.missing_chromium()
