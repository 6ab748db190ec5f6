"""The site crawl uses the shared ``site_url`` fixture of ``tests/conftest.py`` (the built site
served on loopback under its ``site_url`` path, like a real host)."""
