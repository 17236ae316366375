"""The detector's follow-ups: hung or dead, a collector fault or many deaths, phi accrual.

The contract a candidate implements is these names; see solution/diagnosis/README.md.
"""

from solution.detector import Stopped
from solution.diagnosis.guard import CollectorFault, Guarded, guard_mass_silence
from solution.diagnosis.hung import Beat, Diagnosis, Hung, diagnose
from solution.diagnosis.phi import PhiAccrual

__all__ = [
    "Beat",
    "CollectorFault",
    "Diagnosis",
    "Guarded",
    "Hung",
    "PhiAccrual",
    "Stopped",
    "diagnose",
    "guard_mass_silence",
]
