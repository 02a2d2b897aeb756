"""The check pipeline: law -> sweep design -> thresholds -> verdict (``theorycheck check``)."""

from theorycheck.check.budget import BUDGETS, Budget, get_budget
from theorycheck.check.runner import CheckResult, check, plan

__all__ = ["BUDGETS", "Budget", "CheckResult", "check", "get_budget", "plan"]
