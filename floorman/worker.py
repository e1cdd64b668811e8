"""A real Celery worker inside the server process (DESIGN "Runtime", embedded default).

The in-memory broker lives in one process, so the worker that consumes it must live
there too. It is a normal WorkController, not eager execution: tasks sent with a
countdown or eta wait in the worker's timer and run on time, as they do in production.

The worker runs on a daemon thread. Only the bare WorkController is used (not the
`celery worker` program), so no signal handlers are installed outside the main thread;
the server keeps its own SIGINT/SIGTERM handling and stops the worker when it exits.
"""

import logging
import threading
import time
from dataclasses import dataclass

from celery import Celery
from celery.utils.nodenames import anon_nodename
from celery.worker import WorkController, state

logger = logging.getLogger(__name__)

START_TIMEOUT = 30.0  # seconds; connecting to a Redis broker may take a few retries
STOP_TIMEOUT = 15.0  # seconds; a warm stop waits for running tasks to finish


@dataclass
class EmbeddedWorker:
    controller: WorkController
    thread: threading.Thread

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Warm shutdown: stop taking tasks, let running ones finish, then return.

        Celery's own stop() is meant for the worker's thread; from another thread the
        documented way is the shutdown flag, which the consumer loop checks every cycle.
        Tasks waiting for their eta are given back to a Redis broker; with the in-memory
        broker they end with the process, as everything else in embedded mode does.
        """
        state.should_stop = 0  # exit code 0
        self.thread.join(timeout)
        alive = self.thread.is_alive()
        state.should_stop = None  # let a later worker in this process start
        if alive:
            raise RuntimeError(f"The embedded Celery worker did not stop within {timeout} s.")


def start_embedded_worker(
    app: Celery,
    *,
    concurrency: int = 2,
    queues: list[str] | None = None,
    loglevel: str = "WARNING",
) -> EmbeddedWorker:
    """Start a Celery worker for `app` on a daemon thread; return once it consumes.

    The threads pool, not solo: a long task must not stop the worker from taking the
    next message, and every thread gets its own database connection from Django.
    Heartbeat, mingle and gossip are worker-to-worker chatter that a single embedded
    worker does not need (and the in-memory broker cannot carry).
    """
    ready = threading.Event()
    controller = app.WorkController(
        hostname=anon_nodename(hostname=None, prefix="embedded"),
        pool_cls="threads",
        concurrency=concurrency,
        queues=queues,
        loglevel=loglevel,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        ready_callback=lambda consumer: ready.set(),
    )
    thread = threading.Thread(target=controller.start, name="celery-embedded", daemon=True)
    thread.start()
    worker = EmbeddedWorker(controller=controller, thread=thread)
    deadline = time.monotonic() + START_TIMEOUT
    while not ready.wait(0.1):
        # A worker that fails to start logs the error and its thread ends; say so now
        # instead of letting tasks pile up unseen.
        if not thread.is_alive():
            raise RuntimeError("The embedded Celery worker failed to start (see the log above).")
        if time.monotonic() > deadline:
            worker.stop()
            raise RuntimeError(f"The embedded Celery worker did not start in {START_TIMEOUT} s.")
    logger.info("Embedded Celery worker %s is consuming tasks.", controller.hostname)
    return worker
