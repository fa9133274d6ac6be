"""The web client in a real browser: two people play a rated game to
checkmate on the board (by click on a desktop, by drag on a phone), switch
notations; a guest plays the engine to the end of a game; guests offer,
decline and accept draws and resign while a spectator watches."""

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


# What Red's b2 cannon may do in the start position: along its file up to the
# b7 cannon (and over it onto the b9 horse), one step down, and along the
# rank up to the h2 cannon (whose screen leaves i2 empty, so nothing to take).
B2_CANNON_DESTS = ["a2", "b1", "b3", "b4", "b5", "b6", "b9", "c2", "d2", "e2", "f2", "g2"]


def test_two_players_play_to_checkmate_and_switch_notation(open_client, unique_name):
    red = open_client()
    black = open_client(width=412, height=915, phone=True)
    red_name, black_name = unique_name("red"), unique_name("black")
    red.register(red_name)
    black.register(black_name)
    red.shot("login-registered")
    black.find("#seek-form")
    black.shot("lobby-phone")

    red.create_seek(minutes=5, increment=3, rated=True, color="red")
    red.find("#seeks li.own")
    red.shot("lobby-own-seek")
    black.join_seek_of(red_name)
    game = red.wait_game_page()
    assert black.wait_game_page() == game

    # Each side sits at the bottom of its own board.
    assert not red.board_flipped() and black.board_flipped()
    assert red.square_center("e0")[1] > red.square_center("e9")[1]
    assert black.square_center("e0")[1] < black.square_center("e9")[1]
    assert black.square_center("a0")[0] > black.square_center("i0")[0]

    # The phone shows the whole board across its width, with no sideways scrolling.
    view = black.viewport()
    assert view["width"] == 412 and view["pageWidth"] <= view["width"], view
    board = view["board"]
    assert board["left"] >= 0 and board["right"] <= view["width"] and board["width"] >= 0.9 * view["width"], view
    black.shot("game-black-phone-start")

    # A piece's legal destinations show when it is picked up; a click elsewhere puts it down.
    assert red.wait_my_turn()
    red.click("#board [data-square='b2']")
    assert sorted(red.shown_dests()) == B2_CANNON_DESTS
    red.shot("game-red-destinations")
    red.click("#board [data-square='e5']")
    assert red.shown_dests() == []
    # Out of turn a piece picked up is for a premove (docs/web.md): it may go
    # to any square but its own side's; a second click puts it down.
    black.click("#board [data-square='b7']")
    dests = black.shown_dests()
    assert len(dests) == 90 - 16 and "b9" not in dests and "b2" in dests, dests
    black.click("#board [data-square='b7']")
    assert black.shown_dests() == []

    for ply, iccs in enumerate(HELPMATE):
        player = red if ply % 2 == 0 else black
        assert player.wait_my_turn(), f"ply {ply}: not {iccs}'s side to move"
        if ply == 1:
            # A drop on a square the piece cannot reach puts it back, unplayed.
            black.drag_and_drop("f9", "f7", via="f8")
            assert black.ply_count() == 1 and black.piece_on("f9") == "black" and black.piece_on("f7") is None
        if ply == 2:
            def lifted():
                assert red.dragged_piece_shown(), "no piece follows the pointer"
                red.shot("game-red-dragging")

            red.drag(iccs, via="c4", while_dragging=lifted)
        elif player is red:
            red.move(iccs)
        else:
            black.drag(iccs)
        for client in (red, black):
            client.wait_last_move(iccs)
        if ply == 2:
            # A reloaded page picks the game up where it is.
            black.driver.refresh()
            black.wait_game_page()
            assert black.moves_text() == HELPMATE[:3] and black.board_flipped()
            black.wait_last_move(iccs)
        if ply == 3:
            red.shot("game-red-before-mate")

    for client in (red, black):
        text = client.wait_result()
        assert "1-0" in text and "checkmate" in text.lower(), text
        assert client.moves_text() == HELPMATE
    red.shot("game-red-checkmate")
    black.shot("game-black-phone-checkmate")

    # The result's PGN link downloads the game.
    pgn_url = red.find("#result a.pgn").get_attribute("href")
    pgn = red.driver.execute_script("return fetch(arguments[0]).then(r => r.text())", pgn_url)
    assert '[Result "1-0"]' in pgn and "c6c9" in pgn, pgn

    for client, side, name in ((red, "red", red_name), (black, "black", black_name)):
        client.wait().until(lambda d: len(rating_changes(client)) == 2, "no rating changes shown")
        changes = rating_changes(client)
        assert changes["red"][1] > changes["red"][0], changes
        assert changes["black"][1] < changes["black"][0], changes
        # The header shows the new rating without a reload.
        client.wait_text("#me", lambda t: t == f"{name} {changes[side][1]}")
    red_after = rating_changes(red)["red"][1]

    # The move list follows the notation setting.
    red.choose_notation("vietnamese")
    red.shot("settings-vietnamese")
    # A finished game's page is the viewer, in the player's notation.
    red.open(f"/games/{game}")
    red.wait().until(lambda d: len(red.viewer_moves_text()) == len(HELPMATE), "moves not shown")
    vietnamese = red.viewer_moves_text()
    assert vietnamese[0] == "Pháo 8 bình 7", vietnamese
    red.choose_notation("chinese")
    red.open(f"/games/{game}")
    red.wait().until(lambda d: len(red.viewer_moves_text()) == len(HELPMATE), "moves not shown")
    chinese = red.viewer_moves_text()
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
    guest.choose_notation("chinese")  # a guest has settings too
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


def test_guests_offer_draws_resign_and_a_spectator_follows(open_client):
    first, second, spectator = open_client(), open_client(), open_client()
    first.open("/")
    second.open("/")
    first_name = first.wait_text("#me", lambda t: t.startswith("Guest-"))

    # A casual game between guests, watched from the lobby.
    first.create_seek(minutes=3, increment=2, rated=False, color="random")
    second.join_seek_of(first_name)
    game = first.wait_game_page()
    assert second.wait_game_page() == game
    red, black = (second, first) if first.board_flipped() else (first, second)
    spectator.open("/")
    spectator.click(f"#games li[data-game='{game}'] a")
    assert spectator.wait_game_page() == game
    assert spectator.text("#status") == "Red to move" and not spectator.board_flipped()
    assert spectator.driver.find_elements(By.CSS_SELECTOR, "#resign, #offer-draw") == []
    spectator.click("#board [data-square='h2']")
    assert spectator.shown_dests() == []

    red.move("h2e2")
    spectator.wait_last_move("h2e2")

    # An offer the other side declines, then one it accepts.
    black.click("#offer-draw")
    red.find("#accept-draw")
    red.shot("game-draw-offered")
    red.click("#decline-draw")
    black.wait_text("#offer-draw", lambda t: t == "Offer draw")
    assert red.driver.find_elements(By.CSS_SELECTOR, "#accept-draw") == []
    black.move("h7e7")
    red.click("#offer-draw")
    black.click("#accept-draw")
    for client in (red, black, spectator):
        text = client.wait_result()
        assert "1/2-1/2" in text and "agreement" in text, text
    spectator.shot("game-spectator-draw")

    # A second game, lost by resignation (a second click confirms it).
    first.create_seek(minutes=3, increment=2, rated=False, color="red")
    second.join_seek_of(first_name)
    game = first.wait_game_page()
    assert second.wait_game_page() == game
    first.move("b0c2")
    second.move("b9c7")
    # Off its page a player counts as away; the lobby leads back to the game.
    # (A full navigation: Chromium keeps the game's page in its back/forward
    # cache, which test_leaving.py is about.)
    first.open("/")
    second.find(".player-bar.top .away")
    back = first.find(f"#games li.own[data-game='{game}'] a")
    assert back.text == "Back to your game"
    back.click()
    assert first.wait_game_page() == game
    second.wait().until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".away"), "still shown away")
    first.click("#resign")
    first.wait_text("#resign", lambda t: t == "Confirm resign")
    assert first.text("#status") == "Your move" and second.text("#status") == "Waiting for Red"
    first.click("#resign")
    for client in (first, second):
        text = client.wait_result()
        assert "0-1" in text and "resigned" in text, text
        assert client.driver.find_elements(By.CSS_SELECTOR, "#result .rating-change") == []

    for client in (first, second, spectator):
        assert client.console_errors() == []
