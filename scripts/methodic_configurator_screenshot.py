#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Screenshot of our receiver step inside the released methodic configurator 5.0.1's window.

    xvfb-run -a -s "-screen 0 1400x1100x24" .venv/bin/python scripts/methodic_configurator_screenshot.py

Needs the overlay environment the test command builds (build/methodic-configurator-5.0.1/,
see scripts/_bootstrap.sh).  Starts ``amc-rc-receiver --serve-demo`` on a loopback TCP port,
lets 5.0.1 connect to it and download its parameters, opens 5.0.1's parameter editor window on
the receiver step of a copy of its X11_plus template (the same session driver the integration
tests use), waits for live channels and grabs the window into
docs/screenshots/methodic_configurator.png.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.integration.amc501 import Driver, ServeDemo  # noqa: E402
from tests.support.methodic_configurator import MethodicConfiguratorEnvironment, environments_home  # noqa: E402

OUTPUT = ROOT / "docs" / "screenshots" / "methodic_configurator.png"
GEOMETRY = "1150x1020"
WAIT_S = 60.0
SETTLE_S = 3.0  # the measured stream rates settle
TEMPLATE = Path("vehicle_templates") / "ArduCopter" / "X11_plus"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUTPUT)
    parser.add_argument("--geometry", default=GEOMETRY)
    args = parser.parse_args(argv)
    environment = MethodicConfiguratorEnvironment(environments_home() / "venv-overlay")
    if not environment.python.is_file():
        print(f"no overlay environment at {environment.root}: run ./scripts/test.sh first", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="amc-mc-screenshot-") as scratch:
        folder = Path(scratch)
        demo = ServeDemo(folder / "serve-demo.log")
        driver: Driver | None = None
        try:
            demo.wait_until_listening()
            (folder / "home").mkdir()
            driver = Driver(environment.python, folder / "home", folder / "driver.log")
            connected = driver.request("connect", device=demo.device)
            if connected["error"]:
                print(f"5.0.1 could not connect: {connected['error']}", file=sys.stderr)
                return 1
            driver.request("download_params")
            vehicle_dir = folder / "vehicle"
            shutil.copytree(environment.package_dir / TEMPLATE, vehicle_dir)
            driver.request(
                "parameter_editor",
                vehicle_dir=str(vehicle_dir),
                vehicle_type="ArduCopter",
                file="05_remote_controller_receiver.param",
            )
            driver.request("window", seconds=WAIT_S, geometry=args.geometry)
            live = driver.request("pump", seconds=WAIT_S, until="live")
            if not live["pump"]["condition_met"]:
                print("no live channels in the window", file=sys.stderr)
                return 1
            time.sleep(0.1)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            shot = driver.request("screenshot", path=str(args.out.resolve()), settle_s=SETTLE_S)
            print(f"{args.out} ({shot['size'][0]}x{shot['size'][1]})")
        finally:
            if driver is not None:
                driver.close()
            demo.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
