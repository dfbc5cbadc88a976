# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Decode rates of the simulator-bridge codecs against a bare parse of the same bytes.

Strategy: for each packet kind, time the public decoder and a baseline measured in the same run
on the same bytes (``struct.unpack`` with the packet's full precompiled layout; ``json.loads``
for JSON states), each as the best of several interleaved repeats to damp noise from a shared
machine, and print packets/s and the ratio decoder/baseline.  XRP packets build their blocks when
first read, so the XRP rows time ``decode`` alone and two more rows time decoding plus reading
the blocks (no target).  Only figures are printed, nothing passes or fails.
"""

from __future__ import annotations

import itertools
import json
import math
import struct
import timeit
from collections.abc import Callable

from amc_rc_receiver.sim_bridge import ardupilot_json, rflysim, xrp

TARGET_RATIO = 0.5
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


def _varying(packets: list[bytes], function: Callable[[bytes], object]) -> Callable[[], object]:
    """Call ``function`` on the packets in turn, so no result can be a repeat of the last one."""
    feed = itertools.cycle(packets).__next__
    return lambda: function(feed())


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
    servo16 = ardupilot_json.encode_servo_packet(1200, 42, [1500] * 4 + [1000] * 12)
    servo32 = ardupilot_json.encode_servo_packet(1200, 42, [1500] * 8 + [0] * 24)
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
    return [
        ("servo16 (40 B)", servo16, ardupilot_json.decode_servo_packet, struct.Struct("<HHI16H").unpack),
        ("servo32 (72 B)", servo32, ardupilot_json.decode_servo_packet, struct.Struct("<HHI32H").unpack),
        (f"json state ({len(state)} B)", state, ardupilot_json.decode_state, json.loads),
        ("rflysim SIL (120 B)", sil, rflysim.decode, struct.Struct("<10i20f").unpack),
        ("rflysim true state (168 B)", true_state, rflysim.decode, true_layout.unpack),
        ("rflysim netDataShort (200 B)", net, rflysim.decode, net_layout.unpack),
        (f"xrp firmware ({len(firmware)} B)", firmware, xrp.decode, firmware_layout.unpack),
        (f"xrp wpilib ({len(wpilib)} B)", wpilib, xrp.decode, wpilib_layout.unpack),
    ]


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
        ratio = decoded_rate / bare_rate
        binary = "json" not in name
        mark = "" if not binary or ratio >= TARGET_RATIO else f"  below target {TARGET_RATIO}"
        lines.append(f"{name:32} {decoded_rate:12,.0f} {bare_rate:12,.0f} {ratio:6.2f}{mark}")
    # The XRP decoder remembers each length's block layout; show that its rate does not depend on
    # seeing identical bytes: 64 firmware packets with different values, cycled on both sides.
    varied = [_firmware_packet(step)[0] for step in range(64)]
    bare_unpack = _firmware_packet()[1].unpack
    decoded_rate, bare_rate = _rates(_varying(varied, xrp.decode), _varying(varied, bare_unpack))
    ratio = decoded_rate / bare_rate
    mark = "" if ratio >= TARGET_RATIO else f"  below target {TARGET_RATIO}"
    lines.append(
        f"{'xrp firmware, 64 varying':32} {decoded_rate:12,.0f} {bare_rate:12,.0f} {ratio:6.2f}{mark}"
    )
    # An XRP packet builds its blocks when they are first read (the monitor reads them only for the
    # frame it shows); this is the cost when every packet's blocks are read, for information.
    for name, (data, layout) in (("firmware", _firmware_packet()), ("wpilib", _wpilib_packet())):
        decoded_rate, bare_rate = _rates(
            lambda data=data: xrp.decode(data).blocks,  # type: ignore[misc]
            lambda unpack=layout.unpack, data=data: unpack(data),  # type: ignore[misc]
        )
        label = f"xrp {name} + blocks read"
        lines.append(f"{label:32} {decoded_rate:12,.0f} {bare_rate:12,.0f} {decoded_rate / bare_rate:6.2f}")
    return lines


if __name__ == "__main__":
    for line in run_codec_benchmarks():
        print(line)
