"""The functions of :mod:`odrsim`: one odr-sim command each, through the binary."""
from __future__ import annotations

import html
import json
import os
import re
import signal
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import pandas as pd

from ._errors import OdrSimError
from ._plugins import plugin_arguments

PathLike = Union[str, "os.PathLike[str]"]


class Result(pd.DataFrame):
    """The command's main table, with the report folder (``report``) and every CSV it wrote
    (``tables``, by file name without ``.csv``). In a notebook it shows the HTML report."""

    _metadata = ["report", "tables", "command", "stdout"]

    @property
    def _constructor(self):
        return Result

    def _repr_html_(self) -> str:  # noqa: D401 - notebook display
        table = pd.DataFrame(self)._repr_html_() or ""
        report = getattr(self, "report", None)
        page = Path(report) / "report.html" if report else None
        if page is None or not page.is_file():
            return table
        # The report is one self-contained page (its charts inline): shown in a frame, whole.
        source = html.escape(page.read_text(encoding="utf-8"), quote=True)
        return (f'<iframe srcdoc="{source}" style="width:100%;height:720px;border:1px solid #ddd"></iframe>'
                f"<details><summary>{html.escape(page.name)} — main table</summary>{table}</details>")


def binary() -> str:
    """The odr-sim executable: ``ODR_SIM`` if set, else ``odr-sim`` on ``PATH``."""
    given = os.environ.get("ODR_SIM")
    if given:
        if not (os.path.isfile(given) and os.access(given, os.X_OK)):
            raise OdrSimError(f"ODR_SIM={given}: not an executable file", 1, [given])
        return given
    found = shutil.which("odr-sim")
    if not found:
        raise OdrSimError("odr-sim not found: put it on PATH (the repository's ./odr-sim installs it) or set ODR_SIM", 1, ["odr-sim"])
    return found


def _options(options: Mapping[str, Any]) -> list[str]:
    """Keyword arguments as command-line options, in the order given."""
    words: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    return words


def _policies(policy: Any) -> tuple[list[str], dict[str, str]]:
    """``policy=``: a name, a Python policy class (or instance), or a list of them."""
    items = policy if isinstance(policy, (list, tuple)) else [policy]
    words: list[str] = []
    environment: dict[str, str] = {}
    for item in items:
        if item is None:
            continue
        if isinstance(item, str):
            words += ["--policy", item]
        else:
            name, plugin, extra = plugin_arguments(item)
            words += ["--policy-plugin", plugin, "--policy", name]
            environment.update(extra)
    return words, environment


def failure_line(stderr: str, status: int) -> str:
    """odr-sim's own line from a failed run's standard error: its ``odr-sim: …`` or
    ``FILE:LINE:COLUMN: …`` line, never a line of a backtrace; for a crash, what crashed."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    own = [line for line in lines if line.startswith("odr-sim: ") or re.match(r"^[^\s:][^:]*:\d+(:\d+)?: \S", line)]
    if own and status > 0:
        return own[-1]
    fatal = next((line for line in lines if "Fatal error:" in line), None)
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        what = fatal or (own[-1] if own else None)
        return f"odr-sim crashed ({name})" + (f": {what}" if what else "")
    if fatal:
        return f"odr-sim crashed (exit status {status}): {fatal}"
    return f"odr-sim exited with status {status}" + (f": {lines[-1]}" if lines and len(lines) == 1 else "")


def _command(command: str, target: Optional[PathLike], main: str, out: Optional[PathLike], policy: Any,
             options: Mapping[str, Any], arguments: Iterable[str] = (), focus: Optional[str] = None) -> Result:
    """``focus``: under ``app=``, the JSON key whose rows are the app's answer (its own metrics,
    the device's where only the device has one), the table the terminal printed; the command
    then prints JSON, and ``.tables`` keeps every file and gains that key's table."""
    folder = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix=f"odrsim-{command}-"))
    policy_words, environment = _policies(policy)
    words = [binary(), command] + ([os.fspath(target)] if target is not None else []) + list(arguments)
    focused = focus is not None and options.get("app") is not None
    if focused:
        options = {**options, "format": "json"}
    words += policy_words + _options(options) + ["--out", os.fspath(folder)]
    completed = subprocess.run(words, capture_output=True, text=True, env={**os.environ, **environment})
    if completed.returncode != 0:
        raise OdrSimError(failure_line(completed.stderr, completed.returncode), completed.returncode, words)
    tables = {path.stem: pd.read_csv(path) for path in sorted(folder.glob("*.csv"))}
    if main not in tables:
        raise OdrSimError(f"odr-sim wrote no {main}.csv in {folder}", 1, words)
    if focused:
        tables[focus] = pd.DataFrame(json.loads(completed.stdout)[focus])
        main = focus
    result = Result(tables[main])
    result.report = str(folder)
    result.tables = tables
    result.command = words
    result.stdout = completed.stdout
    return result


def run(scenario: PathLike, *, policy: Any = None, out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim run``: one row per policy and replication (summary.csv); with ``app=``, that
    app's rows as the terminal printed them (``.tables["summary_app"]``)."""
    return _command("run", scenario, "summary", out, policy, options, focus="summary_app")


def compare(scenario: PathLike, *, policy: Any = None, out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim compare``: one row per policy, means and intervals (comparison.csv); with
    ``app=``, the app's: its own metrics and the device's where only the device has one
    (over-purge, the user's refused data), as the terminal and the report show them
    (``.tables["comparison_app"]``, the columns of comparison.csv)."""
    return _command("compare", scenario, "comparison", out, policy, options, focus="comparison_app")


def sweep(study: PathLike, *, policy: Any = None, out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim sweep``: one row per point and policy (comparison.csv)."""
    return _command("sweep", study, "comparison", out, policy, options)


def replay(trace: PathLike, *, capacity: Union[str, Sequence[str]] = "10%", policy: Any = None,
           out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim replay``: one row per policy and capacity (summary.csv)."""
    capacities = capacity if isinstance(capacity, (list, tuple)) else [capacity]
    return _command("replay", trace, "summary", out, policy, {"capacity": ",".join(map(str, capacities)), **options})


def mrc(trace: PathLike, *, out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim mrc``: the LRU miss-ratio curve (mrc.csv)."""
    return _command("mrc", trace, "mrc", out, None, options)


def bound(trace: PathLike, *, capacity: str = "10%", out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim bound``: offline bounds on misses (bounds.csv)."""
    return _command("bound", trace, "bounds", out, None, {"capacity": capacity, **options})


def advise(scenario: PathLike, *, app: str, policy: Any = None, out: Optional[PathLike] = None, **options: Any) -> Result:
    """``odr-sim advise``: every layout tried, its move and objective (layouts.csv);
    ``.tables["layout"]`` is the advised layout, ``.report`` holds advised.scn."""
    return _command("advise", scenario, "layouts", out, policy, {"app": app, **options})
