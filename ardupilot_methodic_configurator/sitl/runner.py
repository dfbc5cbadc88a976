# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a real ArduPilot SITL for the check: the process, its physics, its transmitter, its console.

``amc-rc-receiver --sitl PATH`` starts, all on 127.0.0.1 and all moved by +10·N for ``--instance N``:

- the JSON physics back end (``PhysicsBackend``) on an ephemeral port, behind a ``UdpRelay`` that
  listens where SITL sends its servo packets (9002 + 10·N), so the bridge panel shows the link;
- the simulated transmitter, sent as RC-input datagrams to 5501 + 10·N (the only RC path of
  mid-2025 builds) and put in the JSON replies too, for builds that read ``rc`` (detected from
  SITL's "JSON received:" block, never assumed);
- the simulator control link on SITL's second MAVLink port (5762 + 10·N), which sets
  ``SIM_RC_FAIL`` for the *no pulses* failsafe and reads ``FS_THR_VALUE`` for *low throttle*
  (`sitl.receiver` decides what the receiver does);
- SITL itself, ``--model JSON:127.0.0.1 --serial0 tcp:0`` (boots without waiting for a client),
  in a temporary working directory (it writes eeprom.bin and logs there), in its own process
  group, kept running by `sitl.supervisor`, its console captured line by line into a bounded
  ``ConsoleLog``.

`SitlRunner` wires these together and owns their lifetime; the check connects through it
(`sitl.check_link`).  ``stop()`` ends every SITL process (see `sitl.process_group`), then the
helpers, and removes the working directory; it is idempotent and safe from ``finally`` blocks and
``atexit``.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from .. import _
from ..demo.physics_backend import PhysicsBackend
from ..demo.sitl_rc_input import FailsafeTransmitter, RcInputSender
from ..sim_bridge.protocols.names import ARDUPILOT_JSON
from ..sim_bridge.relay import UdpRelay
from ..sim_bridge.relay_config import RelayConfig
from .check_link import FlightControllerLike, check_device, connect_when_booted, listed_ports
from .config import SitlConfig, SitlLink, SitlState, SitlStatus
from .console import ConsoleLog, JsonKeysWatch, bounded_lines
from .control import SIM_RC_FAIL, SitlControlLink
from .null_modem import STATION_TO_VEHICLE, NullModem
from .process_group import ProcessGroup
from .receiver import SitlReceiver
from .supervisor import SitlSupervisor, SupervisorHooks

# A restarted SITL sends servo packets from a new port; the relay follows once the old one is quiet.
RELAY_RELEARN_S = 1.0
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
# How long its last bytes may take through the cable before the board is stopped.
LAST_BYTES_WAIT_S = 5.0
# ... and how long the cable must then carry nothing before they count as through (null_modem).
LAST_BYTES_QUIET_S = 0.1
# How long stop() waits for a console reader: a process SITL left behind may hold its pipe open.
READER_JOIN_S = 2.0

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
        self._supervisor = SitlSupervisor(
            SupervisorHooks(
                command=self._next_command, started=self._started, exited=self._exited, note=self._note
            ),
            restart_when_exited=config.restart_when_exited,
            clock=clock,
        )
        self.transmitter = FailsafeTransmitter(
            config.failsafe_mode, vehicle_ready=self._booted, layout=config.sticks
        )
        self._receiver = SitlReceiver(
            self.transmitter,
            config.failsafe_mode,
            self.ports.rc_input,
            generation=lambda: self._supervisor.generation,
            note=self._note,
        )
        self._json_keys = JsonKeysWatch()
        # Guards the JSON keys watch, fed by one console reader after another.
        self._lock = threading.Lock()
        self._started_once = False
        self._workdir: Path | None = None
        self._readers: list[threading.Thread] = []
        self._backend: PhysicsBackend | None = None
        self._relay: UdpRelay | None = None
        self._rc_sender: RcInputSender | None = None
        self._control: SitlControlLink | None = None
        # SERIAL0 as a serial line (`SitlLink.SERIAL`): the cable, and the name its next plug takes.
        self._modem: NullModem | None = None
        self._next_station_name: str | None = None
        # In the working folder: every SITL reads it last (see RUNNER_DEFAULTS_NAME).
        self._runner_defaults: Path | None = None

    # ---------------------------------------------------------------- queries
    @property
    def device(self) -> str:
        """The check's connection: SITL's first MAVLink port (SERIAL0), over the configured link."""
        return check_device(self.config, self._modem)

    def virtual_ports(self) -> list[Any]:
        """SITL's serial line as the port list shows a USB flight controller: ArduPilot's USB ids
        and a serial number of its own, so a check finds it again under a new name."""
        return listed_ports(self._modem, self.config.instance)

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
        return self._supervisor.generation

    @property
    def transmitter_on(self) -> bool:
        return self.transmitter.on

    @property
    def running(self) -> bool:
        return self._supervisor.running

    @property
    def process_id(self) -> int | None:
        return self._supervisor.pid

    @property
    def control(self) -> SitlControlLink | None:
        return self._control

    @property
    def rc_sender(self) -> RcInputSender | None:
        return self._rc_sender

    def status(self) -> SitlStatus:
        control = self._control
        process = self._supervisor.status()
        with self._lock:
            reads_json_rc = self._json_keys.reads_rc
        return SitlStatus(
            state=process.state,
            generation=process.generation,
            pid=process.pid,
            restarts=process.restarts,
            last_exit=process.last_exit,
            reads_json_rc=reads_json_rc,
            transmitter_on=self.transmitter.on,
            sim_rc_fail=None if control is None else control.confirmed_rc_fail,
            receiver_delivering=self._receiver.delivering,
        )

    def wait_stopping(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s; True once ``stop()`` was asked for."""
        return self._supervisor.wait_stopping(timeout)

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> str:
        """Start everything; ``""`` or a readable reason (then nothing is left running)."""
        with self._lock:
            if self._started_once:
                return ""
            self._started_once = True
        problem = self.config.problem()
        if problem:
            return problem
        _RUNNERS.add(self)
        try:
            self._start_helpers()
        except OSError as error:
            self.stop()
            return _("The SITL helpers could not start: {error}").format(error=error.strerror or error)
        workdir = Path(tempfile.mkdtemp(prefix=f"amc-rc-receiver-sitl{self.config.instance}-"))
        self._workdir = workdir
        self._runner_defaults = workdir / RUNNER_DEFAULTS_NAME
        self._runner_defaults.write_text(RUNNER_DEFAULTS, encoding="ascii")
        if self.config.link is SitlLink.SERIAL:
            self._modem = NullModem(workdir / "dev", baudrate=self.config.baudrate, tap=self._serial_tap)
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
        self._supervisor.start(workdir)
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
        control = SitlControlLink(
            self.ports.control,
            read_parameters=self._receiver.parameters_to_read,
            on_event=self._note,
            on_parameter=self._receiver.parameter_read,
        )
        self._control = control
        self._receiver.attach(control)
        control.start()

    def stop(self) -> None:
        """End every SITL process (SIGTERM, SIGKILL after a grace period) and every helper; idempotent."""
        if self._supervisor.state is SitlState.STOPPED:
            return
        if self._modem is not None:
            # What the check wrote before it let go is on its way, as on a USB cable (its last
            # interval requests restore the board's defaults): delivered before the board goes.
            self._modem.wait_carried(STATION_TO_VEHICLE, LAST_BYTES_WAIT_S, quiet_s=LAST_BYTES_QUIET_S)
        self._supervisor.stop()
        for reader in self._readers:
            reader.join(READER_JOIN_S)
        if self._modem is not None:
            self._modem.close()
        for part in (self._control, self._rc_sender, self._relay, self._backend):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.stop()
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
        _RUNNERS.discard(self)

    def kill_sitl(self) -> int | None:
        """Kill the SITL process (as a crash would); the supervisor restarts it.  Returns its pid."""
        return self._supervisor.kill()

    # ---------------------------------------------------------------- the transmitter
    def set_transmitter_on(self, on: bool) -> str:
        """Switch the simulated transmitter; in *no pulses* mode also ``SIM_RC_FAIL`` 0/1."""
        self._receiver.set_transmitter_on(on)
        return ""

    # ---------------------------------------------------------------- the check's connection
    def connect(
        self, flight_controller: FlightControllerLike, *, baudrate: int = 115200, timeout: float = 5.0
    ) -> str:
        """Connect ``flight_controller`` to SITL once it has booted, for up to ``timeout`` s
        (see `sitl.check_link`); its receiver starts delivering once the link is open."""
        return connect_when_booted(
            self,
            flight_controller,
            baudrate=baudrate,
            timeout=timeout,
            clock=self._clock,
            opened=self._link_opened,
        )

    def _link_opened(self, generation: int) -> None:
        modem = self._modem
        if modem is not None:
            # The check's hello (its first parameter read) must be through the cable and read by
            # SITL before the receiver is first decoded: ArduPilot announces the protocol only on
            # links it has heard from, and a busy SITL reads its serial port late.
            modem.wait_carried(STATION_TO_VEHICLE, LINK_CARRY_WAIT_S, read_at_far_end=True)
        self._receiver.start_delivering(generation)

    # ---------------------------------------------------------------- supervisor hooks
    def _next_command(self) -> list[str]:
        modem = self._modem
        if modem is not None and not modem.plugged:
            modem.plug(self._next_station_name)
            self._next_station_name = None
        return self.config.command(modem.vehicle_path if modem is not None else None, self._runner_defaults)

    def _started(self, generation: int, group: ProcessGroup) -> None:
        control = self._control
        if control is not None:
            # Booted or not is a fact about one SITL process; the new one starts from scratch,
            # with its receiver silent until the check is back.
            control.reconnect(generation)
        self._receiver.apply()
        stream = group.process.stdout
        assert stream is not None
        reader = threading.Thread(target=self._read_console, args=(stream,), name="sitl-console", daemon=True)
        self._readers = [thread for thread in self._readers if thread.is_alive()] + [reader]
        reader.start()

    def _exited(self) -> None:
        if self._modem is not None:
            self._modem.unplug()  # the board's USB device is gone while it restarts

    # ---------------------------------------------------------------- the console
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

    def _note(self, text: str) -> None:
        self.console.append(text, from_sitl=False)
