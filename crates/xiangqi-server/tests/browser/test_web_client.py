"""The web client in a real browser: two people play a rated game to
checkmate by clicking the board, switch notations, and a guest plays the
engine to the end of a game."""

import random

from selenium.webdriver.common.by import By

# A helpmate from the start position, found by brute force with the Python
# module: Red's cannon takes the c6 soldier, Black blocks its own general's
# escape (f9e8) and gives the cannon a screen on c7, and the cannon takes the
# elephant on c9: check along the back rank, over the d9 advisor, with the
# general shut in by its own advisor on e8.
HELPMATE = ["b2c2", "f9e8", "c2c6", "b7c7", "c6c9"]


def rating_changes(client):
    changes = {}
    for line in client.driver.find_elements(By.CSS_SELECTOR, "#result .rating-change"):
        numbers = line.text.split(": ", 1)[1].split(" ")
        changes[line.get_attribute("data-side")] = (int(numbers[0]), int(numbers[2]))
    return changes


def test_two_players_play_to_checkmate_and_switch_notation(open_client, unique_name):
    red = open_client()
    black = open_client(width=412, height=915)  # a phone-sized window
    red_name, black_name = unique_name("red"), unique_name("black")
    red.register(red_name)
    black.register(black_name)
    red.shot("login-registered")

    red.create_seek(minutes=5, increment=3, rated=True, color="red")
    black.join_seek_of(red_name)
    black.shot("lobby")
    game = red.wait_game_page()
    assert black.wait_game_page() == game

    for ply, iccs in enumerate(HELPMATE):
        player = red if ply % 2 == 0 else black
        assert player.wait_my_turn(), f"ply {ply}: not {iccs}'s side to move"
        player.move(iccs)
        if ply == 3:
            red.shot("game-red-before-mate")

    for client in (red, black):
        text = client.wait_result()
        assert "1-0" in text and "checkmate" in text.lower(), text
        assert client.moves_text() == HELPMATE
    red.shot("game-red-checkmate")
    black.shot("game-black-phone-checkmate")

    for client in (red, black):
        client.wait().until(lambda d: len(rating_changes(client)) == 2, "no rating changes shown")
        changes = rating_changes(client)
        assert changes["red"][1] > changes["red"][0], changes
        assert changes["black"][1] < changes["black"][0], changes
    red_after = rating_changes(red)["red"][1]

    # The move list follows the notation setting.
    red.choose_notation("vietnamese")
    red.shot("settings-vietnamese")
    red.open(f"/games/{game}")
    red.wait().until(lambda d: len(red.moves_text()) == len(HELPMATE), "moves not shown")
    vietnamese = red.moves_text()
    assert vietnamese[0] == "Pháo 8 bình 7", vietnamese
    red.choose_notation("chinese")
    red.open(f"/games/{game}")
    red.wait().until(lambda d: len(red.moves_text()) == len(HELPMATE), "moves not shown")
    chinese = red.moves_text()
    assert chinese[0] == "炮八平七", chinese
    assert chinese != vietnamese
    red.shot("game-red-chinese")

    # The player's page shows the new rating and the game.
    red.open(f"/players/{red_name}")
    red.wait_text("#player-rating", lambda t: t == f"Rating {red_after}")
    red.find(f"#player-games li[data-game='{game}']")
    assert len(red.driver.find_elements(By.CSS_SELECTOR, "#history li a")) == 1
    red.shot("player-page")

    for client in (red, black):
        assert client.console_errors() == []


def test_guest_plays_the_engine_to_the_end(open_client):
    guest = open_client()
    guest.play_engine(level=20, minutes=1, color="red")
    guest.wait_game_page()
    rng = random.Random(31)
    for _ in range(150):
        if not guest.wait_my_turn(seconds=90):
            break
        played = False
        squares = guest.my_movable_squares()
        rng.shuffle(squares)
        for square in squares:
            before = guest.ply_count()
            guest.click(f"#board [data-square='{square}']")
            dests = guest.shown_dests()
            if dests:
                guest.click(f"#board [data-square='{rng.choice(dests)}']")
                guest.wait().until(lambda d: guest.ply_count() > before, "the move was not played")
                played = True
                break
        assert played, "no piece of ours has a legal move, yet the game goes on"
        if guest.ply_count() in (6, 7):
            guest.shot("game-engine")
    text = guest.wait_result()
    assert any(w in text.lower() for w in ("checkmate", "stalemate", "repetition", "perpetual", "material", "no capture", "time")), text
    guest.shot("game-engine-end")
    assert guest.console_errors() == []
