"""The linear associative memory control (docs/theory.md §5): d² ∝ V·ln V storage law."""

import math

import pytest

from theorycheck.tasks.linear_am import LinearAMParams, simulate_linear_am


def test_hebbian_recalls_all_facts_well_above_the_storage_line_and_fails_well_below():
    # Hebbian memory: exact recall needs d² ≳ 10·V·ln V (docs/theory.md §7.2: at (V, d) = (256, 128),
    # d² = 11.5·V·lnV, accuracy 0.996-1.0).  Well above, d = 256 (d² = 46·V·lnV): every
    # fact of every seed (measured 1.0 on 3 seeds).  Well below, d = 32 (d² = 0.7·V·lnV):
    # measured 0.12-0.18, bound 0.4.
    V = 256
    assert 256**2 > 40 * V * math.log(V) and 32**2 < V * math.log(V)
    for seed in range(3):
        above = simulate_linear_am(LinearAMParams(V=V, d=256, target=1.0), seed)
        below = simulate_linear_am(LinearAMParams(V=V, d=32), seed)
        assert above.success and above.accuracy == 1.0
        assert not below.success and below.accuracy < 0.4


def test_hebbian_accuracy_is_a_function_of_d_squared_over_V_log_V():
    # docs/theory.md §7.2 numbers at d = 128: V=512 -> 0.94, V=1024 -> 0.62 (d² = 5.1 and 2.3 V·lnV).
    # One seed each; ±0.05 covers the seed-to-seed spread (0.93-0.95 and 0.60-0.65 over 3 seeds).
    assert simulate_linear_am(LinearAMParams(V=512, d=128), 0).accuracy == pytest.approx(0.94, abs=0.05)
    assert simulate_linear_am(LinearAMParams(V=1024, d=128), 0).accuracy == pytest.approx(0.62, abs=0.05)


def test_trained_memory_stores_facts_below_the_hebbian_line():
    # Nichani et al. 2025: the trained memory stores V facts from d² ≈ 1.3·V·lnV, far below
    # the Hebbian ~10·V·lnV.  At V=128, d=32 (d² = 1.65·V·lnV), 100 steps of GD recall
    # every fact (measured 1.0 on 3 seeds; likewise 1.0 at V=256, d=48 after 200 steps)
    # while Hebbian gets 0.36-0.44.  Bound: trained >= 0.98 (2 of 128 facts of slack).
    trained = simulate_linear_am(LinearAMParams(V=128, d=32, method="gd", steps=100), 0)
    assert trained.accuracy >= 0.98
    assert trained.extras["final_loss"] < math.log(128)  # below the loss of W = 0
    assert simulate_linear_am(LinearAMParams(V=128, d=32), 0).accuracy < 0.6


def test_adam_lowers_the_loss():
    p = LinearAMParams(V=64, d=16, method="gd", optimizer="adam", lr=0.1, steps=30)
    fast = simulate_linear_am(p, 1).extras["final_loss"]
    slow = simulate_linear_am(LinearAMParams(V=64, d=16, method="gd", optimizer="adam", lr=0.1, steps=3), 1)
    assert fast < slow.extras["final_loss"] < math.log(64)


def test_same_seed_same_outcome():
    p = LinearAMParams(V=64, d=16, method="gd", steps=20)
    a, b = simulate_linear_am(p, 3).to_dict(), simulate_linear_am(p, 3).to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b and a["params"]["task"] == "linear-am"


@pytest.mark.parametrize(
    "changes, words",
    [({"V": 1}, ["V", ">= 2", "got 1"]), ({"d": 0}, ["d", ">= 1"]),
     ({"method": "svd"}, ["method", "'hebbian'", "'svd'"]), ({"steps": 0}, ["steps", ">= 1"]),
     ({"lr": -1.0}, ["lr", "positive", "-1.0"]), ({"target": 2}, ["target", "(0, 1]"]),
     ({"optimizer": "sgd"}, ["optimizer", "'adam'", "'sgd'"])],
)
def test_bad_params(changes, words):
    with pytest.raises(ValueError) as err:
        LinearAMParams(**(dict(V=8, d=4) | changes))
    assert all(w in str(err.value) for w in words)
