"""A browser session on the web client, in the words of its pages."""

import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

WAIT_SECONDS = 20


class Client:
    def __init__(self, driver, base_url, screenshots):
        self.driver = driver
        self.base_url = base_url
        self.screenshots = screenshots

    # -- plumbing -------------------------------------------------------
    def open(self, path):
        self.driver.get(self.base_url + path)

    def wait(self, seconds=WAIT_SECONDS):
        return WebDriverWait(self.driver, seconds, ignored_exceptions=(StaleElementReferenceException,))

    def find(self, css):
        return self.wait().until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))

    def click(self, css):
        self.wait().until(EC.element_to_be_clickable((By.CSS_SELECTOR, css))).click()

    def text(self, css):
        return self.find(css).text

    def wait_text(self, css, predicate, seconds=WAIT_SECONDS):
        """Waits until the text of `css` satisfies `predicate`; returns it."""
        def check(driver):
            try:
                text = driver.find_element(By.CSS_SELECTOR, css).text
            except Exception:
                return False
            return text if predicate(text) else False

        return self.wait(seconds).until(check, f"text of {css} never matched")

    def shot(self, name):
        self.driver.save_screenshot(str(self.screenshots / f"{name}.png"))

    def console_errors(self):
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    # -- accounts -------------------------------------------------------
    def register(self, name, password="correct-horse-9"):
        self.open("/login")
        self.find("#register-name").send_keys(name)
        self.find("#register-password").send_keys(password)
        self.click("#register-submit")
        self.wait_text("#me", lambda t: t.startswith(name))

    def choose_notation(self, notation):
        self.open("/settings")
        self.click(f"#notation-{notation}")
        self.wait_text("#settings-message", lambda t: t == "Saved.")

    # -- lobby ----------------------------------------------------------
    def create_seek(self, minutes=5, increment=3, rated=True, color="random"):
        self.open("/")
        self.find("#seeks")
        base = self.find("#seek-base")
        base.clear()
        base.send_keys(str(minutes))
        inc = self.find("#seek-inc")
        inc.clear()
        inc.send_keys(str(increment))
        box = self.find("#seek-rated")
        if box.is_selected() != rated:
            box.click()
        self.driver.execute_script(
            "const s = document.getElementById('seek-color'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));",
            color)
        self.click("#seek-submit")

    def join_seek_of(self, name):
        self.open("/")
        button = self.wait().until(
            lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#seeks li")
                            if name in b.text and b.find_elements(By.CSS_SELECTOR, "button.join")), False),
            f"no open seek by {name}")
        button.find_element(By.CSS_SELECTOR, "button.join").click()

    def play_engine(self, level, minutes, color):
        self.open("/")
        self.find("#engine-form")
        self.driver.execute_script(
            """const [level, minutes, color] = arguments;
            document.getElementById('engine-level').value = level;
            document.getElementById('engine-base').value = minutes;
            document.getElementById('engine-color').value = color;""",
            level, minutes, color)
        self.click("#engine-submit")

    # -- a game ---------------------------------------------------------
    def wait_game_page(self):
        self.wait().until(lambda d: "/games/" in d.current_url, "no game page opened")
        self.find("#board [data-square='e0']")
        self.wait_text("#status", lambda t: t and "Loading" not in t)
        return self.driver.current_url.rsplit("/", 1)[1]

    def ply_count(self):
        return len(self.driver.find_elements(By.CSS_SELECTOR, "#moves .mv[data-ply]"))

    def wait_my_turn(self, seconds=WAIT_SECONDS):
        self.wait_text("#status", lambda t: t in ("Your move", "Game over"), seconds)
        return self.text("#status") == "Your move"

    def move(self, iccs):
        """Clicks a move on the board (its piece, then its destination) and waits until it is played."""
        before = self.ply_count()
        self.click(f"#board [data-square='{iccs[:2]}']")
        self.find(f"#board [data-dest='{iccs[2:]}']")
        self.click(f"#board [data-square='{iccs[2:]}']")
        self.wait().until(lambda d: self.ply_count() > before, f"move {iccs} was not played")

    def drag(self, iccs, via=None, while_dragging=None):
        """Drags a piece to its destination with the mouse held down (through
        the square `via` first, when given) and waits until it is played."""
        before = self.ply_count()
        self.drag_and_drop(iccs[:2], iccs[2:], via, while_dragging)
        self.wait().until(lambda d: self.ply_count() > before, f"move {iccs} was not played")

    def drag_and_drop(self, source, target, via=None, while_dragging=None):
        """Presses on `source`, moves over `via`, releases on `target`, in one
        gesture. `while_dragging` runs with the piece held over `via`: that
        splits the gesture in two, which only a mouse survives (Chromium's
        touch emulation lifts the finger at the end of each action chain)."""
        square = lambda name: self.find(f"#board [data-square='{name}']")
        actions = ActionChains(self.driver, duration=50)
        actions.move_to_element(square(source)).click_and_hold()
        if via:
            actions.move_to_element(square(via))
        if while_dragging:
            actions.perform()
            while_dragging()
            actions = ActionChains(self.driver, duration=50)
        actions.move_to_element(square(target)).release().perform()

    def dragged_piece_shown(self):
        return bool(self.driver.find_elements(By.CSS_SELECTOR, "#board .xq-dragging"))

    def piece_on(self, square):
        """The colour of the piece drawn on `square` ("red", "black") or None."""
        pieces = self.driver.find_elements(By.CSS_SELECTOR, f"#board .xq-piece[data-piece='{square}']")
        if not pieces:
            return None
        return "red" if "xq-red" in pieces[0].get_attribute("class") else "black"

    def last_move_marks(self):
        return sorted(e.get_attribute("data-last") for e in self.driver.find_elements(By.CSS_SELECTOR, "#board [data-last]"))

    def wait_last_move(self, iccs):
        want = sorted([iccs[:2], iccs[2:]])
        return self.wait().until(lambda d: self.last_move_marks() == want, f"last move {iccs} not marked")

    def board_flipped(self):
        return "xq-flipped" in self.find("#board .xq-board").get_attribute("class")

    def square_center(self, square):
        """The on-screen centre (x, y) of an intersection."""
        return tuple(self.driver.execute_script(
            """const r = document.querySelector(`#board [data-square='${arguments[0]}']`).getBoundingClientRect();
            return [r.x + r.width / 2, r.y + r.height / 2];""", square))

    def viewport(self):
        """Viewport width and height, the page's full width, and the board's box."""
        return self.driver.execute_script(
            """const b = document.querySelector('#board .xq-board');
            const r = b ? b.getBoundingClientRect() : null;
            return {width: innerWidth, height: innerHeight, pageWidth: document.documentElement.scrollWidth,
                    board: r && {left: r.left, right: r.right, width: r.width, height: r.height}};""")

    def moves_text(self):
        return [m.text for m in self.driver.find_elements(By.CSS_SELECTOR, "#moves .mv[data-ply]")]

    def viewer_moves_text(self):
        """The moves of the game viewer's list (a finished game's page), in order."""
        return [m.text for m in self.driver.find_elements(By.CSS_SELECTOR, "#viewer .xq-move .xq-san")]

    def my_movable_squares(self):
        """The squares of this side's pieces (the board says which side is at the bottom)."""
        return self.driver.execute_script(
            """const me = document.querySelector('#board .xq-board').classList.contains('xq-flipped') ? 'xq-black' : 'xq-red';
            return [...document.querySelectorAll('#board .xq-piece.' + me)].map(p => p.dataset.piece);""")

    def shown_dests(self):
        return [e.get_attribute("data-dest") for e in self.driver.find_elements(By.CSS_SELECTOR, "#board [data-dest]")]

    def wait_result(self, seconds=WAIT_SECONDS):
        return self.wait_text("#result", lambda t: t.strip() != "", seconds)

    # -- presence and the page's life ------------------------------------
    def record_away_marks(self):
        """From now on, this page notes every player bar drawn with an away
        mark, however briefly it shows (read them with `away_marks_seen`)."""
        self.driver.execute_script(
            """window.xqAwaySeen = [];
            new MutationObserver((records) => {
              for (const record of records) {
                for (const node of record.addedNodes) {
                  if (node.nodeType === 1 && (node.matches('.away') || node.querySelector('.away'))) {
                    window.xqAwaySeen.push(node.textContent);
                  }
                }
              }
            }).observe(document.body, {childList: true, subtree: true});""")

    def away_marks_seen(self):
        return self.driver.execute_script("return window.xqAwaySeen")

    def mark_page(self):
        """Tags this page's script context and counts its restores from the
        back/forward cache (`pageshow` with `persisted`): a page restored from
        the cache keeps the tag, a page loaded again has none."""
        token = f"page-{time.monotonic_ns()}"
        self.driver.execute_script(
            """window.xqPageTag = arguments[0];
            window.xqRestores = 0;
            addEventListener('pageshow', (event) => { if (event.persisted) window.xqRestores += 1; });""",
            token)
        return token

    def page_tag_and_restores(self):
        return self.driver.execute_script("return [window.xqPageTag || null, window.xqRestores || 0]")


def start_guest_game(seeker, joiner, color="red"):
    """A casual 3+2 game between two guests: `seeker` opens a seek for
    `color`, `joiner` accepts it; both end on the game's page. Returns its id."""
    seeker.open("/")
    joiner.open("/")
    name = seeker.wait_text("#me", lambda t: t.startswith("Guest-"))
    seeker.create_seek(minutes=3, increment=2, rated=False, color=color)
    seeker.find("#seeks li.own")
    joiner.join_seek_of(name)
    game = seeker.wait_game_page()
    assert joiner.wait_game_page() == game
    return game


def poll(predicate, seconds, message):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(message)
