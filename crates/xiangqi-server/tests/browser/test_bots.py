"""A person plays a bot from the lobby, in a real browser: the bot (an HTTP
client of the bot API, http_bot.py) shows among the bots online with its
badge, the person challenges it (time control, rated, colour), the bot
accepts and the game page opens, the moves go both ways, and the bot's
resignation ends it. Then the account page's API tokens, and the lobby at
phone width in Czech. Screenshots of each."""

from http_bot import HttpBot


def test_a_person_challenges_and_plays_a_bot(open_client, server_url, unique_name):
    bot = HttpBot(server_url, unique_name("bot"), ["h9g7"])
    person = open_client()
    person.register(unique_name("ana"))
    person.open("/")
    row = f"#bots li[data-bot='{bot.name}']"
    person.find(row)
    assert "BOT" in person.text(row)
    person.shot("bots-lobby")
    person.click(f"{row} button[data-challenge]")
    person.find("#bot-form")
    person.find("#bot-base").clear()
    person.find("#bot-base").send_keys("3")
    person.find("#bot-color option[value='red']").click()
    person.shot("bots-challenge-form")
    person.click("#bot-send")
    game = person.wait_game_page()
    assert game
    assert "BOT" in person.text("#app")
    person.wait_my_turn()
    person.move("h2e2")
    person.wait_last_move("h9g7")
    person.shot("bots-game")
    person.move("h0g2")
    result = person.wait_result()
    assert result
    person.shot("bots-game-over")
    assert person.console_errors() == []


def test_api_tokens_on_the_account_page_and_the_bots_panel_in_czech(open_client, server_url, unique_name):
    person = open_client()
    person.register(unique_name("tok"))
    person.open("/settings")
    person.find("#token-description").send_keys("my engine")
    person.click("#token-submit")
    secret = person.wait_text("#token-secret", lambda t: t.startswith("xqb_"))
    person.wait_text("#tokens", lambda t: "my engine" in t)
    person.shot("bots-tokens")
    person.click("#tokens li button")
    person.wait_text("#tokens", lambda t: "my engine" not in t)
    assert secret
    phone = open_client(width=390, height=844, phone=True, languages="cs-CZ,cs")
    bot = HttpBot(server_url, unique_name("robot"), [])
    phone.open("/")
    phone.find(f"#bots li[data-bot='{bot.name}']")
    phone.wait_text("#bots-panel h2", lambda t: "Boti" in t)
    phone.driver.execute_script("document.getElementById('bots-panel').scrollIntoView()")
    phone.shot("bots-lobby-phone-cs")
