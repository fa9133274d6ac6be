"""This session's pages in every language, at phone width: the analysis
board, import, the library, the lobby's bots panel and the API tokens of the
settings page. Each page's heading must be its catalogue's words (not
English), with no script error; the screenshots
(target/browser-screenshots/pages-LANG-PAGE.png) are for a person to look
at: text that overflows or is cut, glyphs missing, words left in English."""

import pytest

from test_languages import LANGUAGES, catalogue, choose_language, script_errors, words

# Each page: its path, the heading that shows it is drawn, its catalogue key.
PAGES = [
    ("analysis", "/analysis", "h1", "analysis.title"),
    ("import", "/import", "h1", "import.title"),
    ("library", "/library", "h1", "library.title"),
    ("bots", "/", "#bots-panel h2", "bots.title"),
    ("tokens", "/settings", "h2", "tokens.title"),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_pages_in_each_language(open_client, unique_name, language):
    messages = catalogue(language)
    client = open_client(width=390, height=844, phone=True)
    client.register(unique_name(language.replace("-", "")[:6]))
    choose_language(client, language)
    for name, path, heading, key in PAGES:
        expected = words(messages, key)
        client.open(path)
        client.wait().until(
            lambda d: any(e.text.strip() == expected for e in d.find_elements("css selector", heading)),
            f"{path} in {language}: no {heading} reading {expected!r}")
        if language != "en" and expected != catalogue("en")[key]:
            page = client.driver.execute_script("return document.body.innerText")
            assert catalogue("en")[key] not in page, f"{path} in {language} still says {catalogue('en')[key]!r}"
        # The page fits the phone's width: nothing wider than the viewport.
        overflow = client.driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{path} in {language} is {overflow} px wider than the phone"
        client.shot(f"pages-{language}-{name}")
        assert script_errors(client) == [], f"{path} in {language}"
