"""The server's garbage-collection policy (roses.server.gcpolicy): what start-up made is
frozen, the middle and oldest generations are left to a periodic thread, young cycles are
still freed."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator

import pytest

from roses import app as app_module
from roses.server import gcpolicy


@pytest.fixture
def policy() -> Iterator[None]:
    assert not gcpolicy.installed()
    before = gc.get_threshold()
    yield
    gcpolicy.uninstall()
    assert not gcpolicy.installed() and gc.get_threshold() == before and gc.get_freeze_count() == 0


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_install_freezes_start_up_and_leaves_the_oldest_generation_to_the_thread(
        policy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROSES_GC_YOUNG", raising=False)
    assert gcpolicy.install(600)
    assert gcpolicy.installed()
    assert gc.get_freeze_count() > 0  # the modules and data loaded so far
    assert gc.get_threshold() == (gcpolicy.YOUNG, gcpolicy.NEVER, gcpolicy.NEVER)
    assert gcpolicy.install(600, young=1000)  # once: a second call changes nothing
    assert gc.get_threshold() == (gcpolicy.YOUNG, gcpolicy.NEVER, gcpolicy.NEVER)


def test_the_youngest_generations_threshold(policy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Collected after ``young`` objects (``ROSES_GC_YOUNG``); 0 keeps CPython's threshold."""
    before = gc.get_threshold()
    monkeypatch.setenv("ROSES_GC_YOUNG", "12000")
    assert gcpolicy.young_from_env() == 12000
    assert gcpolicy.install(600)
    assert gc.get_threshold() == (12000, gcpolicy.NEVER, gcpolicy.NEVER)
    gcpolicy.uninstall()
    assert gc.get_threshold() == before
    assert gcpolicy.install(600, young=0)
    assert gc.get_threshold() == (before[0], gcpolicy.NEVER, gcpolicy.NEVER)
    monkeypatch.setenv("ROSES_GC_YOUNG", "many")
    with pytest.raises(ValueError, match="ROSES_GC_YOUNG"):
        gcpolicy.young_from_env()
    monkeypatch.delenv("ROSES_GC_YOUNG")
    assert gcpolicy.young_from_env() == gcpolicy.YOUNG


def test_a_young_cycle_is_freed_by_the_allocations_that_follow(policy: None) -> None:
    """No explicit collection: making ``young`` more objects than are freed triggers one."""
    gcpolicy.install(600, young=5000)
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    kept = [[] for _ in range(20_000)]  # containers that stay alive count towards the threshold
    assert gone() is None
    del kept


def test_young_cycles_are_still_freed(policy: None) -> None:
    gcpolicy.install(600)
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect(1)  # a young collection, as the allocator triggers them
    assert gone() is None


def test_the_thread_collects_the_oldest_generation(policy: None) -> None:
    """A cycle that reached the oldest generation is freed by the periodic collection."""
    gcpolicy.install(0.05)
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    gc.collect(1)  # survivors of the young generations go to the oldest
    gc.collect(1)
    del a, b
    for _ in range(200):
        if gone() is None:
            break
        gc.collect(0)  # young collections do not free it; the thread does
        time.sleep(0.01)
    assert gone() is None


def test_zero_keeps_cpython_behaviour(policy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_GC_FULL_SECONDS", "0")
    assert gcpolicy.full_every_from_env() == 0
    assert not gcpolicy.install()
    assert not gcpolicy.installed() and gc.get_freeze_count() == 0
    monkeypatch.setenv("ROSES_GC_FULL_SECONDS", "soon")
    with pytest.raises(ValueError, match="ROSES_GC_FULL_SECONDS"):
        gcpolicy.full_every_from_env()
    monkeypatch.delenv("ROSES_GC_FULL_SECONDS")
    assert gcpolicy.full_every_from_env() == gcpolicy.FULL_EVERY


def test_server_processes_get_the_policy(policy: None, monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """The factory `roses serve` runs in each process installs it; apps made by tests do not."""
    monkeypatch.setenv("ROSES_DATABASE_URL", f"sqlite:///{tmp_path}/gc.db")
    from roses.server.config import Settings
    from roses.server.db import Database

    Database(f"sqlite:///{tmp_path}/gc.db").migrate()
    app_module.create_app(Settings(migrate=False))
    assert not gcpolicy.installed()
    app_module.app_from_env()
    assert gcpolicy.installed()
