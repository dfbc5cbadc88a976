# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The `--bridge` value: what a user types and what they are told when it is wrong."""

from __future__ import annotations

import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.spec import BridgeSpec, BridgeSpecError, parse_bridge_spec

pytestmark = pytest.mark.pure


def test_a_full_bridge_value_gives_protocol_listen_and_target() -> None:
    """GIVEN a protocol, listen and target address WHEN parsed THEN all three are kept."""
    spec = parse_bridge_spec("ardupilot-json,127.0.0.1:9002,127.0.0.1:9012")
    assert spec == BridgeSpec("ardupilot-json", ("127.0.0.1", 9002), ("127.0.0.1", 9012))


def test_a_bridge_without_target_is_listen_only() -> None:
    """GIVEN no target WHEN parsed THEN the target is None (listen-only)."""
    assert parse_bridge_spec("xrp,127.0.0.1:3540").target is None


def test_ipv6_addresses_in_brackets_are_accepted() -> None:
    """GIVEN a bracketed IPv6 listen address WHEN parsed THEN the brackets are removed."""
    assert parse_bridge_spec("rflysim,[::1]:30100").listen == ("::1", 30100)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ardupilot-json", "PROTOCOL,LISTEN[,TARGET]"),
        ("mavlink,127.0.0.1:1", "Unknown bridge protocol 'mavlink'"),
        ("xrp,localhost", "needs the form HOST:PORT"),
        ("xrp,127.0.0.1:abc", "port 'abc' is not a number"),
        ("xrp,127.0.0.1:70000", "outside 0-65535"),
        ("xrp,127.0.0.1:3540,127.0.0.1:0", "target port must not be 0"),
    ],
)
def test_bad_bridge_values_say_what_is_wrong(text: str, expected: str) -> None:
    """GIVEN a malformed bridge value WHEN parsed THEN the error names the problem."""
    with pytest.raises(BridgeSpecError, match=expected.replace("[", r"\[").replace("]", r"\]")):
        parse_bridge_spec(text)


def no_name_service(host: str, port: int, **_kwargs: object) -> list[tuple[object, ...]]:
    """A resolver on a machine without name service: every host name fails, as getaddrinfo does."""
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


def test_a_target_host_name_is_resolved_when_parsing() -> None:
    """GIVEN a target written as localhost WHEN parsed THEN it is resolved to a loopback address."""
    target = parse_bridge_spec("xrp,127.0.0.1:3541,localhost:3540").target
    assert target is not None
    assert target[0] in ("127.0.0.1", "::1")
    assert target[1] == 3540


def test_an_unresolvable_target_is_reported_as_the_target_without_an_errno() -> None:
    """GIVEN a target host name that does not resolve
    WHEN parsed
    THEN the error names the target as typed and the reason in words, with no raw [Errno …]."""
    with pytest.raises(BridgeSpecError) as raised:
        parse_bridge_spec("xrp,127.0.0.1:3541,robot.invalid:3540", resolve=no_name_service)
    message = str(raised.value)
    assert "'robot.invalid:3540' cannot be resolved: Name or service not known." in message
    assert "Errno" not in message


@pytest.mark.parametrize("listen", ["robot.local:3540", "my-laptop:9002"])
def test_a_listen_address_must_be_an_ip_address_of_this_computer(listen: str) -> None:
    """GIVEN a listen address given as a host name WHEN parsed THEN it is refused when parsing."""
    with pytest.raises(BridgeSpecError, match="must be an IP address of this computer"):
        parse_bridge_spec(f"xrp,{listen}")


def test_localhost_as_listen_address_means_the_loopback_address() -> None:
    """GIVEN localhost as listen host WHEN parsed THEN the relay listens on 127.0.0.1."""
    assert parse_bridge_spec("xrp,localhost:3541").listen == ("127.0.0.1", 3541)


@given(st.text(max_size=60))
def test_arbitrary_text_either_parses_or_raises_the_readable_error(text: str) -> None:
    """GIVEN any text WHEN parsed THEN the result is a spec or a BridgeSpecError, nothing else."""
    try:
        spec = parse_bridge_spec(text, resolve=no_name_service)
    except BridgeSpecError as error:
        message = str(error)
        assert message
    else:
        assert 0 <= spec.listen[1] <= 65535


def test_the_help_of_bridge_names_every_protocol_of_the_table_with_its_usual_ports() -> None:
    """GIVEN the command line's parser WHEN its --bridge help is read
    THEN it lists every accepted protocol, each with the ports the protocol table gives it."""
    from amc_rc_receiver.__main__ import build_parser
    from amc_rc_receiver.sim_bridge.protocols.names import AUTO
    from amc_rc_receiver.sim_bridge.protocols.table import NAMES, PROTOCOLS

    action = next(action for action in build_parser()._actions if "--bridge" in action.option_strings)
    help_text = str(action.help)
    for row in PROTOCOLS:
        assert f"{row.name} ({', '.join(str(port) for port in row.default_ports)})" in help_text
    assert set(NAMES) == {row.name for row in PROTOCOLS} | {AUTO}
    assert f", {AUTO};" in help_text
    assert "xrp (3540)" in help_text  # WPILib's XRP firmware port, as a fixed point


@pytest.mark.parametrize(
    "text",
    [
        "ardupilot-json,127.0.0.1:9102,127.0.0.1:9102",
        "ardupilot-json,127.0.0.1:9102,localhost:9102",
        "auto,0.0.0.0:9102,127.0.0.1:9102",
    ],
)
def test_a_bridge_that_would_send_to_itself_is_refused_when_parsed(text: str) -> None:
    """GIVEN a --bridge whose target is its own listen address (the same address, a name for it,
    or a loopback address of a relay listening on every interface)
    WHEN it is parsed THEN it is refused, saying why, before any socket exists."""
    with pytest.raises(BridgeSpecError, match="would send to itself"):
        parse_bridge_spec(text)
