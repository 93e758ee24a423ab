"""core.arrays.distinct against np.unique, the function it stands in for."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.arrays import distinct


@given(st.lists(st.integers(-5, 40), max_size=60))
def test_distinct_is_np_unique_with_index_and_inverse(values):
    keys = np.array(values, dtype=np.int64)
    got = distinct(keys)
    want = np.unique(keys, return_index=True, return_inverse=True)
    for mine, numpy_s in zip(got, want, strict=True):
        assert np.array_equal(mine, np.asarray(numpy_s).ravel())


@pytest.mark.parametrize("shape", [(0,), (7,), (3, 4)])
def test_distinct_flattens_like_np_unique(shape):
    keys = np.arange(int(np.prod(shape))).reshape(shape) % 3
    values, first, inverse = distinct(keys)
    assert inverse.shape == (keys.size,)
    assert np.array_equal(values[inverse], keys.ravel())
    assert np.array_equal(keys.ravel()[first], values)


def test_distinct_never_imports_numpy_ma():
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from pipeline.core.arrays import distinct\n"
        "distinct(np.array([3, 1, 3]))\n"
        "print('numpy.ma' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
