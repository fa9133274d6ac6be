"""Abort in a real browser: before both sides have moved the game page
offers "Abort", which cancels the game for both players without a rating
change; once both have moved the button is gone."""

from selenium.webdriver.common.by import By


def test_a_game_is_aborted_before_both_sides_moved(open_client, unique_name):
    red, black = open_client(), open_client()
    red_name = unique_name("ab_red")
    red.register(red_name)
    black.register(unique_name("ab_black"))

    # A rated game: Red moves, Black aborts before its first move.
    red.create_seek(minutes=3, increment=2, rated=True, color="red")
    black.join_seek_of(red_name)
    game = red.wait_game_page()
    assert black.wait_game_page() == game
    red.find("#abort")
    red.move("h2e2")
    black.click("#abort")
    for client in (red, black):
        text = client.wait_result()
        assert "aborted" in text and "not rated" in text, text
        assert client.driver.find_elements(By.CSS_SELECTOR, "#result .rating-change") == []
        assert client.driver.find_elements(By.CSS_SELECTOR, "#abort") == []

    # Once both sides have moved, there is nothing to abort.
    red.create_seek(minutes=3, increment=2, rated=False, color="red")
    black.join_seek_of(red_name)
    game = red.wait_game_page()
    assert black.wait_game_page() == game
    red.move("h2e2")
    black.move("h9g7")
    for client in (red, black):
        client.wait().until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#abort"), "Abort still shown")
        client.find("#resign")

    for client in (red, black):
        assert client.console_errors() == []
