"""An integrator endpoint written the way a third party writes one: Python's standard library
only (http.server and sqlite3), the conversation kept per customer in a database.

Not svc-cli code: it stands for a user's own chat-channel integration in svc-cli's tests.

    python3 integrator.py --port 9000 --db integrator.sqlite [--mode MODE]

The platform posts each agent message to http://127.0.0.1:<port>/<channel_public_id>; the
endpoint stores it for the customer (recipient.id) and answers {"result": "ok"}.

MODE (or PEER_MODE):
  ok             every agent message stored and answered {"result": "ok"} (the default)
  cold           the first two requests after start get 503 (a deploy in progress); the
                 platform tries again 3 s later
  error:<code>   answers 200 with {"error": {"code": <code>, "message": ...}}: the customer
                 could not be reached, which the agent is shown
  crash          every agent message gets 500 (an unhandled exception)
  crash:<type>   agent messages of that message.type (photo, location, ...) get 500: the
                 handler for it has a bug; the rest as usual
  encoded        stores the message, then answers 200 with the ok object encoded twice (a
                 JSON string that holds {"result": "ok"}), as a web framework does when the
                 handler returns json.dumps(...) and the framework encodes that string again
  reject         answers every agent message 422 with a text/plain reason (an unknown
                 recipient), stores nothing

What it keeps (survives restarts): every agent message by message.id, per customer. A message
id it stored before (a redelivery) is answered ok and not stored twice.
"""
import argparse
import json
import os
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--db", default=os.environ.get("PEER_DB", "integrator.sqlite"))
parser.add_argument("--mode", default=os.environ.get("PEER_MODE", "ok"))
args = parser.parse_args()

lock = threading.Lock()
counter = {"requests": 0}


def db():
    conn = sqlite3.connect(args.db)
    conn.execute(
        "create table if not exists messages (message_id text primary key, customer text,"
        " channel text, type text, text text)"
    )
    return conn


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def crash(self):
        self.send_response(500)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "21")
        self.end_headers()
        self.wfile.write(b"Internal Server Error")

    def read_body(self):
        # the platform may send Content-Length or chunked transfer encoding (spec 4.2)
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return chunks
                chunks += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_POST(self):
        raw = self.read_body()
        with lock:
            counter["requests"] += 1
            seen = counter["requests"]
        if args.mode == "cold" and seen <= 2:
            return self.reply(503, {"error": {"code": "starting", "message": "deploy in progress"}})
        try:
            message = json.loads(raw or b"{}")
        except ValueError:
            return self.reply(400, {"error": {"code": "bad_json", "message": "not JSON"}})
        body = message.get("message") or {}
        kind = body.get("type")
        if args.mode == "crash" or args.mode == "crash:" + str(kind):
            return self.crash()
        if kind in ("typein", "typeout"):
            return self.reply(200, {"result": "ok"})
        if args.mode == "reject":
            data = b"unknown recipient"
            self.send_response(422)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            return self.wfile.write(data)
        if args.mode.startswith("error:"):
            code = args.mode.split(":", 1)[1]
            return self.reply(200, {"error": {"code": code, "message": "customer unreachable"}})
        channel = self.path.strip("/").split("/")[-1]
        customer = (message.get("recipient") or {}).get("id")
        with lock, db() as conn:
            conn.execute(
                "insert or ignore into messages values (?, ?, ?, ?, ?)",
                (str(body.get("id")), customer, channel, kind, body.get("text")),
            )
        if args.mode == "encoded":
            return self.reply(200, json.dumps({"result": "ok"}))
        return self.reply(200, {"result": "ok"})

    def log_message(self, format, *values):
        print("integrator: " + (format % values), flush=True)


server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
print("python integrator ready on http://127.0.0.1:%d mode %s" % (args.port, args.mode), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
