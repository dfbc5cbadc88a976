# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulator runner's own MAVLink link to SITL: ``SIM_RC_FAIL`` and a few parameter reads.

Setting ``SIM_RC_FAIL`` is how the *simulator* makes SITL's receiver stop delivering pulses; it is
part of the simulated world, not of the check, so it travels on a link of its own: SITL's second
MAVLink port (SERIAL1, TCP 5762 + 10·N), never the check's connection, which only ever sends
SET_MESSAGE_INTERVAL.  The link is a plain loopback TCP socket with pymavlink's codec, kept by one
thread that reconnects after a SITL restart and re-applies the wanted ``SIM_RC_FAIL``: a restarted
SITL starts from its defaults, while the transmitter may still be off.

A PARAM_SET is repeated every ``RESEND_S`` until a PARAM_VALUE confirms it, because nothing else
tells the runner that SITL took it.  The link also tells when SITL has finished booting: its
HEARTBEAT leaves MAV_STATE_BOOT once ArduPilot's initialisation is done.  A SET_MESSAGE_INTERVAL
SITL handles before that is acknowledged but may be lost when the initialisation sets up its
streams (seen in one of three restarts), so the check connects only after it.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink

from .. import _
from ..connection.opening import GCS_SYSTEM_ID
from ..net.services import ThreadedService

# The same ground-station system id as the check; only the component tells the two links apart.
CONTROL_SYSTEM_ID = GCS_SYSTEM_ID
# MAV_COMP_ID_ONBOARD_COMPUTER: tells the runner's link apart from the check (component 190).
CONTROL_COMPONENT_ID = 191
SIM_RC_FAIL = "SIM_RC_FAIL"
RESEND_S = 0.5
READ_RETRY_S = 1.0
RECONNECT_S = 0.5
CONNECT_TIMEOUT_S = 1.0
_WAKEUP_S = 0.05
_RECV_BYTES = 65536

_AUTOPILOT_ARDUPILOT = int(mavlink.MAV_AUTOPILOT_ARDUPILOTMEGA)
_TYPE_GCS = int(mavlink.MAV_TYPE_GCS)
_NOT_BOOTED = frozenset({int(mavlink.MAV_STATE_UNINIT), int(mavlink.MAV_STATE_BOOT)})
_PARAM_REAL32 = int(mavlink.MAV_PARAM_TYPE_REAL32)


class _SocketWriter:
    """The ``file`` pymavlink's encoder writes to: the whole frame or an ``OSError``."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def write(self, data: bytes) -> None:
        self._sock.sendall(data)


class SitlControlLink(ThreadedService):
    """Keeps ``SIM_RC_FAIL`` at the wanted value and reads ``read_parameters`` once per SITL boot.

    ``on_event`` receives readable sentences for the simulator console; ``on_parameter`` receives
    each parameter read (name, value) on the link's thread.
    """

    def __init__(
        self,
        port: int,
        *,
        read_parameters: Iterable[str] = (),
        on_event: Callable[[str], None] = lambda _text: None,
        on_parameter: Callable[[str, float], None] = lambda _name, _value: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__("sitl-control-link")
        self._address = ("127.0.0.1", port)
        self._wanted_reads = tuple(read_parameters)
        self._on_event = on_event
        self._on_parameter = on_parameter
        self._clock = clock
        self._lock = threading.Lock()
        self._wanted_rc_fail: int | None = None
        self._confirmed_rc_fail: int | None = None
        self._parameters: dict[str, float] = {}
        self._sock: socket.socket | None = None
        self._mav: Any = None
        self._target: tuple[int, int] | None = None
        self._last_set_at = -RESEND_S
        self._last_read_at = -READ_RETRY_S
        self._drop_requested = False
        self._booted = threading.Event()
        # Which SITL process (the runner's generation) this link is meant to talk to.
        self._generation = 0

    # ---------------------------------------------------------------- API for the runner
    def set_sim_rc_fail(self, value: int) -> None:
        """Ask for ``SIM_RC_FAIL = value``; sent at once if connected, else after connecting."""
        with self._lock:
            self._wanted_rc_fail = value
        self._last_set_at = -RESEND_S

    @property
    def wanted_rc_fail(self) -> int | None:
        with self._lock:
            return self._wanted_rc_fail

    @property
    def confirmed_rc_fail(self) -> int | None:
        """The ``SIM_RC_FAIL`` value SITL last reported on this link (None before a report)."""
        with self._lock:
            return self._confirmed_rc_fail

    @property
    def connected(self) -> bool:
        return self._sock is not None and self._target is not None

    def parameters(self) -> dict[str, float]:
        with self._lock:
            return dict(self._parameters)

    def booted(self, generation: int) -> bool:
        """Whether SITL process ``generation`` has finished booting, as seen on this link."""
        return self._generation == generation and self._booted.is_set()

    def wait_booted(self, generation: int, timeout: float) -> bool:
        timeout = max(0.0, timeout)
        if not self._booted.wait(timeout):
            return False
        if self._generation == generation:
            return True
        # Booted, but another process than the one asked about: do not let the caller spin.
        time.sleep(min(timeout, _WAKEUP_S))
        return False

    def reconnect(self, generation: int) -> None:
        """SITL process ``generation`` replaced the last one: connect to it, re-read, re-apply."""
        self._booted.clear()
        self._generation = generation
        self._drop_requested = True

    # ---------------------------------------------------------------- thread
    def _close(self) -> None:
        self._disconnect()

    def _run(self) -> None:
        while not self._stop_event.is_set():
            if self._drop_requested:
                self._drop_requested = False
                self._disconnect()
            sock = self._sock
            if sock is None:
                if not self._connect():
                    self._stop_event.wait(RECONNECT_S)
                continue
            try:
                readable, _w, _x = select.select([sock], [], [], _WAKEUP_S)
                if readable:
                    data = sock.recv(_RECV_BYTES)
                    if not data:
                        self._disconnect()
                        continue
                    self._handle(data)
                self._send_due()
            except (OSError, ValueError):
                # SITL went away mid-exchange; the next round reconnects.
                self._disconnect()

    def _connect(self) -> bool:
        try:
            sock = socket.create_connection(
                self._address, timeout=CONNECT_TIMEOUT_S, source_address=("127.0.0.1", 0)
            )
        except OSError:
            return False
        sock.settimeout(CONNECT_TIMEOUT_S)
        mav = mavlink.MAVLink(
            _SocketWriter(sock), srcSystem=CONTROL_SYSTEM_ID, srcComponent=CONTROL_COMPONENT_ID
        )
        mav.robust_parsing = True
        self._sock, self._mav, self._target = sock, mav, None
        with self._lock:
            self._confirmed_rc_fail = None
            self._parameters = {}
        self._last_set_at = -RESEND_S
        self._last_read_at = -READ_RETRY_S
        return True

    def _disconnect(self) -> None:
        self._booted.clear()
        sock, self._sock, self._mav, self._target = self._sock, None, None, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    def _handle(self, data: bytes) -> None:
        messages = self._mav.parse_buffer(data) or []
        for message in messages:
            kind = message.get_type()
            if kind == "HEARTBEAT":
                self._heartbeat(message)
            elif kind == "PARAM_VALUE":
                self._param_value(_param_name(message.param_id), float(message.param_value))

    def _heartbeat(self, message: Any) -> None:
        if message.autopilot != _AUTOPILOT_ARDUPILOT or message.type == _TYPE_GCS:
            return
        source = (message.get_srcSystem(), message.get_srcComponent())
        if self._target is None:
            self._target = source
            self._on_event(
                _("Simulator control link to SITL port {port} is up.").format(port=self._address[1])
            )
        if source == self._target and message.system_status not in _NOT_BOOTED and not self._booted.is_set():
            self._booted.set()
            self._on_event(_("SITL has finished booting."))

    def _param_value(self, name: str, value: float) -> None:
        report = False
        with self._lock:
            if name == SIM_RC_FAIL:
                confirmed = round(value)
                report = confirmed != self._confirmed_rc_fail and confirmed == self._wanted_rc_fail
                self._confirmed_rc_fail = confirmed
            if name in self._wanted_reads and name not in self._parameters:
                self._parameters[name] = value
                new_read = True
            else:
                new_read = False
        if report:
            self._on_event(_("SITL confirmed SIM_RC_FAIL = {value}.").format(value=round(value)))
        if new_read:
            self._on_parameter(name, value)

    def _send_due(self) -> None:
        if self._target is None or self._mav is None:
            return
        now = self._clock()
        system, component = self._target
        with self._lock:
            wanted, confirmed = self._wanted_rc_fail, self._confirmed_rc_fail
            missing = [name for name in self._wanted_reads if name not in self._parameters]
        if wanted is not None and wanted != confirmed and now - self._last_set_at >= RESEND_S:
            self._last_set_at = now
            self._mav.param_set_send(system, component, SIM_RC_FAIL.encode(), float(wanted), _PARAM_REAL32)
        if missing and now - self._last_read_at >= READ_RETRY_S:
            self._last_read_at = now
            for name in missing:
                self._mav.param_request_read_send(system, component, name.encode(), -1)


def _param_name(raw: object) -> str:
    if isinstance(raw, bytes):
        raw = raw.decode("ascii", "replace")
    return str(raw).rstrip("\0")
