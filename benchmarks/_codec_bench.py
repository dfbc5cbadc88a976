# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Decode rates of the simulator-bridge codecs, and their worst-case datagrams, from one run.

Strategy: for each packet kind, time the public decoder and a baseline measured in the same run
on the same bytes (``struct.unpack`` with the packet's full precompiled layout; ``json.loads``
for JSON states), each as the best of several interleaved repeats to damp noise from a shared
machine, and print packets/s and the ratio decoder/baseline.  The decoders build plain frozen
dataclasses, simplicity first, so there is no target ratio.  Then the worst datagrams found so
far (the flood cases of issue 9 and their 64 KiB versions) are timed, each against the typical
datagram of its codec in the same run.  Only figures are printed, nothing passes or fails.
"""

from __future__ import annotations

import json
import math
import struct
import timeit
from collections.abc import Callable

from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, rflysim, sitl_servo_packet, xrp
from amc_rc_receiver.sim_bridge.protocols.errors import CodecError

_REPEATS = 7
_MIN_SECONDS = 0.05


def _rates(*functions: Callable[[], object]) -> list[float]:
    """Calls per second of each function, best of several repeats (the least disturbed one).

    The repeats of the functions are interleaved, so that a decoder and its baseline see the
    same load on a shared machine rather than one of them catching a busy moment.
    """
    timers = [timeit.Timer(function) for function in functions]
    numbers = []
    for timer in timers:
        number, elapsed = timer.autorange()
        numbers.append(max(number, int(number * _MIN_SECONDS / max(elapsed, 1e-9))))
    best = [math.inf] * len(timers)
    for _repeat in range(_REPEATS):
        for index, (timer, number) in enumerate(zip(timers, numbers, strict=True)):
            best[index] = min(best[index], timer.timeit(number) / number)
    return [1.0 / seconds for seconds in best]


def _firmware_packet(step: int = 0) -> tuple[bytes, struct.Struct]:
    """What the XRP firmware sends: 4 encoders with periods, DIO 0, gyro, accel = 107 bytes."""
    layout = struct.Struct(">HB" + "BBBiII" * 4 + "BBBB" + "BB6f" + "BB3f")
    values: list[float] = [1234 + step, 0]
    for encoder in range(4):
        values += [14, 0x18, encoder, 1000 * encoder - 1500 + step, 2 * 40_000 + 1, 1_000_000 + step]
    values += [3, 0x14, 0, step % 2]
    values += [25, 0x16, 0.5 * step, -0.25, 1.5, 2.0, -3.0, 90.0 + step]
    values += [13, 0x17, 0.01, -0.02, 1.0 + step / 256]
    return layout.pack(*values), layout


def _wpilib_packet() -> tuple[bytes, struct.Struct]:
    """What WPILib sends by default: motors 0..3 and servos 4, 5 = 45 bytes."""
    layout = struct.Struct(">HB" + "BBBf" * 6)
    values: list[float] = [4321, 1]
    for motor, throttle in enumerate((0.25, -0.25, 0.0, 0.0)):
        values += [6, 0x12, motor, throttle]
    for servo in (4, 5):
        values += [6, 0x13, servo, 0.5]
    return layout.pack(*values), layout


def _cases() -> list[tuple[str, bytes, Callable[[bytes], object], Callable[[bytes], object]]]:
    servo16 = sitl_servo_packet.encode_servo_packet(1200, 42, [1500] * 4 + [1000] * 12)
    servo32 = sitl_servo_packet.encode_servo_packet(1200, 42, [1500] * 8 + [0] * 24)
    state = ardupilot_json.encode_state(
        ardupilot_json.FdmState(
            timestamp=12.345,
            gyro=(0.01, -0.02, 0.003),
            accel_body=(0.1, -0.2, -9.81),
            velocity=(1.5, -0.5, 0.0),
            attitude=(0.01, 0.02, 1.57),
            position=(10.0, -5.0, -2.0),
            rc=(1500.0, 1500.0, 1000.0, 1500.0, 1800.0, 1000.0, 1000.0, 1800.0),
        )
    )
    sil = rflysim.encode_sil_int_float(
        rflysim.SilIntFloat(1, tuple(range(8)), tuple(float(i) for i in range(20)))
    )
    true_state = rflysim.encode_true_state(
        rflysim.TrueState(
            copter_id=1,
            vehicle_type=3,
            reserved=0,
            vel_e=(1.0, 2.0, 3.0),
            ang_euler=(0.1, 0.2, 0.3),
            ang_quatern=(1.0, 0.0, 0.0, 0.0),
            motor_rpms=(1000.0,) * 8,
            acc_b=(0.0, 0.0, -9.8125),
            rate_b=(0.0, 0.0, 0.0),
            runned_time=12.5,
            pos_e=(1.0, 2.0, -3.0),
            pos_gps=(40.154, 116.259, 50.0),
        )
    )
    net = rflysim.encode_net_data_short(
        rflysim.NetDataShort(
            tg=-1,
            copter_id=1,
            vehicle_type=3,
            runned_time=12.5,
            vel_e=(1.0, 2.0, 3.0),
            pos_e=(1.0, 2.0, -3.0),
            ang_euler=(0.1, 0.2, 0.3),
            ang_quatern=(1.0, 0.0, 0.0, 0.0),
            motor_rpms=(1000.0,) * 8,
            acc_b=(0.0, 0.0, -9.8125),
            rate_b=(0.0, 0.0, 0.0),
            pos_gps=(40.154, 116.259, 50.0),
        )
    )
    firmware, firmware_layout = _firmware_packet()
    wpilib, wpilib_layout = _wpilib_packet()
    true_layout = struct.Struct("<4i24f7d")
    net_layout = struct.Struct("<ii2id27f4x3d40x")
    simple_layout = struct.Struct("<6i14f4d")
    simple = simple_layout.pack(1234567891, 1, 3, 401541234, 1162591234, 50000, *([0.5] * 14), *([1.5] * 4))
    out_layout = struct.Struct("<ii32d")
    out_copter = out_layout.pack(1234567890, 1, *([0.25] * 32))
    return [
        ("servo16 (40 B)", servo16, sitl_servo_packet.decode_servo_packet, struct.Struct("<HHI16H").unpack),
        ("servo32 (72 B)", servo32, sitl_servo_packet.decode_servo_packet, struct.Struct("<HHI32H").unpack),
        (f"json state ({len(state)} B)", state, ardupilot_json.decode_state, json.loads),
        ("rflysim SIL (120 B)", sil, rflysim.decode, struct.Struct("<10i20f").unpack),
        ("rflysim true state (168 B)", true_state, rflysim.decode, true_layout.unpack),
        ("rflysim netDataShort (200 B)", net, rflysim.decode, net_layout.unpack),
        ("rflysim SimpleTime (112 B)", simple, rflysim.decode, simple_layout.unpack),
        ("rflysim outCopterStruct (264 B)", out_copter, rflysim.decode, out_layout.unpack),
        (f"xrp firmware ({len(firmware)} B)", firmware, xrp.decode, firmware_layout.unpack),
        (f"xrp wpilib ({len(wpilib)} B)", wpilib, xrp.decode, wpilib_layout.unpack),
    ]


def _worst_cases() -> list[tuple[str, bytes, Callable[[bytes], object], bytes]]:
    """(name, datagram, decoder, the typical datagram of that decoder) for the worst known inputs."""
    required = (
        '"timestamp":1,"imu":{"gyro":[0,0,0],"accel_body":[0,0,0]},"velocity":[0,0,0],"attitude":[0,0,0]'
    )

    def unknown_keys(count: int) -> bytes:
        return ("\n{" + required + "," + ",".join(f'"k{i}":1' for i in range(count)) + "}\n").encode()

    def tiny_blocks(size: int) -> bytes:
        return (struct.pack(">HB", 1, 0) + bytes([1, 0x42]) * size)[:size]

    state = _cases()[2][1]
    firmware = _firmware_packet()[0]
    long_vector = ('\n{"timestamp":1,"imu":{"gyro":[' + "1," * 30_000 + "1]}}\n").encode()
    return [
        ("json, 900 unknown keys (8 KB)", unknown_keys(900), ardupilot_json.decode_state, state),
        ("json, 7000 unknown keys (64 KB)", unknown_keys(7000)[:65_507], ardupilot_json.decode_state, state),
        ("json, a 60,000-item vector", long_vector, ardupilot_json.decode_state, state),
        ("xrp, 8 KB of one-byte blocks", tiny_blocks(8192), xrp.decode, firmware),
        ("xrp, 64 KB of one-byte blocks", tiny_blocks(65_507), xrp.decode, firmware),
        (
            "xrp, 64 gyro blocks",
            struct.pack(">HB", 1, 0) + struct.pack(">BB6f", 25, 0x16, *[1.0] * 6) * 64,
            xrp.decode,
            firmware,
        ),
    ]


def _failing(decode: Callable[[bytes], object], data: bytes) -> Callable[[], object]:
    """A call of ``decode`` that may raise CodecError (a refusal is as much a result as a frame)."""

    def call() -> object:
        try:
            return decode(data)
        except CodecError as error:
            return error

    return call


def run_codec_benchmarks() -> list[str]:
    """Measure every codec; return the report lines (the caller prints them)."""
    lines = [
        f"{'packet':32} {'decode/s':>12} {'bare/s':>12} {'ratio':>6}"
        "  (bare = struct.unpack, json.loads for JSON)"
    ]
    for name, data, decode, bare in _cases():
        decode(data)  # fail loudly before timing if the vector is wrong
        decoded_rate, bare_rate = _rates(
            lambda decode=decode, data=data: decode(data),  # type: ignore[misc]
            lambda bare=bare, data=data: bare(data),  # type: ignore[misc]
        )
        lines.append(f"{name:32} {decoded_rate:12,.0f} {bare_rate:12,.0f} {decoded_rate / bare_rate:6.2f}")
    lines.append("")
    lines.append(
        f"{'worst-case datagram':32} {'ms each':>12} {'typical ms':>12} {'ratio':>6}  (typical = same codec)"
    )
    for name, data, decode, typical in _worst_cases():
        worst_rate, typical_rate = _rates(_failing(decode, data), _failing(decode, typical))
        lines.append(
            f"{name:32} {1e3 / worst_rate:12.4f} {1e3 / typical_rate:12.4f} {typical_rate / worst_rate:6.0f}"
        )
    return lines


if __name__ == "__main__":
    for line in run_codec_benchmarks():
        print(line)
