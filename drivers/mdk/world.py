"""The world side of the MDK driver: virtual clock, seeded randomness, and dying with the runner.

The runner launches the driver with `worldshim` preloaded (LD_PRELOAD, drivers/mdk/worldshim/worldshim.c,
built by ci/setup). The shim answers the wall clock and OS randomness inside this process; this module
finds its control functions and hands it, before each engine call, the world's instant and the
request's seed (docs/driver-protocol.md, "Determinism").

Each engine call also runs on a fresh thread: MDK's Rust code keeps a per-thread random generator
seeded once from the OS, so on a long-lived thread the bytes of one call would depend on every earlier
call of every instance. A new thread seeds it from the request's seed instead.
"""

import ctypes
import os
import signal
import sys
import threading
import time

# MDK's MLS library spreads work such as the HPKE encryptions of a commit's path secrets over a rayon
# thread pool, and each encryption seeds its generator from the OS. With several pool threads their
# draws from the request's stream interleave in whatever order the threads run (measured: the same
# self-update gave different bytes in two runs). One pool thread runs the jobs in a fixed order. Set
# before MDK loads: rayon reads it when it builds its pool.
os.environ["RAYON_NUM_THREADS"] = "1"

SEED_BYTES = 32
# Read-only queries carry no seed; the stream is still reset so that nothing carries over between calls.
QUERY_SEED = bytes(SEED_BYTES)


class WorldError(Exception):
    """A request's `world` field is malformed, or asks for a world this process cannot honour."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def _find_shim():
    """The preloaded shim's control functions, or None when it is not loaded."""
    try:
        process = ctypes.CDLL(None)
        version = process.worldshim_version
        setter = process.worldshim_set
    except (AttributeError, OSError):
        return None
    version.restype = ctypes.c_int
    setter.argtypes = [ctypes.c_int64, ctypes.c_char_p]
    setter.restype = None
    for name in ("worldshim_random_bytes_served", "worldshim_clock_reads"):
        getattr(process, name).restype = ctypes.c_uint64
    return process


SHIM = _find_shim()


def hello_fields():
    """What `hello` reports about the world: whether this process runs on the world's clock and seed."""
    if SHIM is None:
        return {"world": None}, []
    return ({"world": {"shim_version": SHIM.worldshim_version(), "clock": "virtual", "random": "seeded"}},
            ["world.virtual_clock", "world.seeded_random"])


def shim_counters():
    """(random bytes served, virtual clock reads) since the process started; None without the shim."""
    if SHIM is None:
        return None
    return SHIM.worldshim_random_bytes_served(), SHIM.worldshim_clock_reads()


def parse(request):
    """(unix_time, seed bytes) from a request's `world` field, or None when the request has none.

    Raises WorldError when the field is malformed, when it is present but the shim is not loaded
    (never fall back to the wall clock), or when it is absent but the shim is loaded (an engine call
    must not run on whatever instant the previous request left behind).
    """
    world = request.get("world")
    method = request.get("method")
    if world is None:
        if SHIM is not None and method != "hello":
            raise WorldError("bad_request", "this driver runs on the world's clock: the request needs `world`")
        return None
    if SHIM is None:
        raise WorldError("world_unavailable",
                         "the request carries `world` but the worldshim is not preloaded (LD_PRELOAD): "
                         "refusing to run on the wall clock")
    if not isinstance(world, dict):
        raise WorldError("bad_request", "`world` must be an object")
    unix_time = world.get("unix_time")
    if not isinstance(unix_time, int) or isinstance(unix_time, bool) or not 0 <= unix_time < 2**62:
        raise WorldError("bad_request", "`world.unix_time` must be a non-negative integer")
    seed_hex = world.get("seed")
    if seed_hex is None:
        return unix_time, QUERY_SEED
    try:
        seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) else None
    except ValueError:
        seed = None
    if seed is None or len(seed) != SEED_BYTES:
        raise WorldError("bad_request", f"`world.seed` must be {SEED_BYTES} bytes hex")
    return unix_time, seed


def call(world, function):
    """Runs `function()` on a fresh thread after setting the shim to `world`; returns or raises as it did."""
    if world is not None:
        SHIM.worldshim_set(world[0], world[1])
    outcome = {}

    def body():
        if os.environ.get("WORLDSHIM_TRACE"):
            print(f"worldshim: call thread {threading.get_native_id()}", file=sys.stderr, flush=True)
        try:
            outcome["value"] = function()
        except BaseException as exc:  # handed back to the caller's thread as is
            outcome["error"] = exc

    worker = threading.Thread(target=body, name="engine-call", daemon=True)
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def call_here(world, function):
    """Runs `function()` on this thread after setting the shim to `world`: for read-only queries only.

    A fresh thread exists so that the calls that draw randomness start from the request's seed
    (`call`). A query draws none and writes nothing: its answer is read from the instance's store. So
    it runs here, which saves a thread's start and join per query (about a sixth of the driver's time
    once flushes are skipped, measured on a loaded 2-core machine; docs/benchmarks.md). Whatever
    per-thread state a query might create lives on this thread, where only queries run.
    """
    if world is not None:
        SHIM.worldshim_set(world[0], world[1])
    return function()


def warm_up(call):
    """Runs a throwaway group through every kind of engine call once, before the first real request.

    Some of the engine's state is created on first use for the whole process and draws randomness when
    it is (measured: the first `create_message` in a process gives different bytes from every later one
    with the same seed, e.g. the secp256k1 context that signs the one-time 445 keys is randomized
    then). Doing that here, on a fixed seed, keeps it out of every member's calls, so a run's bytes do
    not depend on whether it is the first run in this driver. `call(method, params, unix_time, seed)`
    runs one request and returns its result.
    """
    if SHIM is None:
        return
    seeds = iter(range(1, 1000))

    def step(method, params):
        return call(method, params, (1_700_000_000, bytes([next(seeds)]) * SEED_BYTES))

    creator, invitee = "warm-up-creator", "warm-up-invitee"
    creator_key, invitee_key = "11" * 32, "22" * 32
    step("create_instance", {"instance": creator, "encryption_key": "01" * 32})
    step("create_instance", {"instance": invitee, "encryption_key": "02" * 32})
    draft = step("create_key_package", {"instance": invitee, "public_key": invitee_key, "relays": ["wss://warm.up"]})
    event = {"id": "00" * 32, "pubkey": invitee_key, "created_at": 1_700_000_000, "kind": 30443,
             "tags": draft["tags"], "content": draft["content"], "sig": "00" * 64}
    step("parse_key_package", {"instance": creator, "event": event})
    created = step("create_group", {"instance": creator, "creator": creator_key, "key_package_events": [event],
                                    "name": "warm-up", "relays": ["wss://warm.up"], "admins": [creator_key]})
    group = created["group"]["mls_group_id"]
    welcome = step("process_welcome", {"instance": invitee, "wrapper_event_id": "00" * 32,
                                       "rumor": created["welcome_rumors"][0]})["welcome"]
    step("accept_welcome", {"instance": invitee, "welcome_id": welcome["id"]})
    message = step("create_message", {"instance": creator, "mls_group_id": group, "sender_pubkey": creator_key,
                                      "kind": 9, "content": "warm-up"})["event"]
    step("process_message", {"instance": invitee, "event": message})
    update = step("self_update", {"instance": invitee, "mls_group_id": group})
    step("merge_pending_commit", {"instance": invitee, "mls_group_id": group})
    step("process_message", {"instance": creator, "event": update["evolution_event"]})
    rename = step("update_group_data", {"instance": creator, "mls_group_id": group, "changes": {"name": "warm"}})
    step("merge_pending_commit", {"instance": creator, "mls_group_id": group})
    step("process_message", {"instance": invitee, "event": rename["evolution_event"]})
    step("destroy_instance", {"instance": creator})
    step("destroy_instance", {"instance": invitee})


def exit_with_parent(cleanup, poll_seconds=0.5):
    """Exits this process (after `cleanup()`) as soon as the process that started it is gone, or on SIGTERM.

    Closing stdin already ends the driver when it is idle; this watchdog also covers a parent that
    died while a call is running or stuck (the pipe then stays unread). prctl(PR_SET_PDEATHSIG) is not
    used: it fires when the *thread* that spawned us exits, and the runner spawns from a thread pool.
    """
    # The client names itself (MARMOT_DRIVER_PARENT_PID), so that a parent that died before this line
    # ran is noticed too; without it, the parent is whoever started us.
    named = os.environ.get("MARMOT_DRIVER_PARENT_PID", "")
    parent = int(named) if named.isdigit() else os.getppid()

    def watch():
        while True:
            time.sleep(poll_seconds)
            if os.getppid() != parent:
                print("mdk driver: parent process gone, exiting", file=sys.stderr, flush=True)
                cleanup()
                os._exit(3)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()

    # SIGTERM (the runner being interrupted) ends the request loop like a closed stdin would, so the
    # run directory is removed; engine-call threads are daemons and do not hold the exit back.
    def terminate(_signal, _frame):
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, terminate)


if __name__ == "__main__" and sys.argv[1:] == ["--check"]:
    # ci/setup's smoke test: with the shim preloaded, the clock and the random stream follow the world.
    if SHIM is None:
        sys.exit("worldshim is not loaded")
    SHIM.worldshim_set(1_700_000_000, bytes(range(SEED_BYTES)))
    first = os.urandom(16), int(time.time())
    SHIM.worldshim_set(1_700_000_000, bytes(range(SEED_BYTES)))
    again = os.urandom(16), int(time.time())
    if first != again or first[1] != 1_700_000_000:
        sys.exit(f"worldshim is loaded but not in effect: {first} then {again}")
    # Flushes are skipped once armed (worldshim.c, "Durability"), and only for open descriptors.
    import tempfile
    try:
        flushes = SHIM.worldshim_flushes_skipped
    except AttributeError:
        sys.exit("worldshim is older than drivers/mdk/worldshim/worldshim.c (no worldshim_flushes_skipped): rebuild it")
    flushes.restype = ctypes.c_uint64
    skipped = flushes()
    with tempfile.TemporaryFile() as scratch:
        scratch.write(b"flush")
        os.fsync(scratch.fileno())
        os.fdatasync(scratch.fileno())
    if flushes() != skipped + 2:
        sys.exit("worldshim is loaded but still flushes: a run would wait on the disk for every MDK commit")
    closed = os.open(os.devnull, os.O_RDONLY)
    os.close(closed)
    try:
        os.fsync(closed)
    except OSError:
        pass
    else:
        sys.exit("worldshim answered a flush of a closed descriptor with success")
