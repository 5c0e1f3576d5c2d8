"""Getting a real model in a test: skip with the install command when its package is missing,
except where ``EMBEDDING_LAB_REQUIRE_MODELS=1`` (set by ``.ci/run``): there a missing model fails."""
import os

import pytest

from core.encodings import EncodingUnavailable
from core.pretrained import ModelUnavailable


def required() -> bool:
    return os.environ.get("EMBEDDING_LAB_REQUIRE_MODELS", "") == "1"


def get(load, *args):
    """``load(*args)``, or skip (fail in CI) when the model's files are not installed."""
    try:
        return load(*args)
    except (ModelUnavailable, EncodingUnavailable) as err:
        if required():
            pytest.fail(f"{err} EMBEDDING_LAB_REQUIRE_MODELS=1 is set, so the real models must be "
                        "installed.", pytrace=False)
        pytest.skip(str(err))
