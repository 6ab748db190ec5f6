"""The fingerprint of the code that decides a puzzle record's answers.

A record (:mod:`.record`) is stale when what computes it has changed. "What computes it" is the
import closure of :data:`COMPUTING_MODULES`: those modules and every project module they import, at
any depth, lazily inside a function or at the top (type-only imports under ``if TYPE_CHECKING:``
excluded, as they never run). The benchmark, the command lines and the page producers are not in
it, so editing them never touches a record.

Each module contributes its *normalised* syntax tree, so that what does not change a result does
not change the fingerprint:

- comments and layout are not in the tree at all; line and column numbers are left out;
- docstrings are dropped: every statement that is a bare string in a module, class or function
  body (the body's first, and the attribute docstrings written under constants);
- the local variables of each function are renamed by order of first appearance, so renaming a
  local changes nothing (parameters keep their names: callers may pass them by keyword).

Every other change, a constant, an operator, a budget, a new branch, changes it. Budgets are module
constants of the computing modules, so they are inside the fingerprint with no version string to
bump by hand.
"""
from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the folder holding ``solver/`` and ``generator/``)."""
PROJECT_PACKAGES = ("solver", "generator")
"""Top-level packages whose modules can be in the closure; anything else is a library."""
COMPUTING_MODULES = ("generator.proofs.compute",)
"""Where the closure starts: the module that computes a record, everything it calls is reached."""
FORMAT = "ast-1"
"""The normalisation's own version: changed when the way trees are normalised changes."""


@dataclass(frozen=True)
class Fingerprint:
    """The code fingerprint and the modules it covers."""

    digest: str
    """SHA-256 over (module name, normalised tree) of every module, sorted by name."""
    modules: tuple[str, ...]
    """The modules of the closure, sorted."""


def module_path(name: str, root: Path = ROOT) -> Path | None:
    """The source file of project module ``name`` under ``root`` (a package's ``__init__.py``);
    None for a module outside the project."""
    if name.split(".")[0] not in PROJECT_PACKAGES:
        return None
    base = root.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def _is_type_checking_guard(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking_guard(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported_modules(name: str, tree: ast.Module, is_package: bool) -> set[str]:
    """The modules ``tree`` (module ``name``) imports at run time, resolved to absolute names: for
    ``from X import y`` both ``X`` and ``X.y`` (``y`` may be a submodule)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            parts = base.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


class _Normaliser(ast.NodeTransformer):
    """Drops docstrings and renames each function's locals by order of first appearance."""

    def _strip_docstring(self, body: list[ast.stmt]) -> list[ast.stmt]:
        kept = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                        and isinstance(s.value.value, str))]
        return kept or [ast.Pass()]

    def visit_Module(self, node: ast.Module) -> ast.AST:
        node.body = self._strip_docstring(node.body)
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.body = self._strip_docstring(node.body)
        self.generic_visit(node)
        return node

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        node.body = self._strip_docstring(node.body)
        declared: set[str] = set()
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Global, ast.Nonlocal)):
                declared.update(sub.names)
        parameters = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                                      node.args.vararg, node.args.kwarg) if a is not None}
        renamed: dict[str, str] = {}
        for statement in node.body:
            for sub in ast.walk(statement):
                bound = (sub.id if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)
                         else sub.name if isinstance(sub, ast.ExceptHandler) else None)
                if bound is not None and bound not in parameters and bound not in declared and bound not in renamed:
                    # not a valid identifier: it cannot collide with a real name
                    renamed[bound] = f"local·{len(renamed)}"
        if renamed:
            for statement in node.body:
                for sub in ast.walk(statement):
                    if isinstance(sub, ast.Name) and sub.id in renamed:
                        sub.id = renamed[sub.id]
                    elif isinstance(sub, ast.ExceptHandler) and sub.name in renamed:
                        sub.name = renamed[sub.name]
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._function(node)


def normalised_tree(source: str, filename: str = "<source>") -> str:
    """``source``'s syntax tree without docstrings, positions and local names (see the module doc)."""
    tree = _Normaliser().visit(ast.parse(source, filename))
    return ast.dump(tree, annotate_fields=True, include_attributes=False)


def closure(start: Iterable[str] = COMPUTING_MODULES, root: Path = ROOT) -> dict[str, Path]:
    """Module name -> source file of every project module reachable from ``start`` by run-time
    imports (see the module docstring)."""
    found: dict[str, Path] = {}
    pending = list(start)
    while pending:
        name = pending.pop()
        if name in found:
            continue
        path = module_path(name, root)
        if path is None:
            continue
        found[name] = path
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        pending.extend(imported_modules(name, tree, path.name == "__init__.py"))
        # importing a.b.c runs a/__init__ and a/b/__init__ first
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    return found


def code_fingerprint(start: Iterable[str] = COMPUTING_MODULES, root: Path = ROOT) -> Fingerprint:
    """The fingerprint of the closure of ``start`` under ``root``."""
    modules = closure(start, root)
    digest = hashlib.sha256(FORMAT.encode() + b"\0")
    for name in sorted(modules):
        digest.update(name.encode() + b"\0")
        digest.update(normalised_tree(modules[name].read_text(encoding="utf-8"), str(modules[name])).encode() + b"\0")
    return Fingerprint(digest.hexdigest(), tuple(sorted(modules)))


# --------------------------------------------------------------------------- the narrow fingerprint

MESSAGE_CALLS = frozenset({"print", "warn", "warning", "info", "debug", "error", "exception", "critical", "log",
                           "write", "report", "add", "note"})
"""Calls whose string arguments are messages (besides exception constructors: a name ending in
``Error``, ``Exception`` or ``Warning``)."""
MESSAGE = "·message"
NARROW_FORMAT = "narrow-1"


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _is_message_call(node: ast.Call) -> bool:
    name = _call_name(node)
    return name in MESSAGE_CALLS or name.endswith(("Error", "Exception", "Warning"))


class _Messages(ast.NodeTransformer):
    """Every string written as a message (raised, printed, logged, asserted or handed to an
    exception's constructor) becomes one placeholder: rewording a message changes no answer."""

    @staticmethod
    def _blank(node: ast.AST) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.JoinedStr):
                sub.values = [ast.Constant(MESSAGE)]
            elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                sub.value = MESSAGE

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        if node.exc is not None:
            self._blank(node.exc)
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        if node.msg is not None:
            self._blank(node.msg)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _is_message_call(node):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                self._blank(arg)
        self.generic_visit(node)
        return node


class _Annotations(ast.NodeTransformer):
    """Type annotations run nothing that decides an answer: left out, with ``if TYPE_CHECKING:``
    blocks."""

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.annotation = None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.returns = None
        self.generic_visit(node)
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        node.returns = None
        self.generic_visit(node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:
            return None
        return ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
        if _is_type_checking_guard(node):
            return node.orelse or None
        self.generic_visit(node)
        return node


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _identifiers(node: ast.AST) -> set[str]:
    """Every name a node uses: names, attributes, imported names."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
    return found


def narrow_fingerprint(modules: Iterable[str], entries: Iterable[tuple[str, str]], root: Path = ROOT) -> str:
    """The fingerprint of ``modules`` alone (no import closure), reduced to what decides what
    ``entries`` ((module, function) pairs) compute:

    - the normalisation of :func:`normalised_tree` (no docstrings, positions, local names);
    - no messages (:class:`_Messages`), annotations or type-only imports (:class:`_Annotations`);
    - only the module-level definitions the entries reach, by name, through these modules (a name
      reaching a definition of that name in any of them: more kept, never less); an unused
      function adds nothing;
    - each kept definition named by its module and its rank among the kept ones there, and every
      use of its name inside these modules likewise: renaming a function changes nothing.

    What these modules call elsewhere (the engine, the planner) is keyed by its behaviour
    (:mod:`.keys`), not here."""
    names = sorted(set(modules))
    trees: dict[str, ast.Module] = {}
    for name in names:
        path = module_path(name, root)
        if path is None:
            raise ValueError(f"{name}: not a module of the project under {root}")
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        tree = _Annotations().visit(_Messages().visit(tree))
        trees[name] = _Normaliser().visit(tree)
    definitions: dict[str, list[tuple[str, ast.stmt]]] = {}
    for module, tree in trees.items():
        for statement in tree.body:
            if isinstance(statement, _DEFINITIONS):
                definitions.setdefault(statement.name, []).append((module, statement))
    reached: set[int] = set()
    pending: list[ast.AST] = [s for tree in trees.values() for s in tree.body if not isinstance(s, _DEFINITIONS)]
    pending += [node for module, name in entries for m, node in definitions.get(name, []) if m == module]
    for module, name in entries:
        if not any(m == module for m, _ in definitions.get(name, [])):
            raise ValueError(f"{module}.{name}: no such function to start the fingerprint from")
    for node in pending:
        reached.add(id(node))
    while pending:
        node = pending.pop()
        for identifier in _identifiers(node):
            for _, definition in definitions.get(identifier, []):
                if id(definition) not in reached:
                    reached.add(id(definition))
                    pending.append(definition)
    renamed: dict[str, str] = {}
    digest = hashlib.sha256(NARROW_FORMAT.encode() + b"\0")
    for module, tree in trees.items():
        tree.body = [s for s in tree.body if not isinstance(s, _DEFINITIONS) or id(s) in reached]
        for rank, statement in enumerate(s for s in tree.body if isinstance(s, _DEFINITIONS)):
            assert isinstance(statement, _DEFINITIONS)
            renamed.setdefault(statement.name, f"{module}#{rank}")
    entry_names = {name for _, name in entries}
    for module, tree in trees.items():
        for sub in ast.walk(tree):
            if isinstance(sub, _DEFINITIONS) and sub.name in renamed and sub.name not in entry_names:
                sub.name = renamed[sub.name]
            elif isinstance(sub, ast.Name) and sub.id in renamed and sub.id not in entry_names:
                sub.id = renamed[sub.id]
            elif isinstance(sub, ast.Attribute) and sub.attr in renamed and sub.attr not in entry_names:
                sub.attr = renamed[sub.attr]
            elif isinstance(sub, ast.alias) and sub.name in renamed and sub.name not in entry_names:
                sub.name = renamed[sub.name]
        digest.update(module.encode() + b"\0" + ast.dump(tree, include_attributes=False).encode() + b"\0")
    return digest.hexdigest()
