"""Checks events made by marmot-conform with rust-nostr (PyPI nostr-sdk).

Reads a JSON array of event JSON strings on stdin; for each, rust-nostr parses it, verifies the id
and the signature, and re-serializes it. Prints one JSON object: {"results": [{"ok": bool,
"id": str, "error": str}]}, in input order. Exit status 0 unless the input itself is unreadable.
"""
import json
import sys

import nostr_sdk


def check(event_json: str) -> dict:
    try:
        event = nostr_sdk.Event.from_json(event_json)
        if not event.verify_id():
            return {"ok": False, "error": "id does not match"}
        if not event.verify_signature():
            return {"ok": False, "error": "signature does not verify"}
        return {"ok": True, "id": event.id().to_hex()}
    except Exception as error:  # rust-nostr raises its own exception types; report them all
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}


def main() -> None:
    events = json.load(sys.stdin)
    json.dump({"results": [check(e) for e in events]}, sys.stdout)


if __name__ == "__main__":
    main()
