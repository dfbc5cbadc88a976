# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle's parameter table and how it is served: by index, by name and packed."""

from __future__ import annotations

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.parameter_store import (
    PACKED_MAGIC,
    PACKED_MAGIC_WITH_DEFAULTS,
    ParameterStore,
    default_parameters,
)
from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS, ParameterSpec, ParamKind
from tests.support.param_pck import decode_param_pck

pytestmark = pytest.mark.pure


def test_the_copter_table_is_a_realistic_receiver_parameter_set() -> None:
    """
    GIVEN the ArduCopter table
    WHEN it is inspected
    THEN a few hundred unique ArduPilot-style names (at most 16 characters) hold the receiver,
    failsafe, mapping, flight-mode, RC channel and serial parameters with ArduPilot's defaults.
    """
    names = [spec.name for spec in COPTER_PARAMETERS]
    assert 200 <= len(names) <= 600
    assert len(set(names)) == len(names)
    assert all(len(name) <= 16 and name == name.upper() for name in names)
    defaults = {spec.name: spec.default for spec in COPTER_PARAMETERS}
    assert defaults["RC_PROTOCOLS"] == 1
    assert defaults["RC_FS_TIMEOUT"] == 1.0
    assert defaults["FS_THR_VALUE"] == 975
    assert (
        defaults["RCMAP_ROLL"],
        defaults["RCMAP_PITCH"],
        defaults["RCMAP_THROTTLE"],
        defaults["RCMAP_YAW"],
    ) == (
        1,
        2,
        3,
        4,
    )
    assert defaults["FLTMODE_CH"] == 5
    assert defaults["RC16_OPTION"] == 0
    assert (defaults["RC3_MIN"], defaults["RC3_TRIM"], defaults["RC3_MAX"], defaults["RC3_DZ"]) == (
        1100,
        1500,
        1900,
        30,
    )
    assert defaults["SERIAL0_PROTOCOL"] == 2
    assert names[0] == "FORMAT_VERSION"


def test_the_vehicle_reports_the_values_it_behaves_by() -> None:
    """
    GIVEN the default parameters of a vehicle with system id 7, a 2.5 s failsafe and its own RSSI
    WHEN they are read
    THEN SYSID_THISMAV, RC_FS_TIMEOUT and RSSI_TYPE say so, and FRAME_CLASS is the quad's 1 (default 0).
    """
    store = default_parameters(system_id=7, rc_failsafe_timeout_s=2.5, reports_rssi=True)
    values = store.values()
    assert (values["SYSID_THISMAV"], values["RC_FS_TIMEOUT"], values["RSSI_TYPE"]) == (7, 2.5, 3)
    frame = store.by_name("FRAME_CLASS")
    assert frame is not None
    assert (frame.value, frame.default) == (1, 0)
    assert default_parameters().values()["RSSI_TYPE"] == 0


def test_lookup_follows_param_request_read() -> None:
    """
    GIVEN the store
    WHEN a parameter is looked up with index -1 and a name, with an index, and out of range
    THEN the name, the index and nothing are found, and MAVLink types follow the storage type.
    """
    store = default_parameters()
    by_name = store.lookup("RC_OPTIONS", -1)
    assert by_name is not None
    assert by_name.mav_param_type == mavlink2.MAV_PARAM_TYPE_INT32
    by_index = store.lookup("ignored", by_name.index)
    assert by_index == by_name
    assert store.lookup("", store.count) is None
    assert store.lookup("NO_SUCH_PARAM", -1) is None
    rc_fs = store.by_name("RC_FS_TIMEOUT")
    assert rc_fs is not None
    assert rc_fs.mav_param_type == mavlink2.MAV_PARAM_TYPE_REAL32


def test_packed_file_holds_every_parameter_in_order_with_shared_prefixes() -> None:
    """
    GIVEN the store
    WHEN it is packed without and with defaults
    THEN the magic numbers differ, every parameter is there with its value and storage type in
    table order, names share prefixes with their predecessor, and only FRAME_CLASS carries a default.
    """
    store = default_parameters()
    plain = decode_param_pck(store.packed())
    assert (plain.magic, plain.count, plain.total) == (PACKED_MAGIC, store.count, store.count)
    assert list(plain.values) == [p.name for p in store]
    assert all(default is None for _kind, _value, default in plain.values.values())
    assert plain.values["RC_FS_TIMEOUT"] == (ParamKind.FLOAT, 1.0, None)
    assert plain.shared_prefixes[0] == 0
    assert max(plain.shared_prefixes) > 0

    with_defaults = decode_param_pck(store.packed(with_defaults=True))
    assert with_defaults.magic == PACKED_MAGIC_WITH_DEFAULTS
    flagged = {
        name: default
        for name, (_kind, _value, default) in with_defaults.values.items()
        if default is not None
    }
    assert flagged == {"FRAME_CLASS": 0.0}


def test_a_packed_slice_names_its_own_count_and_the_total() -> None:
    """
    GIVEN the query "start=3&count=5"
    WHEN the packed file is built
    THEN it holds parameters 3..7, says 5 of the total, and its first name shares nothing.
    """
    store = default_parameters()
    packed = store.packed_file({"start": "3", "count": "5"})
    assert packed is not None
    sliced = decode_param_pck(packed)
    assert (sliced.count, sliced.total) == (5, store.count)
    assert list(sliced.values) == [p.name for p in list(store)[3:8]]
    assert sliced.shared_prefixes[0] == 0
    assert store.packed_file({"start": "three"}) is None


@pytest.mark.parametrize(
    ("specs", "values", "reason"),
    [
        pytest.param([ParameterSpec("A_PARAM", 1, ParamKind.INT8)] * 2, {}, "twice", id="duplicate"),
        pytest.param([ParameterSpec("A" * 17, 1, ParamKind.INT8)], {}, "16 ASCII", id="name too long"),
        pytest.param(
            [ParameterSpec("A_PARAM", 1.5, ParamKind.INT16)], {}, "does not fit", id="fraction in int"
        ),
        pytest.param([ParameterSpec("A_PARAM", 200, ParamKind.INT8)], {}, "does not fit", id="int8 overflow"),
        pytest.param(
            [ParameterSpec("A_PARAM", 1, ParamKind.INT8)], {"B_PARAM": 1}, "no such", id="unknown value"
        ),
    ],
)
def test_an_impossible_table_is_refused(
    specs: list[ParameterSpec], values: dict[str, float], reason: str
) -> None:
    """GIVEN a table no ArduPilot could hold WHEN a store is built THEN ValueError says why."""
    with pytest.raises(ValueError, match=reason):
        ParameterStore(specs, values)
