# ten users, one request at a time each, from 127.0.0.2..127.0.0.11
import http.client, sys, time, threading, random
end = time.time() + float(sys.argv[1])
def user(ip):
    while time.time() < end:
        try:
            c = http.client.HTTPConnection('127.0.0.1', 18180, timeout=25, source_address=(ip, 0))
            c.request('GET', '/api/items/%d' % random.randint(1, 1000)); c.getresponse().read(); c.close()
        except Exception:
            pass
        time.sleep(0.25)
for i in range(2, 12):
    threading.Thread(target=user, args=('127.0.0.%d' % i,), daemon=True).start()
time.sleep(float(sys.argv[1]) + 1)
