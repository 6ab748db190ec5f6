"""The feature registry (generator.features): one typed Feature per package, found by name, in
MODULES order whatever was imported first; a name or subcommand taken twice is refused."""
from __future__ import annotations

import pytest

from generator import features


def test_every_feature_package_registers_once_in_build_order():
    names = [f.name for f in features.registered()]
    assert names == ["bench", "check", "cards", "puzzles", "audit", "quickref", "figures"]
    assert features.find_feature("cards").body_filters
    assert [c.name for c in features.find_feature("check").commands] == ["check", "bench-check"]
    assert list(features.commands()) == ["bench", "check", "bench-check", "records"]


def test_an_unknown_feature_is_named_with_the_known_ones():
    with pytest.raises(features.FeatureError, match=r"no feature 'nope': expected one of \['audit', 'bench'"):
        features.find_feature("nope")


def test_a_taken_name_or_subcommand_is_refused():
    with pytest.raises(features.FeatureError, match="feature 'cards' is already registered"):
        features.register(features.Feature(name="cards"))
    check = features.Command("check", lambda parser: None, lambda args: 0)
    with pytest.raises(features.FeatureError, match="subcommand 'check' is already registered by feature 'check'"):
        features.register(features.Feature(name="another", commands=(check,)))
    assert "another" not in [f.name for f in features.registered()]
