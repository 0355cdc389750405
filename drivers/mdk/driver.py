#!/usr/bin/env python3
"""marmot-conform engine driver for MDK 0.8.0 (mdk-python), speaking docs/driver-protocol.md.

The same file hosts MDK 0.7.0 (the `mdk-0.7` engine: drivers/mdk/driver-0.7 runs it from
.venv-mdk07, where mdk-python 0.7.0 is installed). Which one it is comes from the imported package's
version; where 0.7.0 lacks a call (see `MDK_07`), the capability is not declared.

One process hosts many engine instances (one per simulated member). Requests arrive as JSON lines on
stdin; each gets exactly one JSON-line response on stdout with the same id. Nothing else is ever
written to stdout (MDK's own diagnostics go to stderr), so the stream stays parseable.
"""

import time

STARTED = time.perf_counter()  # monotonic (the world shim leaves it alone): for MARMOT_DRIVER_PROFILE only

import base64
import binascii
import json
import os
import shutil
import sys
import tempfile
import traceback

import profile_log
import snapshot
import world

PROTOCOL_VERSION = 1

try:
    import mdk
    from mdk import mdk_uniffi as uniffi
    from mdk.version import __version__ as MDK_VERSION
    IMPORT_ERROR = None
except Exception as exc:  # reported on every request, so the client sees why instead of a dead pipe
    mdk = uniffi = None
    MDK_VERSION = "unknown"
    IMPORT_ERROR = f"{type(exc).__name__}: {exc}"
IMPORTED = time.perf_counter()

# MDK 0.7.0 (the version-skew peer): the same lineage and method names, an older wire behaviour.
# It has no `self_demote`, no `get_ratchet_tree_info` (so no exact state or protocol snapshot), no
# `event_tags` on `create_message`, and its key packages come with the tags of kind 443 only (no `d`).
MDK_07 = MDK_VERSION.startswith("0.7.")
# What 0.7.0 cannot answer: left out of `hello`, and answered `unknown_method` if asked anyway.
# Its key packages are kind 443 only (no `d` tag), so it does not claim `key_package.30443`: a scenario
# that copies or faults a member's kind-30443 key package is unsupported on it, not a run that finds
# nothing to select (the legacy profile takes a key package of either kind).
MISSING_IN_07 = {"group.self_demote", "group.exact_state", "group.protocol_snapshot", "key_package.30443"}

CAPABILITIES = [
    "key_package.30443",
    "key_package.443",
    "key_package.protected",
    "group.create",
    "group.add_members",
    "group.remove_members",
    "group.leave",
    "group.self_demote",
    "group.self_update",
    "group.update_data",
    "group.pending_commit",
    "message.application",
    "group.exact_state",
    "group.protocol_snapshot",
    "welcome.process",
    "welcome.decline",
    "config.epoch_window",
    "storage.encryption_key",
    "group.image",
]


class DriverError(Exception):
    """An error with a stable protocol code (see docs/driver-protocol.md, "Errors")."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


# MDK raises MdkUniffiError.{Mdk,Storage,InvalidInput} with free text only. These substrings of
# MDK 0.8.0's messages map to protocol codes; anything unmatched keeps the generic code.
MDK_ERROR_CODES = [
    ("only admins can perform this operation", "not_admin"),
    ("last active admin", "last_admin"),
    ("admins must self-demote", "admin_cannot_leave"),
    ("cannot remove yourself", "cannot_remove_self"),
    ("commit from non-admin", "commit_from_non_admin"),
    ("commitfromnonadmin", "commit_from_non_admin"),
    ("non-admin", "commit_from_non_admin"),
    ("failed to decrypt message with any exporter secret", "undecryptable"),
    ("author mismatch", "author_mismatch"),
    ("authormismatch", "author_mismatch"),
    ("group not found", "unknown_group"),
    ("groupnotfound", "unknown_group"),
    ("welcome", "invalid_welcome"),
    ("key package", "invalid_key_package"),
    ("keypackage", "invalid_key_package"),
    ("encoding", "invalid_encoding"),
    ("too old", "event_too_old"),
    ("in the future", "event_in_future"),
    ("timestamp", "invalid_timestamp"),
    ("tag", "invalid_tags"),
    ("epoch", "wrong_epoch"),
]


def classify(exc):
    """(code, message) for an exception raised by MDK."""
    # uniffi renders the Rust message as a Python repr ('...'); the quotes are not part of it.
    text = str(exc).strip().strip("'\"").strip() or type(exc).__name__
    lowered = text.lower()
    for needle, code in MDK_ERROR_CODES:
        if needle in lowered:
            return code, text
    if uniffi is not None and isinstance(exc, uniffi.MdkUniffiError.STORAGE):
        return "storage", text
    if uniffi is not None and isinstance(exc, uniffi.MdkUniffiError.INVALID_INPUT):
        return "invalid_input", text
    return "engine_error", text


# ---------------------------------------------------------------------------------------------
# Parameter access


def need(params, name, kind):
    if name not in params:
        raise DriverError("bad_request", f"missing parameter `{name}`")
    value = params[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DriverError("bad_request", f"parameter `{name}` has the wrong type")
    return value


def optional(params, name, kind, default=None):
    if params.get(name) is None:
        return default
    return need(params, name, kind)


def string_list(params, name):
    value = need(params, name, list)
    if not all(isinstance(item, str) for item in value):
        raise DriverError("bad_request", f"parameter `{name}` must be a list of strings")
    return value


def tag_list(params, name, default=None):
    """A list of tags, each a non-empty list of strings (NIP-01)."""
    value = optional(params, name, list)
    if value is None:
        return default
    if not all(isinstance(tag, list) and tag and all(isinstance(item, str) for item in tag) for tag in value):
        raise DriverError("bad_request", f"parameter `{name}` must be a list of non-empty string lists")
    return value


def event_json(params, name):
    """An event or rumor given as a JSON object, re-serialized for MDK."""
    return json.dumps(need(params, name, dict), ensure_ascii=False, separators=(",", ":"))


def event_list(params, name):
    value = need(params, name, list)
    if not all(isinstance(item, dict) for item in value):
        raise DriverError("bad_request", f"parameter `{name}` must be a list of event objects")
    return [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in value]


def key_package_json(event):
    """A key-package event as the imported MDK reads it. MDK 0.7.0 reads kind 443 only (it refuses
    30443: "unexpected event kind"); MDK 0.8.0 published a kind-443 twin of each kind-30443 key
    package for such peers during the migration (same content, the tags without `d`). That twin is
    what 0.7.0 is given; 0.8.0 gets the event as it came."""
    if MDK_07 and event.get("kind") == 30443:
        event = dict(event, kind=443, tags=[tag for tag in event.get("tags", []) if not (tag and tag[0] == "d")])
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def key_package_event(params, name):
    return key_package_json(need(params, name, dict))


def key_package_events(params, name):
    value = need(params, name, list)
    if not all(isinstance(item, dict) for item in value):
        raise DriverError("bad_request", f"parameter `{name}` must be a list of event objects")
    return [key_package_json(item) for item in value]


def hex_bytes(params, name, length=None):
    text = optional(params, name, str)
    if text is None:
        return None
    try:
        value = bytes.fromhex(text)
    except ValueError:
        raise DriverError("bad_request", f"parameter `{name}` is not hex") from None
    if length is not None and len(value) != length:
        raise DriverError("bad_request", f"parameter `{name}` must be {length} bytes")
    return value


def base64_bytes(params, name):
    text = need(params, name, str)
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise DriverError("bad_request", f"parameter `{name}` is not base64") from None


def image_object(params, name):
    """An image object: hash, key and nonce in hex, of their MIP-01 lengths (32, 32, 12 bytes)."""
    image = need(params, name, dict)
    fields = []
    for field, length in (("hash", 32), ("key", 32), ("nonce", 12)):
        value = hex_bytes(image, field, length)
        if value is None:
            raise DriverError("bad_request", f"parameter `{name}` needs `{field}`")
        fields.append(value)
    return tuple(fields)


# ---------------------------------------------------------------------------------------------
# Result encoding


def hex_or_none(value):
    return None if value is None else bytes(value).hex()


def group_json(group):
    return {
        "mls_group_id": group.mls_group_id,
        "nostr_group_id": group.nostr_group_id,
        "name": group.name,
        "description": group.description,
        "image_hash": hex_or_none(group.image_hash),
        "image_key": hex_or_none(group.image_key),
        "image_nonce": hex_or_none(group.image_nonce),
        "admin_pubkeys": sorted(group.admin_pubkeys),
        "last_message_id": group.last_message_id,
        "last_message_at": group.last_message_at,
        "epoch": group.epoch,
        "state": group.state,
        "self_update_state": group.self_update_state,
    }


def message_json(message):
    return {
        "id": message.id,
        "mls_group_id": message.mls_group_id,
        "event_id": message.event_id,
        "sender_pubkey": message.sender_pubkey,
        "rumor": json.loads(message.event_json),
        "created_at": message.created_at,
        "processed_at": message.processed_at,
        "kind": message.kind,
        "state": message.state,
    }


def welcome_json(welcome):
    return {
        "id": welcome.id,
        "wrapper_event_id": welcome.wrapper_event_id,
        "rumor": json.loads(welcome.event_json),
        "mls_group_id": welcome.mls_group_id,
        "nostr_group_id": welcome.nostr_group_id,
        "group_name": welcome.group_name,
        "group_description": welcome.group_description,
        "group_admin_pubkeys": sorted(welcome.group_admin_pubkeys),
        "group_relays": list(welcome.group_relays),
        "welcomer": welcome.welcomer,
        "member_count": welcome.member_count,
        "state": welcome.state,
    }


def update_json(result):
    rumors = result.welcome_rumors_json
    return {
        "mls_group_id": result.mls_group_id,
        "evolution_event": json.loads(result.evolution_event_json),
        "welcome_rumors": [json.loads(rumor) for rumor in rumors] if rumors is not None else [],
    }


def process_result_json(result):
    kinds = uniffi.ProcessMessageResult
    if isinstance(result, kinds.APPLICATION_MESSAGE):
        return {"type": "application_message", "message": message_json(result.message)}
    if isinstance(result, kinds.PROPOSAL):
        return {"type": "proposal", "update": update_json(result.result)}
    if isinstance(result, kinds.PENDING_PROPOSAL):
        return {"type": "pending_proposal", "mls_group_id": result.mls_group_id}
    if isinstance(result, kinds.EXTERNAL_JOIN_PROPOSAL):
        return {"type": "external_join_proposal", "mls_group_id": result.mls_group_id}
    if isinstance(result, kinds.COMMIT):
        return {"type": "commit", "mls_group_id": result.mls_group_id}
    if isinstance(result, kinds.UNPROCESSABLE):
        # MDK 0.8.0 records why (author mismatch, wrong epoch, duplicate...) only in its logs.
        return {"type": "unprocessable", "mls_group_id": result.mls_group_id, "reason": "unspecified"}
    if isinstance(result, kinds.IGNORED_PROPOSAL):
        return {"type": "ignored_proposal", "mls_group_id": result.mls_group_id, "reason": result.reason}
    if isinstance(result, kinds.PREVIOUSLY_FAILED):
        return {"type": "previously_failed"}
    raise DriverError("engine_error", f"unknown ProcessMessageResult {type(result).__name__}")


# ---------------------------------------------------------------------------------------------
# The driver


class Driver:
    def __init__(self, run_dir):
        self.run_dir = run_dir
        self.instances = {}
        self.counter = 0

    def engine(self, params):
        name = need(params, "instance", str)
        try:
            return self.instances[name][0]
        except KeyError:
            raise DriverError("unknown_instance", f"no instance `{name}`") from None

    # -- lifecycle -----------------------------------------------------------------------------

    def hello(self, params):
        fields, world_capabilities = world.hello_fields()
        return {
            "protocol_version": PROTOCOL_VERSION,
            "name": "mdk",
            "version": MDK_VERSION,
            "client_tag": f"MDK/{MDK_VERSION}",
            "capabilities": [c for c in CAPABILITIES if not (MDK_07 and c in MISSING_IN_07)] + world_capabilities,
            **fields,
        }

    def create_instance(self, params):
        key = hex_bytes(params, "encryption_key", 32)
        if key is None:
            raise DriverError("bad_request", "missing parameter `encryption_key` (32 bytes hex)")
        config = params.get("config") or {}
        if not isinstance(config, dict):
            raise DriverError("bad_request", "parameter `config` must be an object")
        fields = ["max_event_age_secs", "max_future_skew_secs", "out_of_order_tolerance",
                  "maximum_forward_distance", "max_past_epochs", "epoch_snapshot_retention",
                  "snapshot_ttl_seconds"]
        unknown = set(config) - set(fields)
        if unknown:
            raise DriverError("bad_request", f"unknown config fields {sorted(unknown)}")
        settings = {field: optional(config, field, int) for field in fields}
        self.counter += 1
        name = optional(params, "instance", str) or f"i{self.counter}"
        if name in self.instances:
            raise DriverError("instance_exists", f"instance `{name}` already exists")
        # A caller's directory (a member that restarts) is the caller's: its store is reopened when it
        # is there, and it is never removed here. Otherwise the instance gets a fresh one of ours.
        given = optional(params, "directory", str)
        if given is not None:
            if not os.path.isabs(given):
                raise DriverError("bad_request", "parameter `directory` must be an absolute path")
            directory = given
            os.makedirs(directory, exist_ok=True)
        else:
            directory = os.path.join(self.run_dir, f"{self.counter:04d}")
            os.makedirs(directory)
        try:
            engine = mdk.new_mdk_with_key(os.path.join(directory, "mdk.sqlite"), key, uniffi.MdkConfig(**settings))
        except Exception as exc:
            raise DriverError("storage", f"cannot open the store in {directory}: {type(exc).__name__}: {exc}") from None
        self.instances[name] = (engine, directory if given is None else None)
        return {"instance": name}

    def close_instance(self, params):
        # The instance goes, its store stays (a member that stops; `create_instance` with the same
        # `directory` reopens it). Dropping the last reference closes the SQLite connection.
        name = need(params, "instance", str)
        if name not in self.instances:
            raise DriverError("unknown_instance", f"no instance `{name}`")
        del self.instances[name]
        return {}

    def destroy_instance(self, params):
        name = need(params, "instance", str)
        if name not in self.instances:
            raise DriverError("unknown_instance", f"no instance `{name}`")
        _engine, directory = self.instances.pop(name)
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)
        return {}

    # -- key packages (MIP-00) -------------------------------------------------------------------

    def create_key_package(self, params):
        result = self.engine(params).create_key_package_for_event_with_options(
            need(params, "public_key", str), string_list(params, "relays"),
            optional(params, "protected", bool, False))
        if MDK_07:
            # MDK 0.7.0 predates kind 30443: its tags are those of kind 443 (no `d`, no
            # `mls_proposals`: it does not support SelfRemove). An empty `d_tag` tells the app layer
            # to publish kind 443, as 0.7.0's own apps did (GroupCore's publishKeyPackage).
            tags = [list(tag) for tag in result.tags]
            return {
                "content": result.key_package,
                "tags": tags,
                "tags_legacy": tags,
                "d_tag": "",
                "key_package_ref": bytes(result.hash_ref)[1:].hex(),
            }
        return {
            "content": result.key_package,
            "tags": result.tags,
            "tags_legacy": result.tags_legacy,
            "d_tag": result.d_tag,
            "key_package_ref": bytes(result.hash_ref)[1:].hex(),  # strip postcard's 0x20 length byte
        }

    def parse_key_package(self, params):
        # MDK returns the validated KeyPackage's TLS bytes, base64 (the event content re-encoded).
        return {"key_package": self.engine(params).parse_key_package(key_package_event(params, "event"))}

    # -- groups (MIP-01, MIP-03) -----------------------------------------------------------------

    def create_group(self, params):
        result = self.engine(params).create_group(
            need(params, "creator", str), key_package_events(params, "key_package_events"),
            need(params, "name", str), optional(params, "description", str, ""),
            string_list(params, "relays"), string_list(params, "admins"))
        return {
            "group": group_json(result.group),
            "welcome_rumors": [json.loads(rumor) for rumor in result.welcome_rumors_json],
        }

    def add_members(self, params):
        return update_json(self.engine(params).add_members(
            need(params, "mls_group_id", str), key_package_events(params, "key_package_events")))

    def remove_members(self, params):
        return update_json(self.engine(params).remove_members(
            need(params, "mls_group_id", str), string_list(params, "pubkeys")))

    def leave_group(self, params):
        return update_json(self.engine(params).leave_group(need(params, "mls_group_id", str)))

    def self_demote(self, params):
        if MDK_07:
            raise DriverError("unknown_method", "MDK 0.7.0 has no self_demote (capability group.self_demote not declared)")
        return update_json(self.engine(params).self_demote(need(params, "mls_group_id", str)))

    def self_update(self, params):
        return update_json(self.engine(params).self_update(need(params, "mls_group_id", str)))

    def update_group_data(self, params):
        changes = need(params, "changes", dict)
        allowed = {"name", "description", "relays", "admins", "image"}
        unknown = set(changes) - allowed
        if unknown:
            raise DriverError("bad_request", f"unsupported group data fields {sorted(unknown)}")
        # MDK's GroupDataUpdate has no image_upload_key: MDK leaves the group data's as it was.
        image_hash, image_key, image_nonce = (
            image_object(changes, "image") if changes.get("image") is not None else (None, None, None))
        update = uniffi.GroupDataUpdate(
            name=optional(changes, "name", str), description=optional(changes, "description", str),
            image_hash=image_hash, image_key=image_key, image_nonce=image_nonce,
            relays=string_list(changes, "relays") if changes.get("relays") is not None else None,
            admins=string_list(changes, "admins") if changes.get("admins") is not None else None)
        return update_json(self.engine(params).update_group_data(need(params, "mls_group_id", str), update))

    def merge_pending_commit(self, params):
        self.engine(params).merge_pending_commit(need(params, "mls_group_id", str))
        return {}

    def clear_pending_commit(self, params):
        self.engine(params).clear_pending_commit(need(params, "mls_group_id", str))
        return {}

    # -- messages --------------------------------------------------------------------------------

    def create_message(self, params):
        kind = need(params, "kind", int)
        if not 0 <= kind <= 0xFFFF:
            raise DriverError("bad_request", "parameter `kind` must be in 0...65535")
        engine, event_tags = self.engine(params), tag_list(params, "event_tags")
        if MDK_07:
            if event_tags:
                raise DriverError("bad_request", "MDK 0.7.0's create_message takes no event_tags")
            event = engine.create_message(
                need(params, "mls_group_id", str), need(params, "sender_pubkey", str),
                need(params, "content", str), kind, tag_list(params, "tags", []))
            return {"event": json.loads(event)}
        event = engine.create_message(
            need(params, "mls_group_id", str), need(params, "sender_pubkey", str),
            need(params, "content", str), kind, tag_list(params, "tags", []), event_tags)
        return {"event": json.loads(event)}

    def process_message(self, params):
        engine = self.engine(params)
        event = event_json(params, "event")
        try:
            result = engine.process_message(event)
        except uniffi.MdkUniffiError as exc:
            # Rejections of untrusted input are results, not protocol failures.
            code, text = classify(exc)
            return {"type": "error", "code": code, "reason": text}
        return process_result_json(result)

    # -- welcomes (MIP-02) -----------------------------------------------------------------------

    def process_welcome(self, params):
        welcome = self.engine(params).process_welcome(
            need(params, "wrapper_event_id", str), event_json(params, "rumor"))
        return {"welcome": welcome_json(welcome)}

    def _welcome(self, params):
        engine = self.engine(params)
        welcome_id = need(params, "welcome_id", str)
        welcome = engine.get_welcome(welcome_id)
        if welcome is None:
            raise DriverError("unknown_welcome", f"no welcome `{welcome_id}`")
        return engine, welcome

    def accept_welcome(self, params):
        engine, welcome = self._welcome(params)
        engine.accept_welcome(welcome)
        return {"group": group_json(engine.get_group(welcome.mls_group_id))}

    def decline_welcome(self, params):
        engine, welcome = self._welcome(params)
        engine.decline_welcome(welcome)
        return {}

    def pending_welcomes(self, params):
        welcomes = self.engine(params).get_pending_welcomes(None, None)
        return {"welcomes": [welcome_json(welcome) for welcome in welcomes]}

    # -- queries ---------------------------------------------------------------------------------

    def groups(self, params):
        return {"groups": [group_json(group) for group in self.engine(params).get_groups()]}

    def _group(self, params):
        mls_group_id = need(params, "mls_group_id", str)
        group = self.engine(params).get_group(mls_group_id)
        if group is None:
            raise DriverError("unknown_group", f"no group `{mls_group_id}`")
        return group

    def group(self, params):
        return {"group": group_json(self._group(params))}

    def members(self, params):
        return {"pubkeys": sorted(self.engine(params).get_members(need(params, "mls_group_id", str)))}

    def admins(self, params):
        return {"pubkeys": sorted(self._group(params).admin_pubkeys)}

    def relays(self, params):
        return {"relays": sorted(self.engine(params).get_relays(need(params, "mls_group_id", str)))}

    def epoch(self, params):
        return {"epoch": self._group(params).epoch}

    def messages(self, params):
        messages = self.engine(params).get_messages(
            need(params, "mls_group_id", str), optional(params, "limit", int),
            optional(params, "offset", int), optional(params, "sort_order", str))
        return {"messages": [message_json(message) for message in messages]}

    def exact_state(self, params):
        if MDK_07:
            raise DriverError("unknown_method", "MDK 0.7.0 exposes no ratchet-tree info (group.exact_state not declared)")
        # MDK 0.8.0 exposes no exporter, GroupContext or transcript hash: only the epoch and the
        # SHA-256 of the TLS-serialized ratchet tree (its `tree_hash`, not RFC 9420's tree hash).
        group = self._group(params)
        info = self.engine(params).get_ratchet_tree_info(need(params, "mls_group_id", str))
        return {"epoch": group.epoch, "ratchet_tree_digest": info.tree_hash.lower()}

    def protocol_snapshot(self, params):
        if MDK_07:
            raise DriverError("unknown_method", "MDK 0.7.0 exposes no ratchet-tree info (group.protocol_snapshot not declared)")
        # What mdk-python exposes of the canonical snapshot; the rest is `unsupported` (snapshot.py).
        engine, mls_group_id = self.engine(params), need(params, "mls_group_id", str)
        group = self._group(params)
        try:
            return snapshot.snapshot(group, engine.get_ratchet_tree_info(mls_group_id),
                                     engine.get_messages(mls_group_id, None, None, None))
        except snapshot.TreeError as exc:
            raise DriverError("internal", str(exc)) from None

    # -- group images (MIP-01) -------------------------------------------------------------------
    # Module functions of mdk-python, not of an instance: the instance is checked all the same, so
    # a request naming no instance fails as every other does. MDK reports both with free text, so
    # the codes are set here rather than by `classify` (whose needles such text could match).

    def prepare_group_image(self, params):
        self.engine(params)
        data, mime_type = base64_bytes(params, "image_data"), need(params, "mime_type", str)
        try:
            prepared = mdk.prepare_group_image_for_upload(data, mime_type)
        except uniffi.MdkUniffiError as exc:
            raise DriverError("invalid_image", classify(exc)[1]) from None
        return {
            "encrypted_data": base64.b64encode(bytes(prepared.encrypted_data)).decode("ascii"),
            "image": {"hash": bytes(prepared.encrypted_hash).hex(), "key": bytes(prepared.image_key).hex(),
                      "nonce": bytes(prepared.image_nonce).hex()},
        }

    def decrypt_group_image(self, params):
        self.engine(params)
        blob = base64_bytes(params, "encrypted_data")
        image_hash, image_key, image_nonce = image_object(params, "image")
        try:
            data = mdk.decrypt_group_image(blob, image_hash, image_key, image_nonce)
        except uniffi.MdkUniffiError as exc:
            text = classify(exc)[1]
            code = "image_hash_mismatch" if "hash verification failed" in text.lower() else "image_undecryptable"
            raise DriverError(code, text) from None
        return {"image_data": base64.b64encode(bytes(data)).decode("ascii")}


METHODS = [
    "hello", "create_instance", "destroy_instance", "close_instance",
    "create_key_package", "parse_key_package",
    "create_group", "add_members", "remove_members", "leave_group", "self_demote", "self_update",
    "update_group_data", "merge_pending_commit", "clear_pending_commit",
    "create_message", "process_message",
    "process_welcome", "accept_welcome", "decline_welcome", "pending_welcomes",
    "groups", "group", "members", "admins", "relays", "epoch", "messages", "exact_state", "protocol_snapshot",
    "prepare_group_image", "decrypt_group_image",
]


# Requests that only read an instance's state and carry no seed (the client's read-only queries,
# docs/driver-protocol.md "Determinism"): run on the request loop's thread (world.call_here). Image
# decryption carries no seed either but is MDK crypto, so it keeps a fresh thread like every other call.
READ_ONLY = {"hello", "groups", "group", "members", "admins", "relays", "epoch", "messages", "pending_welcomes",
             "protocol_snapshot"}


def run_call(stamp, method, function):
    """world.call_here for a seedless read-only query, world.call (a fresh thread) for everything else."""
    if method in READ_ONLY and (stamp is None or stamp[1] == world.QUERY_SEED):
        return world.call_here(stamp, function)
    return world.call(stamp, function)


def handle(driver, line):
    """One response object for one request line; never raises."""
    try:
        request = json.loads(line)
    except ValueError as exc:
        return {"id": None, "error": {"code": "bad_request", "message": f"not JSON: {exc}"}}
    if not isinstance(request, dict):
        return {"id": None, "error": {"code": "bad_request", "message": "request must be a JSON object"}}
    request_id = request.get("id")
    if not isinstance(request_id, int) or isinstance(request_id, bool):
        return {"id": None, "error": {"code": "bad_request", "message": "a request needs an integer `id`"}}
    try:
        method = request.get("method")
        if method not in METHODS:
            raise DriverError("unknown_method", f"unknown method `{method}`")
        params = request.get("params", {})
        if not isinstance(params, dict):
            raise DriverError("bad_request", "`params` must be an object")
        if IMPORT_ERROR is not None and method != "hello":
            raise DriverError("engine_unavailable", f"mdk does not import: {IMPORT_ERROR}")
        stamp = world.parse(request)
        if not profile_log.ENABLED:
            return {"id": request_id, "result": run_call(stamp, method, lambda: getattr(driver, method)(params))}
        return {"id": request_id, "result": profiled_call(stamp, method, lambda: getattr(driver, method)(params))}
    except (DriverError, world.WorldError) as exc:
        return {"id": request_id, "error": {"code": exc.code, "message": exc.message}}
    except Exception as exc:  # MDK errors from non-ingest methods, and anything unexpected
        if uniffi is not None and isinstance(exc, uniffi.MdkUniffiError):
            code, text = classify(exc)
        else:
            traceback.print_exc(file=sys.stderr)
            code, text = "internal", f"{type(exc).__name__}: {exc}"
        return {"id": request_id, "error": {"code": code, "message": text}}


def profiled_call(stamp, method, function):
    """world.call, timing the engine call apart from its hand-off to a fresh thread."""
    inside = []

    def timed():
        began = profile_log.clock()
        try:
            return function()
        finally:
            inside.append(profile_log.clock() - began)

    began = profile_log.clock()
    try:
        return run_call(stamp, method, timed)
    finally:
        whole = profile_log.clock() - began
        profile_log.PROFILE.add(f"engine:{method}", inside[0] if inside else 0.0)
        profile_log.PROFILE.add("thread hand-off", whole - (inside[0] if inside else 0.0))


def serve(driver, lines):
    """Answers request lines until stdin closes; with MARMOT_DRIVER_PROFILE, timing each phase."""
    if not profile_log.ENABLED:
        for line in lines:
            if not line.strip():
                continue
            response = handle(driver, line)
            sys.stdout.write(json.dumps(response, ensure_ascii=False, separators=(",", ":")) + "\n")
            sys.stdout.flush()
        return
    clock, profile = profile_log.clock, profile_log.PROFILE
    waited = clock()
    for line in lines:
        began = clock()
        profile.add("waiting for a request", began - waited)
        if not line.strip():
            waited = clock()
            continue
        try:
            json.loads(line)
        except ValueError:
            pass
        profile.add("JSON parse (request, timed apart)", clock() - began)
        response = handle(driver, line)
        answered = clock()
        sys.stdout.write(json.dumps(response, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        waited = clock()
        profile.add("JSON write (response)", waited - answered)


def main():
    base = os.environ.get("MARMOT_DRIVER_RUN_DIR") or None
    run_dir, driver = None, None

    def remove_run_dir():
        if run_dir is None:
            return
        # Renamed first: an engine thread still running (a call cut short by SIGTERM) can then no
        # longer create files under the old path while the tree is removed (under load, a SQLite
        # file written after the removal was seen to survive it).
        doomed = run_dir + ".removing"
        try:
            os.rename(run_dir, doomed)
        except OSError:
            doomed = run_dir
        shutil.rmtree(doomed, ignore_errors=True)

    world.exit_with_parent(remove_run_dir)
    try:
        run_dir = tempfile.mkdtemp(prefix="mdk-driver-", dir=base)
        driver = Driver(run_dir)
        profile_log.PROFILE.mark("start-up: interpreter and imports", IMPORTED - STARTED)
        began = profile_log.clock()
        if IMPORT_ERROR is None:
            world.warm_up(lambda method, params, stamp: world.call(stamp, lambda: getattr(driver, method)(params)))
        profile_log.PROFILE.mark("start-up: warm-up", profile_log.clock() - began)
        serve(driver, sys.stdin)
    except KeyboardInterrupt:
        pass
    finally:
        if driver is not None:
            driver.instances.clear()
        remove_run_dir()
        profile_log.PROFILE.write()


if __name__ == "__main__":
    main()
