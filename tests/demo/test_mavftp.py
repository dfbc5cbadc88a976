# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The read-only MAVFTP server, sans-IO: request payloads in, reply payloads out.

Requests are built with the header layout of the MAVLink FTP specification; replies are taken
apart the same way, so these tests pin the wire format a ground station relies on.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

import pytest

from amc_rc_receiver.demo.mavftp import (
    DATA_MAX,
    MIN_BURST_CHUNK,
    PAYLOAD_SIZE,
    FtpError,
    FtpOp,
    MavftpServer,
    VirtualFiles,
    ardupilot_crc32,
)

pytestmark = pytest.mark.pure

HEADER = struct.Struct("<HBBBBBBI")
FILE = bytes(range(256)) * 2 + bytes(88)  # 600 bytes: two full 239-byte packets and a short one


class Reply(NamedTuple):
    seq: int
    session: int
    opcode: int
    req_opcode: int
    burst_complete: int
    offset: int
    data: bytes


def request(
    opcode: int,
    data: bytes = b"",
    *,
    seq: int = 10,
    session: int = 0,
    size: int | None = None,
    offset: int = 0,
) -> bytes:
    length = len(data) if size is None else size
    return (HEADER.pack(seq, session, opcode, length, 0, 0, 0, offset) + data).ljust(PAYLOAD_SIZE, b"\x00")


def parse(payload: bytes) -> Reply:
    assert len(payload) == PAYLOAD_SIZE
    seq, session, opcode, size, req_opcode, burst_complete, _pad, offset = HEADER.unpack_from(payload)
    return Reply(
        seq, session, opcode, req_opcode, burst_complete, offset, payload[HEADER.size : HEADER.size + size]
    )


def one(server: MavftpServer, payload: bytes) -> Reply:
    (reply,) = server.handle(payload)
    return parse(reply)


@pytest.fixture
def server() -> MavftpServer:
    return MavftpServer(VirtualFiles({"@PARAM/param.pck": lambda query: FILE if not query else FILE[:10]}))


def test_open_then_burst_read_streams_the_file_and_ends_with_end_of_file(server: MavftpServer) -> None:
    """
    GIVEN an open 600-byte file (session 3)
    WHEN a BurstReadFile asks for 239-byte packets from offset 0
    THEN three ACKs at offsets 0, 239, 478 carry the whole file with sequence numbers request+1..+3,
    AND an EndOfFile NAK at offset 600 follows with the next sequence number.
    """
    opened = one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=4, session=3))
    assert (opened.opcode, opened.seq, opened.session, opened.req_opcode) == (
        FtpOp.ACK,
        5,
        3,
        FtpOp.OPEN_FILE_RO,
    )
    assert struct.unpack("<I", opened.data) == (600,)
    replies = [parse(p) for p in server.handle(request(FtpOp.BURST_READ_FILE, seq=6, session=3, size=239))]
    assert [(r.opcode, r.seq, r.offset, len(r.data)) for r in replies] == [
        (FtpOp.ACK, 7, 0, 239),
        (FtpOp.ACK, 8, 239, 239),
        (FtpOp.ACK, 9, 478, 122),
        (FtpOp.NACK, 10, 600, 1),
    ]
    assert b"".join(r.data for r in replies[:3]) == FILE
    assert replies[-1].data[0] == FtpError.END_OF_FILE
    assert all(r.req_opcode == FtpOp.BURST_READ_FILE for r in replies)


def test_read_file_returns_one_chunk_and_end_of_file_past_the_end(server: MavftpServer) -> None:
    """
    GIVEN an open file
    WHEN ReadFile asks for 100 bytes at offset 550, then anything at offset 600
    THEN the first returns the last 50 bytes and the second an EndOfFile NAK.
    """
    one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", session=1))
    chunk = one(server, request(FtpOp.READ_FILE, seq=20, session=1, size=100, offset=550))
    assert (chunk.opcode, chunk.offset, chunk.data) == (FtpOp.ACK, 550, FILE[550:])
    end = one(server, request(FtpOp.READ_FILE, seq=21, session=1, size=100, offset=600))
    assert (end.opcode, end.data) == (FtpOp.NACK, bytes([FtpError.END_OF_FILE]))


def test_the_query_reaches_the_file_builder(server: MavftpServer) -> None:
    """GIVEN a path with a query WHEN it is opened THEN the builder saw the query (here: a 10-byte file)."""
    opened = one(server, request(FtpOp.OPEN_FILE_RO, b"/@PARAM/param.pck?withdefaults=1"))
    assert struct.unpack("<I", opened.data) == (10,)


def test_sessions_are_single_and_checked(server: MavftpServer) -> None:
    """
    GIVEN an open session 2
    WHEN another open arrives, a read names session 5, and a TerminateSession names session 5
    THEN they are refused (NoSessionsAvailable, InvalidSession twice); ResetSessions then frees it.
    """
    one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=1, session=2))
    second = one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=2, session=5))
    assert second.data == bytes([FtpError.NO_SESSIONS_AVAILABLE])
    assert one(server, request(FtpOp.READ_FILE, seq=3, session=5)).data == bytes([FtpError.INVALID_SESSION])
    assert one(server, request(FtpOp.TERMINATE_SESSION, seq=4, session=5)).data == bytes(
        [FtpError.INVALID_SESSION]
    )
    assert one(server, request(FtpOp.RESET_SESSIONS, seq=5)).opcode == FtpOp.ACK
    assert server.open_session is None
    assert one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=6, session=5)).opcode == FtpOp.ACK


@pytest.mark.parametrize(
    ("opcode", "error"),
    [
        pytest.param(FtpOp.CREATE_FILE, FtpError.FILE_PROTECTED, id="create"),
        pytest.param(FtpOp.WRITE_FILE, FtpError.FILE_PROTECTED, id="write"),
        pytest.param(FtpOp.REMOVE_FILE, FtpError.FILE_PROTECTED, id="remove"),
        pytest.param(FtpOp.RENAME, FtpError.FILE_PROTECTED, id="rename"),
        pytest.param(16, FtpError.UNKNOWN_COMMAND, id="list with time"),
        pytest.param(FtpOp.NONE, FtpError.UNKNOWN_COMMAND, id="none"),
    ],
)
def test_writes_and_unknown_opcodes_are_refused(server: MavftpServer, opcode: int, error: FtpError) -> None:
    """GIVEN the read-only server WHEN a write or an unknown opcode arrives THEN a NAK with its error."""
    reply = one(server, request(opcode, b"@PARAM/param.pck"))
    assert (reply.opcode, reply.req_opcode, reply.data) == (FtpOp.NACK, opcode, bytes([error]))


def test_a_repeated_request_gets_the_same_reply_and_a_new_one_is_handled_afresh(server: MavftpServer) -> None:
    """
    GIVEN an OpenFileRO that succeeded
    WHEN the same request (same sequence number) arrives again, its reply having been lost
    THEN the same ACK is sent again instead of NoSessionsAvailable.
    """
    payload = request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=30, session=4)
    first = server.handle(payload)
    assert server.handle(payload) == first
    assert one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=31, session=4)).data == bytes(
        [FtpError.NO_SESSIONS_AVAILABLE]
    )


def test_list_directory_shows_directories_and_files_with_sizes(server: MavftpServer) -> None:
    """
    GIVEN the virtual files
    WHEN "/" and "@PARAM" are listed, then "@PARAM" past its last entry and a missing directory
    THEN "D@PARAM" and "Fparam.pck<TAB>600" are listed, then EndOfFile, then FileNotFound.
    """
    root = one(server, request(FtpOp.LIST_DIRECTORY, b"/"))
    assert root.data == b"D@PARAM\x00"
    params = one(server, request(FtpOp.LIST_DIRECTORY, b"@PARAM", seq=11))
    assert params.data == b"Fparam.pck\t600\x00"
    past = one(server, request(FtpOp.LIST_DIRECTORY, b"@PARAM", seq=12, offset=1))
    assert past.data == bytes([FtpError.END_OF_FILE])
    missing = one(server, request(FtpOp.LIST_DIRECTORY, b"@SYS", seq=13))
    assert missing.data == bytes([FtpError.FILE_NOT_FOUND])


def _crc32_register(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte
        for _bit in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc


def test_crc32_is_ardupilots_register_without_inversions(server: MavftpServer) -> None:
    """
    GIVEN the file
    WHEN CalcFileCRC32 asks for its CRC
    THEN it is the reflected CRC-32 register started at 0 with no final inversion, as ArduPilot computes.
    """
    reply = one(server, request(FtpOp.CALC_FILE_CRC32, b"@PARAM/param.pck"))
    assert struct.unpack("<I", reply.data) == (_crc32_register(FILE),)
    assert ardupilot_crc32(b"123456789") == _crc32_register(b"123456789")


def test_short_and_oversized_requests(server: MavftpServer) -> None:
    """
    GIVEN the server
    WHEN a payload shorter than the header arrives, and one declaring more than 239 data bytes
    THEN the first gets no reply (there is no sequence number to answer) and the second InvalidDataSize.
    """
    assert server.handle(b"\x01\x02\x03") == []
    oversized = one(server, request(FtpOp.READ_FILE, size=DATA_MAX + 1))
    assert oversized.data == bytes([FtpError.INVALID_DATA_SIZE])


def test_a_burst_of_one_byte_chunks_is_served_in_chunks_of_at_least_the_usual_size(
    server: MavftpServer,
) -> None:
    """
    GIVEN an open 600-byte file
    WHEN a BurstReadFile asks for 1-byte packets (ArduPilot would answer with 500 datagrams)
    THEN the file comes in chunks of MIN_BURST_CHUNK bytes, 8 ACKs and the EndOfFile NAK, whole
    """
    one(server, request(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", seq=4, session=3))

    replies = [parse(p) for p in server.handle(request(FtpOp.BURST_READ_FILE, seq=6, session=3, size=1))]

    assert len(replies) == -(-len(FILE) // MIN_BURST_CHUNK) + 1
    assert b"".join(r.data for r in replies[:-1]) == FILE
    assert {len(r.data) for r in replies[:-2]} == {MIN_BURST_CHUNK}
    assert replies[-1].opcode == FtpOp.NACK


@pytest.mark.parametrize(
    "path",
    [
        b"../../etc/passwd",
        b"/etc/passwd",
        b"@PARAM/../../../etc/passwd",
        b"@PARAM/param.pck/../../etc/shadow",
        b"@SYS/../../../root/.ssh/id_rsa",
        b"@ROMFS/defaults.parm",
        b"A" * DATA_MAX,
    ],
    ids=["relative", "absolute", "traversal", "through-file", "sys", "romfs", "long"],
)
@pytest.mark.parametrize("opcode", [FtpOp.OPEN_FILE_RO, FtpOp.CALC_FILE_CRC32, FtpOp.LIST_DIRECTORY])
def test_no_real_file_is_ever_served_whatever_the_path(
    server: MavftpServer, path: bytes, opcode: FtpOp
) -> None:
    """GIVEN the read-only server over virtual files WHEN a path escapes or names a real file
    THEN the reply is a NAK (file not found), with no content of any file."""
    reply = one(server, request(opcode, path))

    assert reply.opcode == FtpOp.NACK
    assert reply.data[0] in (FtpError.FILE_NOT_FOUND, FtpError.END_OF_FILE)
    assert server.open_session is None
