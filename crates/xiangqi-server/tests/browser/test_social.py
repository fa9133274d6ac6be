"""What players share, in a real browser: a game's two chats (text only,
mute, report), the lobby's filters and pages with many seeks, the player
page's server-side filters, and the password change and account deletion
on the settings page. Screenshots of each."""

from selenium.webdriver.common.by import By

from pages import poll, start_guest_game
from seeker_bots import Bot

INJECTION = '<img src=x onerror="document.title=\'owned\'"> hi'


def js_click(client, css):
    """Clicks an element that shows on hover only."""
    element = client.find(css)
    client.driver.execute_script("arguments[0].click()", element)


def send_chat(client, channel, text):
    box = client.find(f"#chat-input-{channel}")
    box.send_keys(text)
    client.click(f"#chat-form-{channel} button[type='submit']")


def test_players_and_spectators_chat_apart_with_mute_and_report(open_client, unique_name):
    red, black, watcher = open_client(), open_client(), open_client()
    game = start_guest_game(red, black, color="red")
    watcher_name = unique_name("watch")
    watcher.register(watcher_name)
    watcher.open(f"/games/{game}")
    watcher.wait_game_page()

    # The players' chat: markup arrives as text.
    send_chat(red, "players", INJECTION)
    for client in (red, black):
        client.wait_text("#chat-log-players", lambda t: INJECTION in t)
        assert client.driver.find_elements(By.CSS_SELECTOR, "#chat img") == []
        assert client.driver.title != "owned"
    # Spectators see no players' chat, players no spectators' chat.
    assert watcher.driver.find_elements(By.CSS_SELECTOR, "#chat-players") == []
    send_chat(watcher, "spectators", "what a start")
    watcher.wait_text("#chat-log-spectators", lambda t: "what a start" in t)
    for client in (red, black):
        assert client.driver.find_elements(By.CSS_SELECTOR, "#chat-spectators") == []
        assert "what a start" not in client.text("#chat")

    # Black mutes Red: Red's messages are hidden here, with a way back.
    send_chat(red, "players", "are you there?")
    black.wait_text("#chat-log-players", lambda t: "are you there?" in t)
    js_click(black, "#chat-log-players .chat-line:not(.own) .chat-mute")
    black.wait_text("#chat-players", lambda t: "is muted" in t)
    assert "are you there?" not in black.text("#chat-log-players")
    black.shot("chat-players-muted")
    red.shot("chat-players")
    watcher.shot("chat-spectators")

    # The spectator reports nothing of the players' (cannot see it); Black
    # unmutes and reports Red's message.
    js_click(black, "#chat-players .chat-muted button")
    black.wait_text("#chat-log-players", lambda t: "are you there?" in t)
    js_click(black, "#chat-log-players .chat-line:not(.own) .chat-report")
    alert = black.wait().until(lambda d: d.switch_to.alert)
    alert.send_keys("spam")
    alert.accept()
    black.wait_text("#chat-notice", lambda t: t == "Reported. Thank you.")
    black.shot("chat-reported")

    # A guest watching reads the spectators' chat and is asked to register to write.
    guest = open_client()
    guest.open(f"/games/{game}")
    guest.wait_game_page()
    guest.wait_text("#chat-log-spectators", lambda t: "what a start" in t)
    guest.wait_text("#chat-guest-note", lambda t: "Register" in t)
    assert guest.driver.find_elements(By.CSS_SELECTOR, "#chat-input-spectators") == []

    # After the game the players' page shows both chats.
    red.click("#abort")
    red.wait_result()
    red.open(f"/games/{game}")
    red.wait_text("#chat-log-spectators", lambda t: "what a start" in t)
    red.wait_text("#chat-log-players", lambda t: INJECTION in t)
    red.driver.execute_script("document.getElementById('chat').scrollIntoView()")
    red.shot("chat-review-both")
    for client in (red, black, watcher, guest):
        assert client.console_errors() == []


def test_the_lobby_filters_and_pages_many_seeks(open_client, server_url, unique_name):
    bots = []
    try:
        # 15 guests with 3 seeks each: 30 blitz (5+3), 15 bullet (1+0).
        for _ in range(15):
            bot = Bot(server_url)
            for tc in ("5+3", "5+3", "1+0"):
                bot.seek(tc)
            bots.append(bot)
        viewer = open_client(height=1400)
        viewer.register(unique_name("rated"))
        # Not reloaded after: a player's seeks go with their last socket.
        viewer.create_seek(minutes=15, increment=10, rated=True)
        viewer.wait_text("#seek-page-note", lambda t: t.startswith("1–20 of ") and int(t.split(" of ")[1].split()[0]) >= 46)
        assert len(viewer.driver.find_elements(By.CSS_SELECTOR, "#seeks li[data-seek]")) == 20
        viewer.shot("lobby-many-seeks-page-1")
        viewer.click("#seek-page-next")
        viewer.wait_text("#seek-page-note", lambda t: t.startswith("21–40 of "))
        # Bullet only: the bots' 15.
        viewer.driver.execute_script(
            "const s = document.getElementById('filter-speed'); s.value = 'bullet'; s.dispatchEvent(new Event('change'));")
        viewer.wait_text("#seeks", lambda t: t.count("1+0") >= 15)
        rows = viewer.driver.find_elements(By.CSS_SELECTOR, "#seeks li[data-seek]")
        assert rows and all("1+0" in row.text for row in rows)
        viewer.shot("lobby-filter-bullet")
        # A rating range leaves the guests out: the account's rated seek stays.
        viewer.driver.execute_script(
            "const s = document.getElementById('filter-speed'); s.value = ''; s.dispatchEvent(new Event('change'));")
        low = viewer.find("#filter-rating-min")
        low.send_keys("1400")
        high = viewer.find("#filter-rating-max")
        high.send_keys("1600")
        viewer.wait_text("#seeks", lambda t: "15+10" in t)
        rows = viewer.driver.find_elements(By.CSS_SELECTOR, "#seeks li[data-seek]")
        assert all("Guest-" not in row.text for row in rows)
        viewer.shot("lobby-filter-rating")
        high.clear()
        high.send_keys("1450")
        viewer.wait_text("#seeks", lambda t: "No open seek matches" in t)
        assert viewer.console_errors() == []
    finally:
        for bot in bots:
            bot.close()


def resign_after_moves(first, second):
    """`first` (Red) and `second` play a move each, then `first` resigns."""
    assert first.wait_my_turn()
    first.move("h2e2")
    assert second.wait_my_turn()
    second.move("h9g7")
    first.click("#resign")
    first.click("#resign")
    first.wait_result()
    second.wait_result()


def test_the_player_page_filters_games_on_the_server(open_client, unique_name):
    alice, bob = open_client(), open_client()
    alice_name, bob_name = unique_name("alice"), unique_name("bob")
    alice.register(alice_name)
    bob.register(bob_name)
    # A rated game Alice (Red) resigns, then a casual one Bob (Red) resigns.
    alice.create_seek(minutes=3, increment=2, rated=True, color="red")
    alice.find("#seeks li.own")
    bob.join_seek_of(alice_name)
    alice.wait_game_page()
    bob.wait_game_page()
    resign_after_moves(alice, bob)
    bob.create_seek(minutes=3, increment=2, rated=False, color="red")
    bob.find("#seeks li.own")
    alice.join_seek_of(bob_name)
    bob.wait_game_page()
    alice.wait_game_page()
    resign_after_moves(bob, alice)

    alice.open(f"/players/{alice_name}")
    poll(lambda: len(alice.driver.find_elements(By.CSS_SELECTOR, "#player-games li[data-game]")) == 2, 10, "two games")
    alice.driver.execute_script(
        "const s = document.getElementById('result-filter'); s.value = 'win'; s.dispatchEvent(new Event('change'));")
    alice.click("#filter-submit")
    alice.wait_text("#ecco-filter-note", lambda t: t == "1 game with Won")
    rows = alice.driver.find_elements(By.CSS_SELECTOR, "#player-games li[data-game]")
    assert len(rows) == 1 and "Casual" in rows[0].text
    assert "result=win" in alice.driver.current_url
    alice.shot("player-page-filter-won")
    alice.driver.execute_script(
        "const s = document.getElementById('result-filter'); s.value = ''; "
        "const r = document.getElementById('rated-filter'); r.value = 'true';")
    alice.find("#opponent-filter").send_keys(bob_name)
    alice.click("#filter-submit")
    alice.wait_text("#ecco-filter-note", lambda t: t == f"1 game with Rated, vs {bob_name}")
    alice.shot("player-page-filter-rated-opponent")
    # The filters are in the address: a reload shows the same list.
    alice.driver.refresh()
    alice.wait_text("#ecco-filter-note", lambda t: t == f"1 game with Rated, vs {bob_name}")
    alice.find("#opponent-filter").clear()
    alice.find("#opponent-filter").send_keys("nobody_here")
    alice.click("#filter-submit")
    alice.wait_text("#player-games", lambda t: "No games match these filters." in t)
    alice.click("#filter-clear")
    poll(lambda: len(alice.driver.find_elements(By.CSS_SELECTOR, "#player-games li[data-game]")) == 2, 10, "both games again")
    for client in (alice, bob):
        assert client.console_errors() == []


def test_password_change_and_account_deletion(open_client, unique_name):
    client = open_client()
    name = unique_name("leaver")
    client.register(name, password="correct-horse-9")
    client.open("/settings")
    client.find("#password-old").send_keys("not-the-password")
    client.find("#password-new").send_keys("another-horse-10")
    client.click("#password-submit")
    client.wait_text("#password-message", lambda t: "wrong name or password" in t.lower())
    client.find("#password-old").clear()
    client.find("#password-old").send_keys("correct-horse-9")
    client.click("#password-submit")
    client.wait_text("#password-message", lambda t: t.startswith("Password changed"))
    client.shot("settings-password-changed")

    client.find("#delete-password").send_keys("another-horse-10")
    client.click("#delete-submit")
    confirm = client.wait().until(lambda d: d.switch_to.alert)
    confirm.accept()
    message = client.wait_text("#deleted-message", lambda t: "deleted-" in t)
    placeholder = message.split("show ")[1].rstrip(".")
    client.wait_text("#me", lambda t: t.startswith("Guest-"))
    client.shot("settings-account-deleted")
    # The old name signs in no more; the placeholder's page exists.
    client.open("/login")
    client.find("#login-name").send_keys(name)
    client.find("#login-password").send_keys("another-horse-10")
    client.click("#login-submit")
    client.wait_text("#login-error", lambda t: "wrong name or password" in t.lower())
    client.open(f"/players/{placeholder}")
    client.wait_text("#player h1", lambda t: t.startswith("deleted-"))
    # The refused password and login are the only failed requests.
    expected = ("/api/account/password", "/api/login")
    unexpected = [e for e in client.console_errors()
                  if not (e["source"] == "network" and "401" in e["message"] and any(p in e["message"] for p in expected))]
    assert unexpected == []
