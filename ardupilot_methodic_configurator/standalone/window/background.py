# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Work that may take longer than a frame, on a worker thread the window's Tk thread polls.

A connect waits for the vehicle's heartbeat for seconds; reading a large parameter file takes a
fifth of a second.  Each runs once on its own thread, which never touches Tk; the Tk thread only
asks `done` from an ``after()`` callback and then takes the result.
"""

from __future__ import annotations

import logging
import threading

from ... import _
from ...host.param_file import ParamEntry, ParamFileError, read_param_file
from ..session import VehicleSession

logger = logging.getLogger(__name__)


class _Background:
    """One call on a daemon thread; ``done`` once it returned (or raised)."""

    def __init__(self, name: str) -> None:
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self.thread.start()

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def _run(self) -> None:
        raise NotImplementedError


class ConnectAttempt(_Background):
    """One ``session.connect``; ``result`` is "" on success, else a readable error, once ``done``."""

    def __init__(self, session: VehicleSession, device: str, baudrate: int, timeout: float) -> None:
        super().__init__("amc-rc-receiver-connect")
        self.device = device
        self.result: str | None = None
        self._session = session
        self._baudrate = baudrate
        self._timeout = timeout

    def _run(self) -> None:
        try:
            self.result = self._session.connect(self.device, baudrate=self._baudrate, timeout=self._timeout)
        except Exception as error:  # a connect that raises is still only a message for the user
            logger.exception("connect raised")
            self.result = _("Could not connect to {device}: {error}").format(
                device=self.device, error=str(error) or type(error).__name__
            )


class ParameterFileRead(_Background):
    """One `read_param_file`; once ``done``, ``entries`` or ``error`` (a readable sentence)."""

    def __init__(self, path: str) -> None:
        super().__init__("amc-rc-receiver-param-file")
        self.path = path
        self.entries: tuple[ParamEntry, ...] | None = None
        self.error: str | None = None

    def _run(self) -> None:
        try:
            self.entries = read_param_file(self.path)
        except ParamFileError as error:
            self.error = str(error)
        except Exception as error:  # a bug of the reader: the window still says something
            logger.exception("reading %s raised", self.path)
            self.error = _("{path} could not be read: {error}").format(
                path=self.path, error=str(error) or type(error).__name__
            )
