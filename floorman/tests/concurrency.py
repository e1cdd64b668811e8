"""Two staff acting at the same moment, in tests: real threads, real transactions."""

import threading

from django.db import connection


def at_once(*calls, timeout: float = 60):
    """Run each call in its own thread and database connection, released together; each
    result, or the exception it raised, in the order given (the test inspects what each
    desk saw)."""
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            start.wait()
            results[index] = call()
        except Exception as exc:  # what this desk saw
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results
