"""The one error of :mod:`odrsim`, below both the command functions and the plug-in host,
so that the package's modules import one way (``_api`` → ``_plugins`` → ``_errors``)."""
from __future__ import annotations

from typing import Sequence


class OdrSimError(RuntimeError):
    """odr-sim refused or failed: ``message`` is its one-line error, ``status`` its exit status."""

    def __init__(self, message: str, status: int, command: Sequence[str]):
        super().__init__(message)
        self.message = message
        self.status = status
        self.command = list(command)
