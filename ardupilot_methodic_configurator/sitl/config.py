# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a ``--sitl`` run is: its configuration, its ports, its state and how its exits read.

Pure records with no process behind them, so that the command line, the window and the tests can
build and check a configuration, and the views can show a status, without importing the runner
that starts processes and threads (`sitl.runner`).
"""

from __future__ import annotations

import enum
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from .. import _
from ..demo.sitl_rc_input import RC_INPUT_BASE_PORT, FailsafeMode
from ..demo.transmitter import StickLayout
from ..sim_bridge.protocols.sitl_servo_packet import SITL_JSON_BASE_PORT

MAVLINK_BASE_PORT = 5760
CONTROL_BASE_PORT = 5762
INSTANCE_PORT_STEP = 10
# SITL keeps the instance in one byte: 256 would silently be instance 0 again.
MAX_INSTANCE = 255
DEFAULT_HOME = "-35.363261,149.165230,584,353"


class SitlLink(enum.Enum):
    """How the check reaches SITL's SERIAL0: TCP (SITL's default), a serial line, or UDP."""

    TCP = "tcp"
    # A null-modem pair of pseudo-terminals (POSIX): the check takes the path a USB board takes.
    SERIAL = "serial"
    # SITL sends to the check (``udpclient``), as a telemetry bridge or companion computer does.
    UDP = "udp"


class SitlState(enum.Enum):
    NOT_STARTED = "not started"
    STARTING = "starting"
    RUNNING = "running"
    RESTARTING = "restarting"
    EXITED = "exited"
    STOPPED = "stopped"


def state_text(state: SitlState) -> str:
    """The state in the user's language."""
    texts = {
        SitlState.NOT_STARTED: _("not started"),
        SitlState.STARTING: _("starting"),
        SitlState.RUNNING: _("running"),
        SitlState.RESTARTING: _("restarting"),
        SitlState.EXITED: _("exited"),
        SitlState.STOPPED: _("stopped"),
    }
    return texts[state]


@dataclass(frozen=True)
class SitlPorts:
    """Every port of one SITL instance: SITL adds 10·N to each for ``--instance N``."""

    instance: int = 0

    def _moved(self, base: int) -> int:
        return base + INSTANCE_PORT_STEP * self.instance

    @property
    def mavlink(self) -> int:
        return self._moved(MAVLINK_BASE_PORT)

    @property
    def control(self) -> int:
        return self._moved(CONTROL_BASE_PORT)

    @property
    def rc_input(self) -> int:
        return self._moved(RC_INPUT_BASE_PORT)

    @property
    def json(self) -> int:
        return self._moved(SITL_JSON_BASE_PORT)


@dataclass(frozen=True)
class SitlConfig:
    """What ``--sitl``, ``--sitl-defaults``, ``--instance`` and ``--failsafe-mode`` asked for."""

    binary: Path
    defaults: tuple[Path, ...] = ()
    instance: int = 0
    failsafe_mode: FailsafeMode = FailsafeMode.NO_PULSES
    speedup: float = 1.0
    home: str = DEFAULT_HOME
    restart_when_exited: bool = True
    link: SitlLink = SitlLink.TCP
    baudrate: int = 115200
    # The simulated transmitter's channel order and reversed sticks.
    sticks: StickLayout = field(default_factory=StickLayout)

    @property
    def ports(self) -> SitlPorts:
        return SitlPorts(self.instance)

    def problem(self) -> str:
        """Why this configuration cannot run, or ``""``."""
        if not 0 <= self.instance <= MAX_INSTANCE:
            return _("The SITL instance must be between 0 and {maximum}.").format(maximum=MAX_INSTANCE)
        if not self.binary.is_file():
            return _("No SITL program at {path}.").format(path=self.binary)
        if not os.access(self.binary, os.X_OK):
            return _("{path} is not executable.").format(path=self.binary)
        for path in self.defaults:
            if not path.is_file():
                return _("No SITL defaults file at {path}.").format(path=path)
        if self.speedup <= 0:
            return _("The SITL speed-up must be above zero.")
        if self.link is SitlLink.SERIAL and os.name != "posix":
            return _("A serial link to SITL needs Linux or macOS (pseudo-terminals).")
        return ""

    def command(self, serial_device: Path | None = None, runner_defaults: Path | None = None) -> list[str]:
        """SITL's command line; paths are absolute because SITL runs in a temporary directory.

        ``serial_device``: SITL's end of the serial line, for `SitlLink.SERIAL`.
        ``runner_defaults``: the runner's own defaults file, read last so that it wins.
        """
        serial0 = "tcp:0"  # boot without waiting for a client, so discovery starts on a running SITL
        if self.link is SitlLink.SERIAL and serial_device is not None:
            serial0 = f"uart:{serial_device}:{self.baudrate}"
        elif self.link is SitlLink.UDP:
            serial0 = f"udpclient:127.0.0.1:{self.ports.mavlink}"
        command = [
            str(self.binary.resolve()),
            "--model",
            "JSON:127.0.0.1",
            "--speedup",
            f"{self.speedup:g}",
            "--instance",
            str(self.instance),
            "--home",
            self.home,
            "--serial0",
            serial0,
            # Each start from the defaults: a SIM_RC_FAIL saved before a restart must not survive it.
            "--wipe",
        ]
        defaults = [*self.defaults, *((runner_defaults,) if runner_defaults is not None else ())]
        if defaults:
            command += ["--defaults", ",".join(str(path.resolve()) for path in defaults)]
        return command


@dataclass(frozen=True)
class SitlStatus:
    state: SitlState
    generation: int
    pid: int | None
    restarts: int
    last_exit: str | None
    reads_json_rc: bool | None
    transmitter_on: bool
    sim_rc_fail: int | None
    # Whether the current SITL's receiver delivers (it stays silent until the check's link opens).
    receiver_delivering: bool = False


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = str(-returncode)
        return _("killed by {signal}").format(signal=name)
    return _("exit code {code}").format(code=returncode)
