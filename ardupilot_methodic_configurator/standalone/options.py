# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a person chooses for a check besides the device: the demo, the transmitter schedule, the
guided test's options and the exit statuses that report its verdict.

``DEMO_DEVICE`` names the embedded simulated vehicle where a pymavlink connection string would go;
the views use it without importing sockets.  Kept apart from the terminal view so that the command
line can offer these without importing the plugin modules: `__main__` registers plugins on its own
terms and reports a broken one instead of failing to start.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Final

from .. import _
from ..demo.setups import DEFAULT_SETUP, SETUPS, DemoChoice, DemoVehicle
from ..demo.transmitter import STICK_AXES, StickLayout

# The embedded simulated vehicle, in place of a pymavlink connection string.
DEMO_DEVICE: Final = "demo"


EXIT_PASSED = 0
EXIT_ERROR = 1  # no connection, a report that could not be written, another error
EXIT_USAGE = 2  # a wrong command line, as argparse exits
EXIT_FAILED = 3
EXIT_INCOMPLETE = 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for a program ended by Ctrl-C
# By verdict result ("PASSED", "FAILED", "INCOMPLETE").
EXIT_STATUS = {"PASSED": EXIT_PASSED, "FAILED": EXIT_FAILED, "INCOMPLETE": EXIT_INCOMPLETE}


def exit_status_help() -> str:
    return _(
        "exit status: 0 the receiver test PASSED; 3 it FAILED; 4 it is INCOMPLETE (a step is missing); "
        "1 no connection, a report that could not be written or another error; 2 a wrong command line"
    )


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """The guided test's options: the report file and the demo vehicle and set-up."""
    parser.add_argument(
        "--report",
        metavar="PATH",
        type=_report_path,
        help=_(
            "terminal view: write the evidence report to PATH.json and PATH.md when the run ends "
            "(a folder gets rc_receiver_report.json and .md)"
        ),
    )
    parser.add_argument(
        "--demo-vehicle",
        choices=[vehicle.value for vehicle in DemoVehicle],
        default=DemoVehicle.COPTER.value,
        help=_("demo: which vehicle the simulated one is (default copter)"),
    )
    parser.add_argument(
        "--demo-setup",
        choices=sorted(SETUPS),
        default=DEFAULT_SETUP,
        help=_(
            "demo: its receiver parameters and receiver failsafe, to show each finding (default {default})"
        ).format(default=DEFAULT_SETUP),
    )
    parser.add_argument(
        "--transmitter-order",
        metavar="ORDER",
        type=_channel_order,
        help=_(
            "demo and --sitl: the simulated transmitter's channel order, e.g. AETR (default: roll, pitch, "
            "throttle, yaw on CH1-CH4), TAER, or EATR (pitch and roll swapped)"
        ),
    )
    parser.add_argument(
        "--transmitter-reverse",
        metavar="STICK",
        choices=STICK_AXES,
        action="append",
        default=[],
        help=_("demo and --sitl: a stick the simulated transmitter reverses ({sticks}); repeatable").format(
            sticks=", ".join(STICK_AXES)
        ),
    )
    parser.epilog = exit_status_help()


def _channel_order(text: str) -> str:
    try:
        StickLayout(order=text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a channel order names A, E, T and R once each (e.g. AETR or TAER), not {text!r}").format(
                text=text
            )
        ) from None
    return text.upper()


def transmitter_layout(args: argparse.Namespace) -> StickLayout | None:
    """The simulated transmitter's channel order and reversed sticks, if the command line set any."""
    order = getattr(args, "transmitter_order", None)
    reversed_sticks = frozenset(getattr(args, "transmitter_reverse", None) or ())
    if order is None and not reversed_sticks:
        return None
    return StickLayout(order=order or StickLayout().order, reversed=reversed_sticks)


def _report_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(_("the report needs a file or folder name"))
    return text


def demo_choice(args: argparse.Namespace) -> DemoChoice:
    return DemoChoice(
        DemoVehicle(getattr(args, "demo_vehicle", "copter")),
        getattr(args, "demo_setup", DEFAULT_SETUP),
        transmitter_layout(args),
    )


@dataclass(frozen=True)
class TransmitterSchedule:
    """Switch the simulated transmitter off at ``off_after`` s and back on ``off_for`` s later."""

    off_after: float | None = None
    off_for: float | None = 1.5
    # The transmitter starts off and is switched on after this many seconds, as by a person who
    # connected first; the check is not told (it must see it from the flight controller).
    on_after: float | None = None

    def wanted_on(self, elapsed: float) -> bool:
        if self.on_after is not None and elapsed < self.on_after:
            return False
        if self.off_after is None or elapsed < self.off_after:
            return True
        return self.off_for is not None and elapsed >= self.off_after + self.off_for
