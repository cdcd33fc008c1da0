"""A stand-in for LAVA's REST API (lava-server 2023.01, /api/v0.2/) on
127.0.0.1, for the tests of a lab that misbehaves (tests/integration/
lava_logs.sh): it accepts any job, says it finished at once, and serves one
job log file the way lava_rest_app's logs view does (the whole file, or
with ?start=N the lines from the N-th on, 404 when there are none).

usage: python3 lava_http.py DIR
DIR/log     the job log served for every job
DIR/mode    read at each request (absent: "ok"), one of
            ok          behave
            slow        the job's state comes 5 s late (after the rig's stall_s)
            html        the job's state is an HTML page (a proxy's 502)
            drop-once   the next log download stops half way (connection
                        closed), then mode is ok again
            drop        every log download stops half way
            html-log    the log is an HTML page
DIR/port    written once listening (the port, chosen by the kernel)
DIR/requests  one line per request: "METHOD PATH"
Every request must carry "Authorization: Token secret" (else 401).
"""
import http.server
import json
import os
import sys
import time

DIR = sys.argv[1]


def mode():
    try:
        with open(os.path.join(DIR, "mode")) as f:
            return f.read().strip() or "ok"
    except FileNotFoundError:
        return "ok"


class Lava(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        with open(os.path.join(DIR, "requests"), "a") as f:
            f.write("%s %s\n" % (self.command, self.path))

    def answer(self, status, body, ctype="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def authorized(self):
        if self.headers.get("Authorization") == "Token secret":
            return True
        self.answer(401, b'{"detail": "Invalid token."}')
        return False

    def do_POST(self):
        if not self.authorized():
            return
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.answer(201, json.dumps({"message": "job(s) successfully submitted",
                                     "job_ids": [7]}).encode())

    def do_GET(self):
        if not self.authorized():
            return
        path, _, query = self.path.partition("?")
        m = mode()
        if path.endswith("/logs/"):
            return self.logs(query, m)
        if path.endswith("/cancel/"):
            return self.answer(200, b"{}")
        if m == "slow":
            time.sleep(5)
        if m == "html":
            return self.answer(200, b"<html><head><title>502 Bad Gateway</title></head>"
                               b"<body>nginx</body></html>", "text/html; charset=utf-8")
        job = int(path.rstrip("/").split("/")[-1])
        self.answer(200, json.dumps({
            "id": job, "state": "Finished", "health": "Complete",
            "actual_device": "qemu01", "requested_device_type": "qemu",
            "failure_comment": None}).encode())

    def logs(self, query, m):
        if m == "html-log":
            return self.answer(200, b"<html><title>Sign in</title></html>", "text/html")
        with open(os.path.join(DIR, "log"), "rb") as f:
            lines = f.readlines()
        start = int(query[len("start="):]) if query.startswith("start=") else 0
        body = b"".join(lines[start:])
        if not body:
            return self.answer(404, b'{"detail": "Not found."}')
        if m in ("drop", "drop-once"):
            if m == "drop-once":
                with open(os.path.join(DIR, "mode"), "w") as f:
                    f.write("ok\n")
            self.send_response(200)
            self.send_header("Content-Type", "application/yaml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.answer(200, body, "application/yaml")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Lava)
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
server.serve_forever()
