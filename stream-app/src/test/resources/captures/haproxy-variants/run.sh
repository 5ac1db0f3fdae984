#!/usr/bin/env bash
# usage: run.sh OUTDIR CFG
set -u
out=$1; cfg=$2; mkdir -p $out
python3 backend.py 18081 200 & b1=$!
python3 backend.py 18082 200 & b2=$!
python3 backend.py 18083 200 & b3=$!
python3 backend.py 18084 200 & b4=$!
python3 backend.py 18085 200 & b5=$!
python3 udp.py 40 5514=$out/rfc3164.log 5515=$out/rfc5424.log 5516=$out/raw.log & cap=$!
sleep 1
haproxy -f $cfg -db 2> $out/stderr.log & hp=$!
sleep 3
curl -s -o /dev/null -H 'Host: shop.example.net' http://127.0.0.1:18080/api/cart?id=42
curl -s -o /dev/null -g "http://[::1]:18080/api/cart?id=7"
curl -s -o /dev/null http://127.0.0.1:18080/admin/users
curl -s -o /dev/null http://127.0.0.1:18080/tarpitted/6f1c9a2e-4b7d-4c1e-9f1a-2b3c4d5e6f70
python3 -c "
import socket
s=socket.create_connection(('127.0.0.1',18080)); s.sendall(b'GARBAGE\r\n\r\n'); s.recv(4096); s.close()
s=socket.create_connection(('127.0.0.1',15432)); s.sendall(b'GET / HTTP/1.0\r\n\r\n'); s.recv(4096); s.close()
s=socket.create_connection(('127.0.0.1',18443)); s.sendall(b'GET / HTTP/1.1\r\n\r\n');
try: s.recv(4096)
except Exception: pass
s.close()
"
sleep 1
kill $b2; wait $b2 2>/dev/null; python3 backend.py 18082 503 & b2=$!
sleep 4
kill $b2; wait $b2 2>/dev/null
sleep 4
python3 backend.py 18082 200 & b2=$!
sleep 4
kill $b3
sleep 4
kill $hp; sleep 1
kill $b1 $b2 $b4 $b5 $cap 2>/dev/null
wait 2>/dev/null
