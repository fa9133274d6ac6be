"""The analysis board in a real browser: a position set up by dragging pieces
from the palette onto the board and off it (the server says what is wrong
until it is a position), its FEN written out, a FEN pasted in, moves played
and taken back, and the engine's live lines with their arrows; in English
on a desktop and in simplified Chinese at a phone's width."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from pages import poll

MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
AFTER_TWO = "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
ENGINE_WAIT = 30


def square(client, name):
    return client.find(f"#board [data-square='{name}']")


def drag_from_palette(client, letter, target):
    source = client.find(f"#palette [data-palette='{letter}']")
    ActionChains(client.driver, duration=50).move_to_element(source).click_and_hold() \
        .move_by_offset(5, 5).move_to_element(square(client, target)).release().perform()
    client.wait().until(lambda d: client.piece_on(target) is not None, f"{letter} not put on {target}")


def drag_off_board(client, source):
    ActionChains(client.driver, duration=50).move_to_element(square(client, source)).click_and_hold() \
        .move_by_offset(5, 5).move_to_element(client.find("#analysis h1")).release().perform()
    client.wait().until(lambda d: client.piece_on(source) is None, f"the piece on {source} stayed")


def problems(client):
    return [e.get_attribute("data-problem") for e in client.driver.find_elements(By.CSS_SELECTOR, "#problems li")]


def fen_out(client):
    return client.find("#fen-out").get_attribute("value")


def arrows(client):
    """The arrows drawn, read at once (they are redrawn as the search deepens)."""
    return [tuple(a) for a in client.driver.execute_script(
        """return [...document.querySelectorAll('#board [data-arrow]')]
            .map((e) => [e.dataset.arrow, e.dataset.rank, e.getAttribute('class')]);""")]


def engine_lines(client, count):
    return poll(lambda: len(client.driver.find_elements(By.CSS_SELECTOR, "#lines .engine-line")) == count,
                ENGINE_WAIT, f"{count} engine lines never showed")


def test_a_position_set_up_by_dragging_is_analysed_with_lines_and_arrows(open_client):
    client = open_client()
    client.open("/analysis")
    client.wait_text("#position-status", lambda t: t == "This position is legal.")
    assert fen_out(client) == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    client.click("#clear-board")
    client.wait().until(lambda d: "missing_general" in problems(client), "an empty board is no position")
    drag_from_palette(client, "K", "e0")
    drag_from_palette(client, "k", "d9")
    # A red elephant can never reach e5: the server says so, in words.
    drag_from_palette(client, "B", "e5")
    client.wait().until(lambda d: problems(client) == ["unreachable_square"], "the elephant was accepted")
    assert client.text("#problems li") == "Red: Elephant can never stand on e5."
    assert client.find("#mode-play").get_attribute("disabled") is not None
    drag_off_board(client, "e5")
    drag_from_palette(client, "R", "a8")
    drag_from_palette(client, "R", "b0")
    client.wait_text("#position-status", lambda t: t == "This position is legal.")
    assert fen_out(client) == MATE_IN_ONE
    client.shot("analysis-setup-en")

    # A pasted FEN replaces the board.
    client.find("#fen-in").send_keys(AFTER_TWO)
    client.click("#load-fen")
    client.wait().until(lambda d: fen_out(client) == AFTER_TWO, "the pasted FEN was not loaded")
    assert client.piece_on("c7") == "black" and client.piece_on("e2") == "red"

    # Play: moves come from the server, the line reads in the notation set.
    client.click("#mode-play")
    # The board is redrawn when the server's answer comes: then it takes moves.
    client.wait_text("#position-status", lambda t: t == "Red to move")
    client.click("#board [data-square='h0']")
    client.find("#board [data-dest='g2']")
    client.click("#board [data-square='g2']")
    client.wait().until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#line-moves li[data-move]")) == 1, "h0g2 not played")
    client.wait_text("#position-status", lambda t: t == "Black to move")
    client.click("#back")
    client.wait_text("#position-status", lambda t: t == "Red to move")
    assert client.piece_on("h0") == "red"

    # The engine's lines, best first, and one arrow each, the best one strongest.
    client.click("#engine")
    engine_lines(client, 3)
    poll(lambda: len(arrows(client)) == 3, ENGINE_WAIT, "no arrows")
    best = [a for a in arrows(client) if a[1] == "1"]
    assert len(best) == 1 and "xq-arrow-best" in best[0][2], arrows(client)
    # The best arrow is the first line's move (both read in one go).
    best_arrow, first = client.driver.execute_script(
        """return [document.querySelector('#board .xq-arrow-best').dataset.arrow,
                   document.querySelector("#lines .engine-line[data-multipv='1']").dataset.move];""")
    assert best_arrow == first
    assert client.text("#engine-info").startswith("Depth ")
    client.shot("analysis-lines-en")
    client.click("#arrows")
    poll(lambda: not arrows(client), 5, "the arrows stayed after the toggle")
    client.click("#arrows")
    poll(lambda: len(arrows(client)) == 3, ENGINE_WAIT, "the arrows did not come back")
    # A click on a line plays its first move (read as it is clicked: the
    # lines change as the search deepens).
    first = client.driver.execute_script(
        """const line = document.querySelector("#lines .engine-line[data-multipv='1']");
        line.querySelector('.line-play').click();
        return line.dataset.move;""")
    client.wait().until(lambda d: [e.get_attribute("data-move") for e in d.find_elements(By.CSS_SELECTOR, "#line-moves li[data-move]")] == [first],
                        "the line's first move was not played")
    client.click("#engine")
    assert not client.console_errors()


def test_a_forced_mate_in_chinese_at_phone_width(open_client):
    client = open_client(width=390, height=844, phone=True, languages="zh-CN,zh")
    client.open(f"/analysis?fen={MATE_IN_ONE.replace(' ', '%20')}")
    client.wait_text("#position-status", lambda t: t == "红方走棋")
    client.click("#engine")
    poll(lambda: client.driver.find_elements(By.CSS_SELECTOR, "#lines .engine-line .score")
         and client.text("#lines .engine-line .score") == "#1", ENGINE_WAIT, "the mate was not found")
    # Both b0b9 and b0d0 mate at once; the arrow is the first line's move.
    mate = client.find("#lines .engine-line").get_attribute("data-move")
    assert mate in ("b0b9", "b0d0"), mate
    assert (mate, "1", "xq-arrow xq-arrow-best") in arrows(client)
    client.wait_text("#engine-info", lambda t: "已结束" in t)
    view = client.viewport()
    assert view["pageWidth"] <= view["width"], view
    client.driver.execute_script("document.querySelector('#engine-panel').scrollIntoView()")
    client.shot("analysis-mate-zh-phone")
    # Back to set-up: a click-chosen piece put on a point (no drag on a phone).
    client.click("#mode-edit")
    client.click("#palette [data-palette='p']")
    target = client.find("#board [data-square='e7']")
    client.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()
    client.wait().until(lambda d: client.piece_on("e7") == "black", "the soldier was not put on e7")
    client.wait().until(lambda d: problems(client) == ["unreachable_square"], "a black soldier on e7 was accepted")
    client.driver.execute_script("window.scrollTo(0, 0)")
    client.shot("analysis-setup-zh-phone")
    assert not client.console_errors()


def test_a_finished_games_review_opens_its_position_on_the_analysis_board(open_client):
    client = open_client()
    client.play_engine(0, 5, "red")
    client.wait_game_page()
    client.wait_my_turn()
    client.move("h2e2")
    client.wait().until(lambda d: client.ply_count() >= 2, "the engine did not answer")
    client.click("#resign")
    client.wait_text("#resign", lambda t: t == "Confirm resign")
    client.click("#resign")
    client.wait_result()
    client.driver.refresh()
    client.find("#viewer [data-fen]")
    final = client.wait().until(
        lambda d: (lambda fen: fen if fen and " b " not in fen else False)(
            d.find_element(By.CSS_SELECTOR, "#viewer [data-fen]").get_attribute("data-fen")),
        "the review did not open on the final position")
    client.click("#analyse")
    client.wait().until(lambda d: "/analysis?fen=" in d.current_url, "the analysis board did not open")
    client.wait_text("#position-status", lambda t: t == "Red to move")
    assert fen_out(client) == final
    assert client.find("#mode-edit").is_displayed()
    assert not client.console_errors()
