import socket, sys, time
socks = []
for spec in sys.argv[2:]:
    port, name = spec.split('=')
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', int(port))); s.setblocking(False)
    socks.append((s, open(name, 'w')))
end = time.time() + float(sys.argv[1])
import select
while time.time() < end:
    r, _, _ = select.select([s for s, _ in socks], [], [], 0.5)
    for s, f in socks:
        if s in r:
            data, _ = s.recvfrom(65535)
            f.write(data.decode('utf-8', 'replace').rstrip('\n') + '\n'); f.flush()
