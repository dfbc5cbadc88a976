# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The connection bar of the standalone window: device, baud rate, connect, status, demo transmitter.

The bar only collects what the user chose and shows what the window tells it (the serial ports
included: the window's port watch lists them off the Tk thread): it calls back with a device
string and a baud rate and never touches a connection or a port itself, so the window can
run the blocking connect in a worker thread.  Its three states (disconnected, connecting,
connected) decide which controls are enabled, so a second connect can never start mid-connect.
"""

from __future__ import annotations

import contextlib
import logging
import tkinter as tk
from collections.abc import Callable, Sequence
from enum import Enum
from tkinter import ttk

from ... import _
from ...plugins.tk_kit.text import TextMeasure, fit_label
from ..options import DEMO_DEVICE

logger = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115200
# Addresses ArduPilot SITL, MAVProxy and companion computers use out of the box.
COMMON_ADDRESSES = ("tcp:127.0.0.1:5760", "udpin:0.0.0.0:14550", "udpout:127.0.0.1:14550")

COLOUR_ERROR = "#c62828"
COLOUR_OK = "#2e7d32"
STATUS_WRAP_PIXELS = 640


class ConnectionState(Enum):
    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    CONNECTED = "connected"


def demo_choice_text() -> str:
    """The device-list entry that stands for the embedded simulated vehicle."""
    return _("Simulated vehicle (demo)")


def device_choices(ports: Sequence[str]) -> list[str]:
    """Entries of the device list: the demo first, then detected ports (ArduPilot-like boards
    first, as the port watch orders them), then common addresses."""
    choices = [demo_choice_text(), *ports]
    choices += [address for address in COMMON_ADDRESSES if address not in choices]
    return choices


def device_from_choice(text: str) -> str:
    """The connection string for a device-list entry (the demo entry maps to ``"demo"``)."""
    text = text.strip()
    return DEMO_DEVICE if text == demo_choice_text() else text


def choice_from_device(device: str) -> str:
    """The device-list text that shows ``device``."""
    return demo_choice_text() if device == DEMO_DEVICE else device


def parse_baudrate(text: str) -> int | str:
    """The baud rate in ``text``, or a readable reason why it is not one."""
    try:
        value = int(text.strip())
    except ValueError:
        return _("The baud rate {text!r} is not a whole number; use e.g. 115200.").format(text=text.strip())
    if value <= 0:
        return _("The baud rate must be greater than 0; use e.g. 115200.")
    return value


class ConnectionBar(ttk.Frame):
    """Device combobox, baud-rate entry, Connect/Disconnect, demo transmitter switch and status line."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        on_connect: Callable[[str, int], None],
        on_disconnect: Callable[[], None],
        on_transmitter: Callable[[bool], None],
        on_save_earlier: Callable[[], object] = lambda: None,
        device: str | None = None,
        baudrate: int = DEFAULT_BAUDRATE,
    ) -> None:
        super().__init__(parent)
        self._on_connect = on_connect
        self._on_disconnect = on_disconnect
        self._on_transmitter = on_transmitter
        self._on_save_earlier = on_save_earlier
        self._ports: tuple[str, ...] = ()
        self._state = ConnectionState.DISCONNECTED

        controls = ttk.Frame(self)
        controls.pack(fill=tk.X)
        ttk.Label(controls, text=_("Device:")).pack(side=tk.LEFT)
        self.device_var = tk.StringVar(self, value=choice_from_device(device or DEMO_DEVICE))
        self.device_combobox = ttk.Combobox(
            controls,
            textvariable=self.device_var,
            values=device_choices(self._ports),
            width=28,
        )
        self.device_combobox.pack(side=tk.LEFT, padx=(4, 10))
        ttk.Label(controls, text=_("Baud rate:")).pack(side=tk.LEFT)
        self.baud_var = tk.StringVar(self, value=str(baudrate))
        self.baud_entry = ttk.Entry(controls, textvariable=self.baud_var, width=8)
        self.baud_entry.pack(side=tk.LEFT, padx=(4, 10))
        self.connect_button = ttk.Button(controls, text=_("Connect"), command=self._connect_clicked)
        self.connect_button.pack(side=tk.LEFT)
        self.disconnect_button = ttk.Button(controls, text=_("Disconnect"), command=self._disconnect_clicked)
        self.disconnect_button.pack(side=tk.LEFT, padx=(4, 10))
        self.transmitter_var = tk.BooleanVar(self, value=True)
        self.transmitter_check = ttk.Checkbutton(
            controls,
            text=self._transmitter_text(True),
            variable=self.transmitter_var,
            command=self._transmitter_clicked,
        )
        self._transmitter_shown = False

        # The status line, and beside it (not in the full row above) the offer of an earlier test.
        status_row = ttk.Frame(self)
        status_row.pack(fill=tk.X, pady=(4, 0))
        self._status_row = status_row
        self.status_label = ttk.Label(status_row, text="", wraplength=STATUS_WRAP_PIXELS, justify=tk.LEFT)
        self.status_label.pack(side=tk.LEFT, fill=tk.X, expand=True)
        self._status_text = ""
        self._status_measure = TextMeasure.of(self.status_label)
        # Offered once a reboot or a replugged cable ended a test: its report is still there.
        self.earlier_button = ttk.Button(status_row, text="", command=self._save_earlier_clicked)
        self._earlier_tests = 0
        self._dropped_tests = 0
        status_row.bind("<Configure>", self._rewrap_status, add="+")
        self._apply_state()

    # ----------------------------------------------------------------- what the user chose

    @property
    def selected_device(self) -> str:
        return device_from_choice(self.device_var.get())

    def set_device(self, device: str) -> None:
        self.device_var.set(choice_from_device(device))

    @property
    def connection_state(self) -> ConnectionState:
        return self._state

    @property
    def status_text(self) -> str:
        return self._status_text

    @property
    def status_is_error(self) -> bool:
        return str(self.status_label.cget("foreground")) == COLOUR_ERROR

    @property
    def transmitter_text(self) -> str:
        return str(self.transmitter_check.cget("text"))

    @property
    def transmitter_shown(self) -> bool:
        return self._transmitter_shown

    @property
    def ports(self) -> tuple[str, ...]:
        return self._ports

    # ----------------------------------------------------------------- what the window tells it

    def set_ports(self, ports: Sequence[str]) -> None:
        """Offer ``ports`` (the window's port watch found them); what the person typed stays."""
        self._ports = tuple(ports)
        self.device_combobox.configure(values=device_choices(self._ports))

    def set_state(self, state: ConnectionState) -> None:
        self._state = state
        self._apply_state()

    def _apply_state(self) -> None:
        idle = self._state is ConnectionState.DISCONNECTED
        connecting = self._state is ConnectionState.CONNECTING
        entry_state = "normal" if not connecting else "disabled"
        self.device_combobox.configure(state=entry_state)
        self.baud_entry.configure(state=entry_state)
        # Connect stays available while connected: it switches to the newly chosen device.
        self.connect_button.configure(state="disabled" if connecting else "normal")
        self.disconnect_button.configure(state="disabled" if idle or connecting else "normal")

    def show_status(self, text: str, *, error: bool = False, ok: bool = False) -> None:
        colour = COLOUR_ERROR if error else COLOUR_OK if ok else ""
        self._status_text = text
        self.status_label.configure(foreground=colour)
        self._rewrap_status()

    def _rewrap_status(self, _event: object = None) -> None:
        # As wide as the row leaves beside the offer of an earlier test, and a device path breaks
        # only after a "/".
        room = self._status_row.winfo_width()
        if self._earlier_tests:
            room -= self.earlier_button.winfo_reqwidth() + 16
        wrap = STATUS_WRAP_PIXELS if room <= 1 else max(120, min(STATUS_WRAP_PIXELS, room))
        fit_label(self.status_label, self._status_text, wrap, self._status_measure)

    def set_transmitter_available(self, available: bool) -> None:
        """Show the demo transmitter switch only while the simulated vehicle is connected."""
        if available and not self._transmitter_shown:
            self.transmitter_check.pack(side=tk.LEFT, padx=(10, 0))
        elif not available and self._transmitter_shown:
            self.transmitter_check.pack_forget()
        self._transmitter_shown = available

    @property
    def earlier_tests(self) -> int:
        return self._earlier_tests

    def show_earlier_tests(self, count: int, dropped: int = 0) -> None:
        """Offer to save the reports of ``count`` tests that ended with a lost link (0: hide), and
        say how many older ones were dropped (only the newest few are kept)."""
        if (count, dropped) == (self._earlier_tests, self._dropped_tests):
            return
        if count and not self._earlier_tests:
            self.earlier_button.pack(side=tk.RIGHT, anchor=tk.N, padx=(16, 0), before=self.status_label)
        elif not count:
            self.earlier_button.pack_forget()
        self._earlier_tests, self._dropped_tests = count, dropped
        if dropped:
            text = _("Save the {count} tests before the reconnections ({dropped} older dropped)…").format(
                count=count, dropped=dropped
            )
        elif count == 1:
            text = _("Save the test before the reconnection…")
        else:
            text = _("Save the {count} tests before the reconnections…").format(count=count)
        self.earlier_button.configure(text=text)
        self._rewrap_status()

    def show_transmitter(self, on: bool) -> None:
        """Show the transmitter as on or off without calling back (e.g. after a scripted switch)."""
        self.transmitter_var.set(on)
        self.transmitter_check.configure(text=self._transmitter_text(on))

    @staticmethod
    def _transmitter_text(on: bool) -> str:
        return _("Transmitter: ON") if on else _("Transmitter: OFF")

    # ----------------------------------------------------------------- user actions

    def _connect_clicked(self) -> None:
        device = self.selected_device
        if not device:
            self.show_status(_("Choose a device or type a connection string first."), error=True)
            return
        baudrate = parse_baudrate(self.baud_var.get())
        if isinstance(baudrate, str):
            self.show_status(baudrate, error=True)
            return
        self._on_connect(device, baudrate)

    def _save_earlier_clicked(self) -> None:
        self._on_save_earlier()

    def _disconnect_clicked(self) -> None:
        self._on_disconnect()

    def _transmitter_clicked(self) -> None:
        on = bool(self.transmitter_var.get())
        with contextlib.suppress(tk.TclError):
            self.transmitter_check.configure(text=self._transmitter_text(on))
        self._on_transmitter(on)
