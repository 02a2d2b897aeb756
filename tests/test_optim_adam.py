"""The package's one Adam against a textbook Adam (Kingma & Ba 2015, Algorithm 1)."""

import numpy as np
import pytest

from theorycheck.optim import Adam


def textbook_adam(grad, theta0, alpha, steps, beta1=0.9, beta2=0.999, eps=1e-8):
    """Kingma & Ba (2015), Algorithm 1, line by line; returns every iterate."""
    theta = np.array(theta0, dtype=float)
    m = np.zeros_like(theta)  # m_0 <- 0 (initialize 1st moment vector)
    v = np.zeros_like(theta)  # v_0 <- 0 (initialize 2nd moment vector)
    path = [theta.copy()]
    for t in range(1, steps + 1):
        g = grad(theta)                                  # g_t <- grad f_t(theta_{t-1})
        m = beta1 * m + (1 - beta1) * g                  # m_t <- b1 m_{t-1} + (1 - b1) g_t
        v = beta2 * v + (1 - beta2) * g**2               # v_t <- b2 v_{t-1} + (1 - b2) g_t^2
        m_hat = m / (1 - beta1**t)                       # bias-corrected first moment
        v_hat = v / (1 - beta2**t)                       # bias-corrected second moment
        theta = theta - alpha * m_hat / (np.sqrt(v_hat) + eps)
        path.append(theta.copy())
    return np.array(path)


# f(theta) = 1/2 theta^T A theta - b^T theta, A symmetric positive definite, ill-conditioned
A = np.array([[3.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 0.1]])
B = np.array([1.0, -2.0, 0.5])


def grad(theta):
    return A @ theta - B


@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.3])
def test_adam_follows_the_textbook_algorithm(alpha):
    steps = 300
    expected = textbook_adam(grad, np.zeros(3), alpha, steps)
    theta = np.zeros(3)
    adam = Adam([theta.shape])
    path = [theta.copy()]
    for _ in range(steps):
        theta = theta - adam.step([grad(theta)], alpha)[0]
        path.append(theta.copy())
    # Same formulas, evaluated in a slightly different order (in-place moments, g*g for
    # g**2): the iterates agree to rounding, ~1e-16 relative per step; 1e-10 leaves room for
    # 300 steps of accumulation while any real difference (a missing bias correction, eps
    # inside the square root, beta swapped) moves the first steps by > 1e-3.
    np.testing.assert_allclose(np.array(path), expected, rtol=1e-10, atol=1e-12)


def test_adam_steps_several_arrays_independently():
    adam = Adam([(2,), (2, 2)])
    g1, g2 = np.array([1.0, -4.0]), np.array([[0.5, 0.0], [-2.0, 3.0]])
    u1, u2 = adam.step([g1, g2], 0.1)
    # first step: m_hat = g and v_hat = g^2, so the update is alpha * sign(g) (up to eps)
    np.testing.assert_allclose(u1, 0.1 * np.sign(g1), rtol=1e-7)
    np.testing.assert_allclose(u2, 0.1 * np.sign(g2), rtol=1e-7, atol=1e-12)


def test_adam_converges_on_the_quadratic():
    theta, adam = np.zeros(3), Adam([(3,)])
    for t in range(20000):
        theta = theta - adam.step([grad(theta)], 0.01 if t < 15000 else 0.001)[0]
    # the minimiser solves A theta = b (|theta*| ~ 17); Adam's steps shrink with the
    # gradient near it and the run ends within ~3e-6 of it (measured); 1e-3 is the final
    # step size, a bound a wrong update direction or scale cannot meet
    np.testing.assert_allclose(theta, np.linalg.solve(A, B), atol=1e-3)


def test_adam_rejects_bad_input():
    with pytest.raises(ValueError, match="b1 must be a float in"):
        Adam([(2,)], b1=1.0)
    with pytest.raises(ValueError, match="built for 1 arrays, got 2"):
        Adam([(2,)]).step([np.zeros(2), np.zeros(2)], 0.1)
