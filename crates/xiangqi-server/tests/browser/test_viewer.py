"""The game viewer in a real browser: a page written by `xiangqi game view`
(opened from disk, as a double-click does) is clicked through along its main
line and into a variation, with the board's position checked at each step
against the library; its keys, flip, notation switch, evaluation curve,
engine line, accuracy, copy buttons and game list; a page with an opening
explorer's table beside the board, checked against `xiangqi explore query`;
and the server's page of a finished game, with the server's explorer,
annotated by the engine from its button."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[4]

# Main line with evaluations, a mistake (a9a8 ?) with the engine's better line
# (its first move carries an [%eval], as the annotator writes it), a side
# line with a comment, and a second game for the game list.
GAMES = """[Event "Club match"]
[Date "2026.11.30"]
[Red "Li"]
[Black "Wang"]
[Result "1-0"]
[RedAccuracy "88.4"]
[BlackAccuracy "61.2"]

{A short game with a mistake} 1. h2e2 {[%eval 0.30,12] The central cannon} h9g7 {[%eval 0.28,12]}
2. h0g2 {[%eval 0.31,12]} i9h9 {[%eval 0.35,12]} ({The other defence} 2... b9c7 3. i0h0 $1)
3. i0h0 {[%eval 0.30,12]} a9a8 $2 {[%eval 1.40,12]} (3... h7h3 {[%eval 0.25,12]} 4. b0c2)
4. b0c2 {[%eval 1.35,12]} a8d8 {[%eval 1.50,12]} 5. e2e6 $1 {[%eval 2.10,12]} 1-0

[Event "Second game"]
[Red "Zhao"]
[Black "Chen"]

1. c3c4 g6g5 2. b0c2 b9c7 1/2-1/2
"""
MAINLINE = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "a9a8", "b0c2", "a8d8", "e2e6"]
SIDE_LINE = ["h2e2", "h9g7", "h0g2", "b9c7", "i0h0"]

# The board draws characters; these are the FEN letters they stand for.
LETTERS = {"帥": "K", "仕": "A", "相": "B", "傌": "N", "俥": "R", "炮": "C", "兵": "P",
           "將": "k", "士": "a", "象": "b", "馬": "n", "車": "r", "砲": "c", "卒": "p"}


# The games the server's explorer is built from (`cargo xtask test`), which
# the file test builds its own explorer from too.
EXPLORER_GAMES = ROOT / "crates" / "xiangqi-server" / "tests" / "browser" / "fixtures" / "openings.pgn"


def binary():
    return os.environ.get("XQ_XIANGQI", str(ROOT / "target" / "debug" / "xiangqi"))


def explorer_query(database, fen, notation="iccs"):
    """The library's answer for `fen`: [(move, text, games, score)], most played first."""
    out = subprocess.run([binary(), "explore", "query", str(database), "--fen", fen, "--notation", notation, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return [(m["move"], m["text"], m["games"], m["score"]) for m in json.loads(out)["moves"]]


def explorer_rows(driver, root):
    """The explorer table the page shows: [(move, text, games, score text)]."""
    return driver.execute_script(
        """return [...document.querySelectorAll(arguments[0] + ' .xq-explorer-table tbody tr')]
            .map(r => [r.dataset.move, r.querySelector('.mv').textContent,
                       Number(r.querySelector('.games').textContent), r.querySelector('.score').textContent]);""",
        root)


def assert_table(driver, root, database, fen, notation="iccs"):
    """Waits for the table of `fen`, then checks it row by row against the library."""
    expected = explorer_query(database, fen, notation)
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f"{root} .xq-explorer").get_attribute("data-fen") == fen
        and len(explorer_rows(d, root)) == len(expected),
        f"the explorer table of {fen} never showed")
    shown = explorer_rows(driver, root)
    assert [(m, g) for m, _, g, _ in shown] == [(m, g) for m, _, g, _ in expected], (shown, expected)
    assert [t for _, t, _, _ in shown] == [t for _, t, _, _ in expected]
    assert [s for _, _, _, s in shown] == ["–" if s is None else f"{s:.1f}%" for _, _, _, s in expected]
    return shown


@pytest.fixture
def page_file(tmp_path):
    source = tmp_path / "games.pgn"
    source.write_text(GAMES, encoding="utf-8")
    page = tmp_path / "games.html"
    subprocess.run([binary(), "game", "view", str(source), "-o", str(page)], check=True, capture_output=True)
    return page


def library_fens(moves):
    """The FEN after each prefix of `moves`, from the Python module (the same
    rules library the page's data came from), or None where it is not installed."""
    try:
        import xiangqi
    except ImportError:
        return None
    board = xiangqi.Board()
    fens = [board.fen()]
    for move in moves:
        board.push_iccs(move)
        fens.append(board.fen())
    return fens


def board_placement(driver, root="#xq-viewer"):
    """The placement field of the FEN the board draws, read from its pieces."""
    pieces = driver.execute_script(
        """return [...document.querySelectorAll(arguments[0] + ' .xq-pieces .xq-piece')]
            .map(p => [p.dataset.piece, p.querySelector('.xq-char').textContent]);""", root)
    board = {square: LETTERS[char] for square, char in pieces}
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in "abcdefghi":
            letter = board.get(f"{file}{rank}")
            if letter is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


class Viewer:
    def __init__(self, client, root="#xq-viewer"):
        self.client = client
        self.driver = client.driver
        self.root = root

    def data(self, name):
        return self.driver.find_element(By.CSS_SELECTOR, self.root).get_attribute(f"data-{name}")

    def fen(self):
        """The shown position's FEN, after checking the board draws it."""
        fen = self.data("fen")
        assert board_placement(self.driver, self.root) == fen.split(" ")[0], fen
        return fen

    def key(self, key):
        self.driver.find_element(By.CSS_SELECTOR, "body").send_keys(key)

    def click_move(self, text, within=""):
        for move in self.driver.find_elements(By.CSS_SELECTOR, f"{self.root} {within} .xq-move"):
            if move.find_element(By.CSS_SELECTOR, ".xq-san").text == text:
                move.click()
                return
        raise AssertionError(f"no move {text} in the list")


def test_a_generated_page_is_clicked_through(open_client, page_file):
    client = open_client(width=1300, height=1000)
    client.driver.get(page_file.as_uri())
    client.find("#xq-viewer[data-fen]")
    viewer = Viewer(client)
    accuracy = client.text("#xq-viewer .xq-accuracy")
    assert "Red 88.4" in accuracy and "Black 61.2" in accuracy, accuracy
    lib = library_fens(MAINLINE)
    fens = [viewer.fen()]
    assert fens[0].startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")

    # The main line, one key press at a time.
    for _ in MAINLINE:
        viewer.key(Keys.ARROW_RIGHT)
        fens.append(viewer.fen())
    assert len(set(fens)) == len(MAINLINE) + 1
    if lib is not None:
        assert fens == lib
    viewer.key(Keys.ARROW_RIGHT)  # the end: nothing further
    assert viewer.fen() == fens[-1]
    viewer.key(Keys.HOME)
    assert viewer.fen() == fens[0]
    viewer.key(Keys.END)
    assert viewer.fen() == fens[-1]
    viewer.key(Keys.ARROW_LEFT)
    assert viewer.fen() == fens[-2]

    # Into the side line by a click, then on along it.
    viewer.click_move("b9c7", ".xq-variation")
    side = [viewer.fen()]
    viewer.key(Keys.ARROW_RIGHT)
    side.append(viewer.fen())
    side_lib = library_fens(SIDE_LINE)
    if side_lib is not None:
        assert side == side_lib[-2:]
    assert side[0] not in fens and side[1] not in fens
    client.shot("viewer-variation")

    # The mistake shows the engine's better line; a click plays into it.
    viewer.click_move("a9a8")
    better = client.find("#xq-viewer .xq-better")
    assert "h7h3" in better.text and "b0c2" in better.text, better.text
    client.click("#xq-viewer .xq-better-move")
    assert viewer.data("fen") != fens[6]
    assert client.find("#xq-viewer .xq-move.current").text.endswith("h7h3")

    # The evaluation curve: a click jumps to the move under it.
    svg = client.find("#xq-viewer .xq-curve-svg")
    box = svg.rect
    for ply in (3, 7):
        x = box["width"] * ply / len(MAINLINE) - box["width"] / 2
        ActionChains(client.driver).move_to_element_with_offset(svg, int(x), 0).click().perform()
        assert viewer.fen() == fens[ply]
        point = client.find("#xq-viewer .xq-curve-point.current")
        assert point.get_attribute("data-node") == viewer.data("node")

    # Flip, notation, copy.
    before = client.driver.execute_script(
        "return document.querySelector(\"#xq-viewer [data-square='e0']\").getBoundingClientRect().y")
    client.click("#xq-viewer .xq-flip")
    assert viewer.data("orientation") == "black"
    after = client.driver.execute_script(
        "return document.querySelector(\"#xq-viewer [data-square='e0']\").getBoundingClientRect().y")
    assert after < before
    viewer.key("f")
    assert viewer.data("orientation") == "red"
    client.driver.execute_script(
        "const s = document.querySelector('#xq-viewer .xq-notation'); s.value = 'chinese'; s.dispatchEvent(new Event('change'));")
    assert client.find("#xq-viewer .xq-move[data-node='1'] .xq-san").text == "炮二平五"
    client.click("#xq-viewer .xq-copy-fen")
    assert viewer.data("copied") == viewer.data("fen")
    client.click("#xq-viewer .xq-copy-pgn")
    assert "1. h2e2" in viewer.data("copied") and "a9a8" in viewer.data("copied")
    viewer.key(Keys.HOME)
    for _ in range(6):
        viewer.key(Keys.ARROW_RIGHT)
    client.shot("viewer-file")

    # The game list.
    games = client.driver.find_elements(By.CSS_SELECTOR, "#xq-viewer .xq-game")
    assert len(games) == 2
    games[1].click()
    assert client.text("#xq-viewer .xq-title") == "Zhao vs Chen (Second game)"
    assert viewer.fen().startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
    assert not client.find("#xq-viewer .xq-curve").is_displayed()
    assert not client.find("#xq-viewer .xq-accuracy").is_displayed()
    assert client.console_errors() == []


def test_a_page_with_an_explorer_shows_its_table_beside_the_board(open_client, tmp_path):
    database = tmp_path / "openings.db"
    subprocess.run([binary(), "explore", "build", "--jobs", "1", "-o", str(database), str(EXPLORER_GAMES)],
                   check=True, capture_output=True)
    source = tmp_path / "games.pgn"
    source.write_text(GAMES, encoding="utf-8")
    page = tmp_path / "explorer.html"
    subprocess.run([binary(), "game", "view", str(source), "--game", "1", "--explorer", str(database), "-o", str(page)],
                   check=True, capture_output=True)
    client = open_client(width=1500, height=1000)
    client.driver.get(page.as_uri())
    client.find("#xq-viewer[data-fen]")
    viewer = Viewer(client)
    root = "#xq-viewer"

    # The start: every move the corpus played, the game's own marked.
    start = assert_table(client.driver, root, database, viewer.fen())
    assert start[0][0] == "h2e2" and start[0][2] == 4
    played = client.driver.find_elements(By.CSS_SELECTOR, f"{root} .xq-explorer-table tr.played")
    assert [r.get_attribute("data-move") for r in played] == ["h2e2"]

    # One move on, the table follows; a click on a row the game plays goes there.
    viewer.key(Keys.ARROW_RIGHT)
    after = assert_table(client.driver, root, database, viewer.fen())
    assert {m for m, _, _, _ in after} == {"h9g7", "b9c7", "h7e7"}
    client.driver.find_element(By.CSS_SELECTOR, f"{root} .xq-explorer-table tr[data-move='h9g7']").click()
    assert viewer.data("node") == "2"
    fen = viewer.fen()

    # The table speaks the reader's notation.
    client.driver.execute_script(
        "const s = document.querySelector('#xq-viewer .xq-notation'); s.value = 'chinese'; s.dispatchEvent(new Event('change'));")
    assert_table(client.driver, root, database, fen, notation="chinese")
    client.shot("viewer-explorer")

    # Past the corpus' games the table says so.
    viewer.key(Keys.END)
    client.wait_text(f"{root} .xq-explorer", lambda t: "No game of the corpus reaches this position" in t)
    assert client.console_errors() == []


def test_the_server_shows_a_finished_game_in_the_viewer_and_annotates_it(open_client):
    guest = open_client(width=1300, height=1000)
    guest.play_engine(level=1, minutes=5, color="red")
    game = guest.wait_game_page()
    database = os.environ.get("XQ_EXPLORER_DB")
    start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    if database:
        # The live game's page shows the server's explorer beside the board.
        assert_table(guest.driver, "#app", database, start_fen)
    for move in ["h2e2", "b0c2"]:
        guest.wait_my_turn()
        guest.move(move)
    guest.wait_my_turn()
    guest.click("#resign")
    guest.wait_text("#resign", lambda t: t == "Confirm resign")
    guest.click("#resign")
    guest.wait_result()
    guest.click("#review-link")
    guest.find("#viewer[data-fen]")
    viewer = Viewer(guest, "#viewer")
    moves = guest.driver.find_elements(By.CSS_SELECTOR, "#viewer .xq-move")
    assert len(moves) == 4, [m.text for m in moves]
    # The review opens on the final position, the last move marked.
    final = viewer.fen()
    assert viewer.data("node") == "4"
    assert guest.find("#viewer .xq-move.current").get_attribute("data-node") == "4"
    viewer.key(Keys.HOME)
    fens = [viewer.fen()]
    for _ in range(4):
        viewer.key(Keys.ARROW_RIGHT)
        fens.append(viewer.fen())
    assert len(set(fens)) == 5
    assert fens[4] == final
    assert not guest.find("#viewer .xq-curve").is_displayed()
    if database:
        # The finished game's viewer has the server's explorer beside the board.
        viewer.key(Keys.HOME)
        assert_table(guest.driver, "#viewer", database, start_fen)
        viewer.key(Keys.ARROW_RIGHT)
        assert_table(guest.driver, "#viewer", database, fens[1])
        guest.shot("viewer-server-explorer")

    # The engine annotates in the background; the page follows.
    guest.click("#annotate")
    guest.wait(120).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#viewer").get_attribute("data-annotation") == "done",
        "the annotation did not finish")
    curve = guest.find("#viewer .xq-curve-svg")
    assert curve.is_displayed()
    assert len(guest.driver.find_elements(By.CSS_SELECTOR, "#viewer .xq-curve-point")) == 4
    guest.driver.find_elements(By.CSS_SELECTOR, "#viewer .xq-curve-point")[1].click()
    assert viewer.fen() == fens[2]
    guest.shot("viewer-server-annotated")

    # The page of the game opened afresh is the viewer too, annotated.
    guest.open(f"/games/{game}")
    guest.find("#viewer .xq-curve-svg")
    assert guest.console_errors() == []
