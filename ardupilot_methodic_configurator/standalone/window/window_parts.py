# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the window's parts (the receiver step's pane, the program's transmitter switch) read of
the window: its root, session, plugin host and connection bar, and whether it closed."""

from __future__ import annotations

import tkinter as tk
from typing import Protocol

from ...host.plugin_host import PluginHost
from ..session import VehicleSession
from .connection_bar import ConnectionBar


class WindowParts(Protocol):
    @property
    def root(self) -> tk.Tk: ...

    @property
    def session(self) -> VehicleSession: ...

    @property
    def host(self) -> PluginHost: ...

    @property
    def connection_bar(self) -> ConnectionBar: ...

    @property
    def closed(self) -> bool: ...
