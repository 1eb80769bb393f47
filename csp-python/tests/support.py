"""What several test files share: the independent N-queens checker and a Ctrl-C sent from
another thread."""

import os
import signal
import threading
import time


def is_solution(placement, n):
    """n queens, one per row, no two on a column or a diagonal."""
    return (
        len(placement) == n
        and all(0 <= c < n for c in placement)
        and len(set(placement)) == n
        and len({r + c for r, c in enumerate(placement)}) == n
        and len({r - c for r, c in enumerate(placement)}) == n
    )


def ctrl_c_after(delay):
    """Sends SIGINT to this process `delay` seconds from now, from another thread; the dict
    returned gets ``"at"``, the monotonic time it was sent."""
    sent = {}
    # A process started in the background by a shell without job control inherits SIGINT ignored,
    # and Python then installs no handler for it: the signal would be lost and the test would
    # wait out the whole search. Python's own handler, as in an interactive session.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def interrupt():
        time.sleep(delay)
        sent["at"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt).start()
    return sent
