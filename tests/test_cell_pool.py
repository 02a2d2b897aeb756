"""bench/cell_pool.py: the walls scripts' cells in a pool, read back in the rows' order."""

import operator


def test_each_cell_once_and_the_same_numbers_in_a_pool(bench_script):
    """Serially each cell is computed when first asked for and once; in two processes every cell is submitted on
    entry and a row gets its own cell's result: the same numbers as the serial run's."""
    cp = bench_script("cell_pool")
    args = {(V, s): (V, s) for V, s in ((512, 2.0), (1024, 8.0), (512, 8.0))}
    calls = []

    def task(V, s):
        calls.append((V, s))
        return V * s

    with cp.cell_results(1, task, args) as get:
        assert calls == []
        serial = [get(c) for c in [(512, 8.0), (512, 2.0), (512, 8.0), (1024, 8.0)]]
    assert calls == [(512, 8.0), (512, 2.0), (1024, 8.0)] and serial == [4096.0, 1024.0, 4096.0, 8192.0]
    with cp.cell_results(2, operator.mul, args, first=lambda c: (-c[0], c[1])) as get:
        assert [get(c) for c in [(512, 8.0), (512, 2.0), (512, 8.0), (1024, 8.0)]] == serial
