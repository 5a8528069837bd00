"""The perfect-matching oracle agrees with an exhaustive search on every small graph."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services.arena.matching import has_perfect_matching


def exhaustive(vertices: list[int], edges: set[frozenset[int]]) -> bool:
    if not vertices:
        return True
    first, rest = vertices[0], vertices[1:]
    return any(
        frozenset((first, other)) in edges and exhaustive([v for v in rest if v != other], edges)
        for other in rest
    )


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[int], set[frozenset[int]]]:
    count = draw(st.integers(0, 10))
    vertices = draw(st.lists(st.integers(1, 10**12), min_size=count, max_size=count, unique=True))
    pairs = [frozenset((a, b)) for i, a in enumerate(vertices) for b in vertices[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return vertices, set(chosen)


@settings(max_examples=400)
@given(graphs())
def test_oracle_matches_exhaustive_search(graph: tuple[list[int], set[frozenset[int]]]) -> None:
    vertices, edges = graph
    as_pairs = [tuple(edge) for edge in edges]
    assert has_perfect_matching(vertices, as_pairs) == exhaustive(vertices, edges)  # type: ignore[arg-type]


def test_a_complete_graph_of_64_and_one_missing_its_last_edges() -> None:
    vertices = list(range(64))
    complete = [(a, b) for a in vertices for b in vertices if a < b]
    assert has_perfect_matching(vertices, complete)
    isolated = [(a, b) for a, b in complete if 63 not in (a, b)]
    assert not has_perfect_matching(vertices, isolated)
