# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The supervisor: one thread that starts SITL, waits for it, ends what it leaves and starts it again.

A session survives a SITL restart: when SITL exits on its own (killed, crashed) it is started
again and ``generation`` moves on, which the check follows.  A SITL that exits by itself soon
after starting is failing (a bad option, a port in use), not crashing now and then, and is left
stopped; one killed by a signal is always started again, up to ``MAX_RESTARTS`` times.

Every start is a `ProcessGroup` of its own, and every process of it is ended: what a SITL leaves
running when it exits is ended before the next start (it may hold SITL's ports), and at
``stop()`` every group the supervisor started is ended, its leader running or not.  SITL is
started on this long-lived thread because on Linux it is told to die with the thread that
started it (see `process_group.parent_death_signal`); for the same reason the thread ends SITL
itself at ``stop()`` rather than ending first, which would SIGKILL SITL before SIGTERM had its
chance.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import _
from .config import SitlState, describe_exit
from .process_group import KILL_WAIT_S, TERM_GRACE_S, Ending, ProcessGroup, parent_death_signal

RESTART_DELAY_S = 1.0
# A SITL that exits by itself this soon after starting is failing (bad option, port in use), not
# crashing now and then: it is not started again.  One killed by a signal always is.
MIN_RUN_BEFORE_RESTART_S = 3.0
MAX_RESTARTS = 20
# How often the supervisor looks whether SITL still runs while it waits for a stop.
_WATCH_S = 0.1


@dataclass(frozen=True)
class SupervisorHooks:
    """What the supervisor asks of the runner around each start."""

    # SITL's command line for the next start (the runner plugs its serial cable in first).
    command: Callable[[], list[str]]
    # A new SITL process runs, as this generation: its console is to be read, its links renewed.
    started: Callable[[int, ProcessGroup], None]
    # The SITL process exited (what it left running is ended next).
    exited: Callable[[], None]
    # A sentence for the console, in the runner's words.
    note: Callable[[str], None]


@dataclass(frozen=True)
class SupervisorStatus:
    state: SitlState
    generation: int
    pid: int | None
    restarts: int
    last_exit: str | None


class SitlSupervisor:
    """Owns the SITL processes: ``start(folder)`` once, ``stop()`` any number of times."""

    def __init__(
        self,
        hooks: SupervisorHooks,
        *,
        restart_when_exited: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._hooks = hooks
        self._restart_when_exited = restart_when_exited
        self._clock = clock
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._state = SitlState.NOT_STARTED
        self._generation = 0
        self._restarts = 0
        self._last_exit: str | None = None
        self._current: ProcessGroup | None = None
        # Every group started and not yet seen empty: each is ended at stop, its leader running or not.
        self._groups: list[ProcessGroup] = []
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- queries
    @property
    def generation(self) -> int:
        """How many times SITL has been started.  Read without the lock (an int is read whole), so
        that the runner's other parts may ask while holding their own locks."""
        return self._generation

    @property
    def state(self) -> SitlState:
        with self._lock:
            return self._state

    @property
    def running(self) -> bool:
        return self.state in (SitlState.STARTING, SitlState.RUNNING, SitlState.RESTARTING)

    @property
    def pid(self) -> int | None:
        """The running SITL process, or None."""
        with self._lock:
            current = self._current
        return current.pid if current is not None and current.leader_running else None

    def status(self) -> SupervisorStatus:
        with self._lock:
            state, generation, restarts, last_exit = (
                self._state,
                self._generation,
                self._restarts,
                self._last_exit,
            )
        return SupervisorStatus(state, generation, self.pid, restarts, last_exit)

    def wait_stopping(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s; True once ``stop()`` was asked for."""
        return self._stop_event.wait(timeout)

    # ---------------------------------------------------------------- lifecycle
    def start(self, folder: Path) -> None:
        """Start SITL in ``folder`` on the supervisor thread, and keep it running."""
        with self._lock:
            if self._state is not SitlState.NOT_STARTED:
                return
            self._state = SitlState.STARTING
            thread = threading.Thread(
                target=self._supervise, args=(folder,), name="sitl-supervisor", daemon=True
            )
            self._thread = thread
        thread.start()

    def stop(self) -> None:
        """End every process of every start (SIGTERM, SIGKILL after the grace period); idempotent."""
        with self._lock:
            if self._state is SitlState.STOPPED:
                return
            self._stop_event.set()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(TERM_GRACE_S + KILL_WAIT_S + 1.0)
        # The thread ended the current group; this ends whatever it could not (it did not finish in
        # time, or stop() runs on it).
        with self._lock:
            groups = list(self._groups)
        for group in groups:
            group.end()
            self._forget_if_ended(group)
        with self._lock:
            self._state = SitlState.STOPPED

    def kill(self) -> int | None:
        """Kill the running SITL's whole group (as a crash would); it is started again.  Its pid."""
        with self._lock:
            current = self._current
        if current is None or not current.leader_running:
            return None
        current.kill()
        return current.pid

    # ---------------------------------------------------------------- the thread
    def _supervise(self, folder: Path) -> None:
        preexec = parent_death_signal()
        while not self._stop_event.is_set():
            started_at = self._clock()
            group = self._launch(folder, preexec)
            if group is None:
                break
            while group.leader_running and not self._stop_event.wait(_WATCH_S):
                pass
            if self._stop_event.is_set():
                if self._end(group) is Ending.KILLED:
                    self._hooks.note(
                        _("SITL did not end within {seconds:g} s of SIGTERM; it was killed.").format(
                            seconds=TERM_GRACE_S
                        )
                    )
                break
            code = group.process.wait()
            # How long SITL itself ran: ending what it left may take the grace period too.
            ran_for = self._clock() - started_at
            self._hooks.exited()
            if self._end(group) is not Ending.NOTHING_LEFT:
                self._hooks.note(_("SITL exited and left processes of its own running; they were ended."))
            with self._lock:
                self._last_exit = describe_exit(code)
            if not self._restart_wanted(code, ran_for):
                break
            if self._stop_event.wait(RESTART_DELAY_S):
                break
        with self._lock:
            if self._state is not SitlState.STOPPED:
                self._state = SitlState.EXITED

    def _launch(self, folder: Path, preexec: Callable[[], None] | None) -> ProcessGroup | None:
        command = self._hooks.command()
        with self._lock:
            if self._stop_event.is_set():
                return None
            try:
                group = ProcessGroup.start(command, cwd=folder, preexec=preexec)
            except OSError as error:
                reason = error.strerror or str(error)
                self._last_exit = _("could not start: {error}").format(error=reason)
                failure = _("SITL could not start: {error}").format(error=reason)
            else:
                failure = ""
                # Recorded in the same hold of the lock as the start: a stop() from now on ends it.
                self._groups.append(group)
                self._current = group
                self._generation += 1
                self._state = SitlState.RUNNING
                generation = self._generation
        if failure:
            self._hooks.note(failure)
            return None
        self._hooks.note(
            _("Started SITL (process {pid}): {command}").format(pid=group.pid, command=" ".join(command))
        )
        self._hooks.started(generation, group)
        return group

    def _end(self, group: ProcessGroup) -> Ending:
        ending = group.end()
        self._forget_if_ended(group)
        return ending

    def _forget_if_ended(self, group: ProcessGroup) -> None:
        with self._lock:
            if not group.running() and group in self._groups:
                self._groups.remove(group)

    def _restart_wanted(self, code: int, ran_for: float) -> bool:
        reason = describe_exit(code)
        if not self._restart_when_exited or self._restarts >= MAX_RESTARTS:
            self._hooks.note(_("SITL stopped ({reason}).").format(reason=reason))
            return False
        if ran_for < MIN_RUN_BEFORE_RESTART_S and code >= 0:
            self._hooks.note(
                _("SITL stopped {seconds:.1f} s after starting ({reason}); not restarting it.").format(
                    seconds=ran_for, reason=reason
                )
            )
            return False
        self._hooks.note(_("SITL stopped ({reason}); restarting it.").format(reason=reason))
        with self._lock:
            self._state = SitlState.RESTARTING
            self._restarts += 1
        return True
