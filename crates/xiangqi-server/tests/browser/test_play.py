"""Playing on: takebacks, premoves, sounds, rematches and the connection
banner, in two real browsers against the server (docs/web.md)."""

import time

from selenium.webdriver.common.by import By

from pages import start_guest_game

# Installed before the client's scripts: every WebSocket of the page can be
# stalled (frames neither sent nor delivered), as a dead network does.
STALLABLE_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.xqStall = false;
  window.xqSockets = [];
  class Stallable extends Native {
    constructor(...args) { super(...args); window.xqSockets.push(this); }
    addEventListener(type, fn, options) {
      if (type !== "message") return super.addEventListener(type, fn, options);
      return super.addEventListener(type, (event) => { if (!window.xqStall) fn.call(this, event); }, options);
    }
    send(data) { if (!window.xqStall) super.send(data); }
  }
  window.WebSocket = Stallable;
})();
"""


def sounds(client):
    """How many sounds the page played, and the last one."""
    return client.driver.execute_script(
        "const d = document.documentElement.dataset; return [Number(d.soundCount || 0), d.lastSound || null];")


def premove_marks(client):
    return sorted(e.get_attribute("data-premove")
                  for e in client.driver.find_elements(By.CSS_SELECTOR, "#board [data-premove]"))


def premove(client, iccs):
    """Picks up a piece on the opponent's turn and drops it: a premove."""
    client.click(f"#board [data-square='{iccs[:2]}']")
    client.click(f"#board [data-square='{iccs[2:]}']")
    client.wait().until(lambda d: premove_marks(client) == sorted([iccs[:2], iccs[2:]]), "no premove marked")


def test_takeback_premove_and_sounds(open_client):
    red, black = open_client(), open_client()
    start_guest_game(red, black, color="red")
    red.move("h2e2")
    black.move("h9g7")
    red.move("h0g2")
    count, last = sounds(red)
    assert count >= 3 and last == "move", (count, last)

    # Black is to move: its takeback takes back its move and Red's reply.
    black.click("#takeback")
    red.find("#takeback-offer")
    assert "Black asks to take back a move" in red.text("#controls")
    black.wait_text("#takeback", lambda t: t == "Takeback asked")
    red.shot("play-takeback-offered")
    red.click("#accept-takeback")
    for client in (red, black):
        client.wait().until(lambda d, c=client: c.ply_count() == 1, "the takeback was not shown")
        assert client.moves_text() == ["h2e2"]
        client.wait_last_move("h2e2")
    assert black.wait_my_turn()
    black.wait_text("#game-message", lambda t: t == "The takeback Black asked for was accepted.")
    black.shot("play-takeback-done")

    # A refused request cannot be repeated at once.
    black.move("b9c7")
    red.click("#takeback")
    black.click("#decline-takeback")
    red.wait_text("#game-message", lambda t: t == "Black declined the takeback.")
    red.wait_text("#takeback", lambda t: t == "Takeback")
    red.click("#takeback")
    red.wait_text("#game-message", lambda t: "wait a few moves" in t)
    assert red.ply_count() == 2

    # A premove: queued on Black's turn, played when Black's move arrives.
    red.move("h0g2")
    premove(red, "i0h0")
    assert "Premove i0h0" in red.text("#game-message")
    red.shot("play-premove-queued")
    black.move("h9g7")
    red.wait().until(lambda d: red.ply_count() == 5, "the premove was not played")
    red.wait_last_move("i0h0")
    black.wait_last_move("i0h0")
    assert premove_marks(red) == []

    # A click on the board cancels a queued premove.
    premove(red, "b0c2")
    red.click("#board [data-square='e5']")
    red.wait().until(lambda d: premove_marks(red) == [], "the premove was not cancelled")
    black.move("i9h9")
    assert red.wait_my_turn()
    time.sleep(1)
    assert red.ply_count() == 6

    # A premove that is not legal when its turn comes is dropped.
    red.move("b0c2")
    premove(red, "c2d4")
    black.move("a9a8")
    red.wait_text("#game-message", lambda t: t == "Premove c2d4 is not legal now: cancelled.")
    assert red.ply_count() == 8 and red.wait_my_turn()

    # A capture sounds different; muted, nothing sounds.
    before, _ = sounds(red)
    red.move("e2e6")
    red.wait().until(lambda d: sounds(red) == [before + 1, "capture"], "no capture sound")
    red.click("#game-settings")
    red.click("#sounds")
    red.click("#settings-close")
    black.move("h9i9")
    red.wait_last_move("h9i9")
    assert sounds(red)[0] == before + 1
    for client in (red, black):
        assert client.console_errors() == []


def test_a_rematch_swaps_the_colours(open_client):
    red, black = open_client(), open_client()
    game = start_guest_game(red, black, color="red")
    red.move("h2e2")
    black.click("#resign")
    black.wait_text("#resign", lambda t: t == "Confirm resign")
    black.click("#resign")
    for client in (red, black):
        client.wait_result()
    red.click("#rematch")
    red.wait_text("#rematch", lambda t: t == "Rematch offered")
    black.find("#rematch-offer")
    assert "Red offers a rematch" in black.text("#result")
    black.shot("play-rematch-offered")
    black.click("#accept-rematch")
    for client in (red, black):
        client.wait().until(lambda d: game not in d.current_url, "the rematch did not open")
        new_game = client.wait_game_page()
        assert new_game != game
    # Colours swapped: the former Black moves first.
    assert red.board_flipped() and not black.board_flipped()
    assert black.wait_my_turn()
    black.move("b0c2")
    red.wait_last_move("b0c2")
    red.shot("play-rematch-started")
    for client in (red, black):
        assert client.console_errors() == []


def test_the_connection_banner_stops_the_clocks(open_client):
    red, black = open_client(), open_client()
    red.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STALLABLE_SOCKETS})
    start_guest_game(red, black, color="red")
    red.move("h2e2")
    black.wait_last_move("h2e2")
    assert red.driver.find_element(By.ID, "connection-banner").is_displayed() is False

    # A stalled socket: nothing comes or goes; the banner shows, clocks stop.
    red.driver.execute_script("window.xqStall = true;")
    red.wait(15).until(lambda d: d.find_element(By.ID, "connection-banner").is_displayed(), "no banner")
    assert "Connection lost" in red.text("#connection-banner")
    frozen = red.text("#clock-black")
    assert "frozen" in red.find("#clock-black").get_attribute("class")
    time.sleep(2)
    assert red.text("#clock-black") == frozen
    red.shot("play-connection-lost")

    # The server answers again: the banner goes, the clocks are the server's.
    red.driver.execute_script("window.xqStall = false;")
    red.wait(10).until(lambda d: not d.find_element(By.ID, "connection-banner").is_displayed(), "banner stays")
    red.wait().until(lambda d: red.text("#clock-black") != frozen, "the clock did not run again")
    assert "frozen" not in red.find("#clock-black").get_attribute("class")

    # A killed socket: the banner at once; it goes when a new socket is welcomed.
    red.driver.execute_script("window.xqStall = true; window.xqSockets.at(-1).close();")
    red.wait(5).until(lambda d: d.find_element(By.ID, "connection-banner").is_displayed(), "no banner")
    red.driver.execute_script("window.xqStall = false;")
    red.wait(25).until(lambda d: not d.find_element(By.ID, "connection-banner").is_displayed(), "banner stays")
    # The game goes on from the new socket.
    black.move("h9g7")
    red.wait_last_move("h9g7")
    red.shot("play-connection-back")
