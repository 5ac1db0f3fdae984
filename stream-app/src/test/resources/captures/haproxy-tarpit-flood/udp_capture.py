import socket, sys, time
out = open(sys.argv[1], 'w')
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('127.0.0.1', int(sys.argv[3]) if len(sys.argv) > 3 else 5514))  # optional third argument: the port
s.settimeout(1.0)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    try:
        data, _ = s.recvfrom(65535)
    except socket.timeout:
        continue
    out.write(data.decode('utf-8', 'replace').rstrip('\n') + '\n')
    out.flush()
