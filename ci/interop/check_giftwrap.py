"""Checks NIP-59 gift wraps made by marmot-conform with rust-nostr (PyPI nostr-sdk).

Reads a JSON array on stdin, each item {"gift_wrap_json", "recipient_secret_hex"}; rust-nostr parses
the wrap and unwraps it as the recipient (UnwrappedGift.from_gift_wrap, which verifies the seal).
Prints one JSON object: {"results": [{"ok": bool, "sender": hex, "rumor_id": hex, "rumor_kind": int,
"rumor_content": str, "error": str}]}, in input order. Exit status 0 unless the input itself is
unreadable.
"""
import json
import sys

import nostr_sdk


def check(item: dict) -> dict:
    try:
        wrap = nostr_sdk.Event.from_json(item["gift_wrap_json"])
        if not wrap.verify():
            return {"ok": False, "error": "gift wrap id or signature does not verify"}
        keys = nostr_sdk.Keys.parse(item["recipient_secret_hex"])
        unwrapped = nostr_sdk.UnwrappedGift.from_gift_wrap(keys, wrap)
        rumor = unwrapped.rumor()
        rumor_id = rumor.id()
        return {
            "ok": True,
            "sender": unwrapped.sender().to_hex(),
            "rumor_id": rumor_id.to_hex() if rumor_id is not None else None,
            "rumor_kind": rumor.kind().as_u16(),
            "rumor_content": rumor.content(),
        }
    except Exception as error:  # rust-nostr raises its own exception types; report them all
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}


def main() -> None:
    json.dump({"results": [check(item) for item in json.load(sys.stdin)]}, sys.stdout)


if __name__ == "__main__":
    main()
