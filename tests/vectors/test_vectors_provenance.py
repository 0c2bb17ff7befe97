"""spec/README.md §Vectors: every vectors file says at its top how it was produced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
FILES = sorted(VECTORS.rglob("*.json"))


def test_the_vectors_folder_is_found() -> None:
    assert len(FILES) > 20, VECTORS


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(VECTORS)))
def test_every_vectors_file_names_its_provenance(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict), "a vectors file is a JSON object"
    provenance = document.get("provenance")
    assert isinstance(provenance, dict), "a top-level provenance entry (spec/README.md, Vectors)"
    named = provenance.get("generator") or provenance.get("source") or provenance.get("sources")
    assert named, f"the provenance names its generator or source: {sorted(provenance)}"
    generator = provenance.get("generator")
    if isinstance(generator, str) and generator.startswith("spec/"):
        assert (VECTORS.parents[1] / generator.split()[0]).is_file(), generator
