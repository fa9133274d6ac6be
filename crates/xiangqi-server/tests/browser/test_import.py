"""Importing games in a real browser: an account uploads one real file of
each format (PGN in Big5 and in GBK, WXF, XQF, CBF, CBR and a CCBridge
library of 35 games) and pastes a PGN, sees "N imported, M with errors"
for each, finds them in its library (filtered by a player's name, one
import, deleted), opens a game's review page and has the engine review it.
Then a Chinese reader at phone width does the same in few steps. The
screenshots (target/browser-screenshots/import-*.png, library-*.png) are
for a person to look at."""

import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "library"
SHARED = Path(__file__).resolve().parents[4].parent / "shared" / "testdata"
CBL = "corpus/games/1989年龙化杯象棋名师邀请赛35局.CBL"

# Each file with the games `xiangqi game check` reads from it.
FILES = [
    ("ccpd-00000520.pgn", 1),
    ("中炮对列炮黑先平士角炮.pgn", 1),
    ("ccpd-00000520.wxf", 1),
    ("030-黄松轩先胜冯敬如.XQF", 1),
    ("test.cbf", 1),
    ("test.cbr", 1),
]
SHORT_GAME = '[Red "Paste Red"]\n[Black "Paste Black"]\n[Event "Pasted"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n'


def shared(relative):
    path = SHARED / relative
    if path.exists():
        return path
    if os.environ.get("CI") == "true":
        pytest.fail(f"the reference data is missing at {path} (CI=true requires it)")
    pytest.skip(f"no reference data at {path}")


def upload(client, path, expected):
    client.open("/import")
    client.find("#import-file").send_keys(str(path))
    client.click("#import-upload")
    summary = client.find("#import-summary")
    client.wait().until(lambda d: d.find_element(By.CSS_SELECTOR, "#import-summary").get_attribute("data-imported") is not None)
    summary = client.find("#import-summary")
    assert summary.get_attribute("data-imported") == str(expected), f"{path.name}: {summary.text}"
    return summary


def paste(client, text):
    client.open("/import")
    client.find("#import-text").send_keys(text)
    client.click("#import-paste")
    return client.find("#import-summary")


def library_size(client):
    return int(client.wait_text("#library-size", lambda t: t[:1].isdigit()).split()[0])


def test_an_account_imports_every_format_and_reviews_a_game(open_client, unique_name):
    client = open_client()
    client.register(unique_name("importer"))
    assert client.find(".site-header nav a[href='/library']").text == "Library"
    total = 0
    for name, expected in FILES:
        summary = upload(client, FIXTURES / name, expected)
        assert summary.text.startswith(f"{expected} imported, 0 with errors."), summary.text
        total += expected
    assert "Read as PGN, text in Big5." in upload(client, FIXTURES / "ccpd-00000520.pgn", 1).text
    total += 1
    summary = upload(client, shared(CBL), 35)
    assert summary.text.startswith("35 imported, 0 with errors. Read as CBL"), summary.text
    assert "section heading" in client.text("#import-errors"), "the library's headings are named"
    client.shot("import-cbl-en")
    total += 35

    # A game that cannot be read (its FEN is cut) and one kept up to a move that cannot be read.
    summary = paste(client, '[FEN "rnbakabnr/9/x"]\n\n1. h2e2 *\n\n[Red "Cut"]\n\n1. h2e2 z9z9 *\n')
    assert summary.text.startswith("1 imported, 1 with errors."), summary.text
    errors = client.text("#import-errors").splitlines()
    assert errors[0].startswith("Game 1: line 1, column 1: FEN tag"), errors
    assert errors[1].startswith("Game 2 was imported up to a problem: ") and "z9z9" in errors[1], errors
    client.shot("import-error-en")
    total += 1
    summary = paste(client, SHORT_GAME)
    assert summary.text.startswith("1 imported, 0 with errors."), summary.text
    total += 1
    client.click("#import-report a[href^='/library?batch=']")
    client.wait_text("#library-batch", lambda t: t.startswith("Games of one import."))
    rows = client.driver.find_elements(By.CSS_SELECTOR, "#library-games li[data-game]")
    assert len(rows) == 1 and "Paste Red vs Paste Black" in rows[0].text

    client.click("#library-all")
    assert library_size(client) == total
    assert not client.find("#pager").is_displayed(), "one page: no pager"

    # Sixty more games (pasted through the page's text box), for pages.
    client.open("/import")
    many = "".join(f'[Red "Many {i}"]\n[Black "Other"]\n\n1. h2e2 h9g7 *\n\n' for i in range(1, 61))
    client.driver.execute_script("arguments[0].value = arguments[1];", client.find("#import-text"), many)
    client.click("#import-paste")
    client.wait_text("#import-summary", lambda t: t.startswith("60 imported, 0 with errors."))
    total += 60
    client.open("/library")
    assert library_size(client) == total
    client.wait_text("#page-note", lambda t: t == "Page 1 of 3")
    assert "Many 1 vs Other" in client.text("#library-games li[data-game]")
    client.shot("library-en")
    client.click("#page-next")
    client.wait_text("#page-note", lambda t: t == "Page 2 of 3")
    assert "page=2" in client.driver.current_url
    client.click("#page-previous")
    client.wait_text("#page-note", lambda t: t == "Page 1 of 3")
    client.find("#library-player").send_keys("楊官")
    client.click("#library-filter button[type='submit']")
    client.wait().until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#library-games li[data-game]")) == 3)  # PGN twice, WXF
    first = client.find("#library-games li[data-game]")
    assert "楊官麟 vs 李義庭" in first.text and "C84" in first.text, first.text

    # Delete one of them: the second click confirms.
    first.find_element(By.CSS_SELECTOR, ".delete").click()
    client.wait_text("#library-games li[data-game] .delete", lambda t: t == "Delete for good?")
    client.find("#library-games li[data-game] .delete").click()
    client.wait_text("#library-message", lambda t: t == "The game was deleted.")
    client.wait().until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#library-games li[data-game]")) == 2)
    client.click("#library-clear")
    client.wait().until(lambda d: library_size(client) == total - 1)

    # The pasted game's review page, then the engine's review of it.
    client.find("#library-player").send_keys("Paste")
    client.click("#library-filter button[type='submit']")
    client.wait().until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#library-games li[data-game]")) == 1)
    client.click("#library-games li[data-game] .who a")
    client.wait_text("#library-game-head", lambda t: t.startswith("Paste Red vs Paste Black"))
    client.find("#viewer[data-annotation='none']")
    client.click("#annotate")
    client.find("#viewer[data-annotation='done']")
    # The engine's evaluations: the viewer's curve, a point per move.
    client.find("#viewer .xq-curve-svg")
    assert len(client.driver.find_elements(By.CSS_SELECTOR, "#viewer .xq-curve-point")) >= 4
    assert client.text("#annotate") == "Annotate again"
    client.shot("library-review-en")
    assert client.console_errors() == []


def test_a_chinese_reader_imports_on_a_phone(open_client, unique_name):
    client = open_client(width=390, height=844, phone=True, languages="zh-CN,zh")
    client.register(unique_name("duqi"))
    summary = upload(client, FIXTURES / "030-黄松轩先胜冯敬如.XQF", 1)
    assert summary.text.startswith("已导入 1 局，0 局有错误。"), summary.text
    client.shot("import-phone-zh-Hans")
    client.open("/library")
    assert library_size(client) == 1
    assert client.text("#library h1") == "我的棋谱库"
    client.shot("library-phone-zh-Hans")
    client.click("#library-games li[data-game] .who a")
    client.wait_text("#library-game-head", lambda t: t.startswith("黄松轩"))
    client.find("#viewer[data-annotation='none']")
    client.driver.execute_script("window.scrollTo(0, 0)")
    client.shot("library-review-phone-zh-Hans")
    assert client.console_errors() == []


def test_a_guest_is_asked_to_sign_in(open_client):
    client = open_client(languages="vi-VN,vi")
    client.open("/import")
    client.wait_text("#library-account", lambda t: t.startswith("Thư viện ván cờ cần có tài khoản"))
    client.shot("import-guest-vi")
