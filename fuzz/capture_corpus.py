# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write the fuzzers' seed corpus (``fuzz/corpus/``) from real traffic, where there is any.

Run: .venv/bin/python fuzz/capture_corpus.py [--sitl ../shared/sitl] [--seconds 12]

- ``sitl-json/``: real ArduCopter SITL (``--model JSON``) on loopback, answered by the demo's
  physics back end: the servo packets SITL sent and the JSON states it accepted.
- ``mavlink/``: the byte stream real SITL sent on its MAVLink TCP port, and the datagrams the
  embedded demo vehicle sent to a ground station (streams requested, transmitter switched off
  and on again), each cut into pieces of at most 8 KiB.
- ``param/``: real SITL's parameters as a ``.param`` file, read over that MAVLink link.
- ``rflysim/``, ``xrp/``: no simulator of either runs here (RflySim is Windows-only, XRP needs
  WPILib's simulator or a robot), so these seeds are packets of every known layout written by our
  own encoders and ``struct`` layouts from the protocol notes.

- ``param/``, ``steps/`` also hold copies of the bundled ``.param`` files
  (``ardupilot_methodic_configurator/data/``) and step files (``configuration_steps/``), the
  step files also cut to single steps.

Everything binds to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.physics_backend import FrameStepper
from amc_rc_receiver.demo.system import DemoSystem
from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, rflysim, sitl_servo_packet, xrp
from amc_rc_receiver.sitl.config import SitlConfig

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ardupilot_methodic_configurator"
CORPUS = ROOT / "fuzz" / "corpus"
LOOPBACK = "127.0.0.1"
PIECE = 768  # bytes of MAVLink per seed: about 20 messages
INSTANCE = 47  # far from the instances the test suite picks
RC_CHANNELS, SYS_STATUS = 65, 1


def _save(folder: str, name: str, data: bytes) -> None:
    path = CORPUS / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _clear(prefix: str, *folders: str) -> None:
    """Remove the seeds an earlier capture wrote under ``prefix``, so none is left over."""
    for folder in folders:
        for path in (CORPUS / folder).glob(f"{prefix}*"):
            path.unlink()


def _frames(stream: bytes) -> list[bytes]:
    """The whole MAVLink frames in ``stream``, as pymavlink's parser finds them."""
    parser = mavlink2.MAVLink(None)
    parser.robust_parsing = True
    messages = parser.parse_buffer(stream) or []
    return [bytes(message.get_msgbuf()) for message in messages if message.get_type() != "BAD_DATA"]


def _pieces(frames: list[bytes], count: int) -> list[bytes]:
    """``count`` pieces of whole frames, each at most ``PIECE`` bytes, spread over the stream.

    Small pieces keep each fuzzed input cheap; the fuzzer splices them into longer streams.
    """
    pieces: list[bytes] = []
    piece = b""
    for frame in frames:
        if len(piece) + len(frame) > PIECE:
            pieces.append(piece)
            piece = b""
        piece += frame
    pieces.append(piece)
    return pieces[:: max(len(pieces) // count, 1)][:count]


def _gcs(seq: int) -> mavlink2.MAVLink:
    encoder = mavlink2.MAVLink(None, srcSystem=255, srcComponent=190)
    encoder.seq = seq
    return encoder


def _requests(target_system: int) -> list[bytes]:
    """What a ground station sends first: a heartbeat, the two streams at 5 Hz, all parameters."""
    encoder = _gcs(0)
    messages = [
        encoder.heartbeat_encode(mavlink2.MAV_TYPE_GCS, mavlink2.MAV_AUTOPILOT_INVALID, 0, 0, 0),
        *(
            encoder.command_long_encode(
                target_system, 1, mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, 0, message, 200_000, 0, 0, 0, 0, 0
            )
            for message in (RC_CHANNELS, SYS_STATUS)
        ),
        encoder.param_request_list_encode(target_system, 1),
    ]
    return [bytes(message.pack(encoder)) for message in messages]


# --------------------------------------------------------------------------- real SITL


def capture_sitl(sitl: Path, seconds: float) -> None:
    config = SitlConfig(sitl / "arducopter", defaults=(sitl / "copter.parm",), instance=INSTANCE)
    physics = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    physics.bind((LOOPBACK, config.ports.json))
    servo_packets: list[bytes] = []
    states: list[bytes] = []
    stream = bytearray()
    with tempfile.TemporaryDirectory(prefix="fuzz-capture-") as folder:
        process = subprocess.Popen(
            config.command(),
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        link: socket.socket | None = None
        try:
            stepper = FrameStepper()
            deadline = time.monotonic() + 60 + seconds
            recording_until: float | None = None
            requests = _requests(1)
            next_request = 0.0
            while time.monotonic() < (deadline if recording_until is None else recording_until):
                readable, _, _ = select.select([physics, *([link] if link else [])], [], [], 0.5)
                if physics in readable:
                    data, sender = physics.recvfrom(65_536)
                    servo_packets.append(data)
                    reply = stepper.handle(data)
                    if reply is not None:
                        states.append(reply)
                        physics.sendto(reply, sender)
                if link is not None and link in readable:
                    stream += link.recv(65_536)
                if link is not None and requests and time.monotonic() >= next_request:
                    # one a second, the first after SITL's boot messages: a request sent while
                    # SITL boots is lost, and so would be the parameter list
                    link.sendall(requests.pop(0))
                    next_request = time.monotonic() + 1.0
                if link is None and servo_packets:
                    with contextlib.suppress(OSError):
                        link = socket.create_connection((LOOPBACK, config.ports.mavlink), timeout=1.0)
                        recording_until = time.monotonic() + seconds
                        next_request = time.monotonic() + 2.0
        finally:
            if link is not None:
                link.close()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # waiting for physics, SITL ignores SIGTERM
            process.wait(30)
            physics.close()
    _clear("sitl-", "sitl-json", "mavlink", "param")
    print(f"SITL: {len(servo_packets)} servo packets, {len(states)} states, {len(stream)} MAVLink bytes")
    picked = sorted({0, 1, 2, *range(0, len(servo_packets), max(len(servo_packets) // 8, 1))})
    for index in picked:
        if index < len(servo_packets):
            _save("sitl-json", f"sitl-servo-{index:06d}", servo_packets[index])
        if index < len(states):
            _save("sitl-json", f"sitl-state-{index:06d}", states[index])
    for index, piece in enumerate(_pieces(_frames(bytes(stream)), 10)):
        _save("mavlink", f"sitl-tcp-{index}", piece)
    _save_parameters(bytes(stream))


def _save_parameters(stream: bytes) -> None:
    parser = mavlink2.MAVLink(None)
    parser.robust_parsing = True
    values: dict[str, float] = {}
    for message in parser.parse_buffer(stream) or []:
        if message.get_type() == "PARAM_VALUE":
            values[message.param_id] = message.param_value
    print(f"SITL: {len(values)} parameters")
    lines = [f"{name},{value:.7g}\n" for name, value in sorted(values.items())]
    # pieces of 60 lines: a whole dump costs the fuzzer 20 times more per input, for no new path
    for index, start in enumerate(range(0, len(lines), 60 * max(len(lines) // (60 * 8), 1))):
        _save("param", f"sitl-arducopter-{index}.param", "".join(lines[start : start + 60]).encode())


# --------------------------------------------------------------------------- the demo


def capture_demo(seconds: float) -> None:
    system = DemoSystem()
    ground = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ground.bind((LOOPBACK, 0))
    datagrams: list[bytes] = []
    system.start()
    try:
        for request in _requests(1):
            ground.sendto(request, system.vehicle.address)
        phases = ((True, seconds / 3), (False, seconds / 3), (True, seconds / 3))
        for transmitter_on, length in phases:
            system.set_transmitter_on(transmitter_on)
            until = time.monotonic() + length
            while (left := until - time.monotonic()) > 0:
                if select.select([ground], [], [], left)[0]:
                    datagrams.append(ground.recv(65_536))
    finally:
        system.stop()
        ground.close()
    stream = b"".join(datagrams)
    print(f"demo: {len(datagrams)} datagrams, {len(stream)} bytes")
    _clear("demo-", "mavlink")
    for index, piece in enumerate(_pieces(_frames(stream), 10)):
        _save("mavlink", f"demo-udp-{index}", piece)


# --------------------------------------------------------------------------- bundled files


def bundled_files() -> None:
    """The bundled ``.param`` files as they are; each step file whole, and cut to single steps.

    A step file of one step keeps the schema check cheap, so the fuzzer runs several times more
    inputs; the whole files keep the phases and jumps between steps.
    """
    _clear("bundled-", "param", "steps")
    for path in sorted((PACKAGE / "data").glob("*/*.param")):
        _save("param", f"bundled-{path.parent.name}-{path.name}", path.read_bytes())
    for path in sorted((ROOT / "configuration_steps").glob("configuration_steps_*.json")):
        if "schema" in path.name:
            continue
        vehicle = path.stem.removeprefix("configuration_steps_")
        _save("steps", f"bundled-{vehicle}.json", path.read_bytes())
        document = json.loads(path.read_bytes())
        for filename in list(document["steps"])[:2]:
            single = {"steps": {filename: document["steps"][filename]}, "phases": document.get("phases", {})}
            _save("steps", f"bundled-{vehicle}-{filename[:2]}.json", json.dumps(single, indent=1).encode())


# --------------------------------------------------------------------------- encoded seeds


def encoded_seeds() -> None:
    _clear("encoded-", "sitl-json", "rflysim", "xrp")
    blocks = (
        xrp.EncoderBlock(0, -1500, 80_001, 1_000_000),
        xrp.DioBlock(0, 1),
        xrp.GyroBlock(1, 2, 3, 4, 5, 6),
        xrp.AccelBlock(0.0, 0.0, 1.0),
        xrp.MotorBlock(0, 0.5),
        xrp.ServoBlock(4, 0.5),
        xrp.RawBlock(0x42, b"ab"),
    )
    _save("xrp", "encoded-all-blocks", xrp.encode(xrp.XrpPacket(7, 1, blocks)))
    _save("xrp", "encoded-motor", xrp.encode(xrp.XrpPacket(8, 0, (xrp.MotorBlock(1, -0.25),))))
    _save("xrp", "encoded-empty", xrp.encode(xrp.XrpPacket(9, 0, ())))
    rfly = {
        "sil-int-float": rflysim.encode(
            rflysim.SilIntFloat(1, tuple(range(8)), tuple(float(i) for i in range(20)))
        ),
        "truesim-4i24f7d": struct.pack("<4i24f7d", 123456789, 1, 3, 0, *([0.5] * 24), *([1.5] * 7)),
        "reqvehicle-6i14f4d": struct.pack(
            "<6i14f4d", 1234567891, 1, 3, 401541234, 1162591234, 50000, *([0.5] * 14), *([1.5] * 4)
        ),
        "ii32d": struct.pack("<ii32d", 1234567890, 1, *([0.25] * 32)),
        "net-data-short": struct.pack("<ii", -1, 152) + bytes(192),
    }
    for name, data in rfly.items():
        _save("rflysim", f"encoded-{name}", data)
    state = ardupilot_json.FdmState(
        timestamp=1.5,
        gyro=(0.0, 0.0, 0.0),
        accel_body=(0.0, 0.0, -9.81),
        velocity=(1.0, 2.0, 3.0),
        attitude=(0.1, 0.2, 0.3),
        no_time_sync=True,
        rc=(1500.0, 1500.0, 1000.0, 1500.0, None, None, None, None, None, 1900.0),
        battery_voltage=12.6,
    )
    _save("sitl-json", "encoded-state-every-section", ardupilot_json.encode_state(state))
    _save(
        "sitl-json", "encoded-servo-32", sitl_servo_packet.encode_servo_packet(1200, 2**32 - 1, [1000] * 32)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sitl", default=str(ROOT.parent / "shared" / "sitl"))
    parser.add_argument("--seconds", type=float, default=12.0)
    arguments = parser.parse_args(argv)
    encoded_seeds()
    bundled_files()
    capture_demo(arguments.seconds)
    sitl = Path(arguments.sitl)
    if (sitl / "arducopter").is_file():
        capture_sitl(sitl, arguments.seconds)
    else:
        print(f"no SITL at {sitl}: sitl-json/ and mavlink/ keep only encoded and demo seeds")
    for folder in sorted(CORPUS.iterdir()):
        files = sorted(folder.iterdir())
        digest = hashlib.sha1(b"".join(path.read_bytes() for path in files)).hexdigest()[:12]
        print(f"{folder.name:10} {len(files):3} files {sum(p.stat().st_size for p in files):>8,} B  {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
