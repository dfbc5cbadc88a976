#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Save a screenshot of the window checking a real ArduPilot SITL (docs/screenshots/sitl.png).

Usage: ``.venv/bin/python scripts/screenshot_sitl.py PATH_TO_ARDUCOPTER [--defaults copter.parm]``.
The window runs in this process, exactly as ``amc-rc-receiver --sitl`` builds it, on the current
X display or a private Xvfb; the script waits for live channels, switches the simulated
transmitter off until SITL reports the RC failsafe and on again until it recovers, then grabs the
window's screen area with Pillow (ImageMagick's ``import`` or ``xwd`` when Pillow is missing).
"""

from __future__ import annotations

import argparse
import sys
import tkinter as tk
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from screenshots import GEOMETRY, ScreenshotError, grab, pump_for, pump_until, x_display  # noqa: E402

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView  # noqa: E402
from amc_rc_receiver.sitl.config import SitlConfig  # noqa: E402
from amc_rc_receiver.standalone.session import VehicleSession  # noqa: E402
from amc_rc_receiver.standalone.window.sitl_panel import SitlWindowSupport  # noqa: E402
from amc_rc_receiver.standalone.window.window import StandaloneWindow  # noqa: E402

DEFAULT_OUTPUT = ROOT / "docs" / "screenshots" / "sitl.png"
# SITL boots in seconds, longer on a loaded machine; the failsafe needs RC_FS_TIMEOUT (1 s) more.
WAIT_S = 90.0
SETTLE_S = 3.0


def grab_window(root: tk.Tk, path: Path) -> None:
    try:
        from PIL import ImageGrab  # noqa: PLC0415 - optional: ImageMagick is the fallback
    except ImportError:
        grab(root, path)
        return
    root.lift()
    root.update()
    x, y = root.winfo_rootx(), root.winfo_rooty()
    image = ImageGrab.grab(bbox=(x, y, x + root.winfo_width(), y + root.winfo_height()))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    print(f"saved {path} ({image.width}x{image.height})")


def take_screenshot(config: SitlConfig, output: Path) -> None:
    session = VehicleSession()
    error = session.start_sitl(config)
    if error or session.sitl is None:
        session.close()
        raise ScreenshotError(error)
    root = tk.Tk()
    root.geometry(GEOMETRY)
    window = StandaloneWindow(root, session, connect_timeout=WAIT_S)
    support = SitlWindowSupport(root, window, before=window.step_frame)
    try:
        window.connect(session.sitl.device)

        def view() -> RCReceiverView:
            current = window.host.active_view
            if not isinstance(current, RCReceiverView):
                raise ScreenshotError("the receiver step shows no receiver check")
            return current

        pump_until(
            root,
            lambda: not window.is_connecting and view().channel_rows[0].text.endswith("µs"),
            "live channels",
            WAIT_S,
        )
        pump_for(root, SETTLE_S)
        window.set_transmitter_on(False)
        pump_until(root, lambda: view().failsafe_lamp.text == "active", "an active RC failsafe", WAIT_S)
        pump_for(root, 1.0)
        window.set_transmitter_on(True)
        pump_until(
            root,
            lambda: view().failsafe_lamp.text == "not active" and view().recovery_lamp.text.startswith("yes"),
            "the recovery after the failsafe",
            WAIT_S,
        )
        pump_for(root, SETTLE_S)
        grab_window(root, output)
    finally:
        support.close()
        window.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("sitl", type=Path, help="the SITL program, e.g. ../shared/sitl/arducopter")
    parser.add_argument("--defaults", type=Path, action="append", default=[], help="SITL defaults file")
    parser.add_argument("--instance", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    config = SitlConfig(binary=args.sitl, defaults=tuple(args.defaults), instance=args.instance)
    try:
        with x_display():
            take_screenshot(config, args.output)
    except (ScreenshotError, tk.TclError) as error:
        print(f"screenshot failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
