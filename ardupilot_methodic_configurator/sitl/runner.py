# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a real ArduPilot SITL for the check: the process, its physics, its transmitter, its console.

Why this module is long: `SitlRunner` is one owner of one process and the helpers wired to it;
the supervisor thread, the console reader and ``stop()`` share its lock, its generation and its
helpers, so split apart each part would reach into the others' state.  The pure records (config,
ports, state, status) are in `sitl.config`.

``amc-rc-receiver --sitl PATH`` starts, all on 127.0.0.1 and all moved by +10·N for ``--instance N``:

- the JSON physics back end (``PhysicsBackend``) on an ephemeral port, behind a ``UdpRelay`` that
  listens where SITL sends its servo packets (9002 + 10·N), so the bridge panel shows the link;
- the simulated transmitter, sent as RC-input datagrams to 5501 + 10·N (the only RC path of
  mid-2025 builds) and put in the JSON replies too, for builds that read ``rc`` (detected from
  SITL's "JSON received:" block, never assumed);
- the simulator control link on SITL's second MAVLink port (5762 + 10·N), which sets
  ``SIM_RC_FAIL`` for the *no pulses* failsafe and reads ``FS_THR_VALUE`` for *low throttle*;
- SITL itself, ``--model JSON:127.0.0.1 --serial0 tcp:0`` (boots without waiting for a client),
  in a temporary working directory (it writes eeprom.bin and logs there), in its own process
  group, with its console captured line by line into a bounded ``ConsoleLog``.

Each SITL boots with its receiver silent (``SIM_RC_FAIL 1`` from the runner's own defaults file,
which also sets the physics rate, ``SIM_RATE_HZ``) and the receiver starts delivering once the
check's link to that SITL is open (``connect``), as a receiver plugged in after the ground station
connected.  ArduPilot names the protocol it decodes
("RCInput: decoding UDP (Pulses)") once, when it first decodes one, and only on the MAVLink links
it has already heard from; a receiver live from the first millisecond of the boot would announce
it before any check could be listening, after every restart too.

One supervisor thread owns the process: it starts SITL, waits for it, and restarts it when it
exits on its own (killed, crashed) so that a session survives a SITL restart; the check follows
through ``generation``.  The process is started by that long-lived thread because on Linux it is
also told to die with it (``PR_SET_PDEATHSIG``): SITL exits when its parent dies, but not while it
is stalled waiting for physics, which is exactly its state once this process is gone.

``stop()`` ends SITL with SIGTERM to its group and SIGKILL after ``TERM_GRACE_S`` (a stalled SITL
ignores SIGTERM), then the helpers, and removes the working directory; it is idempotent and safe
from ``finally`` blocks and ``atexit``.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Protocol

from .. import _
from ..demo.physics_backend import PhysicsBackend
from ..demo.sitl_rc_input import (
    FailsafeMode,
    FailsafeTransmitter,
    RcInputSender,
    low_throttle_pwm,
)
from ..sim_bridge.protocols.names import ARDUPILOT_JSON
from ..sim_bridge.relay import UdpRelay
from ..sim_bridge.relay_config import RelayConfig
from .config import SitlConfig, SitlLink, SitlState, SitlStatus, describe_exit, state_text
from .console import ConsoleLog, JsonKeysWatch, bounded_lines
from .control import SIM_RC_FAIL, SitlControlLink
from .null_modem import STATION_TO_VEHICLE, NullModem

# A restarted SITL sends servo packets from a new port; the relay follows once the old one is quiet.
RELAY_RELEARN_S = 1.0
# ArduPilot's own USB vendor and product ids (pid.codes), as its boards enumerate.
SITL_USB_IDS = (0x1209, 0x5740)
TERM_GRACE_S = 3.0
KILL_WAIT_S = 5.0
RESTART_DELAY_S = 1.0
# A SITL that exits by itself this soon after starting is failing (bad option, port in use), not
# crashing now and then: it is not started again.  One killed by a signal always is.
MIN_RUN_BEFORE_RESTART_S = 3.0
MAX_RESTARTS = 20
CONNECT_RETRY_S = 0.25
LOW_THROTTLE_PARAMETERS = ("FS_THR_ENABLE", "FS_THR_VALUE", "RCMAP_THROTTLE")
# Read after every other defaults file: the receiver stays silent until the check listens, and
# SITL steps its physics at 400 Hz, the loop rate of ArduCopter and QuadPlane (Plane and Rover run
# at 50 Hz), which ArduPilot's JSON interface asks SIM_RATE_HZ to stay above.  The default 1,200 Hz
# made the Python back end answer three times as many frames for a vehicle that stands on the
# ground: measured over an 11 s check on ArduCopter, 6.9 s of CPU in this process and 2.2 s in
# SITL at 1,200 Hz, 3.1 s and 1.3 s at 400 Hz.
RUNNER_DEFAULTS_NAME = "runner-defaults.parm"
PHYSICS_RATE_HZ = 400
RUNNER_DEFAULTS = f"{SIM_RC_FAIL} 1\nSIM_RATE_HZ {PHYSICS_RATE_HZ}\n"
# How long the check's first bytes may take through the serial cable before the receiver starts.
LINK_CARRY_WAIT_S = 2.0
_PR_SET_PDEATHSIG = 1


class _FlightControllerLike(Protocol):
    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str: ...


def _parent_death_signal() -> Callable[[], None] | None:
    """A pre-exec hook that makes the child get SIGKILL when the thread that started it ends (Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def hook() -> None:
        # Only an already-resolved C call: nothing here may take a Python lock in the child.
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)

    return hook


_RUNNERS: weakref.WeakSet[SitlRunner] = weakref.WeakSet()


@atexit.register
def _stop_every_runner() -> None:
    # A last resort for an interpreter that exits without its owner's finally (e.g. sys.exit in a
    # thread); the normal path is the session's close().
    for runner in list(_RUNNERS):
        with contextlib.suppress(Exception):
            runner.stop()


class SitlRunner:
    """One SITL with everything around it; ``start()`` once, ``stop()`` any number of times."""

    def __init__(
        self,
        config: SitlConfig,
        *,
        clock: Callable[[], float] = time.monotonic,
        serial_tap: Callable[[int, bytes], None] | None = None,
    ) -> None:
        self.config = config
        # Sees the bytes of a serial SERIAL0 line (`NullModem`'s tap), for a proof of what was sent.
        self._serial_tap = serial_tap
        self.ports = config.ports
        self._clock = clock
        self.console = ConsoleLog(clock=clock)
        self.transmitter = FailsafeTransmitter(
            config.failsafe_mode, vehicle_ready=self._booted, layout=config.sticks
        )
        self._json_keys = JsonKeysWatch()
        self._lock = threading.RLock()
        self._stop_event = threading.Event()
        self._state = SitlState.NOT_STARTED
        self._generation = 0
        self._restarts = 0
        self._last_exit: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._workdir: Path | None = None
        self._supervisor: threading.Thread | None = None
        self._readers: list[threading.Thread] = []
        self._backend: PhysicsBackend | None = None
        self._relay: UdpRelay | None = None
        self._rc_sender: RcInputSender | None = None
        self._control: SitlControlLink | None = None
        self._started = False
        # SERIAL0 as a serial line (`SitlLink.SERIAL`): the cable, and the name its next plug takes.
        self._modem: NullModem | None = None
        self._next_station_name: str | None = None
        # In the working folder: every SITL reads it last (see RUNNER_DEFAULTS_NAME).
        self._runner_defaults: Path | None = None
        # The SITL process (generation) whose receiver delivers: None while none does.
        self._receiver_generation: int | None = None

    # ---------------------------------------------------------------- queries
    @property
    def device(self) -> str:
        """The check's connection: SITL's first MAVLink port (SERIAL0), over the configured link."""
        if self.config.link is SitlLink.SERIAL:
            modem = self._modem
            return str(modem.station_path) if modem is not None else ""
        if self.config.link is SitlLink.UDP:
            return f"udpin:127.0.0.1:{self.ports.mavlink}"
        return f"tcp:127.0.0.1:{self.ports.mavlink}"

    def virtual_ports(self) -> list[Any]:
        """SITL's serial line as the port list shows a USB flight controller: ArduPilot's USB ids
        and a serial number of its own, so a check finds it again under a new name."""
        modem = self._modem
        if modem is None or not modem.plugged:
            return []
        from serial.tools.list_ports_common import ListPortInfo  # noqa: PLC0415

        port = ListPortInfo(str(modem.station_path), skip_link_detection=True)
        port.vid, port.pid = SITL_USB_IDS
        port.serial_number = f"SITL{self.config.instance}"
        port.location = f"sitl-{self.config.instance}"
        port.description = port.product = _("ArduPilot SITL (SERIAL0)")
        return [port]

    def restart_board(self, station_name: str | None = None) -> int | None:
        """Reboot SITL as a USB board reboots: its serial device vanishes while it restarts and
        comes back, under ``station_name`` if given (as Linux may name it ``ttyACM1``)."""
        self._next_station_name = station_name
        return self.kill_sitl()

    @property
    def relays(self) -> tuple[UdpRelay, ...]:
        return () if self._relay is None else (self._relay,)

    @property
    def generation(self) -> int:
        """How many times SITL has been started; a change means the check must reconnect."""
        with self._lock:
            return self._generation

    @property
    def transmitter_on(self) -> bool:
        return self.transmitter.on

    @property
    def running(self) -> bool:
        with self._lock:
            return self._state in (SitlState.STARTING, SitlState.RUNNING, SitlState.RESTARTING)

    @property
    def process_id(self) -> int | None:
        with self._lock:
            process = self._process
            return None if process is None or process.poll() is not None else process.pid

    @property
    def control(self) -> SitlControlLink | None:
        return self._control

    @property
    def rc_sender(self) -> RcInputSender | None:
        return self._rc_sender

    def status(self) -> SitlStatus:
        control = self._control
        with self._lock:
            return SitlStatus(
                state=self._state,
                generation=self._generation,
                pid=None if self._process is None or self._process.poll() is not None else self._process.pid,
                restarts=self._restarts,
                last_exit=self._last_exit,
                reads_json_rc=self._json_keys.reads_rc,
                transmitter_on=self.transmitter.on,
                sim_rc_fail=None if control is None else control.confirmed_rc_fail,
                receiver_delivering=self._receiver_delivering(),
            )

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> str:
        """Start everything; ``""`` or a readable reason (then nothing is left running)."""
        with self._lock:
            if self._started:
                return ""
            self._started = True
        problem = self.config.problem()
        if problem:
            return problem
        _RUNNERS.add(self)
        try:
            self._start_helpers()
        except OSError as error:
            self.stop()
            return _("The SITL helpers could not start: {error}").format(error=error.strerror or error)
        self._workdir = Path(tempfile.mkdtemp(prefix=f"amc-rc-receiver-sitl{self.config.instance}-"))
        self._runner_defaults = self._workdir / RUNNER_DEFAULTS_NAME
        self._runner_defaults.write_text(RUNNER_DEFAULTS, encoding="ascii")
        if self.config.link is SitlLink.SERIAL:
            self._modem = NullModem(
                self._workdir / "dev", baudrate=self.config.baudrate, tap=self._serial_tap
            )
        self._note(
            _(
                "SITL instance {instance}: MAVLink TCP {mavlink}, RC input UDP {rc}, JSON physics UDP {json}."
            ).format(
                instance=self.config.instance,
                mavlink=self.ports.mavlink,
                rc=self.ports.rc_input,
                json=self.ports.json,
            )
        )
        supervisor = threading.Thread(target=self._supervise, name="sitl-supervisor", daemon=True)
        self._supervisor = supervisor
        with self._lock:
            self._state = SitlState.STARTING
        supervisor.start()
        return ""

    def _booted(self) -> bool:
        """Whether the current SITL process has finished booting, as its control link saw it."""
        control = self._control
        return control is not None and control.booted(self.generation)

    def _start_helpers(self) -> None:
        backend = PhysicsBackend(transmitter=self.transmitter)
        self._backend = backend
        backend.start()
        relay = UdpRelay(
            RelayConfig(
                name=_("SITL JSON (instance {instance})").format(instance=self.config.instance),
                protocol=ARDUPILOT_JSON,
                listen=("127.0.0.1", self.ports.json),
                target=backend.address,
                relearn_after_s=RELAY_RELEARN_S,
            ),
            clock=self._clock,
        )
        self._relay = relay
        relay.start()
        sender = RcInputSender(self.transmitter, ("127.0.0.1", self.ports.rc_input))
        self._rc_sender = sender
        sender.start()
        low_throttle = self.config.failsafe_mode is FailsafeMode.LOW_THROTTLE
        control = SitlControlLink(
            self.ports.control,
            read_parameters=LOW_THROTTLE_PARAMETERS if low_throttle else (),
            on_event=self._note,
            on_parameter=self._parameter_read,
        )
        self._control = control
        self._apply_receiver()
        control.start()

    def stop(self) -> None:
        """Stop SITL (SIGTERM, SIGKILL after a grace period) and every helper; idempotent."""
        with self._lock:
            if self._state is SitlState.STOPPED:
                return
            self._stop_event.set()
            process = self._process
        supervisor = self._supervisor
        if supervisor is not None and supervisor is not threading.current_thread():
            # The supervisor ends SITL itself: its own end would SIGKILL SITL at once (see
            # _parent_death_signal) before SIGTERM had its chance.
            supervisor.join(TERM_GRACE_S + KILL_WAIT_S + 1.0)
        if process is not None:
            _end_process_group(process)
        for reader in self._readers:
            reader.join(2.0)
        if self._modem is not None:
            self._modem.close()
        for part in (self._control, self._rc_sender, self._relay, self._backend):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.stop()
        with self._lock:
            self._state = SitlState.STOPPED
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
        _RUNNERS.discard(self)

    def kill_sitl(self) -> int | None:
        """Kill the SITL process (as a crash would); the supervisor restarts it.  Returns its pid."""
        with self._lock:
            process = self._process
        if process is None or process.poll() is not None:
            return None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        return process.pid

    # ---------------------------------------------------------------- the transmitter
    def set_transmitter_on(self, on: bool) -> str:
        """Switch the simulated transmitter; in *no pulses* mode also ``SIM_RC_FAIL`` 0/1."""
        self.transmitter.set_on(on)
        self._apply_receiver()
        if on:
            self._note(_("Transmitter on: RC pulses to UDP {port}.").format(port=self.ports.rc_input))
        elif self.config.failsafe_mode is FailsafeMode.NO_PULSES:
            self._note(_("Transmitter off: no RC pulses (SIM_RC_FAIL = 1)."))
        else:
            self._note(
                _("Transmitter off: the receiver holds the throttle at {pwm} µs.").format(
                    pwm=self.transmitter.low_throttle
                )
            )
        return ""

    # ---------------------------------------------------------------- the receiver
    def _receiver_delivering(self) -> bool:
        """Whether the current SITL process's receiver delivers (the check's link to it opened)."""
        with self._lock:
            return self._receiver_generation == self._generation

    def _wanted_rc_fail(self) -> int:
        """``SIM_RC_FAIL`` as the receiver should be now: silent until the check listens, and in
        *no pulses* mode silent while the transmitter is off."""
        if not self._receiver_delivering():
            return 1
        if self.config.failsafe_mode is FailsafeMode.NO_PULSES and not self.transmitter.on:
            return 1
        return 0

    def _apply_receiver(self) -> None:
        control = self._control
        if control is not None:
            control.set_sim_rc_fail(self._wanted_rc_fail())

    def _start_receiver(self, generation: int) -> None:
        """The check's link to SITL process ``generation`` is open: let its receiver deliver."""
        modem = self._modem
        if modem is not None:
            # The check's hello (its first parameter read) must be through the cable before the
            # receiver is first decoded.
            modem.wait_carried(STATION_TO_VEHICLE, LINK_CARRY_WAIT_S)
        with self._lock:
            if generation != self._generation or self._receiver_generation == generation:
                return
            self._receiver_generation = generation
        self._note(_("The check's link is open: the receiver starts delivering RC."))
        self._apply_receiver()

    # ---------------------------------------------------------------- the check's connection
    def connect(
        self, flight_controller: _FlightControllerLike, *, baudrate: int = 115200, timeout: float = 5.0
    ) -> str:
        """Connect ``flight_controller`` to SITL once it has booted, for up to ``timeout`` s.

        Interval requests SITL handles while still booting may be lost (see ``sitl.control``),
        and the check asks for its streams as soon as it is connected; so it waits for the boot
        to end (as long as the timeout allows), then retries while SITL's port is not open.
        """
        deadline = self._clock() + timeout
        while True:
            self._wait_booted(deadline)
            generation = self.generation
            remaining = deadline - self._clock()
            error = flight_controller.connect(self.device, baudrate=baudrate, timeout=max(remaining, 0.5))
            if not error:
                self._start_receiver(generation)
                return ""
            with self._lock:
                state, last_exit = self._state, self._last_exit
            if state in (SitlState.EXITED, SitlState.STOPPED, SitlState.NOT_STARTED):
                return _("ArduPilot SITL is not running ({reason}); see its console output.").format(
                    reason=last_exit or state_text(state)
                )
            if self._clock() >= deadline or self._stop_event.wait(CONNECT_RETRY_S):
                return error

    def _wait_booted(self, deadline: float) -> None:
        """Wait until the current SITL process has booted, SITL is gone, or ``deadline`` passes."""
        control = self._control
        if control is None:
            return
        while not control.wait_booted(self.generation, min(CONNECT_RETRY_S, deadline - self._clock())):
            if self._clock() >= deadline or self._stop_event.is_set() or not self.running:
                return

    # ---------------------------------------------------------------- supervisor thread
    def _supervise(self) -> None:
        preexec = _parent_death_signal()
        while not self._stop_event.is_set():
            started_at = self._clock()
            process = self._spawn(preexec)
            if process is None:
                break
            while process.poll() is None and not self._stop_event.wait(0.1):
                pass
            if self._stop_event.is_set():
                if _end_process_group(process):
                    self._note(
                        _("SITL did not end within {seconds:g} s of SIGTERM; it was killed.").format(
                            seconds=TERM_GRACE_S
                        )
                    )
                break
            code = process.wait()
            if self._modem is not None:
                self._modem.unplug()  # the board's USB device is gone while it restarts
            ran_for = self._clock() - started_at
            with self._lock:
                self._last_exit = describe_exit(code)
            if not self.config.restart_when_exited or self._restarts >= MAX_RESTARTS:
                self._note(_("SITL stopped ({reason}).").format(reason=describe_exit(code)))
                break
            if ran_for < MIN_RUN_BEFORE_RESTART_S and code >= 0:
                self._note(
                    _("SITL stopped {seconds:.1f} s after starting ({reason}); not restarting it.").format(
                        seconds=ran_for, reason=describe_exit(code)
                    )
                )
                break
            self._note(_("SITL stopped ({reason}); restarting it.").format(reason=describe_exit(code)))
            with self._lock:
                self._state = SitlState.RESTARTING
                self._restarts += 1
            if self._stop_event.wait(RESTART_DELAY_S):
                break
        with self._lock:
            if self._state is not SitlState.STOPPED:
                self._state = SitlState.EXITED

    def _spawn(self, preexec: Callable[[], None] | None) -> subprocess.Popen[bytes] | None:
        modem = self._modem
        if modem is not None and not modem.plugged:
            modem.plug(self._next_station_name)
            self._next_station_name = None
        command = self.config.command(
            modem.vehicle_path if modem is not None else None, self._runner_defaults
        )
        with self._lock:
            if self._stop_event.is_set():
                return None
            try:
                process = subprocess.Popen(
                    command,
                    cwd=self._workdir,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    preexec_fn=preexec,  # noqa: PLW1509 - only prctl, see _parent_death_signal
                )
            except OSError as error:
                self._last_exit = _("could not start: {error}").format(error=error.strerror or error)
                self._note(_("SITL could not start: {error}").format(error=error.strerror or error))
                return None
            self._process = process
            self._generation += 1
            self._state = SitlState.RUNNING
            control = self._control
            if control is not None:
                # Booted or not is a fact about one SITL process; the new one starts from
                # scratch, with its receiver silent until the check is back.
                control.reconnect(self._generation)
                self._apply_receiver()
        self._note(
            _("Started SITL (process {pid}): {command}").format(pid=process.pid, command=" ".join(command))
        )
        assert process.stdout is not None
        reader = threading.Thread(
            target=self._read_console, args=(process.stdout,), name="sitl-console", daemon=True
        )
        self._readers = [thread for thread in self._readers if thread.is_alive()] + [reader]
        reader.start()
        return process

    def _read_console(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in bounded_lines(stream):
                self.console.append(line)
                self._watch_json_keys(line)
        with contextlib.suppress(OSError):
            stream.close()

    def _watch_json_keys(self, line: str) -> None:
        with self._lock:
            before = self._json_keys.reads_rc
            completed = self._json_keys.feed(line)
            after = self._json_keys.reads_rc
        if not completed or before == after:
            return
        if after:
            self._note(_("This SITL reads RC from the JSON rc object too; the transmitter goes both ways."))
        else:
            self._note(
                _(
                    "This SITL build ignores JSON rc: the transmitter reaches it only through UDP {port}."
                ).format(port=self.ports.rc_input)
            )

    # ---------------------------------------------------------------- notes and parameters
    def _note(self, text: str) -> None:
        self.console.append(text, from_sitl=False)

    def _parameter_read(self, name: str, value: float) -> None:
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
        channel = 3 if value is None else round(value)
        return channel if 1 <= channel <= self.transmitter.channel_count else 3


def _end_process_group(process: subprocess.Popen[bytes]) -> bool:
    """SIGTERM to the group, SIGKILL after the grace period; True if SIGKILL was needed."""
    if process.poll() is not None:
        return False
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(TERM_GRACE_S)
        return False
    except subprocess.TimeoutExpired:
        pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(KILL_WAIT_S)
    return True
