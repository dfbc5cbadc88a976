# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The suite's own tiers: what each may use, how a subprocess is told apart, and the parallel order."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.tiers import (
    BUILD,
    BY_NAME,
    MC501,
    QUICK_EXPRESSION,
    SITL,
    SOCKET,
    SUBPROCESS,
    TIERS,
    WAITING_S,
    WAITING_SPREAD,
    TierGuard,
    TierViolationError,
    cost_of,
    examples,
    outside_quick_loop,
    stripes,
    subprocess_kind,
)

pytestmark = pytest.mark.pure

SITL_DIR = Path("/opt/shared/sitl")
MC501_HOME = Path("/work/project/build/methodic-configurator-5.0.1")


def test_each_tier_may_use_what_the_cheaper_ones_may_and_the_quick_loop_leaves_out_the_dear_ones() -> None:
    """GIVEN the tiers in cost order WHEN compared THEN each of the quick ones allows what the one
    before allows, the three dear ones each add what they are named for to e2e's, and the quick
    loop's expression leaves out exactly sitl, mc501 and packaging."""
    names = [tier.name for tier in TIERS]
    assert names == ["pure", "loopback", "tk", "e2e", "sitl", "mc501", "packaging"]
    quick = [tier for tier in TIERS if tier.quick]
    assert [tier.name for tier in quick] == names[:4]
    for cheaper, dearer in itertools.pairwise(quick):
        assert cheaper.may_use < dearer.may_use
    e2e = BY_NAME["e2e"].may_use
    assert BY_NAME["sitl"].may_use == e2e | {SITL}
    assert BY_NAME["mc501"].may_use == e2e | {MC501, BUILD}
    assert BY_NAME["packaging"].may_use == e2e | {BUILD}
    assert QUICK_EXPRESSION == "not sitl and not mc501 and not packaging"


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        ([sys.executable, "-m", "amc_rc_receiver", "--demo", "--text"], SUBPROCESS),
        ([sys.executable, "-m", "amc_rc_receiver", "--sitl", "../shared/sitl/arducopter"], SITL),
        ([str(SITL_DIR / "arducopter"), "--model", "JSON"], SITL),
        ([str(MC501_HOME / "venv" / "bin" / "python"), "-u", "driver.py"], MC501),
        ([sys.executable, "-m", "pip", "wheel", "--no-deps", "."], BUILD),
        ([sys.executable, "-m", "venv", "/tmp/env"], BUILD),
        ([sys.executable, "/x/site-packages/PyInstaller/isolated/_child.py"], BUILD),
        ([sys.executable, "-m", "MAVProxy.mavproxy", "--master", "tcp:127.0.0.1:5760"], SUBPROCESS),
        (["git", "ls-files"], SUBPROCESS),
    ],
)
def test_a_subprocess_is_told_by_what_it_runs(argv: list[str], kind: str) -> None:
    """GIVEN a subprocess's arguments WHEN classified THEN SITL, 5.0.1, builds and other programs differ."""
    assert subprocess_kind(argv, sitl_dir=SITL_DIR, mc501_home=MC501_HOME) == kind


def test_the_guard_refuses_what_the_tier_does_not_allow_and_remembers_it() -> None:
    """GIVEN a guard watching a pure test WHEN a socket is asked for THEN it is refused with a
    sentence naming the tier to use, and the refusal is kept for the test's report even if caught."""
    guard = TierGuard(SITL_DIR)
    guard.watch(BY_NAME["pure"])
    with pytest.raises(TierViolationError, match="mark it 'loopback' or above"):
        guard.check(SOCKET)
    guard.stop()
    guard.check(SOCKET)  # not watched: allowed
    assert len(guard.take_violations()) == 1
    assert guard.take_violations() == []


@given(
    st.lists(st.sampled_from([*(tier.typical_s for tier in TIERS), 65.0]), max_size=300),
    st.integers(1, 12),
)
def test_the_parallel_order_starts_every_share_with_its_dearest_and_spreads_its_waiting_tests(
    costs: list[float], workers: int
) -> None:
    """GIVEN tests of any costs (a minute-long one among them) and any number of workers WHEN
    ordered for worksteal's contiguous shares THEN every test appears once; the shares' first tests
    are the dearest of the run; within a share the waiting tests come dearest first, all of them
    within the first half of its cheap tests."""
    order = stripes(costs, workers)
    assert sorted(order) == list(range(len(costs)))
    shares = []
    rest = list(order)
    for left in range(workers, 0, -1):
        size = len(rest) // left
        shares.append(rest[:size])
        rest = rest[size:]
    for share in shares:
        share_costs = [costs[index] for index in share]
        if share_costs:
            assert share_costs[0] == max(share_costs)
        waiting = [cost for cost in share_costs if cost >= WAITING_S]
        cheap = [cost for cost in share_costs if cost < WAITING_S]
        assert waiting == sorted(waiting, reverse=True)
        assert cheap == sorted(cheap, reverse=True)
        if waiting:
            last_waiting = max(position for position, cost in enumerate(share_costs) if cost >= WAITING_S)
            assert last_waiting - (len(waiting) - 1) <= len(cheap) * WAITING_SPREAD
    firsts = sorted((costs[share[0]] for share in shares if share), reverse=True)
    assert firsts == sorted(costs, reverse=True)[: len(firsts)]


def test_a_cost_marker_says_how_long_a_test_takes_where_its_tier_would_guess_short() -> None:
    """GIVEN an end-to-end test marked ``cost(60)`` and one without WHEN their costs are read THEN
    the first takes the marker's 60 s, the second its tier's usual time."""
    e2e = BY_NAME["e2e"]
    assert cost_of(e2e, [pytest.mark.e2e.mark, pytest.mark.cost(60).mark]) == 60.0
    assert cost_of(e2e, [pytest.mark.e2e.mark]) == e2e.typical_s


def test_the_quick_loop_tries_a_quarter_of_a_property_tests_examples_and_at_least_one() -> None:
    """GIVEN property tests asking for 60, 200 and 2 examples WHEN counted for the quick loop and
    for the full command THEN the quick loop tries 15, 50 and 1, the full command all of them."""
    assert [examples(count, quick=True) for count in (60, 200, 2)] == [15, 50, 1]
    assert [examples(count, quick=False) for count in (60, 200, 2)] == [60, 200, 2]


@pytest.mark.parametrize(
    ("source", "outside"),
    [
        ("pytestmark = pytest.mark.sitl\n", True),
        ("pytestmark = [pytest.mark.mc501, pytest.mark.skipif(True, reason='x')]\n", True),
        ("from pytest import mark\n\n@mark.packaging\ndef test_a(): ...\n", True),
        ("pytestmark = pytest.mark.e2e\n\n@pytest.mark.sitl\ndef test_a(): ...\n", False),
        ("pytestmark = pytest.mark.pure\n", False),
        ("def test_unmarked(): ...\n", False),
        ("pytestmark = pytest.mark.slow\n", False),
    ],
)
def test_the_quick_loop_leaves_uncollected_only_the_modules_whose_every_tier_it_leaves_out(
    source: str, outside: bool
) -> None:
    """GIVEN a test module's text WHEN the quick loop decides whether to import it THEN it skips a
    module that marks only SITL, 5.0.1 or packaging tiers, and imports one that names a quick tier
    anywhere, or no tier at all (so that the missing mark is reported)."""
    assert outside_quick_loop(source) is outside
