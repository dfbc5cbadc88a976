# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mode switch's part of the evidence report: the slots visited, as JSON and as a Markdown table.

Kept beside `report` so that each part of the report stays a module of its own size; the report
calls these with its snapshot and its JSON.  ArduPilot's refusal texts came from the vehicle, so
they pass through `readable_text` for the JSON and are escaped for Markdown like every such text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _
from .readings import readable_text
from .snapshot import ModeOutcome, ModeSlotVisit
from .wording.channels import mode_outcome_label

_MARKDOWN = str.maketrans({char: "\\" + char for char in "\\`*_[]<>#|~"})


def mode_slots_json(visits: Iterable[ModeSlotVisit], test_started_at: float) -> list[dict[str, Any]]:
    """The visited slots in slot order, times in seconds since the test started."""
    return [
        {
            "slot": visit.slot,
            "t_s": round(max(0.0, visit.at - test_started_at), 3),
            "pwm_us": visit.pwm,
            "mode_number": visit.mode_number,
            "mode_name": visit.mode_name,
            "reported_modes": list(visit.reported_modes),
            "failure_text": None if visit.failure_text is None else readable_text(visit.failure_text),
            "outcome": visit.outcome.value,
        }
        for visit in sorted(visits, key=lambda visit: visit.slot)
    ]


def _cell(value: object) -> str:
    return "–" if value is None or value == "" else str(value).translate(_MARKDOWN)


def mode_slots_markdown(slots: list[dict[str, Any]]) -> list[str]:
    """The Markdown lines of the slots table (none when no slot was visited)."""
    if not slots:
        return []
    headers = (_("slot"), _("mode"), _("PWM"), _("reported modes"), _("result"), _("ArduPilot said"))
    lines = ["", "| " + " | ".join(headers) + " |", "|---|---|---|---|---|---|"]
    for visit in slots:
        reported = ", ".join(str(number) for number in visit["reported_modes"])
        mode = visit["mode_name"] if visit["mode_name"] is not None else visit["mode_number"]
        outcome = mode_outcome_label(ModeOutcome(visit["outcome"]))
        cells = (visit["slot"], mode, visit["pwm_us"], reported, outcome, visit["failure_text"])
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return lines
