"""The web client stays in parts a reader can hold in mind: no ES module under
``games/static/`` is over 400 lines, and no class in one is over 300.

A class is measured from its ``class X`` line to the line of its closing brace, found by
counting braces outside strings and comments (enough for the client's plain modules).
"""

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "games" / "static"
MOST_MODULE_LINES = 400
MOST_CLASS_LINES = 300
MODULES = sorted(STATIC.rglob("*.js"))

CLASS_START = re.compile(r"^\s*(?:export\s+)?(?:default\s+)?class\s+(\w+)")
# A string or a comment: its braces are not the code's.
NOT_CODE = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.DOTALL)


def class_sizes(source: str) -> dict[str, int]:
    """Each class of a module and its length in lines, its first and last lines included."""
    # Strings and comments blanked, their newlines kept, so that line numbers stay right.
    code = NOT_CODE.sub(lambda match: re.sub(r"[^\n]", " ", match.group()), source)
    lines = code.split("\n")
    sizes: dict[str, int] = {}
    for start, line in enumerate(lines):
        found = CLASS_START.match(line)
        if not found:
            continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            for char in lines[end]:
                if char == "{":
                    depth, opened = depth + 1, True
                elif char == "}":
                    depth -= 1
            if opened and depth <= 0:
                sizes[found.group(1)] = end - start + 1
                break
        else:
            sizes[found.group(1)] = len(lines) - start
    return sizes


def test_the_client_has_modules_to_measure():
    names = {path.relative_to(STATIC).as_posix() for path in MODULES}
    assert {"play/app.js", "play/game.js", "teach/app.js", "common/api.js"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(STATIC).as_posix())
def test_no_module_is_over_400_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_MODULE_LINES, f"{path.name} has {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(STATIC).as_posix())
def test_no_class_is_over_300_lines(path):
    sizes = class_sizes(path.read_text(encoding="utf-8"))
    too_long = {name: size for name, size in sizes.items() if size > MOST_CLASS_LINES}
    assert not too_long, f"{path.name}: {too_long}"


def test_a_class_is_measured_to_its_own_closing_brace():
    source = "\n".join([
        "// class Commented { is not a class",
        "export class Screen {",
        "  show() {",
        '    const brace = "}";',
        "    return `${brace}`; // }",
        "  }",
        "}",
        "",
        "class Other { x() {} }",
        "function after() {}",
    ])
    assert class_sizes(source) == {"Screen": 6, "Other": 1}
