#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/) from the project's own vectors.

Each seed is a real input of its decoder taken from vectors/ (MLS WG, MDK 0.8.0 captures, rust-nostr,
NIP-44), so the fuzzer starts from the grammar instead of from nothing. The output is committed; run
this again only when the vectors change. File names are the first 16 hex digits of the seed's SHA-256.
"""
import hashlib
import json
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
OUT = ROOT / "fuzz" / "corpus"
PER_TARGET = 40


def load(path):
    return json.loads((VECTORS / path).read_text())


def varint(n):
    """RFC 9420 §2.1.2 variable-length integer."""
    if n < 1 << 6:
        return bytes([n])
    if n < 1 << 14:
        return (n | 0x4000).to_bytes(2, "big")
    return (n | 0x80000000).to_bytes(4, "big")


def group_data(fields):
    """The MIP-01 extension bytes from the MDK capture's field-by-field description."""
    out = b""
    for field in fields:
        value = field["value"]
        name = field["field"]
        if name.startswith("version"):
            out += int(value).to_bytes(2, "big")
        elif name.startswith("nostr_group_id"):
            out += bytes.fromhex(value)
        elif name.startswith("admin_pubkeys"):
            body = b"".join(bytes.fromhex(v) for v in value)
            out += varint(len(body)) + body
        elif name.startswith("relays"):
            body = b"".join(varint(len(v.encode())) + v.encode() for v in value)
            out += varint(len(body)) + body
        elif name.startswith(("name", "description")):
            out += varint(len(value.encode())) + value.encode()
        else:
            raw = bytes.fromhex(value) if value else b""
            out += varint(len(raw)) + raw
    return out


# Sources/MLS/RatchetTree/Node.swift, RatchetTreeNodes.maxNodes: the widest tree our reader reads
# (2^15 leaves).
MAX_TREE_NODES = 2 * (1 << 15) - 1


def read_varint(data, at):
    """The value and end of the RFC 9420 §2.1.2 varint at `at`."""
    prefix = data[at] >> 6
    size = 1 << prefix
    value = int.from_bytes(data[at:at + size], "big") & ((1 << (8 * size - 2)) - 1)
    return value, at + size


def skip_vector(data, at):
    length, at = read_varint(data, at)
    return at + length


def tree_nodes(tree):
    """The wire bytes of each `optional<Node>` of a ratchet_tree vector (RFC 9420 §7.8, §12.4.3.3)."""
    length, at = read_varint(tree, 0)
    end, nodes = at + length, []
    while at < end:
        start = at
        if tree[at] == 1:
            kind, at = tree[at + 1], at + 2
            if kind == 1:  # LeafNode: keys, credential, capabilities, source, extensions, signature
                at = skip_vector(tree, skip_vector(tree, at))
                credential, at = int.from_bytes(tree[at:at + 2], "big"), at + 2
                at = skip_vector(tree, at) if credential == 1 else skip_vector(tree, at)
                for _ in range(5):
                    at = skip_vector(tree, at)
                source, at = tree[at], at + 1
                at = at + 16 if source == 1 else (skip_vector(tree, at) if source == 3 else at)
                at = skip_vector(tree, skip_vector(tree, at))
            else:  # ParentNode: encryption_key, parent_hash, unmerged_leaves
                for _ in range(3):
                    at = skip_vector(tree, at)
        else:
            at += 1
        nodes.append(tree[start:at])
    return nodes


def widened(tree, slots):
    """`tree` with blank slots added before it, so that it has `slots` nodes: leaves stay at even
    indices and the last node stays non-blank, so only its width is new (the width cap's edge)."""
    nodes = tree_nodes(tree)
    body = bytes(slots - len(nodes)) + b"".join(nodes)
    return varint(len(body)) + body


def seeds():
    corpus = {}

    def add(target, data):
        if isinstance(data, str):
            data = data.encode()
        corpus.setdefault(target, [])
        if data not in corpus[target] and len(corpus[target]) < PER_TARGET:
            corpus[target].append(data)

    for case in load("nostr-sdk-0.45.1/events.json")["events"]:
        text = case["event_json"]
        add("json", text)
        add("nostr-event", text)
        add("client-frame", '["EVENT",%s]' % text)
        add("relay-frame", '["EVENT","sub",%s]' % text)
        add("client-frame", '["REQ","s",{"kinds":[445],"#h":["%s"],"limit":10}]' % json.loads(text).get("id", "00")[:64])
        add("relay-frame", '["OK","%s",true,"duplicate: already have it"]' % json.loads(text).get("id", "00")[:64])
    for frame in ('["EOSE","s"]', '["CLOSED","s","rate-limited: slow down"]', '["NOTICE","hello"]',
                  '["AUTH","challenge"]', '["COUNT","c",{"count":3}]'):
        add("relay-frame", frame)
    for frame in ('["CLOSE","s"]', '["COUNT","c",{"kinds":[1]},{"authors":["ab"]}]'):
        add("client-frame", frame)
    nip19 = load("nostr-sdk-0.45.1/nip19.json")
    for key in nip19["keys"]:
        add("nip19", key["npub"])
        add("nip19", key["nsec"])
    add("nip19", nip19["note"]["note"])
    nip44 = load("nip44/nip44.vectors.json")["v2"]
    for case in nip44["valid"]["encrypt_decrypt"]:
        add("nip44-payload", case["payload"])
    for case in nip44["invalid"]["decrypt"]:
        add("nip44-payload", case["payload"])
    for case in load("mls/messages.json"):
        for key in ("mls_welcome", "mls_group_info", "mls_key_package", "public_message_application",
                    "public_message_proposal", "public_message_commit", "private_message"):
            add("mls-message", bytes.fromhex(case[key]))
        # The bodies inside the MLSMessage framing (version and wire format: 4 bytes).
        add("mls-welcome", bytes.fromhex(case["mls_welcome"])[4:])
        add("mls-group-info", bytes.fromhex(case["mls_group_info"])[4:])
        add("mls-key-package", bytes.fromhex(case["mls_key_package"])[4:])
        add("ratchet-tree", bytes.fromhex(case["ratchet_tree"]))
    for case in load("mls/welcome.json"):
        add("mls-message", bytes.fromhex(case["welcome"]))
        add("mls-welcome", bytes.fromhex(case["welcome"])[4:])
        add("mls-key-package", bytes.fromhex(case["key_package"])[4:])
    for case in load("mls/tree-validation.json"):
        add("ratchet-tree", bytes.fromhex(case["tree"]))
    # The width cap's edges (issue 30, N5), beyond the per-target count: a tree of exactly the cap
    # and one a full leaf past it. A Welcome carries its tree encrypted, so the Welcome target's
    # edge is a Welcome of the size such a tree makes (its encrypted_group_info that long).
    small = bytes.fromhex(load("mls/messages.json")[0]["ratchet_tree"])
    for slots in (MAX_TREE_NODES, MAX_TREE_NODES + 2):
        corpus["ratchet-tree"].append(widened(small, slots))
    welcome = bytes.fromhex(load("mls/messages.json")[0]["mls_welcome"])[4:]
    suite, at = welcome[:2], 2
    secrets_end = skip_vector(welcome, at)
    for slots in (MAX_TREE_NODES, MAX_TREE_NODES + 2):
        info = bytes(slots + 512)
        corpus["mls-welcome"].append(suite + welcome[at:secrets_end] + varint(len(info)) + info)
    welcome = load("mdk-0.8.0/02_create_group_welcome.json")
    for member in welcome["members"].values():
        add("marmot-group-data", group_data(member["decrypted"]["marmot_group_data"]["fields"]))
        add("mls-group-info", bytes.fromhex(member["decrypted"]["group_info_hex"]))
        add("relay-frame", '["EVENT","inbox",%s]' % json.dumps(member["rumor"]))
    # Every shipped scenario file (the YAML grammar and the typed model), smallest first.
    for path in sorted((ROOT / "scenarios").rglob("*.yaml"), key=lambda p: p.stat().st_size):
        add("scenario-file", path.read_bytes())
    for line in (VECTORS / "driver-replies/mdk-0.8.0.jsonl").read_text().splitlines():
        add("driver-reply", line)
    # Our engine's version-1 state files (vectors/engine-state/SOURCE.md).
    for path in sorted((VECTORS / "engine-state").glob("*.state")):
        add("engine-state", path.read_bytes())
    return corpus


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    for target, items in sorted(seeds().items()):
        folder = OUT / target
        folder.mkdir(parents=True)
        for data in items:
            (folder / hashlib.sha256(data).hexdigest()[:16]).write_bytes(data)
        print(f"{target}: {len(items)} seeds")


if __name__ == "__main__":
    main()
