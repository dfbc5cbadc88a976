#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Save screenshots of the standalone window driven by the embedded demo vehicle.

The window runs in this process on the current X display (or on an Xvfb this script starts
when DISPLAY is unset); the script pumps Tk until the window shows each state, then grabs the
top-level window with ImageMagick's `import` (or `xwd` + `convert`, or Pillow's ImageGrab).
The window has the size of a small laptop screen, 1280x720, so each picture shows what a person
sees there without scrolling.  States: live channels, a completed transmitter-off/on failsafe test,
a vehicle that stopped sending telemetry, and the guided test's three verdicts: PASSED (the program
switched its own transmitter), INCOMPLETE with its next step (a person's transmitter, "It is off"
waiting) and FAILED with a parameter finding (the demo set up with RC failsafe disabled), two
findings of the guided test (a throttle failsafe, ExpressLRS), the stick step (the program pushing
its pitch stick) and a reversed pitch found; then the INCOMPLETE one once more in German
(`--language de`, as the program is asked for it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from amc_rc_receiver import install_language  # noqa: E402
from amc_rc_receiver.demo.setups import DemoChoice  # noqa: E402
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView  # noqa: E402
from amc_rc_receiver.plugins.rc_receiver.snapshot import GuideStep, RCReceiverState  # noqa: E402
from amc_rc_receiver.standalone.options import DEMO_DEVICE  # noqa: E402
from amc_rc_receiver.standalone.session import VehicleSession  # noqa: E402
from amc_rc_receiver.standalone.window.window import StandaloneWindow  # noqa: E402

DEFAULT_OUTPUT = ROOT / "docs" / "screenshots"
# A small laptop's screen: what a person sees there without scrolling is what the pictures show.
GEOMETRY = "1280x720"
GERMAN = "de"
XVFB_SCREEN = "1600x1000x24"
WAIT_S = 20.0
# Long enough for the measured stream rates and the bridge packet rates to settle.
SETTLE_S = 2.0


class ScreenshotError(RuntimeError):
    """A state was not reached or a grab failed; the message says which."""


@contextmanager
def x_display() -> Iterator[str]:
    """The current DISPLAY, or a private Xvfb started (and stopped) here when there is none."""
    current = os.environ.get("DISPLAY")
    if current:
        yield current
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise ScreenshotError("DISPLAY is not set and Xvfb is not installed")
    for number in range(91, 120):
        if Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists():
            continue
        display = f":{number}"
        process = subprocess.Popen(
            [xvfb, display, "-screen", "0", XVFB_SCREEN, "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10.0
        while not Path(f"/tmp/.X11-unix/X{number}").exists() and process.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if process.poll() is not None:
            continue
        os.environ["DISPLAY"] = display
        try:
            yield display
        finally:
            del os.environ["DISPLAY"]
            process.terminate()
            process.wait(timeout=10)
        return
    raise ScreenshotError("no free X display number for Xvfb")


def pump_until(root: tk.Tk, condition: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise ScreenshotError(f"the window did not show {what} within {timeout:.0f} s")
        root.update()
        time.sleep(0.02)


def pump_for(root: tk.Tk, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        root.update()
        time.sleep(0.02)


def grab(root: tk.Tk, path: Path) -> None:
    root.update()
    window_id = root.wm_frame()
    path.parent.mkdir(parents=True, exist_ok=True)
    if shutil.which("import"):
        command = ["import", "-window", window_id, str(path)]
        subprocess.run(command, check=True, timeout=60)
    elif shutil.which("xwd") and shutil.which("convert"):
        dump = subprocess.run(
            ["xwd", "-silent", "-id", window_id], check=True, capture_output=True, timeout=60
        )
        subprocess.run(["convert", "xwd:-", str(path)], input=dump.stdout, check=True, timeout=60)
    else:
        grab_with_pillow(root, path)
    print(f"saved {path}")


def grab_with_pillow(root: tk.Tk, path: Path) -> None:
    """The window's rectangle of the X screen, through Pillow (no ImageMagick needed)."""
    try:
        from PIL import ImageGrab  # noqa: PLC0415 - optional, only when ImageMagick is missing
    except ImportError:
        raise ScreenshotError("neither ImageMagick's import, xwd + convert nor Pillow is installed") from None
    left, top = root.winfo_rootx(), root.winfo_rooty()
    box = (left, top, left + root.winfo_width(), top + root.winfo_height())
    ImageGrab.grab(bbox=box, xdisplay=os.environ.get("DISPLAY")).save(path)


def take_screenshots(output: Path) -> None:
    session = VehicleSession()
    root = tk.Tk()
    root.geometry(GEOMETRY)
    window = StandaloneWindow(root, session)
    try:
        window.connect(DEMO_DEVICE)

        def view() -> RCReceiverView:
            current = window.host.active_view
            if not isinstance(current, RCReceiverView):
                raise ScreenshotError("the receiver step shows no receiver check")
            return current

        def live() -> bool:
            return not window.is_connecting and view().channel_rows[0].text.endswith("µs")

        pump_until(root, live, "live channels")
        show_details(window)
        pump_for(root, SETTLE_S)
        grab(root, output / "normal.png")

        window.set_transmitter_on(False)
        pump_until(root, lambda: view().failsafe_lamp.text == "active", "an active RC failsafe")
        pump_for(root, 0.5)
        window.set_transmitter_on(True)
        pump_until(
            root,
            lambda: view().failsafe_lamp.text == "not active" and view().recovery_lamp.text.startswith("yes"),
            "the recovery after the failsafe",
        )
        pump_for(root, SETTLE_S)
        grab(root, output / "failsafe_observed.png")

        demo = session.demo
        if demo is None:
            raise ScreenshotError("the demo vehicle is not running")
        # A fresh test, so this picture shows only the expiry. The vehicle then falls silent while
        # the link stays open, as when a telemetry radio drops out.
        view().reset_button.invoke()
        demo.vehicle.stop()
        pump_until(root, lambda: "No telemetry" in str(view().notice.cget("text")), "expired readings")
        pump_for(root, 1.0)
        grab(root, output / "no_telemetry.png")
    finally:
        window.close()


def take_verdict_screenshots(output: Path) -> None:
    """The guided test's verdict banner: PASSED, INCOMPLETE with its next step, FAILED with a finding."""
    for name, setup, automatic in (
        ("verdict_passed.png", "configured", True),
        ("verdict_incomplete.png", "configured", False),
        ("verdict_failed.png", "failsafe-disabled", False),
        # Two findings the guided test adds: which way the failsafe fired, and ExpressLRS's rules.
        ("finding_low_throttle.png", "receiver-low-throttle", True),
        ("finding_elrs.png", "elrs-modes-on-ch5", True),
        # The stick step: the program pushing its pitch stick, and a pitch its transmitter reverses.
        ("stick_step.png", "configured", True),
        ("finding_reversed_pitch.png", "reversed-pitch", True),
    ):
        session = VehicleSession(demo_choice=DemoChoice(setup=setup))
        root = tk.Tk()
        root.geometry(GEOMETRY)
        window = StandaloneWindow(root, session)
        window.automatic_transmitter_test = automatic
        try:
            window.connect(DEMO_DEVICE)

            def view(window: StandaloneWindow = window) -> RCReceiverView:
                current = window.host.active_view
                if not isinstance(current, RCReceiverView):
                    raise ScreenshotError("the receiver step shows no receiver check")
                return current

            def banner(view: Callable[[], RCReceiverView] = view) -> str:
                return str(view().banner.headline.cget("text"))

            def step(view: Callable[[], RCReceiverView] = view) -> str:
                return str(view().banner.detail.cget("text"))

            def pushing_pitch(window: StandaloneWindow = window) -> bool:
                state = getattr(window.host.active_model, "state", None)
                stick = state.guided.guide.stick if isinstance(state, RCReceiverState) else None
                return stick is not None and stick.axis == "pitch" and stick.pushed

            if name == "stick_step.png":
                pump_until(root, pushing_pitch, "the program pushing its pitch stick", timeout=60)
                # The picture as the push reaches the bars, before the stick is answered.
                pump_for(root, 0.3)
                grab(root, output / name)
                continue
            if name == "finding_reversed_pitch.png":
                pump_until(root, lambda: banner() == "FAILED", "the FAILED banner", timeout=60)
            elif name.startswith("finding_") or name == "verdict_passed.png":
                pump_until(root, lambda: banner() == "PASSED", "the PASSED banner", timeout=60)
            elif name == "verdict_incomplete.png":
                pump_until(root, lambda: step() == "Switch the transmitter off.", "the next step", timeout=60)
            else:
                pump_until(root, lambda: banner() == "FAILED", "the FAILED banner", timeout=60)
            pump_for(root, SETTLE_S)
            grab(root, output / name)
        finally:
            window.close()


def take_german_screenshot(output: Path) -> None:
    """The guided test waiting for a person's "It is off", in German: words longer than English."""
    install_language(GERMAN)
    session = VehicleSession(demo_choice=DemoChoice(setup="configured"))
    root = tk.Tk()
    root.geometry(GEOMETRY)
    window = StandaloneWindow(root, session)
    try:
        window.connect(DEMO_DEVICE)

        def waiting_for_off() -> bool:
            state = getattr(window.host.active_model, "state", None)
            return isinstance(state, RCReceiverState) and state.guided.guide.step is GuideStep.SWITCH_OFF

        pump_until(root, waiting_for_off, "the step that asks for 'It is off'", timeout=60)
        show_details(window)
        pump_for(root, SETTLE_S)
        grab(root, output / f"verdict_incomplete_{GERMAN}.png")
    finally:
        window.close()
        install_language(None)


def show_details(window: StandaloneWindow) -> None:
    """Select a parameter and the demo's servo direction, so their detail lines are in the picture."""
    table = window.parameter_table
    if table is not None:
        rows = table.tree.get_children()
        names = [row[0] for row in table.rows]
        if "RSSI_TYPE" in names:
            table.tree.selection_set(rows[names.index("RSSI_TYPE")])
    tree = window.bridge_panel.tree
    links = tree.get_children()
    if links:
        directions = tree.get_children(links[0])
        tree.selection_set(directions[0] if directions else links[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="folder for the PNG files")
    args = parser.parse_args(argv)
    try:
        with x_display():
            take_screenshots(args.output)
            take_verdict_screenshots(args.output)
            take_german_screenshot(args.output)
    except (ScreenshotError, subprocess.SubprocessError, tk.TclError) as error:
        print(f"screenshots failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
