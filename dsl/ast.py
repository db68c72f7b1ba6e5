"""The syntax tree of a .wish file: one attrs class per grammar construct, each with its source span
(`dsl.nodes`: types, expressions, statements; `dsl.decls`: declarations), and the walks over it."""
from __future__ import annotations

import re
from typing import Optional

import attrs

from .decls import *  # noqa: F401,F403 (the declarations, read as A.Game, A.Action, …)
from .decls import Action, Event, Function, Procedure, Program, Var, Zone
from .nodes import *  # noqa: F401,F403 (spans, types, expressions, statements)
from .nodes import Name, Node, Span


def field_names(cls) -> tuple:
    """The names of a node class's fields, in order (worked out once per class)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else ()
    return names


_FIELDS: dict = {}


def children(node: Node) -> list:
    """The nodes directly under `node`, in field order (in lists, and in tuples inside lists), never an extended
    file's Program."""
    out = []
    for name in field_names(type(node)):
        value = getattr(node, name)
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, tuple):
                out.extend(x for x in item if isinstance(x, Node))
            elif isinstance(item, Node) and not isinstance(item, Program):
                out.append(item)
    return out


def walk(root: Node):
    """Every node under `root` (itself included) with its depth, without recursion."""
    todo = [(root, 1)]
    while todo:
        node, depth = todo.pop()
        yield node, depth
        todo.extend((child, depth + 1) for child in children(node))


def deepest(root: Node):
    """(depth, node) of the most deeply nested node."""
    best = (0, root)
    for node, depth in walk(root):
        if depth > best[0]:
            best = (depth, node)
    return best


def difference(a, b) -> Optional[str]:
    """None when two syntax trees say the same thing — source positions (every Span) and a Program's text
    aside — else where they first differ (a path such as `program.decls[3].body`, near a node's place)."""
    todo = [(a, b, "program", None)]
    while todo:
        x, y, where, near = todo.pop()
        if type(x) is not type(y):
            return _near(where, near)
        if isinstance(x, Span):
            continue
        if isinstance(x, (list, tuple)):
            if len(x) != len(y):
                return _near(where, near)
            todo.extend((p, q, f"{where}[{i}]", near) for i, (p, q) in enumerate(zip(x, y)))
        elif isinstance(x, dict):
            if x.keys() != y.keys():
                return _near(where, near)
            todo.extend((x[k], y[k], f"{where}[{k!r}]", near) for k in x)
        elif isinstance(x, Node):
            todo.extend((getattr(x, n), getattr(y, n), f"{where}.{n}", x) for n in field_names(type(x))
                        if not (n == "source" and isinstance(x, Program)))
        elif x != y:
            return _near(where, near)
    return None


def _near(path: str, node) -> str:
    span = getattr(node, "span", None)
    return f"{path}, near {span}" if span is not None and span.line > 0 else path


def uses_names(root: Node, names: set) -> bool:
    """Does any plain name inside `root` read one of `names`?"""
    return any(isinstance(node, Name) and node.name in names for node, _ in walk(root))


READS_SLOT = re.compile(r"\{(\w+)(?:'s)?\}")


def reads_params(d) -> Optional[list]:
    """The names a declaration's `@reads` phrase may use, or None where `@reads` does not belong."""
    if isinstance(d, (Function, Procedure, Event, Action)):
        return [p.name for p in d.params]
    if isinstance(d, Var) and d.keyed_by is not None:
        return [d.keyed_by.name]
    if isinstance(d, Var):
        return ["player"] if d.per_player else []
    if isinstance(d, Zone):
        return []
    return None
