#!/usr/bin/env python3
"""Serves rust-nostr's LocalRelay (PyPI nostr-sdk 0.45.1, drivers/requirements.txt) on loopback, as
a relay process of the real-network lane (docs/real-network.md, "Relay kinds").

It binds 127.0.0.1 on a free port (or --port), prints exactly one line to stdout,
`localrelay listening at ws://127.0.0.1:PORT`, and serves until its stdin closes, it receives
SIGTERM, or the process that started it is gone; it then stops the relay and exits. Nothing else is
written to stdout; errors go to stderr and exit non-zero before the line is printed.

LocalRelay's own defaults (60 EVENTs a minute per connection, 500 open REQs) would refuse a
1,000-message backlog with `rate-limited:`; the options raise them. `--default-limit` is the number
of stored events served for a filter without `limit` (LocalRelay's default: 500), `--max-limit` the
largest `limit` it honours.
"""

import argparse
import asyncio
import os
import signal
import sys
import threading
import time

import nostr_sdk as nostr


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--notes-per-minute", type=int, default=1_000_000, help="EVENTs a minute per connection")
    parser.add_argument("--max-reqs", type=int, default=5_000, help="open REQs per connection")
    parser.add_argument("--default-limit", type=int, default=None, help="results for a filter without limit")
    parser.add_argument("--max-limit", type=int, default=None, help="largest limit honoured")
    return parser.parse_args()


async def serve(arguments, stop):
    builder = nostr.LocalRelayBuilder().addr("127.0.0.1").rate_limit(
        nostr.RateLimit(max_reqs=arguments.max_reqs, notes_per_minute=arguments.notes_per_minute))
    if arguments.port:
        builder = builder.port(arguments.port)
    if arguments.default_limit is not None:
        builder = builder.default_filter_limit(arguments.default_limit)
    if arguments.max_limit is not None:
        builder = builder.max_filter_limit(arguments.max_limit)
    relay = builder.build()
    await relay.run()
    url = str(await relay.url()).rstrip("/")
    if not url.startswith("ws://127.0.0.1:"):
        relay.shutdown()
        sys.exit(f"localrelay-host: LocalRelay bound {url}, not loopback")
    print(f"localrelay listening at {url}", flush=True)
    await stop.wait()
    relay.shutdown()


def main():
    arguments = parse_arguments()
    parent = os.getppid()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    def request_stop(*_):
        loop.call_soon_threadsafe(stop.set)

    # Closed stdin: the launcher is done with us (or gone).
    def watch_stdin():
        # os.read, not sys.stdin: a daemon thread blocked inside the buffered reader holds its lock
        # and aborts the interpreter's shutdown.
        while os.read(0, 4096):
            pass
        request_stop()

    # A parent killed with SIGKILL never closes our stdin if a grandchild inherited it: poll too.
    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        request_stop()

    threading.Thread(target=watch_stdin, name="stdin-watch", daemon=True).start()
    threading.Thread(target=watch_parent, name="parent-watch", daemon=True).start()
    loop.add_signal_handler(signal.SIGTERM, request_stop)
    loop.add_signal_handler(signal.SIGINT, request_stop)
    try:
        loop.run_until_complete(serve(arguments, stop))
    finally:
        loop.close()
    # The watch threads may still block in read() or sleep(): leave without waiting for them.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
