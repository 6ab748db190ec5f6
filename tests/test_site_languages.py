"""The site languages are defined once: the i18n plugin's ``languages:`` in mkdocs.yml, which the
offline configuration inherits (MkDocs INHERIT merges the plugins mapping)."""
from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.utils.yaml import yaml_load

from generator.errors import DataError
from generator.languages import SITE_LANGUAGES, read_site_languages

ROOT = Path(__file__).resolve().parent.parent


def _locales(config: Path) -> list[str]:
    """The locales MkDocs itself reads from ``config`` (INHERIT resolved)."""
    with open(config, "rb") as handle:
        data = yaml_load(handle)
    return [language["locale"] for language in data["plugins"]["i18n"]["languages"]]


def test_site_languages_come_from_mkdocs_yml():
    assert SITE_LANGUAGES == read_site_languages(ROOT / "mkdocs.yml") == tuple(_locales(ROOT / "mkdocs.yml"))
    assert SITE_LANGUAGES[0] == "it"


def test_offline_build_inherits_the_languages_and_adds_only_the_offline_plugin():
    offline = (ROOT / "mkdocs-offline.yml").read_text(encoding="utf-8")
    assert "INHERIT: mkdocs.yml" in offline and "i18n" not in offline.split("plugins:", 1)[1]
    assert tuple(_locales(ROOT / "mkdocs-offline.yml")) == SITE_LANGUAGES
    with open(ROOT / "mkdocs-offline.yml", "rb") as handle:
        assert list(yaml_load(handle)["plugins"]) == ["search", "i18n", "offline"]


@pytest.mark.parametrize("plugins", ["plugins:\n  - search\n  - i18n:\n      languages: []\n",
                                     "plugins:\n  i18n:\n    docs_structure: folder\n",
                                     "plugins:\n  i18n:\n    languages:\n      - name: Italiano\n"])
def test_a_configuration_without_languages_is_reported(tmp_path, plugins):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nsite_url: !ENV [X, 'y']\n" + plugins, encoding="utf-8")
    with pytest.raises(DataError, match=r"mkdocs.yml: plugins.i18n.languages: expected a list of \{locale"):
        read_site_languages(config)
