"""The stdin/stdout protocol shared by the check_*.py peer scripts.

A JSON array of items arrives on stdin; each goes through a check function that returns a verdict
dict; {"results": [verdict, ...]} leaves on stdout in input order. An exception raised by the peer
library becomes {"ok": False, "error": ...} for that item, so one bad item never hides the others.
"""
import json
import sys
from typing import Callable


def run_checks(check: Callable[[dict], dict]) -> None:
    def guarded(item: dict) -> dict:
        try:
            return check(item)
        except Exception as error:  # rust-nostr raises its own exception types; report them all
            return {"ok": False, "error": f"{type(error).__name__}: {error}"}

    json.dump({"results": [guarded(item) for item in json.load(sys.stdin)]}, sys.stdout)
