# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the simulator-bridge codecs: any exception but ``CodecError`` is an escape.

Run: .venv/bin/python fuzz/fuzz_codecs.py [--inputs 1000000] [--jobs 2] [--seed 1]

Strategy: a home-grown, seeded mutator (no native fuzzing engine to install).  Each input for a
codec comes from one of three sources: a structure-aware generator that knows the protocol
(SITL JSON built from the keytable with huge numbers, deep nesting, odd strings and framings; XRP
block chains of any length with right and wrong size bytes; RflySim and servo packets of a known
length and checksum or magic with any body), a mutation of such an input or of a valid seed
packet (bit flips, interesting bytes, cut, splice, repeat up to 64 KiB), or plain random bytes.
Sizes run up to the 64 KiB of a UDP datagram.  Every call is timed; the slowest inputs are timed
again at the end, best of several runs, so the reported worst case is not a scheduling hiccup.

Then the same generators feed real ``UdpRelay``s (one per protocol and one auto-detecting, each
listening on 127.0.0.1 only) watched by a ``BridgeMonitor``, one datagram at a time so that the
monitor decodes each: a codec escape there shows up as a "decoder fault" count, a relay fault as
an "internal error", and ``poll()`` itself must never raise.

Reproducers of escapes and the slowest input of each codec go to ``--out`` (default
``fuzz/findings/``); a summary is printed and written there as ``report.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine import TargetReport, mutate, random_size, run_in_processes, run_target

from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, rflysim, sitl_servo_packet, xrp
from amc_rc_receiver.sim_bridge.protocols import table as protocols
from amc_rc_receiver.sim_bridge.protocols.errors import CodecError
from amc_rc_receiver.sim_bridge.protocols.triage import REASON_DECODER_FAULT
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from amc_rc_receiver.sim_bridge.relay_counters import REASON_INTERNAL
from amc_rc_receiver.sim_bridge.snapshot import REASON_MONITOR_FAULT

MAX_DATAGRAM = 65_507  # the largest IPv4 UDP payload, so every input can also cross the relay

Generator = Callable[[random.Random], bytes]


# --------------------------------------------------------------------------- targets


def _detect_all(data: bytes) -> object:
    found = protocols.detect_protocol(data)
    for protocol in protocols.NAMES:
        protocols.is_valid_peer_packet(protocol, data)
    return found


TARGETS: dict[str, Callable[[bytes], object]] = {
    "servo": sitl_servo_packet.decode_servo_packet,
    "json": ardupilot_json.decode_state,
    "rflysim": rflysim.decode,
    "xrp": xrp.decode,
    "detect": _detect_all,
}


# --------------------------------------------------------------------------- sizes and bytes


def random_bytes(rng: random.Random) -> bytes:
    return rng.randbytes(random_size(rng, MAX_DATAGRAM))


# --------------------------------------------------------------------------- SITL JSON

ROOT_KEYS = ["timestamp", "latitude", "longitude", "altitude", "position", "attitude", "quaternion",
             "velocity", "rng_1", "rng_3", "rng_6", "velocity_wind", "airspeed", "no_time_sync",
             "no_lockstep"]  # fmt: skip
SECTION_KEYS = {
    "imu": ["gyro", "accel_body"],
    "windvane": ["direction", "speed"],
    "rc": [f"rc_{i}" for i in range(1, 13)],
    "battery": ["voltage", "current"],
}
JUNK_KEYS = ["x", "source", "rc_10x", "velocityX", "imu2", "", "ü", "\\u0000", "\\ud800", '\\"', "a" * 300]


def json_number(rng: random.Random) -> str:
    roll = rng.randrange(8)
    if roll == 0:
        return "9" * rng.randrange(1, 20_000)  # beyond int()'s 4300 digits
    if roll == 1:
        return (
            rng.choice(["-", ""]) + "1" * rng.randrange(300, 5000) + rng.choice(["", ".5", "e-999", "e999"])
        )
    if roll == 2:
        return rng.choice(["1e999", "-1e999", "1e-999", "0", "-0", "1", "2", "0.5", "1E+5", "4.9e-324"])
    if roll == 3:
        return str(rng.randint(-(2**70), 2**70))
    return repr(rng.uniform(-1e6, 1e6))


def json_string(rng: random.Random) -> str:
    pieces = [
        "a",
        "velocity",
        "rc_1",
        '\\"',
        "\\\\",
        "\\n",
        "\\u0000",
        "\\ud800",
        "\\udfff",
        "ü",
        "无",
        ":",
        "{",
        "[",
    ]
    return '"' + "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12))) + '"'


def json_value(rng: random.Random, depth: int = 0) -> str:
    roll = rng.randrange(12 if depth < 3 else 6)
    if roll <= 2:
        return json_number(rng)
    if roll == 3:
        return rng.choice(["true", "false", "null", "NaN", "Infinity", "tru", "1", "0"])
    if roll == 4:
        return json_string(rng)
    if roll == 5:
        return "[" + ",".join(json_number(rng) for _ in range(rng.choice((2, 3, 3, 4, 5)))) + "]"
    if roll == 6:
        nesting = rng.randrange(1, 5000)
        return rng.choice(["[", '{"a":']) * nesting + "1" + rng.choice(["]", "}"]) * nesting
    if roll == 7:
        return "[" + "1," * rng.randrange(0, 20_000) + "1]"
    return json_object(rng, depth + 1)


def json_object(rng: random.Random, depth: int = 0) -> str:
    colon = rng.choice([":", ":", ": ", " :", " : "])
    members = []
    for _member in range(rng.randrange(0, 8)):
        roll = rng.randrange(4)
        if roll == 0:
            section = rng.choice(list(SECTION_KEYS))
            inner = ",".join(
                f'"{rng.choice(SECTION_KEYS[section] + JUNK_KEYS)}"{colon}{json_value(rng, depth + 1)}'
                for _ in range(rng.randrange(0, 6))
            )
            members.append(f'"{section}"{colon}{{{inner}}}')
        else:
            key = rng.choice(ROOT_KEYS + JUNK_KEYS) if roll < 3 else rng.choice(list(SECTION_KEYS))
            members.append(f'"{key}"{colon}{json_value(rng, depth + 1)}')
    return "{" + ",".join(members) + "}"


def json_state(rng: random.Random) -> bytes:
    """A SITL-like state (usually valid at its core) with extra, odd or huge members, framed."""
    colon = rng.choice([":", ": "])
    core = [
        f'"timestamp"{colon}{json_number(rng) if rng.random() < 0.2 else "1.5"}',
        f'"imu"{colon}{{"gyro":[0,0,0],"accel_body":[0,0,-9.81]}}',
        f'"velocity"{colon}[1,2,3]',
        f'"attitude"{colon}[0,0,0]',
    ]
    members = [member for member in core if rng.random() < 0.9]
    rng.shuffle(members)
    for _extra in range(rng.choice((0, 1, 1, 2, 3))):
        members.insert(rng.randrange(len(members) + 1), json_object(rng)[1:-1])
    if rng.random() < 0.02:  # thousands of unknown keys, distinct or all the same
        many = rng.randrange(100, 8000)
        extra = (
            ",".join(map('"k{}":1'.format, range(many))) if rng.random() < 0.5 else '"k":1,' * many + '"k":1'
        )
        members.insert(rng.randrange(len(members) + 1), extra)
    text = "{" + ",".join(member for member in members if member) + "}"
    frame = rng.choice(["\n{}\n", "{}", "{}\n\n", "\n{}\n{}\n", "\r\n{}\r\n", "\n" * 3000 + "{}\n", " {} "])
    data = frame.replace("{}", text).encode("utf-8", "surrogatepass")
    return data[:MAX_DATAGRAM]


# --------------------------------------------------------------------------- binary protocols

XRP_SIZES = {0x12: (6,), 0x13: (6,), 0x14: (3,), 0x15: (6,), 0x16: (25,), 0x17: (13,), 0x18: (6, 14)}


def xrp_block(rng: random.Random, tiny: bool = False) -> bytes:
    tag = rng.choice([*XRP_SIZES, rng.randrange(256)])
    sizes = XRP_SIZES.get(tag)
    if sizes is not None and rng.random() < 0.95:
        size = rng.choice(sizes)
    else:
        size = rng.randrange(1, 4) if tiny else rng.randrange(256)
    return bytes([size, tag]) + rng.randbytes(max(0, size - 1))


def xrp_datagram(rng: random.Random) -> bytes:
    """A header and a chain of blocks: a handful usually, sometimes tens of thousands of tiny ones."""
    header = rng.randbytes(3)
    if rng.random() < 0.9:
        data = header + b"".join(xrp_block(rng) for _ in range(rng.randrange(0, 12)))
    else:  # a pattern of a few blocks repeated up to the largest datagram
        pattern = b"".join(xrp_block(rng, tiny=True) for _ in range(rng.randrange(1, 5)))
        data = header + pattern * rng.randrange(1, MAX_DATAGRAM // len(pattern) + 1)
    if rng.random() < 0.1:
        data += rng.randbytes(rng.randrange(1, 4))
    return data[:MAX_DATAGRAM]


RFLYSIM_KINDS = [
    (12, 1234567890), (32, 1234567890), (48, 1234567898), (60, 1234567890), (88, 1234567880),
    (88, 1234567881), (112, 1234567891), (120, 1234567897), (120, 1234567803), (168, 123456789),
    (232, 1234567897), (232, 1234567902), (232, 1234567905), (264, 1234567890), (264, 1234567891),
    (264, 1234567892), (264, 1234567899), (528, 1234567893),
]  # fmt: skip


def rflysim_datagram(rng: random.Random) -> bytes:
    """A known length and checksum (or netDataShort's len field) with any body, sometimes off."""
    if rng.random() < 0.15:
        data = struct.pack(
            "<ii", rng.randint(-(2**31), 2**31 - 1), rng.choice((152, 152, 200, 0))
        ) + rng.randbytes(192)
    else:
        length, checksum = rng.choice(RFLYSIM_KINDS)
        if rng.random() < 0.1:
            checksum = rng.choice([checksum + 1, checksum - 1, rng.randint(-(2**31), 2**31 - 1)])
        data = struct.pack("<i", checksum) + rng.randbytes(length - 4)
    if rng.random() < 0.15:
        change = rng.randint(-8, 8)
        data = data[:change] if change < 0 else data + rng.randbytes(change)
    return data


def servo_datagram(rng: random.Random) -> bytes:
    magic, length = rng.choice(
        [(18458, 40), (29569, 72), (18458, 72), (29569, 40), (rng.randrange(65536), 40)]
    )
    data = struct.pack("<H", magic) + rng.randbytes(length - 2)
    if rng.random() < 0.15:
        change = rng.randint(-4, 4)
        data = data[:change] if change < 0 else data + rng.randbytes(change)
    return data


def _seed_packets() -> list[bytes]:
    """Valid packets of every kind, encoded by the codecs themselves."""
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
    blocks = (
        xrp.EncoderBlock(0, -1500, 80_001, 1_000_000),
        xrp.DioBlock(0, 1),
        xrp.GyroBlock(1, 2, 3, 4, 5, 6),
        xrp.AccelBlock(0.0, 0.0, 1.0),
        xrp.MotorBlock(0, 0.5),
        xrp.ServoBlock(4, 0.5),
        xrp.RawBlock(0x42, b"ab"),
    )
    return [
        sitl_servo_packet.encode_servo_packet(400, 7, [1500] * 16),
        sitl_servo_packet.encode_servo_packet(1200, 2**32 - 1, [1000] * 32),
        ardupilot_json.encode_state(state),
        xrp.encode(xrp.XrpPacket(7, 1, blocks)),
        rflysim.encode(rflysim.SilIntFloat(1, tuple(range(8)), tuple(float(i) for i in range(20)))),
        struct.pack("<4i24f7d", 123456789, 1, 3, 0, *([0.5] * 24), *([1.5] * 7)),
        struct.pack("<6i14f4d", 1234567891, 1, 3, 401541234, 1162591234, 50000, *([0.5] * 14), *([1.5] * 4)),
        struct.pack("<ii32d", 1234567890, 1, *([0.25] * 32)),
        struct.pack("<ii", -1, 152) + bytes(192),
    ]


STRUCTURED: dict[str, list[Generator]] = {
    "servo": [servo_datagram],
    "json": [json_state],
    "rflysim": [rflysim_datagram],
    "xrp": [xrp_datagram],
    "detect": [servo_datagram, json_state, rflysim_datagram, xrp_datagram],
}


class InputSource:
    """Inputs for one codec: structured (45 %), mutated (40 %) and random (15 %)."""

    def __init__(self, codec: str, rng: random.Random) -> None:
        self._rng = rng
        self._generators = STRUCTURED[codec]
        self._pool = _seed_packets()

    def __call__(self) -> bytes:
        rng = self._rng
        roll = rng.random()
        if roll < 0.45:
            data = rng.choice(self._generators)(rng)
            if rng.random() < 0.02:
                self._pool[rng.randrange(len(self._pool))] = data  # let interesting inputs breed
            return data
        if roll < 0.85:
            base = rng.choice(self._pool) if rng.random() < 0.5 else rng.choice(self._generators)(rng)
            return mutate(rng, base, self._pool, MAX_DATAGRAM)
        return random_bytes(rng)


# --------------------------------------------------------------------------- codec runs


def fuzz_codec(codec: str, inputs: int, seed: int, out: Path) -> TargetReport:
    """Feed ``inputs`` generated datagrams to one codec; count escapes, keep the slowest inputs."""
    source = InputSource(codec, random.Random(f"{seed}:{codec}"))
    return run_target(codec, TARGETS[codec], source, CodecError, inputs=inputs, out=out)


# --------------------------------------------------------------------------- relay and monitor


@dataclass
class RelayReport:
    protocol: str
    sent: int = 0
    counted: int = 0
    decoder_faults: int = 0
    relay_faults: int = 0
    poll_exceptions: int = 0
    decode_errors: dict[str, int] = field(default_factory=dict)


def fuzz_relay(protocol: str, count: int, seed: int) -> RelayReport:
    """Send ``count`` generated datagrams through a loopback relay, one at a time, and poll."""
    rng = random.Random(f"{seed}:relay:{protocol}")
    sources = [InputSource(codec, rng) for codec in ("servo", "json", "rflysim", "xrp")]
    report = RelayReport(protocol)
    config = RelayConfig(
        f"fuzz-{protocol}", protocol=protocol, listen=("127.0.0.1", 0), max_record_bytes=MAX_DATAGRAM
    )
    relay = UdpRelay(config)
    relay.start()
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.bind(("127.0.0.1", 0))
    monitor = BridgeMonitor([relay])
    fault_labels = {REASON_DECODER_FAULT}
    relay_fault_labels = {REASON_INTERNAL, REASON_MONITOR_FAULT}
    try:
        snapshot = monitor.poll()
        for _index in range(count):
            data = rng.choice(sources)() or b"\0"
            sender.sendto(data, relay.listen_address)
            report.sent += 1
            deadline = time.monotonic() + 2.0
            while True:  # wait until the relay has seen it, so the monitor decodes this one
                try:
                    snapshot = monitor.poll()
                except Exception:  # poll() must never raise; count it if it does
                    report.poll_exceptions += 1
                    break
                if snapshot.links[0].from_peer.packets >= report.sent or time.monotonic() > deadline:
                    break
                time.sleep(0.0002)
        link = snapshot.links[0]
        report.counted = link.from_peer.packets
        report.decode_errors = dict(link.from_peer.decode_errors)
        report.decoder_faults = sum(n for label, n in link.from_peer.decode_errors if label in fault_labels)
        report.relay_faults = sum(n for label, n in link.relay_errors if label in relay_fault_labels)
    finally:
        sender.close()
        relay.stop()
    return report


# --------------------------------------------------------------------------- main


def _run(arguments: argparse.Namespace) -> int:
    out = Path(arguments.out)
    codecs = arguments.codec or list(TARGETS)
    started = time.perf_counter()
    tasks = [(fuzz_codec, (codec, arguments.inputs, arguments.seed, out)) for codec in codecs]
    reports = run_in_processes(arguments.jobs, tasks)
    relays: list[RelayReport] = []
    if arguments.relay_datagrams:
        per_relay = arguments.relay_datagrams // 4
        for protocol in ("ardupilot-json", "rflysim", "xrp", "auto"):
            relay_report = fuzz_relay(protocol, per_relay, arguments.seed)
            relays.append(relay_report)
            print(
                f"relay {protocol:14} sent {relay_report.sent:>6,}  counted {relay_report.counted:>6,}  "
                f"decoder faults {relay_report.decoder_faults}  "
                f"relay/monitor faults {relay_report.relay_faults}  "
                f"poll exceptions {relay_report.poll_exceptions}",
                flush=True,
            )
    summary = {
        "seed": arguments.seed,
        "seconds": round(time.perf_counter() - started, 1),
        "codecs": [asdict(report) for report in reports],
        "relays": [asdict(report) for report in relays],
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    escaped = sum(report.escapes for report in reports)
    faults = sum(r.decoder_faults + r.relay_faults + r.poll_exceptions for r in relays)
    return 1 if escaped or faults else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--inputs", type=int, default=1_000_000, help="generated inputs per codec")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="codecs fuzzed in parallel processes")
    parser.add_argument("--codec", action="append", choices=list(TARGETS), help="fuzz only these")
    parser.add_argument(
        "--relay-datagrams", type=int, default=20_000, help="datagrams sent through the relays (0: skip)"
    )
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "findings"))
    return _run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
