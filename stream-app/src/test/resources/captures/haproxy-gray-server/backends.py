# three HTTP servers on 127.0.0.1:18181-18183; app2 (18182) is gray: /health answers 200 at once,
# but of its other requests 15% lose their connection (HAProxy answers 502), 15% get a 500 and
# 5% of the rest stall 3.5 s
import http.server, threading, sys, random, time
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'
    def do_GET(self):
        gray = self.server.server_address[1] == 18182 and not self.path.startswith('/health')
        status = 200
        if gray:
            x = random.random()
            if x < 0.15:
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if x < 0.30:
                status = 500
            elif random.random() < 0.05:
                time.sleep(3.5)
        body = b'ok\n'
        self.send_response(status); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
for port in (18181, 18182, 18183):
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', port), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
time.sleep(float(sys.argv[1]))
