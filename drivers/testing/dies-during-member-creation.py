#!/usr/bin/env python3
"""A stand-in MDK driver for tests of the runner's failure handling (not an engine).

It answers `hello` as MDK on the world's clock would and lets the CLI create its `probe` instance, so the
engine session starts; then, on the first member's `create_instance`, it writes a line to stderr and
exits with status 3 — a driver that dies during member creation. Use it through the CLI with
MARMOT_MDK_DRIVER="drivers/testing/dies-during-member-creation.py" (see docs/driver-protocol.md).
"""
import json
import sys

HELLO = {
    "protocol_version": 1, "name": "mdk", "version": "0.8.0", "client_tag": "MDK/0.8.0",
    "capabilities": ["group.create", "world.virtual_clock", "world.seeded_random"],
    "world": {"shim_version": 1, "clock": "virtual", "random": "seeded"},
}

for line in sys.stdin:
    request = json.loads(line)
    method, params = request.get("method"), request.get("params") or {}
    if method == "hello":
        result = HELLO
    elif method == "create_instance" and params.get("instance") == "probe":
        result = {"instance": "probe"}
    else:
        print(f"stand-in driver: dying during {method} of {params.get('instance')}", file=sys.stderr, flush=True)
        sys.exit(3)
    print(json.dumps({"id": request["id"], "result": result}), flush=True)
