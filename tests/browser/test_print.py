"""Rule pages print cleanly: no header, navigation, search or footer; the side-by-side view keeps
its two readable columns. Checked on the print-media layout and on a real PDF printed by Chromium."""
from __future__ import annotations

import io
import re

import pytest

A4_CSS_PX = {"width": 794, "height": 1123}  # 210 x 297 mm at 96 px/in

CHROME = [".md-header", ".md-tabs", ".md-sidebar--primary", ".md-sidebar--secondary",
          ".md-footer", ".md-search", ".md-top", ".md-source"]


def _visible_chrome(page) -> list[str]:
    return [sel for sel in CHROME if any(el.is_visible() for el in page.locator(sel).all())]


def _nav_only_labels(page) -> list[str]:
    """Labels of the navigation that the article itself does not contain."""
    article = page.locator("article").inner_text()
    labels = page.locator(".md-nav--primary .md-nav__link").evaluate_all(
        "els => els.map(e => e.textContent.trim()).filter(Boolean)")
    return sorted({label for label in labels if label not in article and len(label) > 3})


def _pdf_text(pdf: bytes) -> tuple[int, str]:
    from pypdf import PdfReader
    reader = PdfReader(io.BytesIO(pdf))
    return len(reader.pages), "\n".join(p.extract_text() or "" for p in reader.pages)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("path", ["cytosis/setup/", "en/cytosis/setup/", "cytosis/compare/setup/",
                                  "en/cytosis/compare/gameplay/"])
def test_rule_page_prints_without_navigation(page, site_url, path):
    page.set_viewport_size(A4_CSS_PX)
    page.goto(site_url + path)
    nav_labels = _nav_only_labels(page)
    title = page.locator("article h1").evaluate(
        "h => [...h.childNodes].filter(n => !(n.classList && n.classList.contains('headerlink')))"
        ".map(n => n.textContent).join('').trim()")
    page.emulate_media(media="print")
    assert _visible_chrome(page) == [], "navigation or header shown in print"
    pdf = page.pdf(format="A4", margin={"top": "15mm", "bottom": "15mm", "left": "12mm", "right": "12mm"})
    assert pdf.startswith(b"%PDF-")
    pages, text = _pdf_text(pdf)
    flat = _squash(text)
    assert pages >= 1
    assert _squash(title) in flat, "the page title is missing from the PDF"
    leaked = [label for label in nav_labels if _squash(label) in flat]
    assert not leaked, f"navigation printed: {leaked}"
    assert "¶" not in text, "permalink markers printed"


@pytest.mark.parametrize("lang", ["", "en/"])
def test_side_by_side_prints_in_two_readable_columns(page, site_url, lang):
    page.set_viewport_size(A4_CSS_PX)
    page.goto(site_url + lang + "cytosis/compare/setup/")
    page.emulate_media(media="print")
    row = page.locator(".cellula-sbs").first
    left, right = row.locator(":scope > .cellula-sbs__col").all()
    lbox, rbox = left.bounding_box(), right.bounding_box()
    assert abs(lbox["y"] - rbox["y"]) < 2, "the two texts are not side by side in print"
    assert rbox["x"] >= lbox["x"] + lbox["width"]
    assert min(lbox["width"], rbox["width"]) >= 300, "a print column is too narrow to read"
    content = page.locator(".md-content").bounding_box()
    assert lbox["x"] - content["x"] < 60, "print layout keeps a sidebar gutter"
    font_px = float(left.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert font_px >= 10, f"print font too small: {font_px}px"
    # Both languages of the first row reach the PDF.
    it_text = _squash(left.locator("p, li").nth(1).inner_text())[:40]
    en_text = _squash(right.locator("p, li").nth(1).inner_text())[:40]
    _, text = _pdf_text(page.pdf(format="A4"))
    flat = _squash(text)
    for snippet in (it_text, en_text):
        words = snippet.split(" ")[:4]
        assert " ".join(words) in flat, f"{snippet!r} missing from the printed side-by-side view"


CLIPPED = """() => {
  const content = document.querySelector('article').getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll('article table, article td, article th, article pre, article .md-typeset__scrollwrap')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.right > content.right + 2) out.push(el.tagName + ': ' + el.textContent.trim().slice(0, 30) + ' @' + Math.round(r.right));
    if (el.scrollWidth > el.clientWidth + 2 && getComputedStyle(el).overflowX !== 'visible') out.push(el.tagName + ' scrolls: ' + el.textContent.trim().slice(0, 30));
  }
  return out; }"""


def _puzzle_path() -> str:
    from helpers import SITE, pages_under
    return next(p for p in pages_under("cytosis/puzzles")
                if '<table class="cellula-steps' in (SITE / p / "index.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", ["puzzle", "ursuppe/genes/", "en/ursuppe/genes/", "cytosis/setup/"])
def test_nothing_is_clipped_on_paper(page, site_url, path):
    path = _puzzle_path() if path == "puzzle" else path
    page.set_viewport_size(A4_CSS_PX)
    page.goto(site_url + path)
    page.emulate_media(media="print")
    clipped = page.evaluate(CLIPPED)
    assert not clipped, f"clipped in print on {path}: {clipped[:5]}"
    # The last column of the first table (the final score, a gene's description) reaches the PDF.
    last = page.locator("article table tbody tr").first.locator("td").last.inner_text()
    _, text = _pdf_text(page.pdf(format="A4", margin={"top": "15mm", "bottom": "15mm", "left": "12mm", "right": "12mm"}))
    words = _squash(last).split(" ")[:3]
    assert all(w in _squash(text) for w in words), f"{last[:40]!r} missing from the PDF"
