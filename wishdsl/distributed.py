"""Simulations on a Dask cluster (the optional `dask` extra: `pip install 'wishdsl[dask]'`).

The tasks are the same fixed batches of game indices as with local processes; their records are gathered in
task order, so the results equal a local run's. Workers import `wishdsl` and read the game file from the
same path: run them from the project (or with it installed) on a shared file system.
"""
from __future__ import annotations

from typing import Callable, Optional

from dsl.errors import WishError


def client_for(cluster: Optional[str], jobs: int):
    """A Dask client: connected to the scheduler at `cluster`, or to a new LocalCluster of `jobs` workers
    (cluster None or 'local'). Returns (client, cluster to close or None)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise WishError("--backend dask needs Dask distributed: pip install 'wishdsl[dask]'") from None
    if cluster in (None, "local"):
        local = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                             dashboard_address=None)
        return Client(local), local
    try:
        return Client(cluster, timeout=10), None
    except (OSError, TimeoutError, ValueError) as err:
        raise WishError(f"--cluster {cluster}: cannot reach a Dask scheduler there ({err})") from None


def run_dask(work: Callable, tasks: list, client, progress: Callable) -> list:
    """Run `work` (simulate.run_batch) on each of `tasks` on Dask; the records of all of them, in task order."""
    from dask.distributed import as_completed

    futures = client.map(work, tasks, pure=False)
    done = 1
    for fut in as_completed(futures):
        done += tasks[futures.index(fut)][3]
        progress(done)
    out: list = []
    for records in client.gather(futures):
        out += records
    return out


__all__ = ["client_for", "run_dask"]
