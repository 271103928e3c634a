"""Verifies a webhook delivery as Standard Webhooks says, with Python's standard library only: copy
verify_webhook into your receiver. `python3 docs/examples/verify_webhook.py` checks it on the test
vector."""

import base64
import hashlib
import hmac
import json
import time
from pathlib import Path

# How far a delivery's webhook-timestamp may be from now: older ones may be replays.
TOLERANCE_SECONDS = 5 * 60


def verify_webhook(secret, headers, body, now=None):
    """The event of a delivery, or a ValueError. secret: your whsec_... secret; headers: the
    request's, names in lower case; body: the raw body (bytes), before any JSON parsing; now: the
    time in seconds (a test's fixed time)."""
    webhook_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (webhook_id and timestamp and signatures):
        raise ValueError("not a signed delivery: a header is missing")
    now = time.time() if now is None else now
    is_number = timestamp.isascii() and timestamp.isdigit()
    if not is_number or abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        raise ValueError("webhook-timestamp is not within 5 minutes of now")
    raw = body if isinstance(body, bytes) else body.encode()
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{webhook_id}.{timestamp}.".encode() + raw, hashlib.sha256).digest()
    expected = base64.b64encode(digest)
    # one "v1,<base64>" per secret the sender signs with (two during a rotation): any may match
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode(), expected):
            return json.loads(raw)
    raise ValueError("no signature of webhook-signature is made with this secret")


if __name__ == "__main__":
    vector = json.loads(Path(__file__).with_name("webhook-test-vector.json").read_text())
    at = int(vector["headers"]["webhook-timestamp"])
    event = verify_webhook(vector["secret"], vector["headers"], vector["body"], now=at)
    print(f"the test vector verifies: {event['type']} of plant {event['data']['id']}")
