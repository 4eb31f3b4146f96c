"""The package's modules import one way: no module imports, directly or through others, a
module that imports it (a circle makes import order matter and hides layering)."""
import ast
import tempfile
import unittest
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "odrsim"


def imports_of(path: Path) -> set[str]:
    """The package's own modules that `path` imports anywhere in it (functions included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module)
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("odrsim."):
            found.add(node.module.split(".", 1)[1])
    return found


class ImportTests(unittest.TestCase):
    def test_no_import_circle(self):
        graph = {p.stem: imports_of(p) for p in PACKAGE.glob("*.py")}
        self.assertIn("_api", graph["__init__"])

        def reaches(start: str, goal: str, seen: set[str]) -> bool:
            for nxt in graph.get(start, ()):
                if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                    return True
            return False

        circles = sorted(m for m in graph if reaches(m, m, {m}))
        self.assertEqual(circles, [], f"modules in an import circle: {circles}")

    def test_the_checker_sees_a_circle(self):
        # The check above can fail: a function-level import back up is found.
        source = "def f():\n    from ._api import OdrSimError\n"
        with tempfile.TemporaryDirectory() as folder:
            probe = Path(folder) / "probe.py"
            probe.write_text(source)
            self.assertEqual(imports_of(probe), {"_api"})


if __name__ == "__main__":
    unittest.main()
