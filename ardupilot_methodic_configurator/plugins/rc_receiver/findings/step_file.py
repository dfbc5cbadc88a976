# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings about the inputs themselves: a vehicle value that differs from the step file, and
parameters the flight controller does not have."""

from __future__ import annotations

from collections.abc import Iterable

from .... import _
from ..snapshot import Finding, Severity
from .inputs import FindingInputs, number_text


def step_file_differs(inputs: FindingInputs) -> Iterable[Finding]:
    if inputs.step_file is None:
        return
    for name, file_value in inputs.step_values.items():
        value = inputs.values.get(name)
        if value is None or abs(value - file_value) <= 1e-6 * max(1.0, abs(value)):
            continue
        yield Finding(
            "step_file_differs",
            Severity.WARNING,
            _("{file} sets {name} = {file_value}; the flight controller has {value}.").format(
                file=inputs.step_file, name=name, file_value=number_text(file_value), value=number_text(value)
            ),
            _(
                "Upload the file (and reboot if {name} needs it) before the test, or the test checks "
                "the old value."
            ).format(name=name),
            name,
            value,
            file_value,
        )


def unavailable(inputs: FindingInputs) -> Iterable[Finding]:
    if not inputs.unavailable:
        return
    names = ", ".join(sorted(inputs.unavailable))
    yield Finding(
        "parameters_unavailable",
        Severity.INFO,
        _("The flight controller did not answer for {names}; the checks that need them were skipped.").format(
            names=names
        ),
        _("Older firmware may not have them; a weak telemetry link may lose the answers."),
    )
