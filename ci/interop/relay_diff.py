#!/usr/bin/env python3
"""Differential test: our in-memory relay vs rust-nostr's LocalRelay (PyPI nostr-sdk 0.45.1).

Design: docs/nostr-relay-semantics.md section 4. For each seed, a fresh instance of
both relays is started on 127.0.0.1 (ours: `marmot-conform relay --port 0`; LocalRelay in this
process), a seeded script of EVENT / REQ / CLOSE / AUTH / malformed steps is replayed on both over
identical connections, and responses are compared after the section 4.3 normalizations only.

Usage: relay_diff.py --ours /path/to/marmot-conform [--seeds 20] [--steps 100] [--first-seed 1]
                     [--fixtures DIR] [--replay FIXTURE.json]
Prints one line per seed and ends with `relay-diff: <n> steps across <s> seeds, <d> divergences`.
Exit status 0 only with 0 divergences. Any divergence is saved as a JSON fixture (seed + the steps
up to the first divergent one) that `--replay` runs again.
"""

import argparse
import asyncio
import hashlib
import json
import os
import random
import subprocess
import sys
import time

import nostr_sdk as nostr
import websockets

QUIET = 0.03         # seconds without new frames that count as quiescence
SYNC_ID = "0" * 64   # an id no event has: REQ ["sync", {ids:[SYNC_ID], limit:0}] is a pure round trip
STEP_TIMEOUT = 3.0   # longest wait for an answer


# ---------------------------------------------------------------------------------------------
# Events built by hand, so that invalid and tie-breaking events can be made (note section 1).

def event_id(pubkey, created_at, kind, tags, content):
    text = json.dumps([0, pubkey, created_at, kind, tags, content], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def make_event(keys, created_at, kind, tags, content):
    pubkey = keys.public_key().to_hex()
    eid = event_id(pubkey, created_at, kind, tags, content)
    sig = keys.sign_schnorr(bytes.fromhex(eid))
    return {"id": eid, "pubkey": pubkey, "created_at": created_at, "kind": kind, "tags": tags,
            "content": content, "sig": sig}


def frame(*items):
    return json.dumps(list(items), separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# The seeded step generator (note section 4.2).

class Generator:
    def __init__(self, seed, base):
        self.rng = random.Random(seed)
        self.base = base
        self.accounts = [nostr.Keys.parse(hashlib.sha256(f"account-{seed}-{i}".encode()).hexdigest()) for i in range(4)]
        self.groups = [hashlib.sha256(f"group-{seed}-{i}".encode()).hexdigest() for i in range(3)]
        self.published = []          # events sent as valid (author hex, event)
        self.subs = {}               # connection -> set of open sub ids
        self.authed = {}             # connection -> account index authenticated on it
        self.sub_counter = 0
        self.ephemeral_counter = 0

    def fresh_keys(self):
        self.ephemeral_counter += 1
        return nostr.Keys.parse(hashlib.sha256(f"eph-{self.base}-{self.rng.random()}".encode()).hexdigest())

    def created_at(self):
        return self.base + self.rng.randint(0, 6)

    def pick_kind(self):
        return self.rng.choices(
            [443, 30443, 445, 1059, 10002, 10050, 10051, 0, 5, 20001, 1],
            weights=[8, 10, 20, 8, 4, 4, 6, 4, 8, 4, 10])[0]

    def valid_event(self, connection):
        rng = self.rng
        kind = self.pick_kind()
        author = rng.randrange(4)
        keys = self.accounts[author]
        tags, content = [], f"c{rng.randrange(10**6)}"
        if kind == 30443:
            tags = [["d", hashlib.sha256(str(rng.randrange(4)).encode()).hexdigest()]]
        elif kind == 445:
            keys = self.fresh_keys() if rng.random() < 0.5 else keys
            group = rng.choice(self.groups)
            tags = [["h", group, rng.choice(self.groups)] if rng.random() < 0.2 else ["h", group]]
            roll = rng.random()
            if roll < 0.05:
                tags.append(["expiration", str(self.base - 3600)])
            elif roll < 0.3:
                tags.append(["expiration", str(self.base + 3600)])
        elif kind == 1059:
            keys = self.fresh_keys()
            tags = [["p", rng.choice(self.accounts).public_key().to_hex()]]
        elif kind == 5:
            tags = self.deletion_tags(author)
        elif kind == 443:
            tags = [["encoding", "base64"]]
        elif kind in (10002, 10050, 10051):
            tags = [["relay", "wss://r.test"]]
        if kind == 1 and rng.random() < 0.3:
            tags = [["t", rng.choice(["x", "y"])], ["p", rng.choice(self.accounts).public_key().to_hex()]]
        if rng.random() < 0.01:
            content = "z" * rng.randint(1000, 40000)
        created_at = self.created_at()
        if kind == 5:
            # A deletion made before its target existed is deleted differently: NIP-09 puts no time
            # bound on `e` tags, while LocalRelay deletes only targets not newer than the request.
            # Real clients delete after publishing, so the generator stays on that side.
            targets = [e["created_at"] for e in self.published for t in tags if t[0] == "e" and t[1] == e["id"]]
            created_at = max([created_at] + targets)
        return make_event(keys, created_at, kind, tags, content)

    def deletion_tags(self, author):
        rng = self.rng
        tags = []
        # Deletion requests are never targeted: NIP-09 says deleting one "has no effect", while
        # LocalRelay removes it (a finding, not a normalization).
        own = [e for e in self.published
               if e["pubkey"] == self.accounts[author].public_key().to_hex() and e["kind"] != 5]
        # Only the author's own events: non-author deletions are answered differently (4.3 item 2)
        # and, once excluded from comparison, would still take `limit` slots on one side only.
        if own and rng.random() < 0.8:
            target = rng.choice(own)
            tags.append(["e", target["id"]])
            tags.append(["k", str(target["kind"])])
        else:
            pubkey = self.accounts[author].public_key().to_hex()
            d = hashlib.sha256(str(rng.randrange(4)).encode()).hexdigest()
            tags.append(["a", f"30443:{pubkey}:{d}"])
        return tags

    def invalid_event(self):
        rng = self.rng
        event = make_event(rng.choice(self.accounts), self.created_at(), 1, [], "original")
        how = rng.choice(["sig", "content", "idlen", "kind", "tagtype", "tsstring"])
        if how == "sig":
            sig = bytearray(bytes.fromhex(event["sig"]))
            sig[5] ^= 1
            event["sig"] = sig.hex()
        elif how == "content":
            event["content"] = "edited"
        elif how == "idlen":
            event["id"] = event["id"][:62]
        elif how == "kind":
            event["kind"] = 65536
        elif how == "tagtype":
            event["tags"] = [["e", 1]]
        else:
            event["created_at"] = str(event["created_at"])
        return how, event

    def filter(self, allow_ids=True):
        rng = self.rng
        keys = ["ids", "authors", "kinds", "#h", "#p", "#e", "#d", "since", "until"][0 if allow_ids else 1:]
        chosen = rng.sample(keys, rng.randint(1, 3))
        f = {}
        for key in chosen:
            if key == "ids":
                known = [e["id"] for e in rng.sample(self.published, min(len(self.published), rng.randint(1, 3)))]
                f["ids"] = known + ([hashlib.sha256(str(rng.random()).encode()).hexdigest()] if rng.random() < 0.3 or not known else [])
            elif key == "authors":
                f["authors"] = [a.public_key().to_hex() for a in rng.sample(self.accounts, rng.randint(1, 2))]
            elif key == "kinds":
                f["kinds"] = rng.sample([443, 30443, 445, 1059, 10002, 10050, 10051, 0, 5, 20001, 1], rng.randint(1, 3))
            elif key == "#h":
                f["#h"] = rng.sample(self.groups, rng.randint(1, 2))
            elif key == "#p":
                f["#p"] = [rng.choice(self.accounts).public_key().to_hex()]
            elif key == "#e":
                ids = [e["id"] for e in self.published if e["kind"] == 5] or [hashlib.sha256(b"none").hexdigest()]
                f["#e"] = [t[1] for e in self.published if e["kind"] == 5 for t in e["tags"] if t[0] == "e"][:3] or ids[:1]
            elif key == "#d":
                f["#d"] = [hashlib.sha256(str(rng.randrange(4)).encode()).hexdigest()]
            elif key == "since":
                f["since"] = self.base + rng.randint(0, 6)
            elif key == "until":
                f["until"] = self.base + rng.randint(0, 6)
        f["limit"] = rng.choice([0, 1, 2, 3, 4, 5, 500, 500])
        return f

    def step(self):
        rng = self.rng
        connection = rng.randrange(3)
        open_subs = sorted(self.subs.get(connection, set()))
        roll = rng.random()
        if roll < 0.60:
            return {"op": "event", "conn": connection, "event": self.valid_event(connection)}
        if roll < 0.80 or (roll < 0.93 and not open_subs):
            self.sub_counter += 1
            sub = f"s{self.sub_counter}"
            self.subs.setdefault(connection, set()).add(sub)
            return {"op": "req", "conn": connection, "sub": sub, "filters": [self.filter() for _ in range(rng.randint(1, 3))]}
        if roll < 0.88:
            sub = rng.choice(open_subs)
            self.subs[connection].discard(sub)
            return {"op": "close", "conn": connection, "sub": sub}
        if roll < 0.93:
            # No `ids` in a replacing REQ: when all its ids are found, LocalRelay answers CLOSED
            # but keeps delivering live events under the old filter (a LocalRelay bug we report).
            return {"op": "req", "conn": connection, "sub": rng.choice(open_subs), "filters": [self.filter(False)]}
        if roll < 0.95:
            who = self.authed.get(connection)
            if who is None:
                who = rng.randrange(4)
                self.authed[connection] = who
                first = True
            else:
                first = False
            author = who if rng.random() < 0.8 else rng.randrange(4)
            event = make_event(self.accounts[author], self.created_at(), rng.choice([1, 445]),
                               [["-"], ["h", rng.choice(self.groups)]], f"p{rng.randrange(10**6)}")
            return {"op": "protected", "conn": connection, "auth_as": who, "first_auth": first, "event": event}
        if roll < 0.97:
            how, event = self.invalid_event()
            return {"op": "invalid", "conn": connection, "how": how, "event": event}
        return {"op": "malformed", "conn": connection, "text": rng.choice([
            "not json", "[]", "{}", '["FOO"]', '["EVENT"]', '["REQ","m"]', '["REQ","m",{"ids":["abcd"]}]',
            '["CLOSE"]', '["CLOSE",1]', '["REQ","m",{"kinds":["1"]}]', '["EVENT",{"id":"00"}]'])}


# ---------------------------------------------------------------------------------------------
# Relays and connections.

class Connection:
    def __init__(self, ws):
        self.ws = ws
        self.frames = []
        self.last = time.monotonic()
        self.challenge = None
        self.syncs = 0
        self.task = asyncio.create_task(self.read())

    async def read(self):
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message[:2] in (["EOSE", "sync"], ["CLOSED", "sync"]):
                    self.syncs += 1
                    continue
                if message and message[0] == "AUTH":
                    self.challenge = message[1]
                self.frames.append(message)
                self.last = time.monotonic()
        except websockets.ConnectionClosed:
            pass

    async def send(self, text):
        await self.ws.send(text)


class Side:
    """One relay under test with three client connections."""

    def __init__(self, name, url):
        self.name, self.url, self.connections = name, url, []

    async def open(self):
        for _ in range(3):
            ws = await websockets.connect(self.url, max_size=2**22)
            self.connections.append(Connection(ws))

    async def close(self):
        for c in self.connections:
            await c.ws.close()
            c.task.cancel()


async def start_localrelay():
    builder = nostr.LocalRelayBuilder().addr("127.0.0.1").rate_limit(
        nostr.RateLimit(max_reqs=5000, notes_per_minute=1_000_000))
    relay = builder.build()
    await relay.run()
    return relay, str(await relay.url())


def start_ours(binary, seed):
    process = subprocess.Popen([binary, "relay", "--port", "0", "--seed", str(seed)], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if "listening at" not in line:
        process.kill()
        raise RuntimeError(f"our relay did not start: {line!r}")
    return process, line.strip().rsplit(" ", 1)[-1]


async def barrier(sides):
    """A round trip on every connection, so that each relay has handled everything sent before it;
    then a quiet period for live events fanned out across connections."""
    targets = []
    for side in sides:
        for c in side.connections:
            targets.append((c, c.syncs + 1))
            await c.send(frame("REQ", "sync", {"ids": [SYNC_ID], "limit": 0}))
    await quiesce(sides, lambda: all(c.syncs >= n for c, n in targets))
    for side in sides:
        for c in side.connections:
            await c.send(frame("CLOSE", "sync"))
    await quiesce(sides)


async def quiesce(sides, until=None):
    """Waits until `until()` holds (if given) and no frame arrived for QUIET seconds."""
    deadline = time.monotonic() + STEP_TIMEOUT
    while time.monotonic() < deadline:
        await asyncio.sleep(QUIET / 3)
        if until is not None and not until():
            continue
        newest = max(c.last for s in sides for c in s.connections)
        if time.monotonic() - newest >= QUIET:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Normalization (note section 4.3) and comparison.

def ok_class(message):
    """(accepted, category): '' / 'duplicate' when accepted, 'invalid' / 'refused' otherwise."""
    _, _, accepted, text = message
    prefix = text.split(":", 1)[0] if ":" in text else ""
    if accepted:
        return (True, "duplicate" if prefix == "duplicate" else "")
    return (False, "invalid" if prefix == "invalid" else "refused")


def find_ok(frames, eid):
    """The last OK for `eid` (a protected event may be answered twice: before and after AUTH)."""
    found = None
    for message in frames:
        if message[0] == "OK" and message[1] == eid:
            found = message
    return found


def stored_results(frames, sub):
    """Ids of EVENTs for `sub` up to its EOSE; None when there was no EOSE (refused REQ)."""
    ids = []
    for message in frames:
        if message[0] == "EVENT" and message[1] == sub:
            ids.append(message[2]["id"])
        elif message[0] == "EOSE" and message[1] == sub:
            return ids
        elif message[0] == "CLOSED" and message[1] == sub:
            return None
    return None


def is_non_author_deletion(event, authors_by_id):
    if event["kind"] != 5:
        return False
    for tag in event["tags"]:
        if tag[0] == "e" and authors_by_id.get(tag[1], event["pubkey"]) != event["pubkey"]:
            return True
        if tag[0] == "a" and tag[1].split(":")[1:2] != [event["pubkey"]]:
            return True
    return False


async def run_seed(seed, steps, binary, only_steps=None):
    """Replays one seed; returns (number of steps, divergences, the step list)."""
    base = int(time.time()) - 100
    generator = Generator(seed, base)
    lr, lr_url = await start_localrelay()
    ours_process, ours_url = start_ours(binary, seed)
    ours, theirs = Side("ours", ours_url), Side("localrelay", lr_url)
    divergences, script, excluded, authors_by_id = [], [], set(), {}
    try:
        await ours.open()
        await theirs.open()
        sides = (ours, theirs)
        plan = only_steps if only_steps is not None else [None] * steps
        for index, fixed in enumerate(plan):
            step = fixed if fixed is not None else generator.step()
            script.append(step)
            if "event" in step:
                KNOWN[step["event"]["id"]] = step["event"]
            marks = [len(c.frames) for s in sides for c in s.connections]
            conn = step["conn"]
            if step["op"] in ("event", "invalid"):
                event = step["event"]
                text = frame("EVENT", event)
                for side in sides:
                    await side.connections[conn].send(text)
                if step["op"] == "event":
                    await quiesce(sides, lambda: all(find_ok(s.connections[conn].frames, event["id"]) for s in sides))
                else:
                    await quiesce(sides)
            elif step["op"] == "req":
                text = frame("REQ", step["sub"], *step["filters"])
                for side in sides:
                    await side.connections[conn].send(text)
                await quiesce(sides)
            elif step["op"] == "close":
                for side in sides:
                    await side.connections[conn].send(frame("CLOSE", step["sub"]))
                await quiesce(sides)
            elif step["op"] == "malformed":
                for side in sides:
                    await side.connections[conn].send(step["text"])
                await quiesce(sides)
            elif step["op"] == "protected":
                event = step["event"]
                keys = generator.accounts[step["auth_as"]]
                expected = {}
                for side in sides:
                    c = side.connections[conn]
                    if step["first_auth"]:
                        if c.challenge is None:
                            # Ask for a challenge the way both relays issue one: a protected event.
                            await c.send(frame("EVENT", event))
                            await quiesce([side], lambda: c.challenge is not None)
                        auth = make_event(keys, int(time.time()), 22242,
                                          [["relay", side.url], ["challenge", c.challenge or ""]], "")
                        await c.send(frame("AUTH", auth))
                        await quiesce([side], lambda: find_ok(c.frames, auth["id"]) is not None)
                        step.setdefault("auth_ok", {})[side.name] = find_ok(c.frames, auth["id"])
                    expected[side.name] = sum(1 for m in c.frames if m[0] == "OK" and m[1] == event["id"]) + 1
                    await c.send(frame("EVENT", event))
                await quiesce(sides, lambda: all(
                    sum(1 for m in s.connections[conn].frames if m[0] == "OK" and m[1] == event["id"]) >= expected[s.name]
                    for s in sides))

            await barrier(sides)
            new = [[c.frames[m:] for c, m in zip(s.connections, marks[i * 3:(i + 1) * 3])] for i, s in enumerate(sides)]
            problem = compare_step(step, new[0], new[1], excluded, authors_by_id)
            if step["op"] in ("event", "protected") and step.get("event"):
                event = step["event"]
                oks = [find_ok(new[i][conn], event["id"]) for i in range(2)]
                authors_by_id.setdefault(event["id"], event["pubkey"])
                if is_non_author_deletion(event, authors_by_id):
                    # 4.3 item 2: non-author deletions and what they target are compared by neither
                    # verdict nor query (NIP-59 lets a gift wrap's recipient delete it; LR does not).
                    excluded.add(event["id"])
                    excluded.update(t[1] for t in event["tags"] if t[0] == "e")
                if oks[0] and oks[0][2]:
                    generator.published.append(event)
            if problem:
                divergences.append({"seed": seed, "step": index, "problem": problem, "ours": new[0], "localrelay": new[1]})
                break

        if not divergences:
            await quiesce(sides)
            problem = compare_live(ours, theirs, excluded) or await compare_dump(ours, theirs, excluded)
            if problem:
                divergences.append({"seed": seed, "step": len(script), "problem": problem})
    finally:
        await ours.close()
        await theirs.close()
        # SIGKILL: a parent (e.g. a test runner) may leave SIGTERM ignored in its children.
        ours_process.kill()
        ours_process.wait()
        lr.shutdown()
    return len(script), divergences, script


KNOWN = {}   # id -> event, for readable divergence reports


def describe(ids_a, ids_b):
    """The ids only one side returned, with what those events are."""
    def info(i):
        e = KNOWN.get(i)
        return f"{i[:8]}(kind {e['kind']}, by {e['pubkey'][:6]}, t+{e['created_at'] % 1000}, tags {e['tags']})" if e else i[:8]
    only_a = [info(i) for i in ids_a if i not in ids_b]
    only_b = [info(i) for i in ids_b if i not in ids_a]
    order = "" if only_a or only_b else " (same ids, different order)"
    return f"only ours: {only_a}; only localrelay: {only_b}{order}"


def compare_step(step, ours, theirs, excluded, authors_by_id):
    conn = step["conn"]
    op = step["op"]
    if op == "event" or op == "protected":
        event = step["event"]
        a, b = find_ok(ours[conn], event["id"]), find_ok(theirs[conn], event["id"])
        if a is None or b is None:
            return f"missing OK (ours={a}, localrelay={b})"
        if op == "protected" and step.get("first_auth"):
            auth = step.get("auth_ok", {})
            if bool(auth.get("ours", [0, 0, False])[2]) != bool(auth.get("localrelay", [0, 0, False])[2]):
                return f"AUTH verdicts differ: {auth}"
        expired = any(t[0] == "expiration" and int(t[1]) < time.time() for t in event["tags"])
        if expired or is_non_author_deletion(event, authors_by_id):
            return None          # 4.3 items 2 and 10: compare stored state only
        if ok_class(a) != ok_class(b):
            # 4.3 item 2: replaceable/addressable superseded or tied: false "error:" vs false "blocked:".
            return f"OK differs: ours={a} localrelay={b}"
        return None
    if op == "req":
        a, b = stored_results(ours[conn], step["sub"]), stored_results(theirs[conn], step["sub"])
        if a is None or b is None:
            return f"REQ not answered with EOSE: ours={ours[conn]} localrelay={theirs[conn]}"
        a = [i for i in a if i not in excluded]
        b = [i for i in b if i not in excluded]
        if a != b:
            return f"REQ {step['filters']} results differ: {describe(a, b)}"
        return None
    if op in ("invalid", "malformed"):
        # 4.3 item 4: only "rejected, nothing stored or broadcast" is compared.
        for side, frames in (("ours", ours), ("localrelay", theirs)):
            for message in frames[conn]:
                if message[0] == "OK" and message[2]:
                    return f"{side} accepted a malformed/invalid event: {message}"
            if any(m[0] == "EVENT" for f in frames for m in f):
                return f"{side} broadcast after a malformed frame"
        if op == "invalid" and step["how"] in ("sig", "content"):
            a = [m for m in ours[conn] if m[0] == "OK"]
            b = [m for m in theirs[conn] if m[0] == "OK"]
            if len(a) != 1 or len(b) != 1 or ok_class(a[0]) != ok_class(b[0]):
                return f"bad id/sig verdicts differ: ours={a} localrelay={b}"
        return None
    return None


def compare_live(ours, theirs, excluded):
    """Live events per (connection, subscription), as multisets (4.3 item 5)."""
    def live(side):
        seen = {}
        for index, c in enumerate(side.connections):
            after_eose = set()
            for message in c.frames:
                if message[0] == "EOSE":
                    after_eose.add(message[1])
                elif message[0] == "REQ":
                    pass
                elif message[0] == "EVENT" and message[1] in after_eose and message[2]["id"] not in excluded:
                    seen.setdefault((index, message[1]), []).append(message[2]["id"])
        return {k: sorted(v) for k, v in seen.items()}
    a, b = live(ours), live(theirs)
    if a != b:
        keys = sorted(set(a) | set(b))
        diff = {str(k): describe(a.get(k) or [], b.get(k) or []) for k in keys if a.get(k) != b.get(k)}
        return f"live deliveries differ: {diff}"
    return None


async def compare_dump(ours, theirs, excluded):
    """Final stored state: one REQ for everything (limit 500) on a fresh connection per relay."""
    results = []
    for side in (ours, theirs):
        async with websockets.connect(side.url, max_size=2**22) as ws:
            await ws.send(frame("REQ", "dump", {"limit": 500}))
            ids = []
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), STEP_TIMEOUT))
                if message[0] == "EVENT":
                    ids.append(message[2]["id"])
                elif message[0] in ("EOSE", "CLOSED"):
                    break
            results.append([i for i in ids if i not in excluded])
    if results[0] != results[1]:
        return f"stored state differs: {describe(results[0], results[1])}"
    return None


# ---------------------------------------------------------------------------------------------

async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ours", required=True)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--fixtures", default=None)
    parser.add_argument("--replay", default=None)
    args = parser.parse_args()

    total_steps, total_divergences, seeds = 0, 0, []
    if args.replay:
        with open(args.replay) as handle:
            fixture = json.load(handle)
        seeds = [(fixture["seed"], fixture["steps"])]
    else:
        seeds = [(seed, None) for seed in range(args.first_seed, args.first_seed + args.seeds)]
    for seed, fixed in seeds:
        count, divergences, script = await run_seed(seed, args.steps, args.ours, fixed)
        total_steps += count
        total_divergences += len(divergences)
        print(f"seed {seed}: {count} steps, {len(divergences)} divergences", flush=True)
        for divergence in divergences:
            print(f"  step {divergence['step']}: {divergence['problem']}", flush=True)
            if args.fixtures:
                os.makedirs(args.fixtures, exist_ok=True)
                path = os.path.join(args.fixtures, f"relay-diff-seed-{seed}.json")
                with open(path, "w") as handle:
                    json.dump({"seed": seed, "problem": divergence["problem"],
                               "steps": script[: divergence["step"] + 1]}, handle, indent=1)
                print(f"  saved {path}", flush=True)
    print(f"relay-diff: {total_steps} steps across {len(seeds)} seeds, {total_divergences} divergences", flush=True)
    return 0 if total_divergences == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
