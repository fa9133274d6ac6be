"""A bot of the bot API on the standard library, for the browser tests: an
account made a bot with a token, its event stream read on a thread, the
first challenge accepted, and a scripted game played from its game stream
(a move from the script when it is its turn; resignation when the script
runs out). Docs: docs/server.md, "Bots"."""

import json
import threading
import urllib.request
from http.cookies import SimpleCookie


def call(base_url, method, path, body=None, cookie=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", cookie)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    return urllib.request.urlopen(request, timeout=10)


class HttpBot:
    def __init__(self, base_url, name, script, password="correct-horse-9"):
        self.base_url = base_url
        self.name = name
        self.script = list(script)
        self.lines = []
        with call(base_url, "POST", "/api/register", {"name": name, "password": password}) as response:
            cookie = SimpleCookie(response.headers.get("Set-Cookie"))
        key = next(iter(cookie))
        self.cookie = f"{key}={cookie[key].value}"
        with call(base_url, "POST", "/api/account/tokens", {"description": "browser test"}, cookie=self.cookie) as response:
            self.token = json.load(response)["token"]
        call(base_url, "POST", "/api/bot/account/upgrade", {}, token=self.token).close()
        self.events = call(base_url, "GET", "/api/stream/event", token=self.token)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _stream(self, response):
        for raw in response:
            line = raw.decode().strip()
            if line:
                yield json.loads(line)

    def _run(self):
        try:
            for event in self._stream(self.events):
                self.lines.append(event)
                if event["type"] == "challenge":
                    path = f"/api/challenge/{event['challenge']['id']}/accept"
                    call(self.base_url, "POST", path, {}, token=self.token).close()
                elif event["type"] == "game_start":
                    game = event["game"]
                    threading.Thread(target=self._play, args=(game["id"], game["color"]), daemon=True).start()
        except Exception as error:  # the stream ends with the test's server
            self.lines.append({"type": "ended", "why": str(error)})

    def _play(self, game, color):
        stream = call(self.base_url, "GET", f"/api/bot/game/stream/{game}", token=self.token)
        for line in self._stream(stream):
            self.lines.append(line)
            state = line["state"] if line["type"] == "game_full" else line
            if line["type"] == "chat_line" or state["status"] != "started":
                continue
            played = len(state["moves"].split()) if state["moves"] else 0
            if (played % 2 == 0) != (color == "red"):
                continue
            if self.script:
                path = f"/api/bot/game/{game}/move/{self.script.pop(0)}"
            else:
                path = f"/api/bot/game/{game}/resign"
            call(self.base_url, "POST", path, {}, token=self.token).close()
