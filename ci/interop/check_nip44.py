"""Checks NIP-44 v2 payloads made by marmot-conform with rust-nostr (PyPI nostr-sdk).

Reads a JSON array on stdin, each item {"payload", "recipient_secret_hex", "sender_pubkey_hex"};
rust-nostr decrypts each payload as the recipient. Prints one JSON object:
{"results": [{"ok": bool, "plaintext": str, "error": str}]}, in input order. Exit status 0 unless
the input itself is unreadable.
"""
import nostr_sdk

from peer_check import run_checks


def check(item: dict) -> dict:
    plaintext = nostr_sdk.nip44_decrypt(
        nostr_sdk.SecretKey.parse(item["recipient_secret_hex"]),
        nostr_sdk.PublicKey.parse(item["sender_pubkey_hex"]),
        item["payload"],
    )
    return {"ok": True, "plaintext": plaintext}


if __name__ == "__main__":
    run_checks(check)
