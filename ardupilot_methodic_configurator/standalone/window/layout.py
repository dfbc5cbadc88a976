# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The widgets of the `amc-rc-receiver` window: vehicle choice and connection bar on top, the
receiver step's frame below them, and the bridge panel as a strip along the bottom.  Building
only; the window drives them.

The receiver step gets all the height the bridge panel does not use: collapsed the panel is one
line, expanded it is as tall as its rows.  The widgets are made in reading order (top bar, step,
bridge), which is the order Tab follows; the bridge strip is packed before the step so that it
keeps its line however short the window is.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from dataclasses import dataclass
from tkinter import ttk

from ... import _
from ...host.configuration_steps import available_vehicles
from .bridge_panel import BridgeMonitorLike, BridgePanel
from .connection_bar import (
    COLOUR_ERROR,
    STATUS_WRAP_PIXELS,
    ConnectionBar,
)

DEFAULT_VEHICLE = "ArduCopter"
_PAD = 8


@dataclass(frozen=True)
class WindowLayout:
    vehicle_var: tk.StringVar
    vehicle_combobox: ttk.Combobox
    connection_bar: ConnectionBar
    # Packed above the step only once a bridge failed to start.
    bridge_error_label: ttk.Label
    step_frame: ttk.Frame  # the plugin host fills it alone
    bridge_frame: ttk.Frame
    bridge_panel: BridgePanel


def build_window_layout(
    root: tk.Tk,
    monitor: BridgeMonitorLike,
    *,
    vehicle: str,
    on_vehicle_selected: Callable[[object], None],
    connection_bar: Callable[[tk.Misc], ConnectionBar],
) -> WindowLayout:
    """Fill ``root``; ``connection_bar`` builds the bar inside the top row it is given."""
    top = ttk.Frame(root)
    top.pack(fill=tk.X, padx=_PAD, pady=(6, 2))
    vehicle_frame = ttk.Frame(top)
    vehicle_frame.pack(side=tk.LEFT, anchor=tk.N, padx=(0, 16))
    ttk.Label(vehicle_frame, text=_("Vehicle:")).pack(side=tk.LEFT)
    vehicles = available_vehicles()
    vehicle_var = tk.StringVar(root, value=vehicle if vehicle in vehicles else DEFAULT_VEHICLE)
    vehicle_combobox = ttk.Combobox(
        vehicle_frame, textvariable=vehicle_var, values=vehicles, state="readonly", width=12
    )
    vehicle_combobox.pack(side=tk.LEFT, padx=(4, 0))
    vehicle_combobox.bind("<<ComboboxSelected>>", on_vehicle_selected)
    bar = connection_bar(top)
    bar.pack(side=tk.LEFT, fill=tk.X, expand=True)

    bridge_error_label = ttk.Label(
        root, text="", foreground=COLOUR_ERROR, wraplength=STATUS_WRAP_PIXELS * 2, justify=tk.LEFT
    )
    step_frame = ttk.Frame(root)
    bridge_frame = ttk.Frame(root)
    bridge_panel = BridgePanel(bridge_frame, monitor, expanded=False)
    bridge_panel.pack(fill=tk.BOTH, expand=True)
    bridge_frame.pack(side=tk.BOTTOM, fill=tk.X, padx=_PAD, pady=(2, 4))
    step_frame.pack(fill=tk.BOTH, expand=True, padx=_PAD, pady=2)
    return WindowLayout(
        vehicle_var,
        vehicle_combobox,
        bar,
        bridge_error_label,
        step_frame,
        bridge_frame,
        bridge_panel,
    )
