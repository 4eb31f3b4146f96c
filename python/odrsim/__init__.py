"""odr-sim from Python: run, compare, sweep, replay, mrc, bound and advise, as DataFrames.

Each function runs the ``odr-sim`` binary (``ODR_SIM``, else the one on ``PATH``) as the
command line would, into a report folder, and returns an :class:`Result`: a pandas DataFrame
with the columns of the command's main CSV, the folder's path (``.report``), every CSV it
wrote (``.tables``) and, in a notebook, its HTML report. Keyword arguments are the command's
options (``replications=3`` is ``--replications 3``; a list repeats the option; ``True`` is a
flag). A purge policy written in Python is passed as ``policy=MyPolicy``::

    import odrsim
    table = odrsim.compare("Scenarios/game.scn", replications=3)
    table[["policy", "redownload_bytes_mean"]]

An error raises :class:`OdrSimError` with odr-sim's one-line message.
"""
from ._api import (OdrSimError, Result, advise, binary, bound, compare, mrc, replay, run,
                   sweep)

__all__ = ["OdrSimError", "Result", "advise", "binary", "bound", "compare", "mrc", "replay", "run", "sweep"]
__version__ = "0.1.0"
