# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fuzz targets: what each one feeds the program, and the one error it may raise.

An *escape* is any exception other than the target's documented error; a harness also raises
``Escape`` itself where the code broke a promise without raising (a codec bug the triage
swallowed, an error message past its bound, a model that logged an internal error).

Every target is a ``setup()`` returning a one-input function.  The package is imported inside
``setup()``, so inside the fuzzer's instrumentation block (``fuzz/fuzz.py``): a module imported
before atheris' hook is in place would be fuzzed blind.  Harnesses keep nothing of one input for
the next but what the program itself keeps across a reconnection (the MAVLink model), so an
escape replays from its reproducer alone.
"""

from __future__ import annotations

import math
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "fuzz" / "corpus"
MAX_DATAGRAM = 65_507  # the largest IPv4 UDP payload: what a codec can meet on the wire

Harness = Callable[[bytes], None]


class Escape(Exception):  # noqa: N818 - named for what the fuzzers count, as in the docs
    """A promise broken without an exception of its own: the harness raises it to stop the fuzzer."""


@dataclass(frozen=True)
class Target:
    """One fuzz target: its harness factory, its documented error, its seed corpus and input bound."""

    name: str
    setup: Callable[[], Harness]
    # The documented error, as the names of its module and class: importing them here would import
    # the package before the fuzzer can instrument it.
    expected: str
    seeds: tuple[Path, ...]
    max_len: int


# --------------------------------------------------------------------------- bridge codecs


def _codec(protocol: str) -> Harness:
    """Full decode, header triage and detection of one datagram, as the relay and monitor run them."""
    from amc_rc_receiver.sim_bridge.protocols import table  # noqa: PLC0415
    from amc_rc_receiver.sim_bridge.protocols.triage import REASON_DECODER_FAULT  # noqa: PLC0415

    def run(data: bytes) -> None:
        # detection and triage never raise: a codec bug there is swallowed into a count, so it is
        # turned back into an escape here
        table.detect_protocol(data)
        for name in table.NAMES:
            table.is_valid_peer_packet(name, data)
        for name in (protocol, table.AUTO):
            verdict = table.triage(name, data)
            if verdict.reason == REASON_DECODER_FAULT:
                raise Escape(f"triage for {name} caught a codec fault")
        table.decode(protocol, data)  # may raise CodecError only

    return run


def sitl_json() -> Harness:
    return _codec("ardupilot-json")


def rflysim() -> Harness:
    return _codec("rflysim")


def xrp() -> Harness:
    return _codec("xrp")


# --------------------------------------------------------------------------- MAVLink intake

# Polls per input at most: the model reads 50 messages per poll, so 2 KiB of stream always fits.
MAX_POLLS = 400
# The model's bound on messages read per poll (its docstring): a poll that read fewer emptied
# the link.  Stated here, as the model's own constant moves between its modules.
MESSAGES_PER_POLL = 50
POLL_STEP_S = 0.1  # the UI polls about every 100 ms
STALE_STEP_S = 4.0  # past the 3 s after which readings are cleared


def fix_checksums(data: bytes) -> bytes:
    """``data`` with the checksum of every MAVLink 1 and 2 frame it seems to hold recomputed.

    A mutated frame almost never keeps a valid CRC, and pymavlink drops it as BAD_DATA before the
    model sees it; fixed, the mutation reaches the model's own code.  Frames are found greedily,
    as pymavlink finds them: a start byte, a length, the message id's CRC_EXTRA.
    """
    from pymavlink.dialects.v20 import ardupilotmega as mavlink2  # noqa: PLC0415

    buffer = bytearray(data)
    index = 0
    while index < len(buffer):
        magic = buffer[index]
        if magic == 0xFD and index + 10 <= len(buffer):
            length = buffer[index + 1]
            msgid = int.from_bytes(buffer[index + 7 : index + 10], "little")
            header_end = index + 10
        elif magic == 0xFE and index + 6 <= len(buffer):
            length = buffer[index + 1]
            msgid = buffer[index + 5]
            header_end = index + 6
        else:
            index += 1
            continue
        crc_at = header_end + length
        kind = mavlink2.mavlink_map.get(msgid)
        if kind is None or crc_at + 2 > len(buffer):
            index += 1
            continue
        crc = mavlink2.x25crc(bytes(buffer[index + 1 : crc_at]))
        crc.accumulate(bytes([kind.crc_extra]))
        buffer[crc_at : crc_at + 2] = crc.crc.to_bytes(2, "little")
        index = crc_at + 2
    return bytes(buffer)


def mavlink_intake() -> Harness:
    """A byte stream from a vehicle, parsed by pymavlink's own parser, feeding the model's poll.

    The link is pymavlink's ``mavfile`` over a byte buffer with the facade's MAVLink 2 codec
    (robust parsing, as on a real connection); the model is the real one over the real facade,
    on a hand-moved clock.  Each input is a new connection of the same active model, as when the
    program connects again, which makes the model forget the last one (its design, and a third
    of the cost of a new model per input); it polls until the stream is read, then once more past
    the stale limit.  ``poll()`` never raises by contract, and reports its own bugs as ``internal_error``:
    either is an escape.  Inputs of even length get their frames' checksums fixed
    (``fix_checksums``); odd ones are parsed as they are, so bad checksums are fuzzed too.
    """
    from pymavlink import mavutil  # noqa: PLC0415

    from amc_rc_receiver.backend_flightcontroller import FlightController  # noqa: PLC0415
    from amc_rc_receiver.connection.opening import use_mavlink2  # noqa: PLC0415
    from amc_rc_receiver.host.param_file import read_example_receiver_params  # noqa: PLC0415
    from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel  # noqa: PLC0415

    parameters = {entry.name: entry.value for entry in read_example_receiver_params("ArduCopter")}

    class ByteStreamLink(mavutil.mavfile):  # type: ignore[misc] # pymavlink has no type hints
        """pymavlink's generic port over a byte buffer; what the check sends is dropped."""

        def __init__(self, data: bytes) -> None:
            super().__init__(None, "fuzz", source_system=255, source_component=190, input=False)
            use_mavlink2(self)
            self._data = data
            self._at = 0
            self.parser_error: BaseException | None = None

        @property
        def exhausted(self) -> bool:
            return self._at >= len(self._data)

        def recv(self, n: int | None = None) -> bytes:
            size = 1 if n is None else max(int(n), 1)
            chunk = self._data[self._at : self._at + size]
            self._at += len(chunk)
            return chunk

        def recv_msg(self) -> Any:
            try:
                return super().recv_msg()
            except Exception as error:
                # the model would report it as a link fault: on a byte buffer it is the parser's
                self.parser_error = error
                raise

        def write(self, buf: bytes) -> None:
            pass

        def close(self) -> None:
            pass

    class Clock:
        def __init__(self) -> None:
            self.now = 1000.0

        def __call__(self) -> float:
            return self.now

    def check(state: Any, link: ByteStreamLink) -> None:
        if link.parser_error is not None:
            raise Escape("pymavlink's parser raised") from link.parser_error
        if state.internal_error is not None:
            raise Escape(f"the model reported an internal error: {state.internal_error}")

    clock = Clock()
    fc = FlightController()
    fc.info.system_id, fc.info.component_id = "1", "1"
    fc.fc_parameters = parameters
    model = RCReceiverDataModel(fc, clock=clock)
    model.activate()

    def run(data: bytes) -> None:
        stream = fix_checksums(data) if len(data) % 2 == 0 else data
        link = ByteStreamLink(stream)
        fc.master = link  # a new connection: the model starts a new test
        for _poll in range(MAX_POLLS):
            clock.now += POLL_STEP_S
            check(model.poll(), link)
            if link.exhausted and model.messages_read_last_poll < MESSAGES_PER_POLL:
                break  # the stream is read and nothing is carried over to the next poll
        clock.now += STALE_STEP_S
        check(model.poll(), link)

    return run


# --------------------------------------------------------------------------- files


def param_file() -> Harness:
    """Each input as a real ``.param`` file through ``read_param_file``: only ``ParamFileError``.

    A result that breaks the reader's promises escapes too: an error message longer than its
    bound (the first bad lines, each quoted in at most ``MAX_QUOTED`` characters), or an entry
    whose name or value ArduPilot could not hold.
    """
    from amc_rc_receiver.host.param_file import (  # noqa: PLC0415
        MAX_QUOTED,
        MAX_REPORTED_PROBLEMS,
        ParamFileError,
        read_param_file,
    )

    name = re.compile(r"[A-Z][A-Z0-9_]{0,15}")
    path = Path(tempfile.mkdtemp(prefix="fuzz-param-")) / "fuzz.param"
    bound = (MAX_REPORTED_PROBLEMS + 2) * (len(str(path)) + 4 * MAX_QUOTED + 120)

    def run(data: bytes) -> None:
        path.write_bytes(data)
        try:
            entries = read_param_file(path)
        except ParamFileError as error:
            if len(str(error)) > bound:
                raise Escape(f"a {len(str(error))}-character error message") from error
            raise
        for entry in entries:
            if not name.fullmatch(entry.name) or not math.isfinite(entry.value):
                raise Escape(f"an entry ArduPilot cannot hold: {entry!r}")

    return run


def step_file() -> Harness:
    """Each input as a real step file through ``load_configuration_steps_file``: only
    ``ConfigurationStepsError``."""
    from amc_rc_receiver.host.configuration_steps import load_configuration_steps_file  # noqa: PLC0415

    path = Path(tempfile.mkdtemp(prefix="fuzz-steps-")) / "configuration_steps_ArduCopter.json"

    def run(data: bytes) -> None:
        path.write_bytes(data)
        load_configuration_steps_file(path, vehicle="ArduCopter")

    return run


# --------------------------------------------------------------------------- the table

CODEC_ERROR = "amc_rc_receiver.sim_bridge.protocols.errors:CodecError"

TARGETS: dict[str, Target] = {
    target.name: target
    for target in (
        Target("sitl-json", sitl_json, CODEC_ERROR, (CORPUS / "sitl-json",), MAX_DATAGRAM),
        Target("rflysim", rflysim, CODEC_ERROR, (CORPUS / "rflysim",), MAX_DATAGRAM),
        Target("xrp", xrp, CODEC_ERROR, (CORPUS / "xrp",), MAX_DATAGRAM),
        Target("mavlink", mavlink_intake, "", (CORPUS / "mavlink",), 2048),
        Target(
            "param", param_file, "amc_rc_receiver.host.param_file:ParamFileError", (CORPUS / "param",), 16_384
        ),
        Target(
            "steps",
            step_file,
            "amc_rc_receiver.host.configuration_steps:ConfigurationStepsError",
            (CORPUS / "steps",),
            16_384,
        ),
    )
}
