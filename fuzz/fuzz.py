# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz one target with atheris, libFuzzer's coverage-guided engine for Python.

Run: .venv/bin/python fuzz/fuzz.py TARGET [libFuzzer flags] [corpus folders or reproducer files]

TARGET is one of ``fuzz/targets.py``'s (``sitl-json``, ``rflysim``, ``xrp``, ``mavlink``,
``param``, ``steps``).  With no folder or file named, the fuzzer starts from the target's seed
corpus in the repository and what it learnt before, and writes what it learns to
``fuzz/findings/TARGET-corpus/`` (libFuzzer writes new inputs into the first folder it is given;
the seeds are only read).  Naming a file runs that one
input, which is how a reproducer is replayed.  ``-max_len`` defaults to the target's bound.

Only the package (``amc_rc_receiver``) is instrumented: libFuzzer's ``cov``/``ft`` figures count
our own code's edges, not pymavlink's, jsonschema's or the standard library's.
"""

from __future__ import annotations

import gc
import importlib
import sys
from pathlib import Path

import atheris
from targets import TARGETS, Escape

FINDINGS = Path(__file__).resolve().parent / "findings"


def _expected(spec: str) -> tuple[type[BaseException], ...]:
    """The documented error named ``module:Class``; none for ``""``."""
    if not spec:
        return ()
    module, name = spec.split(":")
    error = getattr(importlib.import_module(module), name)
    assert issubclass(error, BaseException)
    assert not issubclass(error, Escape)
    return (error,)


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1] not in TARGETS:
        raise SystemExit(f"usage: {argv[0]} {{{','.join(TARGETS)}}} [libFuzzer flags] [folders or files]")
    target = TARGETS[argv[1]]
    flags = [argument for argument in argv[2:] if argument.startswith("-")]
    paths = [argument for argument in argv[2:] if not argument.startswith("-")]
    if not any(flag.startswith("-max_len=") for flag in flags):
        flags.append(f"-max_len={target.max_len}")
    if not paths:
        work = FINDINGS / f"{target.name}-corpus"
        work.mkdir(parents=True, exist_ok=True)
        paths = [str(work), *(str(seed) for seed in target.seeds if seed.is_dir())]
    with atheris.instrument_imports(include=["amc_rc_receiver"]):
        harness = target.setup()
        expected = _expected(target.expected)
    # The package, pymavlink's dialect and jsonschema are some hundred thousand objects that live
    # for the whole run; frozen, the collector's full passes (every few inputs of the MAVLink
    # target, whose link objects form cycles) stop walking them: 50 ms each, most of its time.
    gc.freeze()

    def one_input(data: bytes) -> None:
        # a bare try costs less per input than contextlib.suppress
        try:  # noqa: SIM105
            harness(data)
        except expected:
            pass  # the documented error: anything else goes on to libFuzzer as an escape

    atheris.Setup([argv[0], *flags, *paths], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
