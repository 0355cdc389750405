#!/usr/bin/env python3
"""A deliberately broken driver, for `marmot-conform check-driver` (not an engine): it answers
hello correctly, then gets the protocol wrong in the ways drivers commonly do, so that the checker
must name each one (Tests/MarmotConformCLITests/CheckDriverTests.swift):

- a line that is not JSON: a Python traceback on stdout instead of a bad_request response;
- a request without an integer id: answered anyway, echoing whatever `id` was (or none);
- an unknown method, a missing parameter, a missing or ill-typed `world`: an empty result;
- every instance name is accepted twice, and destroyed instances still answer;
- on stdin closing it exits with status 3.
"""
import json
import sys
import traceback

for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        traceback.print_exc(file=sys.stdout)  # wrong: logs belong on stderr
        sys.stdout.flush()
        continue
    if not isinstance(request, dict):
        continue  # wrong: no response at all
    method, params = request.get("method"), request.get("params")
    params = params if isinstance(params, dict) else {}  # wrong: ill-typed params pass silently
    if method == "hello":
        result = {"protocol_version": 1, "name": "broken", "version": "0", "capabilities": ["world.virtual_clock", "world.seeded_random"]}
    elif method == "create_instance":
        result = {"instance": params.get("instance", "i1")}
    elif method == "groups":
        result = {"groups": []}
    else:
        result = {}
    print(json.dumps({"id": request.get("id"), "result": result}), flush=True)
sys.exit(3)
