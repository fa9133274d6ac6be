"""The ECCO opening in a real browser: the live game page names the opening
of the moves so far under the board and above the explorer's table, in each
reader's language, and follows the moves; the player page lists each game's
code and filters the games by a code or its start."""

from selenium.webdriver.common.by import By

from pages import start_guest_game

# 1. 炮二平五 马8进7 2. 马二进三 马2进3: the screen horses, C00.
SCREEN_HORSES = ["h2e2", "h9g7", "h0g2", "b9c7"]


def test_the_live_page_names_the_opening_and_the_player_page_filters_by_it(open_client):
    red, black = open_client(), open_client()
    # Black reads Chinese moves, so Chinese names; Red the coordinate default, English.
    black.open("/")
    black.wait_text("#me", lambda t: t.startswith("Guest-"))
    black.choose_notation("chinese")
    game = start_guest_game(red, black, color="red")
    for client in (red, black):
        assert not client.find("#opening").is_displayed(), "an opening before any move"

    red.move("h2e2")
    red.wait_text("#opening", lambda t: t == "B00 Central Cannon Opening")
    black.wait_text("#opening", lambda t: t == "B00 中炮局")

    for ply, iccs in enumerate(SCREEN_HORSES[1:], start=1):
        player = red if ply % 2 == 0 else black
        assert player.wait_my_turn()
        player.move(iccs)
        for client in (red, black):
            client.wait_last_move(iccs)
    red.wait_text("#opening", lambda t: t == "C00 Central Cannon vs Screen Horses")
    black.wait_text("#opening", lambda t: t == "C00 中炮对屏风马")
    # The explorer's table names the opening of the moves that led to it.
    red.wait_text("#explorer .xq-explorer-opening", lambda t: t == "C00 Central Cannon vs Screen Horses")
    black.wait_text("#explorer .xq-explorer-opening", lambda t: t == "C00 中炮对屏风马")
    red.shot("game-opening-red")
    black.shot("game-opening-black-chinese")

    # A reloaded page names it again from the state.
    black.driver.refresh()
    black.wait_game_page()
    black.wait_text("#opening", lambda t: t == "C00 中炮对屏风马")

    # The player page: the game with its code, and the filter.
    red_name = red.text("#me").split(" ")[0]
    red.open(f"/players/{red_name}")
    row = red.find(f"#player-games li[data-game='{game}']")
    assert row.find_element(By.CSS_SELECTOR, ".ecco").text == "C00"
    filter_box = red.find("#ecco-filter")
    filter_box.send_keys("b")
    red.click("#ecco-filter-form button[type='submit']")
    red.wait_text("#player-games", lambda t: "No games with an opening B" in t)
    assert "ecco=B" in red.driver.current_url
    filter_box.clear()
    filter_box.send_keys("c0")
    red.click("#ecco-filter-form button[type='submit']")
    red.wait_text("#ecco-filter-note", lambda t: t == "1 game with C0")
    red.find(f"#player-games li[data-game='{game}']")
    red.shot("player-page-ecco-filter")
    # The filter in the address is the page's on arrival.
    red.driver.refresh()
    red.wait_text("#ecco-filter-note", lambda t: t == "1 game with C0")
    assert red.find("#ecco-filter").get_attribute("value") == "C0"

    for client in (red, black):
        assert client.console_errors() == []
