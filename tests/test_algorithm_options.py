"""An algorithm's options are checked by the rules it declares (``Algorithm.option_rules``),
by the task before any trial and by the runner itself: the same rule, one line."""

import numpy as np
import pytest

from theorycheck.registry import get_algorithm
from theorycheck.tasks.retrieval_task import TASK, retrieval_params

SMALL = {"V": 16, "d": 16, "L": 4, "N": 64}


@pytest.mark.parametrize(("algorithm", "options", "fragment"), [
    ("gd", {"steps": "abc"}, "algorithm gd: steps must be an integer >= 1, got 'abc' (number of gradient steps)"),
    ("gd", {"steps": 0}, "steps must be an integer >= 1, got 0"),
    ("gd", {"lr": -0.1}, "lr must be a positive finite number, got -0.1"),
    ("gd", {"optimizer": "sgd"}, "optimizer must be one of 'gd', 'adam', got 'sgd'"),
    ("gd", {"record_every": 0}, "record_every must be an integer >= 1"),
    ("gd", {"layout": "sparse"}, "layout must be one of 'tokens', 'dense'"),
    ("three-step", {"eta": 0}, "algorithm three-step: eta must be a positive finite number"),
    ("three-step", {"gamma_prime": "big"}, "gamma_prime must be a positive finite number, got 'big'"),
    ("limit", {"beta": "x"}, "algorithm limit: beta must be a positive number or inf"),
    ("limit", {"threads": 1.5}, "threads must be an integer >= 1, got 1.5"),
    ("limit", {"cache_bytes": -1}, "cache_bytes must be an integer >= 0"),
    ("limit", {"backend": "jax"}, "unknown backend 'jax'"),
    ("gd", {"backend": "jax"}, "algorithm gd: unknown backend 'jax'"),
    ("gd", {"backend": "array_api_strict", "layout": "dense"},
     "algorithm gd: layout='dense' is the host's reference layout; with backend='array_api_strict'"),
    ("three-step", {"beta": 3, "gamma": 1.0}, "algorithm three-step: give gamma or beta, not both"),
    ("three-step", {"backend": 3}, "unknown backend 3"),
    ("one-step", {"chunk_tokens": 0}, "algorithm one-step: chunk_tokens must be an integer >= 1"),
])
def test_bad_option_values_are_refused_by_check_params(algorithm, options, fragment):
    for given in (options, {"options": options}):  # flat (as --set) or inside options
        with pytest.raises(ValueError) as exc:
            TASK.check_params({**SMALL, "algorithm": algorithm, **given})
        assert fragment in str(exc.value) and "\n" not in str(exc.value)


def test_unknown_option_inside_options_is_refused():
    with pytest.raises(ValueError, match=r"algorithm gd \(model attention\) has no option\(s\) \['beta'\]; "
                                         r"its options: steps, lr"):
        TASK.check_params({**SMALL, "algorithm": "gd", "options": {"beta": 4}})


def test_checked_options_are_normalised():
    # 60.0 (a size read from JSON) is the integer 60; None keeps the runner's default
    _, _, options = retrieval_params({**SMALL, "algorithm": "gd", "steps": 60.0, "lr": None})
    assert options == {"steps": 60, "lr": None} and type(options["steps"]) is int
    _, _, options = retrieval_params({**SMALL, "beta": "inf"})
    assert options == {"beta": float("inf")}


def test_every_registered_option_with_a_rule_is_an_option_of_a_runner():
    # a rule for a name no runner takes would check a setting the trial then refuses
    for name in ("limit", "one-step", "three-step", "gd"):
        algorithm = get_algorithm(name)
        names = {o for model in algorithm.models for o in algorithm.options(model)}
        assert set(algorithm.option_rules) <= names, name


def test_the_runner_applies_the_same_rule():
    from theorycheck.algorithms.gd import run_gd
    from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings

    p = RetrievalParams(**SMALL)
    emb = make_embeddings(p, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"^steps must be an integer >= 1, got 0 \(number of gradient steps\)$"):
        run_gd(p, emb, np.random.SeedSequence(0), steps=0)
