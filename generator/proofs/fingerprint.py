"""Fingerprints of code that leave out what cannot change an answer (issue #64).

:func:`normalised_tree` is a module's syntax tree without what does not change a result:

- comments and layout are not in the tree at all; line and column numbers are left out;
- docstrings are dropped: every statement that is a bare string in a module, class or function
  body (the body's first, and the attribute docstrings written under constants);
- the local variables of each function are renamed by order of first appearance, so renaming a
  local changes nothing (parameters keep their names: callers may pass them by keyword).

:func:`narrow_fingerprint` takes it further for the few modules whose code keys a record's answer
part directly (:data:`.keys.CODE_PARTS`: the searches of the regret values and the why facts, the
solution's assembly): messages, annotations, unused functions and the names of their own
functions are left out too. The rules engine and the planner are keyed by what they do
(:mod:`.keys`), not by their code. Budgets are module constants of these modules, so they are
inside the fingerprint with no version string to bump by hand.
"""
from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the folder holding ``solver/`` and ``generator/``)."""
PROJECT_PACKAGES = ("solver", "generator")
"""Top-level packages whose modules can be fingerprinted; anything else is a library."""


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
