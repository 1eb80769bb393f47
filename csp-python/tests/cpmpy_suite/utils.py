"""The helpers CPMpy's test files import from their ``utils`` module (not in the sdist).

Only what the five test files run here use: ``skip_on_missing_pblib``, ``inclusive_range`` and
``lambda_assert``.
"""

import functools

import pytest

# CPMpy's PySAT interface raises this (an ImportError) when a pseudo-Boolean constraint needs PBLib.
_PBLIB_MESSAGE = "PB constraint"


def _skip_when_pblib_is_needed(test):
    """``test``, reporting as skipped only if it raised PySAT's missing-PBLib ImportError."""

    @functools.wraps(test)  # keeps the signature, which pytest reads for fixtures
    def wrapper(*args, **kwargs):
        try:
            return test(*args, **kwargs)
        except ImportError as e:
            if _PBLIB_MESSAGE in str(e):
                pytest.skip("`pypblib` not installed")
            raise

    return wrapper


def skip_on_missing_pblib(skip_on_exception_only: bool = False):
    """Marks a test (or every ``test_*`` method of a class) as possibly needing PySAT's PBLib.

    CPMpy skips the test outright when ``pypblib`` is missing unless ``skip_on_exception_only``;
    here the test always runs and is skipped only if it does reach PBLib (the solver under test
    is PySAT), so that a test which never needs it (every rcsp test) is not skipped for nothing.
    ``skip_on_exception_only`` is accepted for CPMpy's signature and changes nothing.
    """
    del skip_on_exception_only

    def decorate(obj):
        if isinstance(obj, type):
            for name in dir(obj):
                if name.startswith("test_") and callable(getattr(obj, name)):
                    setattr(obj, name, _skip_when_pblib_is_needed(getattr(obj, name)))
            return obj
        return _skip_when_pblib_is_needed(obj)

    return decorate


def inclusive_range(lb, ub):
    """``lb..=ub``, as CPMpy's bounds are inclusive."""
    return range(lb, ub + 1)


def lambda_assert(predicate):
    """A no-argument callback (a ``display=`` for ``solveAll``) asserting ``predicate()``."""

    def check():
        assert predicate()

    return check
