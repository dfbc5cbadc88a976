# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Entry point of `amc-rc-receiver`: plugin registration, command line, front-end choice.

Plugins are registered independently when the window starts (as the methodic configurator does),
so a failing plugin import is reported instead of preventing the program from starting.  The
terminal view registers none: it shows the model's snapshots without Tk, so it runs on a Python
that has no tkinter at all (a server, a container, a Raspberry Pi without python3-tk).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import math
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import _, __version__, install_language, language_from_environment

if TYPE_CHECKING:
    from .sim_bridge.spec import BridgeSpec
    from .sitl.config import SitlConfig

# Loaded by `main` while interrupts are held (see `_interrupts_held`), not when this module is
# imported: a Ctrl-C that lands in an import at module level ends in a traceback.
_PROGRAM_MODULES = (
    "pymavlink.mavutil",
    f"{__package__}.demo.sitl_rc_input",
    f"{__package__}.sim_bridge.spec",
    f"{__package__}.sim_bridge.protocols.table",
    f"{__package__}.standalone.options",
)

DEFAULT_CONNECT_TIMEOUT_S = 5.0
# SITL on a loaded machine takes seconds to boot before its first heartbeat.
SITL_CONNECT_TIMEOUT_S = 60.0


def register_plugins() -> list[str]:
    """Import and register every plugin; returns readable errors for those that failed."""
    errors: list[str] = []
    try:
        from .plugins.frontend_tkinter_rc_receiver import (  # noqa: PLC0415
            register_rc_receiver_plugin,
        )

        register_rc_receiver_plugin()
    except Exception as error:
        errors.append(_("The RC receiver plugin could not be loaded: {error}").format(error=error))
    return errors


def _bridge_argument(text: str) -> BridgeSpec:
    from .sim_bridge.spec import BridgeSpecError, parse_bridge_spec  # noqa: PLC0415

    try:
        return parse_bridge_spec(text)
    except BridgeSpecError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _bridge_circle(specs: Sequence[BridgeSpec]) -> str:
    """The refusal of bridges that would pass a datagram round between them for ever, or ``""``."""
    from .sim_bridge.chains import ChainLink, circle_sentence, find_circle  # noqa: PLC0415

    names = find_circle([ChainLink(spec.name, spec.listen, spec.target) for spec in specs])
    return "" if names is None else circle_sentence(names)


# A day: any wait a person or a script means; float("nan") and 1e400 are not numbers of seconds.
MAX_SECONDS = 86_400


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of seconds").format(text=text)) from None
    if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a number of seconds from 0 to {limit}").format(text=text, limit=MAX_SECONDS)
        )
    return value


# pyserial refuses nothing up front: a wrong rate only shows as silence on the link.
MIN_BAUDRATE = 50
MAX_BAUDRATE = 12_000_000


def _baudrate(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a baud rate; use a whole number such as 57600 or 115200").format(text=text)
        ) from None
    if not MIN_BAUDRATE <= value <= MAX_BAUDRATE:
        raise argparse.ArgumentTypeError(
            _("{value} is not a baud rate; serial links use {low} to {high}").format(
                value=value, low=MIN_BAUDRATE, high=MAX_BAUDRATE
            )
        )
    return value


def _instance_number(text: str) -> int:
    if not text.isdigit():
        message = _("{text!r} is not an instance number (0, 1, 2, ...)")
        raise argparse.ArgumentTypeError(message.format(text=text))
    return int(text)


def _protocols_with_ports() -> str:
    """``name (port, ...)`` for each row of the protocol table, then ``auto``."""
    from .sim_bridge.protocols.names import AUTO  # noqa: PLC0415
    from .sim_bridge.protocols.table import PROTOCOLS  # noqa: PLC0415

    rows = [f"{row.name} ({', '.join(map(str, row.default_ports))})" for row in PROTOCOLS]
    return ", ".join([*rows, AUTO])


def build_parser() -> argparse.ArgumentParser:
    from .demo.sitl_rc_input import FailsafeMode  # noqa: PLC0415
    from .sitl.config import SitlLink  # noqa: PLC0415
    from .standalone.options import add_check_arguments  # noqa: PLC0415

    parser = argparse.ArgumentParser(
        prog="amc-rc-receiver",
        description=_(
            "Check an RC receiver on an ArduPilot vehicle: channels, RSSI, receiver presence "
            "and RC failsafe, with live simulator-bridge traffic beside it."
        ),
    )
    parser.add_argument("--version", action="version", version=f"amc-rc-receiver {__version__}")
    parser.add_argument(
        "--device",
        help=_("MAVLink connection: a serial port, tcp:HOST:PORT, udpin:HOST:PORT, udpout:HOST:PORT"),
    )
    parser.add_argument(
        "--baudrate", type=_baudrate, default=115200, help=_("serial baud rate (default 115200)")
    )
    parser.add_argument("--demo", action="store_true", help=_("use the embedded simulated vehicle"))
    parser.add_argument(
        "--serve-demo",
        metavar="DEVICE",
        help=_(
            "run only the simulated vehicle for another ground station: tcp:HOST:PORT (a TCP server for "
            "one ground station at a time, as SITL's: a connected one that stays silent keeps the "
            "others waiting), udpin:HOST:PORT, udpout:HOST:PORT (HOST defaults to 127.0.0.1, IPv4 only), "
            "or a serial device such as /dev/ttyUSB0 at --baudrate"
        ),
    )
    parser.add_argument(
        "--sitl",
        metavar="PATH",
        type=Path,
        help=_(
            "run this ArduPilot SITL program (e.g. arducopter) with the built-in physics back end and "
            "simulated transmitter, and check it"
        ),
    )
    parser.add_argument(
        "--sitl-defaults",
        metavar="FILE",
        type=Path,
        action="append",
        default=[],
        help=_("SITL default parameters (e.g. copter.parm); repeatable"),
    )
    parser.add_argument(
        "--instance",
        type=_instance_number,
        default=0,
        help=_("SITL instance N: every SITL port moves by 10*N (default 0)"),
    )
    parser.add_argument(
        "--failsafe-mode",
        choices=[mode.value for mode in FailsafeMode],
        default=FailsafeMode.NO_PULSES.value,
        help=_(
            "what SITL's receiver does with the transmitter off: no-pulses (SIM_RC_FAIL=1, default) "
            "or low-throttle (throttle below FS_THR_VALUE)"
        ),
    )
    parser.add_argument(
        "--sitl-link",
        choices=[link.value for link in SitlLink],
        default=SitlLink.TCP.value,
        help=_(
            "how the check reaches SITL: tcp (default), serial (a pseudo-terminal pair at --baudrate, "
            "the path a USB board takes; Linux and macOS) or udp (SITL sends to the check)"
        ),
    )
    parser.add_argument(
        "--timeout",
        type=_positive_seconds,
        help=_("seconds to wait for the vehicle's first heartbeat (default 5, 60 with --sitl)"),
    )
    parser.add_argument("--text", action="store_true", help=_("terminal view instead of the window"))
    parser.add_argument(
        "--duration", type=_positive_seconds, help=_("exit after this many seconds (for scripts)")
    )
    parser.add_argument(
        "--bridge",
        type=_bridge_argument,
        action="append",
        default=[],
        metavar="PROTOCOL,LISTEN[,TARGET]",
        help=_(
            "relay and decode a simulator link, e.g. ardupilot-json,127.0.0.1:9002,127.0.0.1:9012 "
            "(protocols with their usual ports: {protocols}; no target = listen only); repeatable"
        ).format(protocols=_protocols_with_ports()),
    )
    parser.add_argument(
        "--transmitter-off-after",
        type=_positive_seconds,
        help=_("demo or --sitl: switch the simulated transmitter off after this many seconds"),
    )
    parser.add_argument(
        "--transmitter-off-for",
        type=_positive_seconds,
        default=1.5,
        help=_("demo: switch it back on after this many seconds off (default 1.5)"),
    )
    parser.add_argument(
        "--transmitter-on-after",
        type=_positive_seconds,
        default=None,
        help=_(
            "demo, terminal view: connect while the simulated transmitter is off (RC failsafe "
            "active) and switch it on after this many seconds, without telling the check"
        ),
    )
    parser.add_argument("--language", help=_("user-interface language, e.g. de or zh_CN"))
    add_check_arguments(parser)
    return parser


def _display_available() -> bool:
    if sys.platform.startswith(("win", "darwin")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _tk_available() -> bool:
    try:
        import tkinter  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def _interrupt_on_sigterm(_signum: int, _frame: object) -> None:
    # Raising is all a handler can do safely; everything then unwinds as it does on Ctrl-C.
    raise KeyboardInterrupt


@contextlib.contextmanager
def _interrupts_held() -> Iterator[list[int]]:
    """Ctrl-C and SIGTERM that arrive inside are held, and listed, until the block ends.

    pymavlink's mavutil imports numpy inside a bare ``except:``; a Ctrl-C landing there was
    swallowed (the program went on as if never interrupted, 6 times in 11 in its first 0.4 s).
    """
    held: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield held
        return

    def hold(signum: int, _frame: object) -> None:
        held.append(signum)

    signals = [signal.SIGINT] + ([signal.SIGTERM] if hasattr(signal, "SIGTERM") else [])
    previous = {number: signal.signal(number, hold) for number in signals}
    try:
        yield held
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the program; Ctrl-C or SIGTERM at any moment ends it with one line and status 130."""
    with _interrupts_held() as held:
        for name in _PROGRAM_MODULES:
            importlib.import_module(name)
    from .standalone.options import EXIT_INTERRUPTED  # noqa: PLC0415

    if held:
        print(_("Stopped."), file=sys.stderr)
        return EXIT_INTERRUPTED
    previous = None
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
        previous = signal.signal(signal.SIGTERM, _interrupt_on_sigterm)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print(_("Stopped."), file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv: Sequence[str] | None) -> int:
    # Faults of the check are logged with their traceback (as the methodic configurator does);
    # standard error keeps them apart from the terminal view's own output.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # The language must be bound before the parser builds its translated help texts.
    raw = list(sys.argv[1:] if argv is None else argv)
    language_parser = argparse.ArgumentParser(add_help=False)
    language_parser.add_argument("--language")
    known, _rest = language_parser.parse_known_args(raw)
    if known.language and not install_language(known.language):
        print(
            _("No translation for {language!r}; continuing in English.").format(language=known.language),
            file=sys.stderr,
        )
    elif not known.language:
        # LANGUAGE / LC_ALL / LC_MESSAGES / LANG, as gettext reads them; English when nothing fits.
        install_language(language_from_environment())
    args = build_parser().parse_args(raw)
    if args.serve_demo is not None:
        from .standalone.serve_demo import run_serve_demo_command  # noqa: PLC0415

        return run_serve_demo_command(args)
    if args.demo and args.device:
        print(_("Use either --demo or --device, not both."), file=sys.stderr)
        return 2
    circle = _bridge_circle(args.bridge)
    if circle:
        print(circle, file=sys.stderr)
        return 2
    if args.sitl is not None and (args.demo or args.device):
        print(_("--sitl runs its own vehicle: use it without --demo and --device."), file=sys.stderr)
        return 2
    use_text = args.text
    if not use_text and not _display_available():
        print(_("No graphical display is available; showing the terminal view instead."), file=sys.stderr)
        use_text = True
    if not use_text and not _tk_available():
        print(
            _("This Python has no Tk (install python3-tk); showing the terminal view instead."),
            file=sys.stderr,
        )
        use_text = True
    # The terminal view needs no Tk: the plugins, whose views are Tk widgets, join only the window.
    if use_text:
        return _run_text(args)
    for error in register_plugins():
        print(error, file=sys.stderr)
    from .standalone.options import demo_choice  # noqa: PLC0415
    from .standalone.window.app import run_window  # noqa: PLC0415

    return run_window(
        device=args.device,
        baudrate=args.baudrate,
        demo=args.demo,
        bridges=args.bridge,
        duration=args.duration,
        transmitter_off_after=args.transmitter_off_after,
        transmitter_off_for=args.transmitter_off_for,
        sitl=_sitl_config(args),
        connect_timeout=_connect_timeout(args),
        demo_choice=demo_choice(args),
    )


def _sitl_config(args: argparse.Namespace) -> SitlConfig | None:
    from .demo.sitl_rc_input import FailsafeMode  # noqa: PLC0415
    from .demo.transmitter import StickLayout  # noqa: PLC0415
    from .sitl.config import SitlConfig, SitlLink  # noqa: PLC0415
    from .standalone.options import transmitter_layout  # noqa: PLC0415

    if args.sitl is None:
        return None
    return SitlConfig(
        binary=args.sitl,
        defaults=tuple(args.sitl_defaults),
        instance=args.instance,
        failsafe_mode=FailsafeMode(args.failsafe_mode),
        link=SitlLink(args.sitl_link),
        baudrate=args.baudrate,
        sticks=transmitter_layout(args) or StickLayout(),
    )


def _connect_timeout(args: argparse.Namespace) -> float:
    if args.timeout is not None:
        return float(args.timeout)
    return SITL_CONNECT_TIMEOUT_S if args.sitl is not None else DEFAULT_CONNECT_TIMEOUT_S


def _run_text(args: argparse.Namespace) -> int:
    from .standalone.options import DEMO_DEVICE, TransmitterSchedule, demo_choice  # noqa: PLC0415
    from .standalone.session import VehicleSession  # noqa: PLC0415
    from .standalone.terminal.app import run_text_session  # noqa: PLC0415

    session = VehicleSession(demo_choice=demo_choice(args))
    try:
        device = DEMO_DEVICE if args.demo else args.device
        sitl = _sitl_config(args)
        if sitl is not None:
            error = session.start_sitl(sitl)
            if error:
                print(error, file=sys.stderr)
                return 1
            assert session.sitl is not None
            device = session.sitl.device
        if args.demo and args.transmitter_on_after is not None:
            # The vehicle's own failsafe timer (1 s) must run out first; slow machines get longer.
            error = session.start_demo_in_failsafe(timeout=max(10.0, _connect_timeout(args)))
            if error:
                print(error, file=sys.stderr)
                return 1
        return run_text_session(
            session,
            device=device,
            baudrate=args.baudrate,
            bridges=args.bridge,
            duration=args.duration,
            schedule=TransmitterSchedule(
                args.transmitter_off_after, args.transmitter_off_for, args.transmitter_on_after
            ),
            timeout=_connect_timeout(args),
            report=args.report,
        )
    finally:
        session.close()


if __name__ == "__main__":
    sys.exit(main())
