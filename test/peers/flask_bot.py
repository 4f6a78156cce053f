"""A bot provider written the way a third party writes one: Flask, state in SQLite.

Not svc-cli code: it stands for a user's own bot in svc-cli's tests.

    python3 flask_bot.py --port 9200 --platform-url http://127.0.0.1:8800 \
        --provider-id my-provider --token my-token --db bot.sqlite [--mode MODES]

The platform posts events to http://127.0.0.1:<port>/<token>; the bot answers 200 and then
posts BOT_MESSAGE or INVITE_AGENT to <platform-url>/webhooks/<provider-id>/<token>.

MODES (comma-separated, or PEER_MODE):
  echo           answer every new customer message with "You said: <text>" (the default)
  welcome        greet a chat it has not seen: "Welcome! You said: <text>"; a chat it knows from
                 before (its database) gets "You said: <text>"
  greeter        answer only a chat it has not seen (its database): a chat it knows is an
                 agent's by then, so it stays silent there
  faq            answer only the texts it knows; anything else is handed to an agent
  faq-silent     answer only the texts it knows; stay silent on anything else
  answer-twice   misbehave: answer a redelivered CLIENT_MESSAGE again (no de-duplication)
  slow-first     the first delivery of each event is acknowledged after PEER_SLOW_MS ms
                 (default 4000; the platform's attempt times out and it sends the event again)
  cold           the first two requests after start get 503

What it keeps (survives restarts): every event id it answered, and each chat's messages, with
client_id in an integer column as the real platform's samples (digits) lead bots to keep it: a
client_id that is not a number fails the request with a 500, as such a bot does.
"""
import argparse
import json
import os
import sqlite3
import sys
import threading
import time
import urllib.request
import uuid

from flask import Flask, jsonify, request
from werkzeug.serving import make_server

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--platform-url", required=True)
parser.add_argument("--provider-id", default="conversation-provider")
parser.add_argument("--token", default="conversation-token")
parser.add_argument("--db", default=os.environ.get("PEER_DB", "bot.sqlite"))
parser.add_argument("--mode", default=os.environ.get("PEER_MODE", "echo"))
args = parser.parse_args()
modes = set(args.mode.split(","))

FAQ = {
    "opening hours": "We are open 9:00-17:00, Monday to Friday.",
    "hello bot": "You said: hello bot",
}

app = Flask(__name__)
lock = threading.Lock()
requests_seen = 0


def db():
    conn = sqlite3.connect(args.db)
    conn.execute("create table if not exists answered (event_id text primary key)")
    conn.execute(
        "create table if not exists messages (chat_id text, client_id integer, text text, at real)"
    )
    return conn


def post_to_platform(payload):
    url = "%s/webhooks/%s/%s" % (args.platform_url.rstrip("/"), args.provider_id, args.token)
    req = urllib.request.Request(
        url, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        urllib.request.urlopen(req, timeout=10).read()
    except Exception as error:  # the platform said no: a real bot logs and moves on
        print("could not post %s: %s" % (payload["event"], error), flush=True)


def answer(event, new_chat):
    text = ((event.get("message") or {}).get("text") or "").strip()
    if "greeter" in modes and not new_chat:
        return
    if "faq" in modes or "faq-silent" in modes:
        reply = FAQ.get(text.lower())
        if reply is None:
            if "faq-silent" in modes:
                return
            post_to_platform({
                "event": "INVITE_AGENT",
                "id": str(uuid.uuid4()),
                "client_id": event.get("client_id"),
                "chat_id": event.get("chat_id"),
            })
            return
    else:
        reply = "You said: " + text
        if "welcome" in modes and new_chat:
            reply = "Welcome! " + reply
    post_to_platform({
        "event": "BOT_MESSAGE",
        "id": str(uuid.uuid4()),
        "chat_id": event.get("chat_id"),
        "message": {"type": "TEXT", "text": reply, "timestamp": int(time.time())},
    })


@app.post("/<token>")
def events(token):
    global requests_seen
    if token != args.token:
        return jsonify({"error": {"code": "invalid_client", "message": "unknown token"}}), 401
    with lock:
        requests_seen += 1
        seen = requests_seen
    if "cold" in modes and seen <= 2:
        return jsonify({"error": "starting"}), 503
    event = request.get_json(force=True)
    if event.get("event") != "CLIENT_MESSAGE":
        return jsonify({})
    event_id = str(event.get("id"))
    with lock, db() as conn:
        known = conn.execute("select 1 from answered where event_id = ?", (event_id,)).fetchone()
        first = known is None
        chat_seen = conn.execute(
            "select 1 from messages where chat_id = ?", (str(event.get("chat_id")),)
        ).fetchone()
        new_chat = chat_seen is None
        if first:
            conn.execute("insert into answered (event_id) values (?)", (event_id,))
            conn.execute(
                "insert into messages values (?, ?, ?, ?)",
                (
                    str(event.get("chat_id")),
                    int(event.get("client_id")),
                    (event.get("message") or {}).get("text"),
                    time.time(),
                ),
            )
    if first or "answer-twice" in modes:
        threading.Thread(target=answer, args=(event, new_chat), daemon=True).start()
    if first and "slow-first" in modes:
        time.sleep(int(os.environ.get("PEER_SLOW_MS", "4000")) / 1000)
    return jsonify({})


server = make_server("127.0.0.1", args.port, app, threaded=True)
print("flask bot ready on http://127.0.0.1:%d mode %s" % (args.port, args.mode), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
