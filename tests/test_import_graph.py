# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The package's import graph has no circle, imports inside functions included.

import-linter's layer contracts see every import too, but only between the layers they name; a
circle inside one layer (two modules of one folder) would pass them.  grimp, the graph library
import-linter is built on, records every import statement of a module wherever it stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Set

import grimp
import pytest

pytestmark = pytest.mark.pure

PACKAGE = "amc_rc_receiver"


def _circles(edges: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one importing itself
    (Tarjan's algorithm, iterative so a deep graph cannot exhaust the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    circles: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            if pending:
                child = pending.pop()
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, sorted(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    circles.append(sorted(component))
    return circles


def test_the_circle_finder_finds_a_circle_through_three_modules_and_none_in_a_chain() -> None:
    """GIVEN a chain a -> b -> c and a circle x -> y -> z -> x WHEN searched THEN only the circle
    is named, with its three members."""
    edges = {"a": {"b"}, "b": {"c"}, "c": set(), "x": {"y"}, "y": {"z"}, "z": {"x"}}
    assert _circles(edges) == [["x", "y", "z"]]


def test_no_module_of_the_package_imports_itself_back_even_from_inside_a_function() -> None:
    """GIVEN the package's import graph with every import statement, deferred ones included
    WHEN its strongly connected components are taken THEN none has more than one module."""
    graph = grimp.build_graph(PACKAGE)
    modules = {module for module in graph.modules if module.startswith(PACKAGE)}
    edges = {
        module: {
            imported for imported in graph.find_modules_directly_imported_by(module) if imported in modules
        }
        for module in modules
    }
    assert _circles(edges) == []
