#!/usr/bin/env bash
# Re-creates the captured outputs beside this script from the real HAProxy on this machine
# (Debian package haproxy, 2.6 when captured). Loopback only; everything under a temp dir.
# Needs: haproxy, python3, curl.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# Backends: 200 (passes), 500 (L7STS), a 3 s answer (L7TOUT with timeout check 1s); 18199 is closed (L4CON)
cat > "$work/servers.py" <<'PY'
import http.server, socketserver, threading, time, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.server.server_address[1] == 18192: time.sleep(3)
        code = 500 if self.server.server_address[1] == 18191 else 200
        self.send_response(code); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a): pass
socketserver.ThreadingTCPServer.allow_reuse_address = True
for port in (18190, 18191, 18192):
    s = socketserver.ThreadingTCPServer(("127.0.0.1", port), H); s.daemon_threads = True
    threading.Thread(target=s.serve_forever, daemon=True).start()
time.sleep(3600)
PY
python3 "$work/servers.py" &

cat > "$work/haproxy.cfg" <<CFG
global
    stats socket $work/admin.sock level admin
    stats socket $work/user.sock level user
    maxconn 1000
defaults
    mode http
    timeout connect 1s
    timeout client 5s
    timeout server 5s
    timeout check 1s
frontend fe_web
    bind 127.0.0.1:18180
    maxconn 200
    http-request deny if { path_beg /denied }
    default_backend be_web
frontend fe_api
    bind 127.0.0.1:18182
    default_backend be_api
frontend stats
    bind 127.0.0.1:18181
    stats enable
    stats uri /stats
backend be_web
    option httpchk GET /health
    server ok1 127.0.0.1:18190 check inter 500
    server err500 127.0.0.1:18191 check inter 500
    server slow 127.0.0.1:18192 check inter 500
    server refused 127.0.0.1:18199 check inter 500
    server maint 127.0.0.1:18190 check inter 500
    server drain 127.0.0.1:18190 check inter 500
backend be_api
    server nocheck 127.0.0.1:18190
CFG
haproxy -f "$work/haproxy.cfg" -db > "$work/haproxy.log" 2>&1 &

cli() { python3 -c 'import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall((sys.argv[2]+"\n").encode()); b=b""
while True:
    d=s.recv(65536)
    if not d: break
    b+=d
sys.stdout.buffer.write(b)' "$1" "$2"; }

for _ in $(seq 50); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
cli "$work/admin.sock" "disable server be_web/maint" > /dev/null
cli "$work/admin.sock" "set server be_web/drain state drain" > /dev/null
for _ in $(seq 20); do curl -s -o /dev/null http://127.0.0.1:18180/ || true; done
for _ in $(seq 3); do curl -s -o /dev/null http://127.0.0.1:18180/denied || true; done
sleep 5   # several check rounds: the failing servers reach DOWN
cli "$work/admin.sock" "show info" > "$out/show-info.txt"
cli "$work/admin.sock" "show stat" > "$out/show-stat.csv"
cli "$work/admin.sock" "show stats" > "$out/unknown-command.txt"
cli "$work/user.sock" "set maxconn frontend fe_web 100" > "$out/permission-denied.txt"
curl -s "http://127.0.0.1:18181/stats;csv;norefresh" > "$out/stats-page.csv"
curl -s "http://127.0.0.1:18181/stats;norefresh;scope=hcwatch.no.proxy" > "$out/stats-page-info.html"
haproxy -v | head -1 > "$out/VERSION"
