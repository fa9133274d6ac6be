"""The puzzle page in a real browser: an account solves a puzzle (the
opponent's replies come from the server, the rating moves) and a guest
fails one with a wrong move (the solution is then played on the board).
The test knows the answers from the built-in set the server was started
with; the page itself never receives them before the end."""

import json
import time
from pathlib import Path

from selenium.webdriver.common.by import By

BUILT_IN = Path(__file__).resolve().parents[2] / "puzzles" / "default.jsonl"


def solutions():
    lines = BUILT_IN.read_text(encoding="utf-8").splitlines()
    return {p["id"]: p["solution"] for p in map(json.loads, filter(str.strip, lines))}


def served_puzzle(client):
    client.find("#puzzle-about")
    client.wait().until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-about").get_attribute("data-puzzle"),
        "no puzzle was served",
    )
    return client.find("#puzzle-about").get_attribute("data-puzzle")


def click_move(client, iccs):
    client.click(f"#board [data-square='{iccs[:2]}']")
    client.find(f"#board [data-dest='{iccs[2:]}']")
    client.click(f"#board [data-square='{iccs[2:]}']")


def test_an_account_solves_a_puzzle_and_its_rating_moves(open_client, unique_name):
    client = open_client()
    client.register(unique_name("solver"))
    client.open("/puzzles")
    puzzle = served_puzzle(client)
    solution = solutions()[puzzle]
    page = client.driver.page_source
    assert " ".join(solution) not in page, "the solution reached the page before it was earned"
    client.wait_text("#puzzle-rating", lambda t: t.startswith("Puzzle rating: 1500"))
    client.wait_text("#puzzle-about", lambda t: t.startswith("Puzzle rated ") and t.endswith("."))
    for i in range(0, len(solution), 2):
        click_move(client, solution[i])
        if i + 1 < len(solution):
            reply = solution[i + 1]
            client.wait_text("#puzzle-status", lambda t: t == "Right! Keep going.")
            # The reply is on the board once its origin is marked as the last move.
            client.find(f"#board [data-last='{reply[:2]}']")
    client.wait_text("#puzzle-status", lambda t: t == "Solved!")
    notice = client.wait_text("#puzzle-message", lambda t: t.startswith("Well done. Rating 1500 → "))
    after = int(notice.rsplit("→ ", 1)[1].rstrip("."))
    assert after > 1500, notice
    client.wait_text("#puzzle-rating", lambda t: t.startswith(f"Puzzle rating: {after}"))
    client.wait_text("#puzzle-streak", lambda t: t.startswith("Streak: 1"))
    assert client.text("#puzzle-solution") == "Solution: " + " ".join(solution)
    client.shot("puzzle-solved")
    assert client.console_errors() == []


def test_a_guest_fails_a_puzzle_and_sees_the_solution(open_client):
    client = open_client()
    client.open("/puzzles")
    puzzle = served_puzzle(client)
    solution = solutions()[puzzle]
    client.find("#puzzle-guest")
    # A legal move of the solution's piece that is not the solution's.
    client.click(f"#board [data-square='{solution[0][:2]}']")
    client.find("#board [data-dest]")
    dests = [e.get_attribute("data-dest") for e in client.driver.find_elements(By.CSS_SELECTOR, "#board [data-dest]")]
    wrong = [d for d in dests if d != solution[0][2:]]
    if wrong:
        client.click(f"#board [data-square='{wrong[0]}']")
    else:
        # The piece has one move only: another piece's move then.
        client.click(f"#board [data-square='{solution[0][:2]}']")
        client.driver.execute_script(
            "document.querySelector('#puzzle-show').scrollIntoView()")
        client.click("#puzzle-show")
    client.wait_text("#puzzle-status", lambda t: t in ("Not the move.", "Solution shown."))
    client.wait_text("#puzzle-solution", lambda t: t == "Solution: " + " ".join(solution))
    client.wait_text("#puzzle-streak", lambda t: t.startswith("Streak: 0"))
    # The solution is played on the board from where the puzzle stood.
    time.sleep(0.7 * len(solution) + 0.5)
    last = solution[-1]
    client.find(f"#board [data-last='{last[2:]}']")
    client.shot("puzzle-failed")
    # The next puzzle is served on request.
    client.click("#puzzle-next")
    client.wait().until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-about").get_attribute("data-puzzle") != puzzle,
        "no next puzzle",
    )
    assert client.console_errors() == []
