# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 26: a Tk root destroyed by the suite leaves no focus behind for the next test's interpreter.

Tk 8.6 keeps one focus pointer per display, shared by every interpreter of the thread.  Under Xvfb
(no window manager) a root takes the focus implicitly when the pointer enters it; when the pointer
leaves it again (withdrawn, shrunk, moved) the application forgets its focus but the display's
pointer stays at ".", and survives the destruction of ".".  The next ``focus -force`` in a new
interpreter reads the freed window: a segmentation fault of the whole pytest worker whenever the
memory has been reused (``TkSetFocusWin``, seen in ``test_rc_receiver_tk_keys.press``).

The crash kills the process it happens in, so the check runs in a child Python on this test's
display, destroying its roots the way the suite does (`release_focus_on_destroy`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[1]
CYCLES = 20

# Root one: the pointer warped into it (implicit focus), then withdrawn (the pointer leaves), then
# destroyed.  Root two, a new interpreter: an entry takes the focus by force, as the keys tests do.
CHILD = f"""
import faulthandler, tkinter as tk
faulthandler.enable()
from tests.support.tk import release_focus_on_destroy
release_focus_on_destroy()
for _cycle in range({CYCLES}):
    first = tk.Tk()
    first.geometry("300x200+0+0")
    first.update()
    first.event_generate("<Motion>", warp=True, x=100, y=100)
    first.update()
    first.withdraw()
    first.update()
    first.destroy()
    second = tk.Tk()
    second.geometry("200x100+400+400")
    entry = tk.Entry(second)
    entry.pack()
    second.update()
    entry.focus_force()
    second.update()
    second.destroy()
# The display outlives this process: the pointer goes back to the screen's far corner, where no
# later test's window is, instead of staying where this one warped it (a tooltip test's window
# mapped under it would lose the pointer at once).
parking = tk.Tk()
parking.geometry("1x1+0+0")
parking.update()
parking.event_generate(
    "<Motion>", warp=True, x=parking.winfo_screenwidth() - 1, y=parking.winfo_screenheight() - 1
)
parking.update()
parking.destroy()
print("survived")
"""


def test_a_forced_focus_in_a_new_interpreter_survives_when_the_last_root_lost_the_pointer() -> None:
    """GIVEN a root that took the focus from the pointer (no window manager) and lost the pointer
    again by being withdrawn, destroyed the way the suite destroys every root
    WHEN a new Tk interpreter in the same process forces the focus onto one of its widgets
    THEN the process survives (without the suite's release of the focus, Tk reads the freed root
    and the process dies of a segmentation fault), twenty times over."""
    result = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", CHILD],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    assert result.stdout.strip() == "survived"
