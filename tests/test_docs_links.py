"""Every relative link in README.md and docs/*.md reaches a file of this repository, and its #anchor a heading there.

The docs were moved out of one README into pages that link to each other; a
renamed heading or page must fail here, not leave a reader at a dead link.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCED = re.compile(r"^```.*?^```", flags=re.MULTILINE | re.DOTALL)


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where brackets are not links."""
    text = FENCED.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set[str]:
    """GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens, repeats numbered."""
    seen: dict[str, int] = {}
    ids = set()
    for line in FENCED.sub("", page.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"^#{1,6} (.+)$", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        ids.add(slug if count == 0 else f"{slug}-{count}")
    return ids


def broken_links(page: Path, root: Path = REPO) -> list[str]:
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto: …: not a file here
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(root)}: ({target})"
        if not file.is_relative_to(root):
            broken.append(f"{where} leaves the repository")
        elif not file.exists():
            broken.append(f"{where} names no file")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            broken.append(f"{where} names no heading of {file.relative_to(root)}")
    return broken


def test_every_relative_link_in_the_readme_and_docs_reaches_a_file_and_heading() -> None:
    assert len(PAGES) > 5
    assert [broken for page in PAGES for broken in broken_links(page)] == []


def test_every_docs_page_is_linked_from_the_docs_index() -> None:
    index = prose((REPO / "docs" / "README.md").read_text(encoding="utf-8"))
    linked = {(REPO / "docs" / target.partition("#")[0]).resolve() for target in LINK.findall(index)}
    assert [page.name for page in PAGES[1:] if page.name != "README.md" and page not in linked] == []


def test_a_dead_link_and_a_dead_anchor_are_caught(tmp_path: Path) -> None:
    """The checker itself can fail: a missing page, a missing heading, a link out of the repository."""
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "there.md").write_text("# There\n\n## Hosts: what each one `really` loads\n")
    page = root / "docs" / "page.md"
    page.write_text(
        "# Title\n\n[ok](there.md#hosts-what-each-one-really-loads) [gone](nowhere.md) [here](#title)\n"
        "[no](#nothing) [no heading](there.md#hosts) [out](../../x) `[code](skipped.md)` [web](https://example.org/x)\n"
        "```sh\n# a comment, not a heading\n[code](skipped.md)\n```\n[fenced](#a-comment-not-a-heading)\n"
    )
    assert broken_links(page, root) == [
        "docs/page.md: (nowhere.md) names no file",
        "docs/page.md: (#nothing) names no heading of docs/page.md",
        "docs/page.md: (there.md#hosts) names no heading of docs/there.md",
        "docs/page.md: (../../x) leaves the repository",
        "docs/page.md: (#a-comment-not-a-heading) names no heading of docs/page.md",
    ]
