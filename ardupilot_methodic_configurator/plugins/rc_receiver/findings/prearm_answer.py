# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings from ArduPilot's own answer: what its pre-arm checks, run on the check's request, say
of the receiver (`rc_receiver.prearm` asks and gathers the texts).

The newest complete answer speaks: the one after the test once it is in, the one after the
parameter reads until then.  Each receiver-related PreArm or Arm text in it is blocking, quoted as
ArduPilot wrote it, because ArduPilot will refuse to arm for it whatever this check concluded; an
accepted request answered by none says so; a request the vehicle refused or never answered is
named, and the check's own findings stand alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import _
from ..snapshot import Finding, PrearmAnswer, PrearmMoment, Severity
from ..wording import prearm_moment_label
from .inputs import FindingInputs

_ACCEPTED = "accepted"


def newest_complete_answer(answers: Iterable[PrearmAnswer]) -> PrearmAnswer | None:
    """The answer that speaks: after the test if complete, else after the parameter reads."""
    complete = {answer.moment: answer for answer in answers if answer.complete}
    return complete.get(PrearmMoment.TEST_DONE) or complete.get(PrearmMoment.PARAMETERS_READ)


def prearm_answer(inputs: FindingInputs) -> Iterable[Finding]:
    answer = newest_complete_answer(inputs.prearm)
    if answer is None:
        return
    for refusal in answer.refusals:
        yield Finding(
            "prearm_refusal",
            Severity.BLOCKING,
            _("ArduPilot's pre-arm checks ({when}) refuse to arm for the receiver: “{text}”.").format(
                when=prearm_moment_label(answer.moment), text=refusal
            ),
            _("Correct what ArduPilot names, upload the parameters and repeat the test."),
        )
    if answer.refusals:
        return
    if answer.outcome == _ACCEPTED:
        yield Finding(
            "prearm_no_rc_failure",
            Severity.INFO,
            _("ArduPilot's pre-arm checks ({when}) report no receiver-related failure.").format(
                when=prearm_moment_label(answer.moment)
            ),
            _("Nothing to change."),
        )
        return
    yield Finding(
        "prearm_not_run",
        Severity.INFO,
        _("The flight controller did not run its pre-arm checks on request ({result}).").format(
            result=answer.result or answer.outcome
        ),
        _("Arm once with the propellers off to see ArduPilot's own answer."),
    )
