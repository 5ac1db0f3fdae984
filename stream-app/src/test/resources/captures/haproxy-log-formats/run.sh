#!/usr/bin/env bash
# usage: run.sh OUTFILE — the same requests through every frontend of haproxy.cfg, logged to OUTFILE
set -u
out=$1
python3 ../haproxy-variants/backend.py 18091 200 & b1=$!
python3 ../haproxy-variants/udp.py 12 5614=$out & cap=$!
sleep 1
haproxy -f haproxy.cfg -db & hp=$!
sleep 2
for port in 18180 18181 18182 18183 18185; do
  curl -s -g -o /dev/null -H 'Host: shop.example.net' -A 'agent "quoted" [x] back\slash' 'http://127.0.0.1:'$port'/api/cart?id=42&q="a]b\c"'
  curl -s -o /dev/null -H 'Host: shop.example.net' "http://127.0.0.1:$port/admin/users"
done
curl -s -o /dev/null http://127.0.0.1:18184/tcp/path
sleep 2
kill $hp $b1; wait $hp $b1 2>/dev/null
wait $cap
