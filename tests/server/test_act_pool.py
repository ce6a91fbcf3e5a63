"""The threads of the socket actions (roses.server.ws._ActPool): results and errors reach the
awaiting coroutine, a cancelled wait is harmless, threads start only when none is idle and
never beyond the pool's size."""

from __future__ import annotations

import asyncio
import threading

import pytest

from roses.server.ws import _ActPool


def test_results_and_errors_come_back_to_the_loop() -> None:
    pool = _ActPool(4)

    def boom() -> None:
        raise ValueError("no")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        assert await pool.submit(loop, lambda a, b: a + b, 2, 3) == 5
        with pytest.raises(ValueError, match="no"):
            await pool.submit(loop, boom)
        assert await pool.submit(loop, threading.current_thread) in pool.threads

    asyncio.run(main())


def test_one_after_another_takes_one_thread() -> None:
    pool = _ActPool(8)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for i in range(50):
            assert await pool.submit(loop, lambda x: x * 2, i) == 2 * i

    asyncio.run(main())
    assert len(pool.threads) == 1


def test_at_once_takes_up_to_the_size_and_no_more() -> None:
    pool = _ActPool(3)
    gate = threading.Event()
    inside = threading.Semaphore(0)

    def wait() -> str:
        inside.release()
        gate.wait(10)
        return threading.current_thread().name

    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        futures = [pool.submit(loop, wait) for _ in range(7)]
        for _ in range(3):  # three are held at once, the other four wait in the queue
            assert await loop.run_in_executor(None, inside.acquire, True, 10)
        assert len(pool.threads) == 3
        gate.set()
        return list(await asyncio.gather(*futures))

    names = asyncio.run(main())
    assert len(names) == 7 and set(names) == {t.name for t in pool.threads}
    assert len(pool.threads) == 3


def test_a_cancelled_wait_does_not_break_the_pool() -> None:
    pool = _ActPool(2)
    gate = threading.Event()

    async def main() -> int:
        loop = asyncio.get_running_loop()
        slow = pool.submit(loop, gate.wait, 10)
        slow.cancel()  # the socket closed while its action was applied
        gate.set()
        return await pool.submit(loop, lambda: 7)

    assert asyncio.run(main()) == 7
