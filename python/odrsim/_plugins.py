"""Purge policies written in Python, run inside odr-sim by the Python host plug-in.

A policy is a class with ``select_victims(view)`` returning pack ids in removal order, and
optionally ``stored``, ``accessed``, ``released`` and ``removed`` (each given a pack: a named
tuple of id, size, last_use, last_use_order, stored_order, request_count, app, app_running,
preservation, purge_count). odr-sim makes one instance per run, in its own process: the class
must be importable from a ``.py`` file (not typed into a notebook cell).

The host plug-in (``_host.c``) is compiled on first use against this interpreter, into
``~/.cache/odrsim`` (or ``ODRSIM_CACHE``), and found by odr-sim through ``ODR_SIM_PYTHON_HOST``.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

from ._errors import OdrSimError

HERE = Path(__file__).resolve().parent


def host_library() -> str:
    """The Python host plug-in for this interpreter, compiled if it is not cached yet."""
    source = (HERE / "_host.c").read_bytes() + (HERE / "odrsim_policy.h").read_bytes()
    key = hashlib.sha256(source + sys.version.encode() + sys.base_prefix.encode()).hexdigest()[:16]
    cache = Path(os.environ.get("ODRSIM_CACHE", Path.home() / ".cache" / "odrsim"))
    library = cache / f"odrsim-python-host-{key}.so"
    if library.is_file():
        return str(library)
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OdrSimError(f"cannot use {cache} as the cache folder (ODRSIM_CACHE): {error.strerror}", 1,
                          ["mkdir", str(cache)]) from None
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    ldlibrary = sysconfig.get_config_var("LDLIBRARY") or f"libpython{sysconfig.get_python_version()}.so"
    libname = ldlibrary[3:].split(".so")[0].split(".a")[0]
    temporary = library.with_name(f"{library.name}.tmp.{os.getpid()}")
    compiler = shlex.split(os.environ.get("CC", "cc"))
    command = compiler + ["-std=c11", "-O2", "-fPIC", "-shared", "-I", str(HERE), "-I", sysconfig.get_path("include"),
                          f'-DODRSIM_PYTHON_HOME="{sys.base_prefix}"', str(HERE / "_host.c"), "-o", str(temporary),
                          "-L", libdir, f"-Wl,-rpath,{libdir}", f"-l{libname}", "-lpthread"]
    try:
        built = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise OdrSimError(f"cannot build the Python host plug-in: {compiler[0]}: {error.strerror}", 1, command) from None
    if built.returncode != 0:
        first = (built.stderr.strip().splitlines() or ["the compiler failed"])[0]
        raise OdrSimError(f"cannot build the Python host plug-in ({first}); a C compiler and Python's headers are needed", 1, command)
    try:
        os.replace(temporary, library)
    except OSError as error:
        raise OdrSimError(f"cannot put the Python host plug-in in {cache}: {error.strerror}", 1, command) from None
    return str(library)


def plugin_arguments(policy) -> tuple[str, str, dict[str, str]]:
    """(policy name, ``--policy-plugin`` value, environment) for a policy class or instance."""
    cls = policy if inspect.isclass(policy) else type(policy)
    if not callable(getattr(cls, "select_victims", None)):
        raise TypeError(f"{cls.__name__} has no select_victims(view) method: not a purge policy")
    try:
        source = inspect.getsourcefile(cls)
    except TypeError:
        source = None
    if not source or not os.path.isfile(source) or "." in cls.__qualname__:
        raise TypeError(f"{cls.__name__}: odr-sim runs a policy in its own process, so define the class at the top of a .py file")
    environment = {"ODR_SIM_PYTHON_HOST": host_library(), "ODR_SIM_PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return cls.__name__, f"{source}:{cls.__name__}", environment
