"""Numeric codes shared by the numba kernels and the Python layer.

Everything the event loop touches is a flat float64/int64 array; these
constants name the columns, motion states, event types and parameter slots.
"""

from __future__ import annotations

from piramida.env import events as _log

# Ball state columns (float64 array of shape (n_balls, NSTATE)).
X, Y, VX, VY, WX, WY, WZ = 0, 1, 2, 3, 4, 5, 6
NSTATE = 7

# Motion states (int64 array of shape (n_balls,)); negative: out of play.
STATIONARY, SPINNING, SLIDING, ROLLING = 0, 1, 2, 3
POCKETED, OFF_TABLE = -1, -2
MOTION_NAMES = _log.MOTION_STATES

# Event record: float64 rows [type, t, i, j, a, b], the log as numbers
# that env/events.py defines (the rules may read it).
EV_CUE, EV_BALL, EV_CUSHION, EV_POCKET, EV_CENTRE, EV_OFF, EV_MOTION = (
    _log.CUE, _log.BALL_BALL, _log.CUSHION, _log.POCKET, _log.CENTRE_LINE, _log.OFF_TABLE, _log.MOTION
)
EVENT_NAMES = _log.EVENT_TYPES
NEVCOL = 6
# Cushion sub-kind in column b of cushion / off_table events.
PART_SEGMENT, PART_JAW, PART_FACING = 0, 1, 2

# Segment (trajectory) record: float64 rows [ball, t, x, y, vx, vy, wx, wy, wz, mode].
NSEGCOL = 10

# Parameter vector slots (float64 array).
P_R = 0  # ball radius
P_M = 1  # ball mass
P_G = 2
P_MU_S = 3
P_MU_R = 4
P_MU_SP = 5
P_E_BALL = 6
P_MU_BALL = 7
P_E_CUSH = 8
P_MU_CUSH = 9
P_H_CUSH = 10  # cushion nose height above the cloth
P_CUE_M = 11
P_E_CUE = 12
P_MODEL = 13  # 0 = Han 2005, 1 = Mathavan 2010
P_LAUNCH = 14
P_YC = 15  # y of the centre line
P_TMAX = 16  # safety limit on simulated time (s)
P_BF_MODEL = 17  # ball-ball friction model: BF_CONSTANT or BF_ALCIATORE
P_MU_A = 18  # mu(v) = a + b exp(-c v), v the contact's slip speed (m/s)
P_MU_B = 19
P_MU_C = 20
P_CUE_END_M = 21  # the cue's effective end mass (squirt); 0 = no squirt
NPARAM = 22

MODEL_HAN2005, MODEL_MATHAVAN2010 = 0, 1
BF_CONSTANT, BF_ALCIATORE = 0, 1
