"""The browser client, end to end: headless Chromium (Debian's chromium and chromedriver, driven
by Selenium) plays a whole game of every bundled ruleset as P1 against random agents, and at
every step checks that no card the seat may not see has reached the page or its websocket; the
lobby starts every ruleset, the page keeps a log in the language chosen, a card on the table is
chosen by clicking it, keys pass, a late watcher sees the game from its start and the end
screen says who won.

The browser tests need Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Run
by hand without them they are skipped with the reason; with MADANG_REQUIRE_BROWSER=1 (as CI
sets) their absence is a failure."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn
from madang.tools import serve
from madang.tools.serve import Server, build_app
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from starlette.testclient import TestClient

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# the server compiles a ruleset at its first table: seconds on a slow or busy machine, past
# httpx's default of 5 s
HTTP_TIMEOUT = 120

RULESETS = [
    ("clash_of_decks", {}),
    ("nivel_arena", {}),
    ("game_of_thrones_2p", {}),
    ("cthulhu_wars", {"players": 3}),
]


@pytest.fixture(scope="module")
def site():
    """The app on a free local port, in a thread of this process (so the test can read the
    true state of each table)."""
    server = Server()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = build_app(server, port=port)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    for _ in range(100):
        if web.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", server
    web.should_exit = True
    thread.join(5)


def need_browser() -> None:
    """Skip (one line) when Debian's chromium and chromedriver are absent, unless CI asks."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(p)]
    if missing:
        reason = (
            f"browser tests need Debian's chromium and chromium-driver ({', '.join(missing)}"
            " missing: apt-get install chromium chromium-driver)"
        )
        if os.environ.get("MADANG_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    need_browser()
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1300,900", f"--user-data-dir={tempfile.mkdtemp()}"):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def secret_names(game, seat: int) -> set[str]:
    """Names of the cards that are only in zones the seat may not see (a name also visible
    somewhere, or offered to the seat now, is not a secret)."""
    st = game.st
    g = st.g
    hidden, seen = set(), set()
    for z, (name, owner) in enumerate(g.zone_info):
        vis = g.prog.zones[name].visibility
        names = {g.prog.cards[st.obj_card[o]].name for o in st.zones[z]}
        if vis == "public" or (vis == "owner" and owner == seat):
            seen |= names
        else:
            hidden |= names
    if game.current_player() == seat:
        for label in game.action_labels():
            seen |= {w for w in hidden if w in label}
    return hidden - seen


def settled(raw: str) -> bool:
    """The message shows P1 a decision, or the end of the game."""
    view = json.loads(raw).get("view") or {}
    return bool(view.get("decision") or view.get("over"))


def names_in_message(raw: str) -> set[str]:
    """The card names a message carries as cards (zone contents), and the option labels."""
    msg = json.loads(raw)
    view = msg.get("view") or {}
    out: set[str] = set()
    groups = [*view.get("players", []), {"zones": view.get("shared", [])}, *view.get("areas", [])]
    for group in groups:
        for zone in group.get("zones", []):
            out |= {c["name"] for c in zone.get("cards", [])}
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "options"), RULESETS, ids=[r for r, _ in RULESETS])
def test_a_person_plays_a_whole_game_and_never_sees_a_secret(site, browser, ruleset, options):
    base, server = site
    seats = ["human"] + ["random"] * ((options.get("players") or 2) - 1)
    reply = httpx.post(
        base + "/api/tables",
        json={"ruleset": ruleset, "options": options, "seats": seats, "seed": 2},
        timeout=HTTP_TIMEOUT,
    )
    assert reply.status_code == 200, reply.text
    links = reply.json()["links"]
    table = server.tables[reply.json()["table"]]
    browser.get(base + links["P1"])
    seen = 0
    for step in range(3000):
        browser.implicitly_wait(0)
        deadline = time.time() + 20
        while time.time() < deadline:  # agents move on the server: wait for P1's turn or the end
            count = browser.execute_script("return window.__messages.length")
            if count > seen and settled(browser.execute_script("return window.__messages.at(-1)")):
                break
            time.sleep(0.02)
        assert count > seen, f"no new view after step {step}"
        messages = browser.execute_script(f"return window.__messages.slice({seen})")
        seen = count
        secrets = secret_names(table.game, 0)
        for raw in messages:
            leaked = names_in_message(raw) & secrets
            assert not leaked, f"step {step}: hidden {leaked} sent to P1"
        cards = browser.find_elements(By.CSS_SELECTOR, ".card")
        shown = {e.get_attribute("data-card") for e in cards}
        assert not shown & secrets, f"step {step}: hidden {shown & secrets} on P1's page"
        if table.game.is_terminal():
            break
        buttons = browser.find_elements(By.CSS_SELECTOR, ".options button")
        assert buttons, f"step {step}: P1 to move but no options shown"
        texts = [b.text for b in buttons]
        assert len(set(texts)) == len(texts), f"step {step}: options read alike: {texts}"
        button = buttons[step % len(buttons)]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
    assert table.game.is_terminal()
    assert "over" in browser.find_element(By.ID, "status").text
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed() and "The game is over" in result.text
    rows = result.find_elements(By.CSS_SELECTOR, ".scores tr")
    assert len(rows) == 1 + len(seats)  # a header and one row per player, with its payoff
    assert browser.find_elements(By.CSS_SELECTOR, "#log li")  # the story of the game


def test_the_lobby_lists_rulesets_and_makes_links(site, browser):
    base, _server = site
    browser.get(base + "/")
    browser.implicitly_wait(HTTP_TIMEOUT)  # the lobby lists the rulesets once they are read
    names = [
        o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#ruleset option")
    ]
    assert {"clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"} <= set(names)
    browser.find_element(By.ID, "start").click()
    link = browser.find_element(By.ID, "link-P1")
    assert "/table/" in link.get_attribute("href")
    assert browser.find_element(By.ID, "link-watch")


def test_a_link_only_opens_its_own_seat(site):
    base, server = site
    client = TestClient(build_app(server, port=int(base.rsplit(":", 1)[1])), base_url=base)
    made = httpx.post(
        base + "/api/tables",
        json={"ruleset": "clash_of_decks", "seats": ["human", "human"]},
        timeout=HTTP_TIMEOUT,
    ).json()
    table = server.tables[made["table"]]
    p2 = next(t for t, s in table.tokens.items() if s == 1)
    ws_base = base.replace("http", "ws", 1)
    with client.websocket_connect(f"{ws_base}/ws/{table.id}?token={p2}") as ws:
        view = ws.receive_json()["view"]
        assert view["seat"] == 1
        hand = next(z for z in view["players"][0]["zones"] if z["name"] == "hand")
        assert "hidden" in hand and "cards" not in hand  # P1's hand is a count for P2
        if table.game.current_player() != 1:
            ws.send_json({"choose": 0})
            assert ws.receive_json() == {"error": "not your decision"}
    with client.websocket_connect(f"{ws_base}/ws/{table.id}?token=forged") as ws:
        assert "error" in ws.receive_json()


def test_a_logged_game_replays_step_by_step(site, tmp_path: Path):
    from madang.tools.cli import main

    log = tmp_path / "game.jsonl"
    assert (
        main(
            ["play", "clash_of_decks", "--seats", "random,random", "--seed", "4", "--log", str(log)]
        )
        == 0
    )
    base, server = site
    client = TestClient(build_app(server, port=int(base.rsplit(":", 1)[1])), base_url=base)
    made = httpx.post(
        base + "/api/replays", json={"log": log.read_text()}, timeout=HTTP_TIMEOUT
    ).json()
    table = server.tables[made["table"]]
    assert table.history[-1].is_terminal()
    watch = next(t for t, s in table.tokens.items() if s == -1)
    ws_base = base.replace("http", "ws", 1)
    with client.websocket_connect(f"{ws_base}/ws/{table.id}?token={watch}") as ws:
        last = ws.receive_json()["view"]
        assert last["over"] and last["replay"]["step"] == last["replay"]["steps"] - 1
        ws.send_json({"step": 0})
        first = ws.receive_json()["view"]
        assert first["replay"]["step"] == 0 and not first["over"]
    bad = httpx.post(base + "/api/replays", json={"log": "not a log"}, timeout=HTTP_TIMEOUT)
    assert bad.status_code == 400 and "not a madang log" in bad.json()["error"]


def wait_for(browser, predicate, what: str, timeout: float = 20):
    return WebDriverWait(browser, timeout).until(lambda d: predicate(d), message=what)


def new_table(site, ruleset: str, seats: list[str], seed: int = 2, options=None):
    base, server = site
    reply = httpx.post(
        base + "/api/tables",
        json={"ruleset": ruleset, "seats": seats, "seed": seed, "options": options or {}},
        timeout=HTTP_TIMEOUT,
    )
    assert reply.status_code == 200, reply.text
    made = reply.json()
    return server.tables[made["table"]], made["links"]


def test_the_lobby_starts_a_ruleset_with_a_player_count(site, browser):
    # issue #35: Cthulhu Wars (2-4 players) is started with 3 seats from the lobby
    base, server = site
    browser.get(base + "/")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"), "rulesets")
    Select(browser.find_element(By.ID, "ruleset")).select_by_value("cthulhu_wars")
    count = Select(browser.find_element(By.ID, "player-count"))
    assert [o.text for o in count.options] == ["2", "3", "4"]
    count.select_by_value("3")
    assert len(browser.find_elements(By.CSS_SELECTOR, "select[name=seat]")) == 3
    browser.find_element(By.ID, "start").click()
    link = wait_for(browser, lambda d: d.find_elements(By.ID, "link-P1"), "the P1 link")[0]
    assert not browser.find_element(By.ID, "error").text
    table = server.tables[link.get_attribute("href").split("/table/")[1].split("?")[0]]
    assert table.game.st.g.nplayers == 3 and table.seats == ["human", "random", "random"]


def test_the_log_speaks_the_language_chosen_and_remembers_it(site, browser):
    base, server = site
    _table, links = new_table(site, "clash_of_decks", ["human", "random"])
    browser.get(base + links["P1"])
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#log li"), "a log")
    browser.find_element(By.CSS_SELECTOR, "#langs button[data-lang=en]").click()
    wait_for(browser, lambda d: "turn 1" in d.find_element(By.ID, "log").text, "English log")
    assert "summon" in browser.find_element(By.ID, "decision").text
    browser.refresh()  # the choice is remembered (localStorage)
    wait_for(browser, lambda d: "turn 1" in d.find_element(By.ID, "log").text, "still English")
    browser.find_element(By.CSS_SELECTOR, "#langs button[data-lang=ko]").click()
    wait_for(browser, lambda d: "턴 1" in d.find_element(By.ID, "log").text, "Korean log")
    assert "소환" in browser.find_element(By.ID, "decision").text


def test_a_card_and_a_place_on_the_table_choose_an_option(site, browser):
    base, server = site
    table, links = new_table(site, "clash_of_decks", ["human", "random"])
    browser.get(base + links["P1"])
    wait_for(browser, lambda d: table.game.current_player() == 0 and d.find_elements(
        By.CSS_SELECTOR, ".card.pickable"), "pickable")  # fmt: skip
    before = len(table.actions)
    labels = table.game.action_labels()
    cards = browser.find_elements(By.CSS_SELECTOR, ".player.me .card.pickable")
    name = cards[0].get_attribute("data-card")
    cards[0].click()  # a card in two options (two lanes): both are marked
    marked = browser.find_elements(By.CSS_SELECTOR, ".options button.candidate")
    assert len(marked) == 2 and all(name in b.text for b in marked)
    assert len(table.actions) == before
    zone = browser.find_element(By.CSS_SELECTOR, ".player.me .zone.pickable[data-zone='top#1']")
    zone.find_element(By.CSS_SELECTOR, ".zone-name").click()  # the place settles it
    wait_for(browser, lambda d: len(table.actions) > before, "the choice")
    assert labels[table.actions[before]] == f"summon {name} top#1"


def test_keys_pass_and_pick_an_option(site, browser):
    base, server = site
    table, links = new_table(site, "clash_of_decks", ["human", "random"])
    browser.get(base + links["P1"])
    wait_for(browser, lambda d: table.game.current_player() == 0 and d.find_elements(
        By.CSS_SELECTOR, ".options button"), "options")  # fmt: skip
    before = len(table.actions)
    passing = table.game.action_labels().index("pass")
    browser.find_element(By.TAG_NAME, "body").send_keys("p")
    wait_for(browser, lambda d: len(table.actions) > before, "the pass")
    assert table.actions[before] == passing
    wait_for(browser, lambda d: table.game.current_player() == 0 and d.find_elements(
        By.CSS_SELECTOR, ".options button"), "P1 again")  # fmt: skip
    before = len(table.actions)
    browser.find_element(By.TAG_NAME, "body").send_keys("1")
    wait_for(browser, lambda d: len(table.actions) > before, "option 1")
    assert table.actions[before] == 0


def test_a_late_watcher_sees_the_game_from_its_start_and_its_result(site, browser, monkeypatch):
    base, server = site
    monkeypatch.setattr(serve, "WATCH_STEP_SECONDS", 0.01)
    table, links = new_table(site, "clash_of_decks", ["random", "random"])
    deadline = time.time() + 60
    while not table.game.is_terminal() and time.time() < deadline:
        time.sleep(0.05)  # the agents finish before anyone looks
    assert table.game.is_terminal()
    browser.get(base + links["watch"])
    wait_for(browser, lambda d: "over" in d.find_element(By.ID, "status").text, "the end", 60)
    views = [json.loads(m).get("view") or {} for m in browser.execute_script(
        "return window.__messages")]  # fmt: skip
    steps = [v["watching"]["step"] for v in views if "watching" in v]
    assert steps[:3] == [0, 1, 2] and steps[-1] == len(table.actions) - 1
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed() and "Won: P" in result.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) > 10
