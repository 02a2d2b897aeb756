"""Dense reference models of docs/theory.md §2 (forward pass, loss, analytic gradients)."""

from theorycheck.models.attention import DenseModel, Forward, LossGradients, dense_model, softmax_rows

__all__ = ["DenseModel", "Forward", "LossGradients", "dense_model", "softmax_rows"]
