# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The widgets of the `amc-rc-receiver` window: vehicle choice and connection bar on top, then
the receiver step's frame beside the bridge panel.  Building only; the window drives them.
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
from .geometry import BRIDGE_PANE_WIDTH

DEFAULT_VEHICLE = "ArduCopter"


@dataclass(frozen=True)
class WindowLayout:
    vehicle_var: tk.StringVar
    vehicle_combobox: ttk.Combobox
    connection_bar: ConnectionBar
    # Packed above the panes only once a bridge failed to start.
    bridge_error_label: ttk.Label
    panes: ttk.Panedwindow
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
    top.pack(fill=tk.X, padx=8, pady=(8, 4))
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
    panes = ttk.Panedwindow(root, orient=tk.HORIZONTAL)
    panes.pack(fill=tk.BOTH, expand=True, padx=8, pady=(4, 8))
    step_frame = ttk.Frame(panes)
    panes.add(step_frame, weight=3)
    bridge_frame = ttk.Frame(panes, width=BRIDGE_PANE_WIDTH)
    # The panel's tree is far wider than a side pane; it scrolls sideways instead.
    bridge_frame.pack_propagate(False)
    panes.add(bridge_frame, weight=1)
    bridge_panel = BridgePanel(bridge_frame, monitor)
    bridge_panel.pack(fill=tk.BOTH, expand=True)
    return WindowLayout(
        vehicle_var,
        vehicle_combobox,
        bar,
        bridge_error_label,
        panes,
        step_frame,
        bridge_frame,
        bridge_panel,
    )
