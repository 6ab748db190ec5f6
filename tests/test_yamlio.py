"""The generator's YAML loader (``generator/yamlio.py``): a text is parsed once a process, yet every
caller gets values of its own and the lines of the file it named."""
from __future__ import annotations

import pytest

from generator import yamlio
from generator.errors import DataError

TEXT = "terms:\n  - it: ribosoma\n    en: ribosome\n  - it: lisosoma\n    en: lysosome\n"


@pytest.fixture
def two_files(tmp_path):
    first, second = tmp_path / "first.yaml", tmp_path / "sub" / "second.yaml"
    second.parent.mkdir()
    first.write_text(TEXT, encoding="utf-8")
    second.write_text("\n" + TEXT, encoding="utf-8")         # another text: its lines one further down
    return first, second


def test_a_text_read_again_is_not_parsed_again(tmp_path, monkeypatch):
    file = tmp_path / "a.yaml"
    file.write_text(TEXT + "# once\n", encoding="utf-8")
    parsed = []
    real = yamlio.parse_yaml
    monkeypatch.setattr(yamlio, "parse_yaml", lambda text, f: parsed.append(f) or real(text, f))
    first, _ = yamlio.load_yaml(file)
    again, located = yamlio.load_yaml(file)
    assert parsed == [file] and first == again


def test_each_caller_gets_values_of_its_own(tmp_path):
    file = tmp_path / "a.yaml"
    file.write_text(TEXT + "# own\n", encoding="utf-8")
    first, located = yamlio.load_yaml(file)
    first["terms"][0]["it"] = "changed by a caller"
    located.lines.clear()
    again, located_again = yamlio.load_yaml(file)
    assert again["terms"][0]["it"] == "ribosoma"
    assert located_again.line("terms", 1, "en") == 5


def test_the_same_text_in_another_file_names_that_file(tmp_path):
    one, other = tmp_path / "one.yaml", tmp_path / "other.yaml"
    for file in (one, other):
        file.write_text(TEXT + "# twice\n", encoding="utf-8")
    yamlio.load_yaml(one)
    _, located = yamlio.load_yaml(other)
    assert located.file == other and located.line("terms", 0) == 2


def test_lines_follow_the_text_not_a_text_read_before(two_files):
    first, second = two_files
    assert yamlio.load_yaml(first)[1].line("terms", 1) == 4
    assert yamlio.load_yaml(second)[1].line("terms", 1) == 5


def test_a_broken_file_is_named_each_time(tmp_path):
    file = tmp_path / "broken.yaml"
    file.write_text("terms: [unclosed\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError) as caught:
            yamlio.load_yaml(file)
        assert "broken.yaml" in str(caught.value) and "YAML syntax error" in str(caught.value)


def test_the_memory_starts_over_when_full(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlio, "PARSED_TEXTS", 3)
    monkeypatch.setattr(yamlio, "_PARSED", {})
    for i in range(7):
        file = tmp_path / f"{i}.yaml"
        file.write_text(f"n: {i}\n", encoding="utf-8")
        assert yamlio.load_yaml(file)[0] == {"n": i}
        assert len(yamlio._PARSED) <= 3
