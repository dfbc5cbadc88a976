# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ArduPilot's auxiliary functions (``RCn_OPTION``) by name, per vehicle, and the switch position it reads.

The names are the ones ArduPilot's parameter documentation gives each ``RC_Channel::AUX_FUNC``
value (RC_Channel.h and the ``OPTION`` entry of RC_Channel.cpp), and the vehicles are those whose
``RC_Channel_<Vehicle>::init_aux_function`` / ``do_aux_function`` take the value (the same sets the
ArduPilot wiki's "Auxiliary Functions" table lists).  A traditional helicopter runs ArduCopter, so
Heli takes Copter's set.  A value this table does not know for the vehicle has no name: the views
say "option N".

`switch_position` is ArduPilot's ``RC_Channel::read_3pos_switch``: no position at or outside
800/2200 µs (``RC_MIN_LIMIT_PWM``/``RC_MAX_LIMIT_PWM``), low below 1200 µs
(``AUX_SWITCH_PWM_TRIGGER_LOW``), high above 1800 µs (``AUX_SWITCH_PWM_TRIGGER_HIGH``), middle
between them inclusive; low and high trade places when the channel's ``RCn_REVERSED`` is set *and*
``RC_OPTIONS`` bit 7 (``ALLOW_SWITCH_REV``) allows reversed switches.  Pure data and functions.
"""

from __future__ import annotations

from .firmware import VehicleFamily
from .snapshot import SwitchPosition

SWITCH_PWM_INVALID_AT_OR_BELOW = 800
SWITCH_PWM_INVALID_AT_OR_ABOVE = 2200
SWITCH_LOW_BELOW_US = 1200
SWITCH_HIGH_ABOVE_US = 1800
RC_OPTION_ALLOW_SWITCH_REVERSE = 1 << 7


def switch_reversal_allowed(rc_options: float | None) -> bool:
    """Whether ``RC_OPTIONS`` lets ``RCn_REVERSED`` turn an auxiliary switch round (bit 7)."""
    if rc_options is None or rc_options != int(rc_options) or rc_options < 0:
        return False
    return bool(int(rc_options) & RC_OPTION_ALLOW_SWITCH_REVERSE)


def switch_position(
    pwm: int | None, *, reversed_channel: bool, rc_options: float | None
) -> SwitchPosition | None:
    """The three-position switch reading ArduPilot takes from ``pwm``; None when it reads none."""
    if pwm is None or not SWITCH_PWM_INVALID_AT_OR_BELOW < pwm < SWITCH_PWM_INVALID_AT_OR_ABOVE:
        return None
    if SWITCH_LOW_BELOW_US <= pwm <= SWITCH_HIGH_ABOVE_US:
        return SwitchPosition.MIDDLE
    low = pwm < SWITCH_LOW_BELOW_US
    if reversed_channel and switch_reversal_allowed(rc_options):
        low = not low
    return SwitchPosition.LOW if low else SwitchPosition.HIGH


# Which vehicles take a value: c = Copter and Heli, p = Plane, r = Rover.
_C, _P, _R = "c", "p", "r"
_ALL = _C + _P + _R
_FAMILY_LETTER: dict[VehicleFamily, str] = {
    VehicleFamily.COPTER: _C,
    VehicleFamily.HELI: _C,
    VehicleFamily.PLANE: _P,
    VehicleFamily.ROVER: _R,
}

# value: (ArduPilot's name, the vehicles that take it)
_FUNCTIONS: dict[int, tuple[str, str]] = {
    0: ("Do Nothing", _ALL),
    2: ("Flip", _C),
    3: ("Simple Mode", _C),
    4: ("RTL", _ALL),
    5: ("Save Trim", _C + _R),
    7: ("Save WP", _C + _R),
    9: ("Camera Trigger", _ALL),
    10: ("RangeFinder", _C),
    11: ("Fence", _ALL),
    13: ("Super Simple Mode", _C),
    14: ("Acro Trainer", _C),
    15: ("Sprayer", _C),
    16: ("Auto", _ALL),
    17: ("AutoTune", _C),
    18: ("Land", _C),
    19: ("Gripper", _ALL),
    21: ("Parachute Enable", _C),
    22: ("Parachute Release", _C + _P),
    23: ("Parachute 3pos", _C),
    24: ("Auto Mission Reset", _ALL),
    25: ("AttCon Feed Forward", _C),
    26: ("AttCon Accel Limits", _C),
    27: ("Retract Mount1", _ALL),
    28: ("Relay On/Off", _ALL),
    29: ("Landing Gear", _C + _P),
    30: ("Lost Vehicle Sound", _ALL),
    31: ("Motor Emergency Stop", _ALL),
    32: ("Motor Interlock", _C),
    33: ("Brake", _C),
    34: ("Relay2 On/Off", _ALL),
    35: ("Relay3 On/Off", _ALL),
    36: ("Relay4 On/Off", _ALL),
    37: ("Throw", _C),
    38: ("ADSB Avoidance En", _C),
    39: ("PrecLoiter", _C),
    40: ("Proximity Avoidance", _C + _R),
    42: ("SmartRTL", _C + _R),
    43: ("InvertedFlight", _C + _P),
    44: ("Winch Enable", _C),
    45: ("WinchControl", _C),
    46: ("RC Override Enable", _ALL),
    47: ("User Function 1", _C),
    48: ("User Function 2", _C),
    49: ("User Function 3", _C),
    50: ("LearnCruise Speed", _R),
    51: ("Manual", _P + _R),
    52: ("Acro", _C + _R),
    53: ("Steering", _R),
    54: ("Hold", _R),
    55: ("Guided", _ALL),
    56: ("Loiter", _C + _R),
    57: ("Follow", _C + _R),
    58: ("Clear Waypoints", _ALL),
    59: ("Simple Mode", _R),
    60: ("ZigZag", _C),
    61: ("ZigZag SaveWP", _C),
    62: ("Compass Learn", _ALL),
    63: ("Sailboat Tack", _R),
    64: ("Reverse Throttle", _P),
    65: ("GPS Disable", _ALL),
    66: ("Relay5 On/Off", _ALL),
    67: ("Relay6 On/Off", _ALL),
    68: ("Stabilize", _C),
    69: ("PosHold", _C),
    70: ("AltHold", _C + _P),
    71: ("FlowHold", _C),
    72: ("Circle", _ALL),
    73: ("Drift", _C),
    74: ("Sailboat motoring 3pos", _R),
    75: ("SurfaceTrackingUpDown", _C),
    76: ("Standby Mode", _C),
    77: ("Takeoff", _P),
    78: ("RunCam Control", _ALL),
    79: ("RunCam OSD Control", _ALL),
    80: ("VisOdom Align", _C),
    81: ("Disarm", _ALL),
    82: ("QAssist 3pos", _P),
    83: ("ZigZag Auto", _C),
    84: ("AirMode", _C + _P),
    85: ("Generator", _ALL),
    86: ("Non Auto Terrain Follow Disable", _P),
    87: ("Crow Select", _P),
    88: ("Soaring Enable", _P),
    89: ("Landing Flare", _P),
    90: ("EKF Pos Source", _ALL),
    91: ("Airspeed Ratio Calibration", _P),
    92: ("FBWA", _P),
    94: ("VTX Power", _ALL),
    95: ("FBWA taildragger takeoff mode", _P),
    96: ("trigger re-reading of mode switch", _P),
    97: ("Windvane home heading direction offset", _R),
    102: ("Camera Mode Toggle", _ALL),
    103: ("EKF Lane Switch", _ALL),
    104: ("EKF Yaw Reset", _ALL),
    105: ("GPS Disable Yaw", _ALL),
    106: ("Disable Airspeed Use", _ALL),
    107: ("Enable FW Autotune", _P),
    108: ("QRTL", _P),
    111: ("Loweheiser starter", _ALL),
    112: ("SwitchExternalAHRS", _ALL),
    113: ("Retract Mount2", _C),
    150: ("CRUISE", _P),
    151: ("Turtle", _C),
    152: ("Simple heading reset", _C),
    153: ("ArmDisarm", _ALL),
    154: ("ArmDisarm with AirMode", _C + _P),
    155: ("Trim to current servo and RC", _P + _R),
    156: ("Torqeedo Clear Err", _R),
    157: ("Emergency Landing", _P),
    158: ("Optflow Calibration", _C + _P),
    159: ("Force Flying", _C),
    160: ("Weathervane Enable", _P),
    161: ("Turbine Start(heli)", _C),
    162: ("FFT Tune", _C + _P),
    163: ("Mount Lock", _ALL),
    164: ("Pause Stream Logging", _ALL),
    165: ("Arm/Emergency Motor Stop", _ALL),
    166: ("Camera Record Video", _ALL),
    167: ("Camera Zoom", _ALL),
    168: ("Camera Manual Focus", _ALL),
    169: ("Camera Auto Focus", _ALL),
    170: ("QStabilize", _P),
    171: ("Calibrate Compasses", _ALL),
    172: ("Battery MPPT Enable", _ALL),
    173: ("Plane AUTO Mode Landing Abort", _P),
    174: ("Camera Image Tracking", _ALL),
    175: ("Camera Lens", _ALL),
    176: ("Quadplane Fwd Throttle Override enable", _P),
    177: ("Mount LRF enable", _ALL),
    178: ("FlightMode Pause/Resume", _C),
    179: ("ICE Start Stop", _P),
    180: ("AutoTune Test Gains", _C + _P),
    181: ("QuickTune", _P),
    201: ("Roll", _R),
    202: ("Pitch", _R),
    207: ("MainSail", _R),
    208: ("Flap", _P),
    209: ("VTOL Forward Throttle", _P),
    210: ("Airbrakes", _P),
    211: ("Walking Height", _R),
    212: ("Mount1 Roll", _ALL),
    213: ("Mount1 Pitch", _ALL),
    214: ("Mount1 Yaw", _ALL),
    215: ("Mount2 Roll", _ALL),
    216: ("Mount2 Pitch", _ALL),
    217: ("Mount2 Yaw", _ALL),
    218: ("Loweheiser throttle", _ALL),
    219: ("Transmitter Tuning", _C),
    **{300 + index: (f"Scripting{index + 1}", _ALL) for index in range(16)},
}

# Values from 200 up to the scripting inputs are continuous inputs (a lever or a knob), not
# switches: ArduPilot reads their PWM, not a switch position.
_CONTINUOUS = range(200, 300)


def function_name(family: VehicleFamily, option: float | None) -> str | None:
    """ArduPilot's name of ``RCn_OPTION`` = ``option`` on ``family``; None when this vehicle's table
    does not have it.  For a vehicle not known yet, any vehicle's name for the value counts."""
    if option is None or option != int(option):
        return None
    entry = _FUNCTIONS.get(int(option))
    if entry is None:
        return None
    name, vehicles = entry
    letter = _FAMILY_LETTER.get(family)
    return name if letter is None or letter in vehicles else None


def is_switch(option: float | None) -> bool:
    """Whether ArduPilot reads a switch position from a channel with ``RCn_OPTION`` = ``option``."""
    return (
        option is not None and option == int(option) and int(option) != 0 and int(option) not in _CONTINUOUS
    )
