# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver view's details: parameter findings, telemetry streams, the flight controller's
radio messages and how to check the receiver.

They follow the readings below, or beside them once the view is wide enough; `DetailsPanel.min_width`
is the narrowest column that holds the streams' names and rates and every frame's title whole.
Their words are `rc_receiver.wording`'s; every value goes through the view's `ShownValues`.
"""

from __future__ import annotations

import tkinter as tk
from tkinter import ttk

from ..rc_receiver.snapshot import GuidedTest, RCReceiverState
from ..rc_receiver.wording import guidance_text, request_text
from ..rc_receiver.wording.tk_view import rate_text, view_label
from ..tk_kit.text import TextMeasure, WrapFollower
from .shown import ShownValues
from .widgets import (
    MAX_FINDINGS_SHOWN,
    MAX_MESSAGES_SHOWN,
    StreamRow,
    TextList,
    findings_entries,
    message_entries,
    size_columns,
)

STREAMS = ("RC_CHANNELS", "SYS_STATUS")
# Beside the readings, the details take a column of their own once it can be at least this wide.
DETAILS_MIN_WIDTH = 340
PAD = 8
# What the guidance wraps at before it is laid out; then it follows its frame's width.
_WRAP_LENGTH = 520
# A frame's title sits this far in from its sides.
_TITLE_MARGIN = 24
# What a stream's interval request wraps at, at least.
_REQUEST_MIN_WIDTH = 160


class DetailsPanel:
    """Findings, streams, radio messages and guidance, one under the other in ``frame``."""

    def __init__(self, parent: tk.Misc, shown: ShownValues) -> None:
        self._shown = shown
        self.frame = details = ttk.Frame(parent)
        details.columnconfigure(0, weight=1)
        self.findings = TextList(
            details, view_label("findings"), MAX_FINDINGS_SHOWN, view_label("no_findings")
        )
        self.findings.frame.grid(row=0, column=0, padx=PAD, pady=3, sticky=tk.EW)

        self.streams = streams = ttk.LabelFrame(details, text=view_label("streams"))
        streams.grid(row=1, column=0, padx=PAD, pady=3, sticky=tk.EW)
        self.stream_rows = {name: StreamRow(streams, name, row) for row, name in enumerate(STREAMS)}
        measure = TextMeasure.of(self.stream_rows[STREAMS[0]].rate)
        rates = [rate_text(88.8)]
        size_columns(streams, measure, {1: rates}, padding=12)
        # A request that was refused names its MAV_RESULT: its text wraps beside the name and rate.
        beside = measure.widest(STREAMS) + measure.widest(rates) + 12 + 2 * PAD
        self._request_wrap = WrapFollower(streams, width=_REQUEST_MIN_WIDTH, margin=beside)
        for row in self.stream_rows.values():
            self._request_wrap.add(row.request)

        self.radio_messages = TextList(
            details, view_label("radio_messages"), MAX_MESSAGES_SHOWN, view_label("no_radio_messages")
        )
        self.radio_messages.frame.grid(row=2, column=0, padx=PAD, pady=3, sticky=tk.EW)

        guidance = ttk.LabelFrame(details, text=view_label("guidance"))
        guidance.grid(row=3, column=0, padx=PAD, pady=(3, PAD), sticky=tk.EW)
        self.guidance = ttk.Label(guidance, text=guidance_text(), justify=tk.LEFT)
        self.guidance.pack(padx=6, pady=6, anchor=tk.W)
        self._guidance_wrap = WrapFollower(guidance, width=_WRAP_LENGTH, margin=20)
        self._guidance_wrap.add(self.guidance)
        # The streams' names and rates do not wrap, nor do the frames' titles: a column of details
        # must hold them.
        titles = TextMeasure.of(streams, "TLabelframe.Label")
        framed = (self.findings.frame, streams, self.radio_messages.frame, guidance)
        widest_title = titles.widest(str(frame.cget("text")) for frame in framed) + _TITLE_MARGIN
        self.min_width = max(DETAILS_MIN_WIDTH, beside + _REQUEST_MIN_WIDTH, widest_title) + 2 * PAD

    def render_streams(self, state: RCReceiverState) -> None:
        requests = {request.message_name: request for request in state.interval_requests}
        rates = {"RC_CHANNELS": state.rc_channels_rate_hz, "SYS_STATUS": state.sys_status_rate_hz}
        for name, row in self.stream_rows.items():
            self._shown.set_text(row.rate, rate_text(rates[name]))
            self._request_wrap.show(row.request, request_text(requests.get(name)), self._shown.set_option)

    def render_findings(self, check: GuidedTest) -> None:
        self.findings.render(findings_entries(check), self._shown.set_option)

    def render_messages(self, check: GuidedTest, test_started_at: float) -> None:
        self.radio_messages.render(message_entries(check, test_started_at), self._shown.set_option)
