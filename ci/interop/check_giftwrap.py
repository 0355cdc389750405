"""Checks NIP-59 gift wraps made by marmot-conform with rust-nostr (PyPI nostr-sdk).

Reads a JSON array on stdin, each item {"gift_wrap_json", "recipient_secret_hex"}; rust-nostr parses
the wrap, verifies it and unwraps it as the recipient (UnwrappedGift.from_gift_wrap, which verifies
the seal). Prints one JSON object: {"results": [{"ok": bool, "sender": hex, "rumor_id": hex,
"rumor_kind": int, "rumor_content": str, "error": str}]}, in input order. Exit status 0 unless the
input itself is unreadable.
"""
import nostr_sdk

from peer_check import run_checks


def check(item: dict) -> dict:
    wrap = nostr_sdk.Event.from_json(item["gift_wrap_json"])
    if not wrap.verify():
        return {"ok": False, "error": "gift wrap id or signature does not verify"}
    unwrapped = nostr_sdk.UnwrappedGift.from_gift_wrap(nostr_sdk.Keys.parse(item["recipient_secret_hex"]), wrap)
    rumor = unwrapped.rumor()
    rumor_id = rumor.id()
    return {
        "ok": True,
        "sender": unwrapped.sender().to_hex(),
        "rumor_id": rumor_id.to_hex() if rumor_id is not None else None,
        "rumor_kind": rumor.kind().as_u16(),
        "rumor_content": rumor.content(),
    }


if __name__ == "__main__":
    run_checks(check)
