# Cellula: every entry point. `make site` and `make test` set everything up on a fresh machine
# that has Python 3.11 and pip: the virtual environment, the pinned dependencies, then the work.
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: site site-offline serve test check bench clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	sh tools/ensure_hunspell.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

site: $(STAMP)
	$(PY) -m mkdocs build --strict
	@echo "Site built in site/: open site/index.html (Italian home) or site/en/index.html (English home)."
	@echo "Its links are folder URLs made for a web server: browse it with 'make serve' (http://127.0.0.1:8000/cellula/),"
	@echo "or build 'make site-offline' and open site-offline/index.html to follow links straight from disk."

site-offline: $(STAMP)
	$(PY) -m mkdocs build --strict -f mkdocs-offline.yml
	@echo "Offline site built: open site-offline/index.html straight from disk (file://)."

serve: $(STAMP)
	$(PY) -m mkdocs serve --strict

check: $(STAMP)
	$(PY) -m generator check

test: $(STAMP)
	sh tools/ensure_hunspell.sh
	$(PY) -m generator validate
	$(PY) -m pytest tests --ignore=tests/site --ignore=tests/browser
	$(PY) -m mkdocs build --strict --quiet
	$(PY) -m mkdocs build --strict --quiet -f mkdocs-offline.yml
	$(PY) -m pytest tests/site
	sh tests/browser/ensure_chromium.sh
	$(PY) -m pytest tests/browser
	$(PY) -m generator check

bench: $(STAMP)
	$(PY) -m generator bench
	$(PY) -m generator bench-check
	sh tests/browser/ensure_chromium.sh
	CHROME_PATH=/usr/bin/chromium $(PY) tools/lighthouse/run.py
	$(PY) -m solver bench

clean:
	rm -rf site site-offline docs/it docs/en .pytest_cache
