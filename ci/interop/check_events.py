"""Checks events made by marmot-conform with rust-nostr (PyPI nostr-sdk).

Reads a JSON array of event JSON strings on stdin; rust-nostr parses each, verifies its id and its
signature. Prints {"results": [{"ok": bool, "id": str, "error": str}]} in input order.
"""
import nostr_sdk

from peer_check import run_checks


def check(event_json: str) -> dict:
    event = nostr_sdk.Event.from_json(event_json)
    if not event.verify_id():
        return {"ok": False, "error": "id does not match"}
    if not event.verify_signature():
        return {"ok": False, "error": "signature does not verify"}
    return {"ok": True, "id": event.id().to_hex()}


if __name__ == "__main__":
    run_checks(check)
