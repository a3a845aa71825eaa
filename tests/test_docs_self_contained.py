"""The project's docs stand alone: nothing cites a document a clone lacks,
and every section the code cites exists in the docs it names."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [p for ext in ("py", "md", "toml") for p in ROOT.rglob(f"*.{ext}")
           if not any(part.startswith(".") or part in ("build", "node_modules") for part in p.relative_to(ROOT).parts)]


def test_no_citation_of_documents_outside_the_clone() -> None:
    bad = []
    for p in SOURCES:
        for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if re.search(r"(?<![/\w])(RULES|DESIGN|REFERENCES)\.md|\.\./shared", line):
                bad.append(f"{p.relative_to(ROOT)}:{i}")
    assert not bad, bad[:20]


def test_every_cited_section_exists() -> None:
    heads = {}
    for name in ("design", "game_rules"):
        text = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
        heads[name] = set(re.findall(r"^#+\s*§?\s*(\d+(?:\.\d+)*)\b", text, flags=re.M))
    missing = []
    for p in SOURCES:
        text = p.read_text(encoding="utf-8", errors="replace")
        for name, sec in re.findall(r"docs/(design|game_rules)\.md\s*§\s*(\d+(?:\.\d+)*)", text):
            if sec not in heads[name]:
                missing.append(f"{p.relative_to(ROOT)}: {name} §{sec}")
    assert not missing, missing[:20]
