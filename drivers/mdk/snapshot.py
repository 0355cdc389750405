"""The canonical protocol snapshot (marmot-protocol/marmot, foundation/conformance.md) of an MDK 0.8.0 group,
as far as mdk-python exposes it (docs/driver-protocol.md, `protocol_snapshot`).

mdk-python gives the group record (id, epoch, state), the messages, and the TLS-serialized ratchet tree
(`get_ratchet_tree_info().serialized_tree`). The leaves, with their capabilities, are read from that tree here.
Nothing exposes the GroupContext (so no GroupContext hash, no exporter, no required capabilities, no
group-data bytes), the staged commit's event, gates or the disposition of processed inputs: those fields are
`unsupported`, each with its reason.
"""


class TreeError(Exception):
    pass


class Reader:
    """RFC 9420 TLS presentation reader: big-endian integers and vectors with a variable-length size."""

    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, count):
        if count < 0 or self.at + count > len(self.data):
            raise TreeError(f"ratchet tree truncated at byte {self.at}")
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk

    def uint(self, width):
        return int.from_bytes(self.take(width), "big")

    def varint(self):
        # §2.1.2: the two top bits of the first byte give the length (1, 2 or 4 bytes); 0b11 is invalid,
        # and a value must use the shortest form.
        first = self.data[self.at] if self.at < len(self.data) else None
        if first is None:
            raise TreeError("ratchet tree truncated in a length")
        width = {0: 1, 1: 2, 2: 4}.get(first >> 6)
        if width is None:
            raise TreeError("invalid variable-length integer prefix 0b11")
        value = self.uint(width) & ((1 << (8 * width - 2)) - 1)
        if width > 1 and value < (1 << (8 * (width // 2) - 2)):
            raise TreeError("variable-length integer not in its shortest form")
        return value

    def opaque(self):
        return self.take(self.varint())

    def vector(self, item):
        """Items read by `item` from a length-prefixed vector, which they must fill exactly."""
        inner = Reader(self.opaque())
        items = []
        while inner.at < len(inner.data):
            items.append(item(inner))
        return items

    def done(self):
        if self.at != len(self.data):
            raise TreeError(f"{len(self.data) - self.at} trailing bytes")


def uint16s(reader):
    return reader.vector(lambda r: r.uint(2))


def credential(reader):
    # struct { CredentialType credential_type; select: basic: opaque identity<V>; x509: Certificate certificates<V>; }
    kind = reader.uint(2)
    if kind == 1:
        return reader.opaque().hex()
    if kind == 2:
        reader.vector(lambda r: r.opaque())
        return "x509"
    raise TreeError(f"unknown credential type {kind}")


def components(extensions):
    """The ids an `app_data_dictionary` (0x0006) entry `app_components` (0x0001) lists, or None."""
    data = extensions.get(0x0006)
    if data is None:
        return None
    dictionary = Reader(data)
    entries = dictionary.vector(lambda r: (r.uint(2), r.opaque()))
    dictionary.done()
    for component, value in entries:
        if component == 0x0001:
            ids = Reader(value)
            listed = uint16s(ids)
            ids.done()
            return listed
    return None


def leaf_node(reader, index):
    reader.opaque()  # encryption_key
    signature_key = reader.opaque()
    identity = credential(reader)
    capabilities = {name: uint16s(reader) for name in ("versions", "cipher_suites", "extensions", "proposals", "credentials")}
    source = reader.uint(1)
    if source == 1:
        reader.take(16)  # Lifetime: not_before, not_after
    elif source == 3:
        reader.opaque()  # parent_hash
    elif source != 2:
        raise TreeError(f"unknown leaf_node_source {source}")
    extensions = {}
    for kind, data in reader.vector(lambda r: (r.uint(2), r.opaque())):
        if kind in extensions:
            raise TreeError(f"leaf {index} repeats extension {kind}")
        extensions[kind] = data
    reader.opaque()  # signature
    capabilities["components"] = components(extensions)
    return {"index": index, "identity": identity, "signature_key": signature_key.hex(), "capabilities": capabilities}


def leaves(serialized_hex):
    """Every nonblank leaf of `optional<Node> ratchet_tree<V>` in leaf-index order."""
    reader = Reader(bytes.fromhex(serialized_hex))
    nodes = Reader(reader.opaque())
    reader.done()
    found, position = [], 0
    while nodes.at < len(nodes.data):
        present = nodes.uint(1)
        if present == 1:
            kind = nodes.uint(1)
            if kind == 1:
                if position % 2:
                    raise TreeError(f"a leaf at parent position {position}")
                found.append(leaf_node(nodes, position // 2))
            elif kind == 2:
                if position % 2 == 0:
                    raise TreeError(f"a parent at leaf position {position}")
                nodes.opaque()  # encryption_key
                nodes.opaque()  # parent_hash
                nodes.vector(lambda r: r.uint(4))  # unmerged_leaves
            else:
                raise TreeError(f"unknown node type {kind}")
        elif present != 0:
            raise TreeError(f"optional<Node> presence byte {present}")
        position += 1
    return found


UNSUPPORTED = {
    "group_context_hash": "mdk-python 0.8.0 exposes no GroupContext",
    "exporter_commitment": "mdk-python 0.8.0 exposes no MLS exporter",
    "required_capabilities": "mdk-python 0.8.0 exposes no GroupContext extensions (group_required_proposals gives only proposal types)",
    "app_data_dictionary": "mdk-python 0.8.0 exposes the decoded group data (name, description, admins, relays, image), "
                           "not the 0xF2EE extension's bytes",
    "convergence": "MDK 0.8.0 settles commit races at ingest and exposes no convergence pass",
    "local_gates": "mdk-python 0.8.0 exposes no gate state",
    "pending_publications": "mdk-python 0.8.0 exposes pending member changes, not the staged commit's event",
    "input_dispositions": "mdk-python 0.8.0 exposes no query of the events it processed",
}


def snapshot(group, tree_info, messages):
    """The `protocol_snapshot` result from mdk-python's group record, ratchet-tree info and messages."""
    try:
        tree_leaves = leaves(tree_info.serialized_tree)
    except (TreeError, ValueError) as exc:
        raise TreeError(f"MDK's serialized ratchet tree does not parse: {exc}") from None
    result = {name: {"unsupported": reason} for name, reason in UNSUPPORTED.items()}
    result.update({
        "mls_group_id": {"value": group.mls_group_id.lower()},
        "epoch": {"value": group.epoch},
        "leaves": {"value": tree_leaves},
        "lifecycle": {"value": group.state},
        "effects": {"value": sorted({f"message:{message.id}" for message in messages})},
    })
    return result
