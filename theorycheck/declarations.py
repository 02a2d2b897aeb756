"""Declarations of tasks and algorithms: :class:`Task`, :class:`Algorithm` (and
:class:`~theorycheck.variables.Variable`, re-exported from :mod:`theorycheck.variables`).

What each declares is described in :mod:`theorycheck.registry`, which collects them.
Pure and cheap to import: the standard library only.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from theorycheck.validate import check_options
from theorycheck.variables import KINDS, Variable, declared_variables

__all__ = ["Variable", "Task", "Algorithm", "KINDS"]


@dataclass(frozen=True, eq=False)
class Task:
    """A task (see the module docstring).

    ``variables`` -- the scaling variables a law and a sweep design may use (a sequence of
    :class:`Variable`, or a mapping name -> Variable or shorthand ``"integer"`` / ``"real"`` /
    ``(kind, low, high)``, e.g. ``{"n": ("integer", 2, 4096), "p": ("real", 0, 1)}``); ``resource`` -- the variable
    thresholds are measured in by default; ``defaults`` -- values of variables and settings
    a design does not set; ``validate(params)`` -- raises ValueError for parameters the
    trial cannot run (its return value is ignored); ``cost(params)`` -- the work of one
    trial, in units of about 30 ns (a check caps it); ``nested`` -- resources whose data are
    nested (the first ``n`` samples are the same for every value ``>= n``); ``scan(params,
    seed, resource, values)`` -- optional, for a nested resource: an iterator of the seed's
    successes at the increasing ``values``, lazily, each what ``trial`` gives there, when the
    task can grow the resource in one pass (per-seed thresholds then pull from it; None where
    it cannot, e.g. for some settings); ``settings`` --
    other numeric parameters, typed like variables but never varied by a design;
    ``choices`` -- categorical settings and their allowed values.
    """

    name: str
    trial: Callable[[dict, Any], Any]
    variables: Mapping[str, Variable]
    resource: str
    defaults: Mapping[str, Any] = field(default_factory=dict)
    validate: Callable[[Mapping[str, Any]], Any] | None = None
    cost: Callable[[Mapping[str, Any]], float] | None = None
    description: str = ""
    nested: tuple[str, ...] = ()
    settings: Mapping[str, Variable] = field(default_factory=dict)
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    scan: Callable[[dict, Any, str, Any], Any] | None = None
    #: where the task was loaded from (``"detect.py:TASK"``, ``"pkg.mod:TASK"``), set by
    #: :func:`theorycheck.task_sources.load_task`; a report's Reproduce line names it
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"task name must be a non-empty string, got {self.name!r}")
        if not callable(self.trial):
            raise ValueError(f"task {self.name}: trial must be a function trial(params, seed), got {self.trial!r}")
        put = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 (frozen)
        put("variables", declared_variables(f"task {self.name}: variables", self.variables))
        put("settings", declared_variables(f"task {self.name}: settings", self.settings))
        both = sorted(set(self.variables) & set(self.settings))
        if both:
            raise ValueError(f"task {self.name}: {both} declared both as variables and as settings")
        if self.resource not in self.variables:
            raise ValueError(f"task {self.name}: resource {self.resource!r} is not one of its variables "
                             f"{list(self.variables)}")
        put("nested", tuple(self.nested))
        bad = [r for r in self.nested if r not in self.variables]
        if bad:
            raise ValueError(f"task {self.name}: nested resources {bad} are not variables")
        for what, fn in (("validate", self.validate), ("cost", self.cost), ("scan", self.scan)):
            if fn is not None and not callable(fn):
                raise ValueError(f"task {self.name}: {what} must be a function of params or None, got {fn!r}")
        if self.scan is not None and not self.nested:
            raise ValueError(f"task {self.name}: scan needs a nested resource; declare nested=(...) or drop scan")
        put("defaults", MappingProxyType(dict(self.defaults)))
        put("choices", MappingProxyType({k: tuple(v) for k, v in dict(self.choices).items()}))
        for key, value in self.defaults.items():  # a bad default surfaces here, not as a design error
            var = self.declared(key)
            if var is not None and value is not None:
                try:
                    var.check(value)
                except ValueError as exc:
                    raise ValueError(f"task {self.name}: defaults[{key!r}]: {exc}") from None
            elif key in self.choices and value not in self.choices[key]:
                raise ValueError(f"task {self.name}: defaults[{key!r}] must be one of {list(self.choices[key])}, "
                                 f"got {value!r}")
            elif var is None and key not in self.choices and self.validate is None:
                raise ValueError(f"task {self.name}: defaults name {key!r}, which is no declared variable, "
                                 f"setting or choice ({sorted({*self.variables, *self.settings, *self.choices})}); "
                                 "fix the name or declare it")

    def declared(self, name: str) -> Variable | None:
        """The declaration of a variable or numeric setting, or None."""
        return self.variables.get(name) or self.settings.get(name)

    def kind(self, name: str) -> str | None:
        """``"integer"``, ``"real"`` or None for a name the task does not declare."""
        var = self.declared(name)
        return var.kind if var else None

    def coerce(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` with every declared variable and setting coerced to its kind
        (integers rounded: the values the trial runs); others (and None) unchanged."""
        out = dict(params)
        for key, value in out.items():
            var = self.declared(key)
            if var is not None and value is not None:
                out[key] = var.coerce(value)
        return out

    def check_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The coerced ``params``; ValueError (from ``validate``, then from the declared
        ranges) when the trial cannot run them. A task without ``validate`` takes only the
        names it declares (variables, settings and choices; its defaults are checked to be
        among them when it is built): another is a typo its trial would never read."""
        typed = self.coerce(params)
        if self.validate is not None:
            self.validate(typed)
        else:
            known = {*self.variables, *self.settings, *self.choices}
            unknown = sorted(set(typed) - known)
            if unknown:
                raise ValueError(f"task {self.name} has no parameter(s) {unknown}; its names: {sorted(known)} "
                                 "(declare others as settings, or give the task a validate function)")
        for key, value in typed.items():
            var = self.declared(key)
            if var is not None and value is not None:
                var.check(value)
        return typed

    def trial_cost(self, params: Mapping[str, Any]) -> float:
        """The declared cost of one trial at ``params`` (0 where the task declares none)."""
        return float(self.cost(params)) if self.cost is not None else 0.0


def _resolve(fn: str | Callable) -> Callable:
    """A callable, or the function a ``"module:function"`` string names (imported now)."""
    if callable(fn):
        return fn
    module, _, function = fn.partition(":")
    return getattr(importlib.import_module(module), function)


@dataclass(frozen=True, eq=False)
class Algorithm:
    """A training algorithm: ``runners`` maps each supported model to
    ``run(params, emb, train_seed, **options) -> Fitted`` (a callable or a
    ``"module:function"`` string, imported on first use); ``dense`` is True when every
    model's trial touches all ``N*L*d`` numbers, or the tuple of models where it does;
    ``work`` maps a model to ``work(params) -> float``, the trial's own cost model in the
    task's cost units, where neither the fast path's nor the dense one fits;
    ``option_rules`` maps an option to the rule that checks its value
    (:func:`theorycheck.validate.check_options`), so that a bad ``--set`` value is refused
    before any trial runs; ``joint_rule`` (optional) checks the checked options together,
    ``rule(options) -> None`` raising a one-line ValueError for a combination that no trial
    could run (options left at their defaults are absent from ``options``)."""

    name: str
    runners: Mapping[str, str | Callable]
    dense: bool | tuple[str, ...] = False
    task: str = "retrieval"
    description: str = ""
    work: Mapping[str, str | Callable] = field(default_factory=dict)
    option_rules: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    joint_rule: str | Callable | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"algorithm name must be a non-empty string, got {self.name!r}")
        if not isinstance(self.runners, Mapping) or not self.runners:
            raise ValueError(f"algorithm {self.name}: runners must map model -> 'module:function', "
                             f"got {self.runners!r}")
        for kind, table in (("runner", self.runners), ("work", self.work)):
            for model, fn in table.items():
                if not callable(fn) and not (isinstance(fn, str) and ":" in fn):
                    raise ValueError(f"algorithm {self.name}: {kind} of model {model!r} must be a function or "
                                     f"'module:function', got {fn!r}")
        object.__setattr__(self, "runners", MappingProxyType(dict(self.runners)))
        object.__setattr__(self, "work", MappingProxyType(dict(self.work)))
        object.__setattr__(self, "option_rules", MappingProxyType(dict(self.option_rules)))
        if not isinstance(self.dense, bool):
            object.__setattr__(self, "dense", tuple(self.dense))

    @property
    def models(self) -> tuple[str, ...]:
        return tuple(self.runners)

    def is_dense(self, model: str) -> bool:
        return self.dense if isinstance(self.dense, bool) else model in self.dense

    def trial_work(self, model: str, params: Mapping[str, Any]) -> float | None:
        """The declared ``work`` of one trial of ``model`` at ``params`` (``None``: none declared)."""
        fn = self.work.get(model)
        return None if fn is None else float(_resolve(fn)(params))

    def runner(self, model: str = "attention") -> Callable:
        """The function that runs this algorithm for ``model`` (imported now)."""
        if model not in self.runners:
            raise ValueError(f"algorithm {self.name!r} supports model(s) {', '.join(self.models)}, "
                             f"got model={model!r}; choose another model or algorithm")
        return _resolve(self.runners[model])

    def options(self, model: str = "attention") -> tuple[str, ...]:
        """The options of the runner of ``model``: its keyword arguments after
        ``(params, emb, train_seed)``."""
        params = list(inspect.signature(self.runner(model)).parameters.values())[3:]
        return tuple(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))

    def check_options(self, model: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked for the runner of ``model``: every name must be one of its
        :meth:`options`, every value pass its rule (``option_rules``); the checked values.
        ValueError (one line, naming the option, the value and what is accepted) otherwise."""
        known = self.options(model)
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"algorithm {self.name} (model {model}) has no option(s) {unknown}; "
                             f"its options: {', '.join(known) or 'none'}")
        checked = check_options(self.option_rules, options, f"algorithm {self.name}")
        if self.joint_rule is not None:
            try:
                _resolve(self.joint_rule)(checked)
            except ValueError as exc:
                raise ValueError(f"algorithm {self.name}: {exc}") from None
        return checked
