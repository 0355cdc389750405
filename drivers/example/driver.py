#!/usr/bin/env python3
"""The smallest driver docs/driver-protocol.md allows ("Write a driver"): it hosts instances that
hold no engine, declares no engine capability (so every scenario is reported unsupported, never
failed), and answers everything else as the protocol says. Start an engine's driver from here:
add a capability to CAPABILITIES only with the methods it needs. Every line is exercised by
Tests/MarmotConformCLITests/ExampleDriverTests.swift (check-driver under Python's trace module).
"""
import json
import sys

CAPABILITIES = ["world.virtual_clock", "world.seeded_random"]  # nothing here reads a clock or draws randomness
METHODS = ("hello", "create_instance", "destroy_instance", "groups")


class Refusal(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def world(request):
    """Every request but hello runs on the world: a virtual instant and, for calls that may draw, a seed."""
    stamp = request.get("world")
    if stamp is None:
        raise Refusal("bad_request", "this driver runs on the world's clock: the request needs `world`")
    if not isinstance(stamp, dict) or not isinstance(stamp.get("unix_time"), int) or stamp["unix_time"] < 0:
        raise Refusal("bad_request", "`world.unix_time` must be a non-negative integer")


def serve(instances, method, params):
    if method not in METHODS:
        raise Refusal("unknown_method", f"unknown method `{method}`")
    if method == "hello":
        return {"protocol_version": 1, "name": "example", "version": "0.1", "capabilities": CAPABILITIES,
                "world": {"clock": "virtual", "random": "seeded"}}
    name = params.get("instance")
    if not isinstance(name, str):
        raise Refusal("bad_request", "missing parameter `instance`")
    if method == "create_instance":
        key = params.get("encryption_key")
        if not isinstance(key, str) or len(key) != 64:
            raise Refusal("bad_request", "missing parameter `encryption_key` (32 bytes hex)")
        if name in instances:
            raise Refusal("instance_exists", f"instance `{name}` already exists")
        instances[name] = {"groups": []}
        return {"instance": name}
    if name not in instances:
        raise Refusal("unknown_instance", f"no instance `{name}`")
    if method == "destroy_instance":
        del instances[name]
        return {}
    return {"groups": instances[name]["groups"]}


def respond(instances, line):
    """Exactly one response object per request line."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return {"id": None, "error": {"code": "bad_request", "message": f"not JSON: {error}"}}
    if not isinstance(request, dict) or type(request.get("id")) is not int:
        return {"id": None, "error": {"code": "bad_request", "message": "a request is an object with an integer `id`"}}
    try:
        method, params = request.get("method"), request.get("params", {})
        if not isinstance(params, dict):
            raise Refusal("bad_request", "`params` must be an object")
        if method != "hello":
            world(request)
        return {"id": request["id"], "result": serve(instances, method, params)}
    except Refusal as refusal:
        return {"id": request["id"], "error": {"code": refusal.code, "message": refusal.message}}


def main():
    instances = {}
    for line in sys.stdin:  # ends when the client closes stdin: then exit 0
        if line.strip():
            sys.stdout.write(json.dumps(respond(instances, line)) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
