"""The web client in each of its languages: the first visit follows the
browser's languages; then the language is a setting. One game in each
language, from the settings page to checkmate, with the result sentence and
the page's words checked against that language's catalogue, the "How to
play" page in each language, and the pictogram piece set. Screenshots of
each (target/browser-screenshots/lang-*.png) are for a person to look at:
overflowing text, missing glyphs, words left in English."""

import json
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_web_client import HELPMATE

LOCALES = Path(__file__).resolve().parents[2] / "web" / "locales"
LANGUAGES = ["en", "zh-Hans", "zh-Hant", "vi", "sk", "cs", "tl"]
# Words of a finished game's page and of the header: each must be in the
# page's language, and its English must be gone (where the two differ).
PAGE_KEYS = ["nav.play", "nav.how_to_play", "nav.settings", "game.over", "game.moves", "game.flip",
             "game.download_pgn", "game.review"]


def catalogue(language):
    return json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))


def words(messages, key, **args):
    """The client's t(): English as the fallback, {name} filled from args."""
    text = messages.get(key, catalogue("en")[key])
    return re.sub(r"\{(\w+)\}", lambda m: str(args.get(m.group(1), m.group(0))), text)


def body_text(client):
    return client.driver.execute_script("return document.body.innerText")


def script_errors(client):
    """The page's script errors (a missing explorer's 404 is no error of the page)."""
    return [e for e in client.console_errors() if e.get("source") == "javascript"]


def choose_language(client, language):
    """Picks the language in the settings page's list and waits for the page to follow."""
    client.open("/settings")
    client.find("#language-select")
    client.driver.execute_script(
        "const s = document.getElementById('language-select'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));",
        language)
    client.wait().until(lambda d: d.execute_script("return document.documentElement.lang") == language,
                        f"the page never switched to {language}")
    title = words(catalogue(language), "settings.title")
    client.wait_text(".panel h1", lambda t: t == title)


def test_the_first_visit_follows_the_browsers_languages(open_client):
    czech = open_client(languages="cs-CZ,cs,en")
    czech.open("/")
    messages = catalogue("cs")
    czech.find("#seek-form")
    czech.wait().until(lambda d: d.execute_script("return document.documentElement.lang") == "cs")
    assert words(messages, "lobby.create_game") in body_text(czech)
    czech.shot("lang-first-visit-cs")
    # Traditional Chinese from a Taiwanese browser, without a Chinese catalogue of that exact tag.
    taiwan = open_client(languages="zh-TW,en")
    taiwan.open("/")
    taiwan.wait().until(lambda d: d.execute_script("return document.documentElement.lang") == "zh-Hant")
    assert words(catalogue("zh-Hant"), "lobby.play_computer") in body_text(taiwan)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_in_each_language(open_client, unique_name, language):
    messages = catalogue(language)
    red = open_client()
    black = open_client()
    red_name, black_name = unique_name("red"), unique_name("black")
    red.register(red_name)
    black.register(black_name)
    for client in (red, black):
        choose_language(client, language)
    red.shot(f"lang-{language}-settings")
    # The choice is kept with the player: a new page load keeps it.
    red.open("/")
    red.wait().until(lambda d: d.execute_script("return document.documentElement.lang") == language)
    rules = red.find("#seek-rules")
    names = [o.text for o in rules.find_elements(By.TAG_NAME, "option")]
    assert names == [words(messages, k) for k in ["rules.online", "rules.asian", "rules.pikafish", "rules.fairy", "rules.plain"]]
    assert [o.get_attribute("value") for o in rules.find_elements(By.TAG_NAME, "option")] == \
        ["online", "asian", "pikafish", "fairy", "plain"]

    red.create_seek(minutes=5, increment=3, rated=False, color="red")
    red.find("#seeks li.own")
    red.shot(f"lang-{language}-lobby")
    black.join_seek_of(red_name)
    red.wait().until(lambda d: "/games/" in d.current_url)
    black.wait().until(lambda d: "/games/" in d.current_url)
    your_move = words(messages, "game.your_move")
    for ply, move in enumerate(HELPMATE):
        player = red if ply % 2 == 0 else black
        player.wait_text("#status", lambda t: t == your_move)
        player.move(move)
    result = red.wait_result()
    sentence = words(messages, "result.checkmate", winner=words(messages, "color.red"))
    expected = words(messages, "result.with_move", sentence=sentence, move="c6c9")
    assert expected in result, result
    black.wait_result()
    assert black.text("#result .result-text") == expected
    assert red.text("#status") == words(messages, "game.over")
    page = body_text(red)
    for key in PAGE_KEYS:
        # (Headings may be drawn in capitals.)
        assert words(messages, key).casefold() in page.casefold(), (key, page)
        english = catalogue("en")[key]
        if language != "en" and english.casefold() != messages[key].casefold():
            assert not re.search(rf"\b{re.escape(english)}\b", page, re.IGNORECASE), (key, page)
    red.shot(f"lang-{language}-game-red")
    black.shot(f"lang-{language}-game-black")
    assert not script_errors(red)

    # The finished game in the viewer: its buttons in the same language.
    red.click("#review-link")
    red.wait_text("#viewer .xq-copy-fen", lambda t: t == words(messages, "viewer.copy_fen"))
    assert red.find("#viewer .xq-next").get_attribute("title") == words(messages, "viewer.next")
    assert red.text("#annotate") == words(messages, "review.annotate")
    first = red.find("#viewer .xq-notation option[value='coordinate']")
    assert first.text == words(messages, "viewer.coordinates")
    red.shot(f"lang-{language}-review")
    assert not script_errors(red)


@pytest.mark.parametrize("language", LANGUAGES)
def test_how_to_play_in_each_language(open_client, language):
    messages = catalogue(language)
    reader = open_client(height=2600)
    choose_language(reader, language)
    # Half the languages see the pictograms, the other half the characters.
    pictograms = LANGUAGES.index(language) % 2 == 1
    if pictograms:
        reader.click("#pieces-pictogram")
        reader.wait_text("#settings-message", lambda t: t == words(messages, "settings.saved"))
    reader.open("/how-to-play")
    reader.wait_text("#howto h1", lambda t: t == words(messages, "howto.title"))
    page = body_text(reader)
    for key in ["howto.piece_c", "howto.end_stalemate", "howto.online_away", "howto.online_perpetual", "howto.rules_fairy"]:
        assert words(messages, key) in page, key
    diagrams = reader.driver.find_elements(By.CSS_SELECTOR, "#howto .howto-diagram")
    assert len(diagrams) == 7
    # The cannon's diagram: its moves and its one capture, over the screen.
    cannon = reader.find("#howto .howto-diagram[data-piece='C']")
    dests = sorted(e.get_attribute("data-dest") for e in cannon.find_elements(By.CSS_SELECTOR, "[data-dest]"))
    assert "b8" in dests and "b6" not in dests and "b7" not in dests, dests
    symbols = reader.driver.find_elements(By.CSS_SELECTOR, "#howto .xq-pictogram")
    chars = reader.driver.find_elements(By.CSS_SELECTOR, "#howto .xq-char")
    assert (len(symbols) > 0, len(chars) > 0) == (pictograms, not pictograms)
    reader.shot(f"lang-{language}-howto")
    assert not script_errors(reader)
