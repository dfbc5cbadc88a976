# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sizes in the `amc-rc-receiver` window: its first size, how the receiver step shares its width
between the receiver check and the parameter table, scrollable widths.

The receiver check, which every user came for, gets its width first: where the window has room for
its second column (its findings beside its readings, at the default size) the parameter table keeps
only the width its names, values and a short meaning need; elsewhere the check takes what it asks
for and the table, whose meanings then read further, the rest.  When the window is narrower than
both need, the table gives way (its meanings shorten), never the check.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

from ...host.plugin_host import StepLayout
from ...plugins.tk_kit.scrolling import ScrollableFrame

DEFAULT_GEOMETRY = "1560x860"


def initial_geometry(root: tk.Misc) -> str:
    """The default window size, shrunk to fit a small screen (e.g. a 1366x768 laptop)."""
    width, height = (int(part) for part in DEFAULT_GEOMETRY.split("x"))
    width = max(640, min(width, root.winfo_screenwidth() - 40))
    height = max(480, min(height, root.winfo_screenheight() - 80))
    return f"{width}x{height}"


def fit_scrollable_width(frame: tk.Misc) -> None:
    """Widen scrollable areas in ``frame`` to their content, so the plugin is not cut off on the right.

    A scrollable frame's canvas asks for a fixed default width whatever its content needs; the
    plugin column of the step layout takes only what its child asks for.
    """
    frame.update_idletasks()
    pending: list[tk.Misc] = [frame]
    while pending:
        widget = pending.pop()
        if isinstance(widget, ScrollableFrame):
            needed = widget.interior.winfo_reqwidth()
            if needed > widget.canvas.winfo_reqwidth():
                widget.canvas.configure(width=needed)
            continue
        pending.extend(widget.winfo_children())


class StepColumns:
    """Shares a left-placed plugin's step between the plugin and the parameter table.

    The table's frame asks for exactly ``table_width()`` (whatever its wrapping labels would ask
    for at the width they are given).  Where what that leaves reaches ``plugin_room()`` (the width
    from which the plugin has a use for more, ``None``: always), the plugin's column is given it as
    a minimum; otherwise the plugin takes what it asks for and the table, the column with weight,
    the rest, shrinking first when there is not enough.  Were the table's request to follow its
    width, the two columns would push each other and the window would grow without end.
    """

    def __init__(
        self,
        layout: StepLayout,
        table_width: Callable[[], int],
        plugin_room: Callable[[], int] | None = None,
    ) -> None:
        self._container = layout.container
        self._content = layout.content_frame
        self._table_width = table_width
        self._plugin_room = plugin_room
        self._content.pack_propagate(False)
        self._container.columnconfigure(0, weight=0)
        self._container.columnconfigure(1, weight=1)
        self._container.bind("<Configure>", self._resized, add="+")
        self.refresh()

    def refresh(self) -> None:
        """Follow a new natural width of the table (another file was opened)."""
        self._content.configure(width=self._table_width())
        # The container may have its size already (a vehicle chosen in a window that is shown).
        self._share(self._container.winfo_width())

    def _resized(self, event: tk.Event[tk.Misc]) -> None:
        self._share(int(event.width))

    def _share(self, width: int) -> None:
        if width <= 1:
            return
        left = max(0, width - self._table_width())
        wanted = None if self._plugin_room is None else self._plugin_room()
        self._container.columnconfigure(0, minsize=left if wanted is None or left >= wanted else 0)
