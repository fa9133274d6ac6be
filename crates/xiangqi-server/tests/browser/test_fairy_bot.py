"""A person plays Debian's Fairy-Stockfish in the browser, the engine run as
a bot by `xiangqi bot` (docs/bots.md): an account with a token, made a bot
by the command's --upgrade, shows among the bots online; the person
challenges it from the lobby, the engine answers the person's moves with
the game's clocks, the game is marked as a bot game on the board and by
the API, and the person's resignation ends it. The bot's --json lines say
the same. Skipped with a message when Fairy-Stockfish is not installed
(`cargo xtask test` installs it; under CI=true its absence fails)."""

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from http_bot import call

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


class CommandBot:
    """`xiangqi bot --json` with Fairy-Stockfish, its JSON lines collected."""

    def __init__(self, server_url, name, password="correct-horse-9"):
        self.name = name
        with call(server_url, "POST", "/api/register", {"name": name, "password": password}) as response:
            cookie = response.headers.get("Set-Cookie").split(";", 1)[0]
        with call(server_url, "POST", "/api/account/tokens", {"description": "fairy"}, cookie=cookie) as response:
            token = json.load(response)["token"]
        self.lines = []
        self.process = subprocess.Popen(
            [os.environ["XQ_XIANGQI"], "bot", "--engine", FAIRY_STOCKFISH, "--server", server_url,
             "--upgrade", "--json", "--move-overhead", "500"],
            env={**os.environ, "XIANGQI_BOT_TOKEN": token},
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for("connected")

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(json.loads(line))

    def events(self, kind):
        return [line for line in self.lines if line["event"] == kind]

    def wait_for(self, kind, seconds=30):
        deadline = time.monotonic() + seconds
        while not self.events(kind):
            assert self.process.poll() is None or self.events(kind), f"xiangqi bot exited: {self.lines}"
            assert time.monotonic() < deadline, f"no {kind} line from xiangqi bot: {self.lines}"
            time.sleep(0.1)
        return self.events(kind)[0]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=20)


def test_a_person_plays_fairy_stockfish_run_by_xiangqi_bot(open_client, server_url, unique_name):
    if not Path(FAIRY_STOCKFISH).is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{FAIRY_STOCKFISH} is missing under CI=true (cargo xtask test installs it)")
        pytest.skip(f"{FAIRY_STOCKFISH} is not installed (apt-get install fairy-stockfish)")
    bot = CommandBot(server_url, unique_name("fairy"))
    try:
        person = open_client()
        person.register(unique_name("ana"))
        person.open("/")
        row = f"#bots li[data-bot='{bot.name}']"
        person.find(row)
        assert "BOT" in person.text(row)
        person.click(f"{row} button[data-challenge]")
        person.find("#bot-form")
        person.find("#bot-base").clear()
        person.find("#bot-base").send_keys("1")
        person.find("#bot-color option[value='red']").click()
        person.click("#bot-send")
        game = person.wait_game_page()
        assert "BOT" in person.text("#app")
        assert person.wait_my_turn()
        person.move("h2e2")
        assert person.wait_my_turn(seconds=30), "Fairy-Stockfish answered"
        person.shot("fairy-bot-game")
        person.move("a3a4")
        assert person.wait_my_turn(seconds=30)
        assert person.ply_count() == 4
        person.click("#resign")
        person.wait_text("#resign", lambda t: t == "Confirm resign")
        person.click("#resign")
        result = person.wait_result()
        assert result
        person.shot("fairy-bot-game-over")
        assert person.console_errors() == []

        start = bot.wait_for("game_start")
        assert start["game"] == game and start["color"] == "black"
        finish = bot.wait_for("game_finish")
        assert finish["result"] == "0-1"
        assert [m["ply"] for m in bot.events("move")] == [2, 4]
        with call(server_url, "GET", f"/api/games/{game}") as response:
            summary = json.load(response)
        assert summary["bot"] is True
        assert summary["moves"][0] == "h2e2" and summary["moves"][1] == bot.events("move")[0]["move"]
    finally:
        bot.stop()
    assert bot.events("stopped")[0]["reason"] == "shutdown"
