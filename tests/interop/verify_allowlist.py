#!/usr/bin/env python3
"""Independent verifier of Gatehouse signed allowlists.

Written from the published format alone (docs/DESIGN.md section 7: DSSE envelope,
Ed25519, root documents, JCS pins) with Python's `cryptography` and the
`rfc8785` package; it shares no code with Gatehouse, so agreement between the
two is evidence that the format is implementable as specified.

Usage:
    verify_allowlist.py --root ROOT.json (--file ENVELOPE.json | --url URL)
                        [--roots-dir DIR] [--audience A]
                        [--tool TOOL.json [--server NAME]]

Walks root rotations (from --roots-dir, or /v1/root/{n}.json on the URL's
origin), verifies the allowlist signature with the allowlist role's keys,
checks payloadType, _type, spec_version, audience and expiry, and with --tool
recomputes the tool's pin and looks it up. Prints one JSON object on stdout.
Exit status: 0 verified (and pin found), 1 refused, 2 usage or I/O error.
"""

import argparse
import base64
import datetime
import hashlib
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ALLOWLIST_PAYLOAD_TYPE = "application/vnd.gatehouse.allowlist+json"
ROOT_PAYLOAD_TYPE = "application/vnd.gatehouse.root+json"
TOOL_PIN_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")
MAX_ROOTS = 1024


class Refused(Exception):
    """The document must not be trusted."""


def b64decode_any(text):
    """DSSE allows either base64 alphabet, padded or not."""
    padded = text + "=" * (-len(text) % 4)
    if "-" in text or "_" in text:
        return base64.urlsafe_b64decode(padded)
    return base64.b64decode(padded, validate=True)


def pae(payload_type, body):
    """DSSE v1 pre-authentication encoding."""
    type_bytes = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(type_bytes), type_bytes, len(body), body)


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def role_keys(root, role_name):
    """{keyid: Ed25519PublicKey} of a role, after checking each keyid is sha256(key)."""
    role = root["roles"][role_name]
    keys = {}
    for keyid in role["keyids"]:
        jwk = root["keys"][keyid]
        if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
            raise Refused("key %s is not an Ed25519 OKP key" % keyid)
        raw = b64decode_any(jwk["x"])
        if hashlib.sha256(raw).hexdigest() != keyid:
            raise Refused("key id %s is not the sha256 of its key" % keyid)
        keys[keyid] = Ed25519PublicKey.from_public_bytes(raw)
    threshold = role["threshold"]
    if not isinstance(threshold, int) or threshold < 1 or threshold > len(keys):
        raise Refused("bad threshold for role %s" % role_name)
    return keys, threshold


def count_valid(envelope, keys):
    """Distinct trusted key ids whose signature over the PAE verifies."""
    body = b64decode_any(envelope["payload"])
    message = pae(envelope["payloadType"], body)
    valid = set()
    for signature in envelope.get("signatures", []):
        key = keys.get(signature.get("keyid"))
        if key is None:
            continue
        try:
            key.verify(b64decode_any(signature["sig"]), message)
            valid.add(signature["keyid"])
        except (InvalidSignature, ValueError):
            pass
    return valid


def require_threshold(envelope, signer_root, role_name, what):
    keys, threshold = role_keys(signer_root, role_name)
    valid = count_valid(envelope, keys)
    if len(valid) < threshold:
        raise Refused("%s: %d valid signature(s), %d needed" % (what, len(valid), threshold))


def open_root(envelope):
    if envelope.get("payloadType") != ROOT_PAYLOAD_TYPE:
        raise Refused("not a root document")
    root = json.loads(b64decode_any(envelope["payload"]))
    if root.get("_type") != "gatehouse/root":
        raise Refused("root _type is not gatehouse/root")
    return root


def walk_roots(pinned_envelope, newer_envelopes, now):
    """The newest root reachable from the pinned one by valid rotations."""
    current = open_root(pinned_envelope)
    require_threshold(pinned_envelope, current, "root", "pinned root")
    by_version = {}
    for envelope in newer_envelopes:
        try:
            by_version.setdefault(open_root(envelope)["version"], envelope)
        except (Refused, ValueError, KeyError):
            continue
    while current["version"] + 1 in by_version:
        envelope = by_version[current["version"] + 1]
        candidate = open_root(envelope)
        # Root n+1 needs a threshold of root n's root keys and of its own.
        require_threshold(envelope, current, "root", "root %d by previous root keys" % candidate["version"])
        require_threshold(envelope, candidate, "root", "root %d by its own root keys" % candidate["version"])
        current = candidate
    if parse_time(current["expires"]) <= now:
        raise Refused("root version %d expired" % current["version"])
    return current


def verify_allowlist(root, envelope, audience, now):
    require_threshold(envelope, root, "allowlist", "allowlist")
    if envelope["payloadType"] != ALLOWLIST_PAYLOAD_TYPE:
        raise Refused("wrong payloadType %r" % envelope["payloadType"])
    payload = json.loads(b64decode_any(envelope["payload"]))
    if payload.get("_type") != "gatehouse/allowlist":
        raise Refused("wrong _type %r" % payload.get("_type"))
    if not str(payload.get("spec_version", "")).startswith("1."):
        raise Refused("unsupported spec_version %r" % payload.get("spec_version"))
    if payload.get("audience") != audience:
        raise Refused("wrong audience %r" % payload.get("audience"))
    if parse_time(payload["expires"]) <= now:
        raise Refused("allowlist expired at %s" % payload["expires"])
    return payload


def tool_pin(tool):
    """sha256 of the JCS form of the tool restricted to the pinned fields (absent ones left out)."""
    restricted = {k: tool[k] for k in TOOL_PIN_FIELDS if k in tool}
    return hashlib.sha256(rfc8785.dumps(restricted)).hexdigest()


def fetch(url):
    """Body of url, or None on 404."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.read()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--file")
    source.add_argument("--url")
    parser.add_argument("--roots-dir")
    parser.add_argument("--audience", default="default")
    parser.add_argument("--tool")
    parser.add_argument("--server")
    args = parser.parse_args()
    now = datetime.datetime.now(datetime.timezone.utc)

    try:
        with open(args.root, "rb") as f:
            pinned = json.load(f)
        newer = []
        if args.file:
            with open(args.file, "rb") as f:
                envelope = json.load(f)
            if args.roots_dir:
                for name in sorted(os.listdir(args.roots_dir)):
                    if name.endswith(".json"):
                        with open(os.path.join(args.roots_dir, name), "rb") as f:
                            newer.append(json.load(f))
        else:
            parts = urllib.parse.urlsplit(args.url)
            origin = "%s://%s" % (parts.scheme, parts.netloc)
            version = open_root(pinned)["version"] + 1
            while len(newer) < MAX_ROOTS:
                body = fetch("%s/v1/root/%d.json" % (origin, version))
                if body is None:
                    break
                newer.append(json.loads(body))
                version += 1
            body = fetch(args.url)
            if body is None:
                raise OSError("%s: 404" % args.url)
            envelope = json.loads(body)
        tool = None
        if args.tool:
            with open(args.tool, "rb") as f:
                tool = json.load(f)
    except (OSError, ValueError) as e:
        print(json.dumps({"ok": False, "error": "input: %s" % e}))
        return 2

    try:
        root = walk_roots(pinned, newer, now)
        payload = verify_allowlist(root, envelope, args.audience, now)
    except (Refused, ValueError, KeyError, TypeError) as e:
        print(json.dumps({"ok": False, "error": "refused: %s" % e}))
        return 1

    result = {
        "ok": True,
        "root_version": root["version"],
        "version": payload["version"],
        "audience": payload["audience"],
        "servers": [[s["name"], s["version"]] for s in payload["servers"]],
    }
    if tool is not None:
        pin = tool_pin(tool)
        servers = [s for s in payload["servers"] if args.server in (None, s["name"])]
        found = any(
            p["name"] == tool.get("name") and p["sha256"] == pin
            for s in servers
            for p in s["tools"]["pins"]
        )
        result.update({"tool": tool.get("name"), "tool_pin": pin, "pin_matches": found})
        if not found:
            result["ok"] = False
            print(json.dumps(result))
            return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
