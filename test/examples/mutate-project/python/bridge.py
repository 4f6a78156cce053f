"""A shop's chat bridge in Python, as a team would write it: it sends its customers'
messages to the platform's chat channel and shows them what agents answer (an HTTP
endpoint the platform posts agent messages to, spec 4.2). test_bridge.py tests it
against `svc-cli platform`; `svc-cli mutate -- python3 -m pytest -q` shows what the
tests would not notice."""
import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Bridge:
    def __init__(self):
        self.inboxes = {}
        self.seen = set()
        self.requests = []
        self.failures = 0
        self.lock = threading.Lock()
        self.channel_url = ""
        self.status_url = ""
        bridge = self

        class Endpoint(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with bridge.lock:
                    bridge.requests.append(body)
                    if bridge.failures > 0:
                        bridge.failures -= 1
                        self.send_response(500)
                        self.send_header("content-length", "0")
                        self.end_headers()
                        return
                    message = body.get("message") or {}
                    key = str(message.get("id"))
                    if message.get("type") == "text" and key not in bridge.seen:
                        # a redelivered message keeps its id: show it once
                        bridge.seen.add(key)
                        customer = str((body.get("recipient") or {}).get("id"))
                        agent = (body.get("sender") or {}).get("name", "Agent")
                        bridge.inboxes.setdefault(customer, []).append((message.get("text"), agent))
                reply = b'{"result":"ok"}'
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def send(self, customer_id, text):
        """A customer's text to the platform: (ok, status)."""
        body = json.dumps({"sender": {"id": customer_id}, "message": {"type": "text", "text": text}})
        request = urllib.request.Request(
            self.channel_url, data=body.encode(), headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request) as response:
                return response.status == 200, response.status
        except urllib.error.HTTPError as error:
            return False, error.code

    def agents_online(self):
        """The chat button: shown while an agent is online (status 1, spec 4.1)."""
        with urllib.request.urlopen(self.status_url) as response:
            return response.read().decode().strip() == "1"

    def inbox(self, customer_id):
        with self.lock:
            return list(self.inboxes.get(customer_id, []))

    def requests_for(self, customer_id):
        with self.lock:
            return [r for r in self.requests if (r.get("recipient") or {}).get("id") == customer_id]

    def fail_next(self, count):
        with self.lock:
            self.failures = count

    def close(self):
        self.server.shutdown()
        self.server.server_close()
