# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one HOST:PORT parser: what it accepts, and the readable error for everything else."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.net.host_port import (
    EMPTY_HOST,
    HostPortError,
    HostPortProblem,
    beyond_loopback_notice,
    format_host_port,
    is_loopback_host,
    parse_host_port,
)

pytestmark = pytest.mark.pure

_LABEL = r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?"
hostnames = st.from_regex(rf"{_LABEL}(\.{_LABEL}){{0,3}}", fullmatch=True)
ipv4_hosts = st.ip_addresses(v=4).map(str)
ipv6_hosts = st.ip_addresses(v=6).map(str)
ports = st.integers(min_value=0, max_value=65535)


@given(st.one_of(hostnames, ipv4_hosts, ipv6_hosts), ports)
def test_every_valid_host_and_port_round_trips(host: str, port: int) -> None:
    """GIVEN a host name, IPv4 or IPv6 address and a port WHEN formatted and parsed THEN both come back."""
    assert parse_host_port(format_host_port(host, port)) == (host, port)


@given(st.text(max_size=40), st.sampled_from([None, "127.0.0.1", ""]), st.booleans(), st.booleans())
def test_any_text_parses_or_raises_the_readable_error(
    text: str, default_host: str | None, port_alone: bool, ipv6: bool
) -> None:
    """GIVEN any text and any options WHEN parsed THEN a host and valid port, or a readable HostPortError"""
    try:
        host, port = parse_host_port(text, default_host=default_host, port_alone=port_alone, ipv6=ipv6)
    except HostPortError as error:
        messages = (str(error), error.describe("shown text"))
        assert all(messages)
    else:
        assert 0 <= port <= 65535
        assert host or default_host == ""
        assert ipv6 or ":" not in host


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("127.0.0.1:5760", ("127.0.0.1", 5760), id="ipv4"),
        pytest.param("  localhost : 14550 ", ("localhost", 14550), id="spaces around parts"),
        pytest.param("[::1]:30100", ("::1", 30100), id="bracketed ipv6"),
        pytest.param("robot.local:0", ("robot.local", 0), id="port 0 where any port is allowed"),
        pytest.param("127.0.0.1:00080", ("127.0.0.1", 80), id="leading zeros"),
    ],
)
def test_host_and_port_are_split_at_the_last_colon(text: str, expected: tuple[str, int]) -> None:
    """GIVEN a HOST:PORT text WHEN parsed THEN host and port come back, IPv6 brackets removed."""
    assert parse_host_port(text) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("localhost", HostPortProblem.FORM, id="no colon"),
        pytest.param(":5760", HostPortProblem.FORM, id="no host"),
        pytest.param("::1:5760", HostPortProblem.FORM, id="ipv6 without brackets"),
        pytest.param("[]:5760", HostPortProblem.FORM, id="empty brackets"),
        pytest.param("127.0.0.1:", HostPortProblem.PORT_NOT_A_NUMBER, id="no port"),
        pytest.param("127.0.0.1:port", HostPortProblem.PORT_NOT_A_NUMBER, id="port a word"),
        pytest.param("127.0.0.1:+80", HostPortProblem.PORT_NOT_A_NUMBER, id="port with sign"),
        pytest.param("127.0.0.1:\u00b2", HostPortProblem.PORT_NOT_A_NUMBER, id="superscript digit"),
        pytest.param("127.0.0.1:\u0663", HostPortProblem.PORT_NOT_A_NUMBER, id="arabic-indic digit"),
        pytest.param("127.0.0.1:65536", HostPortProblem.PORT_OUT_OF_RANGE, id="port too high"),
        pytest.param("127.0.0.1:" + "9" * 5000, HostPortProblem.PORT_OUT_OF_RANGE, id="thousands of digits"),
    ],
)
def test_unusable_text_names_the_problem(text: str, problem: HostPortProblem) -> None:
    """GIVEN a text that is no usable HOST:PORT WHEN parsed THEN the error says which part is wrong."""
    with pytest.raises(HostPortError) as raised:
        parse_host_port(text)
    assert raised.value.problem is problem


def test_the_error_message_names_what_the_user_typed() -> None:
    """GIVEN a bad port in a longer device string WHEN described with that string THEN the message shows it"""
    with pytest.raises(HostPortError) as raised:
        parse_host_port("127.0.0.1:port")
    assert str(raised.value) == "'127.0.0.1:port': the port must be a number"
    assert raised.value.describe("tcp:127.0.0.1:port") == "'tcp:127.0.0.1:port': the port must be a number"


def test_port_0_is_refused_where_the_caller_needs_a_real_port() -> None:
    """GIVEN lowest_port 1 WHEN port 0 is parsed THEN the error gives the allowed range from 1."""
    with pytest.raises(HostPortError, match=r"1\.\.65535"):
        parse_host_port("127.0.0.1:0", lowest_port=1)


def test_a_default_host_fills_an_empty_host_and_may_allow_a_port_alone() -> None:
    """GIVEN a default host WHEN the host is empty or, with port_alone, missing THEN the default is used."""
    assert parse_host_port(":14550", default_host="127.0.0.1") == ("127.0.0.1", 14550)
    assert parse_host_port("5760", default_host="127.0.0.1", port_alone=True) == ("127.0.0.1", 5760)
    with pytest.raises(HostPortError):
        parse_host_port("5760", default_host="127.0.0.1")


def test_without_ipv6_a_bracketed_host_is_refused() -> None:
    """GIVEN ipv6=False (pymavlink splits at the first colon) WHEN [::1]:5760 is parsed THEN it is refused."""
    with pytest.raises(HostPortError) as raised:
        parse_host_port("[::1]:5760", ipv6=False)
    assert raised.value.problem is HostPortProblem.FORM


@given(ipv6_hosts)
def test_formatting_brackets_exactly_the_ipv6_hosts(host: str) -> None:
    """GIVEN an IPv6 address WHEN formatted THEN it is bracketed and parses back to the same address."""
    text = format_host_port(host, 1)
    assert text.startswith("[")
    assert ipaddress.ip_address(parse_host_port(text)[0]) == ipaddress.ip_address(host)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("my-laptop", False),
    ],
)
def test_only_loopback_addresses_listen_without_a_notice(host: str, loopback: bool) -> None:
    """GIVEN a listen host WHEN asked whether it is beyond the loopback THEN wildcards, network
    addresses and names are, and only they get the one sentence saying the network can reach it."""
    notice = beyond_loopback_notice("The thing", host, 14550)
    assert is_loopback_host(host) is loopback
    assert (notice is None) is loopback
    if notice is not None:
        assert notice.startswith(f"The thing listens on {format_host_port(host, 14550)}")


def test_an_empty_host_means_this_computer_wherever_a_host_may_be_left_out() -> None:
    """GIVEN ':14550' WHEN parsed with the shared meaning of an empty host THEN 127.0.0.1."""
    assert parse_host_port(":14550", default_host=EMPTY_HOST) == ("127.0.0.1", 14550)
