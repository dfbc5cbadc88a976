# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A read-only MAVLink FTP server, sans-IO: FILE_TRANSFER_PROTOCOL payload in, reply payloads out.

Ground stations (the methodic configurator, MAVProxy, QGroundControl) download parameters as the
packed file ``@PARAM/param.pck`` over MAVFTP whenever AUTOPILOT_VERSION advertises it, and fall back
to PARAM_REQUEST_LIST only after a long timeout, so the simulated vehicle answers the read side of
the protocol the way ArduPilot's GCS_FTP does: one session, the session number chosen by the
client, replies numbered request + 1, a burst read that streams every chunk with an increasing
sequence number and ends in an EndOfFile NAK, and the previous reply resent when a request is
repeated (its reply was lost).  Writing is refused with FileProtected: the vehicle is read-only.

Files are produced on open by ``VirtualFiles`` builders, so a download is a consistent snapshot.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from urllib.parse import parse_qsl

HEADER = struct.Struct("<HBBBBBBI")  # seq, session, opcode, size, req_opcode, burst_complete, pad, offset
PAYLOAD_SIZE = 251  # FILE_TRANSFER_PROTOCOL.payload
DATA_MAX = PAYLOAD_SIZE - HEADER.size  # 239
BURST_PACKET_LIMIT = 500  # ArduPilot's transfer size per burst request
# ArduPilot answers a burst of size 1 with 500 one-byte replies: one small request, 500 datagrams.
# The demo sends no chunk smaller than this (MAVProxy's and pymavlink's burst_read_size); pymavlink
# takes a larger chunk than it asked for as a server that ignores the size and reads on.
MIN_BURST_CHUNK = 80


class FtpOp(IntEnum):
    NONE = 0
    TERMINATE_SESSION = 1
    RESET_SESSIONS = 2
    LIST_DIRECTORY = 3
    OPEN_FILE_RO = 4
    READ_FILE = 5
    CREATE_FILE = 6
    WRITE_FILE = 7
    REMOVE_FILE = 8
    CREATE_DIRECTORY = 9
    REMOVE_DIRECTORY = 10
    OPEN_FILE_WO = 11
    TRUNCATE_FILE = 12
    RENAME = 13
    CALC_FILE_CRC32 = 14
    BURST_READ_FILE = 15
    ACK = 128
    NACK = 129


class FtpError(IntEnum):
    FAIL = 1
    FAIL_ERRNO = 2
    INVALID_DATA_SIZE = 3
    INVALID_SESSION = 4
    NO_SESSIONS_AVAILABLE = 5
    END_OF_FILE = 6
    UNKNOWN_COMMAND = 7
    FILE_EXISTS = 8
    FILE_PROTECTED = 9
    FILE_NOT_FOUND = 10


_WRITE_OPS = frozenset(
    {
        FtpOp.CREATE_FILE,
        FtpOp.WRITE_FILE,
        FtpOp.REMOVE_FILE,
        FtpOp.CREATE_DIRECTORY,
        FtpOp.REMOVE_DIRECTORY,
        FtpOp.OPEN_FILE_WO,
        FtpOp.TRUNCATE_FILE,
        FtpOp.RENAME,
    }
)

FileBuilder = Callable[[Mapping[str, str]], "bytes | None"]


@dataclass(frozen=True)
class FtpRequest:
    seq: int
    session: int
    opcode: int
    size: int
    offset: int
    data: bytes

    @classmethod
    def decode(cls, payload: bytes) -> FtpRequest | None:
        """The request in ``payload``, or ``None`` when it is too short to answer at all."""
        if len(payload) < HEADER.size:
            return None
        seq, session, opcode, size, _req, _burst, _pad, offset = HEADER.unpack_from(payload)
        return cls(seq, session, opcode, size, offset, bytes(payload[HEADER.size : HEADER.size + size]))

    def path(self) -> str:
        return self.data.split(b"\x00", 1)[0].decode("utf-8", errors="replace")


def encode_reply(
    request: FtpRequest,
    opcode: FtpOp,
    data: bytes = b"",
    *,
    offset: int | None = None,
    seq: int | None = None,
    burst_complete: bool = False,
) -> bytes:
    """One reply payload, zero-padded to the message's fixed 251 bytes."""
    header = HEADER.pack(
        (request.seq + 1 if seq is None else seq) & 0xFFFF,
        request.session,
        opcode,
        len(data),
        request.opcode,
        1 if burst_complete else 0,
        0,
        (request.offset if offset is None else offset) & 0xFFFFFFFF,
    )
    return (header + data).ljust(PAYLOAD_SIZE, b"\x00")


def _nack(
    request: FtpRequest, error: FtpError, *, offset: int | None = None, seq: int | None = None
) -> bytes:
    return encode_reply(request, FtpOp.NACK, bytes([error]), offset=offset, seq=seq)


def ardupilot_crc32(data: bytes) -> int:
    """ArduPilot's crc_crc32(0, ...): the CRC-32 register without zlib's pre- and post-inversion."""
    return zlib.crc32(data, 0xFFFFFFFF) ^ 0xFFFFFFFF


class VirtualFiles:
    """Read-only files at fixed paths, each built on demand from the query after ``?``."""

    def __init__(self, files: Mapping[str, FileBuilder]) -> None:
        self._files = {path.strip("/"): builder for path, builder in files.items()}

    def read(self, path: str) -> bytes | None:
        name, _sep, query = path.partition("?")
        builder = self._files.get(name.strip("/"))
        if builder is None:
            return None
        return builder(dict(parse_qsl(query, keep_blank_values=True)))

    def listing(self, path: str) -> list[str] | None:
        """Directory entries in MAVFTP's form (``Dname`` or ``Fname<TAB>size``), or ``None``."""
        directory = path.strip("/")
        prefix = f"{directory}/" if directory else ""
        entries: dict[str, str] = {}
        for file_path, builder in self._files.items():
            if not file_path.startswith(prefix):
                continue
            child, below, _rest = file_path[len(prefix) :].partition("/")
            if below:
                entries[child] = f"D{child}"
            else:
                content = builder({})
                entries[child] = f"F{child}\t{len(content) if content is not None else 0}"
        if not entries:
            return None
        return [entries[name] for name in sorted(entries)]


class MavftpServer:
    """One client's MAVFTP conversation; ``reset()`` when a new ground station takes the link over."""

    def __init__(self, files: VirtualFiles) -> None:
        self._files = files
        self._handlers: dict[int, Callable[[FtpRequest], list[bytes]]] = {
            FtpOp.TERMINATE_SESSION: self._terminate,
            FtpOp.RESET_SESSIONS: self._reset_sessions,
            FtpOp.LIST_DIRECTORY: self._list_directory,
            FtpOp.OPEN_FILE_RO: self._open_read_only,
            FtpOp.READ_FILE: self._read,
            FtpOp.BURST_READ_FILE: self._burst_read,
            FtpOp.CALC_FILE_CRC32: self._crc32,
        }
        self.reset()

    def reset(self) -> None:
        self._session: int | None = None
        self._content = b""
        self._last_request: tuple[int, int, int] | None = None
        self._last_reply: bytes | None = None

    @property
    def open_session(self) -> int | None:
        return self._session

    def handle(self, payload: bytes) -> list[bytes]:
        """The reply payloads for one request payload (none when it is too short to answer)."""
        request = FtpRequest.decode(payload)
        if request is None:
            return []
        key = (request.seq, request.session, request.opcode)
        if key == self._last_request and self._last_reply is not None:
            # The client repeated a request because our reply was lost: answer it the same way.
            return [self._last_reply]
        if request.size > DATA_MAX:
            replies = [_nack(request, FtpError.INVALID_DATA_SIZE)]
        elif request.opcode in _WRITE_OPS:
            replies = [_nack(request, FtpError.FILE_PROTECTED)]
        else:
            handler = self._handlers.get(request.opcode)
            replies = handler(request) if handler else [_nack(request, FtpError.UNKNOWN_COMMAND)]
        # A burst is re-run on repetition rather than replayed, as ArduPilot does.
        single = len(replies) == 1 and request.opcode != FtpOp.BURST_READ_FILE
        self._last_request = key if single else None
        self._last_reply = replies[0] if single else None
        return replies

    # ------------------------------------------------------------------ operations
    def _session_error(self, request: FtpRequest) -> list[bytes] | None:
        if self._session is None or request.session != self._session:
            return [_nack(request, FtpError.INVALID_SESSION)]
        return None

    def _terminate(self, request: FtpRequest) -> list[bytes]:
        error = self._session_error(request)
        if error:
            return error
        self._session = None
        self._content = b""
        return [encode_reply(request, FtpOp.ACK)]

    def _reset_sessions(self, request: FtpRequest) -> list[bytes]:
        self._session = None
        self._content = b""
        return [encode_reply(request, FtpOp.ACK)]

    def _list_directory(self, request: FtpRequest) -> list[bytes]:
        entries = self._files.listing(request.path())
        if entries is None:
            return [_nack(request, FtpError.FILE_NOT_FOUND)]
        if request.offset >= len(entries):
            return [_nack(request, FtpError.END_OF_FILE)]
        data = b""
        for entry in entries[request.offset :]:
            encoded = entry.encode("utf-8") + b"\x00"
            if len(data) + len(encoded) > DATA_MAX:
                break
            data += encoded
        return [encode_reply(request, FtpOp.ACK, data)]

    def _open_read_only(self, request: FtpRequest) -> list[bytes]:
        if self._session is not None:
            return [_nack(request, FtpError.NO_SESSIONS_AVAILABLE)]
        content = self._files.read(request.path())
        if content is None:
            return [_nack(request, FtpError.FILE_NOT_FOUND)]
        self._session = request.session
        self._content = content
        return [encode_reply(request, FtpOp.ACK, struct.pack("<I", len(content)), offset=0)]

    def _read(self, request: FtpRequest) -> list[bytes]:
        error = self._session_error(request)
        if error:
            return error
        if request.offset >= len(self._content):
            return [_nack(request, FtpError.END_OF_FILE)]
        size = min(request.size or DATA_MAX, DATA_MAX)
        chunk = self._content[request.offset : request.offset + size]
        return [encode_reply(request, FtpOp.ACK, chunk)]

    def _burst_read(self, request: FtpRequest) -> list[bytes]:
        error = self._session_error(request)
        if error:
            return error
        size = min(max(request.size or DATA_MAX, MIN_BURST_CHUNK), DATA_MAX)
        replies: list[bytes] = []
        seq = request.seq + 1
        offset = request.offset
        for packet in range(BURST_PACKET_LIMIT):
            chunk = self._content[offset : offset + size]
            if not chunk:
                break
            last = packet == BURST_PACKET_LIMIT - 1
            replies.append(
                encode_reply(request, FtpOp.ACK, chunk, offset=offset, seq=seq, burst_complete=last)
            )
            seq += 1
            offset += len(chunk)
        else:
            return replies  # the client asks for the next burst from where this one ended
        return [*replies, _nack(request, FtpError.END_OF_FILE, offset=len(self._content), seq=seq)]

    def _crc32(self, request: FtpRequest) -> list[bytes]:
        content = self._files.read(request.path())
        if content is None:
            return [_nack(request, FtpError.FILE_NOT_FOUND)]
        return [encode_reply(request, FtpOp.ACK, struct.pack("<I", ardupilot_crc32(content)))]
