# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""One blocking ``session.connect`` on a worker thread, so the window's Tk thread keeps running.

The Tk thread only polls `ConnectAttempt.done` with ``after()``; the worker never touches Tk.
"""

from __future__ import annotations

import logging
import threading

from ... import _
from ..session import CheckSession

logger = logging.getLogger(__name__)


class ConnectAttempt:
    """One ``session.connect``; ``result`` is "" on success, else a readable error, once ``done``."""

    def __init__(self, session: CheckSession, device: str, baudrate: int, timeout: float) -> None:
        self.device = device
        self.result: str | None = None
        self._session = session
        self._baudrate = baudrate
        self._timeout = timeout
        self.thread = threading.Thread(target=self._run, name="amc-rc-receiver-connect", daemon=True)

    def start(self) -> None:
        self.thread.start()

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def _run(self) -> None:
        try:
            self.result = self._session.connect(self.device, baudrate=self._baudrate, timeout=self._timeout)
        except Exception as error:  # a connect that raises is still only a message for the user
            logger.exception("connect raised")
            self.result = _("Could not connect to {device}: {error}").format(
                device=self.device, error=str(error) or type(error).__name__
            )
