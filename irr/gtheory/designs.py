"""Designs of generalizability studies: the object of measurement, the facets, which facets
are nested in which, and the effects (variance components) the design has.

An *effect* is a set of facets (the object counted as one) closed under nesting: when a
facet is in the set, so is every facet it is nested in (Brennan, 2001, ch. 3). A facet
nested in another is written ``r:t`` (raters within tasks); crossed facets are written
``p × r``. The effects of ``p × (r:t)`` are ``p``, ``t``, ``r:t``, ``pt``, ``pr:t``: the
five closed subsets of ``{p, r, t}``. The last effect (every facet) is confounded with
the residual error (one score per cell) and is written with ``, e``.

Everything here is pure: names and sizes in, tuples out (no data).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

__all__ = ["Design", "Effect", "make_design"]


@dataclass(frozen=True)
class Effect:
    """One variance component of a design.

    ``facets`` are the facets in the effect, in the design's order (the object first);
    ``primary`` those not nesting another facet of the effect, ``nesting`` the others
    (``pr:t``: primary ``(p, r)``, nesting ``(t,)``).
    """

    facets: tuple[str, ...]
    primary: tuple[str, ...]
    nesting: tuple[str, ...]
    residual: bool = False

    def name(self, letters: dict[str, str] | None = None, sep: str = " × ") -> str:
        """``'patient × rater:site'`` (full names), or with `letters` ``'pr:s'``."""
        if letters is not None:
            text = "".join(letters[f] for f in self.primary)
            if self.nesting:
                text += ":" + "".join(letters[f] for f in self.nesting)
            return text + (",e" if self.residual else "")
        text = sep.join(self.primary)
        if self.nesting:
            text += ":" + sep.join(self.nesting)
        return text + (", e" if self.residual else "")


@dataclass(frozen=True)
class Design:
    """The object of measurement, the facets and their nesting.

    Examples
    --------
    >>> d = make_design("person", ["rater", "task"], {"rater": "task"})
    >>> d.notation
    'p × (r:t)'
    >>> [e.name(d.letters) for e in d.effects]
    ['p', 't', 'pt', 'r:t', 'pr:t,e']
    >>> make_design("person", ["rater", "occasion"]).notation
    'p × r × o'
    """

    object: str
    facets: tuple[str, ...]
    parents: tuple[tuple[str, str], ...] = ()  # (child, parent): child nested in parent

    @property
    def all_facets(self) -> tuple[str, ...]:
        """The object, then the facets."""
        return (self.object, *self.facets)

    @property
    def parent(self) -> dict[str, str]:
        return dict(self.parents)

    def ancestors(self, facet: str) -> tuple[str, ...]:
        """Every facet `facet` is nested in (directly or through others), nearest first."""
        out = []
        parent = self.parent
        while facet in parent:
            facet = parent[facet]
            out.append(facet)
        return tuple(out)

    @property
    def letters(self) -> dict[str, str]:
        """One lower-case letter per facet (their initials, when those differ; else the
        full names)."""
        initials = [str(f)[:1].lower() or "?" for f in self.all_facets]
        if len(set(initials)) == len(initials):
            return dict(zip(self.all_facets, initials, strict=True))
        return {f: str(f) for f in self.all_facets}

    @property
    def effects(self) -> tuple[Effect, ...]:
        """Every effect: the subsets of the facets closed under nesting, by size, then in
        the facets' order; the last (every facet) is the residual."""
        names = self.all_facets
        order = {f: i for i, f in enumerate(names)}
        out = []
        for size in range(1, len(names) + 1):
            for subset in combinations(names, size):
                chosen = set(subset)
                if any(a not in chosen for f in subset for a in self.ancestors(f)):
                    continue
                nesting = {a for f in subset for a in self.ancestors(f)}
                primary = tuple(f for f in subset if f not in nesting)
                out.append(Effect(tuple(subset), primary,
                                  tuple(sorted(nesting, key=order.__getitem__)),
                                  residual=size == len(names)))
        return tuple(out)

    @property
    def notation(self) -> str:
        """Brennan's notation with the facets' letters: ``'p × (r:s)'``, ``'p × i × r'``,
        ``'(r:p)'``, ``'p × (i:s) × r'``."""
        letters = self.letters
        children: dict[str, list[str]] = {}
        for child, parent in self.parents:
            children.setdefault(parent, []).append(child)

        def term(facet: str) -> str:
            # a facet with the facets nested in it: r:s, (i:s) ...
            inner = [term(c) for c in children.get(facet, [])]
            return letters[facet] if not inner else f"{' × '.join(inner)}:{letters[facet]}"

        nested_in_object = children.get(self.object, [])
        tops = [f for f in self.facets if f not in self.parent]
        parts = []
        for f in tops:
            t = term(f)
            parts.append(f"({t})" if ":" in t else t)
        if nested_in_object:
            inner = " × ".join(term(c) for c in nested_in_object)
            head = f"({inner}:{letters[self.object]})"
            return " × ".join([head, *parts])
        return " × ".join([letters[self.object], *parts])

    def is_within_object(self, effect: Effect) -> bool:
        """Whether `effect` involves the object (its component varies between objects)."""
        return self.object in effect.facets


def make_design(object: str, facets: Any, nested: Any = None) -> Design:
    """A checked :class:`Design` from the names a user gives.

    Parameters
    ----------
    object : str
        The object of measurement (the column of patients, persons, essays).
    facets : sequence of str
        The facets of measurement (raters, occasions, items, and the facets others are
        nested in, e.g. sites).
    nested : dict, optional
        ``{child: parent}``: each child facet nested in its parent facet (or in the
        object: ``{'rater': 'patient'}`` is the design ``(r:p)``).

    Examples
    --------
    >>> make_design("p", ["r"], {"r": "p"}).notation
    '(r:p)'
    >>> make_design("p", ["r"], {"r": "s"})
    Traceback (most recent call last):
    ...
    ValueError: `nested`: 'r' is nested in 's', which is not a facet; facets: ['r'] (and the object 'p').
    """
    if isinstance(facets, str):
        facets = [facets]
    facets = tuple(facets)
    if not facets:
        raise ValueError("`facets` must name at least one facet (e.g. facets=['rater']).")
    if len(set(facets)) != len(facets):
        raise ValueError(f"`facets` names a facet twice: {list(facets)!r}.")
    if object in facets:
        raise ValueError(f"`object` {object!r} is also listed in `facets`; the object of "
                         "measurement is not a facet.")
    nested = {} if nested is None else dict(nested)
    names = (object, *facets)
    for child, parent in nested.items():
        if child == object:
            raise ValueError(f"`nested`: the object of measurement {object!r} cannot be nested "
                             f"in {parent!r}; nest facets in the object instead "
                             "(e.g. {'rater': ...}).")
        if child not in facets:
            raise ValueError(f"`nested`: {child!r} is not a facet; facets: {list(facets)!r}.")
        if parent not in names:
            raise ValueError(f"`nested`: {child!r} is nested in {parent!r}, which is not a "
                             f"facet; facets: {list(facets)!r} (and the object {object!r}).")
        if parent == child:
            raise ValueError(f"`nested`: {child!r} cannot be nested in itself.")
    design = Design(object, facets, tuple((c, nested[c]) for c in facets if c in nested))
    for f in facets:  # a cycle never reaches the top
        seen = {f}
        g = f
        while g in nested:
            g = nested[g]
            if g in seen:
                raise ValueError(f"`nested` forms a cycle through {f!r}: {nested!r}.")
            seen.add(g)
    return design
