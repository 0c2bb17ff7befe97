"""Imports go one way, downward (DESIGN.md section 2); checked on the source, not by convention."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("mentalpoker", "koikoi_p2p", "koikoi_relay", "koikoi_web")

# What each layer may import from this project. Anything not listed here is forbidden.
# koikoi_p2p subpackages are keyed by their dotted name; a module's layer is its longest match.
ALLOWED: dict[str, set[str]] = {
    # The relay may serve the browser app's files (koikoi relay --web); koikoi_web is data and
    # the standard library only.
    "koikoi_relay": {"koikoi_relay", "koikoi_web"},
    "koikoi_web": {"koikoi_web"},
    "mentalpoker": {"mentalpoker"},
    "koikoi_p2p.rules": {"koikoi_p2p.rules"},
    "koikoi_p2p.ai": {"koikoi_p2p.rules", "koikoi_p2p.ai"},
    "koikoi_p2p.protocol": {"mentalpoker", "koikoi_p2p.rules", "koikoi_p2p.protocol"},
    "koikoi_p2p.audit": {"mentalpoker", "koikoi_p2p.rules", "koikoi_p2p.protocol", "koikoi_p2p.audit"},
    "koikoi_p2p.net": {
        "mentalpoker", "koikoi_p2p.rules", "koikoi_p2p.ai", "koikoi_p2p.protocol",
        "koikoi_p2p.audit", "koikoi_p2p.net",
    },
    # The rating service checks results with the audit's code and serves them; only the command
    # line composes it with the relay (koikoi relay --ratings).
    # The rating client checks certificates with the one client TLS helper (koikoi_p2p.net.tls,
    # standard library only), as every other client command does.
    "koikoi_p2p.ratings": {
        "mentalpoker", "koikoi_p2p.rules", "koikoi_p2p.protocol", "koikoi_p2p.audit", "koikoi_p2p.ratings",
        "koikoi_p2p.net",
    },
    # The command line and the benchmarks sit on top and may use everything, the relay included.
    "koikoi_p2p.cli": {"*"},
    "koikoi_p2p.bench": {"*"},
    "koikoi_p2p.__main__": {"*"},  # ``python -m koikoi_p2p`` is the command line
    "koikoi_p2p": {"koikoi_p2p"},  # the package root itself stays import-light
}
THIRD_PARTY_FORBIDDEN: dict[str, set[str]] = {
    # The rules are pure: no crypto, no I/O libraries.
    "koikoi_p2p.rules": {"nacl", "cryptography", "msgpack", "websockets", "spake2", "asyncio"},
    "koikoi_p2p.ai": {"nacl", "cryptography", "msgpack", "websockets", "spake2", "asyncio"},
    "mentalpoker": {"websockets", "asyncio", "spake2"},
    "koikoi_relay": {"nacl", "cryptography", "spake2"},
    "koikoi_web": {"nacl", "cryptography", "spake2", "msgpack", "websockets"},
}


def _modules() -> list[tuple[str, Path]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.append((".".join(parts), path))
    return found


def _layer(module: str) -> str:
    best = ""
    for key in ALLOWED:
        if (module == key or module.startswith(key + ".")) and len(key) > len(best):
            best = key
    assert best, f"{module} belongs to no layer"
    return best


def _imports(module: str, path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    package_parts = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names.append(prefix)
            names.extend(f"{prefix}.{alias.name}" for alias in node.names)
    return names


def _is_project(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def test_every_module_has_a_layer() -> None:
    for module, _ in _modules():
        _layer(module)


def test_imports_only_go_downward() -> None:
    violations = []
    for module, path in _modules():
        layer = _layer(module)
        allowed = ALLOWED[layer]
        for name in _imports(module, path):
            if not _is_project(name) or "*" in allowed:
                continue
            target = _layer(name)
            if target == "koikoi_p2p":  # the import-light package root (its version string)
                continue
            if target not in allowed:
                violations.append(f"{module} imports {name} ({layer} -> {target})")
        for name in _imports(module, path):
            top = name.split(".")[0]
            if top in THIRD_PARTY_FORBIDDEN.get(layer, set()):
                violations.append(f"{module} imports {name}, which {layer} must not use")
    assert not violations, "\n".join(violations)


# The group's operations live in mentalpoker.group; the session's primitives module also binds the
# two primitives of the identity file (spec/identity.md) that PyNaCl offers only as bindings:
# Argon2id's raw output and XChaCha20-Poly1305.
BINDINGS_ALLOWED = {"mentalpoker.group", "koikoi_p2p.protocol.primitives"}


def test_only_the_group_module_touches_libsodium_bindings() -> None:
    offenders = []
    for module, path in _modules():
        for name in _imports(module, path):
            if name.startswith("nacl.bindings") and module not in BINDINGS_ALLOWED:
                offenders.append(f"{module} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The checker itself can fail: a rules module that imports mentalpoker is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("import mentalpoker.group\nfrom nacl import bindings\n", encoding="utf-8")
    names = _imports("koikoi_p2p.rules.bad", bad)
    assert "mentalpoker.group" in names
    assert _layer("mentalpoker.group") not in ALLOWED["koikoi_p2p.rules"]
    assert "nacl.bindings" in names
