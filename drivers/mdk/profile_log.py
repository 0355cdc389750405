"""Where the MDK driver's wall time goes, written at exit when MARMOT_DRIVER_PROFILE names a file.

Off by default; a measuring aid for docs/benchmarks.md ("Where an MDK run spends its time"), never
part of a run's bytes: it reads only the monotonic clock, which the world shim leaves to the OS.
Buckets: start-up (interpreter and imports, then the warm-up), per method the engine call itself (MDK
plus the driver's conversion of its parameters and result), the hand-off to the call's fresh thread,
JSON parsing of requests, JSON writing of responses, and the time spent waiting for the next request
line (the runner's own work, the world's scheduling, and the pipe).
"""

import os
import time

PATH = os.environ.get("MARMOT_DRIVER_PROFILE") or None
ENABLED = PATH is not None
clock = time.perf_counter


class Profile:
    def __init__(self):
        self.marks = {}
        self.totals = {}  # bucket -> [count, seconds]

    def mark(self, name, seconds):
        self.marks[name] = seconds

    def add(self, bucket, seconds):
        entry = self.totals.setdefault(bucket, [0, 0.0])
        entry[0] += 1
        entry[1] += seconds

    def write(self):
        if PATH is None:
            return
        lines = [f"{name} {seconds:.4f}" for name, seconds in self.marks.items()]
        for bucket, (count, seconds) in sorted(self.totals.items(), key=lambda item: -item[1][1]):
            lines.append(f"{bucket} {count} {seconds:.4f}")
        # One file per driver process: --jobs starts one driver per worker.
        with open(f"{PATH}.{os.getpid()}", "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


PROFILE = Profile()
