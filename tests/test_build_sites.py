"""``tools/build_sites.py``, which ``make test`` builds the site and its offline copy with: strict
like ``mkdocs build --strict``, every configuration built in turn, and a bad argument or a failed
build named with an exit code (checked on small sites of their own, without the project's hook)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "build_sites.py"


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})


def _site(folder: Path, name: str, page: str) -> Path:
    """A one-page site with MkDocs' own theme: ``folder/name.yml`` building ``folder/name-site``."""
    docs = folder / f"{name}-docs"
    docs.mkdir()
    (docs / "index.md").write_text(page, encoding="utf-8")
    config = folder / f"{name}.yml"
    config.write_text(f"site_name: {name}\ndocs_dir: {docs.name}\nsite_dir: {name}-site\ntheme: mkdocs\n",
                      encoding="utf-8")
    return config


def test_every_configuration_is_built_in_turn(tmp_path):
    first = _site(tmp_path, "first", "# One\n")
    second = _site(tmp_path, "second", "# Two\n")
    result = _run(first, second, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "One" in (tmp_path / "first-site" / "index.html").read_text(encoding="utf-8")
    assert "Two" in (tmp_path / "second-site" / "index.html").read_text(encoding="utf-8")


def test_a_warning_fails_the_build_and_is_shown(tmp_path):
    good = _site(tmp_path, "good", "# Fine\n")
    broken = _site(tmp_path, "broken", "[a link](missing.md)\n")
    result = _run(good, broken, cwd=tmp_path)
    assert result.returncode == 1
    assert "missing.md" in result.stderr           # the warning itself, not only the count
    assert "broken.yml" in result.stderr and "strict" in result.stderr


@pytest.mark.parametrize(("argument", "got"), [("no-such.yml", "nothing (no such file)"), (".", "a folder")])
def test_a_missing_configuration_is_named_before_any_build(tmp_path, argument, got):
    good = _site(tmp_path, "good", "# Fine\n")
    result = _run(good, argument, cwd=tmp_path)
    assert result.returncode == 2
    assert f"{argument}: expected a MkDocs configuration file, got {got}" in result.stderr
    assert not (tmp_path / "good-site").exists()    # checked before the first build
