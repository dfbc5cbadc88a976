# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""SITL's RC receiver and the simulated transmitter: when it delivers, and what "off" means.

Each SITL boots with its receiver silent (``SIM_RC_FAIL 1`` from the runner's defaults file) and
the receiver starts delivering once the check's link to that SITL process is open, as a receiver
plugged in after the ground station connected.  ArduPilot names the protocol it decodes
("RCInput: decoding UDP (Pulses)") once, when it first decodes one, and only on the MAVLink links
it has already heard from; a receiver live from the first millisecond of the boot would announce
it before any check could be listening, after every restart too.

The transmitter switched off means *no pulses* (``SIM_RC_FAIL 1`` on the runner's control link,
never on the check's link) or *low throttle* (the receiver keeps delivering, the throttle below
``FS_THR_VALUE``, read from SITL with ``RCMAP_THROTTLE`` to know which channel that is).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .. import _
from ..demo.sitl_rc_input import FailsafeMode, FailsafeTransmitter, low_throttle_pwm
from .control import SitlControlLink

# What the control link reads from SITL in *low throttle* mode.
LOW_THROTTLE_PARAMETERS = ("FS_THR_ENABLE", "FS_THR_VALUE", "RCMAP_THROTTLE")
DEFAULT_THROTTLE_CHANNEL = 3


class SitlReceiver:
    """The receiver of the SITL processes the runner starts, switched through the control link.

    ``generation`` tells which SITL process runs now (the supervisor's count); ``note`` takes the
    runner's sentences for the console.
    """

    def __init__(
        self,
        transmitter: FailsafeTransmitter,
        failsafe_mode: FailsafeMode,
        rc_input_port: int,
        *,
        generation: Callable[[], int],
        note: Callable[[str], None],
    ) -> None:
        self.transmitter = transmitter
        self._failsafe_mode = failsafe_mode
        self._rc_input_port = rc_input_port
        self._generation = generation
        self._note = note
        self._lock = threading.Lock()
        self._control: SitlControlLink | None = None
        # The SITL process (generation) whose receiver delivers: None while none does.
        self._delivering_generation: int | None = None

    @property
    def parameters_to_read(self) -> tuple[str, ...]:
        """The parameters the control link reads from each SITL boot, for this failsafe mode."""
        return LOW_THROTTLE_PARAMETERS if self._failsafe_mode is FailsafeMode.LOW_THROTTLE else ()

    def attach(self, control: SitlControlLink) -> None:
        """Switch the receiver through ``control`` from now on (it is made after the receiver)."""
        self._control = control
        self.apply()

    @property
    def delivering(self) -> bool:
        """Whether the current SITL process's receiver delivers (the check's link to it opened)."""
        with self._lock:
            return self._delivering_generation == self._generation()

    def wanted_rc_fail(self) -> int:
        """``SIM_RC_FAIL`` as the receiver should be now: silent until the check listens, and in
        *no pulses* mode silent while the transmitter is off."""
        if not self.delivering:
            return 1
        if self._failsafe_mode is FailsafeMode.NO_PULSES and not self.transmitter.on:
            return 1
        return 0

    def apply(self) -> None:
        """Ask the control link for the ``SIM_RC_FAIL`` the receiver should have now."""
        control = self._control
        if control is not None:
            control.set_sim_rc_fail(self.wanted_rc_fail())

    def start_delivering(self, generation: int) -> None:
        """The check's link to SITL process ``generation`` is open: let its receiver deliver."""
        with self._lock:
            if generation != self._generation() or self._delivering_generation == generation:
                return
            self._delivering_generation = generation
        self._note(_("The check's link is open: the receiver starts delivering RC."))
        self.apply()

    def set_transmitter_on(self, on: bool) -> None:
        """Switch the simulated transmitter; in *no pulses* mode also ``SIM_RC_FAIL`` 0/1."""
        self.transmitter.set_on(on)
        self.apply()
        if on:
            self._note(_("Transmitter on: RC pulses to UDP {port}.").format(port=self._rc_input_port))
        elif self._failsafe_mode is FailsafeMode.NO_PULSES:
            self._note(_("Transmitter off: no RC pulses (SIM_RC_FAIL = 1)."))
        else:
            self._note(
                _("Transmitter off: the receiver holds the throttle at {pwm} µs.").format(
                    pwm=self.transmitter.low_throttle
                )
            )

    def parameter_read(self, name: str, value: float) -> None:
        """A parameter the control link read from SITL (on the link's thread)."""
        if name == "FS_THR_VALUE":
            low = low_throttle_pwm(value)
            self.transmitter.configure_throttle(low_pwm=low, channel=self._throttle_channel())
            self._note(
                _("FS_THR_VALUE is {value:g}: low throttle will be {low} µs.").format(value=value, low=low)
            )
        elif name == "RCMAP_THROTTLE":
            self.transmitter.configure_throttle(
                low_pwm=self.transmitter.low_throttle, channel=self._throttle_channel(value)
            )
        elif name == "FS_THR_ENABLE" and round(value) == 0:
            self._note(_("FS_THR_ENABLE is 0: a low throttle will not trigger an RC failsafe."))

    def _throttle_channel(self, value: float | None = None) -> int:
        if value is None:
            control = self._control
            value = None if control is None else control.parameters().get("RCMAP_THROTTLE")
        channel = DEFAULT_THROTTLE_CHANNEL if value is None else round(value)
        return channel if 1 <= channel <= self.transmitter.channel_count else DEFAULT_THROTTLE_CHANNEL
