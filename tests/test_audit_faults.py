"""Every audit check declares a planted fault of the paper's statement and does not report ``holds`` under it."""

import pytest

from bounds import audit
from bounds.audit import declared

FAULTED = [(cid, what, kw) for cid, c in audit.CHECKS.items() for what, kw in c.faults]
REPAIRED = [(cid, what, kw) for cid, c in audit.CHECKS.items() for what, kw in c.repairs]
SLOW = {"dame.s22_privacy_constant", "dame.lemma_s5_exponent"}  # ball proofs over many boxes


def test_every_check_declares_a_fault_or_a_repair():
    for cid, c in audit.CHECKS.items():
        assert c.faults or c.repairs, cid
        assert c.domain.startswith(("proved", "instances")), cid
        assert c.methods and set(c.methods) <= set(audit.METHODS), cid
    assert not set(declared.FAULTS) - set(audit.CHECKS) and not set(declared.DOMAIN) - set(audit.CHECKS)


@pytest.mark.parametrize("cid, what, kw", [pytest.param(*f, marks=pytest.mark.slow) if f[0] in SLOW else f
                                           for f in FAULTED], ids=[f"{c}: {w}" for c, w, _ in FAULTED])
def test_a_planted_fault_is_not_reported_as_holding(cid, what, kw):
    assert audit.CHECKS[cid].fn(**kw).status != "holds"


@pytest.mark.parametrize("cid, what, kw", [pytest.param(*f, marks=pytest.mark.slow) if f[0] in SLOW else f
                                           for f in REPAIRED], ids=[f"{c}: {w}" for c, w, _ in REPAIRED])
def test_a_refuted_statement_holds_once_repaired(cid, what, kw):
    """The control of a discrepancy: with the statement corrected, the same check reports ``holds``."""
    assert audit.CHECKS[cid].fn(**kw).status == "holds"
