"""The repository cites only itself: the contract, the rules and the design notes it refers
to are files under docs/ that exist, and the links of the README and of docs/ lead somewhere.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# Everything the repository holds besides its tools' caches and installs.
TOP = [
    "config", "games", "scoring", "tests", "docs", ".ci",
    "manage.py", "pyproject.toml", "docker-compose.yml", "README.md", "Makefile", ".gitignore",
]
SKIPPED_DIRS = {
    "__pycache__", "node_modules", "build", "staticfiles", "strategy-tables", ".venv",
    ".pytest_cache", ".ruff_cache", ".hypothesis", ".metrics",
}
# A citation of the contract, the design notes or a rule text, with whatever path precedes it.
CITATION = re.compile(r"[\w./-]*(?:\bAPI\.md|\bDESIGN\.md|\brules/[\w*-]+\.md)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def repository_files() -> list[Path]:
    files = []
    for name in TOP:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(
                file
                for file in path.rglob("*")
                if file.is_file() and not SKIPPED_DIRS & set(file.relative_to(ROOT).parts)
            )
    return files


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def cited_file(source: Path, citation: str) -> Path | None:
    """The file under docs/ a citation names, read from the repository's root or, in a
    page of docs/, from that page's folder; None when it names none."""
    bases = [ROOT] + ([source.parent] if DOCS in source.parents else [])
    for base in bases:
        target = (base / citation).resolve()
        if DOCS in target.parents and target.is_file():
            return target
    return None


def test_every_citation_of_a_contract_rule_or_design_text_is_a_file_of_docs():
    this = Path(__file__).resolve()
    wrong = []
    for path in repository_files():
        text = text_of(path)
        if text is None or path.resolve() == this:
            continue
        where = str(path.relative_to(ROOT))
        for match in CITATION.finditer(text):
            citation = match.group()
            if cited_file(path, citation) is not None:
                continue
            line = text.count("\n", 0, match.start()) + 1
            wrong.append(f"{where}:{line}: {citation}")
    assert not wrong, "cite a file under docs/ that exists:\n" + "\n".join(wrong)


def anchors_of(page: Path) -> set[str]:
    """The fragments of a page's headings, as GitHub makes them: lower case, punctuation
    dropped, spaces made hyphens."""
    headings = re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in headings}


def test_the_links_of_the_readme_and_of_docs_lead_to_files_and_headings_that_exist():
    pages = [ROOT / "README.md", *DOCS.rglob("*.md")]
    broken = []
    for page in pages:
        for link in MARKDOWN_LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", link) or link.startswith("/"):
                continue
            path, _, fragment = link.partition("#")
            target = (page.parent / path).resolve() if path else page
            if not target.exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
            elif fragment and target.suffix == ".md" and fragment not in anchors_of(target):
                broken.append(f"{page.relative_to(ROOT)}: {link} (no such heading)")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move the guide into docs/"
