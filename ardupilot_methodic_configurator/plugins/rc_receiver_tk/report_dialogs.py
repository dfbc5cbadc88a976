# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver view's "Save report…": where the report goes, whether it may replace files, and
what the guide panel says afterwards.

Inside the methodic configurator the report goes into the vehicle directory without a question;
elsewhere a file dialog asks for the name.  The report is two files (JSON and Markdown), and the
file dialog confirmed replacing only the one it returned, so replacing its sibling is asked for.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from pathlib import Path
from tkinter import filedialog, messagebox

from ..rc_receiver.report import (
    REPORT_BASENAME,
    ReportPathError,
    existing_report_files,
    save_to_vehicle_directory,
    write_report,
)
from ..rc_receiver.snapshot import RCReceiverState
from ..rc_receiver.wording.tk_view import (
    replace_report_question,
    report_failed_text,
    report_saved_text,
    view_label,
)


def ask_report_path(parent: tk.Misc) -> str:
    """The file a person picks for the report ("" when they cancel)."""
    path = filedialog.asksaveasfilename(
        parent=parent,
        title=view_label("save_title"),
        defaultextension=".json",
        initialfile=f"{REPORT_BASENAME}.json",
        filetypes=[(view_label("report_files"), "*.json"), (view_label("all_files"), "*")],
    )
    return str(path or "")


def confirm_replace(parent: tk.Misc, files: tuple[Path, ...]) -> bool:
    """Ask whether the report's existing ``files`` may be replaced."""
    question = replace_report_question([str(file) for file in files])
    return bool(messagebox.askyesno(title=view_label("save_title"), message=question, parent=parent))


def may_replace(path: str, confirm: Callable[[tuple[Path, ...]], bool]) -> bool:
    """Whether writing the report at ``path`` may go ahead: the sibling the file dialog did not
    confirm is asked for through ``confirm``."""
    try:
        existing = existing_report_files(path)
    except ReportPathError:
        return True
    picked = Path(path).expanduser()
    unconfirmed = tuple(file for file in existing if file != picked)
    return not unconfirmed or confirm(existing)


def save_report(state: RCReceiverState, path: str | None) -> tuple[str, bool] | None:
    """Write the report of ``state`` to ``path``, else into the vehicle directory.

    Returns what to tell the person and whether it is an error; ``None`` when there was nowhere
    to write.
    """
    try:
        written = write_report(state, path) if path else save_to_vehicle_directory(state)
    except (OSError, ReportPathError) as error:
        return report_failed_text(error), True
    if written is None:
        return None
    return report_saved_text(str(written[0]), str(written[1])), False
