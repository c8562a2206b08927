"""The report's card table in a real browser (headless Chromium, as tests/test_browser.py): the
filters by deck, kind and cost hide the other rows, and a click on a heading sorts by it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from madang.tools.cli import main
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "r.html"
    code = main(["simulate", "clash_of_decks", "--cards", str(EXAMPLES / "my_cards.yaml"),
                 "--deck", str(EXAMPLES / "my_deck.yaml"), "--against", "all", "--games", "60",
                 "--jobs", "1", "--by-card", "--report", str(out)])  # fmt: skip
    assert code == 0
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--window-size=1300,900", f"--user-data-dir={tempfile.mkdtemp()}"):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get(out.as_uri())
    yield driver
    driver.quit()


def shown(driver) -> list:
    return [r for r in driver.find_elements(By.CSS_SELECTOR, "#card-table tbody tr")
            if r.is_displayed()]  # fmt: skip


@pytest.mark.slow  # a browser
def test_the_card_table_filters_and_sorts(page):
    rows = shown(page)
    assert rows and all(r.get_attribute("class") == "all" for r in rows)  # one row per card
    Select(page.find_element(By.ID, "f-deck")).select_by_visible_text("wardens")
    rows = shown(page)
    assert len(rows) == 9 and {r.get_attribute("data-deck") for r in rows} == {
        "wardens"
    }  # 8 + tower
    Select(page.find_element(By.ID, "f-kind")).select_by_visible_text("spell")
    assert [r.find_element(By.TAG_NAME, "td").text for r in shown(page)] == ["LIGHTNING"]
    Select(page.find_element(By.ID, "f-kind")).select_by_index(0)
    Select(page.find_element(By.ID, "f-deck")).select_by_index(0)
    Select(page.find_element(By.ID, "f-cost")).select_by_visible_text("3")
    assert {r.find_elements(By.TAG_NAME, "td")[3].text for r in shown(page)} == {"3"}
    Select(page.find_element(By.ID, "f-cost")).select_by_index(0)
    cards = page.find_element(By.ID, "card-table")
    cards.find_elements(By.TAG_NAME, "th")[0].click()  # by name, A to Z
    names = [r.find_element(By.TAG_NAME, "td").text for r in shown(page)]
    assert names == sorted(names) and len(names) > 30
    games = cards.find_elements(By.TAG_NAME, "th")[4]
    games.click()
    counts = [int(r.find_elements(By.TAG_NAME, "td")[4].text) for r in shown(page)]
    assert counts == sorted(counts)
    games.click()
    counts = [int(r.find_elements(By.TAG_NAME, "td")[4].text) for r in shown(page)]
    assert counts == sorted(counts, reverse=True)
