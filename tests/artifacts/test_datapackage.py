"""The data package descriptor's account of the raw inputs: where each lives upstream,
named once, and nothing of a user's own machine."""

from __future__ import annotations

import pytest
from frictionless import Package

from pipeline.artifacts.datapackage import SOURCE_TERMS, source_entry

KAGGLE = "kaggle:rtatman/english-word-frequency/versions/1/unigram_freq.csv"
URL = "https://raw.githubusercontent.com/alex1770/wordle/c12a82e/wordlist_nyt20220830_hidden"


@pytest.mark.parametrize(
    ("record", "entry"),
    [
        (
            {"source": "frequency", "kind": "kaggle", "origin": KAGGLE},
            {"title": f"frequency: {SOURCE_TERMS['frequency']}", "path": KAGGLE},
        ),
        (
            {"source": "answers", "kind": "url", "origin": URL},
            {"title": "answers: MIT (github.com/alex1770/wordle)", "path": URL},
        ),
        (
            {"source": "allowed", "kind": "local", "origin": "/home/me/lists/my-words.txt"},
            {"title": "allowed: a local file (my-words.txt)"},
        ),
    ],
)
def test_each_source_is_named_once_and_a_local_file_by_its_name_only(record, entry):
    assert source_entry(record) == entry


def test_the_entries_are_valid_data_package_sources():
    records = [
        {"source": "frequency", "kind": "kaggle", "origin": KAGGLE},
        {"source": "allowed", "kind": "local", "origin": "my/allowed.txt"},
    ]
    descriptor = {
        "name": "x",
        "resources": [{"name": "a", "path": "a.json"}],
        "sources": [source_entry(record) for record in records],
    }
    report = Package.validate_descriptor(descriptor)
    assert report.valid, report.flatten(["type", "note"])
