"""Fixtures shared by the stage tests."""

from __future__ import annotations

import pytest

from tests.stages.test_play_strategy import solver_set
from tests.support.artifact_set import ArtifactSet


@pytest.fixture(scope="module")
def solver(tmp_path_factory: pytest.TempPathFactory) -> ArtifactSet:
    """The solver tests' artifact set (tests.stages.test_play_strategy.solver_set), built
    once per module that reads it."""
    return solver_set(tmp_path_factory)
