"""A hook receiver written the way a third party writes one: Flask, state in SQLite.

Not svc-cli code: it stands for a user's own receiver in svc-cli's tests.

    python3 flask_hooks.py --port 9100 --db hooks.sqlite [--mode MODE]

MODE (or PEER_MODE):
  ok                 every event answered 200 (the default)
  crash:<event>      answers 500 to that event (an unhandled exception), the rest as usual
  callback-bug       the offline form's usual path has a bug: a form that leaves both an email
                     and a phone number (a callback is booked) gets 500; odd forms pass
  cold               the first two requests after start get 503
  slow               every reply waits PEER_SLOW_MS milliseconds (default 2000)

What it keeps per chat (survives restarts): the events seen, the CRM link it handed out, and
the transcript of chat_finished. A chat accepted again gets the same CRM link.
"""
import argparse
import json
import os
import sqlite3
import sys
import threading
import time

from flask import Flask, jsonify, request
from werkzeug.serving import make_server

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--db", default=os.environ.get("PEER_DB", "hooks.sqlite"))
parser.add_argument("--mode", default=os.environ.get("PEER_MODE", "ok"))
args = parser.parse_args()

app = Flask(__name__)
lock = threading.Lock()
requests_seen = 0


def db():
    conn = sqlite3.connect(args.db)
    conn.execute(
        "create table if not exists chats (chat_id text primary key, crm_link text,"
        " events text not null default '[]', transcript text)"
    )
    conn.execute(
        "create table if not exists offline (id text primary key, email text, message text)"
    )
    return conn


def remember(conn, chat_id, event_name):
    row = conn.execute("select events from chats where chat_id = ?", (chat_id,)).fetchone()
    events = json.loads(row[0]) if row else []
    events.append(event_name)
    if row:
        conn.execute("update chats set events = ? where chat_id = ?", (json.dumps(events), chat_id))
    else:
        conn.execute("insert into chats (chat_id, events) values (?, ?)", (chat_id, json.dumps(events)))


@app.post("/hooks")
def hooks():
    global requests_seen
    with lock:
        requests_seen += 1
        seen = requests_seen
    if args.mode == "cold" and seen <= 2:
        return jsonify({"error": "warming up"}), 503
    if args.mode == "slow":
        time.sleep(int(os.environ.get("PEER_SLOW_MS", "2000")) / 1000)
    event = request.get_json(force=True)
    name = event.get("event_name")
    if args.mode == "crash:" + str(name):
        raise RuntimeError("this receiver has a bug in its " + str(name) + " handler")
    with lock, db() as conn:
        if name == "offline_message":
            visitor = event.get("visitor") or {}
            if args.mode == "callback-bug" and isinstance(visitor, dict):
                if isinstance(visitor.get("email"), str) and isinstance(visitor.get("phone"), str):
                    # the bug: the callback queue was never created
                    raise RuntimeError("no callback queue for " + visitor["phone"])
            conn.execute(
                "insert or replace into offline (id, email, message) values (?, ?, ?)",
                (event.get("offline_message_id"), visitor.get("email"), event.get("message")),
            )
            return jsonify({"result": "ok"})
        chat_id = str(event.get("chat_id"))
        remember(conn, chat_id, name)
        if name == "chat_accepted":
            row = conn.execute("select crm_link from chats where chat_id = ?", (chat_id,)).fetchone()
            link = row[0] if row and row[0] else "https://crm.example.test/deals/" + chat_id
            conn.execute("update chats set crm_link = ? where chat_id = ?", (link, chat_id))
            visitor = event.get("visitor") or {}
            return jsonify({
                "result": "ok",
                "crm_link": link,
                "custom_data": [{"title": "Visitor", "content": visitor.get("name") or "unknown"}],
            })
        if name == "chat_finished":
            messages = (event.get("chat") or {}).get("messages") or []
            conn.execute(
                "update chats set transcript = ? where chat_id = ?",
                (json.dumps([m.get("text") for m in messages]), chat_id),
            )
        return jsonify({"result": "ok"})


@app.errorhandler(500)
def crashed(_error):
    return "Internal Server Error", 500


server = make_server("127.0.0.1", args.port, app, threaded=True)
print("flask hooks ready on http://127.0.0.1:%d/hooks mode %s" % (args.port, args.mode), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
