"""Guests that hold seeks open in the lobby from outside the browser: a
minimal WebSocket client on the standard library (the handshake, masked
text frames, the server's pings answered), enough for `seek` and nothing
else."""

import base64
import json
import os
import socket
import struct
import threading
import urllib.request
from http.cookies import SimpleCookie
from urllib.parse import urlparse


def new_guest_cookie(base_url):
    """A new guest's `name=value` session cookie."""
    with urllib.request.urlopen(f"{base_url}/api/me") as response:
        header = response.headers.get("Set-Cookie")
    cookie = SimpleCookie(header)
    name = next(iter(cookie))
    return f"{name}={cookie[name].value}"


class Bot:
    """One guest's socket; its seeks last as long as it is open."""

    def __init__(self, base_url):
        cookie = new_guest_cookie(base_url)
        url = urlparse(base_url)
        self.sock = socket.create_connection((url.hostname, url.port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nCookie: {cookie}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.sock.settimeout(None)
        self.lock = threading.Lock()
        self.frames = []
        self.closed = False
        self.send({"t": "hello", "v": 1})
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def send(self, frame):
        data = json.dumps(frame).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        else:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(data))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def _exact(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def _read(self):
        try:
            while not self.closed:
                first, second = self._exact(2)
                length = second & 0x7F
                if length == 126:
                    (length,) = struct.unpack("!H", self._exact(2))
                elif length == 127:
                    (length,) = struct.unpack("!Q", self._exact(8))
                payload = self._exact(length)
                if first & 0x0F != 1:
                    continue
                frame = json.loads(payload)
                if frame.get("t") == "ping":
                    self.send({"t": "pong"})
                self.frames.append(frame)
        except (OSError, ConnectionError, ValueError):
            pass

    def seek(self, tc, rated=False):
        self.send({"t": "seek", "tc": tc, "rated": rated})

    def close(self):
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass
