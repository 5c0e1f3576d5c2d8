"""One check shared by the tests that pin a refusal word for word."""
import pytest


def refused(call, message, kind=ValueError):
    """Run ``call``; it must raise ``kind`` with exactly ``message``. Returns the error."""
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message
    return caught.value
