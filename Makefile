# Cellula: every entry point. `make site` and `make test` set everything up on a fresh Debian machine
# that has Python 3.11 (with venv and pip): the virtual environment and the pinned dependencies, and,
# with apt-get as root or through sudo, the Debian packages when missing (tools/ensure_debian.sh: Hunspell
# dictionaries, OmegaT, npm, Chromium, Java), then the work.
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Pyodide for the puzzle pages' play mode (issue #19): npm package pinned in tools/pyodide,
# copied into the built site by the build (generator/puzzles/play_assets.py), never committed.
PYODIDE := tools/pyodide/node_modules/pyodide/pyodide.js
# HiGHS compiled to WebAssembly for the pages' live solver (issue #70): npm package pinned in
# tools/highs, copied into the built site by the build (generator/puzzles/play_assets.py), never committed.
HIGHS := tools/highs/node_modules/highs/build/highs.js
# The pure-Python packages the live solver reads pasted puzzles with in the browser (issue #70):
# hash-pinned wheels in tools/pywheels, read by the build, never installed or committed.
PYWHEELS := tools/pywheels/wheels/.downloaded

.PHONY: site site-offline serve test test-fast test-smoke records search-record reprove check bench clean setup deploy gh-deploy

setup: $(STAMP)

$(PYODIDE): tools/pyodide/package-lock.json
	sh tools/ensure_debian.sh npm
	npm ci --no-audit --no-fund --prefix tools/pyodide
	touch $(PYODIDE)

$(PYWHEELS): tools/pywheels/requirements.txt $(STAMP)
	$(PY) -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
		--python-version 311 --implementation cp --abi cp311 --require-hashes \
		-r tools/pywheels/requirements.txt -d tools/pywheels/wheels
	touch $(PYWHEELS)

$(HIGHS): tools/highs/package-lock.json
	sh tools/ensure_debian.sh npm
	npm ci --no-audit --no-fund --prefix tools/highs
	touch $(HIGHS)

# --no-compile: the installed packages' modules are compiled when first imported, only those the
# project imports (27 s -> 14 s for the install, from pip's cache; the first imports after it took
# no longer than the next ones)
$(STAMP): pyproject.toml constraints.txt
	sh tools/ensure_debian.sh hunspell omegat
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --no-compile -c constraints.txt -e '.[test]'
	touch $(STAMP)

site: $(STAMP) $(PYODIDE) $(HIGHS) $(PYWHEELS)
	$(PY) -m mkdocs build --strict
	@echo "Site built in site/: open site/index.html (Italian home) or site/en/index.html (English home)."
	@echo "Its links are folder URLs made for a web server: browse it with 'make serve' (http://127.0.0.1:8000/cellula/),"
	@echo "or build 'make site-offline' and open site-offline/index.html to follow links straight from disk."

# Publishing: CELLULA_SITE_URL is the address the site will have (canonical links, sitemap, the
# 404 page's links); DEPLOY_DIR the folder a static host serves (copied as it is).
#   make deploy CELLULA_SITE_URL=https://example.org/cellula/ DEPLOY_DIR=/var/www/cellula
#   make gh-deploy CELLULA_SITE_URL=https://<user>.github.io/<repo>/   (pushes to the gh-pages branch)
# (not 'export CELLULA_SITE_URL': make would then export it empty to every build, and mkdocs.yml's
# !ENV default would give way to an empty site_url; a value given on make's command line or in the
# environment reaches mkdocs anyway)
DEPLOY_DIR ?= public

deploy: $(STAMP) $(PYODIDE) $(HIGHS) $(PYWHEELS)
	@test -n "$(CELLULA_SITE_URL)" || { echo "deploy: set CELLULA_SITE_URL to the published address (e.g. https://example.org/cellula/)"; exit 2; }
	$(PY) -m mkdocs build --strict --quiet --site-dir "$(abspath $(DEPLOY_DIR))"
	@echo "Site for $(CELLULA_SITE_URL) built in $(DEPLOY_DIR)/: copy or serve that folder at that address."

gh-deploy: $(STAMP) $(PYODIDE) $(HIGHS) $(PYWHEELS)
	@test -n "$(CELLULA_SITE_URL)" || { echo "gh-deploy: set CELLULA_SITE_URL to the GitHub Pages address (https://<user>.github.io/<repo>/)"; exit 2; }
	$(PY) -m mkdocs gh-deploy --strict --force

site-offline: $(STAMP) $(PYODIDE) $(HIGHS) $(PYWHEELS)
	$(PY) -m mkdocs build --strict -f mkdocs-offline.yml
	@echo "Offline site built: open site-offline/index.html straight from disk (file://)."

serve: $(STAMP) $(PYODIDE) $(HIGHS) $(PYWHEELS)
	$(PY) -m mkdocs serve --strict

check: $(STAMP)
	$(PY) -m generator check

# The tiers (tests/tiers.py says which test is in which). The smoke tier: the data, then a quick pass
# over every layer, under a minute on 2 cores.
test-smoke: $(STAMP)
	$(PY) -m generator validate
	$(PY) -m pytest -m smoke -n 0

# The edit loop: lint, types, the data, and every test that needs neither a built site, nor a site
# built in a copy, nor command lines run as processes, nor minutes of computing (about 2 minutes on
# 2 cores; those `heavy` tests run in `make test`).
test-fast: $(STAMP)
	$(PY) -m ruff check generator solver tools tests
	$(PY) -m mypy solver generator tools
	$(PY) -m generator validate
	$(PY) -m pytest -m "not slow and not heavy" -n auto --dist loadfile --durations=10

# What CI runs: everything. The data is validated first; then, side by side, the lint, the re-proof
# sample (a few committed records re-proved from nothing, a different few on every commit, and every
# record whose answers differ from the ledger of re-proofs data/puzzles/reproved.json; make reprove
# re-proves them all), the two site builds and the pseudo-localised site the unit tests check
# (tests/test_pseudo_locale.py); then the unit tests in one process per processor (pytest-xdist); then
# the browser tests beside the site tests and the edition check.
PSEUDO_SITE := .pseudo-site
test: $(STAMP) $(PYODIDE) $(HIGHS) $(PYWHEELS)
	sh tools/ensure_debian.sh hunspell omegat
	$(PY) -m generator validate
	$(MAKE) --no-print-directory -j3 --output-sync=target test-lint test-reprove-sample test-build test-pseudo-site
	CELLULA_PSEUDO_SITE=$(PSEUDO_SITE) $(PY) -m pytest -m "not slow" -n auto --dist loadfile --durations=15
	sh tools/ensure_debian.sh chromium java
	$(MAKE) --no-print-directory -j3 --output-sync=target test-browser test-site test-check

# Steps of `make test` run side by side. The lint, the builds and the pseudo-localised site each keep
# one processor busy and none writes what another reads (the re-proof only compares; the two builds
# share docs/, so they run one after the other, in one process that generates the pages once:
# tools/build_sites.py, 45 s against 70 s as two mkdocs processes; the pseudo-localised site is a copy
# of its own). The browser tests run beside the site tests and the edition check, which only read the
# built site and data/; they run in three workers (6 minutes 15 s in two, 5 minutes 30 s in three, on
# a loaded machine). Running the unit tests beside the browser tests was tried and was slower: both
# tiers keep the processors busy.
.PHONY: test-lint test-reprove-sample test-build test-pseudo-site test-browser test-site test-check
test-lint:
	$(PY) -m ruff check generator solver tools tests
	$(PY) -m mypy solver generator tools
test-reprove-sample:
	$(PY) -m generator records --reprove --sample
test-build:
	$(PY) tools/build_sites.py mkdocs.yml mkdocs-offline.yml
test-browser:
	$(PY) -m pytest tests/browser -n 3 --dist loadfile
test-site:
	$(PY) -m pytest tests/site
test-check:
	$(PY) -m generator check
test-pseudo-site:
	$(PY) tests/test_pseudo_locale.py $(PSEUDO_SITE)

# The puzzles' records (data/puzzles/*.record.json): compute the missing and stale ones (only their
# stale parts), print how their answers moved field by field, write them and the ledger, to commit.
# After a refactor nothing is stale; after a rules change, the records whose play it reaches.
records: $(STAMP)
	$(PY) -m generator records

# The search's record (tests/golden/search-relevance.json): every generated lookup run through the
# built site's search, with the figures it gives (data/figures/search.json), to commit whenever the
# browser tests say it is stale (the indexed text, the search scripts or the lookups changed).
search-record: $(STAMP)
	$(PY) -m mkdocs build --strict --quiet
	sh tools/ensure_debian.sh chromium
	$(PY) tools/search_relevance.py

# Every record recomputed from nothing and compared field by field with the committed one (about 25
# minutes on 2 cores); the records reproduced go into the ledger of re-proofs.
reprove: $(STAMP)
	$(PY) -m generator records --reprove

bench: $(STAMP)
	$(PY) -m generator bench
	$(PY) -m generator bench-check
	sh tools/ensure_debian.sh chromium
	CHROME_PATH=/usr/bin/chromium $(PY) tools/lighthouse/run.py
	$(PY) -m solver bench

clean:
	rm -rf site site-offline docs/it docs/en docs/generated .pytest_cache .pseudo-site
