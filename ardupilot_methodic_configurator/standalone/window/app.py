# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window program: one session, the window (or the terminal view without a display), then cleanup."""

from __future__ import annotations

import contextlib
import sys
import tkinter as tk
from collections.abc import Sequence
from types import TracebackType

from ... import _
from ...demo.setups import DemoChoice
from ...sim_bridge.spec import BridgeSpec
from ...sitl.config import SitlConfig
from ..options import DEMO_DEVICE, TransmitterSchedule
from ..session import VehicleSession
from ..terminal.app import run_text_session
from .connection_bar import DEFAULT_BAUDRATE
from .geometry import initial_geometry
from .sitl_panel import SitlWindowSupport
from .window import CONNECT_TIMEOUT_S, StandaloneWindow


def run_mainloop(root: tk.Tk) -> None:
    """``root.mainloop()``, except that Ctrl-C or SIGTERM inside a Tk callback ends it too.

    Tk catches whatever a callback raises, reports it and carries on, so an interrupt that lands
    while a callback runs (the window ticks ten times a second, often on a busy machine) would be
    printed and forgotten.  Here it stops the loop and is raised again once the loop has returned,
    where the program's own handling of an interrupt takes over.  Other errors are reported as
    before.
    """
    report = root.report_callback_exception
    interrupted = False

    def on_callback_error(
        kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        nonlocal interrupted
        if issubclass(kind, KeyboardInterrupt):
            interrupted = True
            root.quit()
            return
        report(kind, error, trace)

    root.report_callback_exception = on_callback_error
    try:
        root.mainloop()
    finally:
        root.report_callback_exception = report
    if interrupted:
        raise KeyboardInterrupt


def run_window(
    *,
    device: str | None = None,
    baudrate: int = DEFAULT_BAUDRATE,
    demo: bool = False,
    bridges: Sequence[BridgeSpec] = (),
    duration: float | None = None,
    transmitter_off_after: float | None = None,
    transmitter_off_for: float | None = 1.5,
    sitl: SitlConfig | None = None,
    connect_timeout: float = CONNECT_TIMEOUT_S,
    demo_choice: DemoChoice | None = None,
) -> int:
    """Run the window until it is closed (or ``duration`` s pass); returns the exit code.

    Without a usable display the same session runs in the terminal view instead.  With ``sitl``
    the session first starts that SITL and the window connects to it.
    """
    session = VehicleSession(demo_choice=demo_choice)
    if sitl is not None:
        error = session.start_sitl(sitl)
        if error or session.sitl is None:
            print(error, file=sys.stderr)
            session.close()
            return 1
        device = session.sitl.device
    try:
        root = tk.Tk()
    except tk.TclError as error:
        print(
            _("Cannot open a window ({error}); showing the terminal view instead.").format(error=error),
            file=sys.stderr,
        )
        try:
            return run_text_session(
                session,
                device=DEMO_DEVICE if demo else device,
                baudrate=baudrate,
                bridges=bridges,
                duration=duration,
                schedule=TransmitterSchedule(transmitter_off_after, transmitter_off_for),
                timeout=connect_timeout,
            )
        finally:
            session.close()
    window: StandaloneWindow | None = None
    support: SitlWindowSupport | None = None
    try:
        root.geometry(initial_geometry(root))
        window = StandaloneWindow(
            root,
            session,
            device=DEMO_DEVICE if demo else device,
            baudrate=baudrate,
            connect_timeout=connect_timeout,
        )
        # A window started on the program's own vehicle runs the transmitter test by itself.
        window.automatic_transmitter_test = demo or sitl is not None
        support = SitlWindowSupport(root, window, before=window.step_frame)
        window.set_transmitter_schedule(transmitter_off_after, transmitter_off_for)
        if demo:
            window.connect(DEMO_DEVICE, baudrate)
        elif device:
            window.connect(device, baudrate)
        window.add_bridges(bridges)
        if duration is not None:
            root.after(int(duration * 1000), window.close)
        run_mainloop(root)
    finally:
        if support is not None:
            support.close()
        if window is not None:
            window.close()
        else:
            session.close()
            with contextlib.suppress(tk.TclError):
                root.destroy()
    return 0
