import http.server, threading, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'ok\n'
        self.send_response(200); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
for port in (8081, 8082, 8083):
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', port), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
import time; time.sleep(float(sys.argv[1]))
